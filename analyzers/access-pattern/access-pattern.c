// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * access-pattern: how each process reads and writes each file. Per file and
 * process it counts small requests, requests that do not continue where the
 * previous one on the same fd ended (random), large requests not aligned to
 * the page size, and bytes read again (pages of the file a bitmap says were
 * read before), and reports those past their thresholds once the pair made
 * enough requests: when the process exits, when the pair is pushed out of its
 * table, or at the end of the trace. The checks follow Drishti's over Darshan
 * logs, with thresholds for local storage (see README.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/pool.h"
#include "analyzers/common/table.h"

enum {
	O_MIN_REQUESTS, O_SMALL_SIZE, O_SMALL_SHARE, O_RANDOM_SHARE, O_ALIGN, O_MISALIGNED_SHARE,
	O_REREAD_SHARE, O_REREAD_MIN, O_REREAD_CAP, O_MAX_FILES, O_MAX_TRACKED,
};

static const struct dio_option options[] = {
	[O_MIN_REQUESTS] = { "min_requests", DIO_OPT_INT, "1000",
			     "requests a file+process must make before the request checks apply" },
	[O_SMALL_SIZE] = { "small_size", DIO_OPT_INT, "4096",
			   "a request for fewer bytes than this is small" },
	[O_SMALL_SHARE] = { "small_share", DIO_OPT_DOUBLE, "0.5",
			    "share of small requests that makes a finding" },
	[O_RANDOM_SHARE] = { "random_share", DIO_OPT_DOUBLE, "0.2",
			     "share of requests that do not continue the previous one" },
	[O_ALIGN] = { "align", DIO_OPT_INT, "4096",
		      "requests of at least this size should start and end on a multiple of it" },
	[O_MISALIGNED_SHARE] = { "misaligned_share", DIO_OPT_DOUBLE, "0.1",
				 "share of all requests that are large and misaligned" },
	[O_REREAD_SHARE] = { "reread_share", DIO_OPT_DOUBLE, "0.1",
			     "share of the bytes read that were read before" },
	[O_REREAD_MIN] = { "reread_min", DIO_OPT_INT, "1M",
			   "bytes read again before a finding" },
	[O_REREAD_CAP] = { "reread_cap", DIO_OPT_INT, "64M",
			   "bytes at the start of each file followed for re-reads" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "2048", "file+process pairs followed" },
	[O_MAX_TRACKED] = { "max_tracked", DIO_OPT_INT, "512",
			    "file+process pairs followed for re-reads at once" },
	{ NULL, 0, NULL, NULL },
};

#define PAGE	4096	/* re-reads are counted by page */
#define FDS	4	/* fds of one file in one process whose positions are kept */
#define SAMPLES	6	/* calls kept per pair for the excerpts */

/* what a request was; the kinds of finding */
#define F_SMALL		0x1
#define F_RANDOM	0x2
#define F_MISALIGNED	0x4
#define F_REREAD	0x8
#define KINDS		4

struct akey {
	struct dio_file_tag tag;
	uint32_t pid, pad;
};

struct fdpos {
	int32_t fd;
	uint32_t used;
	uint64_t end[2];	/* where the last read, write on it ended */
};

struct pat {
	uint64_t reqs[2], bytes[2], small[2], random[2];	/* [0] reads, [1] writes */
	uint64_t large;		/* requests of at least align bytes */
	uint64_t misaligned, mis_off, mis_size;
	uint64_t reread;	/* bytes read of pages read before */
	uint64_t last_end[2];	/* where the last read, write on any fd ended */
	uint64_t first_ts, last_ts;
	uint32_t tid;
	uint32_t bitmap;	/* pool index + 1 of its page bitmap, 0: none */
	char comm[DIO_COMM_LEN];
	uint32_t nsamples, next_fd;
	uint8_t sflags[SAMPLES];
	uint8_t pad[2];
	struct fdpos fds[FDS];
	struct dio_ev_syscall samples[SAMPLES];
};

struct ap {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint8_t vec[CALLS_NR_MAX];	/* readv and the like: args[2] is not a size */
	uint64_t min_requests, small_size, align, reread_min, cap_pages;
	uint64_t small_ppm, random_ppm, mis_ppm, reread_ppm;	/* shares in millionths */
	struct table pats, procs;
	struct pool bitmaps;
	struct picked *batch;
	size_t max_files;
	struct excerpt x;
};

/* ---- judging ---------------------------------------------------------------- */

/* part/whole at least ppm millionths (whole > 0) */
static int share_at_least(uint64_t part, uint64_t whole, uint64_t ppm)
{
	return whole && (unsigned __int128)part * 1000000 >= (unsigned __int128)ppm * whole;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void emit(struct ap *st, const struct akey *k, const struct pat *p, const char *code,
		 uint32_t sev, uint32_t kind, uint64_t count, const char *title, const char *msg)
{
	struct dio_finding f = { .size = sizeof(f) };

	f.code = code;
	f.severity = sev;
	f.title = title;
	f.message = msg;
	f.pid = k->pid;
	f.tid = p->tid;
	f.comm = p->comm;
	f.path = st->host->tag_path(st->ctx, &k->tag);
	f.tag = k->tag;
	f.has_tag = 1;
	f.ts_first = p->first_ts;
	f.ts_last = p->last_ts;
	f.count = count;
	excerpt_reset(&st->x);
	for (uint32_t i = 0; i < p->nsamples; i++)
		if (p->sflags[i] & kind)
			excerpt_add_fmt(&st->x, st->host, st->ctx, &p->samples[i].hdr, SAMPLES,
					DIO_FMT_DETAILS);
	f.excerpt = excerpt_text(&st->x);
	st->host->emit_finding(st->ctx, &f);
}

static void judge(struct ap *st, const struct akey *k, const struct pat *p)
{
	uint64_t total = p->reqs[0] + p->reqs[1], small = p->small[0] + p->small[1];
	uint64_t random = p->random[0] + p->random[1];
	const char *path = st->host->tag_path(st->ctx, &k->tag);
	char who[64], title[512], msg[1024];

	if (!path)
		path = "(path unknown)";
	snprintf(who, sizeof(who), "pid %u (%.*s)", k->pid, DIO_COMM_LEN, p->comm);
	if (total >= st->min_requests && share_at_least(small, total, st->small_ppm)) {
		snprintf(title, sizeof(title),
			 "%s made %" PRIu64 " of its %" PRIu64 " requests to %s smaller than %"
			 PRIu64 " bytes (%.1f%%): %" PRIu64 " reads, %" PRIu64 " writes",
			 who, small, total, path, st->small_size, pct(small, total), p->small[0],
			 p->small[1]);
		snprintf(msg, sizeof(msg),
			 "A system call costs about a microsecond whatever it moves; below %" PRIu64
			 " bytes that cost is most of the time the request takes. %" PRIu64
			 " bytes were read and %" PRIu64 " written in %" PRIu64 " requests.\n"
			 "Fix: read and write in bigger pieces: a buffer of 64 KiB or more (setvbuf "
			 "for stdio), gather small writes in memory or with writev, read nearby "
			 "small records in one request.",
			 st->small_size, p->bytes[0], p->bytes[1], total);
		emit(st, k, p, "access-pattern.small-requests", DIO_SEV_WARNING, F_SMALL, small,
		     title, msg);
	}
	if (total >= st->min_requests && share_at_least(random, total, st->random_ppm)) {
		snprintf(title, sizeof(title),
			 "%s made %" PRIu64 " of its %" PRIu64 " requests to %s at random offsets "
			 "(%.1f%%): %" PRIu64 " reads, %" PRIu64 " writes",
			 who, random, total, path, pct(random, total), p->random[0], p->random[1]);
		snprintf(msg, sizeof(msg),
			 "A request is random when it does not start where the previous one on "
			 "the same fd ended. Readahead does not help random reads, and on a disk "
			 "each one is a seek.\n"
			 "Fix: if the order can change, sort the offsets and go through the file "
			 "in order; otherwise say so to the kernel (posix_fadvise POSIX_FADV_RANDOM "
			 "stops useless readahead, POSIX_FADV_WILLNEED fetches what comes next), "
			 "or load the data once (mmap, a cache).");
		emit(st, k, p, "access-pattern.random", DIO_SEV_INFO, F_RANDOM, random, title,
		     msg);
	}
	if (total >= st->min_requests && p->misaligned &&
	    share_at_least(p->misaligned, total, st->mis_ppm)) {
		snprintf(title, sizeof(title),
			 "%s made %" PRIu64 " of its %" PRIu64 " requests to %s of %" PRIu64
			 " bytes or more not aligned to %" PRIu64 " bytes (%.1f%%)",
			 who, p->misaligned, total, path, st->align, st->align,
			 pct(p->misaligned, total));
		snprintf(msg, sizeof(msg),
			 "Of %" PRIu64 " requests of %" PRIu64 " bytes or more, %" PRIu64
			 " started and %" PRIu64 " had a size off a multiple of %" PRIu64 ". With "
			 "O_DIRECT such requests fail or are split; through the page cache a "
			 "request that ends inside a page shares it with the next one, and a "
			 "partial write to a page not in the cache must read it first.\n"
			 "Fix: use offsets and sizes that are multiples of %" PRIu64 " (and "
			 "buffers from posix_memalign for O_DIRECT).",
			 p->large, st->align, p->mis_off, p->mis_size, st->align, st->align);
		emit(st, k, p, "access-pattern.misaligned", DIO_SEV_INFO, F_MISALIGNED,
		     p->misaligned, title, msg);
	}
	if (p->reread >= st->reread_min && share_at_least(p->reread, p->bytes[0], st->reread_ppm)) {
		snprintf(title, sizeof(title),
			 "%s read %" PRIu64 " of the %" PRIu64 " bytes it read from %s more than "
			 "once (%.1f%%)",
			 who, p->reread, p->bytes[0], path, pct(p->reread, p->bytes[0]));
		snprintf(msg, sizeof(msg),
			 "Counted by %d-byte page: a read of a page this process read before "
			 "(but not the rest of a page the previous read on the fd stopped in). "
			 "The page cache spares the disk, not the calls and the copies.\n"
			 "Fix: keep what was read (an application cache, mmap), or read it once "
			 "in a bigger piece.",
			 PAGE);
		emit(st, k, p, "access-pattern.reread", DIO_SEV_WARNING, F_REREAD, p->reread,
		     title, msg);
	}
}

/* ---- the pairs and their processes --------------------------------------------- */

static void proc_count(struct ap *st, uint32_t pid, int d)
{
	uint32_t *n = d > 0 ? table_put(&st->procs, &pid, NULL) : table_get(&st->procs, &pid);

	if (!n)
		return;
	*n += (uint32_t)d;
	if (!*n)
		table_del(&st->procs, &pid);
}

/* a pair goes away: its findings, its bitmap back */
static void pair_done(struct ap *st, const struct akey *k, struct pat *p)
{
	judge(st, k, p);
	if (p->bitmap)
		pool_put(&st->bitmaps, (int32_t)p->bitmap - 1);
	proc_count(st, k->pid, -1);
}

static void on_pat_evict(void *key, void *val, void *ud)
{
	pair_done(ud, key, val);
}

struct picked {
	struct akey k;
	uint64_t first_ts;
};

struct pick {
	struct ap *st;
	const uint32_t *pid;	/* NULL: all */
	size_t n;
};

static void pick_one(void *key, void *val, void *ud)
{
	struct pick *p = ud;
	const struct akey *k = key;

	if (p->pid && k->pid != *p->pid)
		return;
	p->st->batch[p->n].k = *k;
	p->st->batch[p->n++].first_ts = ((const struct pat *)val)->first_ts;
}

static int picked_cmp(const void *a, const void *b)
{
	const struct picked *x = a, *y = b;
	int c;

	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	c = file_tag_cmp(&x->k.tag, &y->k.tag);
	if (c || x->k.pid == y->k.pid)
		return c;
	return x->k.pid < y->k.pid ? -1 : 1;
}

/* report and forget the pairs of pid (all with NULL), in the order they began */
static void settle(struct ap *st, const uint32_t *pid)
{
	struct pick p = { .st = st, .pid = pid };

	if (pid && !table_get(&st->procs, pid))
		return;
	table_each(&st->pats, pick_one, &p);
	qsort(st->batch, p.n, sizeof(*st->batch), picked_cmp);
	for (size_t i = 0; i < p.n; i++) {
		pair_done(st, &st->batch[i].k, table_get(&st->pats, &st->batch[i].k));
		table_del(&st->pats, &st->batch[i].k);
	}
}

/* ---- requests ----------------------------------------------------------------- */

static struct fdpos *fd_slot(struct pat *p, int32_t fd, int *found)
{
	struct fdpos *s;

	for (int i = 0; i < FDS; i++) {
		if (p->fds[i].used && p->fds[i].fd == fd) {
			*found = 1;
			return &p->fds[i];
		}
	}
	for (int i = 0; i < FDS; i++)
		if (!p->fds[i].used) {
			s = &p->fds[i];
			goto take;
		}
	s = &p->fds[p->next_fd++ % FDS];
take:
	*found = 0;
	s->used = 1;
	s->fd = fd;
	return s;
}

/* bytes of [off, end) in pages the bitmap has seen; marks them */
static uint64_t pages_again(struct ap *st, struct pat *p, uint64_t off, uint64_t end, int seq)
{
	uint8_t *bm;
	uint64_t again = 0;

	if (!p->bitmap) {
		int32_t i = pool_get(&st->bitmaps);

		if (i == POOL_NONE)
			return 0;
		p->bitmap = (uint32_t)i + 1;
	}
	bm = pool_at(&st->bitmaps, (int32_t)p->bitmap - 1);
	for (uint64_t pg = off / PAGE; pg * PAGE < end && pg < st->cap_pages; pg++) {
		uint64_t lo = pg * PAGE > off ? pg * PAGE : off;
		uint64_t hi = (pg + 1) * PAGE < end ? (pg + 1) * PAGE : end;
		uint8_t bit = (uint8_t)(1u << (pg % 8));

		/* the rest of the page the previous read on this fd stopped in is not again */
		if ((bm[pg / 8] & bit) && !(seq && pg == off / PAGE && off % PAGE))
			again += hi - lo;
		bm[pg / 8] |= bit;
	}
	return again;
}

/* keep e as a sample if it shows a kind fewer than two samples show */
static void sample(struct pat *p, const struct dio_ev_syscall *e, uint8_t flags)
{
	uint8_t want = 0;

	if (!flags || p->nsamples >= SAMPLES)
		return;
	for (int k = 0; k < KINDS; k++) {
		uint8_t bit = (uint8_t)(1u << k);
		int n = 0;

		for (uint32_t i = 0; i < p->nsamples; i++)
			n += !!(p->sflags[i] & bit);
		if ((flags & bit) && n < 2)
			want = 1;
	}
	if (!want)
		return;
	if (rec_copy(&p->samples[p->nsamples], sizeof(p->samples[0]), &e->hdr))
		p->sflags[p->nsamples++] = flags;
}

static void request(struct ap *st, const struct dio_ev_syscall *e, int dir)
{
	struct akey k = { .tag = e->tag, .pid = e->pid };
	uint64_t off = (uint64_t)e->offset, got = (uint64_t)e->ret, end = off + got;
	uint64_t size = e->nr < CALLS_NR_MAX && st->vec[e->nr] ? got : e->args[2];
	uint8_t flags = 0;
	struct fdpos *s;
	struct pat *p;
	int created, found, seq;

	p = table_put(&st->pats, &k, &created);
	if (created) {
		p->first_ts = e->hdr.ts;
		p->tid = e->tid;
		memcpy(p->comm, e->comm, sizeof(p->comm));
		proc_count(st, e->pid, 1);
	}
	p->last_ts = e->hdr.ts;
	s = fd_slot(p, e->fd, &found);
	/* a new fd continues when it starts at 0 or where the last request on any fd ended */
	seq = found ? off == s->end[dir] : off == 0 || off == p->last_end[dir];
	s->end[dir] = end;
	p->last_end[dir] = end;
	p->reqs[dir]++;
	p->bytes[dir] += got;
	if (size < st->small_size) {
		p->small[dir]++;
		flags |= F_SMALL;
	}
	if (!seq) {
		p->random[dir]++;
		flags |= F_RANDOM;
	}
	if (size >= st->align) {
		p->large++;
		if (off % st->align || size % st->align) {
			p->misaligned++;
			p->mis_off += !!(off % st->align);
			p->mis_size += !!(size % st->align);
			flags |= F_MISALIGNED;
		}
	}
	if (!dir) {
		uint64_t again = pages_again(st, p, off, end, seq);

		p->reread += again;
		if (again)
			flags |= F_REREAD;
	}
	sample(p, e, flags);
}

static int ap_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ap *st = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	enum call_kind kind;

	if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *p = (const void *)ev;

		if (p->kind == DIO_PROC_EXIT && (p->flags & DIO_PROCF_GROUP_DEAD))
			settle(st, &p->pid);
		return 0;
	}
	if (ev->type != DIO_EV_SYSCALL || ev->size < sizeof(*e) || !(e->flags & DIO_SF_FILE) ||
	    (e->ftype != DIO_FT_REG && e->ftype != DIO_FT_BLK))
		return 0;
	kind = call_kind(&st->kinds, e->nr);
	if (kind == CALL_CLOSE) {
		struct akey k = { .tag = e->tag, .pid = e->pid };
		struct pat *p = table_get(&st->pats, &k);

		for (int i = 0; p && i < FDS; i++)
			if (p->fds[i].used && p->fds[i].fd == e->fd)
				p->fds[i].used = 0;
		return 0;
	}
	if ((kind != CALL_READ && kind != CALL_WRITE) || e->ret <= 0 ||
	    !(e->flags & DIO_SF_OFFSET) || e->offset < 0)
		return 0;
	request(st, e, kind == CALL_WRITE);
	return 0;
}

