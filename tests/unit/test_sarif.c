// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sarif sink, linked in directly and driven through its descriptor with a
 * fake host: the rules it lists (declared, undeclared, descriptions cut at
 * GitHub's 1024 characters), where a finding about no file is put (the trace
 * file, the traced program, the process's executable), repeats of one
 * fingerprint, baseline states and absent=false, suppressions, and a full disk.
 * The schema and the whole log are checked by tests/integration/ci-reports.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "fakehost.h"

/* the sink with its defaults and the options given, fed findings, finished; the log */
static char *run(struct fixture *fx, const struct dio_finding *f, int n, const char *absent)
{
	opts_reset("file", fx->path, "absent", absent, NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(dio_sink.finding(fx->state, &f[i]), 0);
	assert_int_equal(dio_sink.finish(fx->state), 0);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	return slurp(fx->path);
}

#define FINDING(...) { .size = sizeof(struct dio_finding), \
		       .fingerprint = "0123456789abcdef", __VA_ARGS__ }

static void rules_declared_undeclared_and_cut(void **st)
{
	struct fixture *fx = *st;
	static char longdesc[1500];
	static const struct fake_rule rules[] = {
		{ { "a.one", DIO_SEV_ERROR, 0, "One", longdesc, "Fix it." }, "a" },
		{ { "a.quiet", DIO_SEV_INFO, 0, "Quiet", "Never.", "" }, "a" },
		{ { NULL, 0, 0, NULL, NULL, NULL }, NULL },
	};
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .analyzer = "a", .severity = DIO_SEV_WARNING, .title = "t1",
			.path = "/x"),
		FINDING(.code = "b.new", .analyzer = "b", .severity = DIO_SEV_INFO,
			.title = "pid 12 did it", .message = "run-specific", .path = "/y"),
	};
	char *log, want[1100];

	memset(longdesc, 'd', sizeof(longdesc) - 1);
	fake_rules = rules;
	log = run(fx, f, 2, "true");
	/* the declared text, cut to 1024 characters with "..." */
	snprintf(want, sizeof(want), "\"fullDescription\":{\"text\":\"%.1021s...\"}", longdesc);
	has(log, want);
	has(log, "{\"id\":\"a.one\",\"name\":\"a.one\",\"shortDescription\":{\"text\":\"One\"}");
	has(log, "\"help\":{\"text\":\"Fix it.\"},\"defaultConfiguration\":{\"level\":\"error\"},"
		 "\"properties\":{\"analyzer\":\"a\",\"tags\":[\"a\"]}}");
	/* a quiet rule is listed; an empty help gets one that says where to read */
	has(log, "{\"id\":\"a.quiet\",\"name\":\"a.quiet\",\"shortDescription\":{\"text\":\"Quiet\"},"
		 "\"fullDescription\":{\"text\":\"Never.\"},\"help\":{\"text\":\"The a analyzer "
		 "reports a.quiet but does not describe it to dio;");
	/* an undeclared code: never the finding's own text, which changes from run to run */
	has(log, "{\"id\":\"b.new\",\"name\":\"b.new\",\"shortDescription\":{\"text\":\"b.new "
		 "findings of the b analyzer\"}");
	has(log, "\"defaultConfiguration\":{\"level\":\"note\"},\"properties\":{\"analyzer\":\"b\"");
	has_not(log, "\"text\":\"pid 12 did it\"}}");
	/* results name their rule by index; the level is the finding's */
	has(log, "{\"ruleId\":\"a.one\",\"ruleIndex\":0,\"level\":\"warning\",\"message\":{\"text\":\"t1\"}");
	has(log, "{\"ruleId\":\"b.new\",\"ruleIndex\":2,\"level\":\"note\"");
	free(log);
	fake_rules = NULL;
}

