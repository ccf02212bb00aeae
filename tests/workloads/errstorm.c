// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls that fail in a loop, for the errors analyzer, with raw system calls so
 * that their names are known; prints on standard output one line per storm
 * with the numbers the finding must show: "PID CALL COUNT ERRNO PATH".
 *
 *   storm   STATS stat calls on DIR/missing, which does not exist, then
 *           SPINS reads of an empty non-blocking pipe (EAGAIN)
 *   calm    one stat of DIR/missing, then one poll of the pipe
 *
 * usage: errstorm storm|calm DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define STATS	500
#define SPINS	300

static void die(const char *what)
{
	fprintf(stderr, "errstorm: %s: %m\n", what);
	exit(99);
}

int main(int argc, char **argv)
{
	char dir[4096], path[4200], c;
	int storm, p[2];
	struct stat st;
	struct pollfd pf;

	if (argc != 3 || (strcmp(argv[1], "storm") && strcmp(argv[1], "calm")) ||
	    !realpath(argv[2], dir)) {
		fprintf(stderr, "usage: errstorm storm|calm DIR\n");
		return 2;
	}
	storm = !strcmp(argv[1], "storm");
	snprintf(path, sizeof(path), "%s/missing", dir);
	for (int i = 0; i < (storm ? STATS : 1); i++)
		if (syscall(SYS_stat, path, &st) != -1 || errno != ENOENT)
			die("stat of a missing file");
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		die("pipe2");
	if (storm) {
		for (int i = 0; i < SPINS; i++)
			if (syscall(SYS_read, p[0], &c, 1L) != -1 || errno != EAGAIN)
				die("read of an empty pipe");
	} else {
		pf.fd = p[0];
		pf.events = POLLIN;
		if (poll(&pf, 1, 0) != 0)
			die("poll");
	}
	if (fstat(p[0], &st))
		die("fstat of the pipe");
	if (storm) {
		printf("%d stat %d ENOENT %s\n", (int)getpid(), STATS, path);
		printf("%d read %d EAGAIN pipe:[%llu]\n", (int)getpid(), SPINS,
		       (unsigned long long)st.st_ino);
	}
	return 0;
}
