// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Asynchronous I/O that a syscall-only view misses: an io_uring write and
 * read of 4096 bytes at offset 0, and a libaio O_DIRECT write of 4096 bytes at
 * offset 8192, on DIR/data. DIR must support O_DIRECT (ext4, not tmpfs).
 * Writes the expected lines to descriptor 9 (see truth.h): the io_uring
 * requests one by one, and the io_submit and io_getevents calls.
 *
 * usage: uring DIR 9> EXPECT
 *        uring DIR batch    eight O_DIRECT writes submitted at once, all in
 *                           flight together (nothing on descriptor 9)
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ring.h"
#include "truth.h"

/* one request through the ring, waited for; returns its result */
static int ring_rw(struct io_uring *ring, int write, int fd, void *buf)
{
	struct io_uring_sqe *sqe = ring_sqe(ring);

	if (write)
		io_uring_prep_write(sqe, fd, buf, 4096, 0);
	else
		io_uring_prep_read(sqe, fd, buf, 4096, 0);
	return ring_wait(ring);
}

/* eight writes in one submission: the io_uring table holds eight at once */
static int batch(int fd, void *buf)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int e;

	e = io_uring_queue_init(8, &ring, 0);
	if (e < 0)
		die_err("io_uring_queue_init", -e);
	for (int i = 0; i < 8; i++)
		io_uring_prep_write(io_uring_get_sqe(&ring), fd, buf, 4096, i * 4096);
	e = io_uring_submit(&ring);
	if (e != 8)
		die_err("io_uring_submit", e < 0 ? -e : EIO);
	for (int i = 0; i < 8; i++) {
		e = io_uring_wait_cqe(&ring, &cqe);
		if (e < 0 || cqe->res != 4096)
			die_err("io_uring write", e < 0 ? -e : cqe->res < 0 ? -cqe->res : EIO);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return 0;
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct iocb cb, *cbs[1] = { &cb };
	struct io_uring ring;
	struct io_event ev;
	io_context_t ctx = 0;
	struct tfile f;
	void *buf;
	int fd, e;

	if (argc != 2 && (argc != 3 || strcmp(argv[2], "batch"))) {
		fprintf(stderr, "usage: uring DIR 9> EXPECT | uring DIR batch\n");
		return 2;
	}
	truth_init("uring");
	abs_dir(argv[1], dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/data", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0)
		die(path);
	tfile_set(&f, fd, path);
	truth("openat(AT_FDCWD, \"%s\", O_RDWR|O_CREAT|O_TRUNC|O_DIRECT, 0644) = %d<%s> {%s}", path,
	      fd, path, f.tag.s);
	/* O_DIRECT wants aligned buffers */
	if (posix_memalign(&buf, 4096, 4096))
		die_err("posix_memalign", ENOMEM);
	memset(buf, 'u', 4096);
	if (argc == 3)
		return batch(fd, buf);

	e = io_uring_queue_init(8, &ring, 0);
	if (e < 0)
		die_err("io_uring_queue_init", -e);
	e = ring_rw(&ring, 1, fd, buf);
	if (e != 4096)
		die_err("io_uring write", e < 0 ? -e : EIO);
	truth("io_uring WRITE(fd %d<%s>, off=0, len=4096) = 4096 {%s}", fd, path, f.tag.s);
	e = ring_rw(&ring, 0, fd, buf);
	if (e != 4096)
		die_err("io_uring read", e < 0 ? -e : EIO);
	truth("io_uring READ(fd %d<%s>, off=0, len=4096) = 4096 {%s}", fd, path, f.tag.s);
	io_uring_queue_exit(&ring);

	e = io_setup(4, &ctx);
	if (e < 0)
		die_err("io_setup", -e);
	io_prep_pwrite(&cb, fd, buf, 4096, 8192);
	e = io_submit(ctx, 1, cbs);
	if (e != 1)
		die_err("io_submit", e < 0 ? -e : EIO);
	truth("io_submit(%#lx, 1, %p) = 1", (unsigned long)ctx, (void *)cbs);
	e = io_getevents(ctx, 1, 1, &ev, NULL);
	if (e != 1 || (long)ev.res != 4096)
		die_err("io_getevents", e < 0 ? -e : EIO);
	truth("io_getevents(%#lx, 1, 1, %p, NULL) = 1", (unsigned long)ctx, (void *)&ev);
	io_destroy(ctx);
	free(buf);

	if (close(fd) || unlink(path))
		die("close");
	truth("close(%d<%s>) = 0 {%s}", fd, path, f.tag.s);
	truth("unlink(\"%s\") = 0", path);
	truth_flush();
	return 0;
}
