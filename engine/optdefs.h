/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option table: one row per option of dio's commands. The command line's
 * getopt tables, the config file's keys, the ranges, --help and the check
 * that the manual names every option all read these rows.
 */
#ifndef DIO_ENGINE_OPTDEFS_H
#define DIO_ENGINE_OPTDEFS_H

#include <stddef.h>
#include "options.h"

extern const struct opt_def opt_defs[];
extern const size_t opt_ndefs;

/* The row of a config file's key; NULL when none. */
const struct opt_def *optdefs__key(const char *key);
/* --format text|json into the int field of d (dio diff has a row of its own) */
int optdefs__format(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen);

#endif
