/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recorded session read back through the pipeline: a trace file, or a source module's. */
#ifndef DIO_ENGINE_REPLAY_H
#define DIO_ENGINE_REPLAY_H

struct options;
struct session;
struct tf_reader;

/*
 * A session over the trace r (read from path), set up as the recording was:
 * --hash user with its captured bytes (o is changed to say so), the wall
 * clock, and the facts reports name (the trace, its host and command). NULL
 * after saying why.
 */
struct session *replay_session(struct options *o, struct tf_reader *r, const char *path);
/*
 * Dispatch every record of r to s, then finish (session__finish), with the
 * losses the recording counted. Returns dio's exit status (0, 1 when a
 * module or the reading failed, or DIO_EXIT_FINDINGS).
 */
int replay__run(struct session *s, struct tf_reader *r);
/* The same over records from elsewhere (dio analyze --from); what: for messages. */
int replay__run_from(struct session *s, int (*next)(void *ud, const void **rec, size_t *size),
		     void *ud, const char *what);

/*
 * The trace file path through a session of o, filtered by o's --pid, --tid,
 * --comm, --path, --exclude-path, --syscalls, --since and --until. Returns
 * dio's exit status (1 also when records were damaged or refused).
 */
int replay__file(struct options *o, const char *path);
/*
 * The session a source module reads (spec: SCHEME:..., such as
 * clickhouse:url=...,session=...; sources.h), the same way.
 */
int replay__source(struct options *o, const char *spec);

#endif
