// SPDX-License-Identifier: GPL-2.0-or-later
/* Command line and config file: every option lands in its field, every error says what to do. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "engine/cli.h"
#include "engine/config.h"

static int parse(struct options *o, char *err, const char *first, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;

	argv[argc++] = "trace";
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	options_init(o);
	err[0] = 0;
	return cli_parse_trace(argc, argv, o, err, 512);
}

static void options_reach_their_fields(void **unused)
{
	struct options o;
	char err[512];

	assert_int_equal(parse(&o, err, "-p", "12,34", "--path", "/var/lib/", "--path", "/",
			       "--exclude-path", "/var/lib/tmp", "--only-files", "--comm", "redis",
			       "-e", "trace=%data,fsync", "--mode", "raw", "--ring-size", "16M",
			       "--drain-ms", "50", "--wakeup-at", "10", "-d", "2.5", "-o", "/tmp/o",
			       "-tt", "-T", "-q", "--no-details", "--analyzer", "summary:top=3",
			       "--sink", "console:paths=true,proc=false", "--no-iouring",
			       "--attach", "raw", "--hash", "kernel", "--hash-bytes", "1k", NULL), 0);
	assert_int_equal(o.npids, 2);
	assert_int_equal(o.pids[1], 34);
	assert_int_equal(o.nprefix, 2);
	assert_string_equal(o.prefix[0], "/var/lib");
	assert_string_equal(o.prefix[1], "/");
	assert_string_equal(o.exclude[0], "/var/lib/tmp");
	assert_true(o.only_files);
	assert_string_equal(o.comm, "redis");
	assert_string_equal(o.syscalls, "%data,fsync");
	assert_int_equal(o.sel[0], 1);		/* read */
	assert_int_equal(o.sel[74], 1);		/* fsync */
	assert_int_equal(o.sel[257], 0);	/* openat */
	assert_int_equal(o.mode, MODE_RAW);
	assert_int_equal(o.ring_bytes, 16 << 20);
	assert_int_equal(o.drain_ms, 50);
	assert_int_equal(o.wakeup_pct, 10);
	assert_true(o.duration == 2.5);
	assert_string_equal(o.output, "/tmp/o");
	assert_int_equal(o.time, TIME_TT);
	assert_true(o.durations && o.quiet && !o.details && !o.iouring);
	assert_int_equal(o.attach, ATTACH_RAW);
	assert_int_equal(o.hash, HASH_KERNEL);
	assert_int_equal(o.hash_bytes, 1024);
	assert_string_equal(o.analyzers[0].name, "summary");
	assert_string_equal(o.analyzers[0].key[0], "top");
	assert_string_equal(o.analyzers[0].val[0], "3");
	assert_int_equal(o.sinks[0].nkv, 2);
	assert_string_equal(o.sinks[0].val[1], "false");
	options_free(&o);
}

static void command_after_options(void **unused)
{
	struct options o;
	char err[512];

	assert_int_equal(parse(&o, err, "-T", "--", "dd", "-x", NULL), 0);
	assert_string_equal(o.argv[0], "dd");
	assert_string_equal(o.argv[1], "-x");
	options_free(&o);
	assert_int_equal(parse(&o, err, "ls", "-l", NULL), 0);
	assert_string_equal(o.argv[1], "-l");
	options_free(&o);
}

