// SPDX-License-Identifier: GPL-2.0-or-later
/* A descriptor of the right ABI and size without an init function: refused, not called. */
#include <dio/analyzer.h>

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "noinit",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
};
