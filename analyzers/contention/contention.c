// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * contention: foreground threads whose I/O slows down while background threads
 * do I/O at the same time, as a key-value store's client threads do behind its
 * compaction and flush threads (RocksDB's rocksdb:low and rocksdb:high; the
 * SILK study, the DIO paper's RocksDB case).
 *
 * Threads are put in groups by name without the trailing number
 * (rocksdb:low0..7 are "rocksdb:low"); a group is background or foreground by
 * name patterns. Time is cut in windows; each window a foreground group did
 * I/O in (as in the windows either side: the edges of its activity are partly
 * idle) is counted under the number of background threads that had a read,
 * write or sync call in flight in it, its level. At the end of the trace the
 * levels are compared as one reads a table of calls a window and p99 by busy
 * count: the windows with fewer busy (every level below some k) against those
 * with k to m busy. A comparison is harm when the many side made rate_drop %
 * fewer calls a window, or its p99 was latency_factor times the few side's,
 * SIGMA standard errors above the noise the windows themselves show; a
 * stretch of consecutive windows on one side counts once for that noise (a
 * stall that spans six windows is one event, not six). The harm must also
 * have cost the foreground at least MIN_COST_PER_S of each second of the
 * run. One finding per program; a group with windows to judge that no
 * comparison could judge is said to be so, once per trace.
 *
 * State is bounded: a table of threads, one of processes (their programs), a
 * fixed number of groups, RING windows open at once (records come in at the
 * end of their call, so a window is only closed once the calls that began in
 * it are likely to have ended), and per group LEVELS level counts and the
 * counts of which level followed which.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/hist.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

#define RING		8	/* windows open at once */
#define SLOW		4	/* slowest foreground calls kept per window, for the excerpt */
#define NAMES		16	/* background threads named per window and level */
#define SHOWN		8	/* ... of which the message shows */
#define SAMPLES		4	/* background calls kept, for the excerpt */
#define PATTERNS	32	/* name patterns per option */
#define MEMBERS		4	/* foreground thread names shown per group */
#define PIDS_SHOWN	4	/* processes of a program named in its finding */
#define EXCERPT_LINES	8
#define LEVELS		17	/* windows counted by busy background threads: 0..15, 16 or more */
#define SIGMA		4	/* standard errors an effect must stand above the noise */
#define REPORTS		4	/* programs given a background-io finding, the worst first */
#define MIN_COST_PER_S	1000000	/* ns of foreground time lost a second of the run, at least */

/* background groups unless the background option names others */
#define DEFAULT_BACKGROUND DIO_BACKGROUND_GROUPS

enum {
	O_WINDOW_MS, O_MIN_BACKGROUND, O_RATE_DROP, O_LATENCY_FACTOR, O_MIN_CALLS,
	O_BASELINE_WINDOWS, O_BACKGROUND, O_FOREGROUND, O_MAX_THREADS, O_MAX_GROUPS,
	O_WINDOWS,
};

static const struct dio_option options[] = {
	[O_WINDOW_MS] = { "window_ms", DIO_OPT_INT, "100", "length of a time window, ms" },
	[O_MIN_BACKGROUND] = { "min_background", DIO_OPT_INT, "1",
			       "fewest background threads with I/O in a window that can be harm" },
	[O_RATE_DROP] = { "rate_drop", DIO_OPT_INT, "30",
			  "% fewer foreground calls a window than with fewer busy that is harm" },
	[O_LATENCY_FACTOR] = { "latency_factor", DIO_OPT_DOUBLE, "2",
			       "times the p99 call time with fewer busy that is harm" },
	[O_MIN_CALLS] = { "min_calls", DIO_OPT_INT, "100",
			  "foreground calls each side of a comparison needs (a rate: expected)" },
	[O_BASELINE_WINDOWS] = { "baseline_windows", DIO_OPT_INT, "10",
				 "windows with foreground I/O each side of a comparison needs" },
	[O_BACKGROUND] = { "background", DIO_OPT_STRING, NULL,
			   "name prefixes of background groups, comma-separated (default "
			   DEFAULT_BACKGROUND ")" },
	[O_FOREGROUND] = { "foreground", DIO_OPT_STRING, NULL,
			   "name prefixes of foreground groups (default: every group not "
			   "background); wins over background" },
	[O_MAX_THREADS] = { "max_threads", DIO_OPT_INT, "4096",
			    "threads (and processes) followed; the least recent make room" },
	[O_MAX_GROUPS] = { "max_groups", DIO_OPT_INT, "32",
			   "thread-name groups; threads of more groups are not counted" },
	[O_WINDOWS] = { "windows", DIO_OPT_STRING, NULL,
			"file for a line per window and the verdicts, what the findings were "
			"decided from; \"-\" for standard output (default: none)" },
	{ NULL, 0, NULL, NULL },
};

/* the codes, as README.md explains them */
static const struct dio_rule rules[] = {
	{
		"contention.background-io", DIO_SEV_WARNING, 0,
		"Foreground threads' I/O slowed down while background threads did I/O",
		"Foreground threads whose reads, writes and syncs were at least rate_drop (30%) "
		"fewer, or whose p99 call time was at least latency_factor (2) times longer, in "
		"windows of window_ms (100 ms) in which more background threads (by name: "
		"rocksdb:low, compact, flush, ...) did I/O than in windows with fewer busy (none, "
		"when there are such windows), by 4 standard errors of the windows' own noise, "
		"and at a cost of at least 1 ms of foreground time a second of the run. Each side "
		"needs baseline_windows (10) windows and min_calls (100) calls; one finding per "
		"program.",
		"The background I/O fills the device's queue and the foreground calls wait behind "
		"it, or the background threads take the CPUs (the latency analyzer's run-queue "
		"table tells which), or the store holds its writers back while its compactions "
		"catch up: an LSM store's clients stuck behind its compactions and flushes.\n\n"
		"Limit the background threads' I/O rate (RocksDB: Options::rate_limiter, "
		"NewGenericRateLimiter; SILK-style scheduling gives flushes and low-level "
		"compactions the bandwidth when clients need it), lower their I/O priority "
		"(ioprio_set with IOPRIO_CLASS_IDLE from the thread, or ionice -c3 -p TID; bfq "
		"and mq-deadline honour it), or run fewer of them at once (max_background_jobs, "
		"max_subcompactions); when writes stall, let level 0 hold more files before "
		"they slow down (level0_slowdown_writes_trigger).",
	},
	{
		"contention.not-judged", DIO_SEV_INFO, 0,
		"Contention could not be judged",
		"A foreground thread group that did I/O in windows in which at least "
		"min_background (1) background threads did I/O too, but that no comparison of "
		"windows with fewer and more busy could judge: baseline_windows (10) windows and "
		"min_calls (100) calls on each side. Once per trace, for the group with the most "
		"calls in such windows.",
		"It says the analyzer looked and could not tell, not that there was harm.\n\n"
		"Trace a stretch in which the background threads rest or vary (start dio before "
		"the load, or trace longer), or set min_background, baseline_windows and "
		"min_calls to the load.",
	},
	TABLE_FULL_RULE("contention", "max_threads, max_groups"),
	{ NULL, 0, 0, NULL, NULL, NULL },
};

enum { ROLE_NONE, ROLE_FG, ROLE_BG };

struct bgthread {
	uint32_t pid, tid;
	char comm[DIO_COMM_LEN];
};

/* the background threads of a window, or of the windows of a level */
struct bginfo {
	uint32_t nthreads;	/* in a window: exact; in a level: those named */
	uint32_t more;		/* some window had more than NAMES */
	uint32_t nsamples, pad;
	uint64_t calls, bytes;
	struct bgthread names[NAMES];
	struct dio_ev_syscall samples[SAMPLES];	/* a call of each of the first threads */
};

/* a foreground group's calls in a window */
struct fgstat {
	uint64_t windows;	/* with a call of the group in flight */
	uint64_t calls;
	struct hist h;		/* call times, ns */
	uint32_t nslow, pad;
	struct dio_ev_syscall slow[SLOW];
};

/* a foreground group's counted windows in which one number of background threads was busy */
struct level {
	uint64_t windows, calls;
	uint64_t first, last;		/* window numbers */
	double sq;			/* calls a window, squared, added up: the rate's spread */
	struct hist h;			/* call times, ns */
	uint32_t has_slow, pad;
	struct dio_ev_syscall slow;	/* the slowest call, for the excerpt */
};

/* the levels lo..hi of a group taken together */
struct side {
	uint64_t windows, calls, p99, ns;	/* ns: the calls' time, added up */
	uint64_t runs;				/* stretches of consecutive windows */
	uint64_t first, last;			/* window numbers */
	uint32_t lo, hi;
};

/* windows with few background threads busy (the levels below many.lo) against many.lo..hi */
struct split {
	struct side few, many;
	int fewer, slower;
	double score;		/* the larger squared z of a harm found, each window (or call)
				 * one observation: where the harm is clearest, which picks
				 * the comparison reported */
	double lost, extra;	/* ns: time lost to the rate drop, time the calls took longer */
};

/* what comparing the levels came to */
enum { J_ONE_LEVEL, J_FEW_WINDOWS, J_FEW_CALLS, J_FINE, J_HARM };

struct lvjudge {
	int status;
	uint32_t lo, hi;		/* the levels the group had windows at */
	uint64_t windows;
	uint64_t even_few, even_many;	/* J_FEW_WINDOWS: the most even split, ... */
	uint32_t even_k, even_below;	/* ... at even_k; even_below: its few side's top */
	uint64_t most_calls;		/* J_FEW_CALLS: calls on the smaller side, at best */
	struct split sp;		/* J_HARM */
};

/* a foreground group's verdict at the end */
enum { V_NONE, V_FINE, V_CHEAP, V_HARM, V_UNJUDGED };

struct group {
	char name[DIO_COMM_LEN];
	uint32_t role, pid, tid, nmembers;
	uint32_t was_present;		/* in the window closed last */
	uint32_t last_level;		/* of the last counted window, ... */
	uint64_t last_counted;		/* ... its number + 1 (0: none yet) */
	char members[MEMBERS][DIO_COMM_LEN];
	/* counted windows with at least min_bg background threads busy */
	uint64_t cont_windows, cont_calls, cont_first, cont_last;
	uint32_t verdict, lead;		/* lead: the worst harmed group of its program */
	double cost;			/* ns of foreground time the harm took */
	const char *prog;		/* its program's name, set at the end */
	struct lvjudge lj;
	/* counted windows at level l right after a counted window at level p: [p][l] */
	uint32_t next[LEVELS][LEVELS];
};

struct window {
	uint64_t idx;
	struct bginfo bg;
};

struct thread {
	uint64_t marked;	/* windows before this one counted the thread already */
	int32_t group;		/* -1: no room for its group */
	uint32_t pid;
	char comm[DIO_COMM_LEN];
};

struct contention {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint64_t wns, min_calls, baseline_windows;
	uint32_t min_bg, rate_drop, max_groups, pad;
	double factor;
	char bg_pat[PATTERNS][DIO_COMM_LEN], fg_pat[PATTERNS][DIO_COMM_LEN];
	uint32_t nbg_pat, nfg_pat;
	struct table threads;
	struct table procs;		/* pid -> struct prog */
	struct group *groups;
	uint32_t ngroups;
	uint64_t ungrouped;	/* threads of groups past max_groups: not counted */
	struct fgstat *fgwin;		/* [group * RING + window % RING] */
	struct level *levels;		/* [group * LEVELS + busy background threads] */
	struct bginfo lvbg[LEVELS];	/* background threads of the windows at each level */
	struct hist few, many;		/* scratch, for comparing levels */
	struct window win[RING];
	int started;
	uint64_t oldest, newest;	/* the open windows */
	uint64_t first;			/* the first window of the trace */
	uint32_t *pids;			/* scratch, max_threads: a program's processes */
	size_t npids, maxpids;
	const char *pids_prog;		/* the program whose processes are collected */
	FILE *dbg;			/* the windows option's file; NULL: none */
	int own_dbg;
	struct excerpt ex;
};

/* ---- options --------------------------------------------------------------- */

static int parse_patterns(struct contention *s, const char *opt, const char *list,
			  char pat[][DIO_COMM_LEN], uint32_t *n)
{
	const char *p = list;

	*n = 0;
	while (*p) {
		size_t len;

		p += strspn(p, " \t,");
		len = strcspn(p, ",");
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (!len)
			break;
		if (len >= DIO_COMM_LEN || *n >= PATTERNS) {
			s->host->log(s->ctx, "%s: '%.*s' %s", opt, (int)len, p,
				     len >= DIO_COMM_LEN ? "is longer than a thread name (15)" :
				     "is one pattern too many (32 at most)");
			return -EINVAL;
		}
		memcpy(pat[*n], p, len);
		pat[(*n)++][len] = 0;
		p += len;
	}
	if (!*n) {
		s->host->log(s->ctx, "%s: no name pattern in '%s'", opt, list);
		return -EINVAL;
	}
	return 0;
}

static int check_range(struct contention *s, const struct dio_optval *o, int i, int64_t lo,
		       int64_t hi)
{
	if (o[i].i >= lo && o[i].i <= hi)
		return 0;
	s->host->log(s->ctx, "%s must be from %" PRId64 " to %" PRId64, options[i].name, lo, hi);
	return -EINVAL;
}

/* the windows option's file: 0600, not through a symbolic link, as dio's own */
static int open_windows_file(struct contention *s, const char *path)
{
	int fd;

	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		s->dbg = stdout;
		return 0;
	}
	fd = DIO_HOST_HAS(s->host, create_output) ? s->host->create_output(s->ctx, path) : -ENOSYS;
	if (fd < 0)
		return fd;
	s->dbg = fdopen(fd, "w");
	if (!s->dbg) {
		int err = -errno;

		close(fd);
		s->host->log(s->ctx, "windows: cannot open '%s': %s", path, strerror(-err));
		return err;
	}
	s->own_dbg = 1;
	return 0;
}

