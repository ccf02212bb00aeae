// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency: how long block requests took per device and operation, and how
 * long traced threads waited for a CPU, as log-linear histograms with
 * percentiles; requests and waits past a threshold become findings that name
 * the request, its submitter and, when the submitter was a traced thread in a
 * system call, that call and its file. State is bounded by options: a table
 * of device/operation rows, one of threads, and a few pending call matches.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/hist.h"
#include "analyzers/common/table.h"

#define EXCERPT_LINES	8
#define PENDING_MAX	256	/* slow requests waiting for the record of their call */
#define SHOWN_THREADS	20

enum { O_BLOCK_MS, O_RUNQ_MS, O_MAX_DEVICES, O_MAX_THREADS, O_OUTPUT };

static const struct dio_option options[] = {
	[O_BLOCK_MS] = { "block_slow_ms", DIO_OPT_DOUBLE, "50",
			 "a block request that took this long is an outlier" },
	[O_RUNQ_MS] = { "runq_slow_ms", DIO_OPT_DOUBLE, "5",
			"a wait for a CPU this long is an outlier" },
	[O_MAX_DEVICES] = { "max_devices", DIO_OPT_INT, "64",
			    "device and operation rows kept; more are not counted" },
	[O_MAX_THREADS] = { "max_threads", DIO_OPT_INT, "1024",
			    "threads with a run-queue row; the least recent make room" },
	[O_OUTPUT] = { "output", DIO_OPT_STRING, NULL,
		       "file for the tables; \"-\" for standard output (default: standard error)" },
	{ NULL, 0, NULL, NULL },
};

struct devkey {
	uint32_t dev;
	uint32_t op;		/* 'R', 'W', 'D', 'F', 'N' */
};

struct devrow {
	struct hist h;
	uint64_t slow;			/* outliers */
	uint64_t slow_first, slow_last;	/* start of the first, end of the last */
	uint64_t kthread;		/* outliers a kernel thread submitted */
	struct dio_ev_block worst;	/* the slowest outlier */
	char path[256];			/* of the worst's call, when its record came */
	int64_t off;			/* -1: unknown */
	struct excerpt x;
};

struct thrkey {
	uint32_t pid, tid;
};

struct thrrow {
	struct hist h;
	uint64_t slow, slow_first, slow_last;
	char comm[DIO_COMM_LEN];
	struct dio_ev_runq worst;
	struct excerpt x;
};

/* a slow request's call: (tid, entry time) -> its row */
struct callkey {
	uint64_t sys_ts;
	uint32_t tid, pad;
};

struct lat {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;
	int own;
	uint64_t block_slow, runq_slow;	/* ns */
	double block_ms, runq_ms;	/* as given, for messages */
	struct table devs, thrs, pending;
	uint64_t devs_full;		/* requests on devices without a row */
};

static void lat_destroy(void *state)
{
	struct lat *l = state;

	if (!l)
		return;
	if (l->own && l->out)
		fclose(l->out);
	table_free(&l->devs);
	table_free(&l->thrs);
	table_free(&l->pending);
	free(l);
}

static int lat_init(const struct dio_host *host, struct dio_ctx *ctx,
		    const struct dio_optval *o, void **state)
{
	struct lat *l = calloc(1, sizeof(*l));
	const char *path = o[O_OUTPUT].s;
	int err;

	if (!l)
		return -ENOMEM;
	l->host = host;
	l->ctx = ctx;
	if (o[O_BLOCK_MS].d <= 0 || o[O_RUNQ_MS].d <= 0 || o[O_MAX_DEVICES].i < 1 ||
	    o[O_MAX_THREADS].i < 1) {
		host->log(ctx, "block_slow_ms and runq_slow_ms must be above 0, max_devices and "
			  "max_threads at least 1");
		err = -EINVAL;
		goto fail;
	}
	l->block_ms = o[O_BLOCK_MS].d;
	l->runq_ms = o[O_RUNQ_MS].d;
	l->block_slow = (uint64_t)(l->block_ms * 1e6);
	l->runq_slow = (uint64_t)(l->runq_ms * 1e6);
	err = table_init(&l->devs, sizeof(struct devkey), sizeof(struct devrow),
			 (size_t)o[O_MAX_DEVICES].i);
	if (!err)
		err = table_init(&l->thrs, sizeof(struct thrkey), sizeof(struct thrrow),
				 (size_t)o[O_MAX_THREADS].i);
	if (!err)
		err = table_init(&l->pending, sizeof(struct callkey), sizeof(struct devkey),
				 PENDING_MAX);
	if (err)
		goto fail;
	if (!path) {
		l->out = stderr;
	} else if (!strcmp(path, "-")) {
		l->out = stdout;
	} else {
		l->out = fopen(path, "we");
		if (!l->out) {
			err = -errno;
			host->log(ctx, "cannot open output '%s': %s", path, strerror(-err));
			goto fail;
		}
		l->own = 1;
	}
	*state = l;
	return 0;
fail:
	lat_destroy(l);
	return err;
}