/* the same fingerprint twice: primaryLocationLineHash numbers the repeats as GitHub does */
static void fingerprint_repeats_are_numbered(void **st)
{
	struct fixture *fx = *st;
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .title = "t", .path = "/x", .uri = "file:///x", .pid = 1,
			.tid = 1, .comm = "p1"),
		FINDING(.code = "a.one", .title = "t", .path = "/x y", .pid = 2, .tid = 3,
			.comm = "w"),
	};
	char *log = run(fx, f, 2, "true");

	has(log, "\"partialFingerprints\":{\"dio/v1\":\"0123456789abcdef\","
		 "\"primaryLocationLineHash\":\"0123456789abcdef:1\"}");
	has(log, "\"primaryLocationLineHash\":\"0123456789abcdef:2\"}");
	/* the process is named by the comm only when the thread is its leader */
	has(log, "\"logicalLocations\":[{\"name\":\"p1\",\"fullyQualifiedName\":\"pid 1\","
		 "\"kind\":\"process\"},{\"name\":\"p1\",\"fullyQualifiedName\":\"pid 1/tid 1 p1\","
		 "\"kind\":\"thread\"}]");
	has(log, "\"logicalLocations\":[{\"name\":\"pid 2\",\"fullyQualifiedName\":\"pid 2\","
		 "\"kind\":\"process\"},{\"name\":\"w\",\"fullyQualifiedName\":\"pid 2/tid 3 w\","
		 "\"kind\":\"thread\"}]");
	/*
	 * no root: the host's URI; a host that gave none: the path as a file
	 * URI, and no message; the region is the file's first line
	 */
	has(log, "\"artifactLocation\":{\"uri\":\"file:///x\"},\"region\":{\"startLine\":1}},"
		 "\"logicalLocations\"");
	has(log, "\"artifactLocation\":{\"uri\":\"file:///x%20y\"},\"region\":{\"startLine\":1}},"
		 "\"logicalLocations\"");
	free(log);
}