/* a line for the windows option's file, when there is one */
static void dbg(struct contention *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void dbg(struct contention *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->dbg)
		return;
	va_start(ap, fmt);
	vfprintf(s->dbg, fmt, ap);
	va_end(ap);
}

static void ct_destroy(void *state)
{
	struct contention *s = state;

	if (!s)
		return;
	if (s->own_dbg)
		fclose(s->dbg);
	table_free(&s->threads);
	table_free(&s->procs);
	free(s->groups);
	free(s->fgwin);
	free(s->levels);
	free(s->pids);
	free(s);
}

static int ct_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct contention *s = calloc(1, sizeof(*s));
	int err = 0;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	if ((err = check_range(s, o, O_WINDOW_MS, 1, 3600000)) ||
	    (err = check_range(s, o, O_MIN_BACKGROUND, 1, 1 << 20)) ||
	    (err = check_range(s, o, O_RATE_DROP, 1, 100)) ||
	    (err = check_range(s, o, O_MIN_CALLS, 1, INT32_MAX)) ||
	    (err = check_range(s, o, O_BASELINE_WINDOWS, 1, INT32_MAX)) ||
	    (err = check_range(s, o, O_MAX_THREADS, 1, 1 << 24)) ||
	    (err = check_range(s, o, O_MAX_GROUPS, 1, 4096)))
		goto cleanup;
	if (!(o[O_LATENCY_FACTOR].d >= 1.0 && o[O_LATENCY_FACTOR].d <= 1e6)) {
		host->log(ctx, "latency_factor must be from 1 to 1000000");
		err = -EINVAL;
		goto cleanup;
	}
	s->wns = (uint64_t)o[O_WINDOW_MS].i * 1000000;
	s->min_bg = (uint32_t)o[O_MIN_BACKGROUND].i;
	s->rate_drop = (uint32_t)o[O_RATE_DROP].i;
	s->factor = o[O_LATENCY_FACTOR].d;
	s->min_calls = (uint64_t)o[O_MIN_CALLS].i;
	s->baseline_windows = (uint64_t)o[O_BASELINE_WINDOWS].i;
	s->max_groups = (uint32_t)o[O_MAX_GROUPS].i;
	err = parse_patterns(s, "background", o[O_BACKGROUND].s ? o[O_BACKGROUND].s :
			     DEFAULT_BACKGROUND, s->bg_pat, &s->nbg_pat);
	if (!err && o[O_FOREGROUND].s)
		err = parse_patterns(s, "foreground", o[O_FOREGROUND].s, s->fg_pat, &s->nfg_pat);
	if (err)
		goto cleanup;
	err = table_init(&s->threads, sizeof(uint32_t), sizeof(struct thread),
			 (size_t)o[O_MAX_THREADS].i);
	if (!err)
		err = table_init(&s->procs, sizeof(uint32_t), sizeof(struct prog),
				 (size_t)o[O_MAX_THREADS].i);
	if (err)
		goto cleanup;
	s->maxpids = (size_t)o[O_MAX_THREADS].i;
	s->groups = calloc(s->max_groups, sizeof(*s->groups));
	s->fgwin = calloc((size_t)s->max_groups * RING, sizeof(*s->fgwin));
	s->levels = calloc((size_t)s->max_groups * LEVELS, sizeof(*s->levels));
	s->pids = calloc(s->maxpids, sizeof(*s->pids));
	if (!s->groups || !s->fgwin || !s->levels || !s->pids) {
		err = -ENOMEM;
		goto cleanup;
	}
	call_kinds_init(&s->kinds, host);
	err = open_windows_file(s, o[O_WINDOWS].s);
	if (err)
		goto cleanup;
	*state = s;
	return 0;
