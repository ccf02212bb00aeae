// SPDX-License-Identifier: GPL-2.0-or-later
/* dio list analyzers|rules|sinks|syscalls|features: what this dio (and kernel) offers */
#include <stdio.h>
#include <string.h>
#include "cmd/cmd.h"
#include "engine/features.h"
#include "engine/findings.h"
#include "engine/plugin.h"
#include "engine/syscalls.h"
#include "engine/util.h"

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

int cmd_list(int argc, char **argv)
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
