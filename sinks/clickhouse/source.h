/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The clickhouse module's source (source.c): a session the sink stored,
 * read back as records in the order dio saw them (dio analyze --from
 * clickhouse:url=URL,session=ID[,database=,table_prefix=,user=,timeout_s=]).
 * The rows are streamed: a few MiB in memory whatever the session's size; a
 * server that sends nothing for timeout_s (30) is given up. The module
 * offers it as `dio_source` (dio/source.h); this header is what the fuzzer
 * reaches of it.
 */
#ifndef DIO_CLICKHOUSE_SOURCE_H
#define DIO_CLICKHOUSE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* DIO_CLICKHOUSE_SOURCE_H */
