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
 *   procs   PROCS processes each make CHILD_STATS stat calls on DIR/missing:
 *           one program, one finding
 *   search  ROUNDS rounds of what compilers, loaders and package tools do, each
 *           failing call an answer asked once per round: readlink of
 *           directories (EINVAL), a header looked for in DIR/inc1 and DIR/inc2
 *           before DIR/inc3 has it (ENOENT), mkdir -p of DIR/out (EEXIST), an
 *           optional DIR/optional.conf (ENOENT), DIR/lock checked then created
 *           (ENOENT), a label asked of the header (ENODATA), lseek of a pipe
 *           (ESPIPE); nothing to report
 *   serve   a server answers REQUESTS requests on each of CLIENTS keep-alive
 *           connections (non-blocking Unix sockets), reading each until EAGAIN
 *           and waiting with poll; the clients are child processes; nothing to
 *           report
 *   live    STATS stat calls on DIR/missing, then waits up to LIVE_WAIT_S
 *           seconds for DIR/seen (made by whoever saw the finding of that
 *           storm while this process still runs), looking every 100 ms; then
 *           LATE_STATS more on DIR/missing. Prints "seen" or "not seen" first
 *           and the line of the two storms, one group
 *
 * usage: errstorm storm|calm|lost|procs|search|serve|live DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STATS	500
#define SPINS	300
#define LOSTS	200
#define FSTATS	150
#define PROCS	4
#define CHILD_STATS 150
#define ROUNDS	300
#define HEADERS	3
#define CLIENTS	4
#define REQUESTS 500
#define LIVE_WAIT_S 8
#define LATE_STATS 300

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

/* PROCS processes, each polling DIR/missing CHILD_STATS times */
static int procs(const char *dir)
{
	pid_t pids[PROCS];
	char path[4200];
	struct stat st;
	int status;

	snprintf(path, sizeof(path), "%s/missing", dir);
	for (int p = 0; p < PROCS; p++) {
		pids[p] = fork();
		if (pids[p] < 0)
			die("fork");
		if (pids[p])
			continue;
		for (int i = 0; i < CHILD_STATS; i++)
			if (syscall(SYS_stat, path, &st) != -1 || errno != ENOENT)
				die("stat of a missing file");
		_exit(0);
	}
	for (int p = 0; p < PROCS; p++) {
		if (waitpid(pids[p], &status, 0) != pids[p] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("a child");
		printf("%d stat %d ENOENT %s warning\n", (int)pids[p], CHILD_STATS, path);
	}
	return 0;
}

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, "x\n", 2) != 2 || close(fd))
		die(path);
}

/* the answers of a build, a loader, a package tool: asked once per round */
static int search(const char *dir)
{
	char path[4200], buf[64], hdr[4200];
	struct stat st;
	int p[2], fd;

	for (int d = 1; d <= 3; d++) {
		snprintf(path, sizeof(path), "%s/inc%d", dir, d);
		if (mkdir(path, 0755) && errno != EEXIST)
			die("mkdir of DIR/incN");
	}
	for (int h = 0; h < HEADERS; h++) {
		snprintf(path, sizeof(path), "%s/inc3/h%d.h", dir, h);
		make_file(path);
	}
	if (pipe2(p, O_CLOEXEC))
		die("pipe2");
	for (int r = 0; r < ROUNDS; r++) {
		/* realpath() of the directory searched: not a symbolic link */
		if (syscall(SYS_readlink, dir, buf, sizeof(buf)) != -1 || errno != EINVAL)
			die("readlink of DIR");
		/* the header: not in inc1, not in inc2, in inc3 */
		for (int d = 1; d <= 3; d++) {
			snprintf(hdr, sizeof(hdr), "%s/inc%d/h%d.h", dir, d, r % HEADERS);
			fd = (int)syscall(SYS_openat, AT_FDCWD, hdr, O_RDONLY | O_CLOEXEC);
			if (d < 3 && (fd != -1 || errno != ENOENT))
				die("openat of a header not there");
			if (d == 3 && (fd < 0 || read(fd, buf, sizeof(buf)) != 2 || close(fd)))
				die("openat of the header");
		}
		if (syscall(SYS_lgetxattr, hdr, "user.dio-none", buf, sizeof(buf)) != -1 ||
		    errno != ENODATA)
			die("lgetxattr of a label not set");
		/* mkdir -p DIR/out, then an object in it */
		snprintf(path, sizeof(path), "%s/out", dir);
		if (syscall(SYS_mkdir, path, 0755) && errno != EEXIST)
			die("mkdir of DIR/out");
		snprintf(path, sizeof(path), "%s/out/o%d", dir, r % HEADERS);
		make_file(path);
		snprintf(path, sizeof(path), "%s/optional.conf", dir);
		if (syscall(SYS_access, path, R_OK) != -1 || errno != ENOENT)
			die("access of an optional file");
		/* check, then create: the lock is not there, so take it */
		snprintf(path, sizeof(path), "%s/lock", dir);
		if (syscall(SYS_stat, path, &st) != -1 || errno != ENOENT)
			die("stat of the lock");
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 || close(fd) || unlink(path))
			die("the lock");
		if (syscall(SYS_lseek, p[0], 0L, SEEK_CUR) != -1 || errno != ESPIPE)
			die("lseek of a pipe");
	}
	return 0;
}

