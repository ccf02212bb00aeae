// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ways of saving a file that do and do not survive a power cut, each on an
 * existing file DIR/NAME that is read first:
 *
 *   replace        write DIR/NAME.tmp, close, rename over DIR/NAME: no sync
 *   replace-safe   the same with fsync of the file before the rename and of
 *                  the directory after it
 *   rewrite        DIR/NAME opened O_TRUNC, written, closed: no sync
 *   rewrite-safe   the same with fdatasync before the close
 *   short          a file size limit of 100 bytes (SIGXFSZ ignored): a write
 *                  of 300 bytes comes back with 100, and the file is closed
 *   short-safe     the same, and the rest written again (it fails: EFBIG)
 *
 * What the durability analyzer must report is written to standard output,
 * one line "PID CODE COUNT PATH", none in the safe modes.
 *
 * usage: durable MODE DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define OLD_SIZE	200

static char buf[4096];

static void die(const char *what)
{
	fprintf(stderr, "durable: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* DIR/name made with OLD_SIZE bytes (before the trace looks), then read whole */
static void existing(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'o', OLD_SIZE);
	if (fd < 0 || write(fd, buf, OLD_SIZE) != OLD_SIZE || close(fd))
		die(path);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != OLD_SIZE || close(fd))
		die(path);
}

static void write_all(int fd, size_t n, const char *what)
{
	memset(buf, 'n', n);
	if (write(fd, buf, n) != (ssize_t)n)
		die(what);
}

int main(int argc, char **argv)
{
	char path[4096], tmp[4200];
	const char *mode;
	int safe, fd, dfd;

	if (argc != 3) {
		fprintf(stderr, "usage: durable replace|rewrite|short[-safe] DIR\n");
		return 2;
	}
	mode = argv[1];
	safe = strstr(mode, "-safe") != NULL;
	snprintf(path, sizeof(path), "%s/settings.conf", argv[2]);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	existing(path);
	if (!strncmp(mode, "replace", 7)) {
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			die(tmp);
		write_all(fd, 150, tmp);
		write_all(fd, 50, tmp);
		if (safe && fsync(fd))
			die("fsync");
		if (close(fd) || rename(tmp, path))
			die("rename");
		if (safe) {
			dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
			if (dfd < 0 || fsync(dfd) || close(dfd))
				die(argv[2]);
		} else {
			printf("%d durability.unsynced-replace 200 %s\n", (int)getpid(), path);
		}
	} else if (!strncmp(mode, "rewrite", 7)) {
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd < 0)
			die(path);
		write_all(fd, 120, path);
		if (safe && fdatasync(fd))
			die("fdatasync");
		if (close(fd))
			die("close");
		if (!safe)
			printf("%d durability.truncate-rewrite %d %s\n", (int)getpid(), OLD_SIZE,
			       path);
	} else if (!strncmp(mode, "short", 5)) {
		struct rlimit rl = { 100, 100 };
		ssize_t n;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			die("setrlimit");
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			die(tmp);
		memset(buf, 's', 300);
		n = write(fd, buf, 300);
		if (n != 100)
			die("a short write of 100 bytes");
		/* the rest again: the limit refuses it, and the program knows */
		if (safe && write(fd, buf + n, 300 - (size_t)n) >= 0)
			die("a write past the limit");
		if (close(fd))
			die("close");
		if (!safe)
			printf("%d durability.short-write 200 %s\n", (int)getpid(), tmp);
	} else {
		fprintf(stderr, "durable: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
