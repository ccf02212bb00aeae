// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include "analyzers/common/errnames.h"

static const struct {
	int err;
	const char *name;
} errnos[] = {
#define XLAT(c)			{ (c), #c },
#define XLAT_PAIR(v, n)		{ (v), (n) },
#include "xlat/errnos.h"
#undef XLAT
#undef XLAT_PAIR
};

const char *errno_name(int err)
{
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	return NULL;
}
