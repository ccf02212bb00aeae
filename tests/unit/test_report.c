// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the report sinks share (sinks/common/report.c): JSON and XML text from
 * any bytes (markup, control characters, bytes that are not UTF-8, characters
 * XML 1.0 forbids), well-formed UTF-8, names without digits, times, the copy
 * a kept finding owns, and a write to a full disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "sinks/common/report.h"

struct text_case {
	const char *name;
	const char *in;
	const char *json;	/* rbuf_json */
	const char *xml;	/* rbuf_xml, character data */
	const char *attr;	/* rbuf_xml, attribute value */
};

static const struct text_case text_cases[] = {
	{ "plain text is kept", "a b/c.log", "\"a b/c.log\"", "a b/c.log", "a b/c.log" },
	{ "markup is escaped", "<a href=\"x\">&amp;</a>'",
	  "\"<a href=\\\"x\\\">&amp;</a>'\"",
	  "&lt;a href=\"x\"&gt;&amp;amp;&lt;/a&gt;'",
	  "&lt;a href=&quot;x&quot;&gt;&amp;amp;&lt;/a&gt;'" },
	{ "white space: raw in text, references in attributes", "t\tn\nr\r",
	  "\"t\\tn\\nr\\r\"", "t\tn\nr&#13;", "t&#9;n&#10;r&#13;" },
	{ "control characters XML forbids become \\xNN", "\x01\x1b[0m\x7f",
	  "\"\\u0001\\u001b[0m\\u007f\"", "\\x01\\x1b[0m\x7f", "\\x01\\x1b[0m\x7f" },
	{ "well-formed UTF-8 is kept", "caf\xc3\xa9 \xf0\x9f\x92\xbe",
	  "\"caf\xc3\xa9 \xf0\x9f\x92\xbe\"", "caf\xc3\xa9 \xf0\x9f\x92\xbe",
	  "caf\xc3\xa9 \xf0\x9f\x92\xbe" },
	{ "a byte that is not UTF-8 becomes \\xNN", "a\xff" "b\xc3",
	  "\"a\\\\xffb\\\\xc3\"", "a\\xffb\\xc3", "a\\xffb\\xc3" },
	{ "overlong forms and surrogates are not UTF-8", "\xc0\xaf\xed\xa0\x80",
	  "\"\\\\xc0\\\\xaf\\\\xed\\\\xa0\\\\x80\"", "\\xc0\\xaf\\xed\\xa0\\x80",
	  "\\xc0\\xaf\\xed\\xa0\\x80" },
	{ "U+FFFE is Unicode but not an XML character", "\xef\xbf\xbe\xef\xbf\xbd",
	  "\"\xef\xbf\xbe\xef\xbf\xbd\"", "\\xef\\xbf\\xbe\xef\xbf\xbd",
	  "\\xef\\xbf\\xbe\xef\xbf\xbd" },
	{ "NULL is the empty string", NULL, "\"\"", "", "" },
};

static void test_text(void **st)
{
	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		const struct text_case *c = &text_cases[i];
		struct rbuf j = { 0 }, x = { 0 }, a = { 0 };

		rbuf_json(&j, c->in);
		rbuf_xml(&x, c->in, 0);
		rbuf_xml(&a, c->in, 1);
		if (strcmp(j.p, c->json) || strcmp(x.p ? x.p : "", c->xml) ||
		    strcmp(a.p ? a.p : "", c->attr))
			fail_msg("%s: json [%s] xml [%s] attr [%s]", c->name, j.p, x.p, a.p);
		rbuf_free(&j);
		rbuf_free(&x);
		rbuf_free(&a);
	}
}

static void test_utf8_len(void **st)
{
	static const struct {
		const char *s;
		size_t n, want;
	} cases[] = {
		{ "a", 1, 1 }, { "\xc3\xa9", 2, 2 }, { "\xe2\x82\xac", 3, 3 },
		{ "\xf4\x8f\xbf\xbf", 4, 4 },	/* U+10FFFF */
		{ "\xf4\x90\x80\x80", 4, 0 },	/* past U+10FFFF */
		{ "\xe0\x80\xaf", 3, 0 },	/* overlong */
		{ "\xc3", 1, 0 },		/* cut short */
		{ "\xe2\x82", 2, 0 },
		{ "\x80", 1, 0 },		/* a continuation byte alone */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(dio_utf8_len(cases[i].s, cases[i].n),
				 cases[i].want);
}

static void test_normalise(void **st)
{
	char buf[16];

	report_normalise("worker-12/34x5", buf, sizeof(buf));
	assert_string_equal(buf, "worker-N/NxN");
	report_normalise("0123456789abcdefghij", buf, 8);	/* too small: cut, terminated */
	assert_string_equal(buf, "Nabcdef");
	report_normalise(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void test_time(void **st)
{
	char buf[64];

	report_time(1704164645000006000ULL, buf, sizeof(buf));
	assert_string_equal(buf, "2024-01-02T03:04:05.000006Z");
}

/* a kept finding owns its strings: the producer's may go at once */
static void test_findings_copy(void **st)
{
	struct rfindings fs = { 0 };
	char title[] = "title", path[] = "/a/b";
	struct dio_finding f = { .size = sizeof(f), .code = "x.y", .title = title, .path = path,
				 .fingerprint = "0123456789abcdef", .pid = 7 };

	for (int i = 0; i < 40; i++)	/* past the first allocation */
		assert_int_equal(rfindings_add(&fs, &f), 0);
	memset(title, 'X', 5);
	memset(path, 'X', 4);
	assert_int_equal(fs.n, 40);
	assert_string_equal(fs.v[39].f.title, "title");
	assert_string_equal(fs.v[0].f.path, "/a/b");
	assert_string_equal(fs.v[0].f.fingerprint, "0123456789abcdef");
	assert_null(fs.v[0].f.message);
	assert_int_equal(fs.v[0].f.pid, 7);
	rfindings_free(&fs);
}

/* a finding of an older producer: the fields it did not have are zero, not read */
static void test_findings_short(void **st)
{
	struct rfindings fs = { 0 };
	struct dio_finding f = { .size = offsetof(struct dio_finding, subject), .code = "x.y",
				 .subject = (const char *)1 };

	assert_int_equal(rfindings_add(&fs, &f), 0);
	assert_null(fs.v[0].f.subject);
	assert_int_equal(fs.v[0].f.size, sizeof(struct dio_finding));
	rfindings_free(&fs);
}

static void test_write_full(void **st)
{
	struct rbuf b = { 0 };
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		skip();
	rbuf_str(&b, "x");
	assert_int_equal(rbuf_write(&b, fd), -ENOSPC);
	close(fd);
	b.oom = 1;	/* an incomplete document is not written */
	assert_int_equal(rbuf_write(&b, -1), -ENOMEM);
	rbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_utf8_len),
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_findings_copy),
		cmocka_unit_test(test_findings_short),
		cmocka_unit_test(test_write_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
