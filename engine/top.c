// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio top: the probe in count mode (bpf/top.bpf.h) adds every call to
 * counters per thread and per file, and block requests and run-queue waits
 * to counters per process; this reads those maps once a frame and shows the
 * busiest rows. The kernel's counters only grow: a frame shows what they
 * grew by since the last one (or, with -S, their totals).
 *
 * The host keeps a row for each thread, process and file it has seen. A
 * thread's (and process's) kernel entry is deleted after the read that
 * follows its exit record, so that the kernel tables hold live tasks only;
 * what it had counted stays in the row. Rows of exited tasks are kept up to
 * GONE_ROWS a table: past that, those that counted least are added into one
 * row, "(N exited)", so that -S keeps every total in bounded memory. Files
 * are bounded by the kernel's table of them (DIO_TOP_FILES).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dio/plugin.h>
#include "bpf/top.h"
#include "live.h"
#include "loss.h"
#include "probe.h"
#include "proc.h"
#include "record.h"
#include "selfstats.h"
#include "tagtab.h"
#include "top.h"
#include "util.h"

/* what a row counts; a process's calls are its threads' */
enum {
	V_CALLS, V_ERRORS, V_RBYTES, V_WBYTES, V_NS,	/* as struct dio_top_calls */
	V_BLK, V_BLK_NS, V_BLK_MAX,			/* as struct dio_top_wait */
	V_RUNQ, V_RUNQ_NS, V_RUNQ_MAX,
	V_BLK_BYTES,
	V_MAX
};
#define V_CALL_MAX	(V_NS + 1)
/* rows of exited threads (and processes) kept one by one; past it, half are added up */
#define GONE_ROWS	4096
/* tasks whose exit record never came are looked for once the live rows double */
#define SWEEP_MIN	256

struct row {
	uint64_t key[2];	/* tid, pid, or the file tag (ino, dev << 32 | gen) */
	uint32_t pid, tid;
	char comm[DIO_COMM_LEN + 1];
	uint8_t ftype;
	uint8_t gone;		/* exited: its kernel entry goes after the next read */
	uint8_t dropped;	/* its kernel entry was deleted: cur is in base */
	uint8_t mark;		/* while rows are added up: this one goes */
	uint8_t held;		/* while rows are added up: a process with thread rows left */
	uint64_t base[V_MAX];	/* what deleted kernel entries had counted */
	uint64_t cur[V_MAX];	/* the kernel entry at the last read */
	uint64_t prev[V_MAX];	/* the total at the last frame */
	uint64_t show[V_MAX];	/* this frame's figures */
};

/* Rows by key: open addressing over indices into a growing array. */
struct rows {
	struct row *v;
	size_t n, cap;
	uint32_t *slot;		/* index + 1, 0: empty */
	size_t nslot;		/* a power of two, at least twice n */
};

