// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A workload whose storage calls are known exactly. It works in DIR and, at
 * the end, writes to EXPECT the lines dio's console sink must print for those
 * calls: every argument, return value, offset, path, type, file tag and thread
 * name, computed from what the program itself knows (fds, buffer addresses,
 * stat, FS_IOC_GETVERSION, gettid).
 *
 * usage: basic DIR EXPECT
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char expect[1 << 16];
static size_t elen;
static char dir[PATH_MAX];
static pid_t pid;

static void die(const char *what)
{
	fprintf(stderr, "basic: %s: %s\n", what, strerror(errno));
	exit(99);
}

static void line(pid_t tid, const char *comm, const char *fmt, ...)
{
	va_list ap;

	elen += snprintf(expect + elen, sizeof(expect) - elen, "[%d/%d %s] ", pid, tid, comm);
	va_start(ap, fmt);
	elen += vsnprintf(expect + elen, sizeof(expect) - elen, fmt, ap);
	va_end(ap);
	elen += snprintf(expect + elen, sizeof(expect) - elen, "\n");
}

/* "{off=N type=reg tag=M:m|ino|gen}" suffix of a regular file */
struct tag {
	char s[128];
};

static struct tag tag_of(int fd)
{
	struct stat st;
	struct tag t;
	int gen = 0;

	if (syscall(SYS_fstat, fd, &st))	/* the raw call, so it is predictable */
		die("fstat");
	if (ioctl(fd, FS_IOC_GETVERSION, &gen))
		gen = 0;
	snprintf(t.s, sizeof(t.s), "type=reg tag=%u:%u|%llu|%u", major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino, (unsigned int)gen);
	return t;
}

static char buf[8192];
static int shared_fd;
static char shared_path[PATH_MAX + 8];
static struct tag shared_tag;

static void *worker(void *arg)
{
	pid_t tid = gettid();

	(void)arg;
	pthread_setname_np(pthread_self(), "worker-1");
	if (pwrite(shared_fd, buf, 64, 128) != 64)
		die("pwrite in thread");
	line(tid, "worker-1", "pwrite64(%d<%s>, %p, 64, 128) = 64 {off=128 %s}", shared_fd,
	     shared_path, buf, shared_tag.s);
	return NULL;
}

