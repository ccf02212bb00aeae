/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "truth" of a workload: the console lines dio must print for the calls the
 * workload makes, built from what only the workload knows (its pid and tids,
 * thread names, fds, buffer addresses, stat and FS_IOC_GETVERSION). Lines are
 * collected in memory shared with forked children and written out once, after
 * all traced activity, to descriptor 9, which the test script opens:
 *
 *	dio trace -o out -- basic DIR 9> expect
 */
#ifndef DIO_TESTS_TRUTH_H
#define DIO_TESTS_TRUTH_H

#include <stddef.h>
#include <sys/types.h>

#define TRUTH_FD 9

/* "type=reg tag=7:0|12|3407": the details of the file behind an fd */
struct ftag {
	char s[96];
};

/* An open file as the lines show it: "%d<%s>", fd, path, then the tag. */
struct tfile {
	int fd;
	char path[4096];
	struct ftag tag;
};

/*
 * Sets the program name for messages and exits with a usage message unless
 * descriptor 9 is open. Call before anything else: it maps the line buffer.
 */
void truth_init(const char *prog);

/* Appends "[pid/tid comm] " + the formatted text + "\n"; pid, tid, comm are the caller's. */
void truth(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Lines recorded from now on start with "CLASS " (NULL: nothing), so that a
 * test can pick the lines a filter must keep: "K [1/1 filters] write(...)".
 */
void truth_class(const char *cls);

/* Forgets the lines recorded so far (a looping workload keeps its last round). */
void truth_reset(void);

/* Writes all lines with one write(2) to descriptor 9; exits on failure. */
void truth_flush(void);

/* The details of fd's file; dies on error. A file without a generation prints 0. */
struct ftag ftag_of(int fd);

/* The same with the type given: anon inodes do not say what they are in st_mode. */
struct ftag ftag_as(int fd, const char *type);

/* Fills f from an open fd: fd, its absolute path (given) and its tag. */
void tfile_set(struct tfile *f, int fd, const char *path);

/*
 * The absolute path of dir, for the lines of files in it: an absolute dir as
 * it is (it must not go through a symbolic link), a relative one by realpath.
 */
void abs_dir(const char *dir, char *out, size_t len);

/* Prints "PROG: WHAT: strerror(errno)" and exits 99: a workload that cannot do its job. */
void die(const char *what) __attribute__((noreturn));

/* The same with an explicit error number (liburing returns -errno). */
void die_err(const char *what, int err) __attribute__((noreturn));

/* die(what) unless ok: for calls whose result the workload checks before recording it */
void must(int ok, const char *what);

#endif
