// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio: trace the storage system calls of programs with eBPF, enrich them with
 * what the kernel knows, and run analyzers over the stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "diff.h"
#include "features.h"
#include "findings.h"
#include "options.h"
#include "plugin.h"
#include "probe.h"
#include "replay.h"
#include "selfstats.h"
#include "live.h"
#include "session.h"
#include "syscalls.h"
#include "top.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dio trace [OPTIONS] [--] COMMAND [ARGS...]   trace a command\n"
		"       dio trace [OPTIONS] -p PID[,PID...]          trace running processes\n"
		"       dio trace [OPTIONS] -a                       trace the whole system\n"
		"       dio [OPTIONS] -- COMMAND [ARGS...]           same as dio trace\n"
		"       dio record -o FILE [OPTIONS] [--] COMMAND   record a trace file (also -p, -a)\n"
		"       dio top [-b] [-d SECS] [-n COUNT] [--] COMMAND | -p PID | -a\n"
		"                                                    the busiest processes, threads, files\n"
		"       dio dump FILE [-o OUT] [-t|-tt|-ttt] [-T]    print a recorded trace\n"
		"       dio analyze FILE [--analyzer NAME|all]       run analyzers over a trace file\n"
		"       dio report FILE -o PAGE.html                 one self-contained HTML page of a trace\n"
		"       dio push FILE... --to URL                    send recordings to ClickHouse\n"
		"       dio info FILE                                metadata and counts of a trace file\n"
		"       dio diff A.dio B.dio [--format json]         what changed from one recording to another\n"
		"       dio list analyzers|rules|sinks|syscalls|features\n"
		"                                                    "
		"what this dio (and kernel) offers\n"
		"       dio --version\n"
		"\n"
		"See 'dio trace --help' for the options and examples, 'dio top --help' for top's.\n");
}

static const char *class_names(unsigned int cls, char *buf, size_t len)
{
	static const struct { unsigned int bit; const char *name; } names[] = {
		{ SC_DATA, "%data" }, { SC_SYNC, "%sync" }, { SC_META, "%meta" },
		{ SC_DIR, "%dir" }, { SC_XATTR, "%xattr" }, { SC_ASYNC, "%async" },
	};
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (cls & names[i].bit)
			off += snprintf(buf + off, off < len ? len - off : 0, "%s%s", off ? "," : "",
					names[i].name);
	return buf;
}

static int cmd_list(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : NULL;

	if (what && !strcmp(what, "syscalls")) {
		size_t n;
		const struct dio_syscall *t = syscall_table(&n);
		char cls[64];

		for (size_t i = 0; i < n; i++)
			printf("%-18s %3u  %s\n", t[i].name, t[i].nr,
			       class_names(t[i].cls, cls, sizeof(cls)));
		return 0;
	}
	if (what && !strcmp(what, "analyzers")) {
		if (!plugin__list(PLUGIN_ANALYZER, stdout))
			fprintf(stderr, "dio: no analyzers found (set DIO_ANALYZER_PATH?)\n");
		return 0;
	}
	if (what && !strcmp(what, "rules")) {
		if (!plugin__list_rules(stdout, findings_host_rules))
			fprintf(stderr, "dio: no analyzers found (set DIO_ANALYZER_PATH?)\n");
		return 0;
	}
	if (what && !strcmp(what, "sinks")) {
		if (!plugin__list(PLUGIN_SINK, stdout))
			fprintf(stderr, "dio: no sinks found (set DIO_SINK_PATH?)\n");
		return 0;
	}
	if (what && !strcmp(what, "features")) {
		struct features f;
		char err[512];

		if (features__probe(&f, err, sizeof(err))) {
			die_msg("%s", err);
			return 1;
		}
		features__print(&f, stdout);
		return 0;
	}
	die_msg("list what? use 'dio list analyzers', 'dio list rules', 'dio list sinks', "
		"'dio list syscalls' or 'dio list features'");
	return 2;
}

static int cmd_trace(int argc, char **argv)
{
	struct options o;
	struct session *s;
	char err[1024];
	int code;

	options_init(&o);
	if (cli_trace_args(argc, argv, &o, &code)) {
		options_free(&o);
		return code;
	}
	/* before loading anything: a user without privileges learns that first */
	if (probe__check_machine(err, sizeof(err))) {
		die_msg("%s", err);
		options_free(&o);
		return 1;
	}
	s = session__new(&o, err, sizeof(err));
	if (!s) {
		if (*err)	/* empty: a module said why */
			die_msg("%s", err);
		options_free(&o);
		return 1;
	}
	code = live__trace(s);
	if (session__selfstats(s))
		selfstats__print(session__selfstats(s), stderr);
	session__free(s);
	options_free(&o);
	return code;
}

/*
 * A closed standard fd would be the first one an open() returns: the trace
 * file would land on fd 2 and take the summary table. Hold 0, 1 and 2 on
 * /dev/null when they are closed, as coreutils and strace do.
 */
static int keep_stdio_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (n != fd) {
			if (n >= 0)
				close(n);
			return -1;
		}
	}
	return 0;
}

static int run_command(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("dio %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "trace"))
		return cmd_trace(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "top"))
		return top_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "analyze"))
		return cmd_analyze(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "push"))
		return cmd_push(argc - 1, argv + 1);
	if (!strcmp(argv[1], "info"))
		return cmd_info(argc - 1, argv + 1);
	if (!strcmp(argv[1], "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return cmd_trace(argc, argv);
	die_msg("unknown command '%s'; use 'dio trace', 'dio record', 'dio top', 'dio dump', 'dio analyze', 'dio report', 'dio push', 'dio info', 'dio diff', 'dio list' or see 'dio --help'", argv[1]);
	return 2;
}

/*
 * What a command printed must have reached its output: a full disk or
 * /dev/full is a failure, not a success with a cut table.
 */
int main(int argc, char **argv)
{
	int code;

	if (keep_stdio_open())
		return 1;	/* nowhere to say it: stderr is what could not be opened */
	code = run_command(argc, argv);
	errno = 0;
	/* a command that failed has said why already */
	if ((fflush(stdout) || ferror(stdout)) && !code) {
		die_msg("writing to standard output failed: %s", strerror(errno ? errno : EIO));
		code = 1;
	}
	return code;
}
