// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls for dio's filters to keep or drop: on files under KEEP and under DROP
 * (by fd, by path, and relative to a directory fd), and on a pipe, a unix
 * socket and an eventfd. Each expected line written to descriptor 9 (see
 * truth.h) starts with its class, so that a test can pick what a filter must
 * keep:
 *
 *	K... under KEEP, D... under DROP, P... pipe, S... socket, A... anon inode;
 *	a second letter d marks a data call (read, write), m any other.
 *
 * With "loop", it repeats the same round every 20 ms until SIGTERM or SIGINT,
 * then writes the lines of its last round: a process for dio -p to attach to.
 *
 * usage: filters KEEP DROP [loop] 9> EXPECT
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "truth.h"

static char keep[PATH_MAX], drop[PATH_MAX];
static char buf[64] = "tick";
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* open, write 4 bytes, close: cls is "K" or "D" */
static void file_round(const char *cls, const char *dir, const char *name)
{
	char path[PATH_MAX + 16], k[4];
	struct tfile f;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, path);
	tfile_set(&f, fd, path);
	snprintf(k, sizeof(k), "%sm", cls);
	truth_class(k);
	truth("openat(AT_FDCWD, \"%s\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", path, fd,
	      path, f.tag.s);
	must(write(fd, buf, 4) == 4, "write");
	snprintf(k, sizeof(k), "%sd", cls);
	truth_class(k);
	truth("write(%d<%s>, %p, 4) = 4 {off=0 %s}", fd, path, buf, f.tag.s);
	must(close(fd) == 0, "close");
	snprintf(k, sizeof(k), "%sm", cls);
	truth_class(k);
	truth("close(%d<%s>) = 0 {%s}", fd, path, f.tag.s);
}

/* a relative name under a directory fd: --path must resolve it against the directory */
static void dirfd_round(void)
{
	char zpath[PATH_MAX + 16];
	struct tfile d, z;
	int dfd, fd;

	dfd = open(keep, O_RDONLY | O_DIRECTORY);
	must(dfd >= 0, keep);
	tfile_set(&d, dfd, keep);
	fd = openat(dfd, "z", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "openat z");
	snprintf(zpath, sizeof(zpath), "%s/z", keep);
	tfile_set(&z, fd, zpath);
	truth_class("Km");
	truth("openat(AT_FDCWD, \"%s\", O_RDONLY|O_DIRECTORY) = %d<%s> {%s}", keep, dfd, keep,
	      d.tag.s);
	/* the directory fd is an argument, not the call's file: no path on it */
	truth("openat(%d, \"z\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", dfd, fd, zpath,
	      z.tag.s);
	must(close(fd) == 0 && close(dfd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, zpath, z.tag.s);
	truth("close(%d<%s>) = 0 {%s}", dfd, keep, d.tag.s);
}

static void stat_round(const char *cls, const char *dir, const char *name)
{
	char path[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	must(stat(path, &st) == 0, path);
	truth_class(cls);
	truth("newfstatat(AT_FDCWD, \"%s\", %p, 0) = 0", path, (void *)&st);
}

/*
 * A write into one end and a read from the other of a pipe, a socket pair or
 * an eventfd (both ends the same fd), then the closes. The name is what the
 * kernel calls the file ("pipe:[1234]"), as /proc/self/fd shows it.
 */
static void pair_round(const char *cls, const char *type, int w, int r)
{
	struct tfile fw, fr;
	char link[64], name[2][128], k[4];
	uint64_t one = 1, got;
	int fds[2] = { w, r };
	void *wb = buf, *rb = buf + 8;
	size_t n = 4;

	for (int i = 0; i < 2; i++) {
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fds[i]);
		len = readlink(link, name[i], sizeof(name[i]) - 1);
		must(len > 0, link);
		name[i][len] = 0;
	}
	fw.fd = w;
	fw.tag = ftag_as(w, type);
	fr.fd = r;
	fr.tag = ftag_as(r, type);
	if (w == r) {
		/* an eventfd moves 8-byte counters */
		wb = &one;
		rb = &got;
		n = 8;
	}
	must(write(w, wb, n) == (ssize_t)n && read(r, rb, n) == (ssize_t)n, "pair");
	snprintf(k, sizeof(k), "%sd", cls);
	truth_class(k);
	truth("write(%d<%s>, %p, %zu) = %zu {%s}", w, name[0], wb, n, n, fw.tag.s);
	truth("read(%d<%s>, %p, %zu) = %zu {%s}", r, name[1], rb, n, n, fr.tag.s);
	snprintf(k, sizeof(k), "%sm", cls);
	truth_class(k);
	must(close(w) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", w, name[0], fw.tag.s);
	if (r != w) {
		must(close(r) == 0, "close");
		truth("close(%d<%s>) = 0 {%s}", r, name[1], fr.tag.s);
	}
}

static void round_once(void)
{
	int p[2], s[2], e;

	truth_reset();
	file_round("K", keep, "x");
	dirfd_round();
	file_round("D", drop, "y");
	stat_round("Km", keep, "x");
	stat_round("Dm", drop, "y");
	must(pipe(p) == 0, "pipe");
	pair_round("P", NULL, p[1], p[0]);
	must(socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0, "socketpair");
	pair_round("S", NULL, s[0], s[1]);
	e = eventfd(0, 0);
	must(e >= 0, "eventfd");
	pair_round("A", "anon", e, e);
	truth_class(NULL);
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct sigaction sa = { .sa_handler = on_signal };
	int loop = argc == 4 && !strcmp(argv[3], "loop");

	if (argc != 3 && !loop) {
		fprintf(stderr, "usage: filters KEEP DROP [loop] 9> EXPECT\n");
		return 2;
	}
	truth_init("filters");
	abs_dir(argv[1], keep, sizeof(keep));
	abs_dir(argv[2], drop, sizeof(drop));
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	do {
		round_once();
		if (loop)
			nanosleep(&tick, NULL);
	} while (loop && !stop);
	truth_flush();
	return 0;
}
