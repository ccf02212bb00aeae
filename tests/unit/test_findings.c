// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What CI builds on: subjects and fingerprints that do not change between
 * runs, URIs, suppression files (with their mistakes named by line), the
 * SARIF baseline read back, and the JSON reader under it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/findings.h"
#include "engine/jsonread.h"

static char dir[] = "/tmp/dio-test-findings-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* ---- subjects, fingerprints, URIs --------------------------------------- */

static void subject_takes_out_what_changes_between_runs(void **state)
{
	char a[256], b[256];

	(void)state;
	/* the temporary directory (--srcroot) and file generations */
	assert_int_equal(findings_subject("/tmp/run.Ab3x/db/000123.log", "/tmp/run.Ab3x", a,
					  sizeof(a)), 1);
	assert_string_equal(a, "db/N.log");
	assert_int_equal(findings_subject("/tmp/run.Zq9y/db/000457.log", "/tmp/run.Zq9y", b,
					  sizeof(b)), 1);
	assert_string_equal(a, b);
	/* pids in /proc */
	assert_int_equal(findings_subject("/proc/4242/stat", NULL, a, sizeof(a)), 0);
	assert_string_equal(a, "/proc/N/stat");
	/* a sibling with the same prefix is not under the root */
	assert_int_equal(findings_subject("/tmp/run.Ab3xy/f", "/tmp/run.Ab3x", a, sizeof(a)), 0);
	assert_string_equal(a, "/tmp/run.AbNxy/f");
	/* no path: an empty subject; a short buffer still ends in NUL */
	findings_subject(NULL, NULL, a, sizeof(a));
	assert_string_equal(a, "");
	findings_subject("/abcdef", NULL, a, 4);
	assert_string_equal(a, "/ab");
}

static void fingerprint_is_code_subject_and_process_name(void **state)
{
	char a[17], b[17], c[17], d[17];

	(void)state;
	findings_fingerprint("redundant-open.churn", "db/N.log", "worker-12", a);
	findings_fingerprint("redundant-open.churn", "db/N.log", "worker-7", b);
	assert_string_equal(a, b);	/* digits of a thread name are not the finding */
	assert_int_equal(strlen(a), 16);
	findings_fingerprint("redundant-open.seek", "db/N.log", "worker-12", c);
	assert_string_not_equal(a, c);
	findings_fingerprint("redundant-open.churn", "db/N.sst", "worker-12", c);
	assert_string_not_equal(a, c);
	findings_fingerprint("redundant-open.churn", "db/N.log", "flusher", c);
	assert_string_not_equal(a, c);
	/* the three parts are kept apart: ("ab", "c") is not ("a", "bc") */
	findings_fingerprint("x", "ab", "c", c);
	findings_fingerprint("x", "a", "bc", d);
	assert_string_not_equal(c, d);
	/* stable across builds and machines: a fixed value */
	findings_fingerprint("a", "", "", d);
	assert_string_equal(d, "ac804b820e4fe984");	/* FNV-1a 64 of "a\0\0\0" */
}

static void uri_is_relative_under_srcroot_and_encoded(void **state)
{
	char u[256];

	(void)state;
	assert_int_equal(findings_uri("/srv/app/data/a b%.log", "/srv/app", u, sizeof(u)), 1);
	assert_string_equal(u, "data/a%20b%25.log");
	assert_int_equal(findings_uri("/var/lib/x#1", "/srv/app", u, sizeof(u)), 0);
	assert_string_equal(u, "file:///var/lib/x%231");
	assert_int_equal(findings_uri("/etc/h\xc3\xa9", NULL, u, sizeof(u)), 0);
	assert_string_equal(u, "file:///etc/h%C3%A9");
}

/* ---- suppressions ------------------------------------------------------- */

