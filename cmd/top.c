// SPDX-License-Identifier: GPL-2.0-or-later
/* dio top: the busiest processes, threads and files, counted in the kernel (engine/top.c) */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cmd/cmd.h"
#include "engine/optdefs.h"
#include "engine/options.h"
#include "engine/top.h"
#include "engine/util.h"

void cli_top_usage(FILE *f)
{
	const struct opt_def *what = opt_defs + 1;

	fputs(
"usage: dio top [OPTIONS] [--] COMMAND [ARGS...]\n"
"       dio top [OPTIONS] -p PID[,PID...] | -a\n"
"\n"
"Show the busiest processes, threads and files by storage calls, bytes and\n"
"time in the calls, with block request latency and run-queue wait per process,\n"
"every second. The kernel counts the calls in maps: no record per call.\n"
"\n"
"What to count (as dio trace):\n", f);
	/* the filters: the first section of dio trace's options */
	while (what < opt_defs + opt_ndefs && !what->section)
		what++;
	cli_help_rows(f, opt_defs, what, CMD_TOP);
	fputs(
"      --mode detailed|raw   raw: no file lookups (no files shown)\n"
"      --attach auto|syscall|raw, --tag-table N, --inflight-table N\n"
"                            as dio trace\n"
"      --no-block, --no-runq no block latency, no run-queue wait\n"
"How to show it:\n", f);
	cli_help(f, cli_top_opts, cli_top_nopts);
	fputs(
"      --stats               at exit, where dio's own time went (as dio trace)\n"
"  -C, --config FILE         config file (its filters apply)\n"
"  -h, --help                this text\n"
"\n"
"Keys on a terminal: c, b, t sort by calls, bytes, time; S cumulative on or off;\n"
"q quits. With a COMMAND, dio top shows a last frame when it exits and exits\n"
"with its status.\n"
"\n"
"Examples:\n"
"  sudo dio top -a\n"
"  sudo dio top -p 1234 --sort bytes\n"
"  sudo dio top -b -n 5 --path /var/lib/postgresql -a\n"
"  sudo dio top -b -S -- ./server\n", f);
}

static int set_sort(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "calls", "bytes", "time" };
	struct top_args *t = base;

	for (int i = 0; i < 3; i++)
		if (!strcmp(v, names[i])) {
			t->sort = i;
			return 0;
		}
	snprintf(err, errlen, "--sort %s: use calls, bytes or time", v);
	return -EINVAL;
}

static int set_delay(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct top_args *t = base;

	if (parse_seconds(v, &t->delay) || t->delay < 0.05 || t->delay > 86400) {
		snprintf(err, errlen, "-d %s: give the seconds between frames, 0.05 to 86400, e.g. -d 2",
			 v);
		return -EINVAL;
	}
	return 0;
}

static int set_iterations(void *base, const struct opt_def *d, const char *v, char *err,
			  size_t errlen)
{
	struct top_args *t = base;

	if (!parse_long(v, 1, 1000000000, &t->iterations))
		return 0;
	snprintf(err, errlen, "-n %s: give the number of frames, 1 or more, e.g. -n 5", v);
	return -EINVAL;
}

#define TOP_FIELD(f)	.off = offsetof(struct top_args, f), \
			.size = sizeof(((struct top_args *)0)->f), .cmds = CMD_TOP

/* dio top's own options; it takes dio trace's filters too (CMD_TOP in the table) */
const struct opt_def cli_top_opts[] = {
	{ .name = "batch", .letter = 'b', .kind = OPT_FLAG, TOP_FIELD(batch), .val = 1,
	  .help = "plain lines, frame after frame (files, pipes)" },
	{ .name = "delay", .letter = 'd', .kind = OPT_CUSTOM, .set = set_delay, TOP_FIELD(delay),
	  .arg = "SECONDS", .help = "between frames (default 1)" },
	{ .name = "iterations", .letter = 'n', .kind = OPT_CUSTOM, .set = set_iterations,
	  TOP_FIELD(iterations), .arg = "COUNT", .help = "stop after COUNT frames" },
	{ .name = "sort", .kind = OPT_CUSTOM, .set = set_sort, TOP_FIELD(sort),
	  .arg = "calls|bytes|time", .help = "order of the rows (default calls)" },
	{ .name = "cumulative", .letter = 'S', .kind = OPT_FLAG, TOP_FIELD(cumulative), .val = 1,
	  .help = "totals since the start instead of the last interval" },
};

const size_t cli_top_nopts = sizeof(cli_top_opts) / sizeof(cli_top_opts[0]);

static void top_usage(FILE *f, const char *cmd)
{
	(void)cmd;
	cli_top_usage(f);
}

/*
 * dio trace's options that do not say what to count are in top's table too,
 * so that they are refused by name
 */
int cli_parse_top(int argc, char **argv, struct options *o, struct top_args *t, char *err,
		  size_t errlen)
{
	const struct cli_cmd c = {
		.cmd = CMD_TOP, .knows = CMD_TRACE | CMD_RECORD,
		.refuse = "is an option of dio trace, not of dio top; see 'dio top --help'",
		.own = cli_top_opts, .nown = cli_top_nopts, .own_base = t, .in_order = 1,
	};

	memset(t, 0, sizeof(*t));
	t->delay = 1;
	return cli_parse_tracing(&c, argc, argv, top_usage, o, err, errlen);
}

int cmd_top(int argc, char **argv)
{
	struct top_args args;
	struct options o;
	char err[1024];
	int code, e;

	options_init(&o);
	e = cli_parse_top(argc, argv, &o, &args, err, sizeof(err));
	if (e) {
		if (e != 1)
			die_msg("%s", err);
		options_free(&o);
		return e == 1 ? 0 : 2;
	}
	/* only paths and process events go through the ring */
	o.count_mode = 1;
	o.iouring = 0;
	o.ring_bytes = 4 << 20;
	/* -d is the delay: a config file's duration is dio trace's */
	o.duration = 0;
	code = top__run(&o, &args);
	options_free(&o);
	return code;
}