cleanup:
	ct_destroy(s);
	return err;
}

/* ---- groups and threads ------------------------------------------------------ */
/* ---- groups and threads ------------------------------------------------------ */

static int matches(const char *name, const char (*pat)[DIO_COMM_LEN], uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strncasecmp(name, pat[i], strlen(pat[i])))
			return 1;
	return 0;
}

static uint32_t role_of(const struct contention *s, const char *name)
{
	if (s->nfg_pat && matches(name, s->fg_pat, s->nfg_pat))
		return ROLE_FG;
	if (matches(name, s->bg_pat, s->nbg_pat))
		return ROLE_BG;
	return s->nfg_pat ? ROLE_NONE : ROLE_FG;
}

static int32_t group_of(struct contention *s, const struct dio_ev_syscall *e)
{
	char name[DIO_COMM_LEN];
	struct group *g;
	uint32_t i;

	dio_thread_group(e->comm, name);
	for (i = 0; i < s->ngroups && strcmp(s->groups[i].name, name); i++)
		;
	if (i == s->ngroups) {
		if (i == s->max_groups) {
			s->ungrouped++;
			return -1;
		}
		g = &s->groups[s->ngroups++];
		memcpy(g->name, name, sizeof(name));
		g->role = role_of(s, name);
		g->pid = e->pid;
		g->tid = e->tid;
	}
	g = &s->groups[i];
	/* the first few thread names of the group, for the message */
	for (uint32_t m = 0; m <= g->nmembers && m < MEMBERS; m++) {
		if (m == g->nmembers) {
			snprintf(g->members[g->nmembers++], DIO_COMM_LEN, "%.*s", DIO_COMM_LEN - 1,
				 e->comm);
			break;
		}
		if (!strncmp(g->members[m], e->comm, DIO_COMM_LEN))
			break;
	}
	return (int32_t)i;
}

static struct thread *thread_of(struct contention *s, const struct dio_ev_syscall *e)
{
	int created;
	struct thread *th = table_put(&s->threads, &e->tid, &created);

	if (created || strncmp(th->comm, e->comm, DIO_COMM_LEN)) {
		/* a new thread, or one that renamed itself */
		th->group = group_of(s, e);
		th->pid = e->pid;
		memcpy(th->comm, e->comm, DIO_COMM_LEN);
	}
	return th;
}

/* ---- windows ------------------------------------------------------------------ */

static struct fgstat *fgwin(struct contention *s, uint32_t g, uint64_t idx)
{
	return &s->fgwin[(size_t)g * RING + idx % RING];
}

/* one more thread in bi, unless it is there already (by tid, among those named) */
static void bg_thread(struct bginfo *bi, uint32_t pid, uint32_t tid, const char *comm)
{
	uint32_t named = bi->nthreads < NAMES ? bi->nthreads : NAMES;

	for (uint32_t i = 0; i < named; i++)
		if (bi->names[i].tid == tid)
			return;
	if (named < NAMES) {
		bi->names[named].pid = pid;
		bi->names[named].tid = tid;
		memcpy(bi->names[named].comm, comm, DIO_COMM_LEN);
		bi->names[named].comm[DIO_COMM_LEN - 1] = 0;
	}
	bi->nthreads++;
}

static void bg_sample(struct bginfo *bi, const struct dio_ev_syscall *e)
{
	for (uint32_t i = 0; i < bi->nsamples; i++)
		if (bi->samples[i].tid == e->tid)
			return;
	if (bi->nsamples < SAMPLES)
		rec_copy(&bi->samples[bi->nsamples++], sizeof(bi->samples[0]), &e->hdr);
}

/* a window's threads into its level's */
static void bg_merge(struct bginfo *dst, const struct bginfo *src)
{
	uint32_t named = src->nthreads < NAMES ? src->nthreads : NAMES;

	for (uint32_t i = 0; i < named; i++)
		bg_thread(dst, src->names[i].pid, src->names[i].tid, src->names[i].comm);
	for (uint32_t i = 0; i < src->nsamples; i++)
		bg_sample(dst, &src->samples[i]);
	if (dst->nthreads > NAMES) {
		/* more threads than names: the count stops at those named */
		dst->nthreads = NAMES;
		dst->more = 1;
	}
	if (src->nthreads > NAMES || src->more)
		dst->more = 1;
	dst->calls += src->calls;
	dst->bytes += src->bytes;
}


/* keep the SLOW longest calls; ties keep the earlier */
static void slow_add(struct fgstat *f, const struct dio_ev_syscall *e)
{
	uint32_t min = 0;

	if (f->nslow < SLOW) {
		rec_copy(&f->slow[f->nslow++], sizeof(f->slow[0]), &e->hdr);
		return;
	}
	for (uint32_t i = 1; i < SLOW; i++)
		if (f->slow[i].duration < f->slow[min].duration)
			min = i;
	if (e->duration > f->slow[min].duration)
		rec_copy(&f->slow[min], sizeof(f->slow[0]), &e->hdr);
}

/* calls a second over windows that had this many calls */
static double rate(const struct contention *s, uint64_t calls, uint64_t windows)
{
	return windows ? (double)calls * 1e9 / ((double)windows * (double)s->wns) : 0;
}

