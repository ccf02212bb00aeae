// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lathist.h"

unsigned int lathist_bucket(uint64_t v)
{
	return dio_hist_bucket(v, LATHIST_SUB_BITS);
}

uint64_t lathist_bucket_low(unsigned int b)
{
	return dio_hist_low(b, LATHIST_SUB_BITS);
}

uint64_t lathist_bucket_high(unsigned int b)
{
	return dio_hist_high(b, LATHIST_SUB_BITS);
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
	rank = dio_hist_rank(h->count, p);	/* the rank-th smallest value, counting from 1 */
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
