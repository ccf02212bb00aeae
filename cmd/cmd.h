/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands of the dio program: argv starts at the command's name; each
 * returns dio's exit status. The table of them is in main.c.
 */
#ifndef DIO_CMD_CMD_H
#define DIO_CMD_CMD_H

#include "engine/cli.h"

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

#endif