static int by_time(const void *a, const void *b)
{
	const struct dio_ev_syscall *x = *(const struct dio_ev_syscall *const *)a;
	const struct dio_ev_syscall *y = *(const struct dio_ev_syscall *const *)b;

	if (x->hdr.ts != y->hdr.ts)
		return x->hdr.ts < y->hdr.ts ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static uint32_t level_of(uint32_t nthreads)
{
	return nthreads < LEVELS - 1 ? nthreads : LEVELS - 1;
}

/* a counted window of group gi, with this many background threads busy */
static void level_add(struct contention *s, uint32_t gi, uint32_t nthreads, uint64_t idx,
		      const struct fgstat *f)
{
	struct group *g = &s->groups[gi];
	uint32_t l = level_of(nthreads);
	struct level *lv = &s->levels[(size_t)gi * LEVELS + l];

	if (!lv->windows++)
		lv->first = idx;
	lv->last = idx;
	lv->calls += f->calls;
	lv->sq += (double)f->calls * (double)f->calls;
	hist_merge(&lv->h, &f->h);
	for (uint32_t i = 0; i < f->nslow; i++)
		if (!lv->has_slow || f->slow[i].duration > lv->slow.duration) {
			rec_copy(&lv->slow, sizeof(lv->slow), &f->slow[i].hdr);
			lv->has_slow = 1;
		}
	/* which level followed which: consecutive windows on one side are one stretch */
	if (g->last_counted == idx)
		g->next[g->last_level][l]++;
	g->last_counted = idx + 1;
	g->last_level = l;
	if (nthreads >= s->min_bg) {
		if (!g->cont_windows++)
			g->cont_first = idx;
		g->cont_last = idx;
		g->cont_calls += f->calls;
	}
}

static void close_window(struct contention *s, struct window *w)
{
	if (w->bg.nthreads)
		bg_merge(&s->lvbg[level_of(w->bg.nthreads)], &w->bg);
	dbg(s, "window %" PRIu64 " busy %u", w->idx, w->bg.nthreads);
	for (uint32_t gi = 0; gi < s->ngroups; gi++) {
		struct group *g = &s->groups[gi];
		struct fgstat *f = fgwin(s, gi, w->idx);
		int prev = g->was_present;
		int next = w->idx < s->newest && fgwin(s, gi, w->idx + 1)->windows;

		g->was_present = f->windows != 0;
		if (!f->windows)
			continue;
		/*
		 * The first and the last window of a stretch of activity are partly
		 * idle: counted, they would look like a drop in the call rate (a
		 * client that stops while compactions run is not a slow client).
		 */
		if (g->role == ROLE_FG) {
			dbg(s, " | %s %" PRIu64 " calls p99 %" PRIu64 " ns%s", g->name, f->calls,
			    hist_pct(&f->h, 0.99), prev && next ? "" : " (edge)");
			if (prev && next)
				level_add(s, gi, w->bg.nthreads, w->idx, f);
		}
		memset(f, 0, sizeof(*f));
	}
	dbg(s, "\n");
}

static void open_window(struct contention *s, uint64_t idx)
{
	struct window *w = &s->win[idx % RING];

	memset(w, 0, sizeof(*w));
	w->idx = idx;
}

/* make idx the newest open window, closing those that fall out */
static void advance(struct contention *s, uint64_t idx)
{
	if (!s->started) {
		s->started = 1;
		s->first = s->oldest = s->newest = idx;
		open_window(s, idx);
		return;
	}
	if (idx <= s->newest)
		return;
	if (idx - s->newest > RING) {
		/* a quiet gap: everything open closes */
		for (uint64_t i = s->oldest; i <= s->newest; i++)
			close_window(s, &s->win[i % RING]);
		for (uint32_t gi = 0; gi < s->ngroups; gi++)
			s->groups[gi].was_present = 0;
		s->oldest = s->newest = idx;
		open_window(s, idx);
		return;
	}
	while (s->newest < idx) {
		if (s->newest - s->oldest + 1 == RING)
			close_window(s, &s->win[s->oldest++ % RING]);
		open_window(s, ++s->newest);
	}
}

/* ---- records -------------------------------------------------------------------- */

/* the program of a record's process (analyzers/common/prog.h) */
static void see_process(struct contention *s, const struct dio_ev_hdr *ev)
{
	uint32_t pid;
	int created;

	if (ev->type == DIO_EV_SYSCALL)
		pid = ((const struct dio_ev_syscall *)(const void *)ev)->pid;
	else if (ev->type == DIO_EV_PROC &&
		 ((const struct dio_ev_proc *)(const void *)ev)->kind == DIO_PROC_EXEC)
		pid = ((const struct dio_ev_proc *)(const void *)ev)->pid;
	else
		return;
	prog_see_record(table_put(&s->procs, &pid, &created), ev);
}

static int ct_event(void *state, const struct dio_ev_hdr *ev)
{
	struct contention *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	uint64_t first, last, bytes;
	enum call_kind kind;
	struct thread *th;
	struct group *g;
	uint32_t gi;

	see_process(s, ev);
	if (ev->type != DIO_EV_SYSCALL)
		return 0;
	kind = call_kind(&s->kinds, e->nr);
	if ((kind != CALL_READ && kind != CALL_WRITE && kind != CALL_SYNC) || dio_ret_failed(e->ret))
		return 0;
	first = ev->ts / s->wns;
	last = (ev->ts + e->duration) / s->wns;
	advance(s, last);
	th = thread_of(s, e);
	if (th->group < 0)
		return 0;
	gi = (uint32_t)th->group;
	g = &s->groups[gi];
	/* a call that began in a window closed already counts in the oldest open one */
	if (first < s->oldest)
		first = s->oldest;
	if (last < first)
		last = first;
	bytes = kind != CALL_SYNC && e->ret > 0 ? (uint64_t)e->ret : 0;
	if (g->role == ROLE_BG) {
		struct bginfo *bi = &s->win[first % RING].bg;

		/* in flight in each window from first to last; each thread once a window */
		for (uint64_t i = first > th->marked ? first : th->marked; i <= last; i++)
			bg_thread(&s->win[i % RING].bg, e->pid, e->tid, e->comm);
		if (last + 1 > th->marked)
			th->marked = last + 1;
		bi->calls++;
		bi->bytes += bytes;
		bg_sample(bi, e);
	} else if (g->role == ROLE_FG) {
		struct fgstat *f = fgwin(s, gi, first);

		for (uint64_t i = first; i <= last; i++)
			fgwin(s, gi, i)->windows = 1;
		f->calls++;
		hist_add(&f->h, e->duration);
		slow_add(f, e);
	}
	return 0;
}

/* ---- comparing levels -------------------------------------------------------------- */

/* z^2 of a difference d with squared standard error se2; DBL_MAX when there is no spread */
static double zsq(double d, double se2)
{
	if (d <= 0)
		return 0;
	return se2 > 0 ? d * d / se2 : DBL_MAX;
}

/* levels lo..hi of group gi together into sd, h; the windows' calls squared into *sq */
static void side_sum(struct contention *s, uint32_t gi, uint32_t lo, uint32_t hi,
		     struct side *sd, struct hist *h, double *sq)
{
	const struct level *lv = &s->levels[(size_t)gi * LEVELS];
	const struct group *g = &s->groups[gi];

	memset(sd, 0, sizeof(*sd));
	memset(h, 0, sizeof(*h));
	*sq = 0;
	sd->lo = LEVELS;
	for (uint32_t l = lo; l <= hi; l++) {
		if (!lv[l].windows)
			continue;
		if (sd->lo == LEVELS || lv[l].first < sd->first)
			sd->first = lv[l].first;
		if (lv[l].last > sd->last)
			sd->last = lv[l].last;
		if (sd->lo == LEVELS)
			sd->lo = l;
		sd->hi = l;
		sd->windows += lv[l].windows;
		sd->calls += lv[l].calls;
		*sq += lv[l].sq;
		hist_merge(h, &lv[l].h);
	}
	/* a window that follows one of the same side continues its stretch */
	sd->runs = sd->windows;
	for (uint32_t p = lo; p <= hi; p++)
		for (uint32_t l = lo; l <= hi; l++)
			sd->runs -= g->next[p][l];
	sd->p99 = hist_pct(h, 0.99);
	sd->ns = h->sum;
}

/* the sample variance of the calls a window on one side */
static double variance(const struct side *sd, double sq)
{
	double n = (double)sd->windows, m = (double)sd->calls / n, v;

	if (sd->windows < 2)
		return 0;
	v = (sq - n * m * m) / (n - 1);
	return v > 0 ? v : 0;
}

/*
 * Levels lo..k-1 against k..m. Returns whether there were calls enough to
 * judge either the rate or the p99; sp says what harm there was and what it
 * cost. The noise is that of stretches, not windows: consecutive windows on
 * one side share their cause (a stall, a phase of the load), so each side
 * counts its stretches as its observations.
 */
static int split_at(struct contention *s, uint32_t gi, uint32_t lo, uint32_t k, uint32_t m,
		    struct split *sp)
{
	struct side *a = &sp->few, *b = &sp->many;
	double sqa, sqb, zr = 0, zt = 0, ma, mb, va, vb;
	int rate_ok, p99_ok;

	memset(sp, 0, sizeof(*sp));
	side_sum(s, gi, lo, k - 1, a, &s->few, &sqa);
	side_sum(s, gi, k, m, b, &s->many, &sqb);
	ma = (double)a->calls / (double)a->windows;
	mb = (double)b->calls / (double)b->windows;
	/*
	 * Rate: rate_drop fewer calls a window, the few side predicting min_calls
	 * on the many side, and the drop SIGMA standard errors (Welch) above
	 * nothing.
	 */
	rate_ok = (unsigned __int128)a->calls * b->windows >=
		  (unsigned __int128)s->min_calls * a->windows;
	if (rate_ok && (unsigned __int128)b->calls * a->windows * 100 <=
	    (unsigned __int128)a->calls * b->windows * (100 - s->rate_drop)) {
		va = variance(a, sqa);
		vb = variance(b, sqb);
		zr = zsq(ma - mb, va / (double)a->runs + vb / (double)b->runs);
		sp->fewer = zr >= SIGMA * SIGMA;
		if (sp->fewer)
			sp->score = zsq(ma - mb, va / (double)a->windows + vb / (double)b->windows);
	}
	/*
	 * p99: latency_factor times, min_calls on each side, and more of the many
	 * side's calls above the few side's p99 than of its own, by SIGMA
	 * standard errors (two proportions, each side's calls weighed as its
	 * stretches: a p99 of a few hundred calls is their few slowest, and one
	 * stall can double it).
	 */
	p99_ok = a->calls >= s->min_calls && b->calls >= s->min_calls;
	if (p99_ok && a->p99 && (double)b->p99 >= s->factor * (double)a->p99) {
		unsigned int top = hist_bucket(a->p99);
		uint64_t ca = 0, cb = 0;
		double na = (double)s->few.n, nb = (double)s->many.n, p;
		double ea = na * (double)a->runs / (double)a->windows;
		double eb = nb * (double)b->runs / (double)b->windows;

		for (unsigned int i = top + 1; i < HIST_BUCKETS; i++) {
			ca += s->few.b[i];
			cb += s->many.b[i];
		}
		p = (double)(ca + cb) / (na + nb);
		zt = zsq((double)cb / nb - (double)ca / na, p * (1 - p) * (1 / ea + 1 / eb));
		sp->slower = zt >= SIGMA * SIGMA;
		if (sp->slower) {
			double z = zsq((double)cb / nb - (double)ca / na,
				       p * (1 - p) * (1 / na + 1 / nb));

			if (z > sp->score)
				sp->score = z;
		}
	}
	/* what the many side cost: time lost to fewer calls, or time the calls took longer */
	if (mb < ma)
		sp->lost = (double)b->windows * (double)s->wns * (1 - mb / ma);
	if (a->calls && (double)b->ns > (double)b->calls * ((double)a->ns / (double)a->calls))
		sp->extra = (double)b->ns - (double)b->calls * ((double)a->ns / (double)a->calls);
	dbg(s, "compare %s %u-%u with %u-%u: few %" PRIu64 " windows %" PRIu64 " stretches %"
	    PRIu64 " calls p99 %" PRIu64 " ns, many %" PRIu64 " windows %" PRIu64 " stretches %"
	    PRIu64 " calls p99 %" PRIu64 " ns; rate z^2 %.1f%s, p99 z^2 %.1f%s\n",
	    s->groups[gi].name, k, m, lo, k - 1, a->windows, a->runs, a->calls, a->p99, b->windows,
	    b->runs, b->calls, b->p99, zr, sp->fewer ? " harm" : rate_ok ? "" : " (too few calls)",
	    zt, sp->slower ? " harm" : p99_ok ? "" : " (too few calls)");
	return rate_ok || p99_ok;
}

static double cost_of(const struct split *sp)
{
	return sp->lost > sp->extra ? sp->lost : sp->extra;
}

/* is harm a clearer than harm b: further above the noise, or as far and costlier */
static int clearer(const struct split *a, const struct split *b)
{
	return a->score > b->score || (a->score == b->score && cost_of(a) > cost_of(b));
}

/*
 * Group gi's windows by the number of background threads busy: every
 * comparison of the levels below some k (the few side) with the levels k to m
 * (the many side, k at least min_background), with baseline_windows windows
 * on each side; the harm with the highest z wins. The many side stops at m
 * because more busy threads need not mean more harm: a store whose writers
 * stall while one compaction runs writes fast, and sets off flushes, once it
 * is over.
 */
static void judge_levels(struct contention *s, uint32_t gi, struct lvjudge *r)
{
	const struct level *lv = &s->levels[(size_t)gi * LEVELS];
	uint64_t few = 0;

	memset(r, 0, sizeof(*r));
	r->lo = LEVELS;
	for (uint32_t l = 0; l < LEVELS; l++) {
		if (!lv[l].windows)
			continue;
		if (r->lo == LEVELS)
			r->lo = l;
		r->hi = l;
		r->windows += lv[l].windows;
	}
	r->status = J_ONE_LEVEL;
	if (r->lo >= r->hi)
		return;
	r->status = J_FEW_WINDOWS;
	for (uint32_t k = r->lo + 1, below = r->lo; k <= r->hi; k++) {
		uint64_t many = 0, rest;

		few += lv[k - 1].windows;
		rest = r->windows - few;
		if (lv[k - 1].windows)
			below = k - 1;
		/* a split just above an empty level is the one below it */
		if (!lv[k].windows || k < level_of(s->min_bg))
			continue;
		if ((few < rest ? few : rest) > (r->even_few < r->even_many ? r->even_few :
						  r->even_many)) {
			r->even_few = few;
			r->even_many = rest;
			r->even_k = k;
			r->even_below = below;
		}
		if (few < s->baseline_windows)
			continue;
		for (uint32_t m = k; m <= r->hi; m++) {
			struct split sp;

			many += lv[m].windows;
			if (!lv[m].windows || many < s->baseline_windows)
				continue;
			if (!split_at(s, gi, r->lo, k, m, &sp)) {
				uint64_t c = sp.few.calls < sp.many.calls ? sp.few.calls :
					     sp.many.calls;

				if (r->status == J_FEW_WINDOWS)
					r->status = J_FEW_CALLS;
				if (c > r->most_calls)
					r->most_calls = c;
				continue;
			}
			if (r->status != J_HARM)
				r->status = J_FINE;
			if ((sp.fewer || sp.slower) &&
			    (r->status != J_HARM || clearer(&sp, &r->sp))) {
				r->status = J_HARM;
				r->sp = sp;
			}
		}
	}
}

static void decide(struct contention *s, uint32_t gi)
{
	struct group *g = &s->groups[gi];
	double run = (double)(s->newest - s->first + 1) * (double)s->wns;

	g->verdict = V_NONE;
	if (g->role != ROLE_FG || !g->cont_windows)
		return;
	judge_levels(s, gi, &g->lj);
	if (g->lj.status == J_HARM) {
		const struct split *sp = &g->lj.sp;

		g->cost = cost_of(sp);
		/* what a user cannot measure is not worth a warning */
		g->verdict = g->cost * 1e9 >= MIN_COST_PER_S * run ? V_HARM : V_CHEAP;
	} else if (g->lj.status == J_FINE) {
		g->verdict = V_FINE;
	} else {
		g->verdict = V_UNJUDGED;
	}
}

static void verdict(struct contention *s, uint32_t gi)
{
	static const char *const what[] = {
		"nothing to judge", "no harm", "harm, but below the cost floor", "harm",
		"not judged",
	};
	struct group *g = &s->groups[gi];

	decide(s, gi);
	if (g->role != ROLE_FG)
		return;
	for (uint32_t l = 0; l < LEVELS; l++) {
		const struct level *lv = &s->levels[(size_t)gi * LEVELS + l];

		if (lv->windows)
			dbg(s, "level %s %u: %" PRIu64 " windows %" PRIu64 " calls p99 %" PRIu64
			    " ns\n", g->name, l, lv->windows, lv->calls, hist_pct(&lv->h, 0.99));
	}
	dbg(s, "group %s: verdict: %s", g->name, what[g->verdict]);
	if (g->verdict == V_HARM || g->verdict == V_CHEAP)
		dbg(s, " (%u-%u busy against %u-%u, cost %.0f ns)", g->lj.sp.many.lo,
		    g->lj.sp.many.hi, g->lj.sp.few.lo, g->lj.sp.few.hi, g->cost);
	dbg(s, "\n");
}

/* ---- the finding ------------------------------------------------------------------ */

struct buf {
	char *p;
	size_t len, off;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->off >= b->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->off, b->len - b->off, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->off += (size_t)n;
}

static void put_dur(struct buf *b, uint64_t ns)
{
	char t[32];

	put(b, "%s", span_text(ns, t, sizeof(t)));
}

static void put_bytes(struct buf *b, uint64_t v)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	double x = (double)v;
	int u = 0;

	while (x >= 1024 && u < 4) {
		x /= 1024;
		u++;
	}
	put(b, u ? "%.1f %s" : "%.0f %s", x, unit[u]);
}