/* ---- events ---------------------------------------------------------------- */

static uint32_t block_op(const char *rwbs)
{
	/* a leading F is a preflush before the operation that follows it */
	char c = (rwbs[0] == 'F' && rwbs[1] && strchr("RWDN", rwbs[1])) ? rwbs[1] : rwbs[0];

	return strchr("RWDFN", c) && c ? (uint32_t)c : 'N';
}

static void on_block(struct lat *l, const struct dio_ev_block *b)
{
	struct devkey k = { .dev = b->dev, .op = block_op(b->rwbs) };
	struct devrow *r = table_get(&l->devs, &k);
	int created;

	if (!r) {
		if (l->devs.n >= l->devs.max) {
			/* rows are few and must not churn: count what does not fit */
			l->devs_full++;
			return;
		}
		r = table_put(&l->devs, &k, &created);
		r->off = -1;
	}
	hist_add(&r->h, b->duration);
	if (b->duration < l->block_slow)
		return;
	if (!r->slow++)
		r->slow_first = b->hdr.ts;
	if (b->hdr.ts + b->duration > r->slow_last)
		r->slow_last = b->hdr.ts + b->duration;
	if (b->flags & DIO_BF_KTHREAD)
		r->kthread++;
	excerpt_add(&r->x, l->host, l->ctx, &b->hdr, EXCERPT_LINES);
	if (b->duration > r->worst.duration || r->slow == 1) {
		r->worst = *b;
		r->path[0] = 0;
		r->off = -1;
		if (b->flags & DIO_BF_SYSCALL) {
			struct callkey c = { .sys_ts = b->sys_ts, .tid = b->tid };

			*(struct devkey *)table_put(&l->pending, &c, NULL) = k;
		}
	}
}

/* the call a slow request was made in: its file, for the finding */
static void on_syscall(struct lat *l, const struct dio_ev_syscall *e)
{
	struct callkey c = { .sys_ts = e->hdr.ts, .tid = e->tid };
	struct devkey *k;
	struct devrow *r;

	if (!l->pending.n || !(k = table_get(&l->pending, &c)))
		return;
	r = table_get(&l->devs, k);
	if (r && r->worst.tid == e->tid && r->worst.sys_ts == e->hdr.ts) {
		const char *p = (e->flags & DIO_SF_FILE) ? l->host->tag_path(l->ctx, &e->tag) : NULL;

		snprintf(r->path, sizeof(r->path), "%s", p ? p : "");
		r->off = (e->flags & DIO_SF_OFFSET) ? e->offset : -1;
	}
	table_del(&l->pending, &c);
}

static void on_runq(struct lat *l, const struct dio_ev_runq *q)
{
	struct thrkey k = { .pid = q->pid, .tid = q->tid };
	int created;
	struct thrrow *r = table_put(&l->thrs, &k, &created);

	memcpy(r->comm, q->comm, DIO_COMM_LEN);
	r->comm[DIO_COMM_LEN - 1] = 0;
	hist_add(&r->h, q->delay);
	if (q->delay < l->runq_slow)
		return;
	if (!r->slow++)
		r->slow_first = q->hdr.ts;
	if (q->hdr.ts + q->delay > r->slow_last)
		r->slow_last = q->hdr.ts + q->delay;
	excerpt_add(&r->x, l->host, l->ctx, &q->hdr, EXCERPT_LINES);
	if (q->delay > r->worst.delay || r->slow == 1)
		r->worst = *q;
}

