// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Asynchronous I/O that syscall-only tracers miss: an io_uring write and read
 * of 4096 bytes at offset 0, and a libaio O_DIRECT write of 4096 bytes at
 * offset 8192. Writes to EXPECT the console lines for the io_uring requests
 * and the io_submit call.
 *
 * usage: uring DIR EXPECT
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void die(const char *what, int e)
{
	fprintf(stderr, "uring: %s: %s\n", what, strerror(e));
	exit(99);
}

int main(int argc, char **argv)
{
	char path[4096], exp[8192], tag[128];
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct stat st;
	unsigned int gen = 0;
	io_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	void *buf;
	int fd, n = 0, out, e;
	pid_t pid = getpid();

	if (argc != 3)
		return 2;
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0)
		die(path, errno);
	if (fstat(fd, &st))
		die("fstat", errno);
	ioctl(fd, FS_IOC_GETVERSION, &gen);
	snprintf(tag, sizeof(tag), "type=reg tag=%u:%u|%llu|%u", major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino, gen);
	if (posix_memalign(&buf, 4096, 4096))
		die("memalign", ENOMEM);
	memset(buf, 'u', 4096);

	e = io_uring_queue_init(8, &ring, 0);
	if (e < 0)
		die("io_uring_queue_init", -e);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, buf, 4096, 0);
	io_uring_submit(&ring);
	if ((e = io_uring_wait_cqe(&ring, &cqe)) < 0 || cqe->res != 4096)
		die("io_uring write", e < 0 ? -e : EIO);
	io_uring_cqe_seen(&ring, cqe);
	n += snprintf(exp + n, sizeof(exp) - n,
		      "[%d/%d uring] io_uring WRITE(fd %d<%s>, off=0, len=4096) = 4096 {%s}\n", pid,
		      pid, fd, path, tag);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, buf, 4096, 0);
	io_uring_submit(&ring);
	if ((e = io_uring_wait_cqe(&ring, &cqe)) < 0 || cqe->res != 4096)
		die("io_uring read", e < 0 ? -e : EIO);
	io_uring_cqe_seen(&ring, cqe);
	n += snprintf(exp + n, sizeof(exp) - n,
		      "[%d/%d uring] io_uring READ(fd %d<%s>, off=0, len=4096) = 4096 {%s}\n", pid,
		      pid, fd, path, tag);
	io_uring_queue_exit(&ring);

	if ((e = io_setup(4, &ctx)) < 0)
		die("io_setup", -e);
	io_prep_pwrite(&cb, fd, buf, 4096, 8192);
	if ((e = io_submit(ctx, 1, cbs)) != 1)
		die("io_submit", e < 0 ? -e : EIO);
	n += snprintf(exp + n, sizeof(exp) - n, "[%d/%d uring] io_submit(%#lx, 1, %p) = 1\n", pid,
		      pid, (unsigned long)ctx, (void *)cbs);
	if ((e = io_getevents(ctx, 1, 1, &ev, NULL)) != 1 || (long)ev.res != 4096)
		die("io_getevents", e < 0 ? -e : EIO);
	io_destroy(ctx);
	close(fd);
	free(buf);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || write(out, exp, n) != n)
		die(argv[2], errno);
	return 0;
}
