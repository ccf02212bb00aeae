/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading the BPF rings, one a CPU, in the order their records were made (ringrd.c). */
#ifndef DIO_ENGINE_RINGRD_H
#define DIO_ENGINE_RINGRD_H

#include <stddef.h>
#include <stdint.h>

/* a record of size bytes (read-only: the rings are mapped so); < 0 stops the reading */
typedef int (*ringrd_fn)(void *ctx, void *data, size_t size);
/* when a record was made (CLOCK_MONOTONIC ns): the order records are handed on in */
typedef uint64_t (*ringrd_key)(const void *data, size_t size);

struct ringrd;

/* the reader of the n BPF ring maps fds (not owned); key NULL: one ring's order; NULL with errno */
struct ringrd *ringrd__new(const int *fds, int n, ringrd_fn fn, ringrd_key key, void *ctx);
void ringrd__free(struct ringrd *r);
/*
 * The records readable now that were made at bound or before (UINT64_MAX:
 * all), oldest first: how many, or the callback's error (the record it
 * refused is gone, as with libbpf's reader; -EBUSY from within a callback).
 * A read passes the time it began at, read before it: see ringrd.c.
 */
int ringrd__consume(struct ringrd *r, uint64_t bound);
/* wait up to timeout_ms (-1: for ever) for a wakeup: 0 or -errno; then read (its time after) */
int ringrd__wait(struct ringrd *r, int timeout_ms);

#endif