/* "-89%" or "+5%": the change of a over b */
static double change(double a, double b)
{
	return b > 0 ? 100.0 * (a - b) / b : 0;
}

static void put_fix(struct buf *m)
{
	put(m, "The background I/O fills the device's queue and the foreground calls wait "
	    "behind it\n(or the background threads take the CPUs: the latency analyzer's "
	    "run-queue table tells;\nor the store holds its writers back until its compactions "
	    "catch up).\nFix: limit the background threads' I/O rate (RocksDB: "
	    "Options::rate_limiter,\nNewGenericRateLimiter; SILK-style scheduling gives "
	    "flushes and low-level compactions\nthe bandwidth when clients need it), lower "
	    "their I/O priority (from the thread:\nioprio_set(IOPRIO_WHO_PROCESS, 0, "
	    "IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)), or\nionice -c3 -p TID; bfq and "
	    "mq-deadline honour it), or run fewer of them at once\n(max_background_jobs, "
	    "max_subcompactions); when writes stall, let level 0 hold more\nfiles before they "
	    "slow down (level0_slowdown_writes_trigger).");
}

/*
 * Threads and processes the tables pushed out to make room, when there were
 * any: each that came back was taken as new (its group looked up again, its
 * windows counted afresh), so the finding was decided with that.
 */
