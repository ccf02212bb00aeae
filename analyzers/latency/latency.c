// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency: how long block requests took per device and operation, and how
 * long traced threads waited for a CPU, as log-linear histograms with
 * percentiles; requests and waits past a threshold become findings that name
 * the request, its submitter and, when the submitter was a traced thread in a
 * system call, that call and its file. Slow requests are one finding that
 * names the worst rows; the waits of a program's threads are one finding per
 * program (the processes that run it added up), a warning when they cost a
 * share of the time it was traced. With --report-every, the slow requests
 * are reported at each tick too (a count that only grows), and again at the
 * end with the names the first report gave them; the waits wait for the end,
 * their severity being a share of a time that grows. State is bounded by
 * options: a table of device/operation rows, one of threads, one of
 * processes, one of programs, and a few pending call matches, all allocated
 * at start.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/hist.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

#define EXCERPT_LINES	8
#define PENDING_MAX	256	/* slow requests waiting for the record of their call */
#define SHOWN_THREADS	20
#define TOP		5	/* rows or threads a finding names */
/* a tick waits this long after a slow request for its call's record, which names its file */
#define TICK_LATE_NS	1000000000ULL

enum {
	O_BLOCK_MS, O_RUNQ_MS, O_RUNQ_SHARE, O_RUNQ_MIN_MS, O_MAX_DEVICES, O_MAX_THREADS,
	O_MAX_PROCS, O_MAX_PROGRAMS, O_OUTPUT
};

static const struct dio_option options[] = {
	[O_BLOCK_MS] = { "block_slow_ms", DIO_OPT_DOUBLE, "50",
			 "a block request that took this long is an outlier" },
	[O_RUNQ_MS] = { "runq_slow_ms", DIO_OPT_DOUBLE, "5",
			"a wait for a CPU this long is an outlier" },
	[O_RUNQ_SHARE] = { "runq_share", DIO_OPT_DOUBLE, "0.05",
			   "share of a process's traced time lost in slow waits that makes a warning" },
	[O_RUNQ_MIN_MS] = { "runq_min_ms", DIO_OPT_DOUBLE, "50",
			    "time a process's slow waits must add up to for a warning" },
	[O_MAX_DEVICES] = { "max_devices", DIO_OPT_INT, "64",
			    "device and operation rows kept; more are not counted" },
	[O_MAX_THREADS] = { "max_threads", DIO_OPT_INT, "1024",
			    "threads with a run-queue row; the least recent make room" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "1024",
			  "processes followed; the least recent make room" },
	[O_MAX_PROGRAMS] = { "max_programs", DIO_OPT_INT, "256",
			     "programs whose processes' waits are added up; the least recent make "
			     "room" },
	[O_OUTPUT] = { "output", DIO_OPT_STRING, NULL,
		       "file for the tables; \"-\" for standard output (default: standard error)" },
	{ NULL, 0, NULL, NULL },
};

/* the codes, as README.md explains them */
static const struct dio_rule rules[] = {
	{
		"latency.slow-block-requests", DIO_SEV_WARNING, 0,
		"Block requests that took too long",
		"Block requests that took block_slow_ms (50 ms) or more from their issue to the "
		"driver to their completion: one finding for all the device and operation rows "
		"that had one, naming the slowest request of the row with the most and the thread "
		"and system call that submitted it, or the kernel thread.",
		"Every call waiting for such a request stalls as long.\n\n"
		"Look at what else used the device then (other processes, writeback bursts: lower "
		"vm.dirty_background_bytes, or write back early with sync_file_range), at the "
		"device's queue and health (iostat -x, smartctl), and keep latency-critical files "
		"(logs, WAL) on a device of their own.",
	},
	{
		"latency.runq-delay", DIO_SEV_INFO, DIO_RULE_MACHINE,
		"Threads that waited for a CPU",
		"Waits for a CPU of runq_slow_ms (5 ms) or more by traced threads that were ready "
		"to run, one finding per program (its processes added up). Info, a hint that the "
		"machine was busy, or a warning when the slow waits add up to runq_share (5%) of "
		"the time its processes were traced and to runq_min_ms (50 ms). Waits that dio's "
		"own threads caused do not count. About the machine: --fail-on counts it only "
		"when it names latency.",
		"A thread that waits for a CPU is slow whatever the storage does: its calls take "
		"that much longer.\n\n"
		"Give it CPUs the busy threads do not use (taskset, cpusets), lower their "
		"priority (nice, cgroup cpu.weight), or run fewer of them.",
	},
	TABLE_FULL_RULE("latency", "max_threads, max_procs, max_programs, max_devices"),
	{ NULL, 0, 0, NULL, NULL, NULL },
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
	uint64_t slow_ns;		/* the outliers' times, added up */
	struct dio_ev_block worst;	/* the slowest outlier */
	char path[256];			/* of the worst's call, when its record came */
	uint32_t awaiting, pad;		/* the worst's call record is yet to come */
	int64_t off;			/* -1: unknown */
	struct excerpt x;
};

struct thrkey {
	uint32_t pid, tid;
};

struct thrrow {
	struct hist h;
	uint64_t slow, slow_first, slow_last;
	uint64_t slow_ns;		/* the slow waits, added up */
	char comm[DIO_COMM_LEN];
	struct dio_ev_runq worst;
	struct excerpt x;
};

