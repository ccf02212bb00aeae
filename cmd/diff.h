/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio diff A.dio B.dio: what changed between two recordings of one workload,
 * per system call, per file and in all, and which findings are new, fixed or
 * unchanged.
 */
#ifndef DIO_CMD_DIFF_H
#define DIO_CMD_DIFF_H

#include <stddef.h>
#include "engine/options.h"

#define DIFF_MIN_CALLS	100	/* --min-calls by default */

/* dio diff's own settings; --analyzer, --srcroot, --fail-on, --suppress and -C go to options */
struct diff_args {
	const char *file[2];	/* A and B, pointing into argv */
	const char *output;	/* -o FILE, into argv; NULL: standard output */
	int json;		/* --format json */
	long regress_pct;	/* --fail-on-regress PCT; -1: not given */
	long min_calls;		/* --min-calls N */
};

/*
 * dio diff A B [-o FILE] [--format text|json] [--fail-on-regress PCT]
 * [--min-calls N] [--analyzer NAME ...] [--srcroot DIR] [--fail-on LEVEL]
 * [--suppress FILE] [-C FILE]; argv[0] is "diff". Without --analyzer, every
 * analyzer. The config's sinks, output and baseline are dropped. 0, 1 when
 * --help was given (the caller prints it), or -errno with a one-line message
 * in err.
 */
int cli_parse_diff(int argc, char **argv, struct options *o, struct diff_args *d, char *err,
		   size_t errlen);
/* dio diff's own options (in struct diff_args) */
extern const struct opt_def cli_diff_opts[];
extern const size_t cli_diff_nopts;

/*
 * The change from a to b (both >= 0) as text into buf, snprintf-style: the
 * ratio b/a as "2.50x", "new" when only b is non-zero, "gone" when only a
 * is, "1.00x" when both are 0.
 */
int diff_ratio_text(double a, double b, char *buf, size_t len);
/*
 * How large the change is, to sort by: the larger of b/a and a/b, 1 when
 * equal, DBL_MAX when one of them is 0 and the other is not.
 */
double diff_change(double a, double b);
/* 1 when b is more than pct percent above a (any b > 0 is, when a is 0). */
int diff_worse(double a, double b, double pct);

#endif
