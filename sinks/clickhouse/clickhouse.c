// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clickhouse: calls, paths, processes, block requests, run-queue waits and
 * findings as rows of ClickHouse tables (schema.h, docs/clickhouse.md), so
 * that the traces of many hosts and runs can be asked together.
 *
 * Rows are encoded as RowBinary in one buffer per table as records pass;
 * a buffer becomes a batch (gzip-compressed, numbered) when it holds
 * batch_rows rows, when it is older than flush_ms at the host's drain timer,
 * and at the end. Batches go to the sender thread (sender.c), which sends
 * them in order and keeps them in the spool while the server is away, so
 * the ring consumer never waits for the network. In a replay (dio push)
 * batches are cut by size alone, so the same file gives the same batches:
 * those already in the tables are not sent again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dio/sink.h>

#include "sinks/clickhouse/reply.h"
#include "sinks/clickhouse/schema.h"
#include "sinks/clickhouse/sender.h"

enum {
	O_URL, O_DATABASE, O_USER, O_PASSWORD_FILE, O_TABLE_PREFIX, O_SPOOL, O_SPOOL_MAX,
	O_BATCH_ROWS, O_FLUSH_MS, O_DRAIN_S, O_TIMEOUT_S, O_ORIGIN, O_MEMORY_MAX, O_TTL_DAYS,
};

static const struct dio_option options[] = {
	[O_URL] = { "url", DIO_OPT_STRING, NULL, "the server's HTTP interface, http://HOST:8123" },
	[O_DATABASE] = { "database", DIO_OPT_STRING, "dio", "database (made if missing)" },
	[O_USER] = { "user", DIO_OPT_STRING, NULL, "user (default: the server's default user)" },
	[O_PASSWORD_FILE] = { "password_file", DIO_OPT_STRING, NULL,
			      "file whose first line is the user's password" },
	[O_TABLE_PREFIX] = { "table_prefix", DIO_OPT_STRING, "",
			     "put before each table's name ([A-Za-z0-9_])" },
	[O_SPOOL] = { "spool", DIO_OPT_STRING, "/var/spool/dio",
		      "directory for batches the server could not take yet" },
	[O_SPOOL_MAX] = { "spool_max", DIO_OPT_INT, "1G",
			  "bytes the spool may hold; batches past it are dropped and counted" },
	[O_BATCH_ROWS] = { "batch_rows", DIO_OPT_INT, "65536", "rows in one INSERT at most" },
	[O_FLUSH_MS] = { "flush_ms", DIO_OPT_INT, "1000",
			 "a live session sends rows at least this often" },
	[O_DRAIN_S] = { "drain_s", DIO_OPT_INT, "30",
			"at the end, seconds to go on sending before leaving the rest in the spool" },
	[O_TIMEOUT_S] = { "timeout_s", DIO_OPT_INT, "30", "seconds one request may take" },
	[O_ORIGIN] = { "origin", DIO_OPT_STRING, "live",
		       "live, or push (dio push: batches cut by size alone, those stored skipped)" },
	[O_MEMORY_MAX] = { "memory_max", DIO_OPT_INT, "64M",
			   "bytes of batches kept in memory past a full spool; past that, lost and "
			   "counted" },
	[O_TTL_DAYS] = { "ttl_days", DIO_OPT_INT, "0",
			 "days the tables dio makes keep a row (ClickHouse 19.6 or newer); 0: "
			 "for ever" },
	{ NULL, 0, NULL, NULL },
};

struct tbuf {
	unsigned char *p;
	size_t len, cap;
	uint64_t rows, batch, seq;	/* rows in p; the next batch's number; rows made so far */
	uint64_t since_ms;		/* when its first row came */
	int oom;
};

struct ch {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct ch_conf conf;
	struct sender *sender;
	char host_name[256], boot_id[64], session[CH_ID_MAX + 1];
	char tname[CH_TABLES][160];	/* `db`.`prefix_name` */
	char tshort[CH_TABLES][72];	/* prefix_name */
	struct tbuf t[CH_TABLES];
	uint64_t batch_rows, flush_ms;
	unsigned int drain_s;
	unsigned int ttl_days;		/* TTL of the tables dio makes; 0: none */
	int push;			/* batches by size alone; skip those stored */
	int away;			/* the server did not answer at the start: the sender
					 * makes the tables, and a push looks every batch up */
	char prefix[49];		/* table_prefix */
	int skip_all;			/* push: the session is stored whole already */
	uint64_t *stored[CH_TABLES];	/* push: this part's batches stored (whole or in part), sorted */
	size_t nstored[CH_TABLES];
	uint64_t spool_dups;		/* push: batches made again that wait in the spool */
	int started;			/* the session's start row is made */
	uint64_t first_ts, last_ts;	/* push: its first record's time, and its latest */
	uint64_t rows;
	uint64_t records;		/* records seen so far: the next one's number */
	uint64_t part;			/* of a recording cut by --max-size */
	int64_t realtime_off;
};

/* ---- RowBinary ------------------------------------------------------------------- */

static void put(struct tbuf *t, const void *v, size_t n)
{
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 1 << 16;
		unsigned char *p;

		while (cap < t->len + n)
			cap *= 2;
		p = realloc(t->p, cap);
		if (!p) {
			t->oom = 1;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, v, n);
	t->len += n;
}