/* a thread among the worst of its process */
struct ptop {
	uint64_t slow, slow_ns, max;
	uint32_t tid;
	char comm[DIO_COMM_LEN];
	uint32_t pad;
};

/* a process: the time it was traced, and the waits of its threads that are done */
struct procrow {
	uint64_t first_ts, last_ts;		/* its first record's start, last's end */
	uint64_t slow, slow_ns, slow_first, slow_last;
	uint64_t waits, wait_ns, threads;	/* threads: those with slow waits */
	char comm[DIO_COMM_LEN];
	struct prog prog;			/* the program it runs: findings group by it */
	struct ptop top[TOP];			/* most slow waits first; of equals the first */
	struct dio_ev_runq worst;		/* the longest wait */
};

/* a process among the worst of its program */
struct pptop {
	uint64_t slow, slow_ns, max;
	uint32_t pid, threads;
};

/*
 * A program: the waits of its processes once each is done (gone from its
 * table, or the trace ended), so that a hundred compiler processes are one
 * finding. lead is the process whose slow waits took longest, as it was.
 */
struct progrow {
	uint64_t span, slow, slow_ns, waits, wait_ns, slow_first, slow_last;
	uint64_t procs, slow_procs;		/* processes; those with slow waits */
	uint32_t lead_pid, pad;
	struct procrow lead;
	struct pptop top[TOP];			/* most slow time first */
	struct excerpt x;			/* the calls of the lead's worst thread */
};

/* a slow request's call: (tid, entry time) -> its row */
struct callkey {
	uint64_t sys_ts;
	uint32_t tid, pad;
};

/* rows of a table in a stable order: keys and values side by side, for qsort */
struct rows {
	void **kv;			/* key, value, key, value, ... */
	size_t n, max;
};

struct lat {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;
	int own;
	uint64_t block_slow, runq_slow;	/* ns */
	uint64_t runq_ppm;		/* runq_share in millionths */
	uint64_t runq_min;		/* ns of slow waits a warning needs */
	double runq_min_ms;
	double block_ms, runq_ms;	/* as given, for messages */
	struct table devs, thrs, procs, pending, progs;
	uint64_t devs_full;		/* requests on devices without a row */
	uint32_t tracer;		/* dio's own pid: waits it caused are not the program's */
	uint64_t by_tracer;		/* waits that ended when a thread of dio left the CPU */
	struct rows dr, tr, pr;		/* for the end: sized at start */
	/*
	 * The slow-request finding a tick reported (count 0: none), and the
	 * names it had then: they make its fingerprint, so its later reports
	 * keep them, whichever request is the slowest by then.
	 */
	struct {
		uint64_t count;
		uint32_t pid, tid;
		char comm[DIO_COMM_LEN];
		char path[256];
	} told;
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
	table_free(&l->procs);
	table_free(&l->pending);
	table_free(&l->progs);
	free(l->dr.kv);
	free(l->tr.kv);
	free(l->pr.kv);
	free(l);
}

static int rows_init(struct rows *r, size_t max)
{
	r->max = max;
	r->kv = calloc(2 * max, sizeof(void *));
	return r->kv ? 0 : -ENOMEM;
}

