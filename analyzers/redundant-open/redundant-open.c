// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * redundant-open: system calls a program could leave out.
 *
 *  churn        a file opened and closed again and again with little I/O in
 *               each open-to-close window (Redis opened its log for every line)
 *  sync-reopen  a file opened again while the process holds an fd to it, and
 *               the new fd used for nothing but fsync before its close
 *               (Elasticsearch's FsHealthService)
 *  seek         an lseek to the offset the fd is already at, right before a
 *               read or write that uses that offset
 *
 * State: fds by (process, fd), files by (process, file tag), processes by pid,
 * all in tables sized by options at init, and a pool of excerpts lent to the
 * files and processes most likely to become findings. A process is known by a
 * serial number given when its pid is first seen and dropped at its exit, so a
 * re-used pid never inherits the fds of the process before it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/expool.h"
#include "analyzers/common/table.h"

enum {
	O_MIN_WINDOWS, O_MAX_BYTES, O_MAX_DATA_CALLS, O_MIN_RATE, O_MIN_SYNC_REOPENS,
	O_MIN_SEEKS, O_MAX_PROCS, O_MAX_FILES, O_MAX_FDS, O_EXCERPTS,
};

static const struct dio_option options[] = {
	[O_MIN_WINDOWS] = { "min_windows", DIO_OPT_INT, "100",
			    "small open-to-close windows on one file before churn is reported" },
	[O_MAX_BYTES] = { "max_bytes", DIO_OPT_INT, "65536",
			  "a window is small when it reads and writes fewer bytes than this" },
	[O_MAX_DATA_CALLS] = { "max_data_calls", DIO_OPT_INT, "8",
			       "... and makes at most this many read and write calls" },
	[O_MIN_RATE] = { "min_rate", DIO_OPT_DOUBLE, "10",
			 "small windows per second, first open to last close, for churn" },
	[O_MIN_SYNC_REOPENS] = { "min_sync_reopens", DIO_OPT_INT, "1",
				 "opens only to fsync, per process, before they are reported" },
	[O_MIN_SEEKS] = { "min_seeks", DIO_OPT_INT, "10",
			  "lseeks to the offset already held, per file, before they are reported" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "4096", "processes tracked" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "4096", "(process, file) pairs tracked" },
	[O_MAX_FDS] = { "max_fds", DIO_OPT_INT, "16384", "open fds tracked" },
	[O_EXCERPTS] = { "excerpts", DIO_OPT_INT, "256",
			 "evidence excerpts kept for the likeliest findings" },
	{ NULL, 0, NULL, NULL },
};

#define SEQ_MAX		8	/* calls of a window kept for its sequence */
#define SEQS		4	/* sequences counted per file */
#define NAMES		4	/* thread names and files named in a sync-reopen finding */
#define EXCERPT_LINES	8

#define SEEK_SET_	0	/* lseek whence, as the kernel numbers it */
#define SEEK_END_	2

/* the system calls of a window: the first SEQ_MAX numbers; n = SEQ_MAX + 1 when more */
struct seq {
	uint16_t nr[SEQ_MAX];
	uint16_t n;
};

struct seqcount {
	struct seq seq;
	uint16_t pad;
	uint32_t count;
};

/* fd flags */
#define FD_WINDOW	0x01	/* opened in the trace: an open-to-close window */
#define FD_POS		0x02	/* pos is the fd's offset */
#define FD_SEEK		0x04	/* the last move was an lseek to the offset it had */
#define FD_REOPEN	0x08	/* opened while another fd of the process had the file */
#define FD_SYNCED	0x10	/* fsync, fdatasync or sync_file_range on it */
#define FD_USED		0x20	/* any other use than sync, fstat and close */

struct fdkey {
	uint32_t serial;
	int32_t fd;
};

struct fdst {
	struct dio_file_tag tag;
	uint64_t ts_open;
	uint64_t bytes;
	int64_t pos;
	uint64_t moved_at;	/* the file's move count after this fd's last move */
	uint64_t seek_ts;	/* of the pending FD_SEEK */
	uint32_t data_calls;
	uint32_t pid, tid;
	uint32_t flags;
	struct seq seq;
	char comm[DIO_COMM_LEN];	/* of the thread that opened it */
};

/*
 * The evidence of one pattern on one file or process: its instances, the
 * first and last time, the thread of the first, and its excerpt: an id of the
 * pool, the fd + 1 whose calls are going into it now, and whether it holds a
 * whole instance.
 */
struct evid {
	uint64_t count, ts_first, ts_last;
	uint32_t tid;
	uint32_t ex, cap, done;
	char comm[DIO_COMM_LEN];
};

struct filekey {
	uint32_t serial;
	uint32_t pad;
	struct dio_file_tag tag;
};

struct file {
	uint32_t pid;
	uint32_t nopen;		/* fds of the process on it */
	uint64_t moves;		/* offset moves through any of them: when pos went stale */
	/* churn: the small windows, from the first one's open to the last one's close */
	struct evid churn;
	uint64_t windows, small_bytes;
	uint32_t seq_approx;	/* a sequence was pushed out: counts are upper bounds */
	uint32_t pad;
	struct seqcount seqs[SEQS];
	/* seek: from the first lseek to the last read or write after one */
	struct evid seek;
};

struct proc {
	uint32_t serial;
	uint32_t ncomm, ntags;
	uint32_t pad;
	struct evid reopen;	/* sync-reopens, from the open of the first */
	uint64_t other_files;	/* sync-reopens of files past the NAMES kept */
	char comm[NAMES][DIO_COMM_LEN];
	struct dio_file_tag tags[NAMES];
};

/* who holds an excerpt of the pool */
#define KIND_CHURN	1
#define KIND_REOPEN	2
#define KIND_SEEK	3

struct owner {
	uint32_t kind;
	uint32_t serial;
	struct dio_file_tag tag;	/* KIND_REOPEN: ino is the pid */
};

struct ref {
	uint64_t ts;
	uint32_t kind, pid;
	const void *key, *val;
};

struct ro {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	struct table procs, files, fds;
	struct expool pool;
	uint64_t min_windows, max_bytes, max_data_calls, min_sync_reopens, min_seeks;
	double min_rate;
	uint32_t next_serial;
	int err;		/* first error of emit_finding in a callback */
	struct ref *refs;	/* for finish: every table entry that may be a finding */
	size_t nrefs_max;
};

static struct filekey file_key(uint32_t serial, const struct dio_file_tag *tag)
{
	struct filekey k;

	memset(&k, 0, sizeof(k));
	k.serial = serial;
	k.tag = *tag;
	return k;
}

static struct owner owner_of(uint32_t kind, uint32_t serial, const struct dio_file_tag *tag)
{
	struct owner o;

	memset(&o, 0, sizeof(o));
	o.kind = kind;
	o.serial = serial;
	o.tag = *tag;
	return o;
}

static struct owner proc_owner(uint32_t pid, uint32_t serial)
{
	struct dio_file_tag t = { .ino = pid };

	return owner_of(KIND_REOPEN, serial, &t);
}

/* ---- text ----------------------------------------------------------------- */

static void seq_add(struct seq *q, uint16_t nr)
{
	if (q->n < SEQ_MAX)
		q->nr[q->n++] = nr;
	else
		q->n = SEQ_MAX + 1;
}

/* "openat lseek fstat write close", " ..." when the window made more calls */
static const char *seq_text(const struct ro *s, const struct seq *q, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (uint16_t i = 0; i < q->n && i < SEQ_MAX && off < len; i++) {
		int k = snprintf(buf + off, len - off, "%s%s", i ? " " : "",
				 s->host->syscall_name(q->nr[i]));

		if (k > 0)
			off += (size_t)k;
	}
	if (q->n > SEQ_MAX && off < len)
		snprintf(buf + off, len - off, " ...");
	return buf;
}

/* whole numbers without decimals */
static const char *num_text(double v, char *buf, size_t len)
{
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

/* ---- excerpts --------------------------------------------------------------- */

static void on_release(const void *owner, void *ud)
{
	const struct owner *o = owner;
	struct ro *s = ud;

	if (o->kind == KIND_REOPEN) {
		uint32_t pid = (uint32_t)o->tag.ino;
		struct proc *p = table_get(&s->procs, &pid);

		if (p && p->serial == o->serial)
			p->reopen.ex = p->reopen.cap = p->reopen.done = 0;
	} else {
		struct filekey k = file_key(o->serial, &o->tag);
		struct file *f = table_get(&s->files, &k);

		struct evid *v = !f ? NULL : o->kind == KIND_CHURN ? &f->churn : &f->seek;

		if (v)
			v->ex = v->cap = v->done = 0;
	}
}

/*
 * Start putting the calls of fd, from ev on, into the excerpt of v, asking the
 * pool for one (with score: the instances that will be) when v has none. Only
 * one fd at a time, and only until v holds a whole instance.
 */
static void capture_start(struct ro *s, struct evid *v, const struct owner *o, uint64_t score,
			  int32_t fd, const struct dio_ev_hdr *ev)
{
	if (v->cap || v->done)
		return;
	if (!v->ex && expool_worth_asking(score))
		v->ex = expool_take(&s->pool, o, score);
	if (!v->ex)
		return;
	excerpt_reset(expool_excerpt(&s->pool, v->ex));
	v->cap = (uint32_t)fd + 1;
	excerpt_add(expool_excerpt(&s->pool, v->ex), s->host, s->ctx, ev, EXCERPT_LINES);
}

static void capture_add(struct ro *s, const struct evid *v, int32_t fd,
			const struct dio_ev_hdr *ev)
{
	if (v->cap && v->cap == (uint32_t)fd + 1)
		excerpt_add(expool_excerpt(&s->pool, v->ex), s->host, s->ctx, ev, EXCERPT_LINES);
}

/* the calls of fd end: a whole instance (kept for the finding), or not one */
static void capture_end(struct evid *v, int32_t fd, int instance)
{
	if (v->cap != (uint32_t)fd + 1)
		return;
	v->cap = 0;
	v->done = instance;
}

/* one more instance, at ts; the first names the thread */
static void evid_count(struct ro *s, struct evid *v, uint64_t first, uint64_t last, uint32_t tid,
		       const char *comm)
{
	if (!v->count) {
		v->ts_first = first;
		v->tid = tid;
		memcpy(v->comm, comm, sizeof(v->comm));
	}
	v->count++;
	v->ts_last = last;
	expool_score(&s->pool, v->ex, v->count);
}

/* fill the evidence of fd from v, emit it */
static int emit_evid(struct ro *s, struct dio_finding *fd, uint32_t pid, const char *path,
		     const struct dio_file_tag *tag, struct evid *v)
{
	int err;

	fd->pid = pid;
	fd->tid = v->tid;
	fd->comm = v->comm;
	fd->path = path;
	fd->tag = *tag;
	fd->has_tag = 1;
	fd->ts_first = v->ts_first;
	fd->ts_last = v->ts_last;
	fd->count = v->count;
	if (v->done)
		fd->excerpt = excerpt_text(expool_excerpt(&s->pool, v->ex));
	err = s->host->emit_finding(s->ctx, fd);
	if (err && !s->err)
		s->err = err;
	return err;
}

/* ---- findings --------------------------------------------------------------- */

static double churn_rate(const struct file *f)
{
	double span = (double)(f->churn.ts_last - f->churn.ts_first) / 1e9;

	return span > 0 ? (double)f->churn.count / span : 1e12;
}

static int churn_due(const struct ro *s, const struct file *f)
{
	return f->churn.count >= s->min_windows && churn_rate(f) >= s->min_rate;
}

static const struct seqcount *top_seq(const struct file *f)
{
	const struct seqcount *top = &f->seqs[0];

	for (int i = 1; i < SEQS; i++)
		if (f->seqs[i].count > top->count)
			top = &f->seqs[i];
	return top;
}

static int report_churn(struct ro *s, const struct filekey *k, struct file *f)
{
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_WARNING };
	char path[512], seq[256], title[1024], msg[2048], rate[32], per[32], span[32];
	const struct seqcount *top = top_seq(f);
	const struct evid *v = &f->churn;

	file_label(s->host, s->ctx, &k->tag, path, sizeof(path));
	seq_text(s, &top->seq, seq, sizeof(seq));
	num_text((double)(uint64_t)(churn_rate(f) + 0.5), rate, sizeof(rate));
	num_text((double)f->small_bytes / (double)v->count, per, sizeof(per));
	span_text(v->ts_last - v->ts_first, span, sizeof(span));
	snprintf(title, sizeof(title),
		 "%s opened and closed %" PRIu64 " times in %s (%s/s), %s bytes per open: %s",
		 path, v->count, span, rate, per, seq);
	snprintf(msg, sizeof(msg),
		 "Process %u (%s) opened %s and closed it again %" PRIu64 " times with fewer "
		 "than %" PRIu64 " bytes and at most %" PRIu64 " read or write calls in between "
		 "(%" PRIu64 " of its %" PRIu64 " open-close windows on this file, %" PRIu64
		 " bytes in all); %s%" PRIu32 " of them made the calls %s.\n"
		 "Each window pays a path lookup, an open and a close (and the calls around them) "
		 "for a few bytes of I/O. Keep the file open and write through the same fd; "
		 "gather what is written and write it at once (a buffer, writev); open it once "
		 "with O_APPEND rather than seeking to its end before every write.",
		 f->pid, v->comm, path, v->count, s->max_bytes, s->max_data_calls, v->count,
		 f->windows, f->small_bytes, f->seq_approx ? "at most " : "", top->count, seq);
	fd.code = "redundant-open.churn";
	fd.title = title;
	fd.message = msg;
	return emit_evid(s, &fd, f->pid, path, &k->tag, &f->churn);
}

static int report_seek(struct ro *s, const struct filekey *k, struct file *f)
{
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_INFO };
	char path[512], title[1024], msg[1536];

	file_label(s->host, s->ctx, &k->tag, path, sizeof(path));
	snprintf(title, sizeof(title),
		 "%" PRIu64 " lseek calls set the offset the fd already had, before a read or "
		 "write: %s", f->seek.count, path);
	snprintf(msg, sizeof(msg),
		 "Process %u (%s) called lseek on %s %" PRIu64 " times to move to the offset its "
		 "fd was at already, and then read or wrote there. The kernel keeps the offset "
		 "of an fd: leave these lseek calls out, or use pread/pwrite where the offset "
		 "must be stated.", f->pid, f->seek.comm, path, f->seek.count);
	fd.code = "redundant-open.seek";
	fd.title = title;
	fd.message = msg;
	return emit_evid(s, &fd, f->pid, path, &k->tag, &f->seek);
}