/* little-endian, as x86_64 is and RowBinary wants */
static void u8(struct tbuf *t, uint8_t v) { put(t, &v, 1); }
static void u16(struct tbuf *t, uint16_t v) { put(t, &v, 2); }
static void u32(struct tbuf *t, uint32_t v) { put(t, &v, 4); }
static void u64(struct tbuf *t, uint64_t v) { put(t, &v, 8); }
static void i32(struct tbuf *t, int32_t v) { put(t, &v, 4); }
static void i64(struct tbuf *t, int64_t v) { put(t, &v, 8); }

/* a String: its length as LEB128, then its bytes */
static void str_n(struct tbuf *t, const char *s, size_t n)
{
	unsigned char v[10];
	size_t k = 0, len = n;

	do {
		v[k] = (unsigned char)(len & 0x7f);
		len >>= 7;
		if (len)
			v[k] |= 0x80;
		k++;
	} while (len);
	put(t, v, k);
	put(t, s, n);
}

static void str(struct tbuf *t, const char *s)
{
	str_n(t, s ? s : "", s ? strlen(s) : 0);
}

static void comm(struct tbuf *t, const char *c)
{
	str_n(t, c, strnlen(c, DIO_COMM_LEN));
}

static uint64_t real(const struct ch *c, uint64_t mono)
{
	return mono ? c->host->realtime_ns(c->ctx, mono) : 0;
}

/* the columns every row begins with */
static struct tbuf *row(struct ch *c, enum ch_table k, uint64_t ts)
{
	struct tbuf *t = &c->t[k];

	if (!t->rows)
		t->since_ms = ch_now_ms();
	str(t, c->host_name);
	str(t, c->boot_id);
	str(t, c->session);
	u64(t, t->batch);
	u64(t, t->seq++);
	u64(t, c->records);
	u64(t, ts);
	t->rows++;
	c->rows++;
	return t;
}

/* ---- batches ------------------------------------------------------------------------ */

/* batch (of this part) is in table k already, whole or in part */
static int stored(const struct ch *c, enum ch_table k, uint64_t batch)
{
	return ch_has(c->stored[k], c->nstored[k], batch - (c->part << 32));
}

/*
 * table k's rows so far as a batch to the sender; final: a push's end row,
 * which says the part is stored whole, not sent if rows of it were lost
 */
static int cut_batch(struct ch *c, enum ch_table k, int final)
{
	struct tbuf *t = &c->t[k];
	struct ch_batch *b;
	int e;

	if (!t->rows)
		return 0;
	if (t->oom) {
		c->host->log(c->ctx, "out of memory: %" PRIu64 " rows of %s lost", t->rows, c->tname[k]);
		e = -ENOMEM;
		goto done;
	}
	/*
	 * A push makes the batches an earlier push of the file made: one that
	 * waits in the spool is that batch, sent (after a look-up) from there.
	 */
	if (c->push && sender_spooled(c->sender, c->tshort[k], t->batch)) {
		c->spool_dups++;
		e = 0;
		goto done;
	}
	b = calloc(1, sizeof(*b));
	if (!b || asprintf(&b->query, "INSERT INTO %s FORMAT RowBinary", c->tname[k]) < 0) {
		if (b)
			b->query = NULL;
		ch_batch_free(b);
		e = -ENOMEM;
		goto done;
	}
	b->table = strdup(c->tname[k]);
	snprintf(b->tshort, sizeof(b->tshort), "%s", c->tshort[k]);
	snprintf(b->session, sizeof(b->session), "%s", c->session);
	b->kind = (int)k;
	b->final = final;
	/*
	 * A push finds what an earlier one stored, whole or (cut at a row's end)
	 * in part; one that started while the server was away knows nothing of
	 * what is stored, and looks every batch up
	 */
	b->tried = c->push && (c->away || stored(c, k, t->batch));
	b->batch = t->batch;
	b->rows = t->rows;
	b->seq = t->seq - t->rows;
	e = b->table ? ch_gzip(t->p, t->len, &b->body, &b->len) : -ENOMEM;
	if (e) {
		ch_batch_free(b);
		goto done;
	}
	sender_put(c->sender, b);
done:
	t->len = 0;
	t->rows = 0;
	t->oom = 0;
	t->batch++;
	return e;
}

static int cut(struct ch *c, enum ch_table k)
{
	return cut_batch(c, k, 0);
}

/* after a row: a full buffer becomes a batch */
static int full(struct ch *c, enum ch_table k)
{
	return c->t[k].rows >= c->batch_rows || c->t[k].len >= (32u << 20) ? cut(c, k) : 0;
}

/* ---- records -------------------------------------------------------------------------- */

static int session_row(struct ch *c, int complete);

/* the name of the errno a call failed with ("EIO"); "" for one that did not fail */
static const char *errno_of(const struct ch *c, int64_t ret, char *buf, size_t len)
{
	const char *name;

	if (!dio_ret_failed(ret))
		return "";
	name = DIO_HOST_HAS(c->host, name_of) ?
	       c->host->name_of(c->ctx, DIO_NAME_ERRNO, (uint64_t)-ret) : NULL;
	if (name)
		return name;
	snprintf(buf, len, "ERRNO_%d", (int)-ret);
	return buf;
}

