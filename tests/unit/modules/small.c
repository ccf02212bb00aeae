// SPDX-License-Identifier: GPL-2.0-or-later
/* A descriptor that claims fewer bytes than ABI 1 defines: the host must refuse it. */
#include <dio/analyzer.h>

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = 16,
	.name = "small",
};
