/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring for the workloads: one request at a time, any failure of the ring fatal. */
#ifndef DIO_TESTS_RING_H
#define DIO_TESTS_RING_H

#include <liburing.h>

/* The next free submission entry of ring; dies when there is none. */
struct io_uring_sqe *ring_sqe(struct io_uring *ring);

/* Submits the one request prepared on ring and waits for it: its result (-errno on failure). */
int ring_wait(struct io_uring *ring);

#endif