/* "a, b, c" of n entries of text(i) into buf */
static void list_text(char *buf, size_t len, uint32_t n,
		      const char *(*text)(void *ud, uint32_t i, char *one, size_t olen), void *ud)
{
	size_t off = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < n && off < len; i++) {
		char one[512];
		int k = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				 text(ud, i, one, sizeof(one)));

		off += k > 0 ? (size_t)k : 0;
	}
}

struct reopen_ctx {
	struct ro *s;
	struct proc *p;
};

static const char *reopen_path(void *ud, uint32_t i, char *one, size_t len)
{
	struct reopen_ctx *c = ud;

	return file_label(c->s->host, c->s->ctx, &c->p->tags[i], one, len);
}

static const char *reopen_comm(void *ud, uint32_t i, char *one, size_t len)
{
	struct reopen_ctx *c = ud;

	(void)one;
	(void)len;
	return c->p->comm[i];
}

static int report_reopen(struct ro *s, uint32_t pid, struct proc *p)
{
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_INFO };
	char paths[1024], first[512], threads[128], more[64] = "", title[1280], msg[2560];
	struct reopen_ctx c = { s, p };

	list_text(paths, sizeof(paths), p->ntags, reopen_path, &c);
	list_text(threads, sizeof(threads), p->ncomm, reopen_comm, &c);
	file_label(s->host, s->ctx, &p->tags[0], first, sizeof(first));
	if (p->other_files)
		snprintf(more, sizeof(more), " and %" PRIu64 " times other files",
			 p->other_files);
	snprintf(title, sizeof(title),
		 "%" PRIu64 " times a file already open was opened again only to fsync it: %s%s",
		 p->reopen.count, paths, p->other_files ? ", ..." : "");
	snprintf(msg, sizeof(msg),
		 "Process %u opened %s%s again while it held an fd to it, used the new fd only "
		 "to sync it (fsync, fdatasync, sync_file_range; fstat at most) and closed it, "
		 "%" PRIu64 " times, in threads: %s. Each time costs a path lookup, an open and a "
		 "close on top of the sync, which the fd already open would have done alike: "
		 "fsync the existing fd (FileChannel.force on the channel already open) instead "
		 "of reopening the path.", pid, paths, more, p->reopen.count, threads);
	fd.code = "redundant-open.sync-reopen";
	fd.title = title;
	fd.message = msg;
	return emit_evid(s, &fd, pid, first, &p->tags[0], &p->reopen);
}

