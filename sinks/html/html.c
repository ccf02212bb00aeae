// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * html: one self-contained HTML page of a session, written when it is over
 * (dio report, --report). The records are not kept: as they pass, they are
 * added up into the figures the page shows (calls, bytes and time per file
 * and per system call, latency histograms by class, threads and processes),
 * and the page embeds those figures as JSON with the findings and their
 * evidence. The page's own script and style are compiled in (html-page.h):
 * nothing is fetched when it is opened.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/sink.h>

#include "sinks/common/report.h"
#include "sinks/html/html-page.h"
#include "sinks/html/timeline.h"

enum { O_FILE, O_FILES_BY };

static const struct dio_option options[] = {
	[O_FILE] = { "file", DIO_OPT_STRING, NULL, "HTML report to write when the session ends" },
	[O_FILES_BY] = { "files_by", DIO_OPT_STRING, "path",
			 "\"path\": a file row per path, sockets and pipes a row each; "
			 "\"tag\": a row per file" },
	{ NULL, 0, NULL, NULL },
};

#define HBUCKETS	40	/* log2 ns latency buckets: up to ~9 minutes */
#define NCLASS		TL_CLASSES	/* the DIO_SC_* classes, and calls in none */
#define BLKOPS		16	/* block histograms by device and operation */
/*
 * Files with a row of their own, as the summary analyzer keeps 10 000: past
 * twice as many, those that cost least (time in calls, then calls) are added
 * into one row, so that a trace of millions of files makes a page of
 * megabytes, not of hundreds.
 */
#define FILES_SHOWN	10000
/*
 * Threads the same way, by time in calls: a machine that starts threads
 * without end (dio trace -a) makes a page of its 10 000 busiest, and those
 * with a lane of their own in the timeline, which always keep their row.
 */
#define THREADS_SHOWN	10000

static const char *const class_names[NCLASS] = {
	"data", "sync", "meta", "dir", "xattr", "async", "other",
};

struct fstat {
	struct dio_file_tag tag;
	uint64_t calls, errors, rbytes, wbytes, ns;
	uint32_t pid;		/* the first process that used it */
	uint8_t used, ftype;
};

struct tstat {
	uint32_t tid, pid;
	char comm[DIO_COMM_LEN + 1];
	uint64_t calls, rbytes, wbytes, ns;
	uint32_t lane;		/* its timeline lane */
	int32_t group;		/* its thread group (by its name now), -1: none counted */
	uint8_t used;
};

/* block request times of one device and operation (R, W, D, F, N: as blktrace) */
struct blkop {
	uint32_t dev;
	char op;
	uint64_t hist[HBUCKETS];
};

/* open addressing; grows at half full */
struct table {
	void *v;
	size_t n, cap, elem;
	int files;		/* of struct fstat, else of struct tstat */
};

struct html {
	struct report r;
	uint64_t first_ts, last_ts, records;
	uint64_t calls, errors, rbytes, wbytes, ns;
	uint64_t nr_calls[DIO_NR_MAX], nr_errors[DIO_NR_MAX], nr_ns[DIO_NR_MAX];
	uint8_t nr_io[DIO_NR_MAX], nr_class[DIO_NR_MAX];
	uint64_t lat[NCLASS][HBUCKETS];
	uint64_t blk[HBUCKETS], runq[HBUCKETS], nblk, nrunq;
	struct blkop blkops[BLKOPS + 1];	/* the last: the rest */
	uint32_t nblkops;
	struct table files, threads;
	struct fstat other;		/* the files summed into one row */
	uint64_t nother;		/* rows summed into it */
	struct tstat tother;		/* the threads summed into one row */
	uint64_t ntother;		/* rows summed into it */
	struct timeline tl;
	int by_tag;			/* files_by=tag: a file row per file, as the table keeps them */
};

