// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One of each kind of storage call dio decodes, on files in DIR, with results
 * the program checks. At the end it writes to descriptor 9 the exact lines
 * dio's console sink must print for them (see truth.h). DIR should be on ext4
 * (user.* xattrs, inode generations).
 *
 * usage: basic DIR 9> EXPECT
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "truth.h"

static char buf[8192];
static char dir[PATH_MAX];

/* "DIR/name" in out (PATH_MAX + 16 bytes), as the lines print it */
static const char *at(const char *name, char out[PATH_MAX + 16])
{
	snprintf(out, PATH_MAX + 16, "%s/%s", dir, name);
	return out;
}

/* write, pwrite, lseek, fstat, dup2, F_DUPFD and the closes of all three */
static void writes(void)
{
	struct tfile a;
	struct stat st;
	char p[PATH_MAX + 16];
	int fd;

	fd = open("a", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "open a");
	tfile_set(&a, fd, at("a", p));
	truth("openat(AT_FDCWD, \"a\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", fd, a.path,
	      a.tag.s);
	must(write(fd, buf, 4096) == 4096, "write");
	truth("write(%d<%s>, %p, 4096) = 4096 {off=0 %s}", fd, a.path, buf, a.tag.s);
	must(pwrite(fd, buf, 100, 8192) == 100, "pwrite");
	truth("pwrite64(%d<%s>, %p, 100, 8192) = 100 {off=8192 %s}", fd, a.path, buf, a.tag.s);
	must(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	truth("lseek(%d<%s>, 0, SEEK_SET) = 0 {off=0 %s}", fd, a.path, a.tag.s);
	must(write(fd, buf, 10) == 10, "write 10");
	truth("write(%d<%s>, %p, 10) = 10 {off=0 %s}", fd, a.path, buf, a.tag.s);
	/* glibc's fstat is newfstatat(fd, "", buf, AT_EMPTY_PATH): a call on the fd */
	must(fstat(fd, &st) == 0, "fstat");
	truth("newfstatat(%d<%s>, \"\", %p, AT_EMPTY_PATH) = 0 {%s}", fd, a.path, (void *)&st,
	      a.tag.s);
	/* fd 10 is not open before the call: only the old fd is the call's file */
	must(dup2(fd, 10) == 10, "dup2");
	truth("dup2(%d<%s>, 10) = 10<%s> {%s}", fd, a.path, a.path, a.tag.s);
	must(fcntl(fd, F_DUPFD, 20) == 20, "F_DUPFD");
	truth("fcntl(%d<%s>, F_DUPFD, 20) = 20<%s> {%s}", fd, a.path, a.path, a.tag.s);
	must(close(20) == 0 && close(10) == 0 && close(fd) == 0, "close");
	truth("close(20<%s>) = 0 {%s}", a.path, a.tag.s);
	truth("close(10<%s>) = 0 {%s}", a.path, a.tag.s);
	truth("close(%d<%s>) = 0 {%s}", fd, a.path, a.tag.s);

	/* O_APPEND: the offset is the end of the file, where the data landed */
	fd = open("a", O_WRONLY | O_APPEND);
	must(fd >= 0, "open O_APPEND");
	truth("openat(AT_FDCWD, \"a\", O_WRONLY|O_APPEND) = %d<%s> {%s}", fd, a.path, a.tag.s);
	must(write(fd, buf, 5) == 5, "append");
	truth("write(%d<%s>, %p, 5) = 5 {off=8292 %s}", fd, a.path, buf, a.tag.s);
	must(close(fd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, a.path, a.tag.s);

	/* sequential reads from 0 up to the end of the file (8297 bytes) */
	fd = open("a", O_RDONLY);
	must(fd >= 0, "open O_RDONLY");
	truth("openat(AT_FDCWD, \"a\", O_RDONLY) = %d<%s> {%s}", fd, a.path, a.tag.s);
	must(read(fd, buf, 4096) == 4096, "read 1");
	truth("read(%d<%s>, %p, 4096) = 4096 {off=0 %s}", fd, a.path, buf, a.tag.s);
	must(read(fd, buf, 4096) == 4096, "read 2");
	truth("read(%d<%s>, %p, 4096) = 4096 {off=4096 %s}", fd, a.path, buf, a.tag.s);
	must(read(fd, buf, 4096) == 105, "read 3");
	truth("read(%d<%s>, %p, 4096) = 105 {off=8192 %s}", fd, a.path, buf, a.tag.s);
	must(read(fd, buf, 4096) == 0, "read at EOF");
	truth("read(%d<%s>, %p, 4096) = 0 {off=8297 %s}", fd, a.path, buf, a.tag.s);
	must(close(fd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, a.path, a.tag.s);
}

/* readv, writev, preadv, pwritev, fsync, fdatasync */
static void vectors(void)
{
	struct iovec iov[2] = { { buf, 100 }, { buf + 100, 200 } };
	char p[PATH_MAX + 16];
	struct tfile v;
	int fd;

	fd = open("v", O_RDWR | O_CREAT | O_TRUNC, 0600);
	must(fd >= 0, "open v");
	tfile_set(&v, fd, at("v", p));
	truth("openat(AT_FDCWD, \"v\", O_RDWR|O_CREAT|O_TRUNC, 0600) = %d<%s> {%s}", fd, v.path,
	      v.tag.s);
	must(writev(fd, iov, 2) == 300, "writev");
	truth("writev(%d<%s>, %p, 2) = 300 {off=0 %s}", fd, v.path, (void *)iov, v.tag.s);
	must(pwritev(fd, iov, 2, 1000) == 300, "pwritev");
	truth("pwritev(%d<%s>, %p, 2, 1000) = 300 {off=1000 %s}", fd, v.path, (void *)iov, v.tag.s);
	must(preadv(fd, iov, 2, 0) == 300, "preadv");
	truth("preadv(%d<%s>, %p, 2, 0) = 300 {off=0 %s}", fd, v.path, (void *)iov, v.tag.s);
	/* the file position is still 300, after the writev */
	must(readv(fd, iov, 2) == 300, "readv");
	truth("readv(%d<%s>, %p, 2) = 300 {off=300 %s}", fd, v.path, (void *)iov, v.tag.s);
	must(fsync(fd) == 0, "fsync");
	truth("fsync(%d<%s>) = 0 {%s}", fd, v.path, v.tag.s);
	must(fdatasync(fd) == 0, "fdatasync");
	truth("fdatasync(%d<%s>) = 0 {%s}", fd, v.path, v.tag.s);
	must(close(fd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, v.path, v.tag.s);
}

/* rename while open: the next call on the old fd shows the new name */
static void renames(void)
{
	char p[PATH_MAX + 16], q[PATH_MAX + 16];
	struct tfile r;
	int fd;

	fd = open(at("old", p), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "open old");
	tfile_set(&r, fd, p);
	truth("openat(AT_FDCWD, \"%s\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", p, fd, p,
	      r.tag.s);
	must(write(fd, buf, 10) == 10, "write old");
	truth("write(%d<%s>, %p, 10) = 10 {off=0 %s}", fd, p, buf, r.tag.s);
	must(rename(p, at("new", q)) == 0, "rename");
	truth("rename(\"%s\", \"%s\") = 0", p, q);
	must(write(fd, buf, 10) == 10, "write new");
	truth("write(%d<%s>, %p, 10) = 10 {off=10 %s}", fd, q, buf, r.tag.s);
	must(close(fd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, q, r.tag.s);
}

/* calls that name a path: failing stat, directories, links, xattrs, unlink */
static void names(void)
{
	static const char val[] = "hello";
	char lnk[64];
	struct stat st;

	errno = 0;
	must(stat("missing", &st) < 0 && errno == ENOENT, "stat missing");
	truth("newfstatat(AT_FDCWD, \"missing\", %p, 0) = -1 ENOENT (No such file or directory)",
	      (void *)&st);
	must(mkdir("d", 0755) == 0, "mkdir");
	truth("mkdir(\"d\", 0755) = 0");
	must(rmdir("d") == 0, "rmdir");
	truth("rmdir(\"d\") = 0");
	must(symlink("new", "link") == 0, "symlink");
	truth("symlink(\"new\", \"link\") = 0");
	must(readlink("link", lnk, sizeof(lnk)) == 3, "readlink");
	truth("readlink(\"link\", %p, %zu) = 3", (void *)lnk, sizeof(lnk));
	must(setxattr("new", "user.dio", val, 5, XATTR_CREATE) == 0, "setxattr");
	truth("setxattr(\"new\", \"user.dio\", %p, 5, XATTR_CREATE) = 0", (void *)val);
	must(getxattr("new", "user.dio", lnk, sizeof(lnk)) == 5, "getxattr");
	truth("getxattr(\"new\", \"user.dio\", %p, %zu) = 5", (void *)lnk, sizeof(lnk));
	must(unlink("link") == 0 && unlink("new") == 0 && unlink("a") == 0 && unlink("v") == 0,
	     "unlink");
	truth("unlink(\"link\") = 0");
	truth("unlink(\"new\") = 0");
	truth("unlink(\"a\") = 0");
	truth("unlink(\"v\") = 0");
}

/* a shared file mapping written through memory, msync'd and unmapped */
static void maps(void)
{
	char p[PATH_MAX + 16];
	struct tfile m;
	void *map;
	int fd;

	fd = open("m", O_RDWR | O_CREAT | O_TRUNC, 0600);
	must(fd >= 0, "open m");
	must(ftruncate(fd, 4096) == 0, "ftruncate");
	tfile_set(&m, fd, at("m", p));
	truth("openat(AT_FDCWD, \"m\", O_RDWR|O_CREAT|O_TRUNC, 0600) = %d<%s> {%s}", fd, m.path,
	      m.tag.s);
	truth("ftruncate(%d<%s>, 4096) = 0 {%s}", fd, m.path, m.tag.s);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	must(map != MAP_FAILED, "mmap");
	truth("mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_SHARED, %d<%s>, 0) = %p {off=0 %s}", fd,
	      m.path, map, m.tag.s);
	memcpy(map, "hello", 5);
	must(msync(map, 4096, MS_SYNC) == 0, "msync");
	truth("msync(%p, 4096, MS_SYNC) = 0", map);
	must(munmap(map, 4096) == 0, "munmap");
	truth("munmap(%p, 4096) = 0 {%s}", map, m.tag.s);
	must(close(fd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, m.path, m.tag.s);
	must(unlink("m") == 0, "unlink m");
	truth("unlink(\"m\") = 0");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: basic DIR 9> EXPECT\n");
		return 2;
	}
	truth_init("basic");
	truth("+++ exec \"basic\" +++");
	memset(buf, 'x', sizeof(buf));
	abs_dir(argv[1], dir, sizeof(dir));
	if (chdir(dir))
		die(dir);
	truth("chdir(\"%s\") = 0", dir);

	writes();
	vectors();
	renames();
	names();
	maps();

	truth("+++ exited with 0 +++");
	truth_flush();
	return 0;
}
