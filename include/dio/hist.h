/* SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause) */
/*
 * The buckets of dio's latency histograms, log-linear: with sub bits, values
 * below 2^(bits+1) have a bucket each; above, each power of two is cut in
 * 2^bits buckets of equal width, so a bucket is at most 1/2^bits as wide as
 * its smallest value. The analyzers' fixed histograms use 2 bits (252
 * buckets, 25 %), dio diff's 4 (976, 6.25 %); the bucket of a value and the
 * values of a bucket are these functions' for both.
 */
#ifndef DIO_HIST_H
#define DIO_HIST_H

#include <stdint.h>

/* Buckets from 0 to 2^64 - 1 with sub bits. */
#define DIO_HIST_BUCKETS(bits)	((64 - (bits) + 1) << (bits))

/* The bucket of v. */
static inline unsigned int dio_hist_bucket(uint64_t v, unsigned int bits)
{
	unsigned int e;

	if (v < 2ULL << bits)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);	/* v lies in [2^e, 2^(e+1)) */
	/* the bits below the leading one pick the bucket within the power of two */
	return ((e - bits + 1) << bits) + (unsigned int)((v >> (e - bits)) & ((1u << bits) - 1));
}

/* The smallest value bucket b holds. */
static inline uint64_t dio_hist_low(unsigned int b, unsigned int bits)
{
	unsigned int e;

	if (b < 2u << bits)
		return b;
	e = (b >> bits) + bits - 1;
	return (uint64_t)((1u << bits) + (b & ((1u << bits) - 1))) << (e - bits);
}

/* The largest value bucket b holds: the last bucket ends at 2^64 - 1. */
static inline uint64_t dio_hist_high(unsigned int b, unsigned int bits)
{
	if (b < 2u << bits)
		return b;
	return dio_hist_low(b, bits) + ((1ULL << ((b >> bits) - 1)) - 1);
}

/* The rank, from 1, of the p-quantile (0 < p <= 1) of n values: the smallest that covers p. */
static inline uint64_t dio_hist_rank(uint64_t n, double p)
{
	uint64_t rank = (uint64_t)(p * (double)n);

	if ((double)rank < p * (double)n)
		rank++;
	return rank < 1 ? 1 : rank;
}

#endif
