// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rare shapes of each record, for the tests that check that dio's JSON
 * export carries everything a trace file holds (tests/integration/json-schema.sh):
 * string arguments that cannot be read or are cut at 4096 bytes, names that
 * are not UTF-8, a path too deep to walk, a deleted and a renamed file, every
 * file type, io_uring requests on a registered file, at the file position,
 * through SQPOLL and failing, a thread that renames itself, a thread other
 * than the leader that calls execve, and children that exit with a status or
 * are killed. It checks each result itself; what dio recorded is compared
 * with the trace file, not with lines written here, so there is no
 * descriptor 9.
 *
 * usage: edges DIR [BLOCKDEV]     (DIR on a file system with O_TMPFILE: ext4)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ring.h"
#include "truth.h"

#define DEEP 70		/* directories: more than the 64 components dio walks */
#define EXEC_DONE "--exec-done"

/* bytes that are not text: NUL, control, DEL, invalid and valid UTF-8, quote, backslash */
static const char odd[] = "\x00\x01\x7f\xff\xc3\xa9\"\\\n";

/* open, write the odd bytes, close: one call on the file at least */
static void touch_write(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	must(fd >= 0, name);
	must(write(fd, odd, sizeof(odd)) == sizeof(odd), "write");
	must(close(fd) == 0, "close");
}

/* string arguments: unreadable (EFAULT) and too long (cut at 4096 bytes by dio) */
static void strings(void)
{
	static char len4095[4096], len4999[5000];
	const char *bad = (const char *)1;	/* not mapped: the kernel cannot read it */

	errno = 0;
	must(syscall(SYS_rename, bad, "b") < 0 && errno == EFAULT, "rename(bad, \"b\")");
	errno = 0;
	must(syscall(SYS_rename, bad, bad) < 0 && errno == EFAULT, "rename(bad, bad)");
	errno = 0;
	must(syscall(SYS_rename, "no-such-file", bad) < 0, "rename(\"no-such-file\", bad)");
	memset(len4095, 'a', sizeof(len4095) - 1);
	memset(len4999, 'b', sizeof(len4999) - 1);
	errno = 0;
	must(open(len4095, O_RDONLY) < 0 && errno == ENAMETOOLONG, "open 4095 bytes");
	errno = 0;
	must(open(len4999, O_RDONLY) < 0 && errno == ENAMETOOLONG, "open 4999 bytes");
	errno = 0;
	must(rename(len4095, len4999) < 0 && errno == ENAMETOOLONG, "rename long names");
}

/* a file whose name is the odd bytes after "n" (no NUL: a name cannot hold one) */
static void odd_name(void)
{
	const char *name = "n\x01\x7f\xff\xc3\xa9\"\\\n";

	touch_write(name);
	must(unlink(name) == 0, "unlink odd name");
}

/* DEEP directories, a file at the bottom, and all of it removed again */
static void deep(void)
{
	for (int i = 0; i < DEEP; i++)
		must(mkdir("d", 0755) == 0 && chdir("d") == 0, "mkdir/chdir d");
	touch_write("f");
	must(unlink("f") == 0, "unlink f");
	for (int i = 0; i < DEEP; i++)
		must(chdir("..") == 0 && rmdir("d") == 0, "chdir ../rmdir d");
}

/* a file that never had a name (deleted), and one renamed between two writes */
static void deleted_and_renamed(void)
{
	int fd = open(".", O_TMPFILE | O_RDWR, 0600);

	must(fd >= 0, "O_TMPFILE");
	must(pwrite(fd, "tmp", 3, 100) == 3, "pwrite tmpfile");
	must(close(fd) == 0, "close tmpfile");
	fd = open("r1", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "open r1");
	must(write(fd, "one", 3) == 3, "write r1");
	must(rename("r1", "r2") == 0, "rename r1 r2");
	must(write(fd, "two", 3) == 3, "write r2");
	must(close(fd) == 0 && unlink("r2") == 0, "close/unlink r2");
}

