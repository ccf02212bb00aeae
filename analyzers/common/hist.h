/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log-linear histogram of durations (or any counts): fixed size, cheap to
 * add to and to merge, good enough for percentiles, on dio/hist.h's buckets
 * with 2 bits: values below 8 have a bucket each; above, each power of two is
 * split in four, so a bucket is at most 25 % wide. A percentile is read as the top of its bucket, never above
 * the largest value seen (kept exactly), so it is at most 25 % high and exact
 * when all the values are equal. Linked into each analyzer module.
 */
#ifndef DIO_ANALYZER_HIST_H
#define DIO_ANALYZER_HIST_H

#include <stdint.h>
#include <dio/hist.h>

#define HIST_BITS	2	/* 4 buckets per power of two */
#define HIST_BUCKETS	DIO_HIST_BUCKETS(HIST_BITS)	/* 252: 8 exact, then 4 per power of two */

struct hist {
	uint64_t n, sum, max;
	uint64_t b[HIST_BUCKETS];
};

/* The bucket of v, and the largest value bucket b holds. */
unsigned int hist_bucket(uint64_t v);
uint64_t hist_bucket_top(unsigned int b);

void hist_add(struct hist *h, uint64_t v);
/* Add everything src counted to dst. */
void hist_merge(struct hist *dst, const struct hist *src);
/* The p-quantile (0 < p <= 1) as described above; 0 for an empty histogram. */
uint64_t hist_pct(const struct hist *h, double p);

#endif