static int lat_event(void *state, const struct dio_ev_hdr *ev)
{
	struct lat *l = state;

	switch (ev->type) {
	case DIO_EV_BLOCK:
		on_block(l, (const void *)ev);
		break;
	case DIO_EV_RUNQ:
		on_runq(l, (const void *)ev);
		break;
	case DIO_EV_SYSCALL:
		on_syscall(l, (const void *)ev);
		break;
	}
	return 0;
}

/* ---- tables ---------------------------------------------------------------- */

struct rows {
	void **v;
	void **k;
	size_t n;
};

static void collect(void *key, void *val, void *ud)
{
	struct rows *r = ud;

	r->k[r->n] = key;
	r->v[r->n++] = val;
}

/* rows of t in a stable order: cmp on keys */
static int gather(struct table *t, struct rows *r, int (*cmp)(const void *, const void *))
{
	void **both;

	r->n = 0;
	r->k = calloc(t->n ? t->n : 1, sizeof(void *));
	r->v = calloc(t->n ? t->n : 1, sizeof(void *));
	if (!r->k || !r->v) {
		free(r->k);
		free(r->v);
		return -ENOMEM;
	}
	table_each(t, collect, r);
	/* sort key/value pairs together: an index array keyed by the key pointer */
	both = calloc(2 * (r->n ? r->n : 1), sizeof(void *));
	if (!both) {
		free(r->k);
		free(r->v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->n; i++) {
		both[2 * i] = r->k[i];
		both[2 * i + 1] = r->v[i];
	}
	qsort(both, r->n, 2 * sizeof(void *), cmp);
	for (size_t i = 0; i < r->n; i++) {
		r->k[i] = both[2 * i];
		r->v[i] = both[2 * i + 1];
	}
	free(both);
	return 0;
}

static void rows_free(struct rows *r)
{
	free(r->k);
	free(r->v);
}

static int dev_cmp(const void *a, const void *b)
{
	const struct devkey *x = *(void *const *)a, *y = *(void *const *)b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->op > y->op) - (x->op < y->op);
}

/* threads by total wait, longest first; ties by tid */
static int thr_cmp(const void *a, const void *b)
{
	const struct thrkey *kx = *(void *const *)a, *ky = *(void *const *)b;
	const struct thrrow *x = ((void *const *)a)[1], *y = ((void *const *)b)[1];

	if (x->h.sum != y->h.sum)
		return x->h.sum < y->h.sum ? 1 : -1;
	return (kx->tid > ky->tid) - (kx->tid < ky->tid);
}

