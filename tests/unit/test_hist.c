// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzers/common/hist: which bucket a value falls in and the top of each
 * bucket, percentiles as the top of their bucket but never above the maximum,
 * merging.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyzers/common/hist.h"

static void buckets_are_exact_below_8_then_quarters(void **state)
{
	static const struct {
		uint64_t v;
		unsigned int b;
		uint64_t top;
	} cases[] = {
		{ 0, 0, 0 }, { 7, 7, 7 },
		{ 8, 8, 9 }, { 9, 8, 9 }, { 10, 9, 11 }, { 15, 11, 15 },
		{ 16, 12, 19 }, { 65536, 8 + 4 * 13, 81919 }, { 81919, 8 + 4 * 13, 81919 },
		{ 81920, 9 + 4 * 13, 98303 }, { 131071, 11 + 4 * 13, 131071 },
		{ UINT64_MAX, HIST_BUCKETS - 1, UINT64_MAX },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(hist_bucket(cases[i].v), cases[i].b);
		assert_int_equal(hist_bucket_top(cases[i].b), cases[i].top);
	}
	/* every value is at most its bucket's top and above the previous bucket's */
	for (uint64_t v = 1; v < 5000; v++) {
		unsigned int b = hist_bucket(v);

		assert_true(v <= hist_bucket_top(b));
		assert_true(v > hist_bucket_top(b - 1));
	}
}

static void percentile_is_the_top_of_its_bucket_capped_at_the_max(void **state)
{
	struct hist h;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(hist_pct(&h, 0.99), 0);
	/* all equal: exact */
	for (int i = 0; i < 100; i++)
		hist_add(&h, 65536);
	assert_int_equal(hist_pct(&h, 0.99), 65536);
	assert_int_equal(h.n, 100);
	assert_int_equal(h.sum, 6553600);
	/* 99 fast and one slow: p99 is the fast one's bucket, p100 the slow one */
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 99; i++)
		hist_add(&h, 1000);
	hist_add(&h, 1000000);
	assert_int_equal(hist_pct(&h, 0.99), hist_bucket_top(hist_bucket(1000)));
	assert_int_equal(hist_pct(&h, 1.0), 1000000);
	/* 98 fast and two slow: the 99th value is slow */
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 98; i++)
		hist_add(&h, 1000);
	hist_add(&h, 900000);
	hist_add(&h, 1000000);
	assert_int_equal(hist_pct(&h, 0.99), hist_bucket_top(hist_bucket(900000)));
}

static void merge_adds_counts_and_keeps_the_max(void **state)
{
	struct hist a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	hist_add(&a, 10);
	hist_add(&b, 20);
	hist_add(&b, 5000);
	hist_merge(&a, &b);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.sum, 5030);
	assert_int_equal(a.max, 5000);
	assert_int_equal(a.b[hist_bucket(20)], 1);
	assert_int_equal(hist_pct(&a, 0.5), hist_bucket_top(hist_bucket(20)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_are_exact_below_8_then_quarters),
		cmocka_unit_test(percentile_is_the_top_of_its_bucket_capped_at_the_max),
		cmocka_unit_test(merge_adds_counts_and_keeps_the_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
