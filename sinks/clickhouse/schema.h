/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tables dio writes into ClickHouse (docs/clickhouse.md), version
 * CH_SCHEMA_VERSION. Every row begins with the same columns: the host, its
 * boot, the session (host->info "session_id"), the batch the row was sent in
 * and its number in its table within the session (together what makes a
 * resent batch recognisable), and a time in ns since the Unix epoch. Times
 * are UInt64 ns: Debian 12's ClickHouse (18.16) has no DateTime64; each
 * table ends with `time`, the same in seconds as a DateTime that the server
 * computes (MATERIALIZED), for the time filters of Grafana and the like.
 * Columns added to a version come after the existing ones, so that a table
 * made before gets them by ALTER TABLE ADD COLUMN, its rows kept; the
 * MATERIALIZED ones come last, where 18.16 lists them whatever the order of
 * the CREATE.
 */
#ifndef DIO_CLICKHOUSE_SCHEMA_H
#define DIO_CLICKHOUSE_SCHEMA_H

#define CH_SCHEMA_VERSION	2

enum ch_table {
	CH_CALLS, CH_PATHS, CH_PROCS, CH_BLOCK, CH_RUNQ, CH_FINDINGS, CH_SESSIONS, CH_TABLES
};

struct ch_col {
	const char *name, *type;
	const char *mat;	/* MATERIALIZED expression: the server computes it, not sent */
	int derived;		/* said by the other columns: not read back by the source */
};

#define CH_TIME	{ "time", "DateTime", "toDateTime(intDiv(ts, 1000000000))", 1 }

struct ch_tdef {
	const char *name;
	const struct ch_col *cols;	/* after the common ones; NULL-terminated */
	const char *order;		/* ORDER BY (of the tables dio makes) */
};

#define CH_COMMON \
	{ "host", "String", NULL, 0 }, { "boot_id", "String", NULL, 0 }, \
	{ "session", "String", NULL, 0 }, { "batch", "UInt64", NULL, 0 }, \
	{ "seq", "UInt64", NULL, 0 }, { "rec", "UInt64", NULL, 0 }, { "ts", "UInt64", NULL, 0 }

static const struct ch_col ch_calls_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32", NULL, 0 }, { "pid", "UInt32", NULL, 0 }, { "tid", "UInt32", NULL, 0 },
	{ "comm", "String", NULL, 0 }, { "syscall", "String", NULL, 0 },
	{ "nr", "UInt16", NULL, 0 }, { "arg0", "UInt64", NULL, 0 }, { "arg1", "UInt64", NULL, 0 },
	{ "arg2", "UInt64", NULL, 0 }, { "arg3", "UInt64", NULL, 0 }, { "arg4", "UInt64", NULL, 0 },
	{ "arg5", "UInt64", NULL, 0 }, { "ret", "Int64", NULL, 0 },
	{ "duration", "UInt64", NULL, 0 }, { "fd", "Int32", NULL, 0 },
	{ "flags", "UInt8", NULL, 0 }, { "ftype", "UInt8", NULL, 0 }, { "dev", "UInt32", NULL, 0 },
	{ "ino", "UInt64", NULL, 0 }, { "gen", "UInt32", NULL, 0 }, { "offset", "Int64", NULL, 0 },
	{ "ofd", "UInt32", NULL, 0 },
	{ "strs", "UInt8", NULL, 0 },	/* bit i: string argument i was read (str0, str1; "" is one) */
	{ "str0", "String", NULL, 0 }, { "str1", "String", NULL, 0 },
	{ "errno", "String", NULL, 1 },	/* "EIO" when ret is -EIO, "" when ret is no error */
	CH_TIME,
	{ NULL, NULL, NULL, 0 },
};

static const struct ch_col ch_paths_cols[] = {
	CH_COMMON,
	{ "dev", "UInt32", NULL, 0 }, { "ino", "UInt64", NULL, 0 }, { "gen", "UInt32", NULL, 0 },
	{ "ftype", "UInt8", NULL, 0 }, { "flags", "UInt8", NULL, 0 }, { "pid", "UInt32", NULL, 0 },
	{ "path", "String", NULL, 0 },
	CH_TIME,
	{ NULL, NULL, NULL, 0 },
};

static const struct ch_col ch_procs_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32", NULL, 0 }, { "pid", "UInt32", NULL, 0 }, { "tid", "UInt32", NULL, 0 },
	{ "other_pid", "UInt32", NULL, 0 }, { "other_tid", "UInt32", NULL, 0 },
	{ "exit_code", "Int32", NULL, 0 }, { "kind", "UInt16", NULL, 0 },
	{ "flags", "UInt16", NULL, 0 }, { "comm", "String", NULL, 0 },
	{ "mnt_ns", "UInt32", NULL, 0 },
	CH_TIME,
	{ NULL, NULL, NULL, 0 },
};