static void put_evicted(const struct contention *s, struct buf *m)
{
	uint64_t th = s->threads.evicted, pr = s->procs.evicted;

	if (!th && !pr)
		return;
	put(m, "The analyzer's tables (max_threads=%zu) pushed out ", s->threads.max);
	if (th)
		put(m, "%" PRIu64 " thread%s%s", th, th == 1 ? "" : "s", pr ? " and " : "");
	if (pr)
		put(m, "%" PRIu64 " process%s", pr, pr == 1 ? "" : "es");
	put(m, " to make room;\nthose that came back were taken as new.\n");
}

static void put_members(struct buf *m, const struct group *g)
{
	char c[COMM_LABEL_LEN];

	for (uint32_t i = 0; i < g->nmembers; i++)
		put(m, "%s %s", i ? "," : "", comm_label(g->members[i], c));
	if (g->nmembers == MEMBERS)
		put(m, ", ...");
}

/* the group's windows, calls a second and p99 at each level */
static void put_table(struct contention *s, struct buf *m, uint32_t gi)
{
	const struct level *lv = &s->levels[(size_t)gi * LEVELS];

	put(m, "  busy  windows  calls/s  p99\n");
	for (uint32_t l = 0; l < LEVELS; l++) {
		if (!lv[l].windows)
			continue;
		put(m, "  %3u%s %8" PRIu64 " %8.0f  ", l, l == LEVELS - 1 ? "+" : " ",
		    lv[l].windows, rate(s, lv[l].calls, lv[l].windows));
		put_dur(m, hist_pct(&lv[l].h, 0.99));
		put(m, "\n");
	}
}

/* the background calls and slowest foreground calls on the many side, in time order */
static void levels_excerpt(struct contention *s, uint32_t gi, const struct side *many)
{
	const struct level *lv = &s->levels[(size_t)gi * LEVELS];
	const struct dio_ev_syscall *recs[SAMPLES + SLOW];
	uint32_t n = 0, nfg = 0;

	for (uint32_t l = many->lo; l <= many->hi; l++)
		for (uint32_t i = 0; i < s->lvbg[l].nsamples && n < SAMPLES; i++) {
			uint32_t j = 0;

			while (j < n && recs[j]->tid != s->lvbg[l].samples[i].tid)
				j++;
			if (j == n)
				recs[n++] = &s->lvbg[l].samples[i];
		}
	/* the SLOW slowest of the levels' slowest calls */
	for (uint32_t l = many->lo; l <= many->hi; l++) {
		uint32_t min = n;

		if (!lv[l].has_slow)
			continue;
		if (nfg < SLOW) {
			recs[n + nfg++] = &lv[l].slow;
			continue;
		}
		for (uint32_t i = n; i < n + nfg; i++)
			if (min == n + nfg || recs[i]->duration < recs[min]->duration)
				min = i;
		if (lv[l].slow.duration > recs[min]->duration)
			recs[min] = &lv[l].slow;
	}
	n += nfg;
	qsort(recs, n, sizeof(recs[0]), by_time);
	excerpt_reset(&s->ex);
	for (uint32_t i = 0; i < n; i++)
		excerpt_add(&s->ex, s->host, s->ctx, &recs[i]->hdr, EXCERPT_LINES);
}

/* "5-8", "3", "16 or more": background threads busy at levels lo..hi */
static void put_levels(struct buf *b, uint32_t lo, uint32_t hi)
{
	if (hi == LEVELS - 1)
		put(b, "%u or more", lo);
	else if (lo == hi)
		put(b, "%u", lo);
	else
		put(b, "%u-%u", lo, hi);
}

/* the same for a side, "none" for no background thread at all */
static void put_side(struct buf *b, const struct side *sd)
{
	if (!sd->hi)
		put(b, "none");
	else
		put_levels(b, sd->lo, sd->hi);
}