/* ---- eviction: what leaves a table is reported if it is a finding ---------------- */

static void file_evicted(void *key, void *val, void *ud)
{
	struct ro *s = ud;
	struct file *f = val;

	if (churn_due(s, f))
		report_churn(s, key, f);
	if (f->seek.count >= s->min_seeks)
		report_seek(s, key, f);
	expool_put(&s->pool, f->churn.ex);
	expool_put(&s->pool, f->seek.ex);
}

static void proc_gone(struct ro *s, uint32_t pid, struct proc *p)
{
	if (p->reopen.count >= s->min_sync_reopens)
		report_reopen(s, pid, p);
	expool_put(&s->pool, p->reopen.ex);
}

static void proc_evicted(void *key, void *val, void *ud)
{
	proc_gone(ud, *(uint32_t *)key, val);
}

/* fd is forgotten without a close: its file loses an open fd, its captures end */
static void fd_forget(struct ro *s, const struct fdkey *k, struct fdst *d)
{
	struct filekey fk = file_key(k->serial, &d->tag);
	struct file *f = table_get(&s->files, &fk);
	struct proc *p = table_get(&s->procs, &d->pid);

	if (f) {
		f->nopen -= f->nopen > 0;
		capture_end(&f->churn, k->fd, 0);
		capture_end(&f->seek, k->fd, 0);
	}
	if (p && p->serial == k->serial)
		capture_end(&p->reopen, k->fd, 0);
}

