// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio diff's parts that need no trace: the engine's latency histogram (its
 * buckets, percentiles within 1/32 of the truth, a range that grows both
 * ways), the ratio as text, how a change is ranked and judged, and the
 * command line.
 */
#include <errno.h>
#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/cli.h"
#include "cmd/diff.h"
#include "engine/lathist.h"

static void buckets_are_exact_below_32_then_sixteenths(void **state)
{
	static const struct {
		uint64_t v;
		unsigned int b;
		uint64_t low, high;
	} cases[] = {
		{ 0, 0, 0, 0 }, { 31, 31, 31, 31 },
		{ 32, 32, 32, 33 }, { 33, 32, 32, 33 }, { 34, 33, 34, 35 }, { 63, 47, 62, 63 },
		{ 64, 48, 64, 67 }, { 1000, 6 * 16 + 15, 992, 1023 },
		{ 1024, 7 * 16, 1024, 1087 },
		{ UINT64_MAX, LATHIST_BUCKETS - 1, 31ULL << 59, UINT64_MAX },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(lathist_bucket(cases[i].v), cases[i].b);
		assert_int_equal(lathist_bucket_low(cases[i].b), cases[i].low);
		assert_int_equal(lathist_bucket_high(cases[i].b), cases[i].high);
	}
	/* the buckets follow each other without a gap, each at most 1/16 of its low end wide */
	for (unsigned int b = 1; b < LATHIST_BUCKETS; b++) {
		uint64_t low = lathist_bucket_low(b), high = lathist_bucket_high(b);

		assert_int_equal(low, lathist_bucket_high(b - 1) + 1);
		assert_int_equal(lathist_bucket(low), b);
		assert_int_equal(lathist_bucket(high), b);
		assert_true(high - low <= low / 16);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void percentiles_are_within_a_32nd_of_the_sorted_values(void **state)
{
	static const double ps[] = { 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0 };
	struct lathist h = { 0 };
	uint64_t v[5000], x = 88172645463325252ULL;

	(void)state;
	assert_int_equal(lathist__pct(&h, 0.99), 0);
	/* latencies spread over six powers of ten, as a trace's are */
	for (size_t i = 0; i < 5000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = 10 + x % 1000 * (1 + (x >> 20) % 10000);
		assert_int_equal(lathist__add(&h, v[i]), 0);
	}
	qsort(v, 5000, sizeof(v[0]), cmp_u64);
	assert_int_equal(h.count, 5000);
	assert_int_equal(h.min, v[0]);
	assert_int_equal(h.max, v[4999]);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		/* the rank-th smallest value, counting from 1: ceil(p * n) */
		size_t rank = (size_t)(ps[i] * 5000 + 0.999999);
		double truth = (double)v[rank - 1], got = (double)lathist__pct(&h, ps[i]);

		assert_true(got >= truth - truth / 32 && got <= truth + truth / 32);
	}
	assert_int_equal(lathist__pct(&h, 1.0), v[4999]);
	lathist__free(&h);
	assert_null(h.n);
	assert_int_equal(h.count, 0);
}

static void percentiles_of_equal_values_are_exact(void **state)
{
	struct lathist h = { 0 };

	(void)state;
	for (int i = 0; i < 100; i++)
		lathist__add(&h, 1234567);
	assert_int_equal(lathist__pct(&h, 0.5), 1234567);
	assert_int_equal(lathist__pct(&h, 0.99), 1234567);
	lathist__free(&h);
	/* 99 fast calls and one slow: p99 is a fast one, p100 the slow one */
	for (int i = 0; i < 99; i++)
		lathist__add(&h, 20);
	lathist__add(&h, 5000000);
	assert_int_equal(lathist__pct(&h, 0.99), 20);
	assert_int_equal(lathist__pct(&h, 1.0), 5000000);
	lathist__free(&h);
}

static void the_range_grows_both_ways_and_keeps_its_counts(void **state)
{
	struct lathist h = { 0 };

	(void)state;
	lathist__add(&h, 1000000);
	/* one power of two: the 16 buckets around the value */
	assert_int_equal(h.len, 16);
	lathist__add(&h, 100);
	lathist__add(&h, 100);
	lathist__add(&h, 1ULL << 40);
	assert_int_equal(h.lo, lathist_bucket(100) & ~15u);
	assert_int_equal(h.lo + h.len, (lathist_bucket(1ULL << 40) | 15u) + 1);
	assert_int_equal(h.n[lathist_bucket(100) - h.lo], 2);
	assert_int_equal(h.n[lathist_bucket(1000000) - h.lo], 1);
	assert_int_equal(lathist__pct(&h, 0.5), lathist__pct(&h, 0.25));
	assert_int_equal(h.min, 100);
	lathist__free(&h);
	lathist__free(NULL);
}

static void ratios_read_as_times_new_or_gone(void **state)
{
	static const struct {
		double a, b;
		const char *want;
	} cases[] = {
		{ 2, 5, "2.50x" }, { 4, 1, "0.25x" }, { 1, 200, "200.00x" }, { 7, 7, "1.00x" },
		{ 0, 0, "1.00x" }, { 0, 3, "new" }, { 3, 0, "gone" }, { 3, 3.001, "1.00x" },
		{ 100, 1, "0.01x" }, { 4325375, 17919, "0.0041x" }, { 1e9, 1, "1e-09x" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(diff_ratio_text(cases[i].a, cases[i].b, buf, sizeof(buf)),
				 strlen(cases[i].want));
		assert_string_equal(buf, cases[i].want);
	}
	/* snprintf-style: cut to fit, the whole length returned */
	assert_int_equal(diff_ratio_text(1, 200, buf, 4), 7);
	assert_string_equal(buf, "200");
}

static void changes_rank_both_directions_alike(void **state)
{
	(void)state;
	assert_true(diff_change(5, 5) == 1);
	assert_true(diff_change(0, 0) == 1);
	assert_true(diff_change(2, 1) == 2);
	assert_true(diff_change(1, 2) == 2);
	assert_true(diff_change(0, 1) == DBL_MAX);
	assert_true(diff_change(1, 0) == DBL_MAX);
}

static void worse_means_more_than_pct_above(void **state)
{
	static const struct {
		double a, b, pct;
		int want;
	} cases[] = {
		{ 100, 150, 50, 0 },	/* exactly 50 % more: not more than 50 % */
		{ 100, 151, 50, 1 },
		{ 100, 90, 0, 0 },	/* better */
		{ 10, 10, 0, 0 },
		{ 10, 11, 0, 1 },
		{ 0, 1, 1000, 1 },	/* from nothing: any amount */
		{ 0, 0, 0, 0 },
		{ 1, 200, 19900, 0 },
		{ 1, 200, 19899, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(diff_worse(cases[i].a, cases[i].b, cases[i].pct), cases[i].want);
}

#define MAX_ARGS 16

static int parse(struct options *o, struct diff_args *d, const char *const *args, char *err,
		 size_t len)
{
	static char *argv[MAX_ARGS + 2];
	int argc = 0;

	argv[argc++] = "diff";
	for (int i = 0; i < MAX_ARGS && args[i]; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	options_init(o);
	err[0] = 0;
	return cli_parse_diff(argc, argv, o, d, err, len);
}

static void command_line_defaults_and_own_options(void **state)
{
	const char *plain[] = { "a.dio", "b.dio", NULL };
	const char *full[] = { "--format", "json", "-o", "out.json", "a.dio", "--fail-on-regress",
			       "50", "--min-calls", "10", "b.dio", "--analyzer", "errors",
			       "--fail-on", "warning", "--srcroot", "/srv", NULL };
	struct options o;
	struct diff_args d;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, &d, plain, err, sizeof(err)), 0);
	assert_string_equal(d.file[0], "a.dio");
	assert_string_equal(d.file[1], "b.dio");
	assert_null(d.output);
	assert_int_equal(d.json, 0);
	assert_int_equal(d.regress_pct, -1);
	assert_int_equal(d.min_calls, DIFF_MIN_CALLS);
	assert_int_equal(o.nanalyzers, 1);
	assert_string_equal(o.analyzers[0].name, "all");
	assert_int_equal(o.fail_on, -1);
	options_free(&o);

	assert_int_equal(parse(&o, &d, full, err, sizeof(err)), 0);
	assert_string_equal(d.file[0], "a.dio");
	assert_string_equal(d.file[1], "b.dio");
	/* -o is the diff's, not the console's */
	assert_string_equal(d.output, "out.json");
	assert_null(o.output);
	assert_int_equal(d.json, 1);
	assert_int_equal(d.regress_pct, 50);
	assert_int_equal(d.min_calls, 10);
	assert_int_equal(o.nanalyzers, 1);
	assert_string_equal(o.analyzers[0].name, "errors");
	assert_int_equal(o.fail_on, 1);
	assert_string_equal(o.srcroot, "/srv");
	options_free(&o);
}

static void command_line_mistakes_get_one_line(void **state)
{
	static const struct {
		const char *name;
		const char *args[MAX_ARGS];
		const char *want;
	} cases[] = {
		{ "one_file", { "a.dio" },
		  "diff: give two trace files (dio diff before.dio after.dio)" },
		{ "three_files", { "a.dio", "b.dio", "c.dio" },
		  "diff: give two trace files (dio diff before.dio after.dio)" },
		{ "format", { "--format", "xml", "a", "b" }, "--format xml: use text or json" },
		{ "regress_negative", { "--fail-on-regress", "-5", "a", "b" },
		  "--fail-on-regress -5: give a whole number from 0 to 1000000, e.g. --fail-on-regress 50" },
		{ "regress_word", { "a", "b", "--fail-on-regress", "half" },
		  "--fail-on-regress half: give a whole number from 0 to 1000000, e.g. --fail-on-regress 50" },
		{ "min_calls", { "--min-calls", "1e3", "a", "b" },
		  "--min-calls 1e3: give a whole number from 0 to 1000000000, e.g. --min-calls 100" },
		{ "fail_on", { "--fail-on", "fatal", "a", "b" },
		  "--fail-on: 'fatal' is not a severity (use info, warning or error)" },
		{ "trace_option", { "-p", "1", "a", "b" }, "unknown option '-p'; see 'dio diff --help'" },
		{ "missing_value", { "a", "b", "--min-calls" },
		  "--min-calls: missing value; see 'dio diff --help'" },
	};
	struct options o;
	struct diff_args d;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int e = parse(&o, &d, cases[i].args, err, sizeof(err));

		if (e != -EINVAL || strcmp(err, cases[i].want))
			fail_msg("%s: %d '%s', expected '%s'", cases[i].name, e, err, cases[i].want);
		options_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_are_exact_below_32_then_sixteenths),
		cmocka_unit_test(percentiles_are_within_a_32nd_of_the_sorted_values),
		cmocka_unit_test(percentiles_of_equal_values_are_exact),
		cmocka_unit_test(the_range_grows_both_ways_and_keeps_its_counts),
		cmocka_unit_test(ratios_read_as_times_new_or_gone),
		cmocka_unit_test(changes_rank_both_directions_alike),
		cmocka_unit_test(worse_means_more_than_pct_above),
		cmocka_unit_test(command_line_defaults_and_own_options),
		cmocka_unit_test(command_line_mistakes_get_one_line),
	};

	setenv("DIO_CONFIG", "", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