static int add_call(struct ch *c, const struct dio_ev_syscall *e)
{
	struct tbuf *t = row(c, CH_CALLS, real(c, e->hdr.ts));
	char num[24];

	u32(t, e->hdr.cpu);
	u32(t, e->pid);
	u32(t, e->tid);
	comm(t, e->comm);
	str(t, c->host->syscall_name(e->nr));
	u16(t, e->nr);
	for (int i = 0; i < 6; i++)
		u64(t, e->args[i]);
	i64(t, e->ret);
	u64(t, e->duration);
	i32(t, e->fd);
	u8(t, e->flags);
	u8(t, e->ftype);
	u32(t, e->tag.dev);
	u64(t, e->tag.ino);
	u32(t, e->tag.gen);
	i64(t, e->offset);
	u32(t, e->ofd);
	u8(t, (uint8_t)((e->str_len[0] ? 1 : 0) | (e->str_len[1] ? 2 : 0)));
	str(t, e->str_len[0] ? dio_ev_syscall_str(e, 0) : NULL);
	str(t, e->str_len[1] ? dio_ev_syscall_str(e, 1) : NULL);
	str(t, errno_of(c, e->ret, num, sizeof(num)));
	return full(c, CH_CALLS);
}

static int add_path(struct ch *c, const struct dio_ev_path *p)
{
	struct tbuf *t = row(c, CH_PATHS, real(c, p->hdr.ts));

	u32(t, p->tag.dev);
	u64(t, p->tag.ino);
	u32(t, p->tag.gen);
	u8(t, p->ftype);
	u8(t, p->flags);
	u32(t, p->pid);
	str(t, dio_ev_path_str(p));
	return full(c, CH_PATHS);
}

static int add_proc(struct ch *c, const struct dio_ev_proc *p)
{
	struct tbuf *t = row(c, CH_PROCS, real(c, p->hdr.ts));

	u32(t, p->hdr.cpu);
	u32(t, p->pid);
	u32(t, p->tid);
	u32(t, p->other_pid);
	u32(t, p->other_tid);
	i32(t, p->exit_code);
	u16(t, p->kind);
	u16(t, p->flags);
	comm(t, p->comm);
	u32(t, p->hdr.size > DIO_EV_PROC_SIZE_V1 ? p->mnt_ns : 0);
	return full(c, CH_PROCS);
}

static int add_block(struct ch *c, const struct dio_ev_block *b)
{
	struct tbuf *t = row(c, CH_BLOCK, real(c, b->hdr.ts));

	u32(t, b->hdr.cpu);
	u32(t, b->pid);
	u32(t, b->tid);
	comm(t, b->comm);
	u64(t, b->duration);
	u64(t, b->queue_ns);
	u64(t, b->sector);
	u64(t, real(c, b->sys_ts));
	u32(t, b->dev);
	u32(t, b->bytes);
	i32(t, b->error);
	u16(t, b->nr);
	u8(t, b->flags);
	str_n(t, b->rwbs, strnlen(b->rwbs, sizeof(b->rwbs)));
	return full(c, CH_BLOCK);
}

static int add_runq(struct ch *c, const struct dio_ev_runq *r)
{
	struct tbuf *t = row(c, CH_RUNQ, real(c, r->hdr.ts));

	u32(t, r->hdr.cpu);
	u32(t, r->pid);
	u32(t, r->tid);
	comm(t, r->comm);
	u64(t, r->delay);
	u64(t, real(c, r->sys_ts));
	u32(t, r->prev_pid);
	u32(t, r->prev_tid);
	comm(t, r->prev_comm);
	u16(t, r->nr);
	u8(t, r->flags);
	return full(c, CH_RUNQ);
}

static int ch_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ch *c = state;

	if (c->skip_all)
		return 0;
	if (c->push) {
		uint64_t ts = real(c, ev->ts);

		if (!c->started) {
			c->first_ts = ts;
			session_row(c, 0);
		}
		if (ts > c->last_ts)
			c->last_ts = ts;
	}
	c->records++;
	switch (ev->type) {
	case DIO_EV_SYSCALL:
		return add_call(c, (const void *)ev);
	case DIO_EV_PATH:
		return add_path(c, (const void *)ev);
	case DIO_EV_PROC:
		return add_proc(c, (const void *)ev);
	case DIO_EV_BLOCK:
		return add_block(c, (const void *)ev);
	case DIO_EV_RUNQ:
		return add_runq(c, (const void *)ev);
	}
	return 0;
}

static const char *const sev_names[] = { "info", "warning", "error" };

static int ch_finding(void *state, const struct dio_finding *f)
{
	struct ch *c = state;
	struct tbuf *t;

	if (c->skip_all)
		return 0;
	if (!c->started)
		session_row(c, 0);
	t = row(c, CH_FINDINGS, real(c, f->ts_first));
	u64(t, real(c, f->ts_last));
	str(t, f->analyzer);
	str(t, f->code);
	str(t, f->severity < 3 ? sev_names[f->severity] : "info");
	str(t, f->title);
	str(t, f->message);
	u32(t, f->pid);
	u32(t, f->tid);
	str(t, f->comm);
	str(t, f->path);
	u64(t, f->count);
	str(t, f->excerpt);
	str(t, f->size > offsetof(struct dio_finding, fingerprint) ? f->fingerprint : NULL);
	return full(c, CH_FINDINGS);
}

