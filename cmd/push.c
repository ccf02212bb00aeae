// SPDX-License-Identifier: GPL-2.0-or-later
/* dio push: recordings sent to ClickHouse through its sink, with their findings */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/plugin.h>
#include "cmd/cmd.h"
#include "engine/findings.h"
#include "engine/options.h"
#include "engine/spec.h"
#include "engine/util.h"

/* dio push: the clickhouse sink of --to, every analyzer unless named, no summary */
static int push_edit(struct options *o, const struct cli_given *g, const void *ud, char *err,
		     size_t errlen)
{
	int e = spec__push_to(o, ud, g->sink, err, errlen);

	o->no_summary = 1;
	return e ? e : spec__all_analyzers(o, g->analyzer, err, errlen);
}

/*
 * dio push FILE... --to URL[,key=value...] [options of dio analyze]: each
 * recording replayed into the clickhouse sink (origin=push: batches cut by
 * size alone, so the same file gives the same batches, and those already
 * stored are skipped), with every analyzer's findings unless --analyzer
 * names some. Pushing a file twice leaves the tables as one push did.
 */
int cmd_push(int argc, char **argv)
{
	const char *to = NULL;
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	struct cli_edit edit = { .edit = push_edit };
	int n = 0, files = 0, code = 0;
	int *is_file = calloc((size_t)argc + 1, sizeof(*is_file));

	if (!av || !is_file) {
		die_msg("out of memory");
		free(av);
		free(is_file);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: dio push FILE... --to URL[,key=value...] [--analyzer NAME|all] [-C FILE]\n"
			       "                           [the filters of dio dump]\n"
			       "  send recordings to ClickHouse (the clickhouse sink's tables), with their\n"
			       "  findings; pushing a file again sends nothing twice. key=value: the sink's\n"
			       "  options (database=, user=, password_file=, table_prefix=, spool=, ...)\n"
			       "example: dio push run.dio --to http://db1:8123\n");
			free(av);
			free(is_file);
			return 0;
		}
		if (!strcmp(argv[i], "--to") && i + 1 < argc) {
			to = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--to=", 5)) {
			to = argv[i] + 5;
			continue;
		}
		/* the recordings come first, before any option */
		if (argv[i][0] != '-' && files == i - 1) {
			is_file[i] = 1;
			files++;
		}
	}
	if (!to || !*to || !files) {
		die_msg("push: give the recordings and the server: dio push run.dio --to http://HOST:8123");
		free(av);
		free(is_file);
		return 2;
	}
	edit.ud = to;
	for (int f = 1; f < argc; f++) {
		int c;

		if (!is_file[f])
			continue;
		n = 0;
		av[n++] = argv[0];
		av[n++] = argv[f];
		for (int i = 1; i < argc; i++) {
			if (is_file[i] || !strcmp(argv[i], "--to") || !strncmp(argv[i], "--to=", 5) ||
			    (i > 1 && !strcmp(argv[i - 1], "--to")))
				continue;
			av[n++] = argv[i];
		}
		/* the sink says what it sent, or that the server had it all already */
		c = cmd_replay(n, av, 2, &edit);
		if (c != 0 && c != DIO_EXIT_FINDINGS)
			code = c;
	}
	free(av);
	free(is_file);
	return code;
}