struct top {
	struct live live;	/* the options, the probe, --stats */
	const struct top_args *a;
	struct tagtab *paths;
	struct rows threads, procs, files;
	/* the rows of exited threads and processes added up, and how many each holds */
	struct row tsum, psum;
	uint64_t tfolded, pfolded;
	size_t sweep_at;	/* live rows that call for a sweep; 0: pids are not ours */
	int fd_threads, fd_files, fd_procs;
	int ncpu;
	enum top_sort sort;
	int cumulative;
	int interactive;	/* a terminal: screen control, units, keys */
	int keys;		/* stdin is a terminal in raw mode */
	struct termios saved;
	uint64_t frames;
	uint64_t start_ns;	/* CLOCK_MONOTONIC when counting began */
	uint64_t last_ns;	/* and of the last frame */
	uint64_t next_ns;	/* when the next frame is due */
	uint64_t malformed;
	int failed;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---- rows ------------------------------------------------------------------ */

static uint64_t key_hash(const uint64_t *k)
{
	uint64_t h = (k[0] ^ (k[1] * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;

	return h ^ (h >> 29);
}

static int rows_grow(struct rows *r)
{
	size_t nslot = r->nslot ? r->nslot * 2 : 256;
	uint32_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		size_t j = key_hash(r->v[i].key) & (nslot - 1);

		while (slot[j])
			j = (j + 1) & (nslot - 1);
		slot[j] = i + 1;
	}
	free(r->slot);
	r->slot = slot;
	r->nslot = nslot;
	return 0;
}

/* The row of key, made (zeroed) when create; NULL when absent or out of memory. */
static struct row *rows_get(struct rows *r, uint64_t k0, uint64_t k1, int create)
{
	uint64_t k[2] = { k0, k1 };
	size_t j;

	if (r->nslot) {
		for (j = key_hash(k) & (r->nslot - 1); r->slot[j]; j = (j + 1) & (r->nslot - 1)) {
			struct row *w = &r->v[r->slot[j] - 1];

			if (w->key[0] == k0 && w->key[1] == k1)
				return w;
		}
	}
	if (!create)
		return NULL;
	if (2 * (r->n + 1) > r->nslot && rows_grow(r))
		return NULL;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		struct row *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	for (j = key_hash(k) & (r->nslot - 1); r->slot[j]; j = (j + 1) & (r->nslot - 1))
		;
	r->slot[j] = r->n + 1;
	memset(&r->v[r->n], 0, sizeof(r->v[0]));
	r->v[r->n].key[0] = k0;
	r->v[r->n].key[1] = k1;
	return &r->v[r->n++];
}

static void rows_free(struct rows *r)
{
	free(r->v);
	free(r->slot);
}

static uint64_t total(const struct row *w, int i)
{
	return w->base[i] + w->cur[i];
}

/* ---- the ring: paths and process events -------------------------------------- */

static int on_record(void *ctx, void *data, size_t size)
{
	struct top *t = ctx;
	const struct dio_ev_hdr *h = data;

	if (t->live.stats)
		selfstats__record(t->live.stats, size);
	if (record_check(data, size, 0, NULL)) {
		t->malformed++;
		return 0;
	}
	if (h->type == DIO_EV_PATH) {
		/* named as dio trace names it: pipe:[N], socket:[N], "..." where it was cut */
		if (tagtab__set_path(t->paths, data))
			return -ENOMEM;
	} else if (h->type == DIO_EV_PROC) {
		const struct dio_ev_proc *p = data;
		struct row *w;

		if (p->kind != DIO_PROC_EXIT)
			return 0;
		w = rows_get(&t->threads, p->tid, 0, 1);
		if (!w)
			return -ENOMEM;
		w->gone = 1;
		w->tid = p->tid;
		if (!w->pid)
			w->pid = p->pid;
		if (p->flags & DIO_PROCF_GROUP_DEAD) {
			w = rows_get(&t->procs, p->pid, 0, 1);
			if (!w)
				return -ENOMEM;
			w->gone = 1;
			w->pid = p->pid;
		}
	}
	return 0;
}

/* ---- reading the kernel's counters ------------------------------------------- */

/*
 * Hand every entry of a hash map to fn, read a chunk of buckets at a time.
 * vsize is what one key's value takes in the batch (all CPUs' copies for a
 * per-CPU map). 0 or -errno.
 */
static int read_map(int fd, size_t ksize, size_t vsize,
		    int (*fn)(struct top *t, const void *key, const void *val), struct top *t)
{
	enum { CHUNK = 256 };
	uint8_t *keys = malloc(CHUNK * ksize), *vals = malloc(CHUNK * vsize);
	uint32_t token = 0, n;
	int e = 0;

	for (int first = 1, end = 0; keys && vals && !end && !e; first = 0) {
		n = CHUNK;
		if (bpf_map_lookup_batch(fd, first ? NULL : &token, &token, keys, vals, &n, NULL)) {
			if (errno != ENOENT)
				return free(keys), free(vals), -errno;
			end = 1;	/* ENOENT: the last bucket was read */
		}
		for (uint32_t i = 0; i < n && !e; i++)
			e = fn(t, keys + i * ksize, vals + i * vsize);
	}
	if (!keys || !vals)
		e = -ENOMEM;
	free(keys);
	free(vals);
	return e;
}

/* A kernel entry for a row that was deleted before: the task is a new one with that id. */
static void reborn(struct row *w, uint32_t pid)
{
	if (!w->dropped)
		return;
	w->dropped = 0;
	w->gone = 0;
	if (w->pid != pid) {	/* another process's thread: a fresh row */
		memset(w->base, 0, sizeof(w->base));
		memset(w->prev, 0, sizeof(w->prev));
	}
}

static void add_calls(uint64_t *v, const struct dio_top_calls *c)
{
	v[V_CALLS] += c->calls;
	v[V_ERRORS] += c->errors;
	v[V_RBYTES] += c->rbytes;
	v[V_WBYTES] += c->wbytes;
	v[V_NS] += c->ns;
}

/* v: the n, ns and max of one kind of wait (V_BLK or V_RUNQ on) */
static void add_wait(uint64_t *v, const struct dio_top_wait *w)
{
	v[0] += w->n;
	v[1] += w->ns;
	if (w->max > v[2])
		v[2] = w->max;
}

static int got_thread(struct top *t, const void *key, const void *val)
{
	const struct dio_top_thread *v = val;
	struct row *w = rows_get(&t->threads, *(const uint32_t *)key, 0, 1);

	if (!w)
		return -ENOMEM;
	reborn(w, v->pid);
	w->tid = *(const uint32_t *)key;
	w->pid = v->pid;
	memcpy(w->comm, v->comm, DIO_COMM_LEN);
	w->comm[DIO_COMM_LEN] = 0;
	memset(w->cur, 0, sizeof(w->cur));
	add_calls(w->cur, &v->c);
	return 0;
}

/* copy c of a per-CPU value as a batch read returns it (values padded to 8 bytes) */
static const void *cpu_copy(const void *val, size_t size, int c)
{
	return (const char *)val + c * ((size + 7) & ~(size_t)7);
}

static size_t pcpu_size(const struct top *t, size_t size)
{
	return (size_t)t->ncpu * ((size + 7) & ~(size_t)7);
}

static int got_file(struct top *t, const void *key, const void *val)
{
	const struct dio_file_tag *tag = key;
	struct row *w = rows_get(&t->files, tag->ino, (uint64_t)tag->dev << 32 | tag->gen, 1);

	if (!w)
		return -ENOMEM;
	memset(w->cur, 0, sizeof(w->cur));
	for (int c = 0; c < t->ncpu; c++) {
		const struct dio_top_file *v = cpu_copy(val, sizeof(*v), c);

		add_calls(w->cur, &v->c);
		if (v->pid && !w->pid)
			w->pid = v->pid;
		if (v->c.calls)
			w->ftype = v->ftype;
	}
	return 0;
}

static int got_proc(struct top *t, const void *key, const void *val)
{
	uint32_t pid = *(const uint32_t *)key;
	struct row *w = rows_get(&t->procs, pid, 0, 1);

	if (!w)
		return -ENOMEM;
	reborn(w, pid);
	w->pid = pid;
	for (int i = V_BLK; i < V_MAX; i++)
		w->cur[i] = 0;
	for (int c = 0; c < t->ncpu; c++) {
		const struct dio_top_proc *v = cpu_copy(val, sizeof(*v), c);

		add_wait(&w->cur[V_BLK], &v->blk);
		add_wait(&w->cur[V_RUNQ], &v->runq);
		w->cur[V_BLK_BYTES] += v->blk_bytes;
	}
	return 0;
}

/*
 * The kernel entries of exited threads and processes, read for the last
 * time: deleted, what they counted from field first on kept in base (a
 * process's calls are its threads', summed anew each frame). Maxima are not
 * sums: the larger stays.
 */
static void drop_gone(struct rows *r, int fd, int first)
{
	for (size_t i = 0; i < r->n; i++) {
		struct row *w = &r->v[i];
		uint32_t key = w->key[0];

		if (!w->gone || w->dropped)
			continue;
		bpf_map_delete_elem(fd, &key);
		for (int k = first; k < V_MAX; k++) {
			if (k == V_BLK_MAX || k == V_RUNQ_MAX)
				w->base[k] = w->base[k] > w->cur[k] ? w->base[k] : w->cur[k];
			else
				w->base[k] += w->cur[k];
			w->cur[k] = 0;
		}
		w->dropped = 1;
	}
}

/* A process without a thread row (a kernel thread's block requests): named as /proc says. */
static void name_from_proc(struct row *w)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", w->pid);
	f = fopen(path, "r");
	if (f && fgets(w->comm, sizeof(w->comm), f))
		w->comm[strcspn(w->comm, "\n")] = 0;
	if (f)
		fclose(f);
}

/*
 * A process's calls are its threads': their totals, into the process rows'
 * cur (base holds those of its threads added up into "exited").
 */
static int sum_threads(struct top *t)
{
	for (size_t i = 0; i < t->procs.n; i++)
		for (int k = 0; k < V_CALL_MAX; k++)
			t->procs.v[i].cur[k] = 0;
	for (size_t i = 0; i < t->threads.n; i++) {
		const struct row *th = &t->threads.v[i];
		struct row *p;

		if (!th->pid)
			continue;
		p = rows_get(&t->procs, th->pid, 0, 1);
		if (!p)
			return -ENOMEM;
		p->pid = th->pid;
		for (int k = 0; k < V_CALL_MAX; k++)
			p->cur[k] += total(th, k);
		/* the process is named as its main thread, else as any of its threads */
		if (th->tid == th->pid || !p->comm[0])
			memcpy(p->comm, th->comm, sizeof(p->comm));
	}
	for (size_t i = 0; i < t->procs.n; i++)
		if (!t->procs.v[i].comm[0] && !t->procs.v[i].gone)
			name_from_proc(&t->procs.v[i]);
	return 0;
}

static int is_max(int k)
{
	return k == V_BLK_MAX || k == V_RUNQ_MAX;
}

static uint64_t total_of(const struct row *w, int k)
{
	if (is_max(k))
		return w->base[k] > w->cur[k] ? w->base[k] : w->cur[k];
	return total(w, k);
}

/* this frame's figures: the growth since the last frame, or the totals (maxima: the largest yet) */
static void row_figures(struct row *w, int cumulative)
{
	for (int k = 0; k < V_MAX; k++) {
		uint64_t tot = total_of(w, k);

		w->show[k] = cumulative || is_max(k) ? tot : tot - w->prev[k];
		w->prev[k] = tot;
	}
}

static void frame_figures(struct rows *r, int cumulative)
{
	for (size_t i = 0; i < r->n; i++)
		row_figures(&r->v[i], cumulative);
}

/* ---- rows of exited tasks ---------------------------------------------------- */

/*
 * w, exited and read for the last time, into sum: its totals, what the
 * frame shows of it, and what was shown before, so that the frames still
 * add up and -S still shows every total.
 */
static void fold_into(struct row *sum, const struct row *w)
{
	for (int k = 0; k < V_MAX; k++) {
		uint64_t tot = total_of(w, k);

		if (is_max(k)) {
			sum->base[k] = sum->base[k] > tot ? sum->base[k] : tot;
			sum->prev[k] = sum->base[k];
			sum->show[k] = sum->show[k] > w->show[k] ? sum->show[k] : w->show[k];
			continue;
		}
		sum->base[k] += tot;
		sum->prev[k] += w->prev[k];
		sum->show[k] += w->show[k];
	}
}

/* the least first: calls, then time, then the key */
static int by_least(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;
	uint64_t cx = total(x, V_CALLS) + total(x, V_BLK) + total(x, V_RUNQ);
	uint64_t cy = total(y, V_CALLS) + total(y, V_BLK) + total(y, V_RUNQ);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	if (total(x, V_NS) != total(y, V_NS))
		return total(x, V_NS) < total(y, V_NS) ? -1 : 1;
	return x->key[0] < y->key[0] ? -1 : x->key[0] > y->key[0];
}

/* Rows with mark set leave r; the index is built anew. */
static void rows_remove_marked(struct rows *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		if (!r->v[i].mark)
			r->v[n++] = r->v[i];
	r->n = n;
	memset(r->slot, 0, r->nslot * sizeof(*r->slot));
	for (size_t i = 0; i < r->n; i++) {
		size_t j = key_hash(r->v[i].key) & (r->nslot - 1);

		while (r->slot[j])
			j = (j + 1) & (r->nslot - 1);
		r->slot[j] = i + 1;
	}
}

/*
 * Mark the rows of r that sel() picks, if more than GONE_ROWS: the least of
 * them, leaving GONE_ROWS / 2. Returns how many were marked, or -ENOMEM.
 */
static long mark_least(struct rows *r, int (*sel)(const struct row *w))
{
	const struct row **v;
	size_t n = 0, drop;

	for (size_t i = 0; i < r->n; i++)
		n += sel(&r->v[i]);
	if (n <= GONE_ROWS)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (sel(&r->v[i]))
			v[n++] = &r->v[i];
	qsort(v, n, sizeof(*v), by_least);
	drop = n - GONE_ROWS / 2;
	for (size_t i = 0; i < drop; i++)
		((struct row *)v[i])->mark = 1;
	free(v);
	return (long)drop;
}

/* exited, its kernel entry read for the last time */
static int done(const struct row *w)
{
	return w->gone && w->dropped;
}

/* and none of its threads has a row left */
static int proc_done(const struct row *w)
{
	return done(w) && !w->held;
}

/*
 * Past GONE_ROWS rows of exited threads, the half that counted least are
 * added up into t->tsum, their calls into their process's base; then past
 * GONE_ROWS exited processes without a thread row, the same into t->psum.
 * Called after the frame's figures, so that those rows' figures of this
 * frame are in the sums'. 0 or -ENOMEM.
 */
static int fold_gone(struct top *t)
{
	long n = mark_least(&t->threads, done);

	if (n < 0)
		return (int)n;
	for (size_t i = 0; n && i < t->threads.n; i++) {
		const struct row *w = &t->threads.v[i];
		struct row *p;

		if (!w->mark)
			continue;
		fold_into(&t->tsum, w);
		p = rows_get(&t->procs, w->pid, 0, 1);
		if (!p)
			return -ENOMEM;
		/* the process shows them still: they move from its threads' sum to its own */
		for (int k = 0; k < V_CALL_MAX; k++) {
			p->base[k] += total(w, k);
			p->cur[k] -= p->cur[k] >= total(w, k) ? total(w, k) : p->cur[k];
		}
	}
	if (n) {
		rows_remove_marked(&t->threads);
		t->tfolded += (uint64_t)n;
	}
	for (size_t i = 0; i < t->procs.n; i++)
		t->procs.v[i].held = 0;
	for (size_t i = 0; i < t->threads.n; i++) {
		struct row *p = rows_get(&t->procs, t->threads.v[i].pid, 0, 0);

		if (p)
			p->held = 1;
	}
	n = mark_least(&t->procs, proc_done);
	if (n <= 0)
		return (int)n;
	for (size_t i = 0; i < t->procs.n; i++)
		if (t->procs.v[i].mark)
			fold_into(&t->psum, &t->procs.v[i]);
	rows_remove_marked(&t->procs);
	t->pfolded += (uint64_t)n;
	return 0;
}

/*
 * Rows of tasks whose exit record never came (the ring was full, or a
 * --comm the task renamed itself out of): those gone from the machine are
 * marked exited, so that their kernel entry goes after the next read. Once
 * the live rows have doubled since the last look: a signal-0 call each,
 * amortised over the tasks that came since.
 */
static void sweep_gone(struct top *t)
{
	size_t live = 0;

	for (size_t i = 0; t->sweep_at && i < t->threads.n; i++)
		live += !t->threads.v[i].gone;
	if (!t->sweep_at || live < t->sweep_at)
		return;
	live = 0;
	for (size_t i = 0; i < t->threads.n; i++) {
		struct row *w = &t->threads.v[i];

		if (!w->gone && w->pid && task_gone((pid_t)w->pid, (pid_t)w->tid))
			w->gone = 1;
		live += !w->gone;
	}
	for (size_t i = 0; i < t->procs.n; i++) {
		struct row *w = &t->procs.v[i];

		if (!w->gone && task_gone((pid_t)w->pid, 0))
			w->gone = 1;
	}
	t->sweep_at = 2 * live > SWEEP_MIN ? 2 * live : SWEEP_MIN;
}

static int read_counters(struct top *t)
{
	int e;

	e = probe__drain(t->live.probe);
	if (e < 0)
		return e;
	e = read_map(t->fd_threads, sizeof(uint32_t), sizeof(struct dio_top_thread), got_thread, t);
	if (!e)
		e = read_map(t->fd_files, sizeof(struct dio_file_tag),
			     pcpu_size(t, sizeof(struct dio_top_file)), got_file, t);
	if (!e)
		e = read_map(t->fd_procs, sizeof(uint32_t), pcpu_size(t, sizeof(struct dio_top_proc)),
			     got_proc, t);
	if (e)
		return e;
	drop_gone(&t->threads, t->fd_threads, 0);
	drop_gone(&t->procs, t->fd_procs, V_BLK);
	return sum_threads(t);
}

/* ---- a frame --------------------------------------------------------------- */

static uint64_t sort_key(const struct top *t, const struct row *w)
{
	switch (t->sort) {
	case TOP_SORT_BYTES:
		return w->show[V_RBYTES] + w->show[V_WBYTES];
	case TOP_SORT_TIME:
		return w->show[V_NS];
	default:
		return w->show[V_CALLS];
	}
}

static const struct top *sorting;

static int by_key(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;
	uint64_t kx = sort_key(sorting, x), ky = sort_key(sorting, y);

	if (kx != ky)
		return kx < ky ? 1 : -1;
	if (x->show[V_CALLS] != y->show[V_CALLS])
		return x->show[V_CALLS] < y->show[V_CALLS] ? 1 : -1;
	return x->key[0] < y->key[0] ? -1 : x->key[0] > y->key[0];
}

static int shows_any(const struct row *w)
{
	for (int k = 0; k < V_MAX; k++)
		if (!is_max(k) && w->show[k])
			return 1;
	return 0;
}

/*
 * The rows with something to show, sum (the exited added up, or NULL) among
 * them, best first; *n of them. The array is the caller's.
 */
static const struct row **ranked(struct top *t, struct rows *r, const struct row *sum, size_t *n)
{
	const struct row **v = malloc((r->n + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < r->n; i++)
		if (shows_any(&r->v[i]))
			v[(*n)++] = &r->v[i];
	if (sum && shows_any(sum))
		v[(*n)++] = sum;
	sorting = t;
	qsort(v, *n, sizeof(*v), by_key);
	return v;
}

/* a count: exact in batch mode, with a unit (k, M, G, T) on a terminal */
static const char *num(const struct top *t, uint64_t v, char *buf, size_t len)
{
	static const char units[] = "kMGTP";
	double d = v;
	int u = -1;

	if (!t->interactive || v < 100000) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	}
	while (d >= 1000 && u < 4) {
		d /= 1000;
		u++;
	}
	snprintf(buf, len, "%.1f%c", d, units[u]);
	return buf;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static double avg_ms(uint64_t ns, uint64_t n)
{
	return n ? ns / 1e6 / n : 0;
}

/* the call columns every section has */
static void call_cols(FILE *f, const struct top *t, const struct row *w)
{
	char a[32], b[32], c[32], d[32];

	fprintf(f, " %9s %7s %12s %12s %11.3f", num(t, w->show[V_CALLS], a, sizeof(a)),
		num(t, w->show[V_ERRORS], b, sizeof(b)), num(t, w->show[V_RBYTES], c, sizeof(c)),
		num(t, w->show[V_WBYTES], d, sizeof(d)), ms(w->show[V_NS]));
}

#define CALL_HDR "     CALLS  ERRORS         READ      WRITTEN     TIME_MS"

static const char *ftype_name(uint8_t ft)
{
	static const char *const names[] = {
		[DIO_FT_NONE] = "-", [DIO_FT_FIFO] = "fifo", [DIO_FT_CHR] = "chr",
		[DIO_FT_DIR] = "dir", [DIO_FT_BLK] = "blk", [DIO_FT_REG] = "reg",
		[DIO_FT_LNK] = "lnk", [DIO_FT_SOCK] = "sock", [DIO_FT_ANON] = "anon",
	};

	return ft < sizeof(names) / sizeof(names[0]) && names[ft] ? names[ft] : "?";
}

/* the name of the row of the exited added up: "(N exited)" */
static const char *exited(uint64_t n, char *buf, size_t len)
{
	snprintf(buf, len, "(%llu exited)", (unsigned long long)n);
	return buf;
}

static void print_frame(struct top *t, FILE *f, uint64_t interval_ns, int max_rows)
{
	const struct row **pr, **th, **fi;
	size_t np, nt, nf;
	uint64_t sum[V_CALL_MAX] = { 0 }, lost[LOSS_MAX] = { 0 };
	uint64_t nlost = 0;
	char clock[16], a[32], b[32], c[32];
	time_t now = time(NULL);
	struct tm tm;

	pr = ranked(t, &t->procs, &t->psum, &np);
	th = ranked(t, &t->threads, &t->tsum, &nt);
	fi = ranked(t, &t->files, NULL, &nf);
	if (!pr || !th || !fi) {
		t->failed = -ENOMEM;
		goto cleanup;
	}
	for (size_t i = 0; i < np; i++)
		for (int k = 0; k < V_CALL_MAX; k++)
			sum[k] += pr[i]->show[k];
	if (!probe__counters(t->live.probe, lost))
		for (int k = 0; k < DIO_CNT_MAX; k++)
			nlost += k == DIO_CNT_PATH_TRUNC ? 0 : lost[k];
	nlost += t->malformed;
	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fprintf(f, "dio top - %s  frame %llu  %s %.2f s  sort %s  lost %llu\n", clock,
		(unsigned long long)t->frames, t->cumulative ? "total after" : "interval",
		interval_ns / 1e9,
		t->sort == TOP_SORT_BYTES ? "bytes" : t->sort == TOP_SORT_TIME ? "time" : "calls",
		(unsigned long long)nlost);
	fprintf(f, "calls %s  errors %s  read %s  written %s  time %.3f ms\n",
		num(t, sum[V_CALLS], a, sizeof(a)), num(t, sum[V_ERRORS], b, sizeof(b)),
		num(t, sum[V_RBYTES], c, sizeof(c)), num(t, sum[V_WBYTES], clock, sizeof(clock)),
		ms(sum[V_NS]));

	fprintf(f, "\n    PID COMMAND         " CALL_HDR
		"  BLOCK BLK_AVG_MS BLK_MAX_MS   RUNQ RUNQ_AVG_MS RUNQ_MAX_MS\n");
	for (size_t i = 0; i < np && (int)i < max_rows; i++) {
		const struct row *w = pr[i];
		char comm[4 * DIO_COMM_LEN + 1];

		dio_escape(w->comm[0] ? w->comm : "?", DIO_COMM_LEN, 0, comm, sizeof(comm));
		if (w == &t->psum)
			fprintf(f, "%7s %-15s", "-", exited(t->pfolded, comm, sizeof(comm)));
		else
			fprintf(f, "%7u %-15s", w->pid, comm);
		call_cols(f, t, w);
		fprintf(f, " %6s %10.3f %10.3f %6s %11.3f %11.3f\n", num(t, w->show[V_BLK], a, sizeof(a)),
			avg_ms(w->show[V_BLK_NS], w->show[V_BLK]), ms(w->show[V_BLK_MAX]),
			num(t, w->show[V_RUNQ], b, sizeof(b)),
			avg_ms(w->show[V_RUNQ_NS], w->show[V_RUNQ]), ms(w->show[V_RUNQ_MAX]));
	}
	fprintf(f, "\n    TID     PID COMMAND         " CALL_HDR "\n");
	for (size_t i = 0; i < nt && (int)i < max_rows; i++) {
		char comm[4 * DIO_COMM_LEN + 1];

		dio_escape(th[i]->comm, DIO_COMM_LEN, 0, comm, sizeof(comm));
		if (th[i] == &t->tsum)
			fprintf(f, "%7s %7s %-15s", "-", "-", exited(t->tfolded, comm, sizeof(comm)));
		else
			fprintf(f, "%7u %7u %-15s", th[i]->tid, th[i]->pid, comm);
		call_cols(f, t, th[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n" CALL_HDR "     PID TYPE PATH\n");
	for (size_t i = 0; i < nf && (int)i < max_rows; i++) {
		const struct row *w = fi[i];
		struct dio_file_tag tag = { .ino = w->key[0], .dev = w->key[1] >> 32,
					    .gen = (uint32_t)w->key[1] };
		const char *path = tagtab__lookup(t->paths, &tag);
		char text[4 * DIO_PATH_MAX + 7];	/* a cut path's "..." on both ends */

		if (path)
			dio_escape(path, strlen(path), 0, text, sizeof(text));
		else
			dio_file_tag_format(&tag, text, sizeof(text));
		call_cols(f, t, w);
		fprintf(f, " %7u %-4s %s\n", w->pid, ftype_name(w->ftype), text);
	}
cleanup:
	free(pr);
	free(th);
	free(fi);
}

/* rows each section may take on a terminal of this height */
static int rows_per_section(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || ws.ws_row < 16)
		return 3;
	return (ws.ws_row - 9) / 3;
}

/* Write text, each line cut to the terminal's width (a wrapped line would scroll the screen). */
static void write_cut(const char *text, size_t len)
{
	struct winsize ws;
	size_t cols = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col ? 80 : ws.ws_col;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		/* the screen control before the first line is not printed width */
		fwrite(p, 1, n > cols + (p == text ? 7 : 0) ? cols + (p == text ? 7 : 0) : n, stdout);
		if (nl)
			fputc('\n', stdout);
		p += n + 1;
	}
}

static int frame(struct top *t)
{
	uint64_t now = now_ns();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int e;

	sweep_gone(t);
	e = read_counters(t);
	if (e)
		return e;
	frame_figures(&t->threads, t->cumulative);
	frame_figures(&t->procs, t->cumulative);
	frame_figures(&t->files, t->cumulative);
	row_figures(&t->tsum, t->cumulative);
	row_figures(&t->psum, t->cumulative);
	e = fold_gone(t);
	if (e)
		return e;
	t->frames++;
	/* a whole frame in one write: no half-drawn screen */
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (t->interactive)
		fputs("\033[H\033[2J", f);
	print_frame(t, f, now - (t->cumulative ? t->start_ns : t->last_ns),
		    t->interactive ? rows_per_section() : 1 << 30);
	if (!t->interactive)
		fputc('\n', f);
	t->last_ns = now;
	fclose(f);
	if (t->interactive)
		write_cut(buf, len);
	else
		fwrite(buf, 1, len, stdout);
	free(buf);
	fflush(stdout);
	return t->failed;
}

/* ---- the terminal ------------------------------------------------------------ */

/* Keys without Enter and without echo, when stdin is a terminal. */
static void keys_on(struct top *t)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &t->saved))
		return;
	raw = t->saved;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (!tcsetattr(STDIN_FILENO, TCSANOW, &raw))
		t->keys = 1;
}