/*
 * one row of the sessions table: at the start, and complete at the end. Its
 * time: a live session's, now; a push's, its recording's first record and
 * latest record (the boot's, for a recording without any), so that the rows
 * of a push depend on the recording alone.
 */
/*
 * The sessions row's info: what a replay of the stored session needs to say
 * what a replay of the recording says, as key=value lines named as in a
 * trace file's metadata (docs/trace-format.md): dio's own pid (its threads'
 * run-queue waits are not the program's), the file systems' types, and at
 * the end the losses by reason.
 */
static void session_info(struct ch *c, const struct dio_stats *st, int complete, char *buf,
			 size_t len)
{
	static const char *const causes[] = { "unknown", "cpu", "cpu-wait", "disk" };
	const struct {
		const char *key;
		uint64_t n;
	} lost[] = {
		{ "lost_ringbuf", st->lost_ringbuf }, { "lost_inflight", st->lost_inflight },
		{ "lost_block", st->lost_block }, { "lost_block_unseen", st->lost_block_unseen },
		{ "lost_iouring", st->lost_iouring },
		{ "lost_iouring_unseen", st->lost_iouring_unseen },
		{ "lost_mappings", st->lost_mappings }, { "lost_procs", st->lost_procs },
		{ "dropped_records", st->lost_writer }, { "lost_other", st->lost_other },
		{ "lost_pathtab", st->lost_pathtab }, { "path_truncated", st->path_truncated },
		{ "lost_blkdevs", st->lost_blkdevs },
		{ "kernel_paths_evicted", st->kernel_paths_evicted },
	};
	const char *keys[] = { "tracer_pid", "fstypes" }, *v;
	size_t off = 0;
	int k;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = c->host->info(c->ctx, keys[i]);
		/* a value is one line: what a key=value line can hold */
		if (!v || strchr(v, '\n'))
			continue;
		k = snprintf(buf + off, off < len ? len - off : 0, "%s=%s\n", keys[i], v);
		off += k > 0 ? (size_t)k : 0;
	}
	if (!complete)
		goto out;
	for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++) {
		k = snprintf(buf + off, off < len ? len - off : 0, "%s=%" PRIu64 "\n", lost[i].key,
			     lost[i].n);
		off += k > 0 ? (size_t)k : 0;
	}
	k = snprintf(buf + off, off < len ? len - off : 0, "dropped_cause=%s\n",
		     causes[st->writer_cause < 4 ? st->writer_cause : 0]);
	off += k > 0 ? (size_t)k : 0;
out:
	/* cut whole lines only: a reader takes what is there */
	if (off >= len) {
		char *nl = memrchr(buf, '\n', len - 1);

		if (nl)
			nl[1] = 0;
		else
			buf[0] = 0;
	}
}

static int session_row(struct ch *c, int complete)
{
	char info[8192];
	const char *v;
	uint64_t ts = !c->push ? (uint64_t)time(NULL) * 1000000000ull :
		      !c->first_ts ? (uint64_t)c->realtime_off : complete ? c->last_ts : c->first_ts;
	struct tbuf *t = row(c, CH_SESSIONS, ts);
	struct dio_stats st;

	memset(&st, 0, sizeof(st));
	if (complete && DIO_HOST_HAS(c->host, stats_sized))
		c->host->stats_sized(c->ctx, &st, sizeof(st));
	u8(t, (uint8_t)complete);
	str(t, c->push ? "push" : "live");
	v = c->host->info ? c->host->info(c->ctx, "command") : NULL;
	str(t, v);
	v = c->host->info ? c->host->info(c->ctx, "version") : NULL;
	str(t, v);
	i64(t, c->realtime_off);
	u64(t, c->rows - c->t[CH_SESSIONS].rows);
	u64(t, st.lost_ringbuf + st.lost_inflight + st.lost_iouring + st.lost_other +
	       st.lost_block + st.lost_block_unseen + st.lost_mappings + st.lost_iouring_unseen +
	       st.lost_procs + st.lost_writer);
	session_info(c, &st, complete, info, sizeof(info));
	str(t, info);
	c->started = 1;
	return cut_batch(c, CH_SESSIONS, complete && c->push);
}

static int ch_flush(void *state)
{
	struct ch *c = state;
	uint64_t now;

	/* a replay cuts by size alone: the same file, the same batches */
	if (c->push || !c->sender)
		return 0;
	now = ch_now_ms();
	for (int k = 0; k < CH_TABLES; k++)
		if (c->t[k].rows && now - c->t[k].since_ms >= c->flush_ms)
			cut(c, k);
	return 0;
}

/* ---- the schema ------------------------------------------------------------------------ */

/* sql's answer into *out (when out is set); an error is said, or put in err when it is set */
static int query_err(struct ch *c, const char *sql, char **out, char *err, size_t errlen)
{
	char own[512];
	int e = ch_request(&c->conf, sql, NULL, 0, 0, out, NULL, err ? err : own,
			   err ? errlen : sizeof(own));

	if (e && !err)
		c->host->log(c->ctx, "%s", own);
	return e;
}

static int query(struct ch *c, const char *sql, char **out)
{
	return query_err(c, sql, out, NULL, 0);
}

/* an answer that is none ClickHouse gives: said; -EPROTO */
static int not_clickhouse(struct ch *c, const char *question, const char *what)
{
	c->host->log(c->ctx, "%s answered the query for %s with something that is not %s: is it "
		     "ClickHouse? (check url=)", c->conf.shown, question, what);
	return -EPROTO;
}

