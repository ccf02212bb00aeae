/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands of the dio program: argv starts at the command's name; each
 * returns dio's exit status. The table of them is in main.c.
 */
#ifndef DIO_CMD_CMD_H
#define DIO_CMD_CMD_H

#include "engine/cli.h"

struct cli_edit;

int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_list(int argc, char **argv);

/*
 * dio trace's and dio record's command line into o; prints the error
 * itself. 0 to go on; else stop with *code (0 after --help, 2 for a bad
 * command line).
 */
int cmd_trace_args(int argc, char **argv, struct options *o, int *code);
/*
 * dio dump (analyze 0), dio analyze (1), or the findings alone for a sink
 * of the command's own (2, edit adds it; may be NULL), over the trace file
 * or clickhouse: source the command line names.
 */
int cmd_replay(int argc, char **argv, int analyze, const struct cli_edit *edit);

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

/* dio top's own options (in struct top_args) and its --help */
extern const struct opt_def cli_top_opts[];
extern const size_t cli_top_nopts;
void cli_top_usage(FILE *f);

#endif
