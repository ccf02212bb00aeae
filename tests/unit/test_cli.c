// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio trace's command line: every option lands in its field and nowhere else,
 * every mistake gets its exact one-line message, and the parser can run again
 * and again in one process.
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

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#include "cmd/cmd.h"
#include "cmd/diff.h"
#include "engine/cli.h"
#include "engine/syscalls.h"
#include "options_dump.h"

#define MAX_ARGS 24

/* argv[0] is the subcommand, as main() passes it */
static int parse(struct options *o, const char *const *args, char *err, size_t errlen)
{
	static char *argv[MAX_ARGS + 2];
	int argc = 0;

	/* dio record's own options are parsed as dio record: dio trace refuses them */
	argv[argc++] = "trace";
	for (int i = 0; i < MAX_ARGS && args[i]; i++) {
		if (!strcmp(args[i], "--level") || !strcmp(args[i], "--max-size") ||
		    !strcmp(args[i], "--rotate") || !strcmp(args[i], "--flush-ms"))
			argv[0] = "record";
		argv[argc++] = (char *)args[i];
	}
	argv[argc] = NULL;
	options_init(o);
	err[0] = 0;
	return cli_parse_trace(argc, argv, o, err, errlen);
}

static const struct ok_case {
	const char *name;
	const char *args[MAX_ARGS];
	const char *want;
} ok_cases[] = {
	{ "pid_list", { "-p", "12,34" }, "pids=12,34" },
	{ "pid_long_and_repeated_add_up", { "--pid", "12", "-p", "34,56" }, "pids=12,34,56" },
	{ "pid_attached_value", { "-p12" }, "pids=12" },
	{ "all_short", { "-a" }, "all" },
	{ "all_long", { "--all" }, "all" },
	{ "tid_alone_implies_all", { "--tid", "7,8" }, "all tids=7,8" },
	{ "tid_narrows_pid", { "-p", "1", "--tid", "7", "--tid", "9" }, "pids=1 tids=7,9" },
	{ "comm", { "-a", "--comm", "redis" }, "all comm=redis" },
	{ "comm_15_chars_fit", { "-a", "--comm", "abcdefghijklmno" }, "all comm=abcdefghijklmno" },
	{ "cgroup", { "-a", "--cgroup", "/sys/fs/cgroup/a" }, "all cgroup=/sys/fs/cgroup/a" },
	{ "path_repeatable_trailing_slash_dropped", { "-a", "--path", "/var/lib/", "--path", "/" },
	  "all path=/var/lib,/" },
	{ "path_double_slashes_folded", { "-a", "--path", "//var//lib//" }, "all path=/var/lib" },
	{ "path_root_stays_root", { "-a", "--path", "///" }, "all path=/" },
	{ "exclude_path", { "-a", "--exclude-path", "/tmp/", "--exclude-path", "/proc" },
	  "all exclude=/tmp,/proc" },
	{ "only_files", { "-a", "--only-files" }, "all only_files" },
	{ "e_trace_spec", { "-a", "-e", "trace=%data,fsync" }, "all syscalls=%data,fsync" },
	{ "e_bare_spec_as_strace", { "-a", "-e", "fsync,!read" }, "all syscalls=fsync,!read" },
	{ "syscalls_long", { "-a", "--syscalls", "%sync" }, "all syscalls=%sync" },
	{ "last_selection_wins", { "-a", "-e", "trace=read", "--syscalls", "write" },
	  "all syscalls=write" },
	{ "mode_raw", { "-a", "--mode", "raw" }, "all mode=raw" },
	{ "mode_detailed", { "-a", "--mode", "detailed" }, "all" },
	{ "hash_user", { "-a", "--hash", "user" }, "all hash=user" },
	{ "hash_kernel", { "-a", "--hash", "kernel" }, "all hash=kernel" },
	{ "hash_off_undoes_hash", { "-a", "--hash", "user", "--hash", "off" }, "all" },
	{ "hash_bytes_k_suffix", { "-a", "--hash-bytes", "1k" }, "all hash_bytes=1024" },
	{ "capture_data_with_hash", { "-a", "--hash", "kernel", "--capture-data", "16" },
	  "all hash=kernel capture=16" },
	{ "ring_size_M", { "-a", "--ring-size", "16M" }, "all ring=16777216" },
	{ "ring_size_lower_k", { "-a", "--ring-size", "64k" }, "all ring=65536" },
	{ "ring_size_G_top", { "-a", "--ring-size", "2G" }, "all ring=2147483648" },
	{ "ring_size_MiB", { "-a", "--ring-size", "32MiB" }, "all ring=33554432" },
	{ "ring_size_plain_bytes", { "-a", "--ring-size", "1048576" }, "all ring=1048576" },
	{ "drain_ms_low", { "-a", "--drain-ms", "1" }, "all drain_ms=1" },
	{ "drain_ms_high", { "-a", "--drain-ms", "1000" }, "all drain_ms=1000" },
	{ "level_none", { "-a", "--level", "0" }, "all level=0" },
	{ "level_best", { "-a", "--level", "9" }, "all level=9" },
	{ "max_size_and_rotate", { "-a", "--max-size", "100M", "--rotate", "10" },
	  "all max_size=104857600 rotate=10" },
	{ "wakeup_at", { "-a", "--wakeup-at", "100" }, "all wakeup=100" },
	{ "tag_table_suffix", { "-a", "--tag-table", "1M" }, "all tags=1048576" },
	{ "inflight_table_suffix", { "-a", "--inflight-table", "64k" }, "all inflight=65536" },
	{ "inflight_table_of_one", { "-a", "--inflight-table", "1" }, "all inflight=1" },
	{ "no_iouring", { "-a", "--no-iouring" }, "all no_iouring" },
	{ "attach_syscall", { "-a", "--attach", "syscall" }, "all attach=syscall" },
	{ "attach_raw", { "-a", "--attach", "raw" }, "all attach=raw" },
	{ "duration_short_fraction", { "-a", "-d", "2.5" }, "all duration=2.5" },
	{ "duration_long", { "-a", "--duration", "30" }, "all duration=30" },
	{ "output_short", { "-a", "-o", "/tmp/o" }, "all output=/tmp/o" },
	{ "output_long_equals", { "-a", "--output=/tmp/o" }, "all output=/tmp/o" },
	{ "t", { "-a", "-t" }, "all time=t" },
	{ "tt_one_argument", { "-a", "-tt" }, "all time=tt" },
	{ "ttt_one_argument", { "-a", "-ttt" }, "all time=ttt" },
	{ "t_repeated", { "-a", "-t", "-t" }, "all time=tt" },
	{ "tttt_stays_ttt", { "-a", "-tttt" }, "all time=ttt" },
	{ "T", { "-a", "-T" }, "all durations" },
	{ "q", { "-a", "-q" }, "all quiet" },
	{ "quiet", { "-a", "--quiet" }, "all quiet" },
	{ "no_details", { "-a", "--no-details" }, "all no_details" },
	{ "analyzer_with_options", { "-a", "--analyzer", "summary:top=3,max_files=9" },
	  "all analyzers=summary{top=3@command line,max_files=9@command line}" },
	{ "analyzer_value_may_hold_equals", { "-a", "--analyzer", "x:expr=a=b" },
	  "all analyzers=x{expr=a=b@command line}" },
	{ "analyzer_path_and_all", { "-a", "--analyzer", "./mine.so", "--analyzer", "all" },
	  "all analyzers=./mine.so,all" },
	{ "analyzer_path_holding_colons", { "-a", "--analyzer", "/b:c/x.so:top=1" },
	  "all analyzers=/b:c/x.so{top=1@command line}" },
	{ "option_value_ending_in_so_is_a_value", { "-a", "--sink", "console:output=/t/x.so" },
	  "all sinks=console{output=/t/x.so@command line}" },
	{ "sink_with_options", { "-a", "--sink", "console:paths=true", "--sink", "json" },
	  "all sinks=console{paths=true@command line},json" },
	/* the page's name is a value, never parsed as NAME:key=value text */
	{ "report_file_name_with_comma", { "-a", "--report", "/tmp/a,b=c:d.html" },
	  "all sinks=console,html{file=/tmp/a,b=c:d.html@command line}" },
	{ "no_summary", { "-a", "--no-summary" }, "all no_summary" },
	{ "stats", { "-a", "--stats" }, "all stats" },
	{ "bench_floor_hidden_but_parsed", { "-a", "--bench-floor" }, "all bench_floor" },
	{ "clustered_short_options", { "-aTq" }, "all durations quiet" },
	{ "unique_prefix_of_long_option", { "-a", "--ring", "16M" }, "all ring=16777216" },
	{ "command_after_double_dash", { "-T", "--", "dd", "-x" }, "argv=dd,-x durations" },
	{ "command_without_double_dash", { "ls", "-l" }, "argv=ls,-l" },
	{ "options_after_command_are_its_own", { "-q", "ls", "-p", "3", "-a" },
	  "argv=ls,-p,3,-a quiet" },
	{ "dash_C_inside_command_is_not_ours", { "ls", "-C", "/nonexistent" },
	  "argv=ls,-C,/nonexistent" },
	{ "double_dash_then_dash_words", { "--", "-weird-name" }, "argv=-weird-name" },
};

