/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dio record, dump, analyze, info: argv starts at the command's name; return dio's exit status. */
#ifndef DIO_ENGINE_REPLAY_H
#define DIO_ENGINE_REPLAY_H

int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_info(int argc, char **argv);

#endif