static void keys_off(struct top *t)
{
	if (t->keys)
		tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
	t->keys = 0;
}

/* What the keys pressed since the last look ask: 1 to quit, 2 to redraw now, else 0. */
static int read_keys(struct top *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;
	int ret = 0;

	while (t->keys && poll(&pfd, 1, 0) == 1 && read(STDIN_FILENO, &c, 1) == 1) {
		switch (c) {
		case 'q':
			return 1;
		case 'c':
			t->sort = TOP_SORT_CALLS;
			ret = 2;
			break;
		case 'b':
			t->sort = TOP_SORT_BYTES;
			ret = 2;
			break;
		case 't':
			t->sort = TOP_SORT_TIME;
			ret = 2;
			break;
		case 'S':
			t->cumulative = !t->cumulative;
			ret = 2;
			break;
		}
	}
	return ret;
}

/* ---- the session ------------------------------------------------------------- */

static int top_open(struct top *t, char *err, size_t errlen)
{
	t->ncpu = libbpf_num_possible_cpus();
	if (t->ncpu <= 0) {
		snprintf(err, errlen, "cannot tell how many CPUs this machine has");
		return -EINVAL;
	}
	t->fd_threads = probe__map_fd(t->live.probe, "top_threads");
	t->fd_files = probe__map_fd(t->live.probe, "top_files");
	t->fd_procs = probe__map_fd(t->live.probe, "top_procs");
	if (t->fd_threads < 0 || t->fd_files < 0 || t->fd_procs < 0) {
		snprintf(err, errlen, "dio's BPF object has no top counters (a build mismatch)");
		return -ENOENT;
	}
	return 0;
}

