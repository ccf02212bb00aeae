// SPDX-License-Identifier: GPL-2.0-or-later
/* dio trace: the calls of a command, processes or the system, live, through the modules */
#include <stdio.h>
#include "cmd/cmd.h"
#include "engine/live.h"
#include "engine/options.h"
#include "engine/probe.h"
#include "engine/selfstats.h"
#include "engine/session.h"
#include "engine/util.h"

int cmd_trace_args(int argc, char **argv, struct options *o, int *code)
{
	char err[1024];
	int e = cli_parse_trace(argc, argv, o, err, sizeof(err));

	if (e == 1) {
		*code = 0;
		return 1;
	}
	if (e) {
		die_msg("%s", err);
		*code = 2;
		return 1;
	}
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct options o;
	struct session *s;
	char err[1024];
	int code;

	options_init(&o);
	if (cmd_trace_args(argc, argv, &o, &code)) {
		options_free(&o);
		return code;
	}
	/* before loading anything: a user without privileges learns that first */
	if (probe__check_machine(err, sizeof(err))) {
		die_msg("%s", err);
		options_free(&o);
		return 1;
	}
	s = session__new(&o, err, sizeof(err));
	if (!s) {
		if (*err)	/* empty: a module said why */
			die_msg("%s", err);
		options_free(&o);
		return 1;
	}
	code = live__trace(s);
	if (session__selfstats(s))
		selfstats__print(session__selfstats(s), stderr);
	session__free(s);
	options_free(&o);
	return code;
}
