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

/* dio trace's --help (cmd "trace") or dio record's ("record"), made of the option table */
void cli_usage(FILE *f, const char *cmd);
/* The --help lines of a command's own rows, in their order */
void cli_help(FILE *f, const struct opt_def *rows, size_t n);

/* How a command reads its command line. */
struct cli_cmd {
	unsigned int cmd;		/* the CMD_* whose rows it takes */
	unsigned int knows;		/* the CMD_* whose rows it knows, to refuse them by name */
	const char *refuse;		/* its refusal after "--NAME "; NULL: the row's why_not */
	const struct opt_def *own;	/* its own rows (their fields in own_base), first */
	size_t nown;
	void *own_base;
	int in_order;			/* options end at the first argument: a command follows */
	int help_stops;			/* cli_read: -h/--help returns 1 before anything is read */
	/* cli_read: what the command drops of the config file's values, before its options */
	void (*after_config)(struct options *o);
};

/*
 * A tracing command's command line: -C and --help (usage printed on
 * stdout) first, the config file, then every option, and the checks of
 * options_finish. 0 to run, 1 after --help, or -errno with a message.
 */
int cli_parse_tracing(const struct cli_cmd *c, int argc, char **argv,
		      void (*usage)(FILE *f, const char *cmd), struct options *o, char *err,
		      size_t errlen);
/*
 * Any other command's: -C and (with help_stops) --help first, the config
 * file, c->after_config, then every option of argv; optind is left at the
 * first argument that is not one. g (may be NULL) says which module lists
 * the command line named. 0, 1 after --help, or -errno with a message.
 */
int cli_read(const struct cli_cmd *c, int argc, char **argv, struct options *o,
	     struct cli_given *g, char *err, size_t errlen);
/* The --help lines of the table's rows from..end that the commands cmds take */
void cli_help_rows(FILE *f, const struct opt_def *from, const struct opt_def *end,
		   unsigned int cmds);

#endif
