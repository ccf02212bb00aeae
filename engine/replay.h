/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dio record, dump, analyze, info: argv starts at the command's name; return dio's exit status. */
#ifndef DIO_ENGINE_REPLAY_H
#define DIO_ENGINE_REPLAY_H

int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_info(int argc, char **argv);

struct options;
struct session;
struct tf_reader;

/* Open a trace for reading; NULL after printing the one-line reason. */
struct tf_reader *replay_open(const char *path);
/*
 * A session over the trace r (read from path), set up as the recording was:
 * --hash user with its captured bytes (o is changed to say so), the wall
 * clock, and the facts reports name (the trace, its host and command). NULL
 * after saying why.
 */
struct session *replay_session(struct options *o, struct tf_reader *r, const char *path);
/* The reader's damage report, as a warning; returns 1 when anything was skipped. */
int replay_damage(const char *path, const struct tf_reader *r);
/*
 * Dispatch every record of r to s, then finish (session__finish), with the
 * losses the recording counted. Returns dio's exit status (0, 1 when a
 * module or the reading failed, or DIO_EXIT_FINDINGS).
 */
int replay__run(struct session *s, struct tf_reader *r);
/* The same over records from elsewhere (dio analyze --from); what: for messages. */
int replay__run_from(struct session *s, int (*next)(void *ud, const void **rec, size_t *size),
		     void *ud, const char *what);

#endif
