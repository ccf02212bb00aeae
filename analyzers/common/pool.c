// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyzers/common/pool.h"

int pool_init(struct pool *p, size_t block_size, size_t n)
{
	memset(p, 0, sizeof(*p));
	if (!block_size || !n || n > INT32_MAX || block_size > SIZE_MAX / n)
		return -EINVAL;
	/* blocks start 8-byte aligned */
	p->block_size = (block_size + 7) & ~(size_t)7;
	p->n = n;
	p->blocks = calloc(n, p->block_size);
	p->free = calloc(n, sizeof(*p->free));
	if (!p->blocks || !p->free) {
		pool_free(p);
		return -ENOMEM;
	}
	/* lowest index first out: the same stream uses the same blocks */
	for (size_t i = 0; i < n; i++)
		p->free[i] = (int32_t)(n - 1 - i);
	p->nfree = n;
	return 0;
}

void pool_free(struct pool *p)
{
	free(p->blocks);
	free(p->free);
	p->blocks = NULL;
	p->free = NULL;
	p->nfree = 0;
}

size_t pool_bytes(const struct pool *p)
{
	return p->blocks ? p->n * (p->block_size + sizeof(*p->free)) : 0;
}

int32_t pool_get(struct pool *p)
{
	int32_t i;

	if (!p->nfree) {
		p->misses++;
		return POOL_NONE;
	}
	i = p->free[--p->nfree];
	memset(pool_at(p, i), 0, p->block_size);
	return i;
}

void pool_put(struct pool *p, int32_t i)
{
	if (i == POOL_NONE || p->nfree >= p->n)
		return;
	p->free[p->nfree++] = i;
}
