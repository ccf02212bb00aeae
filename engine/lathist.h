/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency histograms for dio diff, on dio/hist.h's buckets with 4 bits: values
 * below 32 ns have a bucket each; above, every power of two is cut in 16 buckets of equal width, so a bucket
 * is at most 1/16 as wide as its smallest value. A percentile is reported as
 * the middle of the bucket it falls in, kept within the exact minimum and
 * maximum: at most 1/32 (3.1 %) away from the true value, and exact below
 * 32 ns and for the largest. Two runs whose calls fall in the same buckets
 * give equal values.
 *
 * Only the buckets between the smallest and the largest value seen are kept,
 * in whole powers of two: a row whose calls take 2 to 60 us holds 80 counters,
 * not the 976 that span 0 to 2^64 ns.
 */
#ifndef DIO_ENGINE_LATHIST_H
#define DIO_ENGINE_LATHIST_H

#include <stdint.h>
#include <dio/hist.h>

#define LATHIST_SUB_BITS	4
#define LATHIST_SUB		(1u << LATHIST_SUB_BITS)	/* buckets per power of two */
#define LATHIST_BUCKETS		DIO_HIST_BUCKETS(LATHIST_SUB_BITS)

/* A zeroed struct is an empty histogram. */
struct lathist {
	uint64_t *n;		/* counts of buckets lo .. lo + len - 1 */
	uint32_t lo, len;
	uint64_t count;		/* values added */
	uint64_t min, max;	/* exact; 0 when empty */
};

/* The bucket of v, 0 .. LATHIST_BUCKETS - 1. */
unsigned int lathist_bucket(uint64_t v);
/* The smallest and the largest value bucket b holds. */
uint64_t lathist_bucket_low(unsigned int b);
uint64_t lathist_bucket_high(unsigned int b);
/* Count one value. 0, or -ENOMEM (h unchanged). */
int lathist__add(struct lathist *h, uint64_t v);
/*
 * The value below which a fraction p (0 < p <= 1) of the values lie: the
 * middle of its bucket, within [min, max]; for p = 1 the maximum. 0 for an
 * empty histogram.
 */
uint64_t lathist__pct(const struct lathist *h, double p);
/* Free the counters; h is empty again. NULL-safe. */
void lathist__free(struct lathist *h);

#endif