/* a storm, a wait for someone to see its finding while this runs, another storm */
static int live(const char *dir)
{
	char path[4200], seen[4200];
	struct timespec tick = { 0, 100000000 };
	struct stat st;
	int found = 0;

	snprintf(path, sizeof(path), "%s/missing", dir);
	snprintf(seen, sizeof(seen), "%s/seen", dir);
	for (int i = 0; i < STATS; i++)
		if (syscall(SYS_stat, path, &st) != -1 || errno != ENOENT)
			die("stat of a missing file");
	for (int i = 0; i < LIVE_WAIT_S * 10 && !found; i++) {
		nanosleep(&tick, NULL);
		found = !syscall(SYS_stat, seen, &st);
	}
	for (int i = 0; i < LATE_STATS; i++)
		if (syscall(SYS_stat, path, &st) != -1 || errno != ENOENT)
			die("stat of a missing file");
	printf("%s\n", found ? "seen" : "not seen");
	printf("%d stat %d ENOENT %s warning\n", (int)getpid(), STATS + LATE_STATS, path);
	return 0;
}

/* a client: REQUESTS requests, each answered before the next */
static void client(int s)
{
	char buf[64];

	for (int i = 0; i < REQUESTS; i++) {
		struct pollfd pf = { .fd = s, .events = POLLIN };
		ssize_t n = 0;

		if (write(s, "GET\n", 4) != 4)
			die("a request");
		while (n < 3) {
			ssize_t got;

			if (poll(&pf, 1, 10000) != 1)
				die("poll of the client");
			got = read(s, buf + n, sizeof(buf) - (size_t)n);
			if (got <= 0)
				die("the answer");
			n += got;
		}
	}
	_exit(0);
}

/* a server: reads each connection until EAGAIN, answers, waits with poll */
static int serve(void)
{
	struct pollfd pf[CLIENTS];
	pid_t pids[CLIENTS];
	int left = CLIENTS, status;
	char buf[64];

	for (int c = 0; c < CLIENTS; c++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
			die("socketpair");
		pids[c] = fork();
		if (pids[c] < 0)
			die("fork");
		if (!pids[c]) {
			close(sv[0]);
			client(sv[1]);
		}
		close(sv[1]);
		pf[c] = (struct pollfd){ .fd = sv[0], .events = POLLIN };
	}
	while (left) {
		if (poll(pf, CLIENTS, 10000) < 1)
			die("poll of the server");
		for (int c = 0; c < CLIENTS; c++) {
			ssize_t n;

			if (pf[c].fd < 0 || !pf[c].revents)
				continue;
			while ((n = syscall(SYS_read, pf[c].fd, buf, sizeof(buf))) > 0)
				if (syscall(SYS_write, pf[c].fd, "OK\n", 3L) != 3)
					die("an answer");
			if (n == 0) {
				close(pf[c].fd);
				pf[c].fd = -1;
				left--;
			} else if (errno != EAGAIN) {
				die("read of a request");
			}
		}
	}
	for (int c = 0; c < CLIENTS; c++)
		if (waitpid(pids[c], &status, 0) != pids[c] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("a client");
	return 0;
}

int main(int argc, char **argv)
{
	char dir[4096], path[4200], c;
	int storm, p[2];
	struct stat st;
	struct pollfd pf;

	if (argc != 3 || (strcmp(argv[1], "storm") && strcmp(argv[1], "calm") &&
			  strcmp(argv[1], "lost") && strcmp(argv[1], "procs") &&
			  strcmp(argv[1], "search") && strcmp(argv[1], "serve") &&
			  strcmp(argv[1], "live")) ||
	    !realpath(argv[2], dir)) {
		fprintf(stderr, "usage: errstorm storm|calm|lost|procs|search|serve|live DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "live"))
		return live(dir);
	if (!strcmp(argv[1], "lost"))
		return lost(dir);
	if (!strcmp(argv[1], "procs"))
		return procs(dir);
	if (!strcmp(argv[1], "search"))
		return search(dir);
	if (!strcmp(argv[1], "serve"))
		return serve();
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
