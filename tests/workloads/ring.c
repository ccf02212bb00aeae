// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include "ring.h"
#include "truth.h"

struct io_uring_sqe *ring_sqe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		die_err("io_uring_get_sqe", EBUSY);
	return sqe;
}

int ring_wait(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int e, res;

	e = io_uring_submit(ring);
	if (e != 1)
		die_err("io_uring_submit", e < 0 ? -e : EIO);
	e = io_uring_wait_cqe(ring, &cqe);
	if (e < 0)
		die_err("io_uring_wait_cqe", -e);
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}