static const struct ch_col ch_block_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32", NULL, 0 }, { "pid", "UInt32", NULL, 0 }, { "tid", "UInt32", NULL, 0 },
	{ "comm", "String", NULL, 0 }, { "duration", "UInt64", NULL, 0 },
	{ "queue_ns", "UInt64", NULL, 0 }, { "sector", "UInt64", NULL, 0 },
	{ "sys_ts", "UInt64", NULL, 0 }, { "dev", "UInt32", NULL, 0 },
	{ "bytes", "UInt32", NULL, 0 }, { "error", "Int32", NULL, 0 }, { "nr", "UInt16", NULL, 0 },
	{ "flags", "UInt8", NULL, 0 }, { "rwbs", "String", NULL, 0 },
	CH_TIME,
	{ NULL, NULL, NULL, 0 },
};

static const struct ch_col ch_runq_cols[] = {
	CH_COMMON,
	{ "cpu", "UInt32", NULL, 0 }, { "pid", "UInt32", NULL, 0 }, { "tid", "UInt32", NULL, 0 },
	{ "comm", "String", NULL, 0 }, { "delay", "UInt64", NULL, 0 },
	{ "sys_ts", "UInt64", NULL, 0 }, { "prev_pid", "UInt32", NULL, 0 },
	{ "prev_tid", "UInt32", NULL, 0 }, { "prev_comm", "String", NULL, 0 },
	{ "nr", "UInt16", NULL, 0 }, { "flags", "UInt8", NULL, 0 },
	CH_TIME,
	{ NULL, NULL, NULL, 0 },
};

static const struct ch_col ch_findings_cols[] = {
	CH_COMMON,
	{ "ts_last", "UInt64", NULL, 0 }, { "analyzer", "String", NULL, 0 },
	{ "code", "String", NULL, 0 }, { "severity", "String", NULL, 0 },
	{ "title", "String", NULL, 0 }, { "message", "String", NULL, 0 },
	{ "pid", "UInt32", NULL, 0 }, { "tid", "UInt32", NULL, 0 }, { "comm", "String", NULL, 0 },
	{ "path", "String", NULL, 0 }, { "count", "UInt64", NULL, 0 },
	{ "excerpt", "String", NULL, 0 }, { "fingerprint", "String", NULL, 0 },
	CH_TIME,
	/* severity as a number that sorts: max() of error is above warning */
	{ "severity_level", "UInt8",
	  "transform(severity, ['info', 'warning', 'error'], [1, 2, 3], 0)", 1 },
	{ NULL, NULL, NULL, 0 },
};

/* one row when a session starts and one when it ends (complete 1) */
static const struct ch_col ch_sessions_cols[] = {
	CH_COMMON,
	{ "complete", "UInt8", NULL, 0 }, { "origin", "String", NULL, 0 },
	{ "command", "String", NULL, 0 }, { "version", "String", NULL, 0 },
	{ "realtime_offset", "Int64", NULL, 0 }, { "rows", "UInt64", NULL, 0 },
	{ "lost", "UInt64", NULL, 0 },
	{ "info", "String", NULL, 0 },	/* key=value lines: what a replay of the session needs (v2) */
	CH_TIME,
	{ NULL, NULL, NULL, 0 },
};

/*
 * The hour first: "the last hour across all hosts" reads that hour's rows
 * only. paths are looked up by file tag within a session, and sessions
 * are few. A table made before keeps its ORDER BY (it cannot change).
 */
static const struct ch_tdef ch_tables[CH_TABLES] = {
	[CH_CALLS] = { "calls", ch_calls_cols, "toStartOfHour(time), host, session, pid, ts" },
	[CH_PATHS] = { "paths", ch_paths_cols, "host, session, dev, ino, gen" },
	[CH_PROCS] = { "procs", ch_procs_cols, "toStartOfHour(time), host, session, pid, ts" },
	[CH_BLOCK] = { "block", ch_block_cols, "toStartOfHour(time), host, session, dev, ts" },
	[CH_RUNQ] = { "runq", ch_runq_cols, "toStartOfHour(time), host, session, pid, ts" },
	[CH_FINDINGS] = { "findings", ch_findings_cols,
			  "toStartOfHour(time), host, session, code, ts" },
	[CH_SESSIONS] = { "sessions", ch_sessions_cols, "host, session, ts" },
};

#endif /* DIO_CLICKHOUSE_SCHEMA_H */
