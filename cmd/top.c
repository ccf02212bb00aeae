// SPDX-License-Identifier: GPL-2.0-or-later
/* dio top: the busiest processes, threads and files, counted in the kernel (engine/top.c) */
#include "cmd/cmd.h"
#include "engine/options.h"
#include "engine/top.h"
#include "engine/util.h"

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