static void every_option_reaches_its_field(void **state)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		const struct ok_case *c = &ok_cases[i];
		struct options o;
		char err[512], got[1024];
		int e = parse(&o, c->args, err, sizeof(err));

		options_dump(&o, got, sizeof(got));
		if (e || strcmp(got, c->want)) {
			print_error("%s: returned %d '%s'\n   got '%s'\n  want '%s'\n", c->name, e,
				    err, got, c->want);
			failed++;
		}
		options_free(&o);
	}
	assert_int_equal(failed, 0);
}

static const struct err_case {
	const char *name;
	const char *args[MAX_ARGS];
	const char *msg;
} err_cases[] = {
	/* getopt's complaints */
	{ "unknown_long", { "--bogus" }, "unknown option '--bogus'; see 'dio trace --help'" },
	{ "unknown_long_with_value", { "--bogus=3" },
	  "unknown option '--bogus'; see 'dio trace --help'" },
	{ "unknown_short", { "-Z" }, "unknown option '-Z'; see 'dio trace --help'" },
	{ "unknown_short_in_cluster", { "-TZq" }, "unknown option '-Z'; see 'dio trace --help'" },
	{ "ambiguous_long", { "--no" },
	  "option '--no' is ambiguous; write it out in full (see 'dio trace --help')" },
	{ "flag_given_a_value", { "--all=1" }, "--all takes no value; see 'dio trace --help'" },
	{ "short_missing_value", { "-a", "-p" }, "-p: missing value; see 'dio trace --help'" },
	{ "long_missing_value", { "-a", "--ring-size" },
	  "--ring-size: missing value; see 'dio trace --help'" },
	{ "config_missing_value", { "-a", "-C" }, "-C: missing value; see 'dio trace --help'" },
	/* what to trace */
	{ "pid_not_a_number", { "-p", "abc" }, "-p: 'abc' is not a process id" },
	{ "pid_zero", { "-p", "0" }, "-p: '0' is not a process id" },
	{ "pid_negative", { "-p", "-5" }, "-p: '-5' is not a process id" },
	{ "pid_above_pid_max", { "-p", "99999999" }, "-p: '99999999' is not a process id" },
	{ "pid_bad_one_in_list", { "-p", "12,x4,5" }, "-p: 'x4' is not a process id" },
	{ "pid_empty_entry", { "-p", "1,,2" },
	  "-p: empty entry in '1,,2' (separate ids with one comma)" },
	{ "pid_trailing_comma", { "-p", "1," },
	  "-p: empty entry in '1,' (separate ids with one comma)" },
	{ "pid_error_quotes_this_option_only", { "-p", "12", "-p", "3,,4" },
	  "-p: empty entry in '3,,4' (separate ids with one comma)" },
	{ "pid_empty", { "-p", "" }, "-p: give a process id, or several separated by commas" },
	{ "tid_not_a_number", { "-a", "--tid", "t1" }, "--tid: 't1' is not a thread id" },
	{ "comm_too_long", { "-a", "--comm", "abcdefghijklmnop" },
	  "--comm: 'abcdefghijklmnop' must be 1 to 15 characters (the kernel's task name length)" },
	{ "comm_empty", { "-a", "--comm", "" },
	  "--comm: '' must be 1 to 15 characters (the kernel's task name length)" },
	{ "cgroup_empty", { "-a", "--cgroup", "" },
	  "--cgroup: give a cgroup v2 directory, e.g. /sys/fs/cgroup/system.slice/redis.service" },
	{ "path_relative", { "-a", "--path", "rel" },
	  "--path: 'rel' is not an absolute path (start it with /)" },
	{ "path_dotdot", { "-a", "--path", "/a/../b" },
	  "--path: '/a/../b' has a '.' or '..' component (give the real path)" },
	{ "path_dot", { "-a", "--path", "/a/./b" },
	  "--path: '/a/./b' has a '.' or '..' component (give the real path)" },
	{ "exclude_path_relative", { "-a", "--exclude-path", "./x" },
	  "--exclude-path: './x' is not an absolute path (start it with /)" },
	{ "path_more_than_max", { "-a", "--path", "/1", "--path", "/2", "--path", "/3",
				  "--path", "/4", "--path", "/5", "--path", "/6", "--path", "/7",
				  "--path", "/8", "--path", "/9" },
	  "--path: at most 8 prefixes; use a common parent directory" },
	{ "e_other_qualifier", { "-a", "-e", "signal=none" },
	  "-e: only trace=SPEC is supported, e.g. -e trace=%data,fsync" },
	{ "e_unknown_syscall", { "-a", "-e", "trace=bogus" },
	  "--syscalls: unknown system call 'bogus'; see 'dio list syscalls'" },
	{ "e_unknown_class", { "-a", "-e", "trace=%foo" },
	  "--syscalls: unknown class '%foo'; classes are %data %sync %meta %dir %xattr %async %file %desc %all" },
	{ "syscalls_empty", { "-a", "--syscalls", "" },
	  "--syscalls: empty list; name system calls or classes like %data" },
	/* how */
	{ "mode_unknown", { "-a", "--mode", "fast" },
	  "--mode: 'fast' is not a mode (use detailed or raw)" },
	{ "hash_unknown", { "-a", "--hash", "md5" },
	  "--hash: 'md5' is not a hash mode (use user, kernel or off)" },
	{ "hash_bytes_zero", { "-a", "--hash-bytes", "0" },
	  "--hash-bytes: '0' is out of range (use 1 to 4096)" },
	{ "hash_bytes_too_big", { "-a", "--hash-bytes", "5k" },
	  "--hash-bytes: '5k' is out of range (use 1 to 4096)" },
	{ "capture_data_too_big", { "-a", "--capture-data", "4097" },
	  "--capture-data: '4097' is out of range (use 0 to 4096)" },
	{ "ring_size_not_a_size", { "-a", "--ring-size", "12x" },
	  "--ring-size: '12x' is not a size (use a number with an optional k, M or G suffix)" },
	{ "ring_size_negative", { "-a", "--ring-size", "-1" },
	  "--ring-size: '-1' is not a size (use a number with an optional k, M or G suffix)" },
	{ "ring_size_suffix_twice", { "-a", "--ring-size", "1kk" },
	  "--ring-size: '1kk' is not a size (use a number with an optional k, M or G suffix)" },
	{ "ring_size_bytes_suffix_alone", { "-a", "--ring-size", "65536B" },
	  "--ring-size: '65536B' is not a size (use a number with an optional k, M or G suffix)" },
	{ "ring_size_iB_without_suffix", { "-a", "--ring-size", "65536iB" },
	  "--ring-size: '65536iB' is not a size (use a number with an optional k, M or G suffix)" },
	{ "ring_size_not_power_of_two", { "-a", "--ring-size", "3M" },
	  "--ring-size: '3M' is not a power of two (use e.g. 16M or 64M)" },
	{ "ring_size_too_small", { "-a", "--ring-size", "4k" },
	  "--ring-size: '4k' is out of range (use 64k to 2G)" },
	{ "ring_size_too_big", { "-a", "--ring-size", "4G" },
	  "--ring-size: '4G' is out of range (use 64k to 2G)" },
	{ "ring_size_overflows", { "-a", "--ring-size", "99999999999999999999" },
	  "--ring-size: '99999999999999999999' is out of range (use 64k to 2G)" },
	{ "max_size_too_small", { "-a", "--max-size", "1k" },
	  "--max-size: '1k' is out of range (use 64k or more)" },
	{ "rotate_zero", { "-a", "--rotate", "0" },
	  "--rotate: '0' is out of range (use 1 to 1000000)" },
	{ "level_too_big", { "-a", "--level", "10" },
	  "--level: '10' is out of range (use 0 to 9)" },
	{ "drain_ms_zero", { "-a", "--drain-ms", "0" },
	  "--drain-ms: '0' is out of range (use 1 to 1000)" },
	{ "drain_ms_too_big", { "-a", "--drain-ms", "1001" },
	  "--drain-ms: '1001' is out of range (use 1 to 1000)" },
	{ "drain_ms_not_a_number", { "-a", "--drain-ms", "5ms" },
	  "--drain-ms: '5ms' is not a number (use a whole number from 1 to 1000)" },
	{ "drain_ms_leading_blank", { "-a", "--drain-ms", " 5" },
	  "--drain-ms: ' 5' is not a number (use a whole number from 1 to 1000)" },
	{ "wakeup_at_zero", { "-a", "--wakeup-at", "0" },
	  "--wakeup-at: '0' is out of range (use 1 to 100)" },
	{ "wakeup_at_over_100", { "-a", "--wakeup-at", "101" },
	  "--wakeup-at: '101' is out of range (use 1 to 100)" },
	{ "tag_table_too_small", { "-a", "--tag-table", "10" },
	  "--tag-table: '10' is out of range (use 1k to 16M)" },
	{ "inflight_table_zero", { "-a", "--inflight-table", "0" },
	  "--inflight-table: '0' is out of range (use 1 to 16M)" },
	{ "inflight_table_too_large", { "-a", "--inflight-table", "17M" },
	  "--inflight-table: '17M' is out of range (use 1 to 16M)" },
	{ "attach_unknown", { "-a", "--attach", "kprobe" },
	  "--attach: 'kprobe' is not a method (use auto, syscall or raw)" },
	{ "duration_negative", { "-a", "-d", "-1" },
	  "--duration: '-1' is not a number of seconds greater than 0" },
	{ "duration_zero", { "-a", "-d", "0" },
	  "--duration: '0' is not a number of seconds greater than 0" },
	{ "duration_inf", { "-a", "-d", "inf" },
	  "--duration: 'inf' is not a number of seconds greater than 0" },
	{ "duration_hex", { "-a", "-d", "0x10" },
	  "--duration: '0x10' is not a number of seconds greater than 0" },
	{ "duration_unit", { "-a", "-d", "5s" },
	  "--duration: '5s' is not a number of seconds greater than 0" },
	/* output and modules */
	{ "output_empty", { "-a", "-o", "" }, "--output: give a file name" },
	{ "analyzer_empty", { "-a", "--analyzer", "" },
	  "--analyzer: give a module name or a path to a .so, e.g. --analyzer summary" },
	{ "analyzer_options_only", { "-a", "--analyzer", ":top=1" },
	  "--analyzer: give a module name or a path to a .so, e.g. --analyzer summary" },
	{ "analyzer_odd_name", { "-a", "--analyzer", "sum mary" },
	  "--analyzer: 'sum mary' is neither a module name nor a path to a .so; see 'dio list analyzers'" },
	{ "analyzer_path_not_so", { "-a", "--analyzer", "./mine.c" },
	  "--analyzer: './mine.c' is neither a module name nor a path to a .so; see 'dio list analyzers'" },
	{ "analyzer_all_with_options", { "-a", "--analyzer", "all:top=1" },
	  "--analyzer all: takes no options; give them per analyzer, e.g. --analyzer summary:top=10" },
	{ "sink_all", { "-a", "--sink", "all" },
	  "--sink: 'all' is only for --analyzer; name each sink" },
	{ "sink_option_without_value", { "-a", "--sink", "console:paths" },
	  "--sink console: 'paths' is not key=value" },
	{ "sink_option_without_key", { "-a", "--sink", "console:=1" },
	  "--sink console: '=1' is not key=value" },
	{ "sink_empty_option", { "-a", "--sink", "console:a=1," },
	  "--sink console: '' is not key=value" },
	/* combinations (options_finish) */
	{ "nothing_to_trace", { "-T" }, "nothing to trace: give a command after --, -p PID or -a" },
	{ "nothing_after_double_dash", { "--" },
	  "nothing to trace: give a command after --, -p PID or -a" },
	{ "comm_alone_is_only_a_filter", { "--comm", "x" },
	  "nothing to trace: give a command after --, -p PID or -a" },
	{ "all_and_pid", { "-a", "-p", "1" },
	  "-a traces every process: drop -p or the command, or drop -a" },
	{ "all_and_command", { "-a", "ls" },
	  "-a traces every process: drop -p or the command, or drop -a" },
	{ "pid_and_command", { "-p", "1", "ls" }, "give either -p PID or a command, not both" },
	{ "capture_without_hash", { "-a", "--capture-data", "16" },
	  "--capture-data needs --hash user or --hash kernel (the bytes travel with the buffer hash)" },
	{ "raw_mode_and_path", { "-a", "--mode", "raw", "--path", "/x" },
	  "--path needs --mode detailed (raw mode does not look up files)" },
	{ "raw_mode_and_exclude", { "-a", "--mode", "raw", "--exclude-path", "/x" },
	  "--exclude-path needs --mode detailed (raw mode does not look up files)" },
	{ "raw_mode_and_only_files", { "-a", "--mode", "raw", "--only-files" },
	  "--only-files needs --mode detailed (raw mode does not look up files)" },
	/* config file */
	{ "config_missing", { "-C", "/nonexistent/dio.conf", "-a" },
	  "/nonexistent/dio.conf: No such file or directory" },
	{ "config_long_equals_missing", { "--config=/nonexistent/x.conf", "-a" },
	  "/nonexistent/x.conf: No such file or directory" },
};