/* one call on a file of each type dio names */
static void file_types(const char *blockdev)
{
	char buf[512];
	uint64_t one = 1;
	int p[2], s[2], fd;

	must(pipe(p) == 0, "pipe");
	must(write(p[1], "fifo", 4) == 4 && read(p[0], buf, 4) == 4, "pipe write/read");
	must(close(p[0]) == 0 && close(p[1]) == 0, "close pipe");
	must(socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0, "socketpair");
	must(write(s[0], "sock", 4) == 4 && read(s[1], buf, 4) == 4, "socket write/read");
	must(close(s[0]) == 0 && close(s[1]) == 0, "close sockets");
	fd = open("/dev/null", O_WRONLY);
	must(fd >= 0 && write(fd, odd, sizeof(odd)) == sizeof(odd) && close(fd) == 0,
	     "/dev/null");
	fd = eventfd(0, 0);
	must(fd >= 0 && write(fd, &one, 8) == 8 && close(fd) == 0, "eventfd");
	must(symlink("target", "lnk") == 0, "symlink");
	fd = open("lnk", O_PATH | O_NOFOLLOW);
	must(fd >= 0 && fstatat(fd, "", &(struct stat){ 0 }, AT_EMPTY_PATH) == 0 && close(fd) == 0,
	     "fstat of a symbolic link");
	must(unlink("lnk") == 0, "unlink lnk");
	fd = open(".", O_RDONLY | O_DIRECTORY);
	must(fd >= 0 && fstatat(fd, "", &(struct stat){ 0 }, AT_EMPTY_PATH) == 0 && close(fd) == 0,
	     "fstat of a directory");
	if (blockdev) {
		fd = open(blockdev, O_RDONLY);
		must(fd >= 0 && pread(fd, buf, sizeof(buf), 1024) == sizeof(buf) && close(fd) == 0,
		     blockdev);
	}
	/* no arguments at all */
	sync();
}

static void uring(void)
{
	static char buf[4096];
	struct io_uring_params par = { .flags = IORING_SETUP_SQPOLL, .sq_thread_idle = 1000 };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int fd, e;

	fd = open("u", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "open u");
	memcpy(buf, odd, sizeof(odd));
	e = io_uring_queue_init(4, &ring, 0);
	if (e < 0)
		die_err("io_uring_queue_init", -e);
	/* at the file position (offset -1), then through a registered file */
	io_uring_prep_write(ring_sqe(&ring), fd, buf, 100, -1);
	must(ring_wait(&ring) == 100, "io_uring write at the file position");
	e = io_uring_register_files(&ring, &fd, 1);
	if (e < 0)
		die_err("io_uring_register_files", -e);
	sqe = ring_sqe(&ring);
	io_uring_prep_write(sqe, 0, buf, 200, 4096);
	sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = 0xfedcba9876543210ULL;	/* above 2^63: must come out unsigned */
	must(ring_wait(&ring) == 200, "io_uring write to a registered file");
	/* reading a file opened write-only fails: EBADF */
	io_uring_prep_read(ring_sqe(&ring), fd, buf, 100, 0);
	must(ring_wait(&ring) == -EBADF, "io_uring read of a write-only file");
	io_uring_queue_exit(&ring);
	/* submitted by the kernel's SQPOLL thread */
	e = io_uring_queue_init_params(4, &ring, &par);
	if (e < 0)
		die_err("io_uring_queue_init_params SQPOLL", -e);
	io_uring_prep_write(ring_sqe(&ring), fd, buf, 300, 8192);
	must(ring_wait(&ring) == 300, "io_uring write through SQPOLL");
	io_uring_queue_exit(&ring);
	must(close(fd) == 0 && unlink("u") == 0, "close/unlink u");
}

static void *renamer(void *arg)
{
	must(prctl(PR_SET_NAME, "renamed-thr") == 0, "PR_SET_NAME");
	touch_write("t");
	return arg;
}

static void *execer(void *arg)
{
	char *argv[] = { "edges", EXEC_DONE, NULL };

	execv("/proc/self/exe", argv);
	die("execv /proc/self/exe");
}

/* fork a child that runs fn and return its wait status */
static int child(void (*fn)(void))
{
	pid_t pid = fork();
	int status;

	must(pid >= 0, "fork");
	if (!pid) {
		fn();
		_exit(0);
	}
	must(waitpid(pid, &status, 0) == pid, "waitpid");
	return status;
}

static void exit3(void)
{
	touch_write("c");
	_exit(3);
}

static void killed(void)
{
	raise(SIGKILL);
}

/* a thread that is not the leader calls execve: the process goes on under the leader's id */
static void exec_from_thread(void)
{
	pthread_t th;

	must(pthread_create(&th, NULL, execer, NULL) == 0, "pthread_create execer");
	pthread_join(th, NULL);
	die("execve from a thread returned");
}

static void procs(void)
{
	pthread_t th;
	int st;

	must(pthread_create(&th, NULL, renamer, NULL) == 0 && pthread_join(th, NULL) == 0,
	     "renaming thread");
	st = child(exit3);
	must(WIFEXITED(st) && WEXITSTATUS(st) == 3, "child exit status 3");
	st = child(killed);
	must(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "child killed by SIGKILL");
	st = child(exec_from_thread);
	must(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child that exec'd from a thread");
	must(unlink("t") == 0 && unlink("c") == 0, "unlink t, c");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], EXEC_DONE)) {
		touch_write("e");
		return unlink("e") ? 99 : 0;
	}
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: edges DIR [BLOCKDEV]\n");
		return 2;
	}
	must(chdir(argv[1]) == 0, argv[1]);
	strings();
	odd_name();
	deep();
	deleted_and_renamed();
	file_types(argc == 3 ? argv[2] : NULL);
	uring();
	procs();
	return 0;
}
