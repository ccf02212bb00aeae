// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio top: the probe in count mode (bpf/top.bpf.h) adds every call to
 * counters per thread and per file, and block requests and run-queue waits
 * to counters per process; this reads those maps once a frame (the frames
 * themselves are cmd/top.c's). The kernel's counters only grow: a frame
 * shows what they grew by since the last one (or, with -S, their totals).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dio/plugin.h>
#include "bpf/topcount.h"
#include "live.h"
#include "loss.h"
#include "probe.h"
#include "proc.h"
#include "record.h"
#include "selfstats.h"
#include "tagtab.h"
#include "top.h"
#include "util.h"

/* rows of exited threads (and processes) kept one by one; past it, half are added up */
#define GONE_ROWS	4096
/* tasks whose exit record never came are looked for once the live rows double */
#define SWEEP_MIN	256

/* ---- rows ------------------------------------------------------------------ */

static uint64_t key_hash(const uint64_t *k)
{
	uint64_t h = (k[0] ^ (k[1] * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;

	return h ^ (h >> 29);
}

static int rows_grow(struct top_rows *r)
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
static struct top_row *rows_get(struct top_rows *r, uint64_t k0, uint64_t k1, int create)
{
	uint64_t k[2] = { k0, k1 };
	size_t j;

	if (r->nslot) {
		for (j = key_hash(k) & (r->nslot - 1); r->slot[j]; j = (j + 1) & (r->nslot - 1)) {
			struct top_row *w = &r->v[r->slot[j] - 1];

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
		struct top_row *v = realloc(r->v, cap * sizeof(*v));

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

static void rows_free(struct top_rows *r)
{
	free(r->v);
	free(r->slot);
}

static uint64_t total(const struct top_row *w, int i)
{
	return w->base[i] + w->cur[i];
}

/* ---- the ring: paths and process events -------------------------------------- */

int top__on_record(void *ctx, void *data, size_t size)
{
	struct top_counts *t = ctx;
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
		struct top_row *w;

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
		    int (*fn)(struct top_counts *t, const void *key, const void *val), struct top_counts *t)
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
static void reborn(struct top_row *w, uint32_t pid)
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

static int got_thread(struct top_counts *t, const void *key, const void *val)
{
	const struct dio_top_thread *v = val;
	struct top_row *w = rows_get(&t->threads, *(const uint32_t *)key, 0, 1);

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

static size_t pcpu_size(const struct top_counts *t, size_t size)
{
	return (size_t)t->ncpu * ((size + 7) & ~(size_t)7);
}

static int got_file(struct top_counts *t, const void *key, const void *val)
{
	const struct dio_file_tag *tag = key;
	struct top_row *w = rows_get(&t->files, tag->ino, (uint64_t)tag->dev << 32 | tag->gen, 1);

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

static int got_proc(struct top_counts *t, const void *key, const void *val)
{
	uint32_t pid = *(const uint32_t *)key;
	struct top_row *w = rows_get(&t->procs, pid, 0, 1);

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
static void drop_gone(struct top_rows *r, int fd, int first)
{
	for (size_t i = 0; i < r->n; i++) {
		struct top_row *w = &r->v[i];
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
static void name_from_proc(struct top_row *w)
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
static int sum_threads(struct top_counts *t)
{
	for (size_t i = 0; i < t->procs.n; i++)
		for (int k = 0; k < V_CALL_MAX; k++)
			t->procs.v[i].cur[k] = 0;
	for (size_t i = 0; i < t->threads.n; i++) {
		const struct top_row *th = &t->threads.v[i];
		struct top_row *p;

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

static uint64_t total_of(const struct top_row *w, int k)
{
	if (is_max(k))
		return w->base[k] > w->cur[k] ? w->base[k] : w->cur[k];
	return total(w, k);
}

/* this frame's figures: the growth since the last frame, or the totals (maxima: the largest yet) */
static void row_figures(struct top_row *w, int cumulative)
{
	for (int k = 0; k < V_MAX; k++) {
		uint64_t tot = total_of(w, k);

		w->show[k] = cumulative || is_max(k) ? tot : tot - w->prev[k];
		w->prev[k] = tot;
	}
}

static void frame_figures(struct top_rows *r, int cumulative)
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
static void fold_into(struct top_row *sum, const struct top_row *w)
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
	const struct top_row *x = *(const struct top_row *const *)a, *y = *(const struct top_row *const *)b;
	uint64_t cx = total(x, V_CALLS) + total(x, V_BLK) + total(x, V_RUNQ);
	uint64_t cy = total(y, V_CALLS) + total(y, V_BLK) + total(y, V_RUNQ);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	if (total(x, V_NS) != total(y, V_NS))
		return total(x, V_NS) < total(y, V_NS) ? -1 : 1;
	return x->key[0] < y->key[0] ? -1 : x->key[0] > y->key[0];
}

/* Rows with mark set leave r; the index is built anew. */
static void rows_remove_marked(struct top_rows *r)
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
static long mark_least(struct top_rows *r, int (*sel)(const struct top_row *w))
{
	const struct top_row **v;
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
		((struct top_row *)v[i])->mark = 1;
	free(v);
	return (long)drop;
}

/* exited, its kernel entry read for the last time */
static int done(const struct top_row *w)
{
	return w->gone && w->dropped;
}

/* and none of its threads has a row left */
static int proc_done(const struct top_row *w)
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
static int fold_gone(struct top_counts *t)
{
	long n = mark_least(&t->threads, done);

	if (n < 0)
		return (int)n;
	for (size_t i = 0; n && i < t->threads.n; i++) {
		const struct top_row *w = &t->threads.v[i];
		struct top_row *p;

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
		struct top_row *p = rows_get(&t->procs, t->threads.v[i].pid, 0, 0);

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
static void sweep_gone(struct top_counts *t)
{
	size_t live = 0;

	for (size_t i = 0; t->sweep_at && i < t->threads.n; i++)
		live += !t->threads.v[i].gone;
	if (!t->sweep_at || live < t->sweep_at)
		return;
	live = 0;
	for (size_t i = 0; i < t->threads.n; i++) {
		struct top_row *w = &t->threads.v[i];

		if (!w->gone && w->pid && task_gone((pid_t)w->pid, (pid_t)w->tid))
			w->gone = 1;
		live += !w->gone;
	}
	for (size_t i = 0; i < t->procs.n; i++) {
		struct top_row *w = &t->procs.v[i];

		if (!w->gone && task_gone((pid_t)w->pid, 0))
			w->gone = 1;
	}
	t->sweep_at = 2 * live > SWEEP_MIN ? 2 * live : SWEEP_MIN;
}

static int read_counters(struct top_counts *t)
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

int top__shows_any(const struct top_row *w)
{
	for (int k = 0; k < V_MAX; k++)
		if (!is_max(k) && w->show[k])
			return 1;
	return 0;
}

int top__read(struct top_counts *t, int cumulative)
{
	int e;

	sweep_gone(t);
	e = read_counters(t);
	if (e)
		return e;
	frame_figures(&t->threads, cumulative);
	frame_figures(&t->procs, cumulative);
	frame_figures(&t->files, cumulative);
	row_figures(&t->tsum, cumulative);
	row_figures(&t->psum, cumulative);
	return fold_gone(t);
}

/* ---- the session ------------------------------------------------------------- */

int top__init(struct top_counts *t, struct options *o)
{
	t->live.o = o;
	/* as dio trace's: twice the kernel's table of the tags it sent */
	t->paths = tagtab__new(2 * (size_t)o->tag_entries);
	if (!t->paths)
		return -ENOMEM;
	/* the counted tasks can be looked up when dio runs in their pid namespace */
	if (pids_are_ours())
		t->sweep_at = SWEEP_MIN;
	return 0;
}

int top__open(struct top_counts *t, char *err, size_t errlen)
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

void top__selfstats(struct top_counts *t)
{
	struct loss l;

	memset(&l, 0, sizeof(l));
	selfstats__consumer_stop(t->live.stats);
	if (selfstats__progs(t->live.stats, probe__object(t->live.probe)))
		warn_msg("--stats: cannot read the BPF programs' run times");
	if (!probe__counters(t->live.probe, l.n)) {
		l.n[LOSS_MALFORMED] = t->malformed;
		l.n[LOSS_PATHS_EVICTED] = tagtab__evicted(t->paths);
		l.n[LOSS_KPATHS_EVICTED] =
			loss__kernel_paths_evicted(l.n[DIO_CNT_TAG_NEW],
						   probe__tag_entries(t->live.probe));
		l.n[LOSS_TOP_FOLDED] = t->tfolded + t->pfolded;
		selfstats__loss(t->live.stats, &l);
	}
	selfstats__print(t->live.stats, stderr);
}

void top__free(struct top_counts *t)
{
	live__close(&t->live);
	selfstats__free(t->live.stats);
	tagtab__free(t->paths);
	rows_free(&t->threads);
	rows_free(&t->procs);
	rows_free(&t->files);
}