static const char *op_name(uint32_t op)
{
	switch (op) {
	case 'R': return "read";
	case 'W': return "write";
	case 'D': return "discard";
	case 'F': return "flush";
	default: return "other";
	}
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* milliseconds to the microsecond, cut as the console cuts its seconds */
static double ms(uint64_t ns)
{
	return (double)(ns / 1000) / 1000;
}

/* biolatency-style log2 rows of a histogram, in microseconds */
static void print_log2(FILE *f, const struct hist *h)
{
	uint64_t per[64] = { 0 }, top = 0;
	int first = -1, last = -1;

	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		unsigned int lg;
		uint64_t us = hist_bucket_top(b) / 1000;

		if (!h->b[b])
			continue;
		lg = us ? 63 - (unsigned int)__builtin_clzll(us) + 1 : 0;
		per[lg] += h->b[b];
	}
	for (int i = 0; i < 64; i++) {
		if (!per[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (per[i] > top)
			top = per[i];
	}
	for (int i = first; i >= 0 && i <= last; i++) {
		uint64_t lo = i ? (uint64_t)1 << (i - 1) : 0, hi = i ? ((uint64_t)1 << i) - 1 : 0;
		int stars = top ? (int)(per[i] * 40 / top) : 0;

		fprintf(f, "    %10" PRIu64 " -> %-10" PRIu64 " : %-9" PRIu64 " |%-40.*s|\n", lo, hi,
			per[i], stars, "****************************************");
	}
}

static void print_tables(struct lat *l, struct rows *dr, struct rows *tr)
{
	FILE *f = l->out;

	if (dr->n) {
		fprintf(f, "\nblock requests      count    p50 ms    p95 ms    p99 ms    max ms  >= %.3g ms\n",
			l->block_ms);
		for (size_t i = 0; i < dr->n; i++) {
			const struct devkey *k = dr->k[i];
			const struct devrow *r = dr->v[i];
			char name[32];

			snprintf(name, sizeof(name), "%u:%u %s", k->dev >> 20, k->dev & 0xfffff,
				 op_name(k->op));
			fprintf(f, "%-16s %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %10" PRIu64 "\n", name,
				r->h.n, ms(hist_pct(&r->h, 0.50)), ms(hist_pct(&r->h, 0.95)),
				ms(hist_pct(&r->h, 0.99)), ms(r->h.max), r->slow);
		}
		for (size_t i = 0; i < dr->n; i++) {
			const struct devkey *k = dr->k[i];

			fprintf(f, "\n  %u:%u %s latency, usecs: count distribution\n", k->dev >> 20,
				k->dev & 0xfffff, op_name(k->op));
			print_log2(f, &((const struct devrow *)dr->v[i])->h);
		}
		if (l->devs_full)
			fprintf(f, "(%" PRIu64 " requests on devices past max_devices not counted)\n",
				l->devs_full);
	}
	if (tr->n) {
		fprintf(f, "\nrun-queue waits     count    p50 ms    p99 ms    max ms  total ms  >= %.3g ms thread\n",
			l->runq_ms);
		for (size_t i = 0; i < tr->n && i < SHOWN_THREADS; i++) {
			const struct thrkey *k = tr->k[i];
			const struct thrrow *r = tr->v[i];
			char id[32];

			snprintf(id, sizeof(id), "%u/%u", k->pid, k->tid);
			fprintf(f, "%-16s %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %10" PRIu64 " %s\n", id,
				r->h.n, ms(hist_pct(&r->h, 0.50)), ms(hist_pct(&r->h, 0.99)),
				ms(r->h.max), ms(r->h.sum), r->slow, r->comm);
		}
		if (tr->n > SHOWN_THREADS)
			fprintf(f, "(%zu more threads)\n", tr->n - SHOWN_THREADS);
		if (l->thrs.evicted)
			fprintf(f, "(%" PRIu64 " threads forgotten past max_threads)\n",
				l->thrs.evicted);
	}
	fflush(f);
}

/* ---- findings -------------------------------------------------------------- */

static int block_finding(struct lat *l, const struct devkey *k, struct devrow *r)
{
	const struct dio_ev_block *w = &r->worst;
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_WARNING };
	char title[256], msg[2048], who[512];

	if (w->flags & DIO_BF_KTHREAD)
		snprintf(who, sizeof(who),
			 "kernel thread %.16s (%u): writeback or journal work, done for whichever "
			 "process dirtied the data, which the request does not tell", w->comm, w->tid);
	else if (w->flags & DIO_BF_SYSCALL)
		snprintf(who, sizeof(who), "%.16s (%u/%u) in %s%s%s", w->comm, w->pid, w->tid,
			 l->host->syscall_name(w->nr), r->path[0] ? " of " : "", r->path);
	else
		snprintf(who, sizeof(who), "%.16s (%u/%u), outside a traced call", w->comm, w->pid,
			 w->tid);
	snprintf(title, sizeof(title),
		 "%" PRIu64 " %s request%s on %u:%u took %.3g ms or more (p99 %.3f ms, max %.3f ms)",
		 r->slow, op_name(k->op), plural(r->slow), k->dev >> 20, k->dev & 0xfffff, l->block_ms,
		 ms(hist_pct(&r->h, 0.99)), ms(r->h.max));
	snprintf(msg, sizeof(msg),
		 "%" PRIu64 " of %" PRIu64 " %s requests on device %u:%u took %.3g ms or more "
		 "from issue to completion; %" PRIu64 " of them came from kernel threads. The "
		 "slowest, %.3f ms for %u bytes at sector %" PRIu64 ", was submitted by %s.\n"
		 "Every call waiting for such a request stalls as long. Look at what else used "
		 "the device then (other processes, writeback bursts: lower vm.dirty_background_"
		 "bytes or write back early with sync_file_range), at the device's queue and "
		 "health (iostat -x, smartctl), and keep latency-critical files (logs, WAL) on a "
		 "device of their own.",
		 r->slow, r->h.n, op_name(k->op), k->dev >> 20, k->dev & 0xfffff, l->block_ms,
		 r->kthread, ms(w->duration), w->bytes, (uint64_t)w->sector, who);
	fd.code = "latency.slow-block-requests";
	fd.title = title;
	fd.message = msg;
	fd.pid = w->pid;
	fd.tid = w->tid;
	fd.comm = w->comm;
	fd.path = r->path[0] ? r->path : NULL;
	fd.ts_first = r->slow_first;
	fd.ts_last = r->slow_last;
	fd.count = r->slow;
	fd.excerpt = excerpt_text(&r->x);
	return l->host->emit_finding(l->ctx, &fd);
}

static int runq_finding(struct lat *l, const struct thrkey *k, struct thrrow *r)
{
	const struct dio_ev_runq *w = &r->worst;
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_WARNING };
	char title[256], msg[1024];

	snprintf(title, sizeof(title),
		 "thread %s (%u/%u) waited %.3g ms or more for a CPU %" PRIu64 " time%s (max %.3f ms)",
		 r->comm, k->pid, k->tid, l->runq_ms, r->slow, plural(r->slow), ms(r->h.max));
	snprintf(msg, sizeof(msg),
		 "The thread was ready to run but waited for a CPU %" PRIu64 " time%s for %.3g ms "
		 "or more (%" PRIu64 " wait%s of %.3g ms in all). The longest, %.3f ms after it was "
		 "%s, ended when %.16s (%u/%u) left the CPU%s%s.\n"
		 "Its calls take that much longer whatever the storage does. Give it CPUs the busy "
		 "threads do not use (taskset, cpusets), lower their priority (nice, cgroup "
		 "cpu.weight), or run fewer of them.",
		 r->slow, plural(r->slow), l->runq_ms, r->h.n, plural(r->h.n), ms(r->h.sum),
		 ms(w->delay),
		 (w->flags & DIO_RF_PREEMPTED) ? "preempted" : "woken up", w->prev_comm,
		 w->prev_pid, w->prev_tid, (w->flags & DIO_RF_SYSCALL) ? "; it was in " : "",
		 (w->flags & DIO_RF_SYSCALL) ? l->host->syscall_name(w->nr) : "");
	fd.code = "latency.runq-delay";
	fd.title = title;
	fd.message = msg;
	fd.pid = k->pid;
	fd.tid = k->tid;
	fd.comm = r->comm;
	fd.ts_first = r->slow_first;
	fd.ts_last = r->slow_last;
	fd.count = r->slow;
	fd.excerpt = excerpt_text(&r->x);
	return l->host->emit_finding(l->ctx, &fd);
}

static int lat_finish(void *state)
{
	struct lat *l = state;
	struct rows dr, tr;
	int err;

	err = gather(&l->devs, &dr, dev_cmp);
	if (err)
		return err;
	err = gather(&l->thrs, &tr, thr_cmp);
	if (err) {
		rows_free(&dr);
		return err;
	}
	/* the tables first: a sink may print the findings to the same terminal */
	print_tables(l, &dr, &tr);
	for (size_t i = 0; !err && i < dr.n; i++)
		if (((struct devrow *)dr.v[i])->slow)
			err = block_finding(l, dr.k[i], dr.v[i]);
	for (size_t i = 0; !err && i < tr.n; i++)
		if (((struct thrrow *)tr.v[i])->slow)
			err = runq_finding(l, tr.k[i], tr.v[i]);
	rows_free(&dr);
	rows_free(&tr);
	return err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "latency",
	.description = "block request latency per device and run-queue waits per thread; slow ones",
	.events = DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ) | DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = options,
	.init = lat_init,
	.event = lat_event,
	.finish = lat_finish,
	.destroy = lat_destroy,
};
