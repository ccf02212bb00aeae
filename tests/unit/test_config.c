// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The config file: every key lands in its field, every mistake names FILE:LINE
 * and what is wrong, module groups keep where each value came from, and the
 * command line overrides the file (lists and the trace target are replaced).
 * Files are written to a fresh temporary directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "engine/cli.h"
#include "engine/config.h"
#include "options_dump.h"

static char dir[256];

static int make_dir(void **state)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/dio-test-config-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	/* no system config file may leak into these tests */
	setenv("DIO_CONFIG", "", 1);
	return 0;
}

static int remove_dir(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to dir/name; path gets the file's name. */
static void write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Copies pattern to out with every "FILE" replaced by file. */
static void subst_file(char *out, size_t len, const char *pattern, const char *file)
{
	size_t off = 0;

	for (const char *p = pattern; *p && off + 1 < len; ) {
		if (!strncmp(p, "FILE", 4)) {
			off += snprintf(out + off, len - off, "%s", file);
			p += 4;
		} else {
			out[off++] = *p++;
		}
	}
	out[off < len ? off : len - 1] = 0;
}

static const struct key_case {
	const char *name, *text, *want;
} key_cases[] = {
	{ "pid_array", "pid = [1234, 1240];", "pids=1234,1240" },
	{ "pid_list_parens", "pid = (1234, 1240);", "pids=1234,1240" },
	{ "pid_string", "pid = \"1234,1240\";", "pids=1234,1240" },
	{ "pid_number", "pid = 77;", "pids=77" },
	{ "tid_array", "tid = [8, 9];", "tids=8,9" },
	{ "all", "all = true;", "all" },
	{ "all_false", "all = false;", "" },
	{ "comm", "comm = \"postgres\";", "comm=postgres" },
	{ "cgroup", "cgroup = \"/sys/fs/cgroup/a\";", "cgroup=/sys/fs/cgroup/a" },
	{ "path_string", "path = \"/var/lib/\";", "path=/var/lib" },
	{ "path_array", "path = [\"/a\", \"/b//\"];", "path=/a,/b" },
	{ "exclude_path", "exclude_path = [\"/tmp\"];", "exclude=/tmp" },
	{ "only_files", "only_files = true;", "only_files" },
	{ "syscalls", "syscalls = \"%data,fsync\";", "syscalls=%data,fsync" },
	{ "mode", "mode = \"raw\";", "mode=raw" },
	{ "hash", "hash = \"kernel\";", "hash=kernel" },
	{ "hash_bytes_number", "hash_bytes = 1024;", "hash_bytes=1024" },
	{ "hash_bytes_string_suffix", "hash_bytes = \"2k\";", "hash_bytes=2048" },
	{ "capture_data", "capture_data = 16;", "capture=16" },
	{ "ring_size_string", "ring_size = \"16M\";", "ring=16777216" },
	{ "ring_size_number", "ring_size = 1048576;", "ring=1048576" },
	{ "ring_size_int64", "ring_size = 1073741824L;", "ring=1073741824" },
	{ "drain_ms", "drain_ms = 40;", "drain_ms=40" },
	{ "wakeup_at", "wakeup_at = 50;", "wakeup=50" },
	{ "tag_table", "tag_table = \"128k\";", "tags=131072" },
	{ "inflight_table", "inflight_table = \"4k\";", "inflight=4096" },
	{ "iouring_false", "iouring = false;", "no_iouring" },
	{ "attach", "attach = \"syscall\";", "attach=syscall" },
	{ "duration_float", "duration = 0.5;", "duration=0.5" },
	{ "duration_int", "duration = 30;", "duration=30" },
	{ "duration_string", "duration = \"2.5\";", "duration=2.5" },
	{ "output", "output = \"/tmp/trace.txt\";", "output=/tmp/trace.txt" },
	{ "time_ttt", "time = \"ttt\";", "time=ttt" },
	{ "time_empty_is_none", "time = \"\";", "" },
	{ "durations", "durations = true;", "durations" },
	{ "quiet", "quiet = true;", "quiet" },
	{ "details_false", "details = false;", "no_details" },
	{ "no_summary", "no_summary = true;", "no_summary" },
	{ "analyzers_list", "analyzers = [\"summary\", \"./x.so\"];", "analyzers=summary,./x.so" },
	{ "sinks_string", "sinks = \"console\";", "sinks=console" },
	{ "analyzer_group_values_as_text",
	  "analyzer: { summary: { top = 20; ratio = 0.1; on = true; name = \"x\";"
	  " big = 5000000000L; }; };",
	  "analyzer.summary{top=20,ratio=0.1,on=true,name=x,big=5000000000}" },
	{ "sink_group", "sink: { console: { paths = true; }; json: { }; };",
	  "sink.console{paths=true} sink.json{}" },
	{ "comments_and_blank_lines", "# comment\n\n// another\n/* block */ quiet = true;\n",
	  "quiet" },
};

/* a 64-bit literal (L) and a size string pass through whole */
static void wide_values_are_kept(void **state)
{
	struct options o;
	char path[256], err[512] = "";

	(void)state;
	write_file("wide.conf", "max_size = 5368709120L;\nflush_ms = 2147483647;\n", path,
		   sizeof(path));
	options_init(&o);
	assert_int_equal(config_load(path, &o, err, sizeof(err)), -EINVAL);	/* flush_ms's range */
	options_free(&o);
	write_file("wide.conf", "max_size = 5368709120L;\nlevel = 2147483647L;\n", path, sizeof(path));
	options_init(&o);
	assert_int_equal(config_load(path, &o, err, sizeof(err)), -EINVAL);	/* level's range */
	options_free(&o);
	write_file("wide.conf", "max_size = 5368709120L;\n", path, sizeof(path));
	options_init(&o);
	assert_int_equal(config_load(path, &o, err, sizeof(err)), 0);
	assert_int_equal(o.max_size, 5368709120ULL);
	options_free(&o);
}

static void every_key_reaches_its_field(void **state)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(key_cases) / sizeof(key_cases[0]); i++) {
		const struct key_case *c = &key_cases[i];
		char path[512], err[512], got[1024];
		struct options o;
		int e;

		write_file("keys.conf", c->text, path, sizeof(path));
		options_init(&o);
		err[0] = 0;
		e = config_load(path, &o, err, sizeof(err));
		options_dump(&o, got, sizeof(got));
		if (e || strcmp(got, c->want)) {
			print_error("%s: returned %d '%s'\n   got '%s'\n  want '%s'\n", c->name, e,
				    err, got, c->want);
			failed++;
		}
		if (!e && strcmp(o.config_file, path))
			fail_msg("%s: config_file '%s'", c->name, o.config_file);
		options_free(&o);
	}
	assert_int_equal(failed, 0);
}

