// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lathist.h"

/* 2 * LATHIST_SUB: below it each value has its own bucket */
#define EXACT	(2u * LATHIST_SUB)

unsigned int lathist_bucket(uint64_t v)
{
	unsigned int e;

	if (v < EXACT)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);	/* v lies in [2^e, 2^(e+1)) */
	/* the top LATHIST_SUB_BITS bits below the leading one pick the bucket */
	return (e - LATHIST_SUB_BITS + 1) * LATHIST_SUB +
	       (unsigned int)((v >> (e - LATHIST_SUB_BITS)) & (LATHIST_SUB - 1));
}

uint64_t lathist_bucket_low(unsigned int b)
{
	unsigned int e, sub;

	if (b < EXACT)
		return b;
	e = b / LATHIST_SUB + LATHIST_SUB_BITS - 1;
	sub = b % LATHIST_SUB;
	return (uint64_t)(LATHIST_SUB + sub) << (e - LATHIST_SUB_BITS);
}

uint64_t lathist_bucket_high(unsigned int b)
{
	if (b < EXACT)
		return b;
	/* width 2^(e - SUB_BITS); written so that the last bucket ends at 2^64 - 1 */
	return lathist_bucket_low(b) +
	       ((1ULL << (b / LATHIST_SUB - 1)) - 1);
}

int lathist__add(struct lathist *h, uint64_t v)
{
	unsigned int b = lathist_bucket(v);

	if (!h->len || b < h->lo || b >= h->lo + h->len) {
		/* grow to the powers of two between the old range and b */
		uint32_t lo = h->len && h->lo < b ? h->lo : b & ~(LATHIST_SUB - 1);
		uint32_t end = h->len && h->lo + h->len > b ? h->lo + h->len :
			       (b | (LATHIST_SUB - 1)) + 1;
		uint64_t *n = calloc(end - lo, sizeof(*n));

		if (!n)
			return -ENOMEM;
		if (h->len)
			memcpy(n + (h->lo - lo), h->n, h->len * sizeof(*n));
		free(h->n);
		h->n = n;
		h->lo = lo;
		h->len = end - lo;
	}
	h->n[b - h->lo]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	return 0;
}

uint64_t lathist__pct(const struct lathist *h, double p)
{
	uint64_t rank, seen = 0, mid;
	unsigned int i;

	if (!h->count)
		return 0;
	/* the rank-th smallest value, counting from 1 */
	rank = (uint64_t)(p * (double)h->count);
	if ((double)rank < p * (double)h->count)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	for (i = 0; i < h->len; i++) {
		seen += h->n[i];
		if (seen >= rank)
			break;
	}
	mid = lathist_bucket_low(h->lo + i) +
	      (lathist_bucket_high(h->lo + i) - lathist_bucket_low(h->lo + i)) / 2;
	return mid < h->min ? h->min : mid > h->max ? h->max : mid;
}

void lathist__free(struct lathist *h)
{
	if (!h)
		return;
	free(h->n);
	memset(h, 0, sizeof(*h));
}
