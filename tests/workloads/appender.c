// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An application log written two ways, the "before" and "after" of a change
 * that dio diff must name. Raw system calls, so that their names are known.
 *
 *   before   one openat of DIR/log, a write per line, one fsync, one close
 *   after    per line: openat, write, fsync, close (LINES fsyncs instead of
 *            one, and redundant-open.churn)
 *
 * usage: appender before|after DIR [LINES]   (LINES: 200 by default)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LINE_LEN	64

static void die(const char *what)
{
	fprintf(stderr, "appender: %s: %m\n", what);
	exit(99);
}

static long open_log(const char *path)
{
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			  0644);

	if (fd < 0)
		die(path);
	return fd;
}

static void call(long nr, long fd, const char *what)
{
	if (syscall(nr, fd))
		die(what);
}

int main(int argc, char **argv)
{
	char path[4200], line[LINE_LEN];
	long lines = argc > 3 ? atol(argv[3]) : 200, fd = -1;
	int after;

	if (argc < 3 || (strcmp(argv[1], "before") && strcmp(argv[1], "after")) || lines < 1) {
		fprintf(stderr, "usage: appender before|after DIR [LINES]\n");
		return 2;
	}
	after = !strcmp(argv[1], "after");
	snprintf(path, sizeof(path), "%s/log", argv[2]);
	memset(line, '.', sizeof(line));
	line[LINE_LEN - 1] = '\n';
	for (long i = 0; i < lines; i++) {
		if (after || !i)
			fd = open_log(path);
		if (syscall(SYS_write, fd, line, sizeof(line)) != (long)sizeof(line))
			die("write");
		if (after || i == lines - 1) {
			call(SYS_fsync, fd, "fsync");
			call(SYS_close, fd, "close");
		}
	}
	return 0;
}