static void on_thread_evict(void *key, void *val, void *ud);
static void on_proc_evict(void *key, void *val, void *ud);

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
	    o[O_MAX_THREADS].i < 1 || o[O_MAX_PROCS].i < 1 || o[O_MAX_PROGRAMS].i < 1 ||
	    !(o[O_RUNQ_SHARE].d > 0) ||
	    o[O_RUNQ_SHARE].d > 1 || !(o[O_RUNQ_MIN_MS].d >= 0)) {
		host->log(ctx, "block_slow_ms and runq_slow_ms must be above 0, runq_share above 0 "
			  "and at most 1, runq_min_ms at least 0, max_devices, max_threads and "
			  "max_procs and max_programs at least 1");
		err = -EINVAL;
		goto fail;
	}
	l->block_ms = o[O_BLOCK_MS].d;
	l->runq_ms = o[O_RUNQ_MS].d;
	l->block_slow = (uint64_t)(l->block_ms * 1e6);
	l->runq_slow = (uint64_t)(l->runq_ms * 1e6);
	l->runq_ppm = (uint64_t)(o[O_RUNQ_SHARE].d * 1e6 + 0.5);
	l->runq_min_ms = o[O_RUNQ_MIN_MS].d;
	l->runq_min = (uint64_t)(l->runq_min_ms * 1e6);
	err = table_init(&l->devs, sizeof(struct devkey), sizeof(struct devrow),
			 (size_t)o[O_MAX_DEVICES].i);
	if (!err)
		err = table_init(&l->thrs, sizeof(struct thrkey), sizeof(struct thrrow),
				 (size_t)o[O_MAX_THREADS].i);
	if (!err)
		err = table_init(&l->procs, sizeof(uint32_t), sizeof(struct procrow),
				 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = table_init(&l->pending, sizeof(struct callkey), sizeof(struct devkey),
				 PENDING_MAX);
	/* no more programs than processes: the rows of either fit in pr */
	if (!err)
		err = table_init(&l->progs, DIO_COMM_LEN, sizeof(struct progrow),
				 (size_t)(o[O_MAX_PROGRAMS].i < o[O_MAX_PROCS].i ?
					  o[O_MAX_PROGRAMS].i : o[O_MAX_PROCS].i));
	if (!err)
		err = rows_init(&l->dr, l->devs.max);
	if (!err)
		err = rows_init(&l->tr, l->thrs.max);
	if (!err)
		err = rows_init(&l->pr, l->procs.max);
	if (err)
		goto fail;
	l->thrs.evict = on_thread_evict;
	l->procs.evict = on_proc_evict;
	l->thrs.ud = l->procs.ud = l;
	if (DIO_HOST_HAS(host, info) && host->info(ctx, "tracer_pid"))
		l->tracer = (uint32_t)strtoul(host->info(ctx, "tracer_pid"), NULL, 10);
	if (!path) {
		l->out = stderr;
	} else if (!strcmp(path, "-")) {
		l->out = stdout;
	} else {
		/* 0600, not through a symbolic link; the host says why when it cannot */
		int fd = DIO_HOST_HAS(host, create_output) ? host->create_output(ctx, path) : -ENOSYS;

		if (fd < 0) {
			err = fd;
			goto fail;
		}
		l->out = fdopen(fd, "w");
		if (!l->out) {
			err = -errno;
			close(fd);
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
	r->slow_ns += b->duration;
	if (b->hdr.ts + b->duration > r->slow_last)
		r->slow_last = b->hdr.ts + b->duration;
	if (b->flags & DIO_BF_KTHREAD)
		r->kthread++;
	excerpt_add(&r->x, l->host, l->ctx, &b->hdr, EXCERPT_LINES);
	if (b->duration > r->worst.duration || r->slow == 1) {
		r->worst = *b;
		r->path[0] = 0;
		r->off = -1;
		r->awaiting = !!(b->flags & DIO_BF_SYSCALL);
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
		r->awaiting = 0;
	}
	table_del(&l->pending, &c);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* ---- processes and their threads ------------------------------------------- */

/* a thread's waits go to its process; threads with slow ones rank among its worst */
static void fold_thread(struct procrow *p, const struct thrrow *r, uint32_t tid)
{
	struct ptop *t = p->top;
	int at = 0;

	p->waits += r->h.n;
	p->wait_ns += r->h.sum;
	if (!r->slow)
		return;
	if (!p->slow || r->slow_first < p->slow_first)
		p->slow_first = r->slow_first;
	if (r->slow_last > p->slow_last)
		p->slow_last = r->slow_last;
	if (!p->slow || r->worst.delay > p->worst.delay)
		p->worst = r->worst;
	p->slow += r->slow;
	p->slow_ns += r->slow_ns;
	while (at < TOP && (uint64_t)at < p->threads &&
	       (t[at].slow > r->slow || (t[at].slow == r->slow && t[at].slow_ns >= r->slow_ns)))
		at++;
	p->threads++;
	if (at == TOP)
		return;
	memmove(&t[at + 1], &t[at], (TOP - 1 - (size_t)at) * sizeof(*t));
	t[at] = (struct ptop){ .slow = r->slow, .slow_ns = r->slow_ns, .max = r->worst.delay,
			       .tid = tid };
	memcpy(t[at].comm, r->comm, sizeof(t[at].comm));
}

/* a thread pushed out of its table: its waits stay with its process */
static void on_thread_evict(void *key, void *val, void *ud)
{
	struct lat *l = ud;
	const struct thrkey *k = key;
	/* a thread's process is in its table while the thread is in its own */
	struct procrow *p = table_get(&l->procs, &k->pid);

	if (p)
		fold_thread(p, val, k->tid);
}

/*
 * A process is done (pushed out of its table, or the trace ended): its waits,
 * its threads' already folded in, go to its program.
 */
static void fold_proc(struct lat *l, uint32_t pid, const struct procrow *p)
{
	char key[DIO_COMM_LEN] = { 0 };
	struct progrow *g;
	struct pptop *t;
	int at = 0;

	memcpy(key, p->prog.name[0] ? p->prog.name : p->comm,
	       strnlen(p->prog.name[0] ? p->prog.name : p->comm, DIO_COMM_LEN - 1));
	g = table_put(&l->progs, key, NULL);
	t = g->top;
	g->procs++;
	g->span += p->last_ts - p->first_ts;
	g->waits += p->waits;
	g->wait_ns += p->wait_ns;
	if (!p->slow)
		return;
	if (!g->slow || p->slow_first < g->slow_first)
		g->slow_first = p->slow_first;
	if (p->slow_last > g->slow_last)
		g->slow_last = p->slow_last;
	g->slow += p->slow;
	g->slow_ns += p->slow_ns;
	if (!g->slow_procs || p->slow_ns > g->lead.slow_ns) {
		struct thrkey tk = { .pid = pid, .tid = p->top[0].tid };
		const struct thrrow *tr = table_get(&l->thrs, &tk);

		g->lead = *p;
		g->lead_pid = pid;
		/* the calls of its worst thread, while its row is there */
		if (tr)
			g->x = tr->x;
		else
			memset(&g->x, 0, sizeof(g->x));
	}
	while (at < TOP && (uint64_t)at < g->slow_procs && t[at].slow_ns >= p->slow_ns)
		at++;
	g->slow_procs++;
	if (at == TOP)
		return;
	memmove(&t[at + 1], &t[at], (TOP - 1 - (size_t)at) * sizeof(*t));
	t[at] = (struct pptop){ .slow = p->slow, .slow_ns = p->slow_ns, .max = p->worst.delay,
				.pid = pid, .threads = (uint32_t)p->threads };
}

struct pick {
	struct lat *l;
	uint32_t pid;
};

static void pick_thread(void *key, void *val, void *ud)
{
	struct pick *pk = ud;
	struct rows *r = &pk->l->tr;

	if (((const struct thrkey *)key)->pid != pk->pid)
		return;
	r->kv[2 * r->n] = key;
	r->kv[2 * r->n++ + 1] = val;
}

/* a process pushed out of its table: to its program now, with its threads */
static void on_proc_evict(void *key, void *val, void *ud)
{
	struct lat *l = ud;
	struct procrow *p = val;
	struct pick pk = { l, *(const uint32_t *)key };

	l->tr.n = 0;
	table_each(&l->thrs, pick_thread, &pk);
	for (size_t i = 0; i < l->tr.n; i++)
		fold_thread(p, l->tr.kv[2 * i + 1], ((const struct thrkey *)l->tr.kv[2 * i])->tid);
	fold_proc(l, pk.pid, p);
	for (size_t i = 0; i < l->tr.n; i++) {
		struct thrkey k = *(const struct thrkey *)l->tr.kv[2 * i];

		table_del(&l->thrs, &k);
	}
}

/* a record of thread tid of process pid from start to end: the time it was traced */
static void proc_seen(struct lat *l, uint32_t pid, uint32_t tid, const char *comm, uint64_t start,
		      uint64_t end)
{
	int created;
	struct procrow *p = table_put(&l->procs, &pid, &created);

	if (created) {
		p->first_ts = start;
		memcpy(p->comm, comm, DIO_COMM_LEN);
		p->comm[DIO_COMM_LEN - 1] = 0;
	}
	prog_see(&p->prog, pid, tid, comm);
	if (start < p->first_ts)
		p->first_ts = start;
	if (end > p->last_ts)
		p->last_ts = end;
}

static void on_runq(struct lat *l, const struct dio_ev_runq *q)
{
	struct thrkey k = { .pid = q->pid, .tid = q->tid };
	struct thrrow *r;
	int created;

	/*
	 * A wait that ended when one of dio's own threads left the CPU is dio's
	 * cost, not the program's: counted apart, in the table only
	 */
	if (l->tracer && q->prev_pid == l->tracer) {
		l->by_tracer++;
		return;
	}
	/* the process first: pushing another out takes its threads, not this one */
	proc_seen(l, q->pid, q->tid, q->comm, q->hdr.ts, q->hdr.ts + q->delay);
	r = table_put(&l->thrs, &k, &created);
	memcpy(r->comm, q->comm, DIO_COMM_LEN);
	r->comm[DIO_COMM_LEN - 1] = 0;
	hist_add(&r->h, q->delay);
	if (q->delay < l->runq_slow)
		return;
	if (!r->slow++)
		r->slow_first = q->hdr.ts;
	if (q->hdr.ts + q->delay > r->slow_last)
		r->slow_last = q->hdr.ts + q->delay;
	r->slow_ns += q->delay;
	excerpt_add(&r->x, l->host, l->ctx, &q->hdr, EXCERPT_LINES);
	if (q->delay > r->worst.delay || r->slow == 1)
		r->worst = *q;
}

static int lat_event(void *state, const struct dio_ev_hdr *ev)
{
	struct lat *l = state;
	const struct dio_ev_syscall *e = (const void *)ev;

	switch (ev->type) {
	case DIO_EV_BLOCK:
		on_block(l, (const void *)ev);
		break;
	case DIO_EV_RUNQ:
		on_runq(l, (const void *)ev);
		break;
	case DIO_EV_SYSCALL:
		proc_seen(l, e->pid, e->tid, e->comm, ev->ts, ev->ts + e->duration);
		on_syscall(l, e);
		break;
	}
	return 0;
}

/* ---- tables ---------------------------------------------------------------- */

static void collect(void *key, void *val, void *ud)
{
	struct rows *r = ud;

	r->kv[2 * r->n] = key;
	r->kv[2 * r->n++ + 1] = val;
}

/* rows of t in a stable order: cmp on (key, value) pairs */
static void gather(struct table *t, struct rows *r, int (*cmp)(const void *, const void *))
{
	r->n = 0;
	table_each(t, collect, r);
	qsort(r->kv, r->n, 2 * sizeof(void *), cmp);
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
			const struct devkey *k = dr->kv[2 * i];
			const struct devrow *r = dr->kv[2 * i + 1];
			char name[32];

			snprintf(name, sizeof(name), "%u:%u %s", DIO_DEV_MAJOR(k->dev), DIO_DEV_MINOR(k->dev),
				 op_name(k->op));
			fprintf(f, "%-16s %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %10" PRIu64 "\n", name,
				r->h.n, ms(hist_pct(&r->h, 0.50)), ms(hist_pct(&r->h, 0.95)),
				ms(hist_pct(&r->h, 0.99)), ms(r->h.max), r->slow);
		}
		for (size_t i = 0; i < dr->n; i++) {
			const struct devkey *k = dr->kv[2 * i];

			fprintf(f, "\n  %u:%u %s latency, usecs: count distribution\n", DIO_DEV_MAJOR(k->dev),
				DIO_DEV_MINOR(k->dev), op_name(k->op));
			print_log2(f, &((const struct devrow *)dr->kv[2 * i + 1])->h);
		}
		if (l->devs_full)
			fprintf(f, "(%" PRIu64 " requests on devices past max_devices not counted)\n",
				l->devs_full);
	}
	if (tr->n) {
		fprintf(f, "\nrun-queue waits     count    p50 ms    p99 ms    max ms  total ms  >= %.3g ms thread\n",
			l->runq_ms);
		for (size_t i = 0; i < tr->n && i < SHOWN_THREADS; i++) {
			const struct thrkey *k = tr->kv[2 * i];
			const struct thrrow *r = tr->kv[2 * i + 1];
			char id[32], comm[4 * DIO_COMM_LEN + 1];

			snprintf(id, sizeof(id), "%u/%u", k->pid, k->tid);
			dio_escape(r->comm, DIO_COMM_LEN, 0, comm, sizeof(comm));
			fprintf(f, "%-16s %8" PRIu64 " %9.3f %9.3f %9.3f %9.3f %10" PRIu64 " %s\n", id,
				r->h.n, ms(hist_pct(&r->h, 0.50)), ms(hist_pct(&r->h, 0.99)),
				ms(r->h.max), ms(r->h.sum), r->slow, comm);
		}
		if (tr->n > SHOWN_THREADS)
			fprintf(f, "(%zu more threads)\n", tr->n - SHOWN_THREADS);
		if (l->thrs.evicted)
			fprintf(f, "(%" PRIu64 " threads past max_threads left the table; the findings "
				"count their waits)\n", l->thrs.evicted);
	}
	if (l->by_tracer)
		fprintf(f, "(%" PRIu64 " waits that dio's own threads caused are not counted)\n",
			l->by_tracer);
	fflush(f);
}

/* ---- findings -------------------------------------------------------------- */

/* part/whole at least ppm millionths (whole > 0) */
static int share_at_least(uint64_t part, uint64_t whole, uint64_t ppm)
{
	return whole && (unsigned __int128)part * 1000000 >= (unsigned __int128)ppm * whole;
}

/* the rows with slow requests, most first (of equals, the first in device order) */
static size_t worst_rows(const struct rows *dr, size_t *idx, uint64_t *nrows)
{
	size_t n = 0;

	*nrows = 0;
	for (size_t i = 0; i < dr->n; i++) {
		const struct devrow *r = dr->kv[2 * i + 1];
		size_t at = 0;

		if (!r->slow)
			continue;
		++*nrows;
		while (at < n && ((const struct devrow *)dr->kv[2 * idx[at] + 1])->slow >= r->slow)
			at++;
		if (at == TOP)
			continue;
		if (n < TOP)
			n++;
		memmove(&idx[at + 1], &idx[at], (n - 1 - at) * sizeof(*idx));
		idx[at] = i;
	}
	return n;
}

/*
 * One finding for all the rows with slow requests, the evidence of the one
 * with the most. At a tick (now below UINT64_MAX), only when it counts more
 * than a tick reported, and, the first time, once the call record of the
 * slowest request it names has come (or a second after that request ended):
 * its file is in the names the later reports keep.
 */
static int block_finding(struct lat *l, const struct rows *dr, uint64_t now)
{
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_WARNING };
	size_t idx[TOP], n, at = 0;
	uint64_t nrows, slow = 0, slow_ns = 0, first = UINT64_MAX, last = 0;
	const struct devkey *k;
	const struct devrow *r;
	const struct dio_ev_block *w;
	char title[512], msg[3072], who[512], comm[COMM_LABEL_LEN], path[256], span[32];

	n = worst_rows(dr, idx, &nrows);
	if (!n)
		return 0;
	for (size_t i = 0; i < dr->n; i++) {
		r = dr->kv[2 * i + 1];
		if (!r->slow)
			continue;
		slow += r->slow;
		slow_ns += r->slow_ns;
		if (r->slow_first < first)
			first = r->slow_first;
		if (r->slow_last > last)
			last = r->slow_last;
	}
	k = dr->kv[2 * idx[0]];
	r = dr->kv[2 * idx[0] + 1];
	w = &r->worst;
	if (now != UINT64_MAX && (slow == l->told.count ||
				  (!l->told.count && r->awaiting &&
				   now < w->hdr.ts + w->duration + TICK_LATE_NS)))
		return 0;
	comm_label(w->comm, comm);
	dio_escape(r->path, sizeof(r->path), 0, path, sizeof(path));
	if (w->flags & DIO_BF_KTHREAD)
		snprintf(who, sizeof(who),
			 "kernel thread %s (%u): writeback or journal work, done for whichever "
			 "process dirtied the data, which the request does not tell", comm, w->tid);
	else if (w->flags & DIO_BF_SYSCALL)
		snprintf(who, sizeof(who), "%s (%u/%u) in %s%s%s", comm, w->pid, w->tid,
			 l->host->syscall_name(w->nr), path[0] ? " of " : "", path);
	else
		snprintf(who, sizeof(who), "%s (%u/%u), outside a traced call", comm, w->pid,
			 w->tid);
	if (nrows == 1)
		snprintf(title, sizeof(title),
			 "%" PRIu64 " %s request%s on %u:%u took %.3g ms or more (p99 %.3f ms, max "
			 "%.3f ms)",
			 r->slow, op_name(k->op), plural(r->slow), DIO_DEV_MAJOR(k->dev), DIO_DEV_MINOR(k->dev),
			 l->block_ms, ms(hist_pct(&r->h, 0.99)), ms(r->h.max));
	else
		snprintf(title, sizeof(title),
			 "%" PRIu64 " block requests took %.3g ms or more in %" PRIu64 " device and "
			 "operation rows, most %" PRIu64 " %s request%s on %u:%u (p99 %.3f ms, max "
			 "%.3f ms)",
			 slow, l->block_ms, nrows, r->slow, op_name(k->op), plural(r->slow),
			 DIO_DEV_MAJOR(k->dev), DIO_DEV_MINOR(k->dev), ms(hist_pct(&r->h, 0.99)), ms(r->h.max));
	if (nrows > 1) {
		at = (size_t)snprintf(msg, sizeof(msg), "Rows with the most:\n");
		for (size_t i = 0; i < n && at < sizeof(msg); i++) {
			const struct devkey *ki = dr->kv[2 * idx[i]];
			const struct devrow *ri = dr->kv[2 * idx[i] + 1];

			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  %u:%u %s: %" PRIu64 " of %" PRIu64 " requests (p99 "
					       "%.3f ms, max %.3f ms)\n",
					       DIO_DEV_MAJOR(ki->dev), DIO_DEV_MINOR(ki->dev), op_name(ki->op),
					       ri->slow, ri->h.n, ms(hist_pct(&ri->h, 0.99)),
					       ms(ri->h.max));
		}
		if (nrows > TOP && at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  and %" PRIu64 " more rows\n", nrows - TOP);
	}
	if (at < sizeof(msg))
		at += (size_t)snprintf(msg + at, sizeof(msg) - at,
			 "%" PRIu64 " of %" PRIu64 " %s requests on device %u:%u took %.3g ms or more "
			 "from issue to completion; %" PRIu64 " of them came from kernel threads. The "
			 "slowest, %.3f ms for %u bytes at sector %" PRIu64 ", was submitted by %s.\n"
			 "Every call waiting for such a request stalls as long. Look at what else used "
			 "the device then (other processes, writeback bursts: lower vm.dirty_background_"
			 "bytes or write back early with sync_file_range), at the device's queue and "
			 "health (iostat -x, smartctl), and keep latency-critical files (logs, WAL) on a "
			 "device of their own.",
			 r->slow, r->h.n, op_name(k->op), DIO_DEV_MAJOR(k->dev), DIO_DEV_MINOR(k->dev), l->block_ms,
			 r->kthread, ms(w->duration), w->bytes, (uint64_t)w->sector, who);
	if (at < sizeof(msg))
		snprintf(msg + at, sizeof(msg) - at,
			 "\nCost: %s from issue to completion in the %" PRIu64 " slow requests, "
			 "added up (requests in flight together each counted).",
			 span_text(slow_ns, span, sizeof(span)), slow);
	fd.code = "latency.slow-block-requests";
	fd.title = title;
	fd.message = msg;
	if (now != UINT64_MAX && !l->told.count) {
		l->told.pid = w->pid;
		l->told.tid = w->tid;
		memcpy(l->told.comm, w->comm, sizeof(l->told.comm));
		l->told.comm[sizeof(l->told.comm) - 1] = 0;
		memcpy(l->told.path, r->path, sizeof(l->told.path));
	}
	if (now != UINT64_MAX)
		l->told.count = slow;
	if (l->told.count) {
		fd.pid = l->told.pid;
		fd.tid = l->told.tid;
		fd.comm = l->told.comm;
		fd.path = l->told.path[0] ? l->told.path : NULL;
	} else {
		fd.pid = w->pid;
		fd.tid = w->tid;
		fd.comm = w->comm;
		fd.path = r->path[0] ? r->path : NULL;
	}
	fd.ts_first = first;
	fd.ts_last = last;
	fd.count = slow;
	fd.cost_ns = slow_ns;
	fd.excerpt = excerpt_text((struct excerpt *)&r->x);
	return l->host->emit_finding(l->ctx, &fd);
}

/*
 * The slow waits of a program's processes (for most, one process): a warning
 * when they add up to runq_share of the time its processes were traced and to
 * runq_min_ms (a cost it paid), info below (a hint that the machine was busy).
 */
static int runq_finding(struct lat *l, const char *name, const struct progrow *g)
{
	const struct procrow *p = &g->lead;
	uint32_t pid = g->lead_pid;
	const struct dio_ev_runq *w = &p->worst;
	const struct ptop *t = &p->top[0];
	struct dio_finding fd = { .size = sizeof(fd) };
	uint64_t span = g->span;
	int warn = share_at_least(g->slow_ns, span, l->runq_ppm) && g->slow_ns >= l->runq_min;
	char title[512], msg[3072], cost[384], worst[256], all[32];
	char comm[COMM_LABEL_LEN], tcomm[COMM_LABEL_LEN];
	size_t at;

	snprintf(cost, sizeof(cost),
		 "The waits of %.3g ms or more add up to %.3f ms%s, %.1f%% of the %.3f s %s: %s "
		 "%g%% and %g ms).",
		 l->runq_ms, ms(g->slow_ns),
		 g->slow_procs > 1 ? " over its processes" : p->threads > 1 ? " over its threads" : "",
		 span ? 100.0 * (double)g->slow_ns / (double)span : 0.0, (double)span / 1e9,
		 g->procs > 1 ? "its processes were traced, added up" :
		 "from its first record to its last",
		 warn ? "a cost (a warning from" : "a hint that the machine was busy (a warning from",
		 100.0 * (double)l->runq_ppm / 1e6, l->runq_min_ms);
	/* all the waits: "90 ms", "39.6 s" */
	if (g->wait_ns < 1000000000)
		snprintf(all, sizeof(all), "%.3g ms", ms(g->wait_ns));
	else
		snprintf(all, sizeof(all), "%.1f s", (double)g->wait_ns / 1e9);
	snprintf(worst, sizeof(worst), "%.3f ms after it was %s, ended when %s (%u/%u) left the "
		 "CPU%s%s", ms(w->delay), (w->flags & DIO_RF_PREEMPTED) ? "preempted" : "woken up",
		 comm_label(w->prev_comm, comm), w->prev_pid, w->prev_tid, (w->flags & DIO_RF_SYSCALL) ? "; it was in " : "",
		 (w->flags & DIO_RF_SYSCALL) ? l->host->syscall_name(w->nr) : "");
	if (g->slow_procs > 1) {
		snprintf(title, sizeof(title),
			 "program %s: %" PRIu64 " processes waited %.3g ms or more for a CPU %" PRIu64
			 " times, most %u %" PRIu64 " time%s (max %.3f ms)",
			 comm_label(name, tcomm), g->slow_procs, l->runq_ms, g->slow, pid, p->slow,
			 plural(p->slow), ms(w->delay));
		at = (size_t)snprintf(msg, sizeof(msg),
				      "Its processes were ready to run but waited for a CPU %" PRIu64
				      " times for %.3g ms or more (%" PRIu64 " wait%s of %s in "
				      "all). Processes with the most:\n",
				      g->slow, l->runq_ms, g->waits, plural(g->waits), all);
		for (int i = 0; i < TOP && (uint64_t)i < g->slow_procs && at < sizeof(msg); i++)
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  %u: %" PRIu64 " time%s in %u thread%s, %.3f ms in all, "
					       "max %.3f ms\n",
					       g->top[i].pid, g->top[i].slow, plural(g->top[i].slow),
					       g->top[i].threads, plural(g->top[i].threads),
					       ms(g->top[i].slow_ns), ms(g->top[i].max));
		if (g->slow_procs > TOP && at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  and %" PRIu64 " more processes\n",
					       g->slow_procs - TOP);
		if (at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "The longest, of %s (%u/%u), %s.\n",
					       comm_label(w->comm, comm), pid,
					       w->tid, worst);
	} else if (p->threads == 1) {
		snprintf(title, sizeof(title),
			 "thread %s (%u/%u) waited %.3g ms or more for a CPU %" PRIu64 " time%s (max "
			 "%.3f ms)",
			 comm_label(t->comm, tcomm), pid, t->tid, l->runq_ms, p->slow,
			 plural(p->slow), ms(w->delay));
		at = (size_t)snprintf(msg, sizeof(msg),
				      "The thread was ready to run but waited for a CPU %" PRIu64
				      " time%s for %.3g ms or more (%" PRIu64 " wait%s of %s in "
				      "all). The longest, %s.\n",
				      p->slow, plural(p->slow), l->runq_ms, g->waits, plural(g->waits),
				      all, worst);
	} else {
		snprintf(title, sizeof(title),
			 "process %s (%u) waited %.3g ms or more for a CPU %" PRIu64 " times in %"
			 PRIu64 " threads, most %s (%u/%u) %" PRIu64 " time%s (max %.3f ms)",
			 comm_label(p->comm, comm), pid, l->runq_ms, p->slow, p->threads,
			 comm_label(t->comm, tcomm), pid, t->tid, t->slow,
			 plural(t->slow), ms(w->delay));
		at = (size_t)snprintf(msg, sizeof(msg),
				      "Its threads were ready to run but waited for a CPU %" PRIu64
				      " times for %.3g ms or more (%" PRIu64 " wait%s of %s in "
				      "all). Threads with the most:\n",
				      p->slow, l->runq_ms, g->waits, plural(g->waits), all);
		for (int i = 0; i < TOP && (uint64_t)i < p->threads && at < sizeof(msg); i++)
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  %s (%u/%u): %" PRIu64 " time%s, %.3f ms in all, max "
					       "%.3f ms\n",
					       comm_label(p->top[i].comm, comm), pid, p->top[i].tid,
					       p->top[i].slow,
					       plural(p->top[i].slow), ms(p->top[i].slow_ns),
					       ms(p->top[i].max));
		if (p->threads > TOP && at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  and %" PRIu64 " more threads\n", p->threads - TOP);
		if (at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "The longest, of %s (%u/%u), %s.\n",
					       comm_label(w->comm, comm), pid,
					       w->tid, worst);
	}
	if (at < sizeof(msg))
		snprintf(msg + at, sizeof(msg) - at,
			 "%s\nIts calls take that much longer whatever the storage does. Give it CPUs "
			 "the busy threads do not use (taskset, cpusets), lower their priority (nice, "
			 "cgroup cpu.weight), or run fewer of them.",
			 cost);
	fd.severity = warn ? DIO_SEV_WARNING : DIO_SEV_INFO;
	fd.code = "latency.runq-delay";
	fd.title = title;
	fd.message = msg;
	fd.pid = pid;
	fd.tid = t->tid;
	fd.comm = g->slow_procs > 1 ? name : t->comm;
	fd.ts_first = g->slow_first;
	fd.ts_last = g->slow_last;
	fd.count = g->slow;
	fd.cost_ns = g->slow_ns;
	fd.processes = (uint32_t)g->slow_procs;
	/* the calls of the lead's thread with the most; none when it had left its table */
	fd.excerpt = g->x.len ? excerpt_text((struct excerpt *)&g->x) : NULL;
	return l->host->emit_finding(l->ctx, &fd);
}

