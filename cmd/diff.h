/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio diff A.dio B.dio: what changed between two recordings of one workload,
 * per system call, per file and in all, and which findings are new, fixed or
 * unchanged.
 */
#ifndef DIO_CMD_DIFF_H
#define DIO_CMD_DIFF_H

#include <stddef.h>

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