static void html_destroy(void *state)
{
	struct html *h = state;

	if (!h)
		return;
	report_fini(&h->r);
	tl_free(&h->tl);
	free(h->files.v);
	free(h->threads.v);
	free(h);
}

static int table_init(struct table *t, int files)
{
	t->files = files;
	t->elem = files ? sizeof(struct fstat) : sizeof(struct tstat);
	t->cap = 256;
	t->v = calloc(t->cap, t->elem);
	return t->v ? 0 : -ENOMEM;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static struct fstat *file_slot(struct fstat *v, size_t cap, const struct dio_file_tag *tag)
{
	size_t i = mix(tag->ino ^ (uint64_t)tag->dev << 32 ^ tag->gen) & (cap - 1);

	while (v[i].used && (v[i].tag.ino != tag->ino || v[i].tag.dev != tag->dev ||
			     v[i].tag.gen != tag->gen))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

static struct tstat *thread_slot(struct tstat *v, size_t cap, uint32_t tid)
{
	size_t i = mix(tid) & (cap - 1);

	while (v[i].used && v[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/* e's slot in v, a table of cap entries like t's */
static void *slot_in(const struct table *t, void *v, size_t cap, const void *e)
{
	if (t->files)
		return file_slot(v, cap, &((const struct fstat *)e)->tag);
	return thread_slot(v, cap, ((const struct tstat *)e)->tid);
}

/* t's entry i, NULL when that slot is empty */
static void *entry(const struct table *t, size_t i)
{
	void *e = (char *)t->v + i * t->elem;

	return (t->files ? ((struct fstat *)e)->used : ((struct tstat *)e)->used) ? e : NULL;
}

/* a table twice as large with the same entries; 0 or -ENOMEM */
static int table_grow(struct table *t)
{
	size_t cap = 2 * t->cap;
	void *v = calloc(cap, t->elem);

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		void *e = entry(t, i);

		if (e)
			memcpy(slot_in(t, v, cap, e), e, t->elem);
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

/*
 * The keep entries that come first by cmp stay in t; fold adds each other
 * one into the row of the rest. 0 or -ENOMEM (t as it was).
 */
static int keep_top(struct html *h, struct table *t, size_t keep,
		    int (*cmp)(const void *, const void *), void (*fold)(struct html *h, void *e))
{
	char *nv = NULL;
	void **by = NULL;
	size_t n = 0;
	int err = -ENOMEM;

	if (t->n <= keep)
		return 0;
	by = malloc(t->n * sizeof(*by));
	nv = calloc(t->cap, t->elem);
	if (!by || !nv)
		goto cleanup;
	for (size_t i = 0; i < t->cap; i++) {
		void *e = entry(t, i);

		if (e)
			by[n++] = e;
	}
	qsort(by, n, sizeof(*by), cmp);
	for (size_t i = 0; i < n; i++) {
		if (i < keep)
			memcpy(slot_in(t, nv, t->cap, by[i]), by[i], t->elem);
		else
			fold(h, by[i]);
	}
	free(t->v);
	t->v = nv;
	t->n = keep;
	nv = NULL;
	err = 0;
cleanup:
	free(by);
	free(nv);
	return err;
}

/* the most costly first: time in calls, then calls, then the tag */
static int by_cost(const void *a, const void *b)
{
	const struct fstat *x = *(const struct fstat *const *)a, *y = *(const struct fstat *const *)b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->tag.ino != y->tag.ino)
		return x->tag.ino < y->tag.ino ? -1 : 1;
	if (x->tag.dev != y->tag.dev)
		return x->tag.dev < y->tag.dev ? -1 : 1;
	return x->tag.gen < y->tag.gen ? -1 : x->tag.gen > y->tag.gen;
}

static void fold_file(struct html *h, void *e)
{
	const struct fstat *f = e;

	h->other.calls += f->calls;
	h->other.errors += f->errors;
	h->other.rbytes += f->rbytes;
	h->other.wbytes += f->wbytes;
	h->other.ns += f->ns;
	h->nother++;
}

/*
 * The keep files that cost most stay in the table; the others are added into
 * h->other and counted. A file that comes back starts a row again (its
 * earlier figures stay in the sum). 0 or -ENOMEM.
 */
static int keep_costly(struct html *h, size_t keep)
{
	return keep_top(h, &h->files, keep, by_cost, fold_file);
}

/* threads with a timeline lane first (their row holds the lane), then the busiest */
static int by_busy(const void *a, const void *b)
{
	const struct tstat *x = *(const struct tstat *const *)a, *y = *(const struct tstat *const *)b;
	int lx = x->lane < TL_LANES, ly = y->lane < TL_LANES;

	if (lx != ly)
		return ly - lx;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void fold_thread(struct html *h, void *e)
{
	const struct tstat *t = e;

	h->tother.calls += t->calls;
	h->tother.rbytes += t->rbytes;
	h->tother.wbytes += t->wbytes;
	h->tother.ns += t->ns;
	h->ntother++;
}

/*
 * The keep threads with a lane or the most time in calls stay; the others
 * are added into h->tother and counted. A thread that comes back starts a
 * row again, in the timeline's shared lane. 0 or -ENOMEM.
 */
static int keep_busiest(struct html *h, size_t keep)
{
	return keep_top(h, &h->threads, keep, by_busy, fold_thread);
}

static struct fstat *file_of(struct html *h, const struct dio_file_tag *tag)
{
	struct fstat *f;

	/* amortised: one sort for every FILES_SHOWN new files */
	if (h->files.n >= 2 * FILES_SHOWN && keep_costly(h, FILES_SHOWN))
		return NULL;
	if (2 * (h->files.n + 1) > h->files.cap && table_grow(&h->files))
		return NULL;
	f = file_slot(h->files.v, h->files.cap, tag);
	if (!f->used) {
		f->used = 1;
		f->tag = *tag;
		h->files.n++;
	}
	return f;
}

static struct tstat *thread_of(struct html *h, uint32_t tid)
{
	struct tstat *t;

	if (h->threads.n >= 2 * THREADS_SHOWN && keep_busiest(h, THREADS_SHOWN))
		return NULL;
	if (2 * (h->threads.n + 1) > h->threads.cap && table_grow(&h->threads))
		return NULL;
	t = thread_slot(h->threads.v, h->threads.cap, tid);
	if (!t->used) {
		t->used = 1;
		t->tid = tid;
		h->threads.n++;
	}
	return t;
}

static int html_init(const struct dio_host *host, struct dio_ctx *ctx,
		     const struct dio_optval *o, void **state)
{
	struct html *h = calloc(1, sizeof(*h));
	const char *by = o[O_FILES_BY].s;
	int err;

	if (!h)
		return -ENOMEM;
	if (by && strcmp(by, "path") && strcmp(by, "tag")) {
		host->log(ctx, "files_by: '%s' is not path or tag", by);
		html_destroy(h);
		return -EINVAL;
	}
	h->by_tag = by && !strcmp(by, "tag");
	if (!DIO_HOST_HAS(host, syscall_info) || !DIO_HOST_HAS(host, stats_sized)) {
		host->log(ctx, "this dio is older than the html sink: it lacks syscall_info");
		html_destroy(h);
		return -ENOSYS;
	}
	err = report_init(&h->r, host, ctx, o[O_FILE].s);
	if (!err)
		err = table_init(&h->files, 1);
	if (!err)
		err = table_init(&h->threads, 0);
	if (!err)
		err = tl_init(&h->tl, 0);
	if (err) {
		html_destroy(h);
		return err;
	}
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		struct dio_syscall_info si;
		unsigned int c = NCLASS - 1;

		if (host->syscall_info(ctx, nr, &si, sizeof(si)))
			continue;
		h->nr_io[nr] = (uint8_t)si.io;
		for (unsigned int i = 0; i < NCLASS - 1; i++)
			if (si.classes & 1u << i) {
				c = i;
				break;
			}
		h->nr_class[nr] = (uint8_t)c;
	}
	*state = h;
	return 0;
}

static unsigned int bucket(uint64_t ns)
{
	unsigned int b = 0;

	while (ns > 1 && b < HBUCKETS - 1) {
		ns >>= 1;
		b++;
	}
	return b;
}

static int add_call(struct html *h, const struct dio_ev_syscall *e)
{
	uint32_t nr = e->nr < DIO_NR_MAX ? e->nr : DIO_NR_MAX - 1;
	uint64_t rb = 0, wb = 0;
	int err = dio_ret_failed(e->ret);
	struct tstat *t;

	if (e->ret > 0 && h->nr_io[nr] == DIO_IO_READ)
		rb = (uint64_t)e->ret;
	else if (e->ret > 0 && h->nr_io[nr] == DIO_IO_WRITE)
		wb = (uint64_t)e->ret;
	h->calls++;
	h->errors += err;
	h->rbytes += rb;
	h->wbytes += wb;
	h->ns += e->duration;
	h->nr_calls[nr]++;
	h->nr_errors[nr] += err;
	h->nr_ns[nr] += e->duration;
	h->lat[h->nr_class[nr]][bucket(e->duration)]++;
	if (e->flags & DIO_SF_FILE) {
		struct fstat *f = file_of(h, &e->tag);

		if (!f)
			return -ENOMEM;
		f->calls++;
		f->errors += err;
		f->rbytes += rb;
		f->wbytes += wb;
		f->ns += e->duration;
		f->ftype = e->ftype;
		if (!f->pid)
			f->pid = e->pid;
	}
	t = thread_of(h, e->tid);
	if (!t)
		return -ENOMEM;
	if (!t->calls) {
		t->group = tl_group(&h->tl, e->pid, e->comm);
		t->lane = tl_lane(&h->tl, e->tid, e->pid, t->group);
	} else if (strncmp(t->comm, e->comm, DIO_COMM_LEN)) {
		/* renamed: its group is the new name's from now on */
		t->group = tl_group(&h->tl, e->pid, e->comm);
		if (t->lane < TL_LANES)
			h->tl.lanes[t->lane].group = t->group;
	}
	t->pid = e->pid;
	/* the name the thread had at its last call */
	memcpy(t->comm, e->comm, DIO_COMM_LEN);
	t->calls++;
	t->rbytes += rb;
	t->wbytes += wb;
	t->ns += e->duration;
	tl_group_call(&h->tl, t->group, e->hdr.ts, rb, wb);
	tl_span(&h->tl, e, h->nr_class[nr]);
	if (h->nr_io[nr] != DIO_IO_NONE && tl_offset(&h->tl, e, h->nr_io[nr] == DIO_IO_WRITE))
		return -ENOMEM;
	return tl_call(&h->tl, t->lane, e, h->nr_class[nr]);
}

/* a block request's time, in its device's and operation's histogram */
static void add_block(struct html *h, const struct dio_ev_block *r)
{
	const char *rwbs = r->rwbs;
	char op;
	uint32_t i;

	/* a preflush before data ("FWS") counts as the data's operation */
	if (rwbs[0] == 'F' && (rwbs[1] == 'R' || rwbs[1] == 'W' || rwbs[1] == 'D'))
		rwbs++;
	op = rwbs[0] ? rwbs[0] : '?';
	for (i = 0; i < h->nblkops && (h->blkops[i].dev != r->dev || h->blkops[i].op != op); i++)
		;
	if (i == h->nblkops && h->nblkops < BLKOPS) {
		h->blkops[i].dev = r->dev;
		h->blkops[i].op = op;
		h->nblkops++;
	}
	h->blkops[i].hist[bucket(r->duration)]++;
	h->blk[bucket(r->duration)]++;
	h->nblk++;
}

/* every record: the span from the first record's time to the last's, as dio info */
static int html_event(void *state, const struct dio_ev_hdr *ev)
{
	struct html *h = state;

	if (!h->records++)
		h->tl.t0 = ev->ts;
	if (h->records == 1 || ev->ts < h->first_ts)
		h->first_ts = ev->ts;
	if (ev->ts > h->last_ts)
		h->last_ts = ev->ts;
	switch (ev->type) {
	case DIO_EV_SYSCALL: {
		return add_call(h, (const void *)ev);
	}
	case DIO_EV_BLOCK:
		add_block(h, (const void *)ev);
		return tl_block(&h->tl, (const void *)ev);
	case DIO_EV_RUNQ:
		h->runq[bucket(((const struct dio_ev_runq *)ev)->delay)]++;
		h->nrunq++;
		return tl_runq(&h->tl, (const void *)ev);
	}
	return 0;
}

static int html_finding(void *state, const struct dio_finding *f)
{
	return report_keep(&((struct html *)state)->r, f);
}

/* ---- the page ------------------------------------------------------------------- */

static void json_hist(struct rbuf *b, const uint64_t *v)
{
	rbuf_str(b, "[");
	for (int i = 0; i < HBUCKETS; i++)
		rbuf_fmt(b, "%s%" PRIu64, i ? "," : "", v[i]);
	rbuf_str(b, "]");
}

static uint64_t hist_total(const uint64_t *v)
{
	uint64_t n = 0;

	for (int i = 0; i < HBUCKETS; i++)
		n += v[i];
	return n;
}

/* an operation as blktrace's rwbs starts: R, W, D, F, N */
static const char *op_name(char op)
{
	switch (op) {
	case 'R': return "read";
	case 'W': return "write";
	case 'D': return "discard";
	case 'F': return "flush";
	case 'N': return "none";
	}
	return "other";
}

static const char *const sev_names[] = { "info", "warning", "error" };

static void json_findings(struct html *h, struct rbuf *b)
{
	const struct rfindings *fs = &h->r.found;

	rbuf_str(b, "\"findings\":[");
	for (size_t i = 0; i < fs->n; i++) {
		const struct dio_finding *f = &fs->v[i].f;

		rbuf_fmt(b, "%s{\"severity\":\"%s\",\"code\":", i ? "," : "",
			 f->severity < 3 ? sev_names[f->severity] : "info");
		page_str(b, f->code);
		rbuf_str(b, ",\"title\":");
		page_str(b, f->title);
		rbuf_str(b, ",\"message\":");
		page_str(b, f->message);
		rbuf_fmt(b, ",\"pid\":%u,\"tid\":%u,\"comm\":", f->pid, f->tid);
		page_str(b, f->comm);
		rbuf_str(b, ",\"path\":");
		page_str(b, f->path);
		rbuf_fmt(b, ",\"first\":%" PRIu64 ",\"last\":%" PRIu64 ",\"count\":%" PRIu64,
			 f->ts_first >= h->first_ts ? f->ts_first - h->first_ts : 0,
			 f->ts_last >= h->first_ts ? f->ts_last - h->first_ts : 0, f->count);
		rbuf_str(b, ",\"excerpt\":");
		page_str(b, f->excerpt);
		rbuf_fmt(b, ",\"suppressed\":%s}", f->suppressed ? "true" : "false");
	}
	rbuf_str(b, "]");
}

/*
 * What a file row stands for. dio names a socket or a pipe by its inode
 * (socket:[N], pipe:[N]): a name of its own each, that would give a
 * server's hundred connections a hundred rows.
 */
enum {
	ROW_PATH = DIO_PATH_NAMED, ROW_SOCKETS = DIO_PATH_SOCKET, ROW_PIPES = DIO_PATH_PIPE,
	ROW_TAG,		/* a file whose path is not known */
};

static const char *const row_kinds[] = { NULL, "sockets", "pipes", NULL };

/* a file row: one file, or the files that had one path (or were sockets, or pipes) */
struct frow {
	struct fstat sum;	/* tag, pid and ftype: its costliest file's */
	const char *path;	/* the host's, valid until finish returns; NULL: ROW_TAG */
	uint64_t files;
	int kind;
};

static int frow_by_cost(const void *a, const void *b)
{
	const struct fstat *x = &((const struct frow *)a)->sum, *y = &((const struct frow *)b)->sum;

	return by_cost(&x, &y);
}

/* the rows of one path (or kind) together, the costliest first; a tag row alone */
static int frow_by_key(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->kind == ROW_PATH && strcmp(x->path, y->path))
		return strcmp(x->path, y->path);
	return frow_by_cost(a, b);
}

static void add_fstat(struct fstat *sum, const struct fstat *f)
{
	sum->calls += f->calls;
	sum->errors += f->errors;
	sum->rbytes += f->rbytes;
	sum->wbytes += f->wbytes;
	sum->ns += f->ns;
}

/*
 * The page's file rows, most costly first: one per path, one for the
 * sockets and one for the pipes (one per file with files_by=tag), a file
 * whose path is not known alone; past FILES_SHOWN rows, the rest are added
 * into h->other. Made from the bounded table of files when the session is
 * over, when each file's last path is known. Sets *n; NULL without memory.
 */
static struct frow *file_rows(struct html *h, size_t *n)
{
	struct frow *v = calloc(h->files.n ? h->files.n : 1, sizeof(*v));
	const struct fstat *t = h->files.v;
	size_t k = 0, w = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < h->files.cap; i++) {
		if (!t[i].used)
			continue;
		v[k].sum = t[i];
		v[k].path = h->r.host->tag_path(h->r.ctx, &t[i].tag);
		v[k].files = 1;
		if (!v[k].path)
			v[k].kind = ROW_TAG;
		else
			v[k].kind = h->by_tag ? ROW_PATH : dio_path_kind(v[k].path);
		k++;
	}
	if (!h->by_tag) {
		qsort(v, k, sizeof(*v), frow_by_key);
		for (size_t i = 0; i < k; i++) {
			struct frow *last = w ? &v[w - 1] : NULL;

			if (last && last->kind == v[i].kind && last->kind != ROW_TAG &&
			    (last->kind != ROW_PATH || !strcmp(last->path, v[i].path))) {
				add_fstat(&last->sum, &v[i].sum);
				last->files++;
			} else {
				v[w++] = v[i];
			}
		}
		k = w;
	}
	qsort(v, k, sizeof(*v), frow_by_cost);
	for (size_t i = FILES_SHOWN; i < k; i++) {
		add_fstat(&h->other, &v[i].sum);
		h->nother += v[i].files;
	}
	*n = k < FILES_SHOWN ? k : FILES_SHOWN;
	return v;
}

static void json_file(struct html *h, struct rbuf *b, const struct frow *r, int first)
{
	const struct dio_host *host = h->r.host;
	char tag[DIO_FILE_TAG_LEN];

	dio_file_tag_format(&r->sum.tag, tag, sizeof(tag));
	rbuf_str(b, first ? "{\"path\":" : ",{\"path\":");
	page_str(b, r->kind == ROW_PATH ? r->path : NULL);
	rbuf_str(b, ",\"kind\":");
	page_str(b, row_kinds[r->kind]);
	rbuf_fmt(b, ",\"files\":%" PRIu64 ",\"tag\":", r->files);
	/* a row of many files has no one tag */
	page_str(b, r->files == 1 ? tag : NULL);
	rbuf_str(b, ",\"type\":");
	page_str(b, DIO_HOST_HAS(host, name_of) ?
		 host->name_of(h->r.ctx, DIO_NAME_FTYPE, r->sum.ftype) : NULL);
	rbuf_fmt(b, ",\"pid\":%u,\"calls\":%" PRIu64 ",\"errors\":%" PRIu64
		 ",\"read\":%" PRIu64 ",\"written\":%" PRIu64 ",\"ns\":%" PRIu64 "}",
		 r->sum.pid, r->sum.calls, r->sum.errors, r->sum.rbytes, r->sum.wbytes, r->sum.ns);
}

static void json_files(struct html *h, struct rbuf *b)
{
	size_t n = 0;
	struct frow *rows = file_rows(h, &n);
	const struct fstat *v;
	int first = 1;

	rbuf_fmt(b, "\"files_other\":{\"files\":%" PRIu64 ",\"calls\":%" PRIu64
		 ",\"errors\":%" PRIu64 ",\"read\":%" PRIu64 ",\"written\":%" PRIu64
		 ",\"ns\":%" PRIu64 "},", h->nother, h->other.calls, h->other.errors,
		 h->other.rbytes, h->other.wbytes, h->other.ns);
	rbuf_str(b, "\"files\":[");
	for (size_t i = 0; rows && i < n; i++)
		json_file(h, b, &rows[i], !i);
	free(rows);
	if (rows) {
		rbuf_str(b, "]");
		return;
	}
	/* without memory to group, a row per file: a larger page, nothing lost */
	v = h->files.v;
	for (size_t i = 0; i < h->files.cap; i++) {
		struct frow r = { .sum = v[i], .files = 1 };

		if (!v[i].used)
			continue;
		r.path = h->r.host->tag_path(h->r.ctx, &v[i].tag);
		r.kind = r.path ? ROW_PATH : ROW_TAG;
		json_file(h, b, &r, first);
		first = 0;
	}
	rbuf_str(b, "]");
}

static void json_threads(struct html *h, struct rbuf *b)
{
	const struct tstat *v;
	int first = 1;

	/* without memory to sort, every row is written: a larger page, nothing lost */
	keep_busiest(h, THREADS_SHOWN);
	v = h->threads.v;
	rbuf_fmt(b, "\"threads_other\":{\"threads\":%" PRIu64 ",\"calls\":%" PRIu64
		 ",\"read\":%" PRIu64 ",\"written\":%" PRIu64 ",\"ns\":%" PRIu64 "},",
		 h->ntother, h->tother.calls, h->tother.rbytes, h->tother.wbytes, h->tother.ns);
	rbuf_str(b, "\"threads\":[");
	for (size_t i = 0; i < h->threads.cap; i++) {
		const struct tstat *t = &v[i];

		if (!t->used)
			continue;
		rbuf_fmt(b, "%s{\"tid\":%u,\"pid\":%u,\"comm\":", first ? "" : ",", t->tid, t->pid);
		first = 0;
		page_str(b, t->comm);
		rbuf_fmt(b, ",\"calls\":%" PRIu64 ",\"read\":%" PRIu64 ",\"written\":%" PRIu64
			 ",\"ns\":%" PRIu64 "}", t->calls, t->rbytes, t->wbytes, t->ns);
	}
	rbuf_str(b, "]");
}

static void json_data(struct html *h, struct rbuf *b)
{
	const struct dio_host *host = h->r.host;
	struct dio_stats st;
	const char *keys[] = { "hostname", "command", "trace", "version" };
	int first = 1;

	memset(&st, 0, sizeof(st));
	host->stats_sized(h->r.ctx, &st, sizeof(st));
	rbuf_str(b, "{\"info\":{");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = report_info(host, h->r.ctx, keys[i]);

		if (!v)
			continue;
		rbuf_fmt(b, "%s\"%s\":", first ? "" : ",", keys[i]);
		first = 0;
		page_str(b, v);
	}
	rbuf_fmt(b, "},\"duration_ns\":%" PRIu64 ",\"records\":%" PRIu64 ",\"calls\":%" PRIu64
		 ",\"errors\":%" PRIu64 ",\"read\":%" PRIu64 ",\"written\":%" PRIu64
		 ",\"ns\":%" PRIu64, h->last_ts - h->first_ts, h->records, h->calls, h->errors,
		 h->rbytes, h->wbytes, h->ns);
	rbuf_fmt(b, ",\"lost\":%" PRIu64 ",\"dropped\":%" PRIu64,
		 st.lost_ringbuf + st.lost_inflight + st.lost_iouring + st.lost_other +
		 st.lost_block + st.lost_block_unseen + st.lost_mappings +
		 st.lost_iouring_unseen + st.lost_procs, st.lost_writer);
	rbuf_str(b, ",\"syscalls\":[");
	first = 1;
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		if (!h->nr_calls[nr])
			continue;
		rbuf_fmt(b, "%s{\"name\":", first ? "" : ",");
		first = 0;
		page_str(b, host->syscall_name(nr));
		rbuf_fmt(b, ",\"class\":\"%s\",\"calls\":%" PRIu64 ",\"errors\":%" PRIu64
			 ",\"ns\":%" PRIu64 "}", class_names[h->nr_class[nr]], h->nr_calls[nr],
			 h->nr_errors[nr], h->nr_ns[nr]);
	}
	rbuf_str(b, "],\"latency\":{");
	for (int c = 0; c < NCLASS; c++) {
		rbuf_fmt(b, "%s\"%s\":", c ? "," : "", class_names[c]);
		json_hist(b, h->lat[c]);
	}
	rbuf_str(b, ",\"block\":");
	json_hist(b, h->blk);
	rbuf_str(b, ",\"runq\":");
	json_hist(b, h->runq);
	rbuf_str(b, ",\"block_ops\":[");
	for (uint32_t i = 0; i <= BLKOPS; i++) {
		const struct blkop *o = &h->blkops[i];
		char dev[24];

		if (i == h->nblkops && i < BLKOPS)
			i = BLKOPS, o = &h->blkops[BLKOPS];
		if (i == BLKOPS && !hist_total(o->hist))
			break;
		snprintf(dev, sizeof(dev), "%u:%u", DIO_DEV_MAJOR(o->dev), DIO_DEV_MINOR(o->dev));
		rbuf_str(b, i ? ",{\"dev\":" : "{\"dev\":");
		page_str(b, i < BLKOPS ? dev : "other devices");
		rbuf_str(b, ",\"op\":");
		page_str(b, i < BLKOPS ? op_name(o->op) : "other");
		rbuf_str(b, ",\"hist\":");
		json_hist(b, o->hist);
		rbuf_str(b, "}");
	}
	rbuf_str(b, "]},");
	json_files(h, b);
	rbuf_str(b, ",");
	json_threads(h, b);
	rbuf_str(b, ",");
	json_findings(h, b);
	rbuf_str(b, ",");
	tl_reach(&h->tl, h->last_ts);
	tl_json(&h->tl, b, host, h->r.ctx, h->tl.t0 - h->first_ts, &h->r.found);
	rbuf_str(b, "}");
}

static int html_finish(void *state)
{
	struct html *h = state;
	struct rbuf b = { 0 };
	int err;

	rbuf_str(&b, html_page_head);
	rbuf_str(&b, "<script id=\"dio-data\" type=\"application/json\">");
	json_data(h, &b);
	rbuf_str(&b, "</script>\n");
	rbuf_str(&b, html_page_tail);
	err = report_write(&h->r, &b);
	rbuf_free(&b);
	return err;
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "html",
	.description = "a self-contained HTML report of the session (dio report)",
	/* every record the kernel sends, so that the span is dio info's */
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PATH) |
		  DIO_EV_MASK(DIO_EV_IOURING) | DIO_EV_MASK(DIO_EV_PROC) |
		  DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ),
	.findings = 1,
	.options = options,
	.init = html_init,
	.event = html_event,
	.finding = html_finding,
	.destroy = html_destroy,
	.finish = html_finish,
};