/* msg starts with "FILE:" for the file name */
static const struct err_case {
	const char *name, *text, *msg;
} err_cases[] = {
	{ "unknown_key_with_its_line", "all = true;\n\nbogus = 1;\n",
	  "FILE:3: unknown key 'bogus' (see dio.conf.example or dio(1) for the keys)" },
	{ "option_spelling_suggests_key", "ring-size = \"16M\";\n",
	  "FILE:1: unknown key 'ring-size'; did you mean 'ring_size'?" },
	{ "syntax_error", "all = true\nx = ;\n", "FILE:2: syntax error: syntax error" },
	/* libconfig would keep 1 GiB of this: it cuts plain integers to 32 bits */
	{ "integer_wider_than_32_bits", "# 9999999999 in a comment\nlevel = 1; /* 8888888888\n */\n"
	  "output = \"77777777777\"; // 66666666666\nmax_size = 5368709120;\n",
	  "FILE:5: 5368709120 does not fit in a plain integer: write 5368709120L, or a size as a "
	  "string (\"5G\")" },
	{ "integer_just_above_int_max", "level = 2147483648;",
	  "FILE:1: 2147483648 does not fit in a plain integer: write 2147483648L, or a size as a "
	  "string (\"5G\")" },
	{ "duplicate_key", "all = true;\nall = false;\n",
	  "FILE:2: syntax error: duplicate setting name" },
	{ "bool_given_number", "only_files = 1;", "FILE:1: only_files: expected true or false" },
	{ "bool_given_string", "quiet = \"yes\";", "FILE:1: quiet: expected true or false" },
	{ "string_given_bool", "output = true;",
	  "FILE:1: output: expected a string in double quotes" },
	{ "string_given_number", "mode = 1;", "FILE:1: mode: expected a string in double quotes" },
	{ "number_given_float", "drain_ms = 2.5;",
	  "FILE:1: drain_ms: expected a whole number or a string like \"64k\"" },
	{ "number_given_list", "ring_size = [1];",
	  "FILE:1: ring_size: expected a whole number or a string like \"64k\"" },
	{ "ring_size_not_power_of_two", "all = true;\nring_size = \"3M\";",
	  "FILE:2: ring_size: '3M' is not a power of two (use e.g. 16M or 64M)" },
	{ "ring_size_not_a_size", "ring_size = \"12x\";",
	  "FILE:1: ring_size: '12x' is not a size (use a number with an optional k, M or G suffix)" },
	{ "drain_ms_out_of_range", "drain_ms = 0;",
	  "FILE:1: drain_ms: '0' is out of range (use 1 to 1000)" },
	{ "wakeup_at_out_of_range", "wakeup_at = 101;",
	  "FILE:1: wakeup_at: '101' is out of range (use 1 to 100)" },
	{ "hash_bytes_out_of_range", "hash_bytes = 0;",
	  "FILE:1: hash_bytes: '0' is out of range (use 1 to 4096)" },
	{ "tag_table_out_of_range", "tag_table = 5;",
	  "FILE:1: tag_table: '5' is out of range (use 1k to 16M)" },
	{ "duration_negative", "duration = -1;",
	  "FILE:1: duration: '-1' is not a number of seconds greater than 0" },
	{ "duration_given_bool", "duration = true;",
	  "FILE:1: duration: expected a number of seconds" },
	{ "time_unknown", "time = \"tttt\";",
	  "FILE:1: time: 'tttt' is not one of \"\", \"t\", \"tt\", \"ttt\"" },
	{ "time_given_number", "time = 2;", "FILE:1: time: expected a string in double quotes" },
	{ "mode_unknown", "mode = \"fast\";",
	  "FILE:1: mode: 'fast' is not a mode (use detailed or raw)" },
	{ "hash_unknown", "hash = \"md5\";",
	  "FILE:1: hash: 'md5' is not a hash mode (use user, kernel or off)" },
	{ "attach_unknown", "attach = \"kprobe\";",
	  "FILE:1: attach: 'kprobe' is not a method (use auto, syscall or raw)" },
	{ "comm_too_long", "comm = \"abcdefghijklmnop\";",
	  "FILE:1: comm: 'abcdefghijklmnop' must be 1 to 15 characters (the kernel's task name length)" },
	{ "output_empty", "output = \"\";", "FILE:1: output: give a file name" },
	{ "syscalls_unknown", "syscalls = \"read,bogus\";",
	  "FILE:1: syscalls: unknown system call 'bogus'; see 'dio list syscalls'" },
	{ "pid_not_a_number", "pid = \"abc\";", "FILE:1: pid: 'abc' is not a process id" },
	{ "pid_zero_in_array", "pid = [0];", "FILE:1: pid: '0' is not a process id" },
	{ "pid_string_in_list_names_element_line", "pid = (1,\n  \"2\");",
	  "FILE:2: pid: expected a list of numbers, e.g. pid = [1234, 1240];" },
	{ "pid_given_bool", "pid = true;",
	  "FILE:1: pid: expected a number or a list of numbers, e.g. pid = [1234, 1240];" },
	{ "tid_not_a_number", "tid = \"x\";", "FILE:1: tid: 'x' is not a thread id" },
	{ "path_relative_names_element_line", "path = [\"/ok\",\n  \"rel\"];",
	  "FILE:2: path: 'rel' is not an absolute path (start it with /)" },
	{ "path_given_number", "path = 5;",
	  "FILE:1: path: expected a string or a list of strings" },
	{ "path_given_group", "path = { a = 1; };",
	  "FILE:1: path: expected a string or a list of strings, e.g. path = [\"/var/lib/redis\"];" },
	{ "exclude_path_relative", "exclude_path = \"tmp\";",
	  "FILE:1: exclude_path: 'tmp' is not an absolute path (start it with /)" },
	{ "analyzers_all_with_options", "analyzers = [\"all:top=1\"];",
	  "FILE:1: analyzers: all: takes no options; give them per analyzer, e.g. --analyzer summary:top=10" },
	{ "sinks_option_without_value", "sinks = [\"console:paths\"];",
	  "FILE:1: sinks: console: 'paths' is not key=value" },
	{ "analyzer_not_a_group", "analyzer = 5;",
	  "FILE:1: analyzer: expected a group of modules, e.g. analyzer: { summary: { key = value; }; };" },
	{ "sink_module_not_a_group", "sink: {\n  console = 5;\n};",
	  "FILE:2: sink.console: expected a group, e.g. sink: { console: { key = value; }; };" },
	{ "module_value_not_scalar", "analyzer: {\n  summary: {\n    top = [1, 2];\n  };\n};",
	  "FILE:3: analyzer.summary.top: expected a number, a string or true/false" },
};

