/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A session the clickhouse sink stored, read back as records in the order dio
 * saw them (dio analyze --from clickhouse:url=URL,session=ID).
 */
#ifndef DIO_CHSOURCE_H
#define DIO_CHSOURCE_H

#include <stddef.h>
#include <stdint.h>

struct chsource;

/*
 * spec: "clickhouse:url=...,session=...[,database=,table_prefix=,user=,timeout_s=]";
 * NULL with err set. The rows are streamed: a few MiB in memory whatever the
 * session's size; a server that sends nothing for timeout_s (30) is given up.
 */
struct chsource *chsource__open(const char *spec, char *err, size_t errlen);
/*
 * 1 and the next record (valid until the next call), 0 at the end; -EINVAL
 * if a row is malformed, -EIO or -ETIMEDOUT if the server failed: then
 * chsource__error says why, in one line.
 */
int chsource__next(struct chsource *s, const void **rec, size_t *size);
const char *chsource__error(const struct chsource *s);
/*
 * what the session's row says: "hostname", "boot_id", "command", "session_id",
 * "tracer_pid" and "fstypes" (NULL when the row does not say); and "trace",
 * the source as reports name it (the URL without a password)
 */
const char *chsource__info(const struct chsource *s, const char *key);
/*
 * A key of the session row's info (schema 2: tracer_pid, fstypes, the losses
 * by reason as a trace file's metadata names them) into buf; 0, or -ENOENT
 * with buf empty.
 */
int chsource__meta(const struct chsource *s, const char *key, char *buf, size_t len);
int64_t chsource__realtime_off(const struct chsource *s);
void chsource__close(struct chsource *s);

/* the largest record chsource__row makes */
#define CHSOURCE_REC_MAX	(8 * 1024 + 512)
/*
 * The RowBinary row at in (len bytes) of record table k (0 calls, 1 paths,
 * 2 procs, 3 block, 4 runq) as a record into out (outlen bytes, at least
 * CHSOURCE_REC_MAX), times less realtime_off; its bytes in *used, its record
 * number in *rec. The record's size; -EAGAIN when the row goes on past len;
 * -EINVAL when it is no row dio writes. (For the fuzzer: whatever in holds.)
 */
long chsource__row(unsigned int k, const unsigned char *in, size_t len, int64_t realtime_off,
		   void *out, size_t outlen, uint64_t *rec, size_t *used);

#endif /* DIO_CHSOURCE_H */