/* a finding about group g, from window first to window last */
static int emit(struct contention *s, const struct group *g, const char *code, uint32_t severity,
		const char *title, const char *msg, uint64_t first, uint64_t last, uint64_t count,
		const char *excerpt, uint64_t cost, uint32_t processes)
{
	struct dio_finding f = { .size = sizeof(f), .severity = severity };

	f.code = code;
	f.title = title;
	f.message = msg;
	f.pid = g->pid;
	f.tid = g->tid;
	f.comm = g->name;
	f.ts_first = first * s->wns;
	f.ts_last = (last + 1) * s->wns;
	f.count = count;
	f.excerpt = excerpt;
	f.cost_ns = cost;
	f.processes = processes;
	return s->host->emit_finding(s->ctx, &f);
}

static int harmed(const struct group *g)
{
	return g->verdict == V_HARM;
}

/* the program of group gi's process, as its process table knows it, else the group's name */
static const char *prog_of(struct contention *s, uint32_t gi)
{
	const struct prog *p = table_get(&s->procs, &s->groups[gi].pid);

	return p && p->name[0] ? p->name : s->groups[gi].name;
}

static void collect_pid(void *key, void *val, void *ud)
{
	const struct thread *th = val;
	struct contention *s = ud;

	(void)key;
	if (th->group >= 0 && harmed(&s->groups[th->group]) &&
	    !strcmp(s->groups[th->group].prog, s->pids_prog) && s->npids < s->maxpids)
		s->pids[s->npids++] = th->pid;
}

static int by_pid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The processes whose threads were in a harmed group of program prog, sorted
 * into s->pids; their number. The groups' own first processes count even when
 * the thread table let their threads go.
 */
static uint32_t program_pids(struct contention *s, const char *prog)
{
	size_t n = 0;

	s->npids = 0;
	s->pids_prog = prog;
	table_each(&s->threads, collect_pid, s);
	for (uint32_t i = 0; i < s->ngroups && s->npids < s->maxpids; i++)
		if (harmed(&s->groups[i]) && !strcmp(s->groups[i].prog, prog))
			s->pids[s->npids++] = s->groups[i].pid;
	qsort(s->pids, s->npids, sizeof(s->pids[0]), by_pid);
	for (size_t i = 0; i < s->npids; i++)
		if (!n || s->pids[n - 1] != s->pids[i])
			s->pids[n++] = s->pids[i];
	s->npids = n;
	return (uint32_t)n;
}

/* the other harmed groups of gi's program, and the programs not reported; their cost too */
static double put_others(struct contention *s, struct buf *m, uint32_t gi, uint32_t unreported)
{
	const struct group *g = &s->groups[gi];
	double cost = 0;
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->ngroups; i++) {
		const struct group *o = &s->groups[i];
		const struct split *sp = &o->lj.sp;
		char name[COMM_LABEL_LEN];
		double r, br;

		if (i == gi || !harmed(o) || strcmp(o->prog, g->prog))
			continue;
		cost += o->cost;
		if (n == MEMBERS) {
			put(m, ", ...");
			n++;
			continue;
		}
		if (n++ > MEMBERS)
			continue;
		r = rate(s, sp->many.calls, sp->many.windows);
		br = rate(s, sp->few.calls, sp->few.windows);
		put(m, "%s %s (%+.0f%% calls/s, p99 x%.1f, ", n == 1 ?
		    "Other foreground groups of this program were slowed down too:" : ",",
		    comm_label(o->name, name),
		    change(r, br), sp->few.p99 ? (double)sp->many.p99 / (double)sp->few.p99 : 0);
		put_dur(m, (uint64_t)o->cost);
		put(m, " lost)");
	}
	if (n)
		put(m, ".\n");
	if (unreported)
		put(m, "Foreground threads of %u more programs were slowed down too; these are "
		    "the %u worst.\n", unreported, REPORTS);
	return cost;
}

/* what the harm cost group g, with its share of the run */
static void put_cost(struct contention *s, struct buf *m, const struct group *g)
{
	const struct split *sp = &g->lj.sp;
	double run = (double)(s->newest - s->first + 1) * (double)s->wns;
	uint64_t many_ns = sp->many.windows * s->wns;

	put(m, "Cost: ");
	put_dur(m, (uint64_t)g->cost);
	put(m, " of the foreground's time, ");
	put_dur(m, (uint64_t)(g->cost * 1e9 / run));
	put(m, " a second of the run (");
	put_dur(m, (uint64_t)run);
	put(m, "):\n");
	if (sp->lost >= sp->extra) {
		put(m, "in its ");
		put_dur(m, many_ns);
		put(m, " with ");
		put_side(m, &sp->many);
		put(m, " busy it made the calls it makes in ");
		put_dur(m, many_ns - (uint64_t)sp->lost);
		put(m, " with ");
		put_side(m, &sp->few);
		put(m, ".\n");
	} else {
		put(m, "its calls with ");
		put_side(m, &sp->many);
		put(m, " busy took ");
		put_dur(m, sp->many.ns);
		put(m, ", ");
		put_dur(m, (uint64_t)sp->extra);
		put(m, " more than at the mean call time with ");
		put_side(m, &sp->few);
		put(m, " (");
		put_dur(m, sp->few.ns / sp->few.calls);
		put(m, ").\n");
	}
}

/* a harm found by comparing the windows with few and many background threads busy */
static int report(struct contention *s, uint32_t gi, uint32_t unreported)
{
	struct group *g = &s->groups[gi];
	const struct split *sp = &g->lj.sp;
	char title[512], msg[4096], gname[COMM_LABEL_LEN], c[COMM_LABEL_LEN];
	struct buf t = { title, sizeof(title), 0 }, m = { msg, sizeof(msg), 0 };
	double br = rate(s, sp->few.calls, sp->few.windows);
	double hr = rate(s, sp->many.calls, sp->many.windows);
	uint64_t bp = sp->few.p99, hp = sp->many.p99;
	int one = sp->many.lo == 1 && sp->many.hi == 1;
	uint32_t named, processes;
	struct bginfo bg;
	double cost;

	memset(&bg, 0, sizeof(bg));
	for (uint32_t l = sp->many.lo; l <= sp->many.hi; l++)
		bg_merge(&bg, &s->lvbg[l]);
	named = bg.nthreads;

	put(&t, "%s: %.0f I/O calls/s instead of %.0f (%+.0f%%), p99 ",
	    comm_label(g->name, gname), hr, br, change(hr, br));
	put_dur(&t, hp);
	put(&t, " instead of ");
	put_dur(&t, bp);
	put(&t, " (x%.1f) while ", bp ? (double)hp / (double)bp : 0);
	put_side(&t, &sp->many);
	put(&t, " background thread%s did I/O, against ", one ? "" : "s");
	put_side(&t, &sp->few);

	put(&m, "The foreground threads");
	put_members(&m, g);
	put(&m, " (group %s) made fewer or slower\nreads, writes and syncs in the %" PRIu64
	    " ms windows in which ", gname, s->wns / 1000000);
	put_side(&m, &sp->many);
	put(&m, " background thread%s did I/O\nthan in those in which ", one ? "" : "s");
	put_side(&m, &sp->few);
	put(&m, " did:\n");
	put_table(s, &m, gi);
	put(&m, "  ");
	put_side(&m, &sp->few);
	put(&m, " busy (%" PRIu64 " windows, %" PRIu64 " stretches): %.0f calls/s, p99 ",
	    sp->few.windows, sp->few.runs, br);
	put_dur(&m, bp);
	put(&m, "\n  ");
	put_side(&m, &sp->many);
	put(&m, " busy (%" PRIu64 " windows, %" PRIu64 " stretches): %.0f calls/s (%+.0f%%), p99 ",
	    sp->many.windows, sp->many.runs, hr, change(hr, br));
	put_dur(&m, hp);
	put(&m, " (x%.1f)\n", bp ? (double)hp / (double)bp : 0);
	if (sp->few.lo)
		put(&m, "There was no window without background I/O: those with the fewest busy "
		    "are the baseline.\n");
	if (sp->many.hi < g->lj.hi) {
		put(&m, "The windows with more than ");
		put_levels(&m, sp->many.hi, sp->many.hi);
		put(&m, " busy are not in the comparison: with them the difference\nstands less "
		    "clearly above the noise.\n");
	}
	put_cost(s, &m, g);
	put(&m, "Background threads doing I/O then:");
	for (uint32_t i = 0; i < named && i < SHOWN; i++)
		put(&m, "%s %s", i ? "," : "", comm_label(bg.names[i].comm, c));
	put(&m, "%s (%" PRIu64 " calls, ", bg.more || named > SHOWN ? ", ..." : "", bg.calls);
	put_bytes(&m, bg.bytes);
	put(&m, ").\n");
	cost = g->cost + put_others(s, &m, gi, unreported);
	processes = program_pids(s, g->prog);
	if (processes > 1) {
		put(&m, "%u processes of %s showed it:", processes, comm_label(g->prog, c));
		for (uint32_t i = 0; i < processes && i < PIDS_SHOWN; i++)
			put(&m, "%s %u", i ? "," : "", s->pids[i]);
		put(&m, "%s.\n", processes > PIDS_SHOWN ? ", ..." : "");
	}
	put_evicted(s, &m);
	put_fix(&m);

	levels_excerpt(s, gi, &sp->many);
	return emit(s, g, "contention.background-io", DIO_SEV_WARNING, title, msg, sp->many.first,
		    sp->many.last, sp->many.windows, excerpt_text(&s->ex), (uint64_t)cost,
		    processes);
}