static void fd_evicted(void *key, void *val, void *ud)
{
	fd_forget(ud, key, val);
}

/* ---- init ------------------------------------------------------------------- */

static void ro_destroy(void *state)
{
	struct ro *s = state;

	if (!s)
		return;
	table_free(&s->procs);
	table_free(&s->files);
	table_free(&s->fds);
	expool_free(&s->pool);
	free(s->refs);
	free(s);
}

static int ro_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	static const int positive[] = { O_MIN_WINDOWS, O_MAX_BYTES, O_MIN_SYNC_REOPENS,
					O_MIN_SEEKS, O_MAX_PROCS, O_MAX_FILES, O_MAX_FDS };
	struct ro *s = calloc(1, sizeof(*s));
	int err = -EINVAL;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	for (size_t i = 0; i < sizeof(positive) / sizeof(positive[0]); i++) {
		if (o[positive[i]].i < 1 || o[positive[i]].i > (1 << 30)) {
			host->log(ctx, "%s must be from 1 to %d", options[positive[i]].name,
				  1 << 30);
			goto cleanup;
		}
	}
	if (o[O_MAX_DATA_CALLS].i < 0 || o[O_EXCERPTS].i < 0 || o[O_EXCERPTS].i > 65536 ||
	    !(o[O_MIN_RATE].d >= 0)) {
		host->log(ctx, "max_data_calls and min_rate must be at least 0, excerpts from 0 "
			  "to 65536");
		goto cleanup;
	}
	s->min_windows = (uint64_t)o[O_MIN_WINDOWS].i;
	s->max_bytes = (uint64_t)o[O_MAX_BYTES].i;
	s->max_data_calls = (uint64_t)o[O_MAX_DATA_CALLS].i;
	s->min_rate = o[O_MIN_RATE].d;
	s->min_sync_reopens = (uint64_t)o[O_MIN_SYNC_REOPENS].i;
	s->min_seeks = (uint64_t)o[O_MIN_SEEKS].i;
	call_kinds_init(&s->kinds, host);
	err = table_init(&s->procs, sizeof(uint32_t), sizeof(struct proc),
			 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = table_init(&s->files, sizeof(struct filekey), sizeof(struct file),
				 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = table_init(&s->fds, sizeof(struct fdkey), sizeof(struct fdst),
				 (size_t)o[O_MAX_FDS].i);
	if (!err)
		err = expool_init(&s->pool, (uint32_t)o[O_EXCERPTS].i, sizeof(struct owner));
	if (err)
		goto cleanup;
	s->procs.evict = proc_evicted;
	s->files.evict = file_evicted;
	s->fds.evict = fd_evicted;
	s->procs.ud = s->files.ud = s->fds.ud = s->pool.ud = s;
	s->pool.release = on_release;
	s->nrefs_max = 2 * (size_t)o[O_MAX_FILES].i + (size_t)o[O_MAX_PROCS].i;
	s->refs = calloc(s->nrefs_max, sizeof(*s->refs));
	if (!s->refs) {
		err = -ENOMEM;
		goto cleanup;
	}
	*state = s;
	return 0;
cleanup:
	ro_destroy(s);
	return err;
}

/* ---- events ----------------------------------------------------------------- */

static struct proc *proc_of(struct ro *s, uint32_t pid)
{
	int created;
	struct proc *p = table_put(&s->procs, &pid, &created);

	if (created)
		p->serial = ++s->next_serial;
	return p;
}

static struct file *file_of(struct ro *s, uint32_t serial, const struct dio_ev_syscall *e)
{
	struct filekey k = file_key(serial, &e->tag);
	struct file *f = table_put(&s->files, &k, NULL);

	f->pid = e->pid;
	return f;
}

static void seq_count(struct file *f, const struct seq *q)
{
	struct seqcount *low = &f->seqs[0];

	for (int i = 0; i < SEQS; i++) {
		struct seqcount *c = &f->seqs[i];

		if (c->count && !memcmp(&c->seq, q, sizeof(*q))) {
			c->count++;
			return;
		}
		if (c->count < low->count)
			low = c;
	}
	/* space-saving: the newcomer takes the smallest count, plus one */
	if (low->count)
		f->seq_approx = 1;
	low->seq = *q;
	low->count++;
}

/* a successful open, creat, openat, openat2 */
static void on_open(struct ro *s, const struct dio_ev_syscall *e)
{
	struct proc *p = proc_of(s, e->pid);
	struct fdkey k = { p->serial, (int32_t)e->ret };
	uint32_t serial = p->serial;
	struct owner o;
	struct fdst *d;
	struct file *f;
	int reopen;

	d = table_get(&s->fds, &k);
	if (d) {	/* that fd was closed behind our back (dup2 over it, a lost close) */
		fd_forget(s, &k, d);
		table_del(&s->fds, &k);
	}
	if (!(e->flags & DIO_SF_FILE) || e->ftype != DIO_FT_REG)
		return;
	f = file_of(s, serial, e);
	reopen = f->nopen > 0;
	f->nopen++;
	d = table_put(&s->fds, &k, NULL);	/* evicts through table_get only: f stays */
	memset(d, 0, sizeof(*d));
	d->tag = e->tag;
	d->ts_open = e->hdr.ts;
	d->pid = e->pid;
	d->tid = e->tid;
	memcpy(d->comm, e->comm, sizeof(d->comm));
	d->flags = FD_WINDOW | FD_POS | (reopen ? FD_REOPEN : 0);
	d->pos = 0;
	d->moved_at = f->moves;
	seq_add(&d->seq, e->nr);
	/* the window that comes after one small window is the likely excerpt */
	o = owner_of(KIND_CHURN, serial, &e->tag);
	if (f->churn.count)
		capture_start(s, &f->churn, &o, f->churn.count, k.fd, &e->hdr);
	if (reopen) {
		p = table_get(&s->procs, &e->pid);
		o = proc_owner(e->pid, serial);
		if (p)
			capture_start(s, &p->reopen, &o, p->reopen.count + 1, k.fd, &e->hdr);
	}
}

/* the pending seek of d was not followed by a read or write */
static void seek_dropped(struct file *f, struct fdst *d, int32_t fd)
{
	if (d->flags & FD_SEEK)
		capture_end(&f->seek, fd, 0);
	d->flags &= ~FD_SEEK;
}

static void moved(struct file *f, struct fdst *d, int known, int64_t pos)
{
	d->flags = known ? d->flags | FD_POS : d->flags & ~FD_POS;
	d->pos = pos;
	d->moved_at = ++f->moves;
}

static void on_data(struct ro *s, struct file *f, struct fdst *d, const struct dio_ev_syscall *e)
{
	int failed = call_failed(e->ret);

	d->flags |= FD_USED;
	if (d->flags & FD_WINDOW) {
		d->data_calls++;
		if (!failed && e->ret > 0)
			d->bytes += (uint64_t)e->ret;
	}
	/* pread and pwrite leave the offset; preadv2 and pwritev2 at offset -1 use it */
	if ((s->kinds.flags[e->nr] & CALL_POSITIONAL) && e->args[3] != UINT64_MAX)
		return;
	if (failed)
		seek_dropped(f, d, e->fd);
	if (d->flags & FD_SEEK) {
		evid_count(s, &f->seek, d->seek_ts, e->hdr.ts, e->tid, e->comm);
		capture_add(s, &f->seek, e->fd, &e->hdr);
		capture_end(&f->seek, e->fd, 1);
		d->flags &= ~FD_SEEK;
	}
	moved(f, d, !failed && (e->flags & DIO_SF_OFFSET), e->offset + (failed ? 0 : e->ret));
}

static void on_seek(struct ro *s, uint32_t serial, struct file *f, struct fdst *d,
		    const struct dio_ev_syscall *e)
{
	uint64_t whence = e->args[2];
	struct owner o;

	d->flags |= FD_USED;
	seek_dropped(f, d, e->fd);
	if (call_failed(e->ret) || !(e->flags & DIO_SF_OFFSET)) {
		moved(f, d, 0, 0);
		return;
	}
	/* SEEK_CUR and SEEK_DATA/SEEK_HOLE ask where the offset is; they set nothing */
	if ((whence == SEEK_SET_ || whence == SEEK_END_) && (d->flags & FD_POS) &&
	    d->moved_at == f->moves && d->pos == e->ret) {
		d->flags |= FD_SEEK;
		d->seek_ts = e->hdr.ts;
		o = owner_of(KIND_SEEK, serial, &e->tag);
		capture_start(s, &f->seek, &o, f->seek.count + 1, e->fd, &e->hdr);
	}
	moved(f, d, 1, e->ret);
}

static void on_close(struct ro *s, struct proc *p, struct file *f, struct fdst *d,
		     const struct dio_ev_syscall *e)
{
	int32_t fd = e->fd;

	if (d->flags & FD_WINDOW) {
		int small = d->bytes < s->max_bytes && d->data_calls <= s->max_data_calls;

		f->windows++;
		if (small) {
			evid_count(s, &f->churn, d->ts_open, e->hdr.ts, d->tid, d->comm);
			f->small_bytes += d->bytes;
			seq_count(f, &d->seq);
		}
		capture_end(&f->churn, fd, small);
	}
	if ((d->flags & (FD_REOPEN | FD_SYNCED | FD_USED)) == (FD_REOPEN | FD_SYNCED)) {
		int i;

		evid_count(s, &p->reopen, d->ts_open, e->hdr.ts, e->tid, e->comm);
		for (i = 0; i < (int)p->ncomm && strncmp(p->comm[i], e->comm, DIO_COMM_LEN); i++)
			;
		if (i == (int)p->ncomm && p->ncomm < NAMES)
			memcpy(p->comm[p->ncomm++], e->comm, DIO_COMM_LEN);
		for (i = 0; i < (int)p->ntags && !file_tag_eq(&p->tags[i], &d->tag); i++) {
			/* a file deleted and made again under its name is the same file here */
			const char *a = s->host->tag_path(s->ctx, &p->tags[i]);
			const char *b = s->host->tag_path(s->ctx, &d->tag);

			if (a && b && !strcmp(a, b))
				break;
		}
		if (i == (int)p->ntags && p->ntags < NAMES)
			p->tags[p->ntags++] = d->tag;
		else if (i == (int)p->ntags)
			p->other_files++;
		capture_end(&p->reopen, fd, 1);
	} else {
		capture_end(&p->reopen, fd, 0);
	}
	seek_dropped(f, d, fd);
	f->nopen -= f->nopen > 0;
}

/* a call through an fd that names a file */
static void on_fd_call(struct ro *s, const struct dio_ev_syscall *e, enum call_kind kind)
{
	struct proc *p = proc_of(s, e->pid);
	uint32_t serial = p->serial;
	struct fdkey k = { serial, e->fd };
	struct fdst *d = table_get(&s->fds, &k);
	struct file *f;
	int created = 0;

	if (d && !file_tag_eq(&d->tag, &e->tag)) {
		fd_forget(s, &k, d);
		table_del(&s->fds, &k);
		d = NULL;
	}
	if (!d && (kind == CALL_CLOSE || e->ftype != DIO_FT_REG))
		return;
	if (!d) {
		/* opened before the trace, inherited, or a dup: no window, offset unknown */
		d = table_put(&s->fds, &k, &created);
		memset(d, 0, sizeof(*d));
		d->tag = e->tag;
		d->pid = e->pid;
		d->tid = e->tid;
		memcpy(d->comm, e->comm, sizeof(d->comm));
	}
	{
		struct filekey fk = file_key(serial, &e->tag);
		int fcreated;

		f = table_put(&s->files, &fk, &fcreated);
		f->pid = e->pid;
		if (created || fcreated)
			f->nopen++;
	}
	p = table_get(&s->procs, &e->pid);	/* the puts above may have moved it */
	if (d->flags & FD_WINDOW)
		seq_add(&d->seq, e->nr);
	capture_add(s, &f->churn, e->fd, &e->hdr);
	if (p)
		capture_add(s, &p->reopen, e->fd, &e->hdr);
	switch (kind) {
	case CALL_CLOSE:
		if (p)
			on_close(s, p, f, d, e);
		table_del(&s->fds, &k);
		return;
	case CALL_READ:
	case CALL_WRITE:
		on_data(s, f, d, e);
		break;
	case CALL_SEEK:
		on_seek(s, serial, f, d, e);
		break;
	case CALL_SYNC:
		d->flags |= FD_SYNCED;
		break;
	case CALL_STAT:
	case CALL_TRUNCATE:	/* neither moves the offset */
		d->flags |= kind == CALL_TRUNCATE ? FD_USED : 0;
		break;
	default:
		/* sendfile, splice, getdents, ... may move the offset: no longer known */
		d->flags |= FD_USED;
		seek_dropped(f, d, e->fd);
		moved(f, d, 0, 0);
		break;
	}
}

static void on_proc(struct ro *s, const struct dio_ev_proc *pe)
{
	uint32_t pid;
	struct proc *p;

	if (pe->kind == DIO_PROC_EXIT && (pe->flags & DIO_PROCF_GROUP_DEAD))
		pid = pe->pid;
	else if (pe->kind == DIO_PROC_FORK && !(pe->flags & DIO_PROCF_THREAD))
		pid = pe->other_pid;	/* a new process: whatever had its pid is gone */
	else
		return;
	p = table_get(&s->procs, &pid);
	if (!p)
		return;
	/* its fds are left to age out of the table: nothing matches their serial again */
	proc_gone(s, pid, p);
	table_del(&s->procs, &pid);
}

static int ro_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ro *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	enum call_kind kind;

	if (ev->type == DIO_EV_PROC) {
		on_proc(s, (const void *)ev);
	} else if (ev->type == DIO_EV_SYSCALL) {
		kind = call_kind(&s->kinds, e->nr);
		if (kind == CALL_OPEN && !call_failed(e->ret) && e->ret >= 0)
			on_open(s, e);
		else if (kind != CALL_OPEN && e->fd >= 0 && (e->flags & DIO_SF_FILE))
			on_fd_call(s, e, kind);
	}
	return s->err;
}