static int ap_finish(void *state)
{
	settle(state, NULL);
	return 0;
}

static void ap_destroy(void *state)
{
	struct ap *st = state;

	if (!st)
		return;
	table_free(&st->pats);
	table_free(&st->procs);
	pool_free(&st->bitmaps);
	free(st->batch);
	free(st);
}

static const char *const vectors[] = { "readv", "preadv", "preadv2", "writev", "pwritev",
				       "pwritev2" };

static int ap_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct ap *st = calloc(1, sizeof(*st));
	int err = -EINVAL;

	if (!st)
		return -ENOMEM;
	st->host = host;
	st->ctx = ctx;
	for (int i = 0; options[i].name; i++) {
		if (options[i].type == DIO_OPT_DOUBLE && !(o[i].d > 0 && o[i].d <= 1)) {
			host->log(ctx, "%s must be above 0 and at most 1", options[i].name);
			goto cleanup;
		}
		if (options[i].type == DIO_OPT_INT && (o[i].i < 1 || o[i].i > ((int64_t)1 << 40))) {
			host->log(ctx, "%s must be from 1 to 2^40", options[i].name);
			goto cleanup;
		}
	}
	st->min_requests = (uint64_t)o[O_MIN_REQUESTS].i;
	st->small_size = (uint64_t)o[O_SMALL_SIZE].i;
	st->align = (uint64_t)o[O_ALIGN].i;
	st->reread_min = (uint64_t)o[O_REREAD_MIN].i;
	st->cap_pages = ((uint64_t)o[O_REREAD_CAP].i + PAGE - 1) / PAGE;
	st->small_ppm = (uint64_t)(o[O_SMALL_SHARE].d * 1e6 + 0.5);
	st->random_ppm = (uint64_t)(o[O_RANDOM_SHARE].d * 1e6 + 0.5);
	st->mis_ppm = (uint64_t)(o[O_MISALIGNED_SHARE].d * 1e6 + 0.5);
	st->reread_ppm = (uint64_t)(o[O_REREAD_SHARE].d * 1e6 + 0.5);
	st->max_files = (size_t)o[O_MAX_FILES].i;
	err = table_init(&st->pats, sizeof(struct akey), sizeof(struct pat), st->max_files);
	if (!err)
		err = table_init(&st->procs, sizeof(uint32_t), sizeof(uint32_t), st->max_files);
	if (!err)
		err = pool_init(&st->bitmaps, (size_t)(st->cap_pages + 7) / 8,
				(size_t)o[O_MAX_TRACKED].i);
	if (err)
		goto cleanup;
	st->batch = calloc(st->max_files, sizeof(*st->batch));
	if (!st->batch) {
		err = -ENOMEM;
		goto cleanup;
	}
	st->pats.evict = on_pat_evict;
	st->pats.ud = st;
	call_kinds_init(&st->kinds, host);
	for (uint32_t nr = 0; nr < CALLS_NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		for (size_t i = 0; name && i < sizeof(vectors) / sizeof(vectors[0]); i++)
			if (!strcmp(name, vectors[i]))
				st->vec[nr] = 1;
	}
	*state = st;
	return 0;
cleanup:
	ap_destroy(st);
	return err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "access-pattern",
	.description = "small, random, misaligned requests and re-reads, per file and process",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = ap_init,
	.event = ap_event,
	.finish = ap_finish,
	.destroy = ap_destroy,
};