/* a finding about no file in dio analyze: on the trace file, relative to --srcroot */
static void no_file_goes_on_the_trace_file(void **st)
{
	struct fixture *fx = *st;
	char dir[] = "/tmp/dio-test-sarif-XXXXXX", cwd[PATH_MAX], root[PATH_MAX + 8];
	const char *infos[] = { "srcroot", root, "trace", "run %1.dio", NULL };
	const struct dio_finding f[] = { FINDING(.code = "a.thread", .title = "t", .pid = 5,
						 .tid = 6, .comm = "w") };
	char *log;
	int fd;

	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	fd = open("run %1.dio", O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	/* as --srcroot: the real path, which mkdtemp's /tmp is too */
	assert_non_null(realpath(dir, root));
	fake_infos = infos;
	log = run(fx, f, 1, "true");
	has(log, "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"run%20%251.dio\","
		 "\"uriBaseId\":\"SRCROOT\"},\"region\":{\"startLine\":1}},\"message\":{\"text\":"
		 "\"No file: the trace file that holds the calls.\"}");
	has(log, "\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\"file://");
	fake_infos = NULL;
	free(log);
	unlink("run %1.dio");
	assert_int_equal(chdir(cwd), 0);
	rmdir(dir);
}

/* dio trace -- CMD: on the program, found as execvp finds it */
static void no_file_goes_on_the_program(void **st)
{
	struct fixture *fx = *st;
	char prog[PATH_MAX], cmd[PATH_MAX + 16], want[PATH_MAX + 128];
	const char *infos[] = { "command", cmd, NULL };
	const struct dio_finding f[] = { FINDING(.code = "a.thread", .title = "t", .pid = 5) };
	char *log;

	/* a program by path: this test's own binary */
	assert_non_null(realpath("/proc/self/exe", prog));
	snprintf(cmd, sizeof(cmd), "%s --arg", prog);
	fake_infos = infos;
	log = run(fx, f, 1, "true");
	snprintf(want, sizeof(want), "{\"uri\":\"file://%s\"},\"region\":{\"startLine\":1}},"
		 "\"message\":{\"text\":\"No file: the program dio traced.\"}", prog);
	has(log, want);
	free(log);
	fake_infos = NULL;
}

/* dio trace -p: on the executable of the finding's process while it runs */
static void no_file_goes_on_the_executable(void **st)
{
	struct fixture *fx = *st;
	char exe[PATH_MAX] = "", want[PATH_MAX + 128];
	const char *infos[] = { "command", "-p 1", NULL };
	const struct dio_finding f[] = {
		FINDING(.code = "a.thread", .title = "t", .pid = (uint32_t)getpid()),
		FINDING(.code = "a.thread", .title = "t", .comm = "gone"),
	};
	char *log;

	assert_true(readlink("/proc/self/exe", exe, sizeof(exe) - 1) > 0);
	fake_infos = infos;
	log = run(fx, f, 2, "true");
	snprintf(want, sizeof(want), "{\"uri\":\"file://%s\"},\"region\":{\"startLine\":1}},"
		 "\"message\":{\"text\":\"No file: the executable of the process.\"}", exe);
	has(log, want);
	/* no pid: logical locations only */
	has(log, "\"locations\":[{\"logicalLocations\":[{\"name\":\"gone\",\"kind\":\"process\"}]}]");
	free(log);
	fake_infos = NULL;
}

/*
 * With a root (the repository): files outside it, and the trace file and the
 * program when they are, get no physical location, only logical ones; files
 * below it are relative
 */
static void nothing_outside_the_root_is_physical(void **st)
{
	struct fixture *fx = *st;
	char prog[PATH_MAX], cmd[PATH_MAX + 16];
	const char *infos[] = { "srcroot", "/nonexistent/repo", "trace", "/tmp/run.dio",
				"command", cmd, NULL };
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .title = "in", .path = "/nonexistent/repo/d/x.log",
			.uri = "d/x.log", .uri_base = "SRCROOT", .pid = 4, .tid = 4, .comm = "w"),
		FINDING(.code = "a.one", .title = "out", .path = "/var/log/x \"y\".log",
			.uri = "file:///var/log/x%20%22y%22.log", .pid = 4, .tid = 4, .comm = "w"),
		FINDING(.code = "a.thread", .title = "none", .pid = 4, .tid = 5, .comm = "t"),
		FINDING(.code = "a.gone", .title = "base", .uri = "file:///old"),
	};
	char *log;

	assert_non_null(realpath("/proc/self/exe", prog));
	snprintf(cmd, sizeof(cmd), "%s --arg", prog);
	fake_infos = infos;
	log = run(fx, f, 4, "true");
	has(log, "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"d/x.log\","
		 "\"uriBaseId\":\"SRCROOT\"},\"region\":{\"startLine\":1}},\"logicalLocations\":"
		 "[{\"name\":\"w\"");
	has(log, "\"locations\":[{\"logicalLocations\":[{\"name\":\"/var/log/x \\\"y\\\".log\","
		 "\"fullyQualifiedName\":\"/var/log/x \\\"y\\\".log\",\"kind\":\"resource\"},"
		 "{\"name\":\"w\",\"fullyQualifiedName\":\"pid 4\",\"kind\":\"process\"}");
	/* the trace file and the program are outside the repository: the process only */
	has(log, "\"locations\":[{\"logicalLocations\":[{\"name\":\"pid 4\",\"fullyQualifiedName\":"
		 "\"pid 4\",\"kind\":\"process\"},{\"name\":\"t\"");
	has(log, "\"locations\":[{\"logicalLocations\":[{\"name\":\"file:///old\","
		 "\"fullyQualifiedName\":\"file:///old\",\"kind\":\"resource\"}]}]");
	/* the trace file (the working directory may be anywhere, /tmp too) */
	has_not(log, "file:///tmp/run.dio");
	has_not(log, "\"uri\":\"file:///var");
	has_not(log, "No file:");
	free(log);
	fake_infos = NULL;
}