/* one column as CREATE and ALTER TABLE ADD COLUMN take it */
static int col_def(const struct ch_col *col, char *buf, size_t len)
{
	return snprintf(buf, len, "%s %s%s%s", col->name, col->type,
			col->mat ? " MATERIALIZED " : "", col->mat ? col->mat : "");
}

/* the table's columns as CREATE TABLE takes them: "name Type, ..." */
static void columns(const struct ch_col *cols, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; cols[i].name && o < len; i++) {
		if (i)
			o += (size_t)snprintf(buf + o, len - o, ", ");
		if (o < len)
			o += (size_t)col_def(&cols[i], buf + o, len - o);
	}
}

/* a column's type as RowBinary takes it: LowCardinality(String) is a String */
static int same_type(const char *have, const char *want)
{
	size_t n = strlen(want);

	return !strcmp(have, want) || (!strncmp(have, "LowCardinality(", 15) &&
				       !strncmp(have + 15, want, n) && !strcmp(have + 15 + n, ")"));
}

/*
 * A table's columns (out: system.columns' "name\ttype\tdefault_kind" lines,
 * changed in place) against dio's: how many of dio's the table has, in
 * dio's order, when they are all it has; -1 when it has another. A column
 * pre-created as LowCardinality, or with a DEFAULT, is the one dio writes;
 * MATERIALIZED and ALIAS columns after all of dio's are the user's own.
 */
static int columns_had(const struct ch_col *cols, char *out)
{
	char *line, *next, *type, *kind;
	int n = 0;

	for (line = out; *line; line = next, n++) {
		next = strchr(line, '\n');
		type = strchr(line, '\t');
		kind = type ? strchr(type + 1, '\t') : NULL;
		if (!next || !kind || kind > next)
			return -1;
		*next++ = 0;
		*type++ = 0;
		*kind++ = 0;
		/* after all of dio's: columns of the user's that an INSERT does not fill */
		if (!cols[n].name) {
			if (strcmp(kind, "MATERIALIZED") && strcmp(kind, "ALIAS"))
				return -1;
			n--;
			continue;
		}
		if (strcmp(line, cols[n].name) || !same_type(type, cols[n].type))
			return -1;
		if (cols[n].mat ? strcmp(kind, "MATERIALIZED") : *kind && strcmp(kind, "DEFAULT"))
			return -1;
	}
	return n;
}

/*
 * table k as dio makes it: a table an earlier dio made (dio's columns but
 * the last ones, added since) gets the missing ones, its rows kept; one
 * with other columns is refused (said)
 */
static int table_columns(struct ch *c, enum ch_table k)
{
	const struct ch_tdef *d = &ch_tables[k];
	char sql[1024], added[512], *out = NULL;
	size_t o = 0;
	int e, n;

	snprintf(sql, sizeof(sql), "SELECT name, type, default_kind FROM system.columns WHERE "
		 "database = '%s' AND table = '%s%s' FORMAT TabSeparated", c->conf.database,
		 c->prefix, d->name);
	if ((e = query(c, sql, &out)))
		return e;
	n = columns_had(d->cols, out);
	free(out);
	/* at least the columns every row begins with: else it is not dio's */
	if (n < 7) {
		c->host->log(c->ctx, "table %s is not as this dio makes it (schema version %d, "
			     "docs/clickhouse.md): its columns differ; use another database= or "
			     "table_prefix=", c->tname[k], CH_SCHEMA_VERSION);
		return -EPROTO;
	}
	added[0] = 0;
	for (int i = n; d->cols[i].name; i++) {
		o = (size_t)snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD COLUMN ", c->tname[k]);
		col_def(&d->cols[i], sql + o, sizeof(sql) - o);
		if ((e = query(c, sql, NULL)))
			return e;
		snprintf(added + strlen(added), sizeof(added) - strlen(added), "%s%s",
			 i > n ? ", " : "", d->cols[i].name);
	}
	if (*added)
		c->host->log(c->ctx, "table %s, made by an earlier dio: added the columns %s "
			     "(schema version %d, docs/clickhouse.md)", c->tname[k], added,
			     CH_SCHEMA_VERSION);
	return 0;
}

/* TTL came with ClickHouse 19.6: an older server is refused ttl_days= (said) */
static int check_ttl(struct ch *c)
{
	unsigned int major, minor;
	char *out = NULL;
	int e;

	if (!c->ttl_days)
		return 0;
	if ((e = query(c, "SELECT version()", &out)))
		return e;
	e = sscanf(out, "%u.%u", &major, &minor) == 2 ? 0 : -EPROTO;
	free(out);
	if (e)
		return not_clickhouse(c, "its version", "a version");
	if (major > 19 || (major == 19 && minor >= 6))
		return 0;
	c->host->log(c->ctx, "ttl_days needs ClickHouse 19.6 or newer (TTL); %s is %u.%u: "
		     "leave ttl_days out and drop old days with ALTER TABLE ... DROP PARTITION "
		     "(docs/clickhouse.md)", c->conf.shown, major, minor);
	return -EPROTO;
}

/*
 * make the tables that are missing; refuse those that are not as dio makes
 * them (said). The error of the first question, whether the server is
 * there at all, goes into away, NUL-terminated ("" when it was answered):
 * the caller says it, once.
 */
