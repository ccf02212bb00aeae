// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inode reuse: write a file, delete it, create a file of the same name until
 * the file system hands out the same inode number again (a journaled ext4 does
 * so at once), write it. Writes to EXPECT the console lines for both writes
 * and prints "INO GEN1 GEN2" on stdout.
 *
 * usage: reuse DIR EXPECT
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char buf[100];

static int make(const char *path, struct stat *st, unsigned int *gen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || fstat(fd, st) || ioctl(fd, FS_IOC_GETVERSION, gen)) {
		fprintf(stderr, "reuse: %s: %s\n", path, strerror(errno));
		exit(99);
	}
	return fd;
}

int main(int argc, char **argv)
{
	char path[4096], exp[8192];
	struct stat st1, st2;
	unsigned int g1, g2;
	int fd, n = 0, out, tries;
	pid_t pid = getpid();

	if (argc != 3)
		return 2;
	snprintf(path, sizeof(path), "%s/log", argv[1]);
	fd = make(path, &st1, &g1);
	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
		return 99;
	n += snprintf(exp + n, sizeof(exp) - n,
		      "[%d/%d reuse] write(%d<%s>, %p, 100) = 100 {off=0 type=reg tag=%u:%u|%llu|%u}\n",
		      pid, pid, fd, path, buf, major(st1.st_dev), minor(st1.st_dev),
		      (unsigned long long)st1.st_ino, g1);
	close(fd);
	for (tries = 0; tries < 20; tries++) {
		unlink(path);
		fd = make(path, &st2, &g2);
		if (st2.st_ino == st1.st_ino)
			break;
		close(fd);
	}
	if (st2.st_ino != st1.st_ino) {
		fprintf(stderr, "reuse: the file system did not reuse inode %llu\n",
			(unsigned long long)st1.st_ino);
		return 98;
	}
	if (write(fd, buf, 50) != 50)
		return 99;
	n += snprintf(exp + n, sizeof(exp) - n,
		      "[%d/%d reuse] write(%d<%s>, %p, 50) = 50 {off=0 type=reg tag=%u:%u|%llu|%u}\n",
		      pid, pid, fd, path, buf, major(st2.st_dev), minor(st2.st_dev),
		      (unsigned long long)st2.st_ino, g2);
	close(fd);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || write(out, exp, n) != n)
		return 99;
	close(out);
	printf("%llu %u %u\n", (unsigned long long)st1.st_ino, g1, g2);
	return 0;
}