static void suppressions_match_by_fingerprint_or_patterns(void **state)
{
	char err[512];
	struct suppressions *s;
	struct dio_finding f = { .size = sizeof(f), .code = "redundant-open.churn",
				 .path = "/srv/app/wal/000012.log", .subject = "wal/N.log",
				 .comm = "rocksdb:low0", .fingerprint = "00112233aabbccdd" };

	(void)state;
	s = suppressions__load(write_file("ok.supp",
		"suppress = (\n"
		"  { reason = \"known: one fsync per batch\"; fingerprint = \"ffffffffffffffff\"; },\n"
		"  { reason = \"WAL reopened by design\"; code = \"redundant-open.*\";\n"
		"    path = \"wal/*.log\"; process = \"rocksdb*\"; }\n"
		");\n"), err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(suppressions__match(s, &f), "WAL reopened by design");
	f.comm = "postgres";
	assert_null(suppressions__match(s, &f));
	f.comm = "rocksdb:low0";
	f.fingerprint = "ffffffffffffffff";
	f.code = "errors.burst";	/* the fingerprint alone decides */
	assert_string_equal(suppressions__match(s, &f), "known: one fsync per batch");
	suppressions__free(s);
}

/* a repository's suppression file not yet filled: empty, or comments only */
static void an_empty_suppression_file_accepts_nothing(void **state)
{
	static const char *const texts[] = { "", "# none yet\n// nor here\n", "suppress = ( );\n" };
	struct dio_finding f = { .size = sizeof(f), .code = "a.b", .path = "/x", .subject = "/x",
				 .comm = "p", .fingerprint = "00112233aabbccdd" };
	char err[512] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct suppressions *s = suppressions__load(write_file("empty.supp", texts[i]), err,
							    sizeof(err));

		if (!s)
			fail_msg("case %zu refused: %s", i, err);
		assert_null(suppressions__match(s, &f));
		suppressions__free(s);
	}
}

