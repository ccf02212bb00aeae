/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tables dio writes into ClickHouse (docs/clickhouse.md), version
 * CH_SCHEMA_VERSION. Every row begins with the same columns: the host, its
 * boot, the session (host->info "session_id"), the batch the row was sent in
 * and its number in its table within the session (together what makes a
 * resent batch recognisable), and a time in ns since the Unix epoch. Times
 * are UInt64 ns: Debian 12's ClickHouse (18.16) has no DateTime64.
 */
#ifndef DIO_CLICKHOUSE_SCHEMA_H
#define DIO_CLICKHOUSE_SCHEMA_H

#define CH_SCHEMA_VERSION	2

enum ch_table {
	CH_CALLS, CH_PATHS, CH_PROCS, CH_BLOCK, CH_RUNQ, CH_FINDINGS, CH_SESSIONS, CH_TABLES
};

struct ch_col {
	const char *name, *type;
};

struct ch_tdef {
	const char *name;
	const struct ch_col *cols;	/* after the common ones; NULL-terminated */
	const char *order;		/* ORDER BY */
};

#define CH_COMMON \
	{ "host", "String" }, { "boot_id", "String" }, { "session", "String" }, \
	{ "batch", "UInt64" }, { "seq", "UInt64" }, { "rec", "UInt64" }, { "ts", "UInt64" }

static const struct ch_col ch_calls_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32" }, { "pid", "UInt32" }, { "tid", "UInt32" }, { "comm", "String" },
	{ "syscall", "String" }, { "nr", "UInt16" },
	{ "arg0", "UInt64" }, { "arg1", "UInt64" }, { "arg2", "UInt64" },
	{ "arg3", "UInt64" }, { "arg4", "UInt64" }, { "arg5", "UInt64" },
	{ "ret", "Int64" }, { "duration", "UInt64" }, { "fd", "Int32" },
	{ "flags", "UInt8" }, { "ftype", "UInt8" },
	{ "dev", "UInt32" }, { "ino", "UInt64" }, { "gen", "UInt32" },
	{ "offset", "Int64" }, { "ofd", "UInt32" },
	{ "strs", "UInt8" },	/* bit i: string argument i was read (str0, str1; "" is one) */
	{ "str0", "String" }, { "str1", "String" },
	{ NULL, NULL },
};

static const struct ch_col ch_paths_cols[] = {
	CH_COMMON,
	{ "dev", "UInt32" }, { "ino", "UInt64" }, { "gen", "UInt32" }, { "ftype", "UInt8" },
	{ "flags", "UInt8" }, { "pid", "UInt32" }, { "path", "String" },
	{ NULL, NULL },
};

static const struct ch_col ch_procs_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32" }, { "pid", "UInt32" }, { "tid", "UInt32" }, { "other_pid", "UInt32" },
	{ "other_tid", "UInt32" }, { "exit_code", "Int32" }, { "kind", "UInt16" },
	{ "flags", "UInt16" }, { "comm", "String" }, { "mnt_ns", "UInt32" },
	{ NULL, NULL },
};

static const struct ch_col ch_block_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32" }, { "pid", "UInt32" }, { "tid", "UInt32" }, { "comm", "String" },
	{ "duration", "UInt64" }, { "queue_ns", "UInt64" }, { "sector", "UInt64" },
	{ "sys_ts", "UInt64" }, { "dev", "UInt32" }, { "bytes", "UInt32" }, { "error", "Int32" },
	{ "nr", "UInt16" }, { "flags", "UInt8" }, { "rwbs", "String" },
	{ NULL, NULL },
};

static const struct ch_col ch_runq_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32" }, { "pid", "UInt32" }, { "tid", "UInt32" }, { "comm", "String" },
	{ "delay", "UInt64" }, { "sys_ts", "UInt64" }, { "prev_pid", "UInt32" },
	{ "prev_tid", "UInt32" }, { "prev_comm", "String" }, { "nr", "UInt16" },
	{ "flags", "UInt8" },
	{ NULL, NULL },
};

static const struct ch_col ch_findings_cols[] = {
	CH_COMMON,
	{ "ts_last", "UInt64" }, { "analyzer", "String" }, { "code", "String" },
	{ "severity", "String" }, { "title", "String" }, { "message", "String" },
	{ "pid", "UInt32" }, { "tid", "UInt32" }, { "comm", "String" }, { "path", "String" },
	{ "count", "UInt64" }, { "excerpt", "String" }, { "fingerprint", "String" },
	{ NULL, NULL },
};

/* one row when a session starts and one when it ends (complete 1) */
static const struct ch_col ch_sessions_cols[] = {
	CH_COMMON,
	{ "complete", "UInt8" }, { "origin", "String" }, { "command", "String" },
	{ "version", "String" }, { "realtime_offset", "Int64" }, { "rows", "UInt64" },
	{ "lost", "UInt64" },
	{ "info", "String" },	/* key=value lines: what a replay of the session needs (v2) */
	{ NULL, NULL },
};

static const struct ch_tdef ch_tables[CH_TABLES] = {
	[CH_CALLS] = { "calls", ch_calls_cols, "host, session, pid, ts" },
	[CH_PATHS] = { "paths", ch_paths_cols, "host, session, dev, ino, gen" },
	[CH_PROCS] = { "procs", ch_procs_cols, "host, session, pid, ts" },
	[CH_BLOCK] = { "block", ch_block_cols, "host, session, dev, ts" },
	[CH_RUNQ] = { "runq", ch_runq_cols, "host, session, pid, ts" },
	[CH_FINDINGS] = { "findings", ch_findings_cols, "host, session, code, ts" },
	[CH_SESSIONS] = { "sessions", ch_sessions_cols, "host, session, ts" },
};

#endif /* DIO_CLICKHOUSE_SCHEMA_H */