/* ---- finish: what is left, oldest first --------------------------------------- */

struct collect {
	struct ro *s;
	size_t n;
};

static void add_ref(struct collect *c, uint64_t ts, uint32_t kind, uint32_t pid,
		    const void *key, const void *val)
{
	if (c->n < c->s->nrefs_max)
		c->s->refs[c->n++] = (struct ref){ ts, kind, pid, key, val };
}

static void collect_file(void *key, void *val, void *ud)
{
	struct collect *c = ud;
	struct file *f = val;

	if (churn_due(c->s, f))
		add_ref(c, f->churn.ts_first, KIND_CHURN, f->pid, key, val);
	if (f->seek.count >= c->s->min_seeks)
		add_ref(c, f->seek.ts_first, KIND_SEEK, f->pid, key, val);
}

static void collect_proc(void *key, void *val, void *ud)
{
	struct collect *c = ud;
	struct proc *p = val;

	if (p->reopen.count >= c->s->min_sync_reopens)
		add_ref(c, p->reopen.ts_first, KIND_REOPEN, *(uint32_t *)key, key, val);
}

/* by time, then kind, pid and file: the order does not depend on the tables' layout */
static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->kind == KIND_REOPEN)
		return 0;
	return file_tag_cmp(&((const struct filekey *)x->key)->tag,
		       &((const struct filekey *)y->key)->tag);
}

static int ro_finish(void *state)
{
	struct ro *s = state;
	struct collect c = { s, 0 };

	table_each(&s->files, collect_file, &c);
	table_each(&s->procs, collect_proc, &c);
	qsort(s->refs, c.n, sizeof(*s->refs), ref_cmp);
	for (size_t i = 0; i < c.n; i++) {
		const struct ref *r = &s->refs[i];

		if (r->kind == KIND_CHURN)
			report_churn(s, r->key, (struct file *)r->val);
		else if (r->kind == KIND_SEEK)
			report_seek(s, r->key, (struct file *)r->val);
		else
			report_reopen(s, r->pid, (struct proc *)r->val);
	}
	return s->err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "redundant-open",
	.description = "files opened and closed over and over, reopened only to fsync, "
		       "lseeks to where the fd already is",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = ro_init,
	.event = ro_event,
	.finish = ro_finish,
	.destroy = ro_destroy,
};