/* --stats at the end: the probes, the ring, the consumer and the losses */
static void top_selfstats(struct top *t)
{
	struct loss l;

	memset(&l, 0, sizeof(l));
	selfstats__consumer_stop(t->live.stats);
	if (selfstats__progs(t->live.stats, probe__object(t->live.probe)))
		warn_msg("--stats: cannot read the BPF programs' run times");
	if (!probe__counters(t->live.probe, l.n)) {
		l.n[LOSS_MALFORMED] = t->malformed;
		l.n[LOSS_PATHS_EVICTED] = tagtab__evicted(t->paths);
		l.n[LOSS_TOP_FOLDED] = t->tfolded + t->pfolded;
		selfstats__loss(t->live.stats, &l);
	}
	selfstats__print(t->live.stats, stderr);
}

/* The frame's wait: up to when it is due, keys looked at 10 times a second */
static int wait_ms(const struct top *t)
{
	uint64_t now = now_ns();
	int ms = t->next_ns > now ? (int)((t->next_ns - now) / 1000000) : 0;

	return ms < 100 ? ms : 100;
}

/* each round of the live loop, after paths and process records came in: keys, a frame when due */
static int top_tick(struct live *l)
{
	struct top *t = l->ud;
	uint64_t delay = (uint64_t)(t->a->delay * 1e9);
	int k = read_keys(t), e;

	if (k == 1)
		return 1;
	if (k == 2 || now_ns() >= t->next_ns) {
		e = frame(t);
		if (e) {
			die_msg("reading dio top's counters failed: %s", strerror(-e));
			return e;
		}
		if (t->a->iterations && (long)t->frames >= t->a->iterations)
			return 1;
		if (k != 2)
			t->next_ns += delay;
		if (t->next_ns < now_ns())	/* a slow frame: no burst to catch up */
			t->next_ns = now_ns() + delay;
	}
	l->wait_ms = wait_ms(t);
	return 0;
}