/* threads by process, then thread id */
static int thr_pid_cmp(const void *a, const void *b)
{
	const struct thrkey *x = *(void *const *)a, *y = *(void *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* processes by the time their slow waits took, longest first; ties by pid */
static int proc_cmp(const void *a, const void *b)
{
	const uint32_t *kx = *(void *const *)a, *ky = *(void *const *)b;
	const struct procrow *x = ((void *const *)a)[1], *y = ((void *const *)b)[1];

	if (x->slow_ns != y->slow_ns)
		return x->slow_ns < y->slow_ns ? 1 : -1;
	return (*kx > *ky) - (*kx < *ky);
}

/* programs the same way; ties by name */
static int prog_cmp(const void *a, const void *b)
{
	const char *kx = *(void *const *)a, *ky = *(void *const *)b;
	const struct progrow *x = ((void *const *)a)[1], *y = ((void *const *)b)[1];

	if (x->slow_ns != y->slow_ns)
		return x->slow_ns < y->slow_ns ? 1 : -1;
	return strncmp(kx, ky, DIO_COMM_LEN);
}

static int lat_finish(void *state)
{
	struct lat *l = state;
	int err;

	gather(&l->devs, &l->dr, dev_cmp);
	gather(&l->thrs, &l->tr, thr_cmp);
	/* the tables first: a sink may print the findings to the same terminal */
	print_tables(l, &l->dr, &l->tr);
	err = block_finding(l, &l->dr, UINT64_MAX);
	/* every thread to its process, in an order the table's layout does not choose */
	qsort(l->tr.kv, l->tr.n, 2 * sizeof(void *), thr_pid_cmp);
	for (size_t i = 0; i < l->tr.n; i++) {
		const struct thrkey *k = l->tr.kv[2 * i];
		struct procrow *p = table_get(&l->procs, &k->pid);

		if (p)
			fold_thread(p, l->tr.kv[2 * i + 1], k->tid);
	}
	/* every process to its program, then one finding a program */
	gather(&l->procs, &l->pr, proc_cmp);
	for (size_t i = 0; i < l->pr.n; i++)
		fold_proc(l, *(const uint32_t *)l->pr.kv[2 * i], l->pr.kv[2 * i + 1]);
	gather(&l->progs, &l->pr, prog_cmp);
	for (size_t i = 0; !err && i < l->pr.n; i++)
		if (((const struct progrow *)l->pr.kv[2 * i + 1])->slow)
			err = runq_finding(l, l->pr.kv[2 * i], l->pr.kv[2 * i + 1]);
	if (!err) {
		const struct table_use u[] = {
			TABLE_USE(&l->thrs, "threads", "max_threads"),
			TABLE_USE(&l->procs, "processes", "max_procs"),
			TABLE_USE(&l->progs, "programs", "max_programs"),
			{ l->devs_full, "block requests on devices past the limit were not counted",
			  "max_devices", l->devs.max },
		};

		err = tables_report(l->host, l->ctx, rules[2].code, "latency", u,
				    sizeof(u) / sizeof(u[0]));
	}
	return err;
}

/*
 * --report-every: the slow requests so far. A row with one is in the end's
 * finding whatever comes later (rows are never pushed out, counts only
 * grow), so the finding is reported as it stands, and again at the end with
 * the names it had then. A program's run-queue finding waits for the end:
 * its severity is a share of the time its processes were traced, which
 * grows with them.
 */
static int lat_tick(void *state, uint64_t now_ns)
{
	struct lat *l = state;

	gather(&l->devs, &l->dr, dev_cmp);
	return block_finding(l, &l->dr, now_ns);
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
	.rules = rules,
	.tick = lat_tick,
};
