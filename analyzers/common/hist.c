// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyzers/common/hist.h"

unsigned int hist_bucket(uint64_t v)
{
	unsigned int lg;

	if (v < 8)
		return (unsigned int)v;
	lg = 63 - (unsigned int)__builtin_clzll(v);
	/* the two bits after the leading one choose the quarter of [2^lg, 2^(lg+1)) */
	return 8 + 4 * (lg - 3) + (unsigned int)((v >> (lg - 2)) & 3);
}

uint64_t hist_bucket_top(unsigned int b)
{
	unsigned int lg, quarter;

	if (b < 8)
		return b;
	lg = (b - 8) / 4 + 3;
	quarter = (b - 8) % 4;
	return ((uint64_t)(5 + quarter) << (lg - 2)) - 1;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	h->b[hist_bucket(v)]++;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->n)
		return;
	dst->n += src->n;
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

uint64_t hist_pct(const struct hist *h, double p)
{
	/* the rank of the quantile: the smallest count that covers p of the values */
	uint64_t rank = (uint64_t)(p * (double)h->n), seen = 0;

	if (!h->n)
		return 0;
	if ((double)rank < p * (double)h->n)
		rank++;
	if (rank < 1)
		rank = 1;
	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		seen += h->b[b];
		if (seen >= rank)
			return hist_bucket_top(b) < h->max ? hist_bucket_top(b) : h->max;
	}
	return h->max;
}