static int schema(struct ch *c, char *away, size_t awaylen)
{
	char sql[8192], want[4096], ttl[64], *out = NULL;
	const char *prefix = c->prefix;
	uint64_t v[3];	/* count, max, min */
	int e;

	away[0] = 0;
	snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS `%s`", c->conf.database);
	if ((e = query_err(c, sql, NULL, away, awaylen)))
		return e;
	if ((e = check_ttl(c)))
		return e;
	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS `%s`.`%sschema` (version UInt32) "
		 "ENGINE = TinyLog", c->conf.database, prefix);
	if ((e = query(c, sql, NULL)))
		return e;
	snprintf(sql, sizeof(sql), "SELECT count(), max(version), min(version) FROM `%s`.`%sschema`",
		 c->conf.database, prefix);
	if ((e = query(c, sql, &out)))
		return e;
	e = ch_reply_numbers(out, v, 3);
	free(out);
	if (e)
		return not_clickhouse(c, "the schema version", "a count");
	/* an older version's tables get the columns added since (table_columns()) */
	if (v[0] && (v[1] > CH_SCHEMA_VERSION || v[2] < 1)) {
		c->host->log(c->ctx, "database %s holds dio tables of schema version %" PRIu64
			     "; this dio writes version %d: use another database= or "
			     "table_prefix=, or a newer dio", c->conf.database, v[1],
			     CH_SCHEMA_VERSION);
		return -EPROTO;
	}
	ttl[0] = 0;
	if (c->ttl_days)
		snprintf(ttl, sizeof(ttl), " TTL time + INTERVAL %u DAY", c->ttl_days);
	for (int k = 0; k < CH_TABLES; k++) {
		const struct ch_tdef *d = &ch_tables[k];

		columns(d->cols, want, sizeof(want));
		snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS %s (%s) ENGINE = MergeTree "
			 "PARTITION BY toYYYYMMDD(toDateTime(intDiv(ts, 1000000000))) ORDER BY (%s)%s",
			 c->tname[k], want, d->order, ttl);
		if ((e = query(c, sql, NULL)))
			return e;
		if ((e = table_columns(c, (enum ch_table)k)))
			return e;
	}
	if (v[0] && v[1] == CH_SCHEMA_VERSION)
		return 0;
	snprintf(sql, sizeof(sql), "INSERT INTO `%s`.`%sschema` VALUES (%d)", c->conf.database,
		 prefix, CH_SCHEMA_VERSION);
	return query(c, sql, NULL);
}

/*
 * dio push: what of this session the tables hold already. The batch numbers
 * the server gives are checked (each of this part, so below 2^32) and kept
 * as a sorted list: no answer can make dio write where it says.
 */
static int stored_batches(struct ch *c)
{
	char sql[1024], q[64], *out = NULL;
	uint64_t n;
	int e;

	if (ch_quote(c->session, q, sizeof(q)) < 0)
		return -EINVAL;
	/* stored whole: streamed live to its end, or this part pushed to its end */
	snprintf(sql, sizeof(sql), "SELECT count() FROM %s WHERE session = %s AND complete = 1 AND "
		 "(origin = 'live' OR intDiv(batch, 4294967296) = %" PRIu64 ") FORMAT TabSeparated",
		 c->tname[CH_SESSIONS], q, c->part);
	if ((e = query(c, sql, &out)))
		return e;
	e = ch_reply_numbers(out, &n, 1);
	free(out);
	if (e)
		return not_clickhouse(c, "the session's end row", "a count");
	c->skip_all = n > 0;
	if (c->skip_all)
		return 0;
	for (int k = 0; k < CH_TABLES; k++) {
		snprintf(sql, sizeof(sql), "SELECT DISTINCT batch - %" PRIu64 " FROM %s WHERE "
			 "session = %s AND intDiv(batch, 4294967296) = %" PRIu64 " FORMAT TabSeparated",
			 c->part << 32, c->tname[k], q, c->part);
		out = NULL;
		if ((e = query(c, sql, &out)))
			return e;
		e = ch_reply_batches(out, 1ull << 32, &c->stored[k], &c->nstored[k]);
		free(out);
		if (e == -EPROTO)
			return not_clickhouse(c, "the batches stored", "a list of batch numbers");
		if (e)
			return e;
	}
	return 0;
}

/* the sender's first step when the server was away at the start: the tables (sender.h) */
static int ready(void *ud, char *err, size_t errlen)
{
	struct ch *c = ud;
	int e = schema(c, err, errlen);

	if (!e || *err)
		return e;
	/* after the first answer: away again (said by schema()), or tables not dio's */
	snprintf(err, errlen, "%s stopped answering", c->conf.shown);
	return e == -ECONNREFUSED || e == -EIO ? e : -EBADMSG;
}

/* ---- the module ------------------------------------------------------------------------- */

static void ch_destroy(void *state)
{
	struct ch *c = state;

	if (!c)
		return;
	if (c->sender) {
		struct ch_counts n;

		sender_stop(c->sender, 0, &n);
	}
	for (int k = 0; k < CH_TABLES; k++) {
		free(c->t[k].p);
		free(c->stored[k]);
	}
	if (c->conf.password)
		memset(c->conf.password, 0, strlen(c->conf.password));
	free(c->conf.password);
	free(c);
}

