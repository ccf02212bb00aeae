// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A logger, written the ways the redundant-open analyzer must tell apart. Each
 * mode writes LINES lines of LINE_LEN bytes to DIR/log (or works on
 * DIR/.es_temp_file), with raw system calls so that their names are known,
 * and prints on standard output the numbers a finding must show.
 *
 *   reopen        per line, as Redis did: openat, lseek to the end, fstat,
 *                 write, close                   -> churn
 *   keep          one openat, a write per line, one close: the fix of both
 *                 reopen and reseek
 *   reseek        one openat; per line an lseek to the offset the fd is at
 *                 already, then the write       -> seek
 *   fsync-reopen  ROUNDS times, in a thread named "health", as Elasticsearch's
 *                 FsHealthService: create the file, write, open it again,
 *                 fsync the new fd, close both, unlink   -> sync-reopen
 *   fsync-same    the same, with the fsync on the fd that wrote
 *   all           reopen on DIR/log, reseek on DIR/data, fsync-reopen: one
 *                 process with the three findings
 *
 * Each line printed starts with the process id: "PID windows=200 ...".
 *
 * usage: logger MODE DIR [LINES]
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LINE_LEN	64
#define ROUNDS		5
#define HEALTH_LEN	22	/* what Elasticsearch writes to its temp file */
#define MODES		"|reopen|keep|reseek|fsync-reopen|fsync-same|all|"

static char dir[4096], path[4200];
static long lines = 200;
static int reopen_to_sync;

static void die(const char *what)
{
	fprintf(stderr, "logger: %s: %m\n", what);
	exit(99);
}

static long sys_open(const char *p, int flags)
{
	long fd = syscall(SYS_openat, AT_FDCWD, p, flags | O_CLOEXEC, 0644);

	if (fd < 0)
		die(p);
	return fd;
}

static void sys_write(long fd, const char *buf, size_t len)
{
	if (syscall(SYS_write, fd, buf, len) != (long)len)
		die("write");
}

static void sys_close(long fd)
{
	if (syscall(SYS_close, fd))
		die("close");
}

static void line_of(long i, char *buf)
{
	memset(buf, '.', LINE_LEN);
	snprintf(buf, LINE_LEN, "line %ld", i);
	buf[strlen(buf)] = ' ';
	buf[LINE_LEN - 1] = '\n';
}

static void at(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
}

static void reopen(void)
{
	char buf[LINE_LEN];
	struct stat st;

	for (long i = 0; i < lines; i++) {
		long fd = sys_open(path, O_WRONLY | O_CREAT);

		if (syscall(SYS_lseek, fd, 0L, SEEK_END) < 0 || syscall(SYS_fstat, fd, &st))
			die("lseek or fstat");
		line_of(i, buf);
		sys_write(fd, buf, LINE_LEN);
		sys_close(fd);
	}
	printf("%d windows=%ld bytes=%d sequence=openat lseek fstat write close path=%s\n",
	       (int)getpid(), lines, LINE_LEN, path);
}

static void keep(int seek)
{
	char buf[LINE_LEN];
	long fd = sys_open(path, O_WRONLY | O_CREAT | O_TRUNC);

	for (long i = 0; i < lines; i++) {
		if (seek && syscall(SYS_lseek, fd, i * LINE_LEN, SEEK_SET) != i * LINE_LEN)
			die("lseek");
		line_of(i, buf);
		sys_write(fd, buf, LINE_LEN);
	}
	sys_close(fd);
	printf("%d seeks=%ld path=%s\n", (int)getpid(), seek ? lines : 0, path);
}

static void *health(void *arg)
{
	static const char data[HEALTH_LEN] = "es health check 12345";

	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		long fd = sys_open(path, O_WRONLY | O_CREAT | O_EXCL), sync_fd = fd;

		sys_write(fd, data, sizeof(data));
		if (reopen_to_sync)
			sync_fd = sys_open(path, O_WRONLY);
		if (syscall(SYS_fsync, sync_fd))
			die("fsync");
		if (sync_fd != fd)
			sys_close(sync_fd);
		sys_close(fd);
		if (unlink(path))
			die("unlink");
	}
	return NULL;
}

static void fsync_test(int again)
{
	pthread_t t;

	reopen_to_sync = again;
	if (pthread_create(&t, NULL, health, NULL) || pthread_setname_np(t, "health") ||
	    pthread_join(t, NULL))
		die("thread");
	printf("%d reopens=%d path=%s thread=health\n", (int)getpid(), again ? ROUNDS : 0, path);
}

static int mode_ok(const char *mode)
{
	char m[64];

	snprintf(m, sizeof(m), "|%s|", mode);
	return strlen(mode) < 32 && strstr(MODES, m);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int all;

	if (argc < 3 || argc > 4 || !mode_ok(mode) ||
	    !realpath(argv[2], dir)) {
		fprintf(stderr, "usage: logger reopen|keep|reseek|fsync-reopen|fsync-same|all "
			"DIR [LINES]\n");
		return 2;
	}
	if (argc == 4)
		lines = strtol(argv[3], NULL, 10);
	all = !strcmp(mode, "all");
	at(strncmp(mode, "fsync-", 6) ? "log" : ".es_temp_file");
	if (!strcmp(mode, "reopen") || all)
		reopen();
	if (all)
		at("data");
	if (!strcmp(mode, "keep") || !strcmp(mode, "reseek") || all)
		keep(strcmp(mode, "keep"));
	if (all)
		at(".es_temp_file");
	if (!strcmp(mode, "fsync-reopen") || !strcmp(mode, "fsync-same") || all)
		fsync_test(strcmp(mode, "fsync-same"));
	return 0;
}
