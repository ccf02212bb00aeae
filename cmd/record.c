// SPDX-License-Identifier: GPL-2.0-or-later
/* dio record: dio trace's session written to a trace file (the writing is engine/recorder.c) */
#include <stdlib.h>
#include "cmd/cmd.h"
#include "engine/options.h"
#include "engine/recorder.h"
#include "engine/util.h"

int cmd_record(int argc, char **argv)
{
	struct options o;
	char *path;
	int code = 1;

	options_init(&o);
	if (cmd_trace_args(argc, argv, &o, &code)) {
		options_free(&o);
		return code;
	}
	if (!o.output) {
		die_msg("dio record: name the trace file with -o FILE (e.g. dio record -o run.dio -- CMD)");
		options_free(&o);
		return 2;
	}
	if (o.rotate && !o.max_size && !o.rotate_every) {
		die_msg("dio record: --rotate N needs --max-size SIZE or --rotate-every SECONDS "
			"(e.g. --max-size 100M --rotate 10)");
		options_free(&o);
		return 2;
	}
	/* -o names the trace file here; the console shows the summary (and with
	 * --print the calls) */
	path = o.output;
	o.output = NULL;
	o.quiet = o.quiet || !o.print;
	code = recorder__run(&o, path, argc, argv);
	free(path);
	options_free(&o);
	return code;
}
