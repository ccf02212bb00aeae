// SPDX-License-Identifier: GPL-2.0-or-later
/* dio report: one self-contained HTML page of a recorded trace */
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

/* dio report: the html sink writing the page, every analyzer unless named, no summary */
static int report_edit(struct options *o, const struct cli_given *g, const void *ud, char *err,
		       size_t errlen)
{
	struct plugin_sel *s = spec__own_sink(o, "html", g->sink, err, errlen);
	int e = s ? spec__set(s, "file", ud, err, errlen) : -EINVAL;

	o->no_summary = 1;
	return e ? e : spec__all_analyzers(o, g->analyzer, err, errlen);
}

/*
 * dio report FILE -o PAGE [options of dio analyze]: dio analyze with every
 * analyzer (unless --analyzer names some) and the html sink writing PAGE in
 * the console's place, without the summary's tables.
 */
int cmd_report(int argc, char **argv)
{
	const char *page = NULL;
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	struct cli_edit edit = { .edit = report_edit };
	int n = 0, code;

	if (!av) {
		die_msg("out of memory");
		return 1;
	}
	av[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: dio report FILE -o PAGE.html [--analyzer NAME[:k=v,...]|all] [-C FILE]\n"
			       "                       [--fail-on LEVEL] [the filters of dio dump]\n"
			       "  write one self-contained HTML page of a recorded trace: overview, findings\n"
			       "  with their evidence, a timeline of threads, block requests and run-queue\n"
			       "  waits, files, offsets over time, I/O rate by thread group, the system call\n"
			       "  mix, latency histograms and threads; it loads nothing from elsewhere\n"
			       "example: dio report run.dio -o run.html\n");
			free(av);
			return 0;
		}
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
			page = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--output=", 9)) {
			page = argv[i] + 9;
			continue;
		}
		if (!strncmp(argv[i], "-o", 2) && argv[i][2]) {
			page = argv[i] + 2;
			continue;
		}
		av[n++] = argv[i];
	}
	if (!page || !*page) {
		die_msg("report: give the page to write: dio report run.dio -o run.html");
		free(av);
		return 2;
	}
	edit.ud = page;
	code = cmd_replay(n, av, 2, &edit);
	if (code == 0 || code == DIO_EXIT_FINDINGS)
		fprintf(stderr, "dio: wrote %s\n", page);
	free(av);
	return code;
}