static void suppression_mistakes_name_the_line(void **state)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "suppress = ( { code = \"a.b\"; } );\n", "bad.supp:1: every suppression needs a reason" },
		{ "suppress = (\n { reason = \"r\"; path = \"/x\"; }\n);\n",
		  "bad.supp:2: give fingerprint = \"...\" or code = \"...\"" },
		{ "suppress = (\n { reason = \"r\"; code = \"a\";\n  proces = \"x\"; }\n);\n",
		  "bad.supp:3: unknown key 'proces'" },
		{ "suppress = ( { reason = \"r\"; fingerprint = \"ab\"; code = \"a\"; } );\n",
		  "bad.supp:1: a fingerprint names one finding" },
		{ "suppress = ( { reason = 3; code = \"a\"; } );\n",
		  "bad.supp:1: reason: expected a non-empty string" },
		{ "supress = ();\n", "bad.supp: expected suppress = (" },
		{ "suppress = ( { reason = \"r\" code } );\n", "bad.supp:1: syntax error" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = write_file("bad.supp", cases[i].text);

		assert_null(suppressions__load(path, err, sizeof(err)));
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: '%s' does not hold '%s'", i, err, cases[i].want);
	}
	assert_null(suppressions__load("/nonexistent/x.supp", err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/x.supp: No such file or directory");
}

/* ---- baselines ---------------------------------------------------------- */

static const char sarif[] =
	"{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\n"
	" \"runs\":[{\"tool\":{\"driver\":{\"name\":\"dio\"}},\"results\":[\n"
	"  {\"ruleId\":\"redundant-open.churn\",\"level\":\"warning\",\n"
	"   \"message\":{\"text\":\"wal reopened \\u00e9\\ud83d\\ude00\"},\n"
	"   \"partialFingerprints\":{\"dio/v1\":\"1111111111111111\"},\n"
	"   \"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"wal/a.log\",\"uriBaseId\":\"SRCROOT\"}}}],\n"
	"   \"properties\":{\"subject\":\"wal/a.log\",\"process\":\"db\"}},\n"
	"  {\"ruleId\":\"errors.burst\",\"level\":\"error\",\"message\":{\"text\":\"ENOSPC\"},\n"
	"   \"partialFingerprints\":{\"dio/v1\":\"2222222222222222\"}},\n"
	"  {\"ruleId\":\"errors.burst\",\"level\":\"error\",\"message\":{\"text\":\"ENOSPC again\"},\n"
	"   \"partialFingerprints\":{\"dio/v1\":\"2222222222222222\"}},\n"
	"  {\"ruleId\":\"latency.runq-delay\",\"level\":\"note\",\"message\":{\"text\":\"gone then\"},\n"
	"   \"baselineState\":\"absent\",\"partialFingerprints\":{\"dio/v1\":\"3333333333333333\"}},\n"
	"  {\"ruleId\":\"other.tool\",\"message\":{\"text\":\"no fingerprint of ours\"}}\n"
	" ]}]}\n";

static void baseline_classifies_and_lists_the_absent(void **state)
{
	char err[512];
	struct baseline *b;
	struct dio_finding f;
	size_t i = 0;

	(void)state;
	b = baseline__load(write_file("base.sarif", sarif), err, sizeof(err));
	if (!b)
		fail_msg("%s", err);
	assert_int_equal(baseline__classify(b, "2222222222222222"), DIO_BASELINE_UNCHANGED);
	assert_int_equal(baseline__classify(b, "3333333333333333"), DIO_BASELINE_NEW);
	assert_int_equal(baseline__classify(b, "4444444444444444"), DIO_BASELINE_NEW);
	/* one absent result: the churn finding; the absent-then one is not carried on */
	assert_int_equal(baseline__next_absent(b, &i, &f), 1);
	assert_string_equal(f.code, "redundant-open.churn");
	assert_string_equal(f.title, "wal reopened \xc3\xa9\xf0\x9f\x98\x80");
	assert_string_equal(f.uri, "wal/a.log");
	assert_string_equal(f.uri_base, "SRCROOT");
	assert_string_equal(f.subject, "wal/a.log");
	assert_string_equal(f.comm, "db");
	assert_int_equal(f.severity, DIO_SEV_WARNING);
	assert_int_equal(f.baseline, DIO_BASELINE_ABSENT);
	assert_int_equal(baseline__next_absent(b, &i, &f), 0);
	baseline__free(b);
}

static void baseline_mistakes_are_one_line(void **state)
{
	char err[512];

	(void)state;
	assert_null(baseline__load(write_file("bad.sarif", "{\"version\":\"2.1.0\",\n\"runs\":[}"),
				   err, sizeof(err)));
	assert_non_null(strstr(err, "bad.sarif: not valid JSON (line 2: "));
	assert_null(baseline__load(write_file("bad.sarif", "{\"results\":[]}"), err, sizeof(err)));
	assert_non_null(strstr(err, "bad.sarif: not a SARIF log"));
	assert_null(baseline__load(dir, err, sizeof(err)));
	assert_non_null(strstr(err, "not a regular file"));
}

/*
 * Results of one fingerprint twice, many of them: each fingerprint classified
 * by the hash, each absent one listed once, in the order of the log.
 */
static void baseline_of_many_results(void **state)
{
	enum { N = 20000 };
	size_t len = 0, cap = N * 80 + 256, i = 0, absent = 0;
	char *text = malloc(cap), fp[17], err[512];
	struct dio_finding f;
	struct baseline *b;

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[");
	for (int k = 0; k < N; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"%s{\"ruleId\":\"x.y\",\"partialFingerprints\":"
					"{\"dio/v1\":\"%016x\"}}", k ? "," : "", k % (N / 2));
	snprintf(text + len, cap - len, "]}]}");
	b = baseline__load(write_file("many.sarif", text), err, sizeof(err));
	free(text);
	if (!b)
		fail_msg("%s", err);
	for (int k = 0; k < N / 2; k += 2) {
		snprintf(fp, sizeof(fp), "%016x", k);
		assert_int_equal(baseline__classify(b, fp), DIO_BASELINE_UNCHANGED);
	}
	assert_int_equal(baseline__classify(b, "ffffffffffffffff"), DIO_BASELINE_NEW);
	while (baseline__next_absent(b, &i, &f)) {
		snprintf(fp, sizeof(fp), "%016zx", 2 * absent + 1);
		assert_string_equal(f.fingerprint, fp);
		absent++;
	}
	assert_int_equal(absent, N / 4);
	baseline__free(b);
}

/* ---- the JSON reader ---------------------------------------------------- */

static void json_reads_values_and_refuses_bad_text(void **state)
{
	static const char *const bad[] = {
		"", "{", "[1,]", "{\"a\" 1}", "\"\\x\"", "\"a\nb\"", "tru", "[1] 2", "{1:2}",
		"\"\\ud83d", "-",
	};
	static const char text[] = "{\"a\":[1,-2.5e3,true,false,null,\"x\\\"y\\u0041\"],\"b\":{}}";
	char err[256], deep[200];
	struct json_value *v;

	(void)state;
	v = json_parse(text, sizeof(text) - 1, err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	assert_int_equal(json_get(v, "a")->n, 6);
	assert_true(json_get(v, "a")->items[1].number == -2500);
	assert_int_equal(json_get(v, "a")->items[2].type, JSON_BOOL);
	assert_int_equal(json_get(v, "a")->items[4].type, JSON_NULL);
	assert_string_equal(json_str(&json_get(v, "a")->items[5]), "x\"yA");
	assert_int_equal(json_get(v, "b")->type, JSON_OBJECT);
	assert_null(json_get(v, "c"));
	assert_null(json_str(json_get(v, "b")));
	json_free(v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = json_parse(bad[i], strlen(bad[i]), err, sizeof(err));
		if (v)
			fail_msg("'%s' was accepted", bad[i]);
		assert_int_equal(strncmp(err, "line ", 5), 0);
	}
	/* nesting is bounded: no stack overflow from a crafted file */
	memset(deep, '[', sizeof(deep));
	assert_null(json_parse(deep, sizeof(deep), err, sizeof(err)));
	assert_non_null(strstr(err, "nested deeper than"));
}

/*
 * The tree stays within 8 times the text and 1 MiB: 4 MiB of "0," would take
 * 64 MiB of values (32 bytes each) and is refused, where a SARIF log dio
 * wrote takes about 3 times its text.
 */
static void json_memory_is_bounded_by_the_text(void **state)
{
	size_t n = 4u << 20;
	char *text = malloc(n), err[256];
	struct json_value *v;

	(void)state;
	assert_non_null(text);
	text[0] = '[';
	for (size_t i = 1; i + 1 < n; i += 2)
		memcpy(text + i, "0,", 2);
	text[n - 2] = '0';
	text[n - 1] = ']';
	errno = 0;
	v = json_parse(text, n, err, sizeof(err));
	free(text);
	assert_null(v);
	assert_int_equal(errno, E2BIG);
	assert_non_null(strstr(err, "8 times the text: too many small values"));
	/* the text is read within its length: no NUL needed after a number */
	v = json_parse("[1234]5", 6, err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	assert_true(v->items[0].number == 1234);
	json_free(v);
	assert_null(json_parse("[12", 3, err, sizeof(err)));
	assert_null(json_parse("1e", 2, err, sizeof(err)));
	assert_non_null(strstr(err, "bad number"));
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(subject_takes_out_what_changes_between_runs),
		cmocka_unit_test(fingerprint_is_code_subject_and_process_name),
		cmocka_unit_test(uri_is_relative_under_srcroot_and_encoded),
		cmocka_unit_test(suppressions_match_by_fingerprint_or_patterns),
		cmocka_unit_test(an_empty_suppression_file_accepts_nothing),
		cmocka_unit_test(suppression_mistakes_name_the_line),
		cmocka_unit_test(baseline_classifies_and_lists_the_absent),
		cmocka_unit_test(baseline_of_many_results),
		cmocka_unit_test(json_memory_is_bounded_by_the_text),
		cmocka_unit_test(baseline_mistakes_are_one_line),
		cmocka_unit_test(json_reads_values_and_refuses_bad_text),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
