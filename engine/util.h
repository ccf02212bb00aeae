/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers: checked number parsing, messages. */
#ifndef DIO_ENGINE_UTIL_H
#define DIO_ENGINE_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Decimal integer in [min, max], whole string. 0 or -EINVAL / -ERANGE. */
int parse_long(const char *s, long min, long max, long *out);
/* Size with optional k/K, m/M, g/G suffix (1024-based), in [min, max]. */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Seconds as a decimal number ("30", "0.5"), > 0. */
int parse_seconds(const char *s, double *out);
/* true/false yes/no on/off 1/0 */
int parse_bool(const char *s, int *out);

/* "dio: " + message + "\n" on stderr. */
void die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
