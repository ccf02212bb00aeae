/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading the BPF ring, the space given back once a batch (ringrd.c). */
#ifndef DIO_ENGINE_RINGRD_H
#define DIO_ENGINE_RINGRD_H

#include <stddef.h>

/* a record of size bytes (read-only: the ring is mapped so); < 0 stops the reading */
typedef int (*ringrd_fn)(void *ctx, void *data, size_t size);

struct ringrd;

/* the reader of the BPF ring map map_fd (not owned); NULL with errno */
struct ringrd *ringrd__new(int map_fd, ringrd_fn fn, void *ctx);
void ringrd__free(struct ringrd *r);
/* every record readable now: how many, or the callback's error */
int ringrd__consume(struct ringrd *r);
/* wait up to timeout_ms (-1: for ever) for a wakeup, then read as ringrd__consume */
int ringrd__poll(struct ringrd *r, int timeout_ms);

#endif
