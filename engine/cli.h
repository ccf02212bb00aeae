/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line parsing for `dio trace` (and `dio` with trace options). */
#ifndef DIO_ENGINE_CLI_H
#define DIO_ENGINE_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "options.h"

/*
 * Parse trace options from argv[0..argc) (argv[0] is the subcommand name or
 * the program name). The config file is read first when -C is given or
 * /etc/dio/dio.conf (SYSCONFDIR) exists, then the command line overrides it.
 * Returns 0 to run, 1 when --help was printed (exit 0), -EINVAL with a one-line
 * message in err for bad input.
 */
int cli_parse_trace(int argc, char **argv, struct options *o, char *err, size_t errlen);
/* Which module lists the command line named (their config file's lists are then gone) */
struct cli_given {
	int sink, analyzer;
};

/* A command's change to the spec the command line made: 0 or -errno with a message */
struct cli_edit {
	int (*edit)(struct options *o, const struct cli_given *g, const void *ud, char *err,
		    size_t errlen);
	const void *ud;
};

/*
 * dio dump / dio analyze FILE [-o OUT] [-t|-tt|-ttt] [-T] [-q] [--no-details]
 * [--analyzer ...] [--sink ...] [--no-summary] [-C FILE]; argv[0] is the
 * command's name. edit (may be NULL) runs once the command line is read,
 * before --format json adds its sink. *trace points into argv. 0, or -errno
 * with a message in err.
 */
int cli_parse_replay(int argc, char **argv, struct options *o, const struct cli_edit *edit,
		     const char **trace, char *err, size_t errlen);
/* dio trace's --help (cmd "trace") or dio record's ("record"), made of the option table */
void cli_usage(FILE *f, const char *cmd);
/* The --help lines of a command's own rows, in their order */
void cli_help(FILE *f, const struct opt_def *rows, size_t n);

#define DIFF_MIN_CALLS	100	/* --min-calls by default */

/* dio diff's own settings; --analyzer, --srcroot, --fail-on, --suppress and -C go to options */
struct diff_args {
	const char *file[2];	/* A and B, pointing into argv */
	const char *output;	/* -o FILE, into argv; NULL: standard output */
	int json;		/* --format json */
	long regress_pct;	/* --fail-on-regress PCT; -1: not given */
	long min_calls;		/* --min-calls N */
};

/*
 * dio diff A B [-o FILE] [--format text|json] [--fail-on-regress PCT]
 * [--min-calls N] [--analyzer NAME ...] [--srcroot DIR] [--fail-on LEVEL]
 * [--suppress FILE] [-C FILE]; argv[0] is "diff". Without --analyzer, every
 * analyzer. The config's sinks, output and baseline are dropped. 0, 1 when
 * --help was given (the caller prints it), or -errno with a one-line message
 * in err.
 */
int cli_parse_diff(int argc, char **argv, struct options *o, struct diff_args *d, char *err,
		   size_t errlen);

/* dio top's own settings; its filters go to options */
enum top_sort { TOP_SORT_CALLS = 0, TOP_SORT_BYTES, TOP_SORT_TIME };

struct top_args {
	int batch;		/* -b: plain lines, frame after frame, no screen control */
	double delay;		/* -d SECONDS between frames, default 1 */
	long iterations;	/* -n COUNT frames, 0: until stopped */
	enum top_sort sort;	/* --sort calls|bytes|time */
	int cumulative;		/* -S: totals since the start, not the last interval */
};

/*
 * dio top [-b] [-d SECONDS] [-n COUNT] [--sort calls|bytes|time] [-S] and
 * dio trace's filters (-p, -a, --tid, --comm, --cgroup, --path,
 * --exclude-path, --only-files, -e/--syscalls, --mode, --attach, --no-block,
 * --no-runq, -C) [--] [COMMAND ARGS]; argv[0] is "top". Returns 0 to run, 1
 * when --help was printed, -EINVAL with a one-line message in err.
 */
int cli_parse_top(int argc, char **argv, struct options *o, struct top_args *t, char *err,
		  size_t errlen);

/* The own options of dio diff (in struct diff_args) and dio top (in struct top_args) */
extern const struct opt_def cli_diff_opts[], cli_top_opts[];
extern const size_t cli_diff_nopts, cli_top_nopts;
void cli_top_usage(FILE *f);

#endif
