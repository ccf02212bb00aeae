// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What dio takes from a ClickHouse server's answers and from a recording's
 * names (sinks/clickhouse/reply.c): numbers only when the answer is numbers
 * within their bounds, ids that can name a file and enter SQL, messages
 * without a URL's password or a terminal's control bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sinks/clickhouse/reply.h"

static void test_a_row_of_counts_is_numbers_and_nothing_else(void **state)
{
	static const struct {
		const char *text;
		int n, ret;
		uint64_t v[3];
	} cases[] = {
		{ "3\t1099511627776\t1099511627778\n", 3, 0, { 3, 1099511627776ULL, 1099511627778ULL } },
		{ "0\t0\t0", 3, 0, { 0, 0, 0 } },
		{ "18446744073709551615\n", 1, 0, { UINT64_MAX } },
		{ "18446744073709551616\n", 1, -EPROTO, { 0 } },	/* past 2^64 - 1 */
		{ "99999999999999999999999\n", 1, -EPROTO, { 0 } },
		{ "-1\n", 1, -EPROTO, { 0 } },
		{ "+1\n", 1, -EPROTO, { 0 } },
		{ " 1\n", 1, -EPROTO, { 0 } },
		{ "0x10\n", 1, -EPROTO, { 0 } },
		{ "1\t2\n", 3, -EPROTO, { 0 } },			/* a field short */
		{ "1\t2\t3\t4\n", 3, -EPROTO, { 0 } },			/* one too many */
		{ "1\t2\t3\n4\n", 3, -EPROTO, { 0 } },			/* a second row */
		{ "", 1, -EPROTO, { 0 } },
		{ "Code: 60, e.displayText() = DB::Exception\n", 1, -EPROTO, { 0 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v[3] = { 0 };

		assert_int_equal(ch_reply_numbers(cases[i].text, v, cases[i].n), cases[i].ret);
		if (!cases[i].ret)
			assert_memory_equal(v, cases[i].v, (size_t)cases[i].n * sizeof(v[0]));
	}
}

static void test_batch_numbers_are_sorted_once_each_and_below_the_bound(void **state)
{
	uint64_t *v;
	size_t n;

	(void)state;
	assert_int_equal(ch_reply_batches("7\n0\n4294967295\n7\n2\n", 1ULL << 32, &v, &n), 0);
	assert_int_equal(n, 4);
	assert_true(v[0] == 0 && v[1] == 2 && v[2] == 7 && v[3] == 4294967295ULL);
	assert_true(ch_has(v, n, 7) && ch_has(v, n, 4294967295ULL) && !ch_has(v, n, 3));
	free(v);
	assert_int_equal(ch_reply_batches("", 1ULL << 32, &v, &n), 0);
	assert_null(v);
	assert_int_equal(n, 0);
	assert_false(ch_has(v, n, 0));
	/* the answer that made dio write where the server said */
	assert_int_equal(ch_reply_batches("18446744073709551600\n", 1ULL << 32, &v, &n), -EPROTO);
	assert_null(v);
	assert_int_equal(ch_reply_batches("4294967296\n", 1ULL << 32, &v, &n), -EPROTO);
	assert_int_equal(ch_reply_batches("1\nnot a number\n", 1ULL << 32, &v, &n), -EPROTO);
	assert_int_equal(ch_reply_batches("1\n\n2\n", 1ULL << 32, &v, &n), -EPROTO);
	assert_int_equal(ch_reply_batches("1 \n", 1ULL << 32, &v, &n), -EPROTO);
	assert_int_equal(n, 0);
}

static void test_a_session_id_is_one_that_can_name_a_file_and_enter_sql(void **state)
{
	(void)state;
	assert_true(ch_valid_id("7d2cd5a8019cb00e7dcd5b81e2eef5bf"));
	assert_true(ch_valid_id("a_1"));
	assert_true(ch_valid_id("123456789012345678901234567890123456789"));	/* 39 */
	assert_false(ch_valid_id("1234567890123456789012345678901234567890"));	/* 40 */
	assert_false(ch_valid_id(""));
	assert_false(ch_valid_id(NULL));
	assert_false(ch_valid_id("/../../../../tmp/x/pwn"));
	assert_false(ch_valid_id("'''''''''''''''''''''''''''''''''''''''"));
	assert_false(ch_valid_id("a-b"));	/* '-' separates the spool file name's parts */
	assert_false(ch_valid_id("a\nb"));
	assert_true(ch_valid_name("", 1));
	assert_false(ch_valid_name("", 0));
	assert_false(ch_valid_name("dio`; DROP", 0));
}

static void test_a_url_is_shown_without_its_user_and_password(void **state)
{
	static const struct {
		const char *url, *shown;
	} cases[] = {
		{ "http://dio:s3cr3t@db1:8123", "http://db1:8123" },
		{ "https://u@db1:8443/", "https://db1:8443/" },
		{ "http://a@b:c@db1:8123", "http://db1:8123" },		/* the last '@' ends it */
		{ "http://db1:8123/?q=a@b", "http://db1:8123/?q=a@b" },	/* an '@' after the host */
		{ "http://db1:8123", "http://db1:8123" },
		{ "db1@x", "x" },
	};
	char buf[64], small[12];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ch_url_shown(cases[i].url, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].shown);
	}
	/* too small a buffer: cut, never the password */
	ch_url_shown("http://dio:s3cr3t@db1.example:8123", small, sizeof(small));
	assert_string_equal(small, "http://db1.");
}

static void test_a_message_is_its_first_line_in_printable_ascii(void **state)
{
	char buf[16];

	(void)state;
	ch_first_line("Code: 60\nmore", 13, buf, sizeof(buf));
	assert_string_equal(buf, "Code: 60");
	ch_first_line("\x1b[2Jgone\x07", 9, buf, sizeof(buf));
	assert_string_equal(buf, "?[2Jgone?");
	ch_first_line("0123456789abcdefghij", 20, buf, sizeof(buf));
	assert_string_equal(buf, "0123456789abcde");
	ch_first_line("no NUL", 2, buf, sizeof(buf));
	assert_string_equal(buf, "no");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_row_of_counts_is_numbers_and_nothing_else),
		cmocka_unit_test(test_batch_numbers_are_sorted_once_each_and_below_the_bound),
		cmocka_unit_test(test_a_session_id_is_one_that_can_name_a_file_and_enter_sql),
		cmocka_unit_test(test_a_url_is_shown_without_its_user_and_password),
		cmocka_unit_test(test_a_message_is_its_first_line_in_printable_ascii),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