static void every_mistake_names_file_and_line(void **state)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		char path[512], err[512], want[1024];
		struct options o;
		int e;

		write_file("bad.conf", c->text, path, sizeof(path));
		options_init(&o);
		err[0] = 0;
		e = config_load(path, &o, err, sizeof(err));
		subst_file(want, sizeof(want), c->msg, path);
		if (e != -EINVAL || strcmp(err, want)) {
			print_error("%s: returned %d\n   got '%s'\n  want '%s'\n", c->name, e, err,
				    want);
			failed++;
		}
		/* a failed load leaves nothing behind that options_free() misses (valgrind) */
		options_free(&o);
	}
	assert_int_equal(failed, 0);
}

static void missing_file_says_so(void **state)
{
	char path[512], err[512], want[600];
	struct options o;

	snprintf(path, sizeof(path), "%s/none.conf", dir);
	options_init(&o);
	assert_int_equal(config_load(path, &o, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	assert_string_equal(err, want);
	assert_null(o.config_file);
	options_free(&o);
}

static void directory_is_not_a_config(void **state)
{
	char err[512], want[600];
	struct options o;

	options_init(&o);
	assert_int_equal(config_load(dir, &o, err, sizeof(err)), -EISDIR);
	snprintf(want, sizeof(want), "%s: Is a directory", dir);
	assert_string_equal(err, want);
	options_free(&o);
}

static void module_options_remember_file_and_line(void **state)
{
	char path[512], err[512], at[600];
	struct options o;

	write_file("groups.conf",
		   "quiet = true;\n"
		   "analyzer: {\n"
		   "  summary: {\n"
		   "    top = 4;\n"
		   "    max_files = 100;\n"
		   "  };\n"
		   "};\n"
		   "analyzers = [\"summary\",\n"
		   "             \"x:a=1,b=2\"];\n"
		   "sink: { console: { paths = true; }; };\n",
		   path, sizeof(path));
	options_init(&o);
	assert_int_equal(config_load(path, &o, err, sizeof(err)), 0);
	assert_int_equal(o.ngroups, 2);
	assert_string_equal(o.groups[0].kind, "analyzer");
	assert_string_equal(o.groups[0].name, "summary");
	assert_string_equal(o.groups[0].key[1], "max_files");
	assert_string_equal(o.groups[0].val[1], "100");
	snprintf(at, sizeof(at), "%s:4", path);
	assert_string_equal(o.groups[0].where[0], at);
	snprintf(at, sizeof(at), "%s:5", path);
	assert_string_equal(o.groups[0].where[1], at);
	assert_string_equal(o.groups[1].kind, "sink");
	snprintf(at, sizeof(at), "%s:10", path);
	assert_string_equal(o.groups[1].where[0], at);
	/* options written inline in the list come from the file, not the command line */
	assert_int_equal(o.nanalyzers, 2);
	assert_int_equal(o.analyzers[1].nkv, 2);
	snprintf(at, sizeof(at), "%s:9", path);
	assert_string_equal(o.analyzers[1].origin, at);
	assert_string_equal(o.analyzers[1].where[0], at);
	assert_string_equal(o.analyzers[1].where[1], at);
	options_free(&o);
}

static void check_every_key_is_shown(const char *example)
{
	static const char *const keys[] = {
		"pid", "all", "tid", "comm", "cgroup", "path", "exclude_path", "only_files",
		"syscalls", "mode", "hash", "hash_bytes", "capture_data", "ring_size", "drain_ms",
		"wakeup_at", "tag_table", "inflight_table", "iouring", "attach", "duration", "output",
		"time",
		"durations", "quiet", "details", "no_summary", "analyzers", "sinks", "analyzer",
		"sink",
	};
	char *text = NULL, want[64];
	size_t len = 0;
	FILE *f = fopen(example, "r");

	assert_non_null(f);
	assert_true(getdelim(&text, &len, 0, f) > 0);
	fclose(f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(want, sizeof(want), "\n#%s =", keys[i]);
		if (!strstr(text, want)) {
			snprintf(want, sizeof(want), "\n#%s:", keys[i]);
			if (!strstr(text, want))
				fail_msg("dio.conf.example does not show the key '%s'", keys[i]);
		}
	}
	free(text);
}

/*
 * docs/dio.conf.example writes every setting as "#key = value;": with those
 * '#' removed it must load, so the example and the parser cannot disagree.
 */
static void example_config_loads_uncommented(void **state)
{
	const char *top = getenv("top_srcdir");
	char src[512], path[512], err[512], got[2048], line[512];
	struct options o;
	FILE *in, *out;

	snprintf(src, sizeof(src), "%s/docs/dio.conf.example", top ? top : ".");
	in = fopen(src, "r");
	if (!in)
		fail_msg("cannot read %s (set top_srcdir)", src);
	snprintf(path, sizeof(path), "%s/example.conf", dir);
	out = fopen(path, "w");
	assert_non_null(out);
	while (fgets(line, sizeof(line), in))
		fputs(line[0] == '#' && line[1] >= 'a' && line[1] <= 'z' ? line + 1 : line, out);
	fclose(in);
	fclose(out);
	check_every_key_is_shown(src);
	options_init(&o);
	if (config_load(path, &o, err, sizeof(err)))
		fail_msg("the example does not load: %s", err);
	options_dump(&o, got, sizeof(got));
	/* every key the parser knows is in the example, with a value that shows */
	assert_string_equal(got,
		"pids=1234,1240 tids=1241 comm=postgres "
		"cgroup=/sys/fs/cgroup/system.slice/redis.service path=/var/lib/redis "
		"exclude=/var/lib/redis/tmp only_files syscalls=%data,%sync,openat,close "
		"hash=kernel max_size=104857600 rotate=10 duration=30 output=/var/log/dio/trace.txt time=tt durations "
		"analyzers=summary sinks=console analyzer.summary{top=20,max_files=50000} "
		"sink.console{paths=true,proc=false}");
	options_free(&o);
}

/* ---- the command line over the config file ---------------------------- */

static int parse(struct options *o, const char *const *args, char *err, size_t errlen)
{
	static char *argv[32];
	int argc = 0;

	argv[argc++] = "trace";
	for (int i = 0; args[i] && argc < 31; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	options_init(o);
	err[0] = 0;
	return cli_parse_trace(argc, argv, o, err, errlen);
}

static const char base_conf[] =
	"all = true;\n"
	"path = [\"/a\", \"/b\"];\n"
	"exclude_path = \"/x\";\n"
	"analyzers = [\"summary:top=3\"];\n"
	"sinks = [\"console\"];\n"
	"ring_size = \"32M\";\n"
	"drain_ms = 40;\n"
	"hash = \"user\";\n"
	"time = \"ttt\";\n"
	"quiet = true;\n";

static const struct override_case {
	const char *name;
	const char *args[12];	/* after -C FILE */
	const char *want;
} override_cases[] = {
	{ "config_alone", { NULL },
	  "all path=/a,/b exclude=/x hash=user ring=33554432 drain_ms=40 time=ttt quiet "
	  "analyzers=summary{top=3@base.conf:4} sinks=console" },
	{ "value_on_command_line_wins", { "--drain-ms", "5", "--hash", "off", "-t" },
	  "all path=/a,/b exclude=/x ring=33554432 drain_ms=5 time=t quiet "
	  "analyzers=summary{top=3@base.conf:4} sinks=console" },
	{ "path_list_replaced_not_appended", { "--path", "/c", "--path", "/d" },
	  "all path=/c,/d exclude=/x hash=user ring=33554432 drain_ms=40 time=ttt quiet "
	  "analyzers=summary{top=3@base.conf:4} sinks=console" },
	{ "exclude_list_replaced", { "--exclude-path", "/y" },
	  "all path=/a,/b exclude=/y hash=user ring=33554432 drain_ms=40 time=ttt quiet "
	  "analyzers=summary{top=3@base.conf:4} sinks=console" },
	{ "module_lists_replaced", { "--analyzer", "x", "--sink", "json", "--sink", "console" },
	  "all path=/a,/b exclude=/x hash=user ring=33554432 drain_ms=40 time=ttt quiet "
	  "analyzers=x sinks=json,console" },
	{ "command_replaces_config_all", { "--", "ls" },
	  "argv=ls path=/a,/b exclude=/x hash=user ring=33554432 drain_ms=40 time=ttt quiet "
	  "analyzers=summary{top=3@base.conf:4} sinks=console" },
	{ "pid_replaces_config_all", { "-p", "7" },
	  "pids=7 path=/a,/b exclude=/x hash=user ring=33554432 drain_ms=40 time=ttt quiet "
	  "analyzers=summary{top=3@base.conf:4} sinks=console" },
};

static void command_line_overrides_config(void **state)
{
	char path[512], err[512], got[2048];
	int failed = 0;

	write_file("base.conf", base_conf, path, sizeof(path));
	for (size_t i = 0; i < sizeof(override_cases) / sizeof(override_cases[0]); i++) {
		const struct override_case *c = &override_cases[i];
		const char *args[16] = { "-C", path };
		char want[2048];
		struct options o;
		int e, n = 2;

		for (int k = 0; c->args[k]; k++)
			args[n++] = c->args[k];
		e = parse(&o, args, err, sizeof(err));
		options_dump(&o, got, sizeof(got));
		subst_file(want, sizeof(want), c->want, path);
		if (e || strcmp(got, want)) {
			print_error("%s: returned %d '%s'\n   got '%s'\n  want '%s'\n", c->name, e,
				    err, got, want);
			failed++;
		}
		options_free(&o);
	}
	assert_int_equal(failed, 0);
}

static void config_pid_replaced_by_all_on_command_line(void **state)
{
	const char *args[] = { "-C", NULL, "-a", NULL };
	char path[512], err[512];
	struct options o;

	write_file("pid.conf", "pid = [5, 6];\ntid = [9];\n", path, sizeof(path));
	args[1] = path;
	assert_int_equal(parse(&o, args, err, sizeof(err)), 0);
	assert_true(o.trace_all);
	assert_int_equal(o.npids, 0);
	assert_int_equal(o.ntids, 1);	/* a filter, not a target: kept */
	options_free(&o);
}

static void config_errors_stop_the_command_line(void **state)
{
	const char *args[] = { "-C", NULL, "-a", NULL };
	char path[512], err[512], want[600];
	struct options o;

	write_file("broken.conf", "all = true;\nring_size = \"3M\";\n", path, sizeof(path));
	args[1] = path;
	assert_int_equal(parse(&o, args, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s:2: ring_size: '3M' is not a power of two (use e.g. 16M or 64M)", path);
	assert_string_equal(err, want);
	options_free(&o);
	/* combination rules see the file's values too */
	write_file("capture.conf", "capture_data = 8;\n", path, sizeof(path));
	assert_int_equal(parse(&o, args, err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
		"--capture-data needs --hash user or --hash kernel (the bytes travel with the buffer hash)");
	options_free(&o);
}

static void default_config_comes_from_DIO_CONFIG(void **state)
{
	const char *just_a[] = { "-a", NULL };
	char path[512], other[512], err[512];
	const char *with_c[] = { "-C", other, "-a", NULL };
	struct options o;

	write_file("default.conf", "quiet = true;\n", path, sizeof(path));
	write_file("other.conf", "durations = true;\n", other, sizeof(other));

	setenv("DIO_CONFIG", path, 1);
	assert_int_equal(parse(&o, just_a, err, sizeof(err)), 0);
	assert_true(o.quiet);
	assert_string_equal(o.config_file, path);
	options_free(&o);

	/* -C wins over the default file, which is then not read at all */
	assert_int_equal(parse(&o, with_c, err, sizeof(err)), 0);
	assert_true(o.durations);
	assert_false(o.quiet);
	assert_string_equal(o.config_file, other);
	options_free(&o);

	/* a default file that is not there is no error */
	snprintf(path, sizeof(path), "%s/absent.conf", dir);
	setenv("DIO_CONFIG", path, 1);
	assert_int_equal(parse(&o, just_a, err, sizeof(err)), 0);
	assert_null(o.config_file);
	options_free(&o);

	setenv("DIO_CONFIG", "", 1);
	assert_int_equal(parse(&o, just_a, err, sizeof(err)), 0);
	assert_null(o.config_file);
	options_free(&o);
}

static void help_works_with_a_broken_config(void **state)
{
	const char *args[] = { "-C", NULL, "--help", NULL };
	char path[512], err[512];
	struct options o;
	FILE *saved = stdout;

	write_file("syntax.conf", "all = \n", path, sizeof(path));
	args[1] = path;
	stdout = fopen("/dev/null", "w");
	assert_non_null(stdout);
	assert_int_equal(parse(&o, args, err, sizeof(err)), 1);
	fclose(stdout);
	stdout = saved;
	options_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_key_reaches_its_field),
		cmocka_unit_test(wide_values_are_kept),
		cmocka_unit_test(every_mistake_names_file_and_line),
		cmocka_unit_test(missing_file_says_so),
		cmocka_unit_test(directory_is_not_a_config),
		cmocka_unit_test(module_options_remember_file_and_line),
		cmocka_unit_test(example_config_loads_uncommented),
		cmocka_unit_test(command_line_overrides_config),
		cmocka_unit_test(config_pid_replaced_by_all_on_command_line),
		cmocka_unit_test(config_errors_stop_the_command_line),
		cmocka_unit_test(default_config_comes_from_DIO_CONFIG),
		cmocka_unit_test(help_works_with_a_broken_config),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
