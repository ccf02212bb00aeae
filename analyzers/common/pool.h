/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fixed number of fixed-size blocks, allocated at init, handed out by index:
 * for analyzer state that only some table entries need (a page bitmap, saved
 * records), so that the table's values stay small and the big part is paid
 * for a bounded number of entries. Linked into each analyzer module.
 */
#ifndef DIO_ANALYZER_POOL_H
#define DIO_ANALYZER_POOL_H

#include <stddef.h>
#include <stdint.h>

#define POOL_NONE	(-1)

struct pool {
	size_t block_size, n;
	uint8_t *blocks;
	int32_t *free;		/* stack of free indexes */
	size_t nfree;
	uint64_t misses;	/* pool_get calls that found every block in use */
};

/* n blocks of block_size bytes. 0 or -ENOMEM/-EINVAL (n above INT32_MAX, size 0). */
int pool_init(struct pool *p, size_t block_size, size_t n);
void pool_free(struct pool *p);
/* Bytes the pool holds (all of it allocated by pool_init). */
size_t pool_bytes(const struct pool *p);
/* The index of a zeroed block, or POOL_NONE when all are in use (counted in misses). */
int32_t pool_get(struct pool *p);
/* Give block i back; POOL_NONE is ignored. */
void pool_put(struct pool *p, int32_t i);
/* The block at index i (from pool_get, not yet put back). */
static inline void *pool_at(const struct pool *p, int32_t i)
{
	return p->blocks + (size_t)i * p->block_size;
}

#endif
