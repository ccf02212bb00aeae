// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The junit sink, linked in directly and driven through its descriptor with a
 * fake host: the exact report for rules that found nothing and for a failing
 * finding, which findings fail their case at each --fail-on level, baseline
 * states and suppressions, names without pids, findings of one name in one
 * case, escaping, and a full disk.
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
#include "fakehost.h"

static const struct fake_rule rules[] = {
	{ { "a.one", DIO_SEV_WARNING, 0, "One", "d", "h" }, "a" },
	{ { "a.quiet", DIO_SEV_ERROR, 0, "Quiet", "d", "h" }, "a" },
	{ { "b.info", DIO_SEV_INFO, 0, "Info", "d", "h" }, "b" },
	{ { NULL, 0, 0, NULL, NULL, NULL }, NULL },
};

/* 2024-01-02T03:04:05Z is monotonic second 1: see fakehost.h */
static const char *infos[] = { "start", "2024-01-02T03:04:05.250Z", "end",
			       "2024-01-02T03:04:06.750Z", "hostname", "box", NULL, NULL, NULL };

/* the report of findings f with --fail-on level (NULL: not given) */
static char *run(struct fixture *fx, const struct dio_finding *f, int n, const char *fail_on)
{
	infos[6] = fail_on ? "fail_on" : NULL;
	infos[7] = fail_on;
	fake_infos = infos;
	fake_rules = rules;
	opts_reset("file", fx->path, NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	for (int i = 0; i < n; i++) {
		/* as the host marks what --fail-on counts (warning when not given) */
		struct dio_finding g = f[i];
		uint32_t level = !fail_on ? DIO_SEV_WARNING : !strcmp(fail_on, "info") ?
				 DIO_SEV_INFO : !strcmp(fail_on, "error") ? DIO_SEV_ERROR :
				 DIO_SEV_WARNING;

		g.gates = !g.suppressed && g.baseline != DIO_BASELINE_UNCHANGED &&
			  g.severity >= level;
		assert_int_equal(dio_sink.finding(fx->state, &g), 0);
	}
	assert_int_equal(dio_sink.finish(fx->state), 0);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	fake_infos = NULL;
	fake_rules = NULL;
	return slurp(fx->path);
}

#define FINDING(...) { .size = sizeof(struct dio_finding), .analyzer = "a", __VA_ARGS__ }

static void the_exact_report(void **st)
{
	struct fixture *fx = *st;
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .severity = DIO_SEV_WARNING, .title = "slow <open> & \"x\"",
			.message = "Why.\nFix.", .pid = 12, .tid = 13, .comm = "w1",
			.path = "/r/log.12", .subject = "log.N", .count = 3, .ts_first = 1000000000,
			.ts_last = 2500000000, .fingerprint = "00112233445566ff",
			.excerpt = "open(\"a\") = 3\nclose(3) = 0"),
	};
	char *xml = run(fx, f, 1, NULL);

	assert_string_equal(xml,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"dio\" tests=\"3\" failures=\"1\" errors=\"0\" "
		"time=\"1.500\">\n"
		"  <testsuite name=\"a\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" "
		"time=\"1.500\" timestamp=\"2024-01-02T03:04:05\" hostname=\"box\">\n"
		"    <testcase classname=\"a\" name=\"a.one log.N\" time=\"0\">\n"
		"      <failure message=\"slow &lt;open&gt; &amp; &quot;x&quot;\" type=\"a.one\">"
		"slow &lt;open&gt; &amp; \"x\"\n"
		"state: warning\n"
		"Why.\nFix.\n"
		"process: w1 (pid 12, tid 13)\n"
		"file: /r/log.12\n"
		"count: 3\n"
		"time: 2024-01-02T03:04:05.000000Z - 2024-01-02T03:04:06.500000Z\n"
		"fingerprint: 00112233445566ff\n"
		"calls:\n  open(\"a\") = 3\n  close(3) = 0\n"
		"</failure>\n"
		"    </testcase>\n"
		"    <testcase classname=\"a\" name=\"a.quiet\" time=\"0\"/>\n"
		"  </testsuite>\n"
		"  <testsuite name=\"b\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" "
		"time=\"1.500\" timestamp=\"2024-01-02T03:04:05\" hostname=\"box\">\n"
		"    <testcase classname=\"b\" name=\"b.info\" time=\"0\"/>\n"
		"  </testsuite>\n"
		"</testsuites>\n");
	free(xml);
}