/* why judging by levels was not possible: short, for a title after "and" */
static void put_why_short(struct buf *b, const struct lvjudge *lj)
{
	if (lj->status == J_ONE_LEVEL) {
		put_levels(b, lj->lo, lj->lo);
		put(b, " busy in every window");
	} else
		put(b, "too few %s to compare by how many were busy",
		    lj->status == J_FEW_WINDOWS ? "windows" : "calls");
}

/* ... and in full, for the message */
static void put_why(struct contention *s, struct buf *b, const struct lvjudge *lj)
{
	put(b, "- comparing the windows by how many were busy needs %" PRIu64 " windows on each "
	    "side,\n  those with fewer busy and those with more:\n  ", s->baseline_windows);
	switch (lj->status) {
	case J_ONE_LEVEL:
		put_levels(b, lj->lo, lj->lo);
		put(b, " were busy in every one of them, there is nothing to compare.\n");
		break;
	case J_FEW_WINDOWS:
		put(b, "from %u to %u were busy, and at best %" PRIu64 " windows had ", lj->lo,
		    lj->hi, lj->even_few);
		put_levels(b, lj->lo, lj->even_below);
		put(b, " busy against %" PRIu64 " with ", lj->even_many);
		put_levels(b, lj->even_k, lj->hi);
		put(b, ".\n");
		break;
	default:
		put(b, "there were windows enough, but at most %" PRIu64 " calls on the smaller "
		    "side, and min_calls is %" PRIu64 ".\n", lj->most_calls, s->min_calls);
		break;
	}
}

/* the groups that had contention that could not be judged: one finding */
static int report_unjudged(struct contention *s)
{
	char title[512], msg[4096], gname[COMM_LABEL_LEN], c[COMM_LABEL_LEN];
	struct buf t = { title, sizeof(title), 0 }, m = { msg, sizeof(msg), 0 };
	uint32_t gi = s->ngroups, others = 0;
	const struct group *g;

	for (uint32_t i = 0; i < s->ngroups; i++)
		if (s->groups[i].verdict == V_UNJUDGED &&
		    (gi == s->ngroups || s->groups[i].cont_calls > s->groups[gi].cont_calls))
			gi = i;
	if (gi == s->ngroups)
		return 0;
	g = &s->groups[gi];
	put(&t, "%s: contention not judged: ", comm_label(g->name, gname));
	put_why_short(&t, &g->lj);

	put(&m, "The foreground threads");
	put_members(&m, g);
	put(&m, " (group %s) did I/O in %" PRIu64 " windows of %" PRIu64 " ms\nin which at least "
	    "%u background thread%s did I/O too (%" PRIu64 " calls), but whether they were\nslowed "
	    "down could not be told:\n", gname, g->cont_windows, s->wns / 1000000, s->min_bg,
	    s->min_bg == 1 ? "" : "s", g->cont_calls);
	put_why(s, &m, &g->lj);
	put_table(s, &m, gi);
	for (uint32_t i = 0; i < s->ngroups; i++) {
		if (i == gi || s->groups[i].verdict != V_UNJUDGED)
			continue;
		if (others++ == MEMBERS) {
			put(&m, ", ...");
			break;
		}
		put(&m, "%s %s", others == 1 ? "Other foreground groups not judged:" : ",",
		    comm_label(s->groups[i].name, c));
	}
	if (others)
		put(&m, ".\n");
	put_evicted(s, &m);
	put(&m, "To judge it, trace a stretch in which the background threads rest or vary (start "
	    "dio before\nthe load, or trace longer), or set min_background, baseline_windows and "
	    "min_calls to the load.");

	return emit(s, g, "contention.not-judged", DIO_SEV_INFO, title, msg, g->cont_first,
		    g->cont_last, g->cont_windows, NULL, 0, 0);
}

/* is group a worse than group b: more foreground time lost, or as much and seen first */
static int worse(const struct contention *s, uint32_t a, uint32_t b)
{
	double ca = s->groups[a].cost, cb = s->groups[b].cost;

	return ca > cb || (ca == cb && a < b);
}

static int ct_finish(void *state)
{
	struct contention *s = state;
	uint32_t leads = 0;
	int err = 0;

	if (s->started) {
		for (uint64_t i = s->oldest; i <= s->newest; i++)
			close_window(s, &s->win[i % RING]);
		s->started = 0;
	}
	for (uint32_t gi = 0; gi < s->ngroups; gi++) {
		verdict(s, gi);
		s->groups[gi].prog = prog_of(s, gi);
	}
	/* one finding a program: its worst harmed group leads, the others are named in it */
	for (uint32_t gi = 0; gi < s->ngroups; gi++) {
		struct group *g = &s->groups[gi];

		g->lead = harmed(g);
		for (uint32_t o = 0; o < s->ngroups && g->lead; o++)
			if (o != gi && harmed(&s->groups[o]) &&
			    !strcmp(s->groups[o].prog, g->prog) && worse(s, o, gi))
				g->lead = 0;
		leads += g->lead;
	}
	/* the REPORTS worst programs, the worst first */
	for (uint32_t n = 0; n < REPORTS && !err; n++) {
		uint32_t best = s->ngroups;

		for (uint32_t gi = 0; gi < s->ngroups; gi++)
			if (s->groups[gi].lead == 1 && (best == s->ngroups || worse(s, gi, best)))
				best = gi;
		if (best == s->ngroups)
			break;
		s->groups[best].lead = 2;
		err = report(s, best, n || leads <= REPORTS ? 0 : leads - REPORTS);
	}
	if (!err)
		err = report_unjudged(s);
	if (!err) {
		const struct table_use u[] = {
			TABLE_USE(&s->threads, "threads", "max_threads"),
			TABLE_USE(&s->procs, "processes", "max_threads"),
			{ s->ungrouped, "threads of thread-name groups past the limit were not counted",
			  "max_groups", s->max_groups },
		};

		err = tables_report(s->host, s->ctx, rules[2].code, "contention", u,
				    sizeof(u) / sizeof(u[0]));
	}
	return err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "contention",
	.description = "foreground I/O that slows down while background threads (compaction) do I/O",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = ct_init,
	.event = ct_event,
	.finish = ct_finish,
	.destroy = ct_destroy,
	.rules = rules,
};
