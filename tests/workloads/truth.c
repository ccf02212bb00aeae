// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared by the workloads: the expected console lines and the file details they carry. */
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "truth.h"

#define TRUTH_SIZE (1 << 20)

/*
 * Lives in a MAP_SHARED mapping so that a forked child adds its own lines
 * (with its own pid) to what the parent writes out at the end; the mutex is
 * process-shared for the same reason. An uncontended lock makes no syscall,
 * so recording a line adds nothing to the trace.
 */
struct truth_buf {
	pthread_mutex_t lock;
	size_t len;
	int overflow;
	char cls[8];
	char text[];
};

static struct truth_buf *tb;
static const char *progname = "workload";

void die(const char *what)
{
	die_err(what, errno);
}

void die_err(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(err));
	exit(99);
}

void must(int ok, const char *what)
{
	if (!ok)
		die(what);
}

void truth_init(const char *prog)
{
	pthread_mutexattr_t ma;

	progname = prog;
	if (fcntl(TRUTH_FD, F_GETFD) < 0) {
		fprintf(stderr, "%s: descriptor %d is not open: run as '%s ... %d> EXPECT'\n", prog,
			TRUTH_FD, prog, TRUTH_FD);
		exit(2);
	}
	tb = mmap(NULL, TRUTH_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tb == MAP_FAILED)
		die("mmap");
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&tb->lock, &ma);
	pthread_mutexattr_destroy(&ma);
}

void truth(const char *fmt, ...)
{
	size_t room = TRUTH_SIZE - sizeof(*tb);
	char comm[17] = "";
	va_list ap;
	int n;

	/*
	 * The name the kernel has for this thread now, which is what dio must
	 * show for a call made just before.
	 */
	prctl(PR_GET_NAME, comm);
	pthread_mutex_lock(&tb->lock);
	n = snprintf(tb->text + tb->len, room - tb->len, "%s%s[%d/%d %s] ", tb->cls,
		     tb->cls[0] ? " " : "", getpid(), gettid(), comm);
	if (n >= 0 && (size_t)n < room - tb->len) {
		tb->len += n;
		va_start(ap, fmt);
		n = vsnprintf(tb->text + tb->len, room - tb->len, fmt, ap);
		va_end(ap);
	}
	if (n < 0 || (size_t)n + 1 >= room - tb->len)
		tb->overflow = 1;
	else {
		tb->len += n;
		tb->text[tb->len++] = '\n';
	}
	pthread_mutex_unlock(&tb->lock);
}

void truth_class(const char *cls)
{
	pthread_mutex_lock(&tb->lock);
	snprintf(tb->cls, sizeof(tb->cls), "%s", cls ? cls : "");
	pthread_mutex_unlock(&tb->lock);
}

void truth_reset(void)
{
	pthread_mutex_lock(&tb->lock);
	tb->len = 0;
	tb->overflow = 0;
	pthread_mutex_unlock(&tb->lock);
}

void truth_flush(void)
{
	if (tb->overflow) {
		fprintf(stderr, "%s: the expected lines do not fit in %d bytes\n", progname,
			TRUTH_SIZE);
		exit(99);
	}
	if (write(TRUTH_FD, tb->text, tb->len) != (ssize_t)tb->len)
		die("write the expected lines");
}

static const char *ftype(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return "reg";
	case S_IFDIR: return "dir";
	case S_IFSOCK: return "sock";
	case S_IFIFO: return "fifo";
	case S_IFCHR: return "chr";
	case S_IFBLK: return "blk";
	case S_IFLNK: return "lnk";
	default: return "anon";
	}
}

struct ftag ftag_as(int fd, const char *type)
{
	char link[64];
	unsigned int gen = 0;
	struct stat st;
	struct ftag t;

	/*
	 * stat of /proc/self/fd/N rather than fstat(fd): a call that names a
	 * path outside the test's directories, so that a --path filter drops
	 * it, and the workload's own bookkeeping does not show among the calls
	 * on its files.
	 */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (stat(link, &st))
		die(link);
	/* ext4, xfs, btrfs answer; pipes and sockets have no generation to ask for */
	if (ioctl(fd, FS_IOC_GETVERSION, &gen))
		gen = 0;
	snprintf(t.s, sizeof(t.s), "type=%s tag=%u:%u|%llu|%u", type ? type : ftype(st.st_mode),
		 major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino, gen);
	return t;
}

struct ftag ftag_of(int fd)
{
	return ftag_as(fd, NULL);
}

void tfile_set(struct tfile *f, int fd, const char *path)
{
	f->fd = fd;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->tag = ftag_of(fd);
}

void abs_dir(const char *dir, char *out, size_t len)
{
	char buf[PATH_MAX];

	/*
	 * realpath() makes a readlink call on every component, and a call
	 * naming the directory is one a --path filter keeps: the tests pass
	 * absolute paths without symbolic links, taken as they are.
	 */
	if (dir[0] == '/') {
		snprintf(out, len, "%s", dir);
		return;
	}
	if (!realpath(dir, buf))
		die(dir);
	snprintf(out, len, "%s", buf);
}