static void baseline_states_and_suppressions(void **st)
{
	struct fixture *fx = *st;
	const struct dio_finding f[] = {
		FINDING(.code = "a.one", .title = "n", .path = "/n", .baseline = DIO_BASELINE_NEW),
		FINDING(.code = "a.one", .title = "u", .path = "/u",
			.baseline = DIO_BASELINE_UNCHANGED, .suppressed = 1,
			.suppress_reason = "known \"bug\""),
		FINDING(.code = "a.one", .title = "gone", .uri = "g", .uri_base = "SRCROOT",
			.baseline = DIO_BASELINE_ABSENT),
	};
	char *log = run(fx, f, 3, "true");

	has(log, "\"message\":{\"text\":\"n\"}");
	has(log, "\"baselineState\":\"new\",\"suppressions\":[],");
	has(log, "\"baselineState\":\"unchanged\",\"suppressions\":[{\"kind\":\"external\","
		 "\"status\":\"accepted\",\"justification\":\"known \\\"bug\\\"\"}]");
	/* the absent one keeps the baseline's location; SRCROOT is declared, its place unknown */
	has(log, "{\"uri\":\"g\",\"uriBaseId\":\"SRCROOT\"},\"region\":{\"startLine\":1}}");
	has(log, "\"baselineState\":\"absent\"");
	has(log, "\"originalUriBaseIds\":{\"SRCROOT\":{\"description\":");
	free(log);
	log = run(fx, f, 3, "false");
	has_not(log, "\"absent\"");
	has_not(log, "\"text\":\"gone\"");
	has(log, "\"baselineState\":\"unchanged\"");
	free(log);
}

static void invocation_says_the_run(void **st)
{
	struct fixture *fx = *st;
	const char *infos[] = { "version", "9.8.7", "start", "2024-01-02T03:04:05.000Z",
				"end", "2024-01-02T03:04:06.500Z", "hostname", "box",
				"command", "-a", "fail_on", "error", NULL };
	char *log;

	fake_infos = infos;
	log = run(fx, NULL, 0, "true");
	has(log, "{\"$schema\":\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
		 "schemas/sarif-schema-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{");
	has(log, "\"tool\":{\"driver\":{\"name\":\"dio\",\"version\":\"9.8.7\","
		 "\"informationUri\":\"man:dio(1)\",\"rules\":[]}}");
	has(log, "\"invocations\":[{\"executionSuccessful\":true,\"commandLine\":\"");
	has(log, "\"startTimeUtc\":\"2024-01-02T03:04:05.000Z\",\"endTimeUtc\":"
		 "\"2024-01-02T03:04:06.500Z\",\"machine\":\"box\"");
	has(log, "\"properties\":{\"events\":0,\"lostEvents\":0,\"tracedCommand\":\"-a\","
		 "\"failOn\":\"error\"}}]");
	has(log, "\"results\":[]}]}\n");
	has_not(log, "originalUriBaseIds");
	free(log);
	fake_infos = NULL;
}

static void a_full_disk_fails_and_is_said(void **st)
{
	struct fixture *fx = *st;
	const struct dio_finding f[] = { FINDING(.code = "a.one", .title = "t", .path = "/x") };

	if (access("/dev/full", W_OK))
		skip();
	opts_reset("file", "/dev/full", NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	assert_int_equal(dio_sink.finding(fx->state, &f[0]), 0);
	assert_int_equal(dio_sink.finish(fx->state), -ENOSPC);
	assert_string_equal(logged, "cannot write '/dev/full': No space left on device");
}

static void the_file_is_required(void **st)
{
	struct fixture *fx = *st;

	opts_reset(NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), -EINVAL);
	assert_null(fx->state);
	assert_string_equal(logged, "give the file to write: file=FILE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(rules_declared_undeclared_and_cut, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(fingerprint_repeats_are_numbered, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(no_file_goes_on_the_trace_file, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(no_file_goes_on_the_program, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(no_file_goes_on_the_executable, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(nothing_outside_the_root_is_physical, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(baseline_states_and_suppressions, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(invocation_says_the_run, sink_setup, sink_teardown),
		cmocka_unit_test_setup_teardown(a_full_disk_fails_and_is_said, sink_setup,
						sink_teardown),
		cmocka_unit_test_setup_teardown(the_file_is_required, sink_setup, sink_teardown),
	};

	fakehost_refuse_records("a report sink");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
