/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers: checked number parsing, messages. */
#ifndef DIO_ENGINE_UTIL_H
#define DIO_ENGINE_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A number's macro as text, for a literal string: "up to " STR(DIO_MAX_PREFIX) */
#define STR_(x)	#x
#define STR(x)	STR_(x)

/* Decimal integer in [min, max], whole string. 0 or -EINVAL / -ERANGE. */
int parse_long(const char *s, long min, long max, long *out);
/* Size with optional k/K, m/M, g/G suffix (1024-based), in [min, max]. */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Seconds as a decimal number ("30", "0.5"), > 0. */
int parse_seconds(const char *s, double *out);
/* true/false yes/no on/off 1/0 */
int parse_bool(const char *s, int *out);

/* CLOCK_MONOTONIC in ns */
uint64_t util__mono_ns(void);

/*
 * Create (or truncate) an output file for writing: mode 0600, whatever the
 * umask, also when it existed (dio's files hold paths and data of every
 * traced file); never through a symbolic link in its last component
 * (O_NOFOLLOW: a link planted in /tmp must not redirect root's writes);
 * close-on-exec. Devices and FIFOs are opened as they are. Returns the fd or
 * -errno (-ELOOP for a link).
 */
int util__create_output(const char *path);
/*
 * From now on, util__create_output refuses the file input is (dio dump, analyze):
 * -EBUSY. Each call adds one, up to two (dio diff).
 */
void util__create_output_guard(const char *input);
/* The one-line reason util__create_output(path) failed with err (negative errno). */
const char *util__create_output_error(int err, char *buf, size_t len);

/*
 * Whether dio may run code from, or take settings of, path: it and the
 * directory it is in belong to root or to the user dio runs as, and no one
 * else may write them (a directory with the sticky bit, such as /tmp, keeps
 * others from replacing the file). 0, or -EPERM with the one-line reason in
 * why; -errno when path cannot be looked at.
 */
int trusted_file(const char *path, char *why, size_t len);

/* "dio: " + message + "\n" on stderr. */
void die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