static void every_mistake_has_its_message(void **state)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct options o;
		char err[512];
		int e = parse(&o, c->args, err, sizeof(err));

		if (e >= 0 || strcmp(err, c->msg)) {
			print_error("%s: returned %d\n   got '%s'\n  want '%s'\n", c->name, e, err,
				    c->msg);
			failed++;
		}
		/* whatever a failed parse left behind is freed (valgrind checks) */
		options_free(&o);
	}
	assert_int_equal(failed, 0);
}

static void pid_list_longer_than_max(void **state)
{
	char list[OPT_MAX_PIDS * 8], err[512];
	const char *args[] = { "-p", list, NULL };
	struct options o;
	size_t off = 0;

	for (int i = 1; i <= OPT_MAX_PIDS + 1; i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%d", i > 1 ? "," : "", i);
	assert_int_equal(parse(&o, args, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-p: at most 64 ids; trace fewer, or use -a with --comm");
	options_free(&o);
	/* exactly the maximum is fine */
	*strrchr(list, ',') = 0;
	assert_int_equal(parse(&o, args, err, sizeof(err)), 0);
	assert_int_equal(o.npids, OPT_MAX_PIDS);
	assert_int_equal(o.pids[OPT_MAX_PIDS - 1], OPT_MAX_PIDS);
	options_free(&o);
}

static void path_longer_than_prefix_len(void **state)
{
	char path[DIO_PREFIX_LEN + 1], err[512], want[512];
	const char *args[] = { "-a", "--path", path, NULL };
	struct options o;

	/* DIO_PREFIX_LEN - 1 bytes fit (the kernel side keeps a NUL) */
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	path[DIO_PREFIX_LEN - 1] = 0;
	assert_int_equal(parse(&o, args, err, sizeof(err)), 0);
	assert_int_equal(strlen(o.prefix[0]), DIO_PREFIX_LEN - 1);
	options_free(&o);
	path[DIO_PREFIX_LEN - 1] = 'a';
	path[DIO_PREFIX_LEN] = 0;
	assert_int_equal(parse(&o, args, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "--path: '%.40s...' is longer than %d bytes", path,
		 DIO_PREFIX_LEN - 1);
	assert_string_equal(err, want);
	options_free(&o);
}

static void selection_fills_sel(void **state)
{
	const char *sel_args[] = { "-a", "-e", "trace=%data,fsync", NULL };
	const char *all_args[] = { "-a", NULL };
	const struct dio_syscall *t;
	struct options o;
	char err[512];
	size_t n;

	assert_int_equal(parse(&o, sel_args, err, sizeof(err)), 0);
	assert_int_equal(o.sel[syscall_by_name("read")->nr], 1);
	assert_int_equal(o.sel[syscall_by_name("fsync")->nr], 1);
	assert_int_equal(o.sel[syscall_by_name("openat")->nr], 0);
	options_free(&o);

	/* no selection: every call in the table, and nothing else */
	assert_int_equal(parse(&o, all_args, err, sizeof(err)), 0);
	t = syscall_table(&n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(o.sel[t[i].nr], 1);
	{
		size_t count = 0;

		for (size_t i = 0; i < DIO_NR_MAX; i++)
			count += o.sel[i];
		assert_int_equal(count, n);
	}
	options_free(&o);
}

/* --format json writes to -o's file, whatever its name holds */
static void json_output_file_name_with_comma(void **state)
{
	char *argv[] = { "dump", "run.dio", "-o", "/tmp/a,b=c:d.json", "--format", "json", NULL };
	const char *trace = NULL;
	struct options o;
	char err[512] = "", got[1024];

	options_init(&o);
	assert_int_equal(cli_parse_replay(6, argv, &o, NULL, &trace, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_string_equal(trace, "run.dio");
	options_dump(&o, got, sizeof(got));
	assert_string_equal(got, "output=/tmp/a,b=c:d.json sinks=json{file=/tmp/a,b=c:d.json@command line}");
	options_free(&o);
}

static void help_returns_1_and_wins_over_errors(void **state)
{
	const char *args[] = { "--bogus", "-C", "/nonexistent/dio.conf", "-h", NULL };
	const char *after_cmd[] = { "ls", "-h", NULL };
	struct options o;
	char err[512];
	FILE *saved = stdout;

	/* the text itself is checked below; keep the test output clean */
	stdout = fopen("/dev/null", "w");
	assert_non_null(stdout);
	assert_int_equal(parse(&o, args, err, sizeof(err)), 1);
	fclose(stdout);
	stdout = saved;
	options_free(&o);
	/* -h after the command is the command's */
	assert_int_equal(parse(&o, after_cmd, err, sizeof(err)), 0);
	assert_string_equal(o.argv[1], "-h");
	options_free(&o);
}

/* --help lines wider than a terminal, each said */
static int wide_lines(const char *text)
{
	int failed = 0;

	for (const char *line = text, *nl; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		/* the configured config path is as long as the install prefix makes it */
		if (nl - line >= 80 && !memmem(line, nl - line, SYSCONFDIR, strlen(SYSCONFDIR))) {
			print_error("--help line of %d columns: %.*s\n", (int)(nl - line),
				    (int)(nl - line), line);
			failed++;
		}
		if (!*nl)
			break;
	}
	return failed;
}

/* the options of dio trace, the examples of cmd; problems counted */
static int check_help(const char *cmd, const char *const *extra, size_t nextra)
{
	static const char *const words[] = {
		"--pid", "--all", "--tid", "--comm", "--cgroup", "--path", "--exclude-path",
		"--only-files", "-e trace=", "--syscalls", "--mode", "--hash", "--hash-bytes",
		"--capture-data", "--ring-size", "--drain-ms", "--wakeup-at", "--tag-table",
		"--inflight-table",
		"--no-iouring", "--attach", "--duration", "--output", "-tt", "-ttt", "-T",
		"--quiet", "--no-details", "--analyzer", "--sink", "--no-summary", "--config",
		"--help", "Examples:", "--level", "--max-size", "--rotate", "--stats",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int failed = 0;

	cli_usage(f, cmd);
	fclose(f);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]) + nextra; i++) {
		const char *w = i < sizeof(words) / sizeof(words[0]) ? words[i] :
			extra[i - sizeof(words) / sizeof(words[0])];

		if (!strstr(text, w)) {
			print_error("dio %s --help does not mention '%s'\n", cmd, w);
			failed++;
		}
	}
	/* a switch for bench/overhead.sh, not for users */
	if (strstr(text, "--bench-floor")) {
		print_error("dio %s --help mentions --bench-floor\n", cmd);
		failed++;
	}
	failed += wide_lines(text);
	free(text);
	return failed;
}

static void help_names_every_option_and_has_examples(void **state)
{
	static const char *const trace[] = { "usage: dio trace", "dio trace -- ",
					     "-p 1234,1240", "events, findings, summary to FILE" };
	static const char *const record[] = { "usage: dio record -o FILE", "dio record -o run.dio",
					      "the trace file to write", "dio dump run.dio",
					      "--print" };

	(void)state;
	assert_int_equal(check_help("trace", trace, 4), 0);
	assert_int_equal(check_help("record", record, 5), 0);
}

/* dio top: its own options, the filters it shares with trace, and its mistakes */
static int parse_top(struct options *o, struct top_args *t, const char *const *args, char *err,
		     size_t errlen)
{
	char *argv[MAX_ARGS + 2] = { "top" };
	int argc = 1;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	options_init(o);
	return cli_parse_top(argc, argv, o, t, err, errlen);
}

static void top_options_reach_their_fields(void **state)
{
	const char *dflt[] = { "-a", NULL };
	const char *all[] = { "-b", "-d", "2.5", "-n", "3", "--sort", "bytes", "-S", "--tid", "7",
			      "--path", "/srv", "-e", "trace=pread64", "--no-runq", "--", "ls",
			      NULL };
	const char *longs[] = { "--batch", "--delay=0.5", "--iterations", "9", "--sort=time",
				"--cumulative", "-p", "42", NULL };
	struct top_args t;
	struct options o;
	char err[512];

	(void)state;
	assert_int_equal(parse_top(&o, &t, dflt, err, sizeof(err)), 0);
	assert_int_equal(t.batch, 0);
	assert_true(t.delay == 1);
	assert_int_equal(t.iterations, 0);
	assert_int_equal(t.sort, TOP_SORT_CALLS);
	assert_int_equal(t.cumulative, 0);
	assert_int_equal(o.trace_all, 1);
	options_free(&o);

	assert_int_equal(parse_top(&o, &t, all, err, sizeof(err)), 0);
	assert_int_equal(t.batch, 1);
	assert_true(t.delay == 2.5);
	assert_int_equal(t.iterations, 3);
	assert_int_equal(t.sort, TOP_SORT_BYTES);
	assert_int_equal(t.cumulative, 1);
	assert_int_equal(o.ntids, 1);
	assert_int_equal(o.tids[0], 7);
	assert_int_equal(o.nprefix, 1);
	assert_string_equal(o.prefix[0], "/srv");
	assert_int_equal(o.sel[17], 1);	/* pread64 */
	assert_int_equal(o.sel[0], 0);	/* read */
	assert_int_equal(o.runq, 0);
	assert_int_equal(o.duration == 0, 1);	/* -d is the delay, not trace's duration */
	assert_string_equal(o.argv[0], "ls");
	options_free(&o);

	assert_int_equal(parse_top(&o, &t, longs, err, sizeof(err)), 0);
	assert_int_equal(t.batch, 1);
	assert_true(t.delay == 0.5);
	assert_int_equal(t.iterations, 9);
	assert_int_equal(t.sort, TOP_SORT_TIME);
	assert_int_equal(t.cumulative, 1);
	assert_int_equal(o.npids, 1);
	options_free(&o);
}

static void top_mistakes_have_their_message(void **state)
{
	static const struct err_case cases[] = {
		{ "delay_zero", { "-a", "-d", "0" },
		  "-d 0: give the seconds between frames, 0.05 to 86400, e.g. -d 2" },
		{ "delay_word", { "-a", "-d", "soon" },
		  "-d soon: give the seconds between frames, 0.05 to 86400, e.g. -d 2" },
		{ "iterations_zero", { "-a", "-n", "0" },
		  "-n 0: give the number of frames, 1 or more, e.g. -n 5" },
		{ "iterations_word", { "-a", "-n", "x" },
		  "-n x: give the number of frames, 1 or more, e.g. -n 5" },
		{ "sort_unknown", { "-a", "--sort", "size" }, "--sort size: use calls, bytes or time" },
		{ "trace_only_option", { "-a", "--analyzer", "all" },
		  "--analyzer is an option of dio trace, not of dio top; see 'dio top --help'" },
		{ "trace_duration", { "-a", "--duration", "3" },
		  "unknown option '--duration'; see 'dio top --help'" },
		{ "trace_short_option", { "-a", "-q" }, "unknown option '-q'; see 'dio top --help'" },
		{ "nothing_to_count", { "-b" },
		  "nothing to trace: give a command after --, -p PID or -a" },
		{ "filter_checked_as_trace", { "-a", "--path", "rel" },
		  "--path: 'rel' is not an absolute path (start it with /)" },
	};
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct top_args t;
		struct options o;
		char err[512] = "";
		int e = parse_top(&o, &t, cases[i].args, err, sizeof(err));

		if (e != -EINVAL || strcmp(err, cases[i].msg)) {
			print_error("%s: returned %d '%s'\n  want '%s'\n", cases[i].name, e, err,
				    cases[i].msg);
			failed++;
		}
		options_free(&o);
	}
	assert_int_equal(failed, 0);
}

static void top_help_names_every_option(void **state)
{
	static const char *const words[] = {
		"usage: dio top", "--pid", "--all", "--tid", "--comm", "--cgroup", "--path",
		"--exclude-path", "--only-files", "-e trace=", "--syscalls", "--mode", "--attach",
		"--tag-table", "--inflight-table", "--no-block", "--no-runq", "--batch", "--delay",
		"--iterations", "--sort calls|bytes|time", "--cumulative", "--config", "--help",
		"Examples:", "dio top -b",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int failed = 0;

	(void)state;
	cli_top_usage(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strstr(text, words[i])) {
			print_error("dio top --help does not mention '%s'\n", words[i]);
			failed++;
		}
	failed += wide_lines(text);
	free(text);
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_option_reaches_its_field),
		cmocka_unit_test(every_mistake_has_its_message),
		cmocka_unit_test(pid_list_longer_than_max),
		cmocka_unit_test(path_longer_than_prefix_len),
		cmocka_unit_test(selection_fills_sel),
		cmocka_unit_test(json_output_file_name_with_comma),
		cmocka_unit_test(help_returns_1_and_wins_over_errors),
		cmocka_unit_test(help_names_every_option_and_has_examples),
		cmocka_unit_test(top_options_reach_their_fields),
		cmocka_unit_test(top_mistakes_have_their_message),
		cmocka_unit_test(top_help_names_every_option),
	};

	/* no system config file may leak into these tests */
	setenv("DIO_CONFIG", "", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
