/* SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause) */
/*
 * Record source modules: where dio dump/analyze --from SCHEME:... read a
 * recorded session from, other than a trace file. A module exports the
 * const struct dio_source `dio_source`, beside its `dio_sink` when it is
 * one module with a sink (clickhouse writes sessions and reads them back).
 *
 * dio finds the module of "SCHEME:..." by its scheme: the module file of
 * that name on the sinks' search path (dio list sinks), whose descriptor
 * must say the same scheme. The records a source gives are checked by the
 * host as dio/event.h says, as a trace file's are.
 */
#ifndef DIO_SOURCE_H
#define DIO_SOURCE_H

#include <dio/plugin.h>

#define DIO_SOURCE_ABI		DIO_PLUGIN_ABI
#define DIO_SOURCE_SYMBOL	"dio_source"

struct dio_source {
	uint32_t abi;		/* DIO_SOURCE_ABI */
	uint32_t size;		/* sizeof(struct dio_source) */
	/* ABI 1 */
	const char *name;
	const char *description;
	const char *scheme;	/* "clickhouse": it opens "clickhouse:..." */
	/*
	 * spec: the whole text the user gave ("clickhouse:url=...,session=...").
	 * The module's state, or NULL with a one-line reason in err (errlen
	 * bytes): what was wrong and what to give instead.
	 */
	void *(*open)(const char *spec, char *err, size_t errlen);
	/*
	 * 1 and the next record in *rec, *size bytes (valid until the next call),
	 * in the order dio first saw them; 0 at the end; -errno when the reading
	 * failed: error() says why, in one line. The records before it count.
	 */
	int (*next)(void *state, const void **rec, size_t *size);
	/* Why next failed, one line; the string is the module's, valid until close. */
	const char *(*error)(void *state);
	/*
	 * What the session says of the run, by the keys of dio_host.info:
	 * "trace" (the source as reports name it, without a password),
	 * "hostname", "boot_id", "command", "session_id", "tracer_pid",
	 * "fstypes"; NULL when it does not say. Valid until close.
	 */
	const char *(*info)(void *state, const char *key);
	/*
	 * A key of the recording's metadata, named as a trace file's are
	 * ("realtime_offset_ns", and the losses by reason: "lost_ringbuf", ...)
	 * into buf (snprintf semantics); 0, or -ENOENT with buf empty.
	 */
	int (*meta)(void *state, const char *key, char *buf, size_t len);
	void (*close)(void *state);
};

#endif /* DIO_SOURCE_H */
