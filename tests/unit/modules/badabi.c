// SPDX-License-Identifier: GPL-2.0-or-later
/* An analyzer built against a future ABI: the host must refuse it. */
#include <dio/analyzer.h>

const struct dio_analyzer dio_analyzer = {
	.abi = 99,
	.size = sizeof(struct dio_analyzer) + 64,
	.name = "badabi",
};
