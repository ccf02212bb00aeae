// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Saving files the "atomic" way: write NAME.tmp, rename it over NAME. In
 * unsafe mode the data is not synced before the rename (the crash-consistency
 * bug the fsync_rename example analyzer reports); in safe mode each file is
 * fsynced before its rename and the directory after it.
 *
 * Four saves, in this order:
 *   config  3 writes of 4096 bytes, rename(ABSOLUTE, ABSOLUTE)
 *   state   2 writes of 100 bytes, renameat(dirfd, "state.tmp", dirfd, "state")
 *   log     a write of 4096 bytes, fsync, a write of 10 bytes, rename: in unsafe
 *           mode only the 10 bytes after the fsync are not synced
 *   config  again, as the first: a second rename onto the same target
 *
 * What an analyzer must find is written to standard output, one line per
 * rename of unsynced data: "unsynced PID WRITES BYTES TMP TARGET" (writes and
 * bytes since the last sync), none in safe mode; then "renames N".
 *
 * usage: saverename unsafe|safe DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int safe;
static int dirfd;
static char dir[PATH_MAX];

static void die(const char *what)
{
	fprintf(stderr, "saverename: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void put(int fd, size_t len)
{
	char buf[4096];

	memset(buf, 'x', sizeof(buf));
	if (write(fd, buf, len) != (ssize_t)len)
		die("write");
}

static void sync_fd(int fd)
{
	if (fsync(fd))
		die("fsync");
}

/* write name.tmp in writes of the given sizes (0 ends; -1: fsync there), then rename it */
static void save(const char *name, int relative, const int *sizes)
{
	char tmp[PATH_MAX + 16], target[PATH_MAX + 16], rel[PATH_MAX];
	unsigned long writes = 0, bytes = 0;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	snprintf(target, sizeof(target), "%s/%s", dir, name);
	snprintf(rel, sizeof(rel), "%s.tmp", name);
	fd = relative ? openat(dirfd, rel, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
		      : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(tmp);
	for (; *sizes; sizes++) {
		if (*sizes < 0) {
			sync_fd(fd);
			writes = bytes = 0;
			continue;
		}
		put(fd, (size_t)*sizes);
		writes++;
		bytes += (unsigned long)*sizes;
	}
	if (safe)
		sync_fd(fd);
	if (close(fd))
		die("close");
	if (relative ? renameat(dirfd, rel, dirfd, name) : rename(tmp, target))
		die("rename");
	if (safe)
		sync_fd(dirfd);
	else
		printf("unsynced %d %lu %lu %s %s\n", (int)getpid(), writes, bytes, tmp, target);
}

int main(int argc, char **argv)
{
	static const int config[] = { 4096, 4096, 4096, 0 };
	static const int state[] = { 100, 100, 0 };
	static const int log[] = { 4096, -1, 10, 0 };

	if (argc != 3 || (strcmp(argv[1], "unsafe") && strcmp(argv[1], "safe"))) {
		fprintf(stderr, "usage: saverename unsafe|safe DIR\n");
		return 2;
	}
	safe = !strcmp(argv[1], "safe");
	if (!realpath(argv[2], dir))
		die(argv[2]);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		die(dir);
	save("config", 0, config);
	save("state", 1, state);
	save("log", 0, log);
	save("config", 0, config);
	printf("renames 4\n");
	return fflush(stdout) ? 1 : 0;
}