int main(int argc, char **argv)
{
	char a[PATH_MAX + 8], b[PATH_MAX + 8], c[PATH_MAX + 8];
	struct tag ta, tc;
	struct stat st;
	pthread_t th;
	int fd, fd2, status, out;
	pid_t child;
	void *map;

	if (argc != 3) {
		fprintf(stderr, "usage: basic DIR EXPECT\n");
		return 2;
	}
	if (chdir(argv[1]) || !getcwd(dir, sizeof(dir)))
		die("chdir");
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		die("open EXPECT");
	pid = getpid();
	memset(buf, 'x', sizeof(buf));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(c, sizeof(c), "%s/c", dir);

	/* write, pwrite, lseek and write again */
	fd = open("a", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("open a");
	ta = tag_of(fd);
	line(pid, "basic", "openat(AT_FDCWD, \"a\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", fd,
	     a, ta.s);
	if (write(fd, buf, 4096) != 4096)
		die("write");
	line(pid, "basic", "write(%d<%s>, %p, 4096) = 4096 {off=0 %s}", fd, a, buf, ta.s);
	if (pwrite(fd, buf, 100, 8192) != 100)
		die("pwrite");
	line(pid, "basic", "pwrite64(%d<%s>, %p, 100, 8192) = 100 {off=8192 %s}", fd, a, buf, ta.s);
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek");
	line(pid, "basic", "lseek(%d<%s>, 0, SEEK_SET) = 0 {off=0 %s}", fd, a, ta.s);
	if (write(fd, buf, 10) != 10)
		die("write 10");
	line(pid, "basic", "write(%d<%s>, %p, 10) = 10 {off=0 %s}", fd, a, buf, ta.s);
	/* glibc's fstat is newfstatat(fd, "", ..., AT_EMPTY_PATH): an fd call */
	if (fstat(fd, &st))
		die("fstat");
	line(pid, "basic", "newfstatat(%d<%s>, \"\", %p, AT_EMPTY_PATH) = 0 {%s}", fd, a, &st, ta.s);
	/* dup2 and F_DUPFD keep the file */
	if (dup2(fd, 10) != 10)
		die("dup2");
	line(pid, "basic", "dup2(%d, 10<%s>) = 10<%s> {%s}", fd, a, a, ta.s);
	fd2 = fcntl(fd, F_DUPFD, 20);
	if (fd2 != 20)
		die("F_DUPFD");
	line(pid, "basic", "fcntl(%d<%s>, F_DUPFD, 0x14) = 20 {%s}", fd, a, ta.s);
	close(20);
	line(pid, "basic", "close(20<%s>) = 0 {%s}", a, ta.s);
	close(10);
	line(pid, "basic", "close(10<%s>) = 0 {%s}", a, ta.s);
	close(fd);
	line(pid, "basic", "close(%d<%s>) = 0 {%s}", fd, a, ta.s);

	/* O_APPEND: the offset is the end of file where the data landed */
	fd = open("a", O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, buf, 5) != 5)
		die("append");
	line(pid, "basic", "openat(AT_FDCWD, \"a\", O_WRONLY|O_APPEND) = %d<%s> {%s}", fd, a, ta.s);
	line(pid, "basic", "write(%d<%s>, %p, 5) = 5 {off=8292 %s}", fd, a, buf, ta.s);
	close(fd);
	line(pid, "basic", "close(%d<%s>) = 0 {%s}", fd, a, ta.s);

	/* sequential reads up to the end of file */
	fd = open("a", O_RDONLY);
	if (fd < 0)
		die("open ro");
	line(pid, "basic", "openat(AT_FDCWD, \"a\", O_RDONLY) = %d<%s> {%s}", fd, a, ta.s);
	if (read(fd, buf, 4096) != 4096 || read(fd, buf, 4096) != 4096 ||
	    read(fd, buf, 4096) != 105 || read(fd, buf, 4096) != 0)
		die("reads");
	line(pid, "basic", "read(%d<%s>, %p, 4096) = 4096 {off=0 %s}", fd, a, buf, ta.s);
	line(pid, "basic", "read(%d<%s>, %p, 4096) = 4096 {off=4096 %s}", fd, a, buf, ta.s);
	line(pid, "basic", "read(%d<%s>, %p, 4096) = 105 {off=8192 %s}", fd, a, buf, ta.s);
	line(pid, "basic", "read(%d<%s>, %p, 4096) = 0 {off=8297 %s}", fd, a, buf, ta.s);

	/* a thread with its own name writes through the same fd table */
	shared_fd = open("a", O_RDWR);
	snprintf(shared_path, sizeof(shared_path), "%s", a);
	shared_tag = ta;
	line(pid, "basic", "openat(AT_FDCWD, \"a\", O_RDWR) = %d<%s> {%s}", shared_fd, a, ta.s);
	if (pthread_create(&th, NULL, worker, NULL) || pthread_join(th, NULL))
		die("thread");

	/* a child reads through the inherited fd: the path is still known there */
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek 0");
	line(pid, "basic", "lseek(%d<%s>, 0, SEEK_SET) = 0 {off=0 %s}", fd, a, ta.s);
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		if (read(fd, buf, 16) != 16)
			_exit(98);
		_exit(3);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 3)
		die("child");
	{
		/* the child's lines carry its own pid */
		pid_t parent = pid;

		pid = child;
		line(child, "basic", "read(%d<%s>, %p, 16) = 16 {off=0 %s}", fd, a, buf, ta.s);
		pid = parent;
	}

	/* rename while open: the next call on the fd shows the new name */
	if (rename("a", "b"))
		die("rename");
	line(pid, "basic", "rename(\"a\", \"b\") = 0");
	if (pread(fd, buf, 10, 0) != 10)
		die("pread");
	line(pid, "basic", "pread64(%d<%s>, %p, 10, 0) = 10 {off=0 %s}", fd, b, buf, ta.s);
	close(fd);
	line(pid, "basic", "close(%d<%s>) = 0 {%s}", fd, b, ta.s);
	close(shared_fd);
	line(pid, "basic", "close(%d<%s>) = 0 {%s}", shared_fd, b, ta.s);

	/* a failing stat */
	if (stat("missing", &st) == 0 || errno != ENOENT)
		die("stat missing");
	line(pid, "basic",
	     "newfstatat(AT_FDCWD, \"missing\", %p, 0) = -1 ENOENT (No such file or directory)", &st);

	/* mmap of a file, msync, munmap */
	fd = open("c", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 4096))
		die("c");
	tc = tag_of(fd);
	line(pid, "basic", "openat(AT_FDCWD, \"c\", O_RDWR|O_CREAT|O_TRUNC, 0600) = %d<%s> {%s}", fd, c,
	     tc.s);
	line(pid, "basic", "ftruncate(%d<%s>, 4096) = 0 {%s}", fd, c, tc.s);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	line(pid, "basic", "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_SHARED, %d<%s>, 0) = %p {off=0 %s}",
	     fd, c, map, tc.s);
	memcpy(map, "hello", 5);
	if (msync(map, 4096, MS_SYNC))
		die("msync");
	line(pid, "basic", "msync(%p, 4096, MS_SYNC) = 0", map);
	if (munmap(map, 4096))
		die("munmap");
	line(pid, "basic", "munmap(%p, 4096) = 0 {%s}", map, tc.s);
	if (fsync(fd))
		die("fsync");
	line(pid, "basic", "fsync(%d<%s>) = 0 {%s}", fd, c, tc.s);
	close(fd);
	line(pid, "basic", "close(%d<%s>) = 0 {%s}", fd, c, tc.s);
	if (unlink("b") || unlink("c"))
		die("unlink");
	line(pid, "basic", "unlink(\"b\") = 0");
	line(pid, "basic", "unlink(\"c\") = 0");

	if (write(out, expect, elen) != (ssize_t)elen)
		die("write EXPECT");
	close(out);
	return 0;
}