/* the first line of a password file: a regular file, not a link */
static int read_password(struct ch *c, const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char buf[1024];
	struct stat st;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		c->host->log(c->ctx, "password_file %s: %s", path,
			     fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	c->conf.password = strdup(buf);
	memset(buf, 0, sizeof(buf));
	return c->conf.password ? 0 : -ENOMEM;
}

/* where the batches go, for the spool: url and database (FNV-1a) */
static uint64_t dest_of(const char *url, const char *database)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = url; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	h = (h ^ '\n') * 0x100000001b3ULL;
	for (const char *p = database; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return h;
}

static int ch_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct ch *c = calloc(1, sizeof(*c));
	const char *v, *prefix = o[O_TABLE_PREFIX].s ? o[O_TABLE_PREFIX].s : "";
	char away[512];
	int e = -EINVAL;

	if (!c)
		return -ENOMEM;
	c->host = host;
	c->ctx = ctx;
	if (!host->info || !DIO_HOST_HAS(host, stats_sized)) {
		host->log(ctx, "this dio is older than the clickhouse sink: it lacks host->info");
		goto fail;
	}
	if (!o[O_URL].s || (strncmp(o[O_URL].s, "http://", 7) && strncmp(o[O_URL].s, "https://", 8))) {
		host->log(ctx, "give the server's HTTP interface: --sink clickhouse:url=http://HOST:8123");
		goto fail;
	}
	if (!ch_valid_name(o[O_DATABASE].s, 0) || !ch_valid_name(prefix, 1) ||
	    strlen(o[O_DATABASE].s) > 64 || strlen(prefix) > 48) {
		host->log(ctx, "database= and table_prefix= take letters, digits and '_' only, "
			  "at most 64 and 48 of them");
		goto fail;
	}
	if (strcmp(o[O_ORIGIN].s, "live") && strcmp(o[O_ORIGIN].s, "push")) {
		host->log(ctx, "origin=%s: live or push", o[O_ORIGIN].s);
		goto fail;
	}
	if (o[O_TTL_DAYS].i < 0 || o[O_TTL_DAYS].i > 36500) {
		host->log(ctx, "ttl_days=%lld: days a row is kept, 1 to 36500 (0: for ever)",
			  (long long)o[O_TTL_DAYS].i);
		goto fail;
	}
	if (o[O_BATCH_ROWS].i < 1 || o[O_FLUSH_MS].i < 1 || o[O_DRAIN_S].i < 0 ||
	    o[O_TIMEOUT_S].i < 1 || o[O_SPOOL_MAX].i < 0 || o[O_MEMORY_MAX].i < 0) {
		host->log(ctx, "batch_rows, flush_ms and timeout_s must be at least 1, drain_s, "
			  "spool_max and memory_max at least 0");
		goto fail;
	}
	c->conf.url = o[O_URL].s;
	ch_url_shown(c->conf.url, c->conf.shown, sizeof(c->conf.shown));
	c->conf.database = o[O_DATABASE].s;
	c->conf.dest = dest_of(c->conf.url, c->conf.database);
	c->conf.user = o[O_USER].s;
	c->conf.spool = o[O_SPOOL].s;
	c->conf.spool_max = (uint64_t)o[O_SPOOL_MAX].i;
	c->conf.memory_max = (uint64_t)o[O_MEMORY_MAX].i;
	c->conf.timeout_s = (unsigned int)o[O_TIMEOUT_S].i;
	c->batch_rows = (uint64_t)o[O_BATCH_ROWS].i;
	c->flush_ms = (uint64_t)o[O_FLUSH_MS].i;
	c->drain_s = (unsigned int)o[O_DRAIN_S].i;
	c->ttl_days = (unsigned int)o[O_TTL_DAYS].i;
	c->push = !strcmp(o[O_ORIGIN].s, "push");
	snprintf(c->prefix, sizeof(c->prefix), "%s", prefix);
	if (o[O_PASSWORD_FILE].s && (e = read_password(c, o[O_PASSWORD_FILE].s)))
		goto fail;
	v = host->info(ctx, "hostname");
	snprintf(c->host_name, sizeof(c->host_name), "%s", v ? v : "");
	v = host->info(ctx, "boot_id");
	snprintf(c->boot_id, sizeof(c->boot_id), "%s", v ? v : "");
	v = host->info(ctx, "session_id");
	if (!v) {
		host->log(ctx, "this dio gives no session id: rows could not be told from other runs'");
		goto fail;
	}
	/* it names spool files and enters SQL: a recording's may be anything */
	if (!ch_valid_id(v)) {
		host->log(ctx, "the session_id of the recording is not a session id (letters, "
			  "digits and '_', at most %d): the file's metadata is damaged or forged",
			  CH_ID_MAX);
		goto fail;
	}
	snprintf(c->session, sizeof(c->session), "%s", v);
	/*
	 * FILE.K of a recording cut by --max-size: the Kth part of the session.
	 * Its batches, rows and records are numbered from K << 32, K << 40 and
	 * K << 40, so that the parts pushed one by one neither take nor skip
	 * each other's numbers, and --from reads them back in order.
	 */
	v = host->info(ctx, "part");
	if (v && (ch_reply_numbers(v, &c->part, 1) || c->part >= 1u << 20)) {
		host->log(ctx, "the part= of the recording is not a part number this sink takes "
			  "(0 to %u)", (1u << 20) - 1);
		goto fail;
	}
	c->records = c->part << 40;
	for (int k = 0; k < CH_TABLES; k++) {
		c->t[k].batch = c->part << 32;
		c->t[k].seq = c->part << 40;
	}
	c->realtime_off = (int64_t)host->realtime_ns(ctx, 1000000000) - 1000000000;
	for (int k = 0; k < CH_TABLES; k++) {
		snprintf(c->tname[k], sizeof(c->tname[k]), "`%s`.`%s%s`", c->conf.database, prefix,
			 ch_tables[k].name);
		snprintf(c->tshort[k], sizeof(c->tshort[k]), "%s%s", prefix, ch_tables[k].name);
	}
	/*
	 * The session's lock first (waiting for another dio that sends it): what
	 * is stored, and what waits in the spool, cannot change under a push.
	 */
	e = sender_open(&c->sender, &c->conf, host, ctx, c->session);
	if (e)
		goto fail;
	e = schema(c, away, sizeof(away));
	if (e && *away && e != -ECONNREFUSED && e != -EIO)
		host->log(ctx, "%s", away);	/* it answered with an error */
	if (e == -ECONNREFUSED || e == -EIO) {
		/*
		 * A host that boots before its database, or lost it: trace on, the
		 * batches wait in the spool, and the sender makes the tables and
		 * sends them once the server answers
		 */
		host->log(ctx, "ClickHouse at %s does not answer (%s): rows wait in the spool %s "
			  "until it does", c->conf.shown, away, c->conf.spool);
		c->away = 1;
		e = 0;
	} else if (!e && c->push) {
		e = stored_batches(c);
	}
	if (e)
		goto fail;
	if (c->skip_all) {
		struct ch_counts n;

		v = host->info(ctx, "trace");
		/* the one line of a push that sent nothing: dio push says no more of it */
		host->log(ctx, "%s: already in ClickHouse at %s (database %s, session %s), nothing "
			  "sent", v ? v : "the session", c->conf.shown, c->conf.database, c->session);
		sender_stop(c->sender, 0, &n);
		c->sender = NULL;
	} else {
		e = sender_run(c->sender, c->away ? ready : NULL, c);
		if (e)
			goto fail;
		/* a push's waits for its first record, whose time it takes */
		if (!c->push)
			session_row(c, 0);
	}
	*state = c;
	return 0;
fail:
	ch_destroy(c);
	return e < 0 ? e : -EINVAL;
}

