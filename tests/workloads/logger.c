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
 *   fsync-same    the same, with the fsync on the fd that wrote; both make
 *                 and delete the file ROUNDS times   -> create-unlink
 *   shell         SHELL_LINES times what a shell does for `echo x >> DIR/log`:
 *                 open the file on fd 3, save fd 1 with F_DUPFD, dup2 3 onto
 *                 1, close 3, write through 1, dup2 the saved fd back onto 1
 *                 (which ends the file's description), close it  -> churn
 *   journal       TXNS times what SQLite's DELETE journal mode does for a
 *                 transaction on DIR/db: create DIR/db-journal, fstat it,
 *                 write it, fdatasync it, fdatasync DIR through a new fd,
 *                 write its header, fdatasync it, write and fdatasync DIR/db,
 *                 close and unlink the journal     -> create-unlink
 *   config        write DIR/app.conf, then read it whole (open, fstat, read,
 *                 read at its end, close) CONFIG_READS times -> duplicate-read
 *   all           reopen on DIR/log, reseek on DIR/data, fsync-reopen: one
 *                 process with churn, seek, sync-reopen and create-unlink (its
 *                 5 temp files are few of its calls, but their fsyncs most of
 *                 its time on storage)
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
#define SHELL_LINES	50
#define TXNS		50
#define PAGE		4096
#define CONFIG_LEN	300
#define CONFIG_READS	5
#define MODES		"|reopen|keep|reseek|fsync-reopen|fsync-same|shell|journal|config|all|"

static char dir[4096], path[4200];
static long lines = 200;
static int reopen_to_sync, all;

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

static void sys_pwrite(long fd, const char *buf, size_t len, long off)
{
	if (syscall(SYS_pwrite64, fd, buf, len, off) != (long)len)
		die("pwrite");
}

static void sys_fdatasync(long fd)
{
	if (syscall(SYS_fdatasync, fd))
		die("fdatasync");
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

	again = !!again;
	reopen_to_sync = again;
	if (pthread_create(&t, NULL, health, NULL) || pthread_setname_np(t, "health") ||
	    pthread_join(t, NULL))
		die("thread");
	/* one open (and close) of the file for its write, one more to sync it */
	printf("%d reopens=%d cycles=%d syncs=1 opens=%d closes=%d dirsyncs=0 path=%s "
	       "thread=health\n", (int)getpid(), again ? ROUNDS : 0, ROUNDS,
	       1 + again, 1 + again, path);
}

static void shell(void)
{
	for (int i = 0; i < SHELL_LINES; i++) {
		long fd = sys_open(path, O_WRONLY | O_CREAT | O_APPEND), saved;

		saved = syscall(SYS_fcntl, 1, F_DUPFD, 10);
		if (saved < 0 || syscall(SYS_dup2, fd, 1) != 1)
			die("fcntl or dup2");
		sys_close(fd);
		sys_write(1, "x\n", 2);
		if (syscall(SYS_dup2, saved, 1) != 1)
			die("dup2");
		sys_close(saved);
	}
	/* the dup2 that ends the description is a call on the saved fd's: not in the excerpt */
	printf("%d windows=%d bytes=2 sequence=openat dup2 close write dup2 "
	       "excerpt=openat dup2 close write path=%s\n", (int)getpid(), SHELL_LINES, path);
}

static void journal(void)
{
	static char page[PAGE];
	char db[4200];
	long dbfd;
	struct stat st;

	snprintf(db, sizeof(db), "%s/db", dir);
	snprintf(path, sizeof(path), "%s/db-journal", dir);
	dbfd = sys_open(db, O_RDWR | O_CREAT);
	for (int i = 0; i < TXNS; i++) {
		long fd = sys_open(path, O_RDWR | O_CREAT), dfd;

		if (syscall(SYS_fstat, fd, &st))
			die("fstat");
		sys_pwrite(fd, page, 512, 0);
		for (int w = 0; w < 9; w++)
			sys_pwrite(fd, page, PAGE, 512 + w * PAGE);
		sys_fdatasync(fd);
		dfd = sys_open(dir, O_RDONLY | O_DIRECTORY);
		sys_fdatasync(dfd);
		sys_close(dfd);
		sys_pwrite(fd, page, 12, 0);
		sys_fdatasync(fd);
		sys_pwrite(dbfd, page, PAGE, 0);
		sys_fdatasync(dbfd);
		sys_close(fd);
		if (syscall(SYS_unlink, path))
			die("unlink");
	}
	sys_close(dbfd);
	/* the directory opened to sync it in every transaction: the sync's cost, no churn */
	printf("%d cycles=%d syncs=2 opens=1 closes=1 dirsyncs=1 path=%s\n", (int)getpid(),
	       TXNS, path);
}

static void config(void)
{
	char buf[PAGE];
	long fd = sys_open(path, O_WRONLY | O_CREAT | O_TRUNC);
	struct stat st;

	memset(buf, '#', CONFIG_LEN);
	sys_write(fd, buf, CONFIG_LEN);
	sys_close(fd);
	for (int i = 0; i < CONFIG_READS; i++) {
		fd = sys_open(path, O_RDONLY);
		if (syscall(SYS_fstat, fd, &st) || syscall(SYS_read, fd, buf, sizeof(buf)) !=
		    CONFIG_LEN || syscall(SYS_read, fd, buf, sizeof(buf)) != 0)
			die("fstat or read");
		sys_close(fd);
	}
	printf("%d reads=%d bytes=%d path=%s\n", (int)getpid(), CONFIG_READS, CONFIG_LEN, path);
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
	if (argc < 3 || argc > 4 || !mode_ok(mode) ||
	    !realpath(argv[2], dir)) {
		fprintf(stderr, "usage: logger reopen|keep|reseek|fsync-reopen|fsync-same|shell|"
			"journal|config|all DIR [LINES]\n");
		return 2;
	}
	if (argc == 4)
		lines = strtol(argv[3], NULL, 10);
	all = !strcmp(mode, "all");
	at(strncmp(mode, "fsync-", 6) ? strcmp(mode, "config") ? "log" : "app.conf" :
	   ".es_temp_file");
	if (!strcmp(mode, "shell"))
		shell();
	if (!strcmp(mode, "journal"))
		journal();
	if (!strcmp(mode, "config"))
		config();
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
