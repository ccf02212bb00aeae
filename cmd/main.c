// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio: trace the storage system calls of programs with eBPF, enrich them with
 * what the kernel knows, and run analyzers over the stream. This file finds
 * the command; each is in a file of its own in cmd/.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "engine/util.h"

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

/* the commands, in the order --help and the unknown command's message name them */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "trace", cmd_trace }, { "record", cmd_record }, { "top", cmd_top },
	{ "dump", cmd_dump }, { "analyze", cmd_analyze }, { "report", cmd_report },
	{ "push", cmd_push }, { "info", cmd_info }, { "diff", cmd_diff }, { "list", cmd_list },
};

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
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
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