/* Start what the options name and count until the end; dio's exit status. */
static int top_run(struct top *t)
{
	struct live *l = &t->live;
	char err[1024];
	int code, end;

	l->verb = "count";
	l->on_record = on_record;
	l->record_ctx = t;
	l->tick = top_tick;
	l->ud = t;
	code = live__open(l);
	if (code)
		return code;
	if (top_open(t, err, sizeof(err))) {
		die_msg("%s", err);
		child__abort(&l->child);
		return 1;
	}
	code = live__go(l);
	if (code)
		return code;
	if (t->interactive)
		keys_on(t);
	t->start_ns = t->last_ns = now_ns();
	t->next_ns = t->start_ns + (uint64_t)(t->a->delay * 1e9);
	l->wait_ms = wait_ms(t);
	end = live__run(l);
	if (end == LIVE_FAILED) {
		if (l->error)
			die_msg("reading the ring buffer failed: %s", strerror(-l->error));
		code = 1;
	}
	/* the counted processes are gone: what they did since the last frame */
	if ((end == LIVE_EXITED || end == LIVE_GONE) && frame(t)) {
		die_msg("reading dio top's counters failed");
		code = 1;
	}
	keys_off(t);
	if (t->live.stats)
		top_selfstats(t);
	return live__status(l, code);
}

int top__run(struct options *o, const struct top_args *args)
{
	struct top t;
	char err[1024];
	int code = 1;

	memset(&t, 0, sizeof(t));
	t.live.o = o;
	t.a = args;
	t.sort = args->sort;
	t.cumulative = args->cumulative;
	t.interactive = !args->batch && isatty(STDOUT_FILENO);
	if (probe__check_machine(err, sizeof(err))) {
		die_msg("%s", err);
		goto cleanup;
	}
	/* as dio trace's: twice the kernel's table of the tags it sent */
	t.paths = tagtab__new(2 * (size_t)o->tag_entries);
	if (!t.paths) {
		die_msg("out of memory");
		goto cleanup;
	}
	/* the counted tasks can be looked up when dio runs in their pid namespace */
	if (pids_are_ours())
		t.sweep_at = SWEEP_MIN;
	code = top_run(&t);
	if (t.failed)
		code = 1;
cleanup:
	live__close(&t.live);
	selfstats__free(t.live.stats);
	tagtab__free(t.paths);
	rows_free(&t.threads);
	rows_free(&t.procs);
	rows_free(&t.files);
	return code;
}
