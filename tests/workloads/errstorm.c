// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls that fail in a loop, for the errors analyzer, with raw system calls so
 * that their names are known; prints on standard output one line per storm
 * with the numbers the finding must show: "PID CALL COUNT ERRNO PATH SEVERITY".
 *
 *   storm   STATS stat calls on DIR/missing, which does not exist, then
 *           SPINS reads of an empty non-blocking pipe (EAGAIN)
 *   calm    one stat of DIR/missing, then one poll of the pipe
 *   lost    fills the file system of DIR with DIR/full (the three writes that
 *           find it full fail with ENOSPC), then LOSTS writes of 4096 bytes to
 *           it fail with ENOSPC (their data is lost: an error), then FSTATS
 *           fstat calls of the fd, closed, fail with EBADF (a cost, not a
 *           loss: a warning); DIR/full is removed at the end
 *
 * usage: errstorm storm|calm|lost DIR
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
#define LOSTS	200
#define FSTATS	150

static void die(const char *what)
{
	fprintf(stderr, "errstorm: %s: %m\n", what);
	exit(99);
}

/* writes that meet a full disk, then stats of a closed fd */
static int lost(const char *dir)
{
	static char block[1 << 20];
	char path[4200];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/full", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("open of DIR/full");
	/* big pieces, then pages (ext4 takes a few more), then what fsync's allocation frees */
	while (syscall(SYS_write, fd, block, sizeof(block)) > 0)
		;
	while (syscall(SYS_write, fd, block, 4096L) > 0)
		;
	if (errno != ENOSPC || fsync(fd))
		die("filling the file system");
	while (syscall(SYS_write, fd, block, 4096L) > 0)
		;
	for (int i = 0; i < LOSTS; i++)
		if (syscall(SYS_write, fd, block, 4096L) != -1 || errno != ENOSPC)
			die("write to a full file system");
	if (close(fd))
		die("close");
	for (int i = 0; i < FSTATS; i++)
		if (syscall(SYS_fstat, fd, &st) != -1 || errno != EBADF)
			die("fstat of a closed fd");
	if (unlink(path))
		die("unlink of DIR/full");
	printf("%d write %d ENOSPC %s error\n", (int)getpid(), 3 + LOSTS, path);
	printf("%d fstat %d EBADF fd:%d warning\n", (int)getpid(), FSTATS, fd);
	return 0;
}

int main(int argc, char **argv)
{
	char dir[4096], path[4200], c;
	int storm, p[2];
	struct stat st;
	struct pollfd pf;

	if (argc != 3 || (strcmp(argv[1], "storm") && strcmp(argv[1], "calm") &&
			  strcmp(argv[1], "lost")) || !realpath(argv[2], dir)) {
		fprintf(stderr, "usage: errstorm storm|calm|lost DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "lost"))
		return lost(dir);
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
		printf("%d stat %d ENOENT %s warning\n", (int)getpid(), STATS, path);
		printf("%d read %d EAGAIN pipe:[%llu] warning\n", (int)getpid(), SPINS,
		       (unsigned long long)st.st_ino);
	}
	return 0;
}
