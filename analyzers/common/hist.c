// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyzers/common/hist.h"

unsigned int hist_bucket(uint64_t v)
{
	return dio_hist_bucket(v, HIST_BITS);
}

uint64_t hist_bucket_top(unsigned int b)
{
	return dio_hist_high(b, HIST_BITS);
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
	uint64_t rank = dio_hist_rank(h->n, p), seen = 0;

	if (!h->n)
		return 0;
	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		seen += h->b[b];
		if (seen >= rank)
			return hist_bucket_top(b) < h->max ? hist_bucket_top(b) : h->max;
	}
	return h->max;
}
