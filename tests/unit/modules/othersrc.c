// SPDX-License-Identifier: GPL-2.0-or-later
/* A source module whose file name is not its scheme: refused, never opened. */
#include <stdlib.h>
#include <dio/source.h>

static void *open_none(const char *spec, char *err, size_t errlen)
{
	abort();	/* the host must refuse the module before */
}

static int next_none(void *state, const void **rec, size_t *size)
{
	return 0;
}

static void close_none(void *state)
{
}

const struct dio_source dio_source = {
	.abi = DIO_SOURCE_ABI,
	.size = sizeof(struct dio_source),
	.name = "othersrc",
	.scheme = "other",
	.open = open_none,
	.next = next_none,
	.close = close_none,
};
