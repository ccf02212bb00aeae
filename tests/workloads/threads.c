// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Threads and processes sharing files: a thread that renames itself between
 * two calls (each call must carry the name the thread had then), a forked
 * child reading through an inherited fd (whose path dio must still know, and
 * whose file offset is shared with the parent), and a process that receives a
 * file over a unix socket (SCM_RIGHTS) and uses a dup of it. Writes the
 * expected lines to descriptor 9 (see truth.h).
 *
 * usage: threads DIR 9> EXPECT
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "truth.h"

static char buf[8192];
static char rbuf[4096];
static struct tfile shared;
static pthread_barrier_t bar;
static pid_t worker_tid;

static void *worker(void *arg)
{
	char name[17] = "";

	worker_tid = gettid();
	/* a call under the name inherited from the main thread */
	must(pwrite(shared.fd, buf, 100, 4096) == 100, "pwrite before the rename");
	truth("pwrite64(%d<%s>, %p, 100, 4096) = 100 {off=4096 %s}", shared.fd, shared.path, buf,
	      shared.tag.s);
	must(pthread_setname_np(pthread_self(), "worker-1") == 0, "pthread_setname_np");
	prctl(PR_GET_NAME, name);
	must(!strcmp(name, "worker-1"), "thread name");
	truth("+++ renamed \"worker-1\" +++");
	/* the main thread reads while this one is alive under its new name */
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	must(pwrite(shared.fd, buf, 4096, 4096) == 4096, "pwrite");
	truth("pwrite64(%d<%s>, %p, 4096, 4096) = 4096 {off=4096 %s}", shared.fd, shared.path, buf,
	      shared.tag.s);
	truth("+++ exited with 0 +++");
	return NULL;
}

static void threads(void)
{
	pthread_t th;

	must(pthread_barrier_init(&bar, NULL, 2) == 0, "pthread_barrier_init");
	must(pthread_create(&th, NULL, worker, NULL) == 0, "pthread_create");
	pthread_barrier_wait(&bar);
	truth("+++ thread %d/%d +++", getpid(), worker_tid);
	must(pread(shared.fd, rbuf, 4096, 0) == 4096, "pread");
	truth("pread64(%d<%s>, %p, 4096, 0) = 4096 {off=0 %s}", shared.fd, shared.path, rbuf,
	      shared.tag.s);
	pthread_barrier_wait(&bar);
	must(pthread_join(th, NULL) == 0, "pthread_join");
	pthread_barrier_destroy(&bar);
}

/* A child reads through the fd it inherited; the offset it moves is the parent's too. */
static void inherit(void)
{
	pid_t child;
	int status;

	must(lseek(shared.fd, 0, SEEK_SET) == 0, "lseek");
	truth("lseek(%d<%s>, 0, SEEK_SET) = 0 {off=0 %s}", shared.fd, shared.path, shared.tag.s);
	child = fork();
	must(child >= 0, "fork");
	if (child == 0) {
		if (read(shared.fd, rbuf, 100) != 100)
			_exit(98);
		truth("read(%d<%s>, %p, 100) = 100 {off=0 %s}", shared.fd, shared.path, rbuf,
		      shared.tag.s);
		truth("+++ exited with 3 +++");
		_exit(3);
	}
	truth("+++ fork child %d/%d +++", child, child);
	must(waitpid(child, &status, 0) == child, "waitpid");
	must(WIFEXITED(status) && WEXITSTATUS(status) == 3, "child exit status");
	must(read(shared.fd, rbuf, 100) == 100, "read after the child");
	truth("read(%d<%s>, %p, 100) = 100 {off=100 %s}", shared.fd, shared.path, rbuf,
	      shared.tag.s);
}

/*
 * Receives one fd over the socket: the sender opened the file after this
 * process was born, so only the fd passing brings it here.
 */
static void __attribute__((noreturn)) receiver(int sock, const char *path)
{
	char cbuf[CMSG_SPACE(sizeof(int))], c;
	struct iovec iov = { &c, 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	struct tfile f;
	int fd, d;

	if (recvmsg(sock, &msg, 0) != 1)
		_exit(97);
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		_exit(96);
	memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	tfile_set(&f, fd, path);
	d = dup(fd);
	if (d < 0)
		_exit(94);
	truth("dup(%d<%s>) = %d<%s> {%s}", fd, f.path, d, f.path, f.tag.s);
	if (pread(d, rbuf, 50, 0) != 50)
		_exit(93);
	truth("pread64(%d<%s>, %p, 50, 0) = 50 {off=0 %s}", d, f.path, rbuf, f.tag.s);
	if (close(d) || close(fd))
		_exit(92);
	truth("close(%d<%s>) = 0 {%s}", d, f.path, f.tag.s);
	truth("close(%d<%s>) = 0 {%s}", fd, f.path, f.tag.s);
	truth("+++ exited with 0 +++");
	_exit(0);
}

static void pass_fd(const char *dir)
{
	char cbuf[CMSG_SPACE(sizeof(int))], c = 'f';
	struct iovec iov = { &c, 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	struct tfile p;
	char path[PATH_MAX + 16];
	int sv[2], fd, d, status;
	pid_t child;

	snprintf(path, sizeof(path), "%s/passed", dir);
	must(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0, "socketpair");
	child = fork();
	must(child >= 0, "fork");
	if (child == 0) {
		close(sv[0]);
		receiver(sv[1], path);
	}
	truth("+++ fork child %d/%d +++", child, child);
	close(sv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "open passed");
	tfile_set(&p, fd, path);
	truth("openat(AT_FDCWD, \"%s\", O_RDWR|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", path, fd,
	      path, p.tag.s);
	must(write(fd, buf, 50) == 50, "write passed");
	truth("write(%d<%s>, %p, 50) = 50 {off=0 %s}", fd, path, buf, p.tag.s);
	d = dup(fd);
	must(d >= 0, "dup");
	truth("dup(%d<%s>) = %d<%s> {%s}", fd, path, d, path, p.tag.s);
	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &d, sizeof(int));
	must(sendmsg(sv[0], &msg, 0) == 1, "sendmsg");
	must(close(d) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", d, path, p.tag.s);
	must(waitpid(child, &status, 0) == child, "waitpid");
	must(WIFEXITED(status) && WEXITSTATUS(status) == 0, "receiver exit status");
	must(close(fd) == 0, "close");
	truth("close(%d<%s>) = 0 {%s}", fd, path, p.tag.s);
	close(sv[0]);
	must(unlink(path) == 0, "unlink");
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: threads DIR 9> EXPECT\n");
		return 2;
	}
	truth_init("threads");
	memset(buf, 't', sizeof(buf));
	abs_dir(argv[1], dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/shared", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, "open shared");
	tfile_set(&shared, fd, path);
	truth("openat(AT_FDCWD, \"%s\", O_RDWR|O_CREAT|O_TRUNC, 0644) = %d<%s> {%s}", path, fd,
	      path, shared.tag.s);
	must(write(fd, buf, 8192) == 8192, "write");
	truth("write(%d<%s>, %p, 8192) = 8192 {off=0 %s}", fd, path, buf, shared.tag.s);

	threads();
	inherit();
	pass_fd(dir);

	must(close(fd) == 0 && unlink(path) == 0, "close shared");
	truth("close(%d<%s>) = 0 {%s}", fd, path, shared.tag.s);
	truth("+++ exited with 0 +++");
	truth_flush();
	return 0;
}
