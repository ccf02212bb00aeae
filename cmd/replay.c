// SPDX-License-Identifier: GPL-2.0-or-later
/* dio dump and dio analyze: a recorded session (a trace file or ClickHouse's) replayed */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "engine/options.h"
#include "engine/replay.h"
#include "engine/sources.h"
#include "engine/spec.h"
#include "engine/syscalls.h"
#include "engine/util.h"

static void replay_usage(const char *cmd)
{
	if (!strcmp(cmd, "dump"))
		printf("usage: dio dump FILE [-o OUT] [-t|-tt|-ttt] [-T] [--no-details] [--sink NAME[:k=v,...]]\n"
		       "                     [-p|--pid PID,...] [--tid TID,...] [--comm NAME] [--path PREFIX]\n"
		       "                     [--exclude-path PREFIX] [-e trace=SPEC|--syscalls SPEC]\n"
		       "                     [--since S] [--until S] [--format text|json]\n"
		       "  print a recorded trace as dio trace prints it live (to stdout, or OUT);\n"
		       "  --since/--until: seconds after the trace's first record;\n"
		       "  --format json: one JSON object per line (docs/json-schema.md)\n"
		       "example: dio dump run.dio --comm rocksdb:low -e trace=%%data --since 2 --until 3\n");
	else
		printf("usage: dio analyze FILE [--analyzer NAME[:k=v,...]|all] [--sink NAME[:k=v,...]]\n"
		       "                        [--no-summary] [-o OUT] [-q] [-t|-tt|-ttt] [-T] [-C FILE]\n"
		       "                        [--hints] [the filters of dio dump]\n"
		       "  run analyzers over a recorded trace: the findings dio trace would have given;\n"
		       "  -q (default) shows findings and the summary only (--sink console:events=true: the calls too)\n"
		       "example: dio analyze run.dio --analyzer all\n");
}

/* the config's targets and filters are for tracing; here the command line filters */
static void replay_config(struct options *o)
{
	o->npids = o->ntids = 0;
	o->comm[0] = 0;
	options_clear_list(o, "path");
	options_clear_list(o, "exclude-path");
	free(o->syscalls);
	o->syscalls = NULL;
	o->since = o->until = -1;
}

int cli_parse_replay(int argc, char **argv, struct options *o, const struct cli_edit *edit,
		     const char **trace, char *err, size_t errlen)
{
	/* no in_order: options may follow the trace file (dio analyze run.dio --analyzer x) */
	static const struct cli_cmd c = { .cmd = CMD_REPLAY, .after_config = replay_config };
	struct cli_given g;
	int e = cli_read(&c, argc, argv, o, &g, err, errlen);

	if (e)
		return e;
	memset(o->sel, 1, sizeof(o->sel));
	if (o->syscalls) {
		e = syscalls_select(o->syscalls, o->sel, err, errlen);
		if (e)
			return e;
	}
	/* the command's own modules (dio report's page, dio push's server) */
	if (edit) {
		e = edit->edit(o, &g, edit->ud, err, errlen);
		if (e)
			return e;
	}
	/* --format json: the json sink in the console's place, on the same output */
	if (o->json) {
		e = spec__json(o, err, errlen);
		if (e)
			return e;
	}
	if (optind != argc - 1) {
		snprintf(err, errlen, "%s: give exactly one trace file (dio %s run.dio)", argv[0],
			 argv[0]);
		return -EINVAL;
	}
	*trace = argv[optind];
	return 0;
}

int cmd_replay(int argc, char **argv, int analyze, const struct cli_edit *edit)
{
	struct options o;
	const char *path = NULL;
	char err[1024];
	int code;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			replay_usage(argv[0]);
			return 0;
		}
	}
	options_init(&o);
	/* dump: every call, no summary; analyze: findings and the summary */
	o.no_summary = !analyze;
	o.quiet = analyze;
	o.findings_only = analyze == 2;
	if (cli_parse_replay(argc, argv, &o, edit, &path, err, sizeof(err))) {
		die_msg("%s", err);
		options_free(&o);
		return 2;
	}
	/* the output is the command's own, not a side channel as in dio trace */
	if (!o.output) {
		o.output = strdup("-");
		o.output_implied = 1;
	}
	if (sources__is_scheme(path))
		code = replay__source(&o, path);
	else
		code = replay__file(&o, path);
	options_free(&o);
	return code;
}

/* --from SOURCE stands for the trace file: dio analyze --from clickhouse:url=...,session=... */
static int replay_from_arg(int argc, char **argv, int analyze)
{
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	int n = 0, code;

	if (!av) {
		die_msg("out of memory");
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc)
			av[n++] = argv[++i];
		else if (!strncmp(argv[i], "--from=", 7))
			av[n++] = argv[i] + 7;
		else
			av[n++] = argv[i];
	}
	code = cmd_replay(n, av, analyze, NULL);
	free(av);
	return code;
}

int cmd_dump(int argc, char **argv)
{
	return replay_from_arg(argc, argv, 0);
}

int cmd_analyze(int argc, char **argv)
{
	return replay_from_arg(argc, argv, 1);
}