static int ch_finish(void *state)
{
	struct ch *c = state;
	struct ch_counts n;

	if (c->skip_all || !c->sender)
		return 0;
	if (!c->started)
		session_row(c, 0);
	for (int k = 0; k < CH_TABLES; k++)
		if (k != CH_SESSIONS)
			cut(c, k);
	session_row(c, 1);
	sender_stop(c->sender, c->drain_s, &n);
	c->sender = NULL;
	if (n.dup_batches || n.partial_batches)
		c->host->log(c->ctx, "%" PRIu64 " batches were stored already, %" PRIu64 " of them in "
			     "part: only what was missing was sent", n.dup_batches + n.partial_batches,
			     n.partial_batches);
	if (c->spool_dups)
		c->host->log(c->ctx, "%" PRIu64 " batches were in the spool already, from an earlier "
			     "push: sent from there", c->spool_dups);
	if (n.dropped_rows) {
		char why[512];

		if (n.spool_errno)
			snprintf(why, sizeof(why), "the spool %s could not take them: %s", c->conf.spool,
				 strerror(n.spool_errno));
		else if (n.spool_full)
			snprintf(why, sizeof(why), "the spool %s was full (spool_max=%" PRIu64 ")",
				 c->conf.spool, c->conf.spool_max);
		else
			snprintf(why, sizeof(why), "said above");
		c->host->log(c->ctx, "warning: %" PRIu64 " rows lost: %s", n.dropped_rows, why);
	}
	if (n.final_held)
		c->host->log(c->ctx, "the session's end row was not stored, as rows of it were lost: "
			     "push the recording again to send what is missing");
	if (n.left_rows)
		c->host->log(c->ctx, "%s did not take %" PRIu64 " rows in %u s: %" PRIu64 " batches wait "
			     "in the spool %s for the next dio that sends to it", c->conf.shown,
			     n.left_rows, c->drain_s, n.left_batches, c->conf.spool);
	/* a push that could not send everything has not pushed: its caller tries again */
	if (n.dropped_rows)
		return -EIO;
	if (c->push && n.left_rows)
		return -EAGAIN;
	if (c->push) {
		const char *v = c->host->info(c->ctx, "trace");

		c->host->log(c->ctx, "%s: pushed to %s (database %s, session %s): %" PRIu64
			     " rows sent", v ? v : "the session", c->conf.shown, c->conf.database,
			     c->session, n.sent_rows);
	}
	return 0;
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "clickhouse",
	.description = "rows of ClickHouse tables over HTTP, for many hosts and runs (docs/clickhouse.md)",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PATH) |
		  DIO_EV_MASK(DIO_EV_PROC) | DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ),
	.findings = 1,
	.options = options,
	.init = ch_init,
	.event = ch_event,
	.finding = ch_finding,
	.flush = ch_flush,
	.destroy = ch_destroy,
	.finish = ch_finish,
	/* a finding's rows: its first and its updates, the latest (seq) as it stands */
	.live = 1,
};