static void errors_say_what_to_do(void **unused)
{
	static const struct { const char *a, *b, *msg; } cases[] = {
		{ "--bogus", NULL, "unknown option '--bogus'; see 'dio trace --help'" },
		{ "-Z", NULL, "unknown option '-Z'; see 'dio trace --help'" },
		{ "-p", "abc", "-p: 'abc' is not a process id" },
		{ "--ring-size", "12x",
		  "--ring-size: '12x' is not a size (use a number with an optional k, M or G suffix, 4k to 4G)" },
		{ "--ring-size", "3M", "--ring-size: 3M is not a power of two (use e.g. 16M or 64M)" },
		{ "--drain-ms", "0", "--drain-ms: '0' is not a number of milliseconds from 1 to 1000" },
		{ "--path", "rel", "--path: 'rel' is not an absolute path (start it with /)" },
		{ "--mode", "fast", "--mode: 'fast' is not a mode (use detailed or raw)" },
		{ "-e", "trace=bogus", "--syscalls: unknown system call 'bogus'; see 'dio list syscalls'" },
		{ "-e", "trace=%foo",
		  "--syscalls: unknown class '%foo'; classes are %data %sync %meta %dir %xattr %async %file %desc %all" },
		{ "-e", "read", "-e: only trace=SPEC is supported, e.g. -e trace=%data,fsync" },
		{ "--comm", "a-name-longer-than-15", "--comm: 'a-name-longer-than-15' must be 1 to 15 characters (the kernel's task name length)" },
		{ "-d", "-1", "-d: '-1' is not a number of seconds greater than 0" },
		{ "--attach", "kprobe", "--attach: 'kprobe' is not a method (use auto, syscall or raw)" },
		{ "--sink", "console:paths", "--sink console: 'paths' is not key=value" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct options o;
		char err[512];

		if (parse(&o, err, cases[i].a, cases[i].b, cases[i].b ? "true" : NULL, NULL) != -EINVAL ||
		    strcmp(err, cases[i].msg))
			fail_msg("%s %s: got '%s'", cases[i].a, cases[i].b ? cases[i].b : "", err);
		options_free(&o);
	}
}

static void needs_something_to_trace(void **unused)
{
	struct options o;
	char err[512];

	assert_int_equal(parse(&o, err, "-T", NULL), -EINVAL);
	assert_string_equal(err, "nothing to trace: give a command after --, -p PID or -a");
	options_free(&o);
	assert_int_equal(parse(&o, err, "-a", "-p", "1", NULL), -EINVAL);
	assert_string_equal(err, "-a traces every process: drop -p or the command, or drop -a");
	options_free(&o);
}

static char conf[] = "/tmp/dio-test-conf-XXXXXX";

static void write_conf(const char *text)
{
	int fd = mkstemp(conf);
	FILE *f = fdopen(fd, "w");

	fputs(text, f);
	fclose(f);
}

static void config_then_command_line(void **unused)
{
	struct options o;
	char err[512];

	strcpy(conf, "/tmp/dio-test-conf-XXXXXX");
	write_conf("all = true;\npath = [\"/a\", \"/b\"];\nring_size = \"32M\";\ndrain_ms = 40;\n"
		   "time = \"ttt\";\nanalyzer: {\n  summary: { top = 4; };\n};\n");
	assert_int_equal(parse(&o, err, "-C", conf, "--path", "/c", "--drain-ms", "5", NULL), 0);
	assert_true(o.trace_all);
	assert_int_equal(o.ring_bytes, 32 << 20);
	assert_int_equal(o.drain_ms, 5);		/* the command line wins */
	assert_int_equal(o.nprefix, 1);		/* and replaces the list */
	assert_string_equal(o.prefix[0], "/c");
	assert_int_equal(o.time, TIME_TTT);
	assert_int_equal(o.ngroups, 1);
	assert_string_equal(o.groups[0].name, "summary");
	assert_string_equal(o.groups[0].val[0], "4");
	{
		char where[600];

		snprintf(where, sizeof(where), "%s:7", conf);
		assert_string_equal(o.groups[0].where[0], where);
	}
	options_free(&o);
	unlink(conf);
}

static void config_errors_name_file_and_line(void **unused)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "all = true;\nbogus = 1;\n", "%s:2: unknown key 'bogus' (the keys are the long options of 'dio trace --help', with _ for -)" },
		{ "all = true;\nring_size = \"3M\";\n", "%s:2: ring_size: '3M' is not a power-of-two size like \"64M\"" },
		{ "only_files = 1;\n", "%s:1: only_files: expected true or false" },
		{ "all = true\nx = ;\n", "%s:2: syntax error: syntax error" },
		{ "path = [\"rel\"];\n", "%s:1: --path: 'rel' is not an absolute path (start it with /)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct options o;
		char err[512], want[600];

		strcpy(conf, "/tmp/dio-test-conf-XXXXXX");
		write_conf(cases[i].text);
		options_init(&o);
		assert_int_equal(config_load(conf, &o, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), cases[i].msg, conf);
		if (strcmp(err, want))
			fail_msg("case %zu: got '%s', want '%s'", i, err, want);
		options_free(&o);
		unlink(conf);
	}
}

static void missing_config_file(void **unused)
{
	struct options o;
	char err[512];

	options_init(&o);
	assert_int_equal(config_load("/nonexistent/dio.conf", &o, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/dio.conf: No such file or directory");
	options_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_reach_their_fields),
		cmocka_unit_test(command_after_options),
		cmocka_unit_test(errors_say_what_to_do),
		cmocka_unit_test(needs_something_to_trace),
		cmocka_unit_test(config_then_command_line),
		cmocka_unit_test(config_errors_name_file_and_line),
		cmocka_unit_test(missing_config_file),
	};

	/* no system config file may leak into these tests */
	setenv("DIO_CONFIG", "/nonexistent/dio.conf", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