/* a case fails for what --fail-on counts: warning and error when it is not given */
static void fail_on_decides_what_fails(void **st)
{
	static const struct {
		const char *fail_on;
		uint32_t sev;
		int fails;
	} cases[] = {
		{ NULL, DIO_SEV_INFO, 0 }, { NULL, DIO_SEV_WARNING, 1 }, { NULL, DIO_SEV_ERROR, 1 },
		{ "info", DIO_SEV_INFO, 1 }, { "error", DIO_SEV_WARNING, 0 },
		{ "error", DIO_SEV_ERROR, 1 }, { "warning", DIO_SEV_INFO, 0 },
	};
	struct fixture *fx = *st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct dio_finding f[] = {
			FINDING(.code = "b.info", .severity = cases[i].sev,
				.title = "t", .comm = "p"),
		};
		char *xml = run(fx, f, 1, cases[i].fail_on);
		int failed = strstr(xml, "<failure") != NULL;

		if (failed != cases[i].fails || (!failed && !strstr(xml, ", below the ")))
			fail_msg("--fail-on %s, severity %u: %s", cases[i].fail_on, cases[i].sev, xml);
		free(xml);
	}
}

static void baseline_and_suppressed(void **st)
{
	struct fixture *fx = *st;
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .severity = DIO_SEV_ERROR, .title = "u", .subject = "u",
			.baseline = DIO_BASELINE_UNCHANGED),
		FINDING(.code = "a.one", .severity = DIO_SEV_ERROR, .title = "g", .subject = "g",
			.baseline = DIO_BASELINE_ABSENT),
		FINDING(.code = "a.one", .severity = DIO_SEV_ERROR, .title = "s", .subject = "s",
			.baseline = DIO_BASELINE_NEW, .suppressed = 1, .suppress_reason = "known <1>"),
		FINDING(.code = "a.one", .severity = DIO_SEV_ERROR, .title = "n", .subject = "n",
			.baseline = DIO_BASELINE_NEW),
	};
	char *xml = run(fx, f, 4, "warning");

	has(xml, "<testsuite name=\"a\" tests=\"5\" failures=\"1\" errors=\"0\" skipped=\"1\"");
	/* sorted by name within the rule */
	has(xml, "<testcase classname=\"a\" name=\"a.one g\" time=\"0\">\n      <system-out>g\n"
		 "state: fixed: in the baseline only, not in this run\n");
	has(xml, "<testcase classname=\"a\" name=\"a.one n\" time=\"0\">\n      <failure message=\"n\" "
		 "type=\"a.one\">n\nstate: error, new: not in the baseline\n");
	has(xml, "<testcase classname=\"a\" name=\"a.one s\" time=\"0\">\n      <skipped "
		 "message=\"suppressed: known &lt;1&gt;\"/>\n      <system-out>s\n"
		 "state: suppressed: known &lt;1&gt;\n");
	has(xml, "<testcase classname=\"a\" name=\"a.one u\" time=\"0\">\n      <system-out>u\n"
		 "state: unchanged: in the baseline too, so --fail-on does not count it\n");
	free(xml);
}

/* names hold no pid: a finding about no file is named by its process, digits as N */
static void one_name_one_case(void **st)
{
	struct fixture *fx = *st;
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .severity = DIO_SEV_INFO, .title = "first", .pid = 41,
			.tid = 42, .comm = "worker-12"),
		FINDING(.code = "a.one", .severity = DIO_SEV_WARNING, .title = "second", .pid = 51,
			.tid = 51, .comm = "worker-7"),
		FINDING(.code = "a.one", .severity = DIO_SEV_WARNING, .title = "cut\x01\xff",
			.subject = "x\ty"),
	};
	char *xml = run(fx, f, 3, NULL);

	/* both workers in one case, failing with the one that fails, the evidence of both */
	has(xml, "<testcase classname=\"a\" name=\"a.one process worker-N\" time=\"0\">\n"
		 "      <failure message=\"second\" type=\"a.one\">first\nstate: info, below the "
		 "warning level that fails\n");
	has_not(xml, "name=\"a.one process worker-12");
	has(xml, "process: worker-12 (pid 41, tid 42)\n\nsecond\nstate: warning\n"
		 "process: worker-7 (pid 51, tid 51)\n</failure>");
	/* what XML 1.0 cannot hold is written \xNN; a tab in an attribute is a reference */
	has(xml, "name=\"a.one x&#9;y\" time=\"0\">\n      <failure message=\"cut\\x01\\xff\"");
	has(xml, "tests=\"3\" failures=\"2\"");
	free(xml);
}

static void a_full_disk_fails_and_is_said(void **st)
{
	struct fixture *fx = *st;

	if (access("/dev/full", W_OK))
		skip();
	opts_reset("file", "/dev/full", NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	assert_int_equal(dio_sink.finish(fx->state), -ENOSPC);
	assert_string_equal(logged, "cannot write '/dev/full': No space left on device");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_exact_report, sink_setup, sink_teardown),
		cmocka_unit_test_setup_teardown(fail_on_decides_what_fails, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(baseline_and_suppressed, sink_setup, sink_teardown),
		cmocka_unit_test_setup_teardown(one_name_one_case, sink_setup, sink_teardown),
		cmocka_unit_test_setup_teardown(a_full_disk_fails_and_is_said, sink_setup,
						sink_teardown),
	};

	fakehost_refuse_records("a report sink");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
