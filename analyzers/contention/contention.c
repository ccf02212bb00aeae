// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * contention: foreground threads whose I/O slows down while background threads
 * do I/O at the same time, as a key-value store's client threads do behind its
 * compaction and flush threads (RocksDB's rocksdb:low and rocksdb:high; the
 * SILK study, the DIO paper's RocksDB case).
 *
 * Threads are put in groups by name without the trailing number
 * (rocksdb:low0..7 are "rocksdb:low"); a group is background or foreground by
 * name patterns. Time is cut in windows; a window in which at least
 * min_background background threads had a read, write or sync call in flight
 * is contended. Per foreground group, the windows with no such contention in
 * which the group had a call in flight (as in the windows either side: the
 * edges of its activity are partly idle) make its baseline (calls a window, a
 * histogram of call times); contended windows in a row make an interval, and
 * an interval in which the group made rate_drop % fewer calls a window, or
 * whose p99 call time was latency_factor times the baseline's, is harm.
 *
 * Background threads that never rest leave no quiet baseline. So the group's
 * windows are also counted by how many background threads were busy in them
 * (a level, 0 to LEVELS - 1), and at the end the levels are split in two, the
 * windows with few busy against those with many, as one reads a table of rate
 * and p99 by busy count: the split where the many side is the most clearly
 * worse (rate_drop and latency_factor again, and SIGMA standard errors above
 * the window-to-window noise) is harm. A group with contended windows that
 * neither way could judge is said to be so, once per trace.
 *
 * State is bounded: a table of threads, a fixed number of groups, RING windows
 * open at once (records come in at the end of their call, so a window is only
 * closed once the calls that began in it are likely to have ended), and per
 * group a baseline, the interval under way, a few intervals waiting for a
 * baseline, the first max_intervals harmful ones and LEVELS level counts.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/hist.h"
#include "analyzers/common/table.h"

#define RING		8	/* windows open at once */
#define SLOW		4	/* slowest foreground calls kept, for the excerpt */
#define NAMES		16	/* background threads named per window and interval */
#define SHOWN		8	/* ... of which the message shows */
#define SAMPLES		4	/* background calls kept, for the excerpt */
#define PENDING		2	/* intervals per group waiting for a baseline */
#define PATTERNS	32	/* name patterns per option */
#define MEMBERS		4	/* foreground thread names shown per group */
#define EXCERPT_LINES	8
#define LEVELS		17	/* windows counted by busy background threads: 0..15, 16 or more */
#define SIGMA		4	/* standard errors an effect across levels must stand above noise */
#define REPORTS		4	/* processes given a background-io finding, the worst first */

/* background groups unless the background option names others */
#define DEFAULT_BACKGROUND DIO_BACKGROUND_GROUPS

enum {
	O_WINDOW_MS, O_MIN_BACKGROUND, O_RATE_DROP, O_LATENCY_FACTOR, O_MIN_CALLS,
	O_BASELINE_WINDOWS, O_BACKGROUND, O_FOREGROUND, O_MAX_THREADS, O_MAX_GROUPS,
	O_MAX_INTERVALS, O_WINDOWS,
};

static const struct dio_option options[] = {
	[O_WINDOW_MS] = { "window_ms", DIO_OPT_INT, "100", "length of a time window, ms" },
	[O_MIN_BACKGROUND] = { "min_background", DIO_OPT_INT, "2",
			       "background threads with I/O in one window that make it contended" },
	[O_RATE_DROP] = { "rate_drop", DIO_OPT_INT, "30",
			  "% fewer foreground calls a window than the baseline that is harm" },
	[O_LATENCY_FACTOR] = { "latency_factor", DIO_OPT_DOUBLE, "2",
			       "times the baseline p99 call time that is harm" },
	[O_MIN_CALLS] = { "min_calls", DIO_OPT_INT, "100",
			  "foreground calls (for a rate: expected from the baseline) to judge" },
	[O_BASELINE_WINDOWS] = { "baseline_windows", DIO_OPT_INT, "10",
				 "uncontended windows with foreground I/O before judging" },
	[O_BACKGROUND] = { "background", DIO_OPT_STRING, NULL,
			   "name prefixes of background groups, comma-separated (default "
			   DEFAULT_BACKGROUND ")" },
	[O_FOREGROUND] = { "foreground", DIO_OPT_STRING, NULL,
			   "name prefixes of foreground groups (default: every group not "
			   "background); wins over background" },
	[O_MAX_THREADS] = { "max_threads", DIO_OPT_INT, "4096",
			    "threads followed; the least recent make room" },
	[O_MAX_GROUPS] = { "max_groups", DIO_OPT_INT, "32",
			   "thread-name groups; threads of more groups are not counted" },
	[O_MAX_INTERVALS] = { "max_intervals", DIO_OPT_INT, "5",
			      "harmful intervals listed in a finding" },
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
		"windows of window_ms (100 ms) in which at least min_background (2) background "
		"threads (by name: rocksdb:low, compact, flush, ...) did I/O than in windows with "
		"fewer busy: a baseline of quiet windows or, when the background never rests, the "
		"windows with the fewest busy. Each side needs baseline_windows (10) windows and "
		"min_calls (100) calls; one finding per process.",
		"The background I/O fills the device's queue and the foreground calls wait behind "
		"it, or the background threads take the CPUs (the latency analyzer's run-queue "
		"table tells which): an LSM store's clients stuck behind its compactions and "
		"flushes.\n\n"
		"Limit the background threads' I/O rate (RocksDB: Options::rate_limiter, "
		"NewGenericRateLimiter; SILK-style scheduling gives flushes and low-level "
		"compactions the bandwidth when clients need it), lower their I/O priority "
		"(ioprio_set with IOPRIO_CLASS_IDLE from the thread, or ionice -c3 -p TID; bfq "
		"and mq-deadline honour it), or run fewer of them at once (max_background_jobs, "
		"max_subcompactions).",
	},
	{
		"contention.not-judged", DIO_SEV_INFO, 0,
		"Contention could not be judged",
		"A foreground thread group that did I/O in windows in which at least "
		"min_background (2) background threads did I/O too, but that neither a baseline "
		"of baseline_windows (10) windows without them nor a comparison by how many were "
		"busy could judge. Once per trace, for the group with the most calls in such "
		"windows.",
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

/* the background threads of a window, or of an interval */
struct bginfo {
	uint32_t nthreads;	/* in a window: exact; in an interval: those named */
	uint32_t peak;		/* the most in one window */
	uint32_t more;		/* some window had more than NAMES */
	uint32_t nsamples;
	uint64_t calls, bytes;
	struct bgthread names[NAMES];
	struct dio_ev_syscall samples[SAMPLES];	/* a call of each of the first threads */
};

/* a foreground group's calls in a window, an interval or a baseline */
struct fgstat {
	uint64_t windows;	/* with a call of the group in flight */
	uint64_t calls, bytes;
	struct hist h;		/* call times, ns */
	uint32_t nslow, pad;
	struct dio_ev_syscall slow[SLOW];
};

/* one contended interval as one foreground group saw it */
struct span {
	uint64_t first, last;	/* window numbers */
	struct fgstat fg;
	struct bginfo bg;
};

/* a harmful interval, as the finding lists it */
struct shown {
	uint64_t first, last, windows, calls, p99;
	uint64_t base_windows, base_calls, base_p99;	/* the baseline it was judged by */
	uint32_t nthreads, more;
};

/* a foreground group's present windows in which one number of background threads was busy */
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
	uint64_t windows, calls, p99;
	uint64_t first, last;		/* window numbers */
	uint32_t lo, hi;
};

/* windows with few background threads busy against those with many (from level many.lo up) */
struct split {
	struct side few, many;
	int fewer, slower;
	double score;		/* the larger squared z of a harm found; picks the split */
};

/* what judging by levels came to */
enum { J_ONE_LEVEL, J_FEW_WINDOWS, J_FEW_CALLS, J_FINE, J_HARM };

struct lvjudge {
	int status;
	uint32_t lo, hi;		/* the levels the group had windows at */
	uint64_t windows;
	uint64_t even_few, even_many;	/* J_FEW_WINDOWS: the most even split */
	uint32_t even_k, pad;
	uint64_t most_calls;		/* J_FEW_CALLS: calls on the smaller side, at best */
	struct split sp;		/* J_HARM */
};

/* a foreground group's verdict at the end */
enum { V_NONE, V_FINE, V_HARM_BASE, V_HARM_LEVELS, V_UNJUDGED };

struct group {
	char name[DIO_COMM_LEN];
	uint32_t role, pid, tid, nmembers;
	uint32_t was_present, pad;	/* in the window closed last */
	char members[MEMBERS][DIO_COMM_LEN];
	/* foreground groups */
	struct fgstat base;
	struct span cur;		/* the interval under way */
	struct span pending[PENDING];	/* judged once there is a baseline */
	uint32_t npending, nshown;
	uint64_t unjudged, harmless, harmful;
	struct fgstat harm;		/* all harmful intervals */
	struct bginfo harm_bg;
	uint64_t harm_first, harm_last;	/* window numbers */
	struct excerpt ex;		/* calls of the first harmful interval */
	/* present windows with at least min_bg background threads busy */
	uint64_t cont_windows, cont_calls, cont_first, cont_last;
	uint32_t verdict, lead;		/* lead: the worst harmed group of its process */
	double cost;			/* ns of foreground time the harm took, to rank */
	struct lvjudge lj;
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
	uint32_t min_bg, rate_drop, max_groups, max_intervals;
	double factor;
	char bg_pat[PATTERNS][DIO_COMM_LEN], fg_pat[PATTERNS][DIO_COMM_LEN];
	uint32_t nbg_pat, nfg_pat;
	struct table threads;
	struct group *groups;
	uint32_t ngroups;
	uint64_t ungrouped;	/* threads of groups past max_groups: not counted */
	struct fgstat *fgwin;		/* [group * RING + window % RING] */
	struct shown *shown;		/* [group * max_intervals + i] */
	struct level *levels;		/* [group * LEVELS + busy background threads] */
	struct bginfo lvbg[LEVELS];	/* background threads of the windows at each level */
	struct hist few, many;		/* scratch, for judging by levels */
	struct window win[RING];
	int started, active;		/* active: an interval is under way */
	uint64_t oldest, newest;	/* the open windows */
	uint64_t first, last;		/* the interval under way */
	struct bginfo cur_bg;
	FILE *dbg;			/* the windows option's file; NULL: none */
	int own_dbg;
};

/* ---- options --------------------------------------------------------------- */

/* "a, b,c" into pat[]; 0 or -EINVAL (named in the log) */
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
	free(s->groups);
	free(s->fgwin);
	free(s->shown);
	free(s->levels);
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
	    (err = check_range(s, o, O_MAX_GROUPS, 1, 4096)) ||
	    (err = check_range(s, o, O_MAX_INTERVALS, 0, 1000)))
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
	s->max_intervals = (uint32_t)o[O_MAX_INTERVALS].i;
	err = parse_patterns(s, "background", o[O_BACKGROUND].s ? o[O_BACKGROUND].s :
			     DEFAULT_BACKGROUND, s->bg_pat, &s->nbg_pat);
	if (!err && o[O_FOREGROUND].s)
		err = parse_patterns(s, "foreground", o[O_FOREGROUND].s, s->fg_pat, &s->nfg_pat);
	if (err)
		goto cleanup;
	err = table_init(&s->threads, sizeof(uint32_t), sizeof(struct thread),
			 (size_t)o[O_MAX_THREADS].i);
	if (err)
		goto cleanup;
	s->groups = calloc(s->max_groups, sizeof(*s->groups));
	s->fgwin = calloc((size_t)s->max_groups * RING, sizeof(*s->fgwin));
	s->shown = calloc((size_t)s->max_groups * (s->max_intervals ? s->max_intervals : 1),
			  sizeof(*s->shown));
	s->levels = calloc((size_t)s->max_groups * LEVELS, sizeof(*s->levels));
	if (!s->groups || !s->fgwin || !s->shown || !s->levels) {
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

/* ---- windows and intervals ----------------------------------------------------- */

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

/* the window's (or an interval's) threads into an interval's */
static void bg_merge(struct bginfo *dst, const struct bginfo *src)
{
	uint32_t named = src->nthreads < NAMES ? src->nthreads : NAMES;
	uint32_t peak = src->peak > src->nthreads ? src->peak : src->nthreads;

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
	if (peak > dst->peak)
		dst->peak = peak;
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

static void fg_merge(struct fgstat *dst, const struct fgstat *src)
{
	dst->windows += src->windows;
	dst->calls += src->calls;
	dst->bytes += src->bytes;
	hist_merge(&dst->h, &src->h);
	for (uint32_t i = 0; i < src->nslow; i++)
		slow_add(dst, &src->slow[i]);
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

/* the background calls and the slowest foreground calls of an interval, in time order */
static void span_excerpt(struct contention *s, struct group *g, const struct span *sp)
{
	const struct dio_ev_syscall *recs[SAMPLES + SLOW];
	uint32_t n = 0;

	for (uint32_t i = 0; i < sp->bg.nsamples; i++)
		recs[n++] = &sp->bg.samples[i];
	for (uint32_t i = 0; i < sp->fg.nslow; i++)
		recs[n++] = &sp->fg.slow[i];
	qsort(recs, n, sizeof(recs[0]), by_time);
	excerpt_reset(&g->ex);
	for (uint32_t i = 0; i < n; i++)
		excerpt_add(&g->ex, s->host, s->ctx, &recs[i]->hdr, EXCERPT_LINES);
}

static void judge(struct contention *s, uint32_t gi, const struct span *sp)
{
	struct group *g = &s->groups[gi];
	uint64_t bw = g->base.windows, bc = g->base.calls, cw = sp->fg.windows, cc = sp->fg.calls;
	uint64_t p99b = hist_pct(&g->base.h, 0.99), p99c = hist_pct(&sp->fg.h, 0.99);
	int slower, fewer;

	/* fewer: the baseline expects min_calls at least, and cc/cw <= (1 - drop) * bc/bw */
	fewer = (unsigned __int128)bc * cw >= (unsigned __int128)s->min_calls * bw &&
		(unsigned __int128)cc * bw * 100 <= (unsigned __int128)bc * cw * (100 - s->rate_drop);
	slower = cc >= s->min_calls && bc >= s->min_calls && p99b &&
		 (double)p99c >= s->factor * (double)p99b;
	dbg(s, "interval %" PRIu64 "-%" PRIu64 " %s: %" PRIu64 " windows %" PRIu64 " calls p99 %"
	    PRIu64 " ns; baseline %" PRIu64 " windows %" PRIu64 " calls p99 %" PRIu64 " ns: %s\n",
	    sp->first, sp->last, g->name, cw, cc, p99c, bw, bc, p99b,
	    fewer && slower ? "harm (fewer, slower)" : fewer ? "harm (fewer)" :
	    slower ? "harm (slower)" : "no harm");
	if (!fewer && !slower) {
		g->harmless++;
		return;
	}
	if (!g->harmful++) {
		g->harm_first = sp->first;
		span_excerpt(s, g, sp);
	}
	g->harm_last = sp->last;
	fg_merge(&g->harm, &sp->fg);
	bg_merge(&g->harm_bg, &sp->bg);
	if (g->nshown < s->max_intervals) {
		struct shown *sh = &s->shown[(size_t)gi * s->max_intervals + g->nshown++];

		sh->first = sp->first;
		sh->last = sp->last;
		sh->windows = cw;
		sh->calls = cc;
		sh->p99 = p99c;
		sh->base_windows = bw;
		sh->base_calls = bc;
		sh->base_p99 = p99b;
		sh->nthreads = sp->bg.peak;
		sh->more = sp->bg.more;
	}
}

static int baseline_ready(const struct contention *s, const struct group *g)
{
	return g->base.windows >= s->baseline_windows;
}

static void end_interval(struct contention *s)
{
	for (uint32_t gi = 0; gi < s->ngroups; gi++) {
		struct group *g = &s->groups[gi];

		if (g->role != ROLE_FG || !g->cur.fg.windows)
			continue;
		g->cur.first = s->first;
		g->cur.last = s->last;
		g->cur.bg = s->cur_bg;
		if (baseline_ready(s, g)) {
			judge(s, gi, &g->cur);
		} else if (g->npending < PENDING) {
			g->pending[g->npending++] = g->cur;
			dbg(s, "interval %" PRIu64 "-%" PRIu64 " %s: waits for a baseline (%" PRIu64
			    " windows)\n", s->first, s->last, g->name, g->base.windows);
		} else {
			g->unjudged++;
			dbg(s, "interval %" PRIu64 "-%" PRIu64 " %s: not judged, no baseline (%" PRIu64
			    " windows)\n", s->first, s->last, g->name, g->base.windows);
		}
	}
	s->active = 0;
}

static uint32_t level_of(uint32_t nthreads)
{
	return nthreads < LEVELS - 1 ? nthreads : LEVELS - 1;
}

/* a present window of group gi, with this many background threads busy */
static void level_add(struct contention *s, uint32_t gi, uint32_t nthreads, uint64_t idx,
		      const struct fgstat *f)
{
	struct group *g = &s->groups[gi];
	struct level *lv = &s->levels[(size_t)gi * LEVELS + level_of(nthreads)];

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
	if (nthreads >= s->min_bg) {
		if (!g->cont_windows++)
			g->cont_first = idx;
		g->cont_last = idx;
		g->cont_calls += f->calls;
	}
}

static void close_window(struct contention *s, struct window *w)
{
	int contended = w->bg.nthreads >= s->min_bg;

	if (contended && !s->active) {
		s->active = 1;
		s->first = w->idx;
		memset(&s->cur_bg, 0, sizeof(s->cur_bg));
		for (uint32_t gi = 0; gi < s->ngroups; gi++)
			memset(&s->groups[gi].cur.fg, 0, sizeof(s->groups[gi].cur.fg));
	} else if (!contended && s->active) {
		end_interval(s);
	}
	if (contended) {
		s->last = w->idx;
		bg_merge(&s->cur_bg, &w->bg);
	}
	if (w->bg.nthreads)
		bg_merge(&s->lvbg[level_of(w->bg.nthreads)], &w->bg);
	dbg(s, "window %" PRIu64 " busy %u%s", w->idx, w->bg.nthreads, contended ? " contended" : "");
	for (uint32_t gi = 0; gi < s->ngroups; gi++) {
		struct group *g = &s->groups[gi];
		struct fgstat *f = fgwin(s, gi, w->idx);
		int prev = g->was_present;
		int next = w->idx < s->newest && fgwin(s, gi, w->idx + 1)->windows;

		g->was_present = f->windows != 0;
		if (!f->windows)
			continue;
		if (g->role == ROLE_FG)
			dbg(s, " | %s %" PRIu64 " calls p99 %" PRIu64 " ns%s", g->name, f->calls,
			    hist_pct(&f->h, 0.99), prev && next ? "" : " (edge)");
		/*
		 * The first and the last window of a stretch of activity are partly
		 * idle: counted, they would look like a drop in the call rate (a
		 * client that stops while compactions run is not a slow client).
		 */
		if (g->role == ROLE_FG && prev && next) {
			fg_merge(contended ? &g->cur.fg : &g->base, f);
			level_add(s, gi, w->bg.nthreads, w->idx, f);
		}
		memset(f, 0, sizeof(*f));
	}
	dbg(s, "\n");
	/* intervals that came before a baseline are judged once there is one */
	for (uint32_t gi = 0; gi < s->ngroups && !contended; gi++) {
		struct group *g = &s->groups[gi];

		if (g->role != ROLE_FG || !g->npending || !baseline_ready(s, g))
			continue;
		for (uint32_t i = 0; i < g->npending; i++)
			judge(s, gi, &g->pending[i]);
		g->npending = 0;
	}
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
		s->oldest = s->newest = idx;
		open_window(s, idx);
		return;
	}
	if (idx <= s->newest)
		return;
	if (idx - s->newest > RING) {
		/* a quiet gap: everything open closes, and the empty windows end any interval */
		for (uint64_t i = s->oldest; i <= s->newest; i++)
			close_window(s, &s->win[i % RING]);
		if (s->active)
			end_interval(s);
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

static int ct_event(void *state, const struct dio_ev_hdr *ev)
{
	struct contention *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	uint64_t first, last, bytes;
	enum call_kind kind;
	struct thread *th;
	struct group *g;
	uint32_t gi;

	if (ev->type != DIO_EV_SYSCALL)
		return 0;
	kind = call_kind(&s->kinds, e->nr);
	if ((kind != CALL_READ && kind != CALL_WRITE && kind != CALL_SYNC) || call_failed(e->ret))
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
		f->bytes += bytes;
		hist_add(&f->h, e->duration);
		slow_add(f, e);
	}
	return 0;
}

/* ---- judging by levels ------------------------------------------------------------ */

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
	sd->p99 = hist_pct(h, 0.99);
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
 * Levels lo..k-1 against k..hi. Returns whether there were calls enough to
 * judge either the rate or the p99; sp says what harm there was.
 */
static int split_at(struct contention *s, uint32_t gi, uint32_t lo, uint32_t k, uint32_t hi,
		    struct split *sp)
{
	struct side *a = &sp->few, *b = &sp->many;
	double sqa, sqb, zr = 0, zt = 0;
	int rate_ok, p99_ok;

	memset(sp, 0, sizeof(*sp));
	side_sum(s, gi, lo, k - 1, a, &s->few, &sqa);
	side_sum(s, gi, k, hi, b, &s->many, &sqb);
	/*
	 * Rate: as for an interval (rate_drop fewer calls a window, the few side
	 * predicting min_calls on the many side), and the drop SIGMA standard
	 * errors of the windows' calls (Welch) above nothing.
	 */
	rate_ok = (unsigned __int128)a->calls * b->windows >=
		  (unsigned __int128)s->min_calls * a->windows;
	if (rate_ok && (unsigned __int128)b->calls * a->windows * 100 <=
	    (unsigned __int128)a->calls * b->windows * (100 - s->rate_drop)) {
		double ma = (double)a->calls / (double)a->windows;
		double mb = (double)b->calls / (double)b->windows;

		zr = zsq(ma - mb, variance(a, sqa) / (double)a->windows +
			 variance(b, sqb) / (double)b->windows);
		sp->fewer = zr >= SIGMA * SIGMA;
	}
	/*
	 * p99: latency_factor times, min_calls on each side, and more of the many
	 * side's calls above the few side's p99 than of its own, by SIGMA
	 * standard errors (two proportions): a p99 of a few hundred calls is
	 * their few slowest, and one stall can double it.
	 */
	p99_ok = a->calls >= s->min_calls && b->calls >= s->min_calls;
	if (p99_ok && a->p99 && (double)b->p99 >= s->factor * (double)a->p99) {
		unsigned int top = hist_bucket(a->p99);
		uint64_t ca = 0, cb = 0;
		double na = (double)s->few.n, nb = (double)s->many.n, p;

		for (unsigned int i = top + 1; i < HIST_BUCKETS; i++) {
			ca += s->few.b[i];
			cb += s->many.b[i];
		}
		p = (double)(ca + cb) / (na + nb);
		zt = zsq((double)cb / nb - (double)ca / na, p * (1 - p) * (1 / na + 1 / nb));
		sp->slower = zt >= SIGMA * SIGMA;
	}
	if (sp->fewer)
		sp->score = zr;
	if (sp->slower && zt > sp->score)
		sp->score = zt;
	dbg(s, "split %s at %u: few %" PRIu64 " windows %" PRIu64 " calls p99 %" PRIu64 " ns, many %"
	    PRIu64 " windows %" PRIu64 " calls p99 %" PRIu64 " ns; rate z^2 %.1f%s, p99 z^2 %.1f%s\n",
	    s->groups[gi].name, k, a->windows, a->calls, a->p99, b->windows, b->calls, b->p99, zr,
	    sp->fewer ? " harm" : rate_ok ? "" : " (too few calls)", zt,
	    sp->slower ? " harm" : p99_ok ? "" : " (too few calls)");
	return rate_ok || p99_ok;
}

/*
 * Group gi's windows by the number of background threads busy: every split
 * of its levels into few and many (many from min_background up) with
 * baseline_windows windows on each side; the harm with the highest z wins.
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
	for (uint32_t k = r->lo + 1; k <= r->hi; k++) {
		uint64_t many;
		struct split sp;

		few += lv[k - 1].windows;
		many = r->windows - few;
		/* a split just above an empty level is the one below it; from 16 busy
		 * on the levels are one, and so is the many side's least */
		if (!lv[k].windows || k < level_of(s->min_bg))
			continue;
		if ((few < many ? few : many) > (r->even_few < r->even_many ? r->even_few :
						  r->even_many)) {
			r->even_few = few;
			r->even_many = many;
			r->even_k = k;
		}
		if (few < s->baseline_windows || many < s->baseline_windows)
			continue;
		if (!split_at(s, gi, r->lo, k, r->hi, &sp)) {
			uint64_t c = sp.few.calls < sp.many.calls ? sp.few.calls : sp.many.calls;

			if (r->status == J_FEW_WINDOWS)
				r->status = J_FEW_CALLS;
			if (c > r->most_calls)
				r->most_calls = c;
			continue;
		}
		if (r->status != J_HARM)
			r->status = J_FINE;
		if ((sp.fewer || sp.slower) && (r->status != J_HARM || sp.score > r->sp.score)) {
			r->status = J_HARM;
			r->sp = sp;
		}
	}
}

/* ns of foreground time a harm took: the windows, times the larger of the drop and 1 - 1/x */
static double cost_of(struct contention *s, uint64_t windows, double rate, double base_rate,
		      uint64_t p99, uint64_t base_p99)
{
	double drop = base_rate > 0 ? 1 - rate / base_rate : 0;
	double slow = p99 > base_p99 && p99 ? 1 - (double)base_p99 / (double)p99 : 0;

	return (double)windows * (double)s->wns * (drop > slow ? drop : slow);
}

static void decide(struct contention *s, uint32_t gi)
{
	struct group *g = &s->groups[gi];

	g->verdict = V_NONE;
	if (g->role != ROLE_FG)
		return;
	if (g->harmful) {
		g->verdict = V_HARM_BASE;
		g->cost = cost_of(s, g->harm.windows, rate(s, g->harm.calls, g->harm.windows),
				  rate(s, g->base.calls, g->base.windows),
				  hist_pct(&g->harm.h, 0.99), hist_pct(&g->base.h, 0.99));
		return;
	}
	if (!g->cont_windows)
		return;
	judge_levels(s, gi, &g->lj);
	if (g->lj.status == J_HARM) {
		const struct split *sp = &g->lj.sp;

		g->verdict = V_HARM_LEVELS;
		g->cost = cost_of(s, sp->many.windows, rate(s, sp->many.calls, sp->many.windows),
				  rate(s, sp->few.calls, sp->few.windows), sp->many.p99,
				  sp->few.p99);
	} else if (g->lj.status == J_FINE || g->harmless) {
		g->verdict = V_FINE;
	} else {
		g->verdict = V_UNJUDGED;
	}
}

static void verdict(struct contention *s, uint32_t gi)
{
	static const char *const what[] = { "nothing to judge", "no harm", "harm (baseline)",
					    "harm (levels)", "not judged" };
	struct group *g = &s->groups[gi];

	decide(s, gi);
	if (g->role != ROLE_FG)
		return;
	dbg(s, "group %s: baseline %" PRIu64 " windows %" PRIu64 " calls p99 %" PRIu64
	    " ns; intervals: %" PRIu64 " harmful, %" PRIu64 " harmless, %" PRIu64
	    " without a baseline; verdict: %s\n", g->name, g->base.windows, g->base.calls,
	    hist_pct(&g->base.h, 0.99), g->harmful, g->harmless, g->unjudged + g->npending,
	    what[g->verdict]);
	for (uint32_t l = 0; l < LEVELS; l++) {
		const struct level *lv = &s->levels[(size_t)gi * LEVELS + l];

		if (lv->windows)
			dbg(s, "level %s %u: %" PRIu64 " windows %" PRIu64 " calls p99 %" PRIu64
			    " ns\n", g->name, l, lv->windows, lv->calls, hist_pct(&lv->h, 0.99));
	}
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

/* time of day of window idx's start in UTC, as excerpts print it (DIO_FMT_UTC) */
static void put_clock(struct contention *s, struct buf *b, uint64_t idx)
{
	uint64_t ns = s->host->realtime_ns(s->ctx, idx * s->wns);
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;

	if (gmtime_r(&sec, &tm))
		put(b, "%02d:%02d:%02d.%03uZ", tm.tm_hour, tm.tm_min, tm.tm_sec,
		    (unsigned int)(ns % 1000000000 / 1000000));
	else
		put(b, "%lld.%03u", (long long)sec, (unsigned int)(ns % 1000000000 / 1000000));
}

/* "-89%" or "+5%": the change of a over b */
static double change(double a, double b)
{
	return b > 0 ? 100.0 * (a - b) / b : 0;
}

static void put_interval(struct contention *s, struct buf *b, const struct shown *sh)
{
	double r = rate(s, sh->calls, sh->windows), br = rate(s, sh->base_calls, sh->base_windows);

	put(b, "  ");
	put_clock(s, b, sh->first);
	put(b, " - ");
	put_clock(s, b, sh->last + 1);
	put(b, " (%.1f s): %u%s background threads at once, %.0f calls/s (%+.0f%%), p99 ",
	    (double)((sh->last + 1 - sh->first) * s->wns) / 1e9, sh->nthreads,
	    sh->more ? "+" : "", r, change(r, br));
	put_dur(b, sh->p99);
	put(b, " (x%.1f)\n", sh->base_p99 ? (double)sh->p99 / (double)sh->base_p99 : 0);
}

/* the rate and p99 of a harmed group, and what they were against */
static void harm_numbers(struct contention *s, const struct group *g, double *r, double *br,
			 uint64_t *p, uint64_t *bp)
{
	if (g->verdict == V_HARM_BASE) {
		*r = rate(s, g->harm.calls, g->harm.windows);
		*br = rate(s, g->base.calls, g->base.windows);
		*p = hist_pct(&g->harm.h, 0.99);
		*bp = hist_pct(&g->base.h, 0.99);
	} else {
		const struct split *sp = &g->lj.sp;

		*r = rate(s, sp->many.calls, sp->many.windows);
		*br = rate(s, sp->few.calls, sp->few.windows);
		*p = sp->many.p99;
		*bp = sp->few.p99;
	}
}

static int harmed(const struct group *g)
{
	return g->verdict == V_HARM_BASE || g->verdict == V_HARM_LEVELS;
}

/* the other harmed groups of gi's process, and the processes not reported */
static void put_others(struct contention *s, struct buf *m, uint32_t gi, uint32_t unreported)
{
	const struct group *g = &s->groups[gi];
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->ngroups; i++) {
		const struct group *o = &s->groups[i];
		double r, br;
		uint64_t p, bp;

		if (i == gi || !harmed(o) || o->pid != g->pid)
			continue;
		if (n++ == MEMBERS) {
			put(m, ", ...");
			break;
		}
		harm_numbers(s, o, &r, &br, &p, &bp);
		put(m, "%s %s (%+.0f%% calls/s, p99 x%.1f)", n == 1 ?
		    "Other foreground groups of this process were slowed down too:" : ",", o->name,
		    change(r, br), bp ? (double)p / (double)bp : 0);
	}
	if (n)
		put(m, ".\n");
	if (unreported)
		put(m, "Foreground threads of %u more processes were slowed down too; these are "
		    "the %u worst.\n", unreported, REPORTS);
}

static void put_fix(struct buf *m)
{
	put(m, "The background I/O fills the device's queue and the foreground calls wait "
	    "behind it\n(or the background threads take the CPUs: the latency analyzer's "
	    "run-queue table tells).\nFix: limit the background threads' I/O rate (RocksDB: "
	    "Options::rate_limiter,\nNewGenericRateLimiter; SILK-style scheduling gives "
	    "flushes and low-level compactions\nthe bandwidth when clients need it), lower "
	    "their I/O priority (from the thread:\nioprio_set(IOPRIO_WHO_PROCESS, 0, "
	    "IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)), or\nionice -c3 -p TID; bfq and "
	    "mq-deadline honour it), or run fewer of them at once\n(max_background_jobs, "
	    "max_subcompactions).");
}

static void put_members(struct buf *m, const struct group *g)
{
	for (uint32_t i = 0; i < g->nmembers; i++)
		put(m, "%s %s", i ? "," : "", g->members[i]);
	if (g->nmembers == MEMBERS)
		put(m, ", ...");
}

/* a finding about group g, from window first to window last */
static int emit(struct contention *s, const struct group *g, const char *code, uint32_t severity,
		const char *title, const char *msg, uint64_t first, uint64_t last, uint64_t count,
		const char *excerpt)
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
	return s->host->emit_finding(s->ctx, &f);
}

/* a harm found against the quiet baseline */
static int report_base(struct contention *s, uint32_t gi, uint32_t unreported)
{
	struct group *g = &s->groups[gi];
	char title[512], msg[4096];
	struct buf t = { title, sizeof(title), 0 }, m = { msg, sizeof(msg), 0 };
	double br = rate(s, g->base.calls, g->base.windows);
	double hr = rate(s, g->harm.calls, g->harm.windows);
	uint64_t bp = hist_pct(&g->base.h, 0.99), hp = hist_pct(&g->harm.h, 0.99);
	uint32_t named = g->harm_bg.nthreads;

	put(&t, "%s: %.0f I/O calls/s instead of %.0f (%+.0f%%), p99 ", g->name, hr, br,
	    change(hr, br));
	put_dur(&t, hp);
	put(&t, " instead of ");
	put_dur(&t, bp);
	put(&t, " (x%.1f) while %u%s background threads did I/O", bp ? (double)hp / (double)bp : 0,
	    g->harm_bg.peak, g->harm_bg.more ? "+" : "");

	put(&m, "The foreground threads");
	put_members(&m, g);
	put(&m, " (group %s) made fewer or slower\nreads, writes and syncs while at least %u "
	    "background threads did I/O in the same %" PRIu64 " ms window:\n",
	    g->name, s->min_bg, s->wns / 1000000);
	put(&m, "  baseline (%" PRIu64 " windows without): %.0f calls/s, p99 ", g->base.windows, br);
	put_dur(&m, bp);
	put(&m, "\n  contended (%" PRIu64 " windows):         %.0f calls/s, p99 ", g->harm.windows,
	    hr);
	put_dur(&m, hp);
	put(&m, "\nBackground threads doing I/O then:");
	for (uint32_t i = 0; i < named && i < SHOWN; i++)
		put(&m, "%s %s", i ? "," : "", g->harm_bg.names[i].comm);
	put(&m, "%s (%" PRIu64 " calls, ", g->harm_bg.more || named > SHOWN ? ", ..." : "",
	    g->harm_bg.calls);
	put_bytes(&m, g->harm_bg.bytes);
	put(&m, ").\nHarmful intervals: %" PRIu64, g->harmful);
	if (g->harmful > g->nshown && g->nshown)
		put(&m, ", the first %u", g->nshown);
	if (g->harmless)
		put(&m, "; %" PRIu64 " contended intervals did no harm", g->harmless);
	if (g->unjudged + g->npending)
		put(&m, "; %" PRIu64 " came before there was a baseline",
		    g->unjudged + g->npending);
	put(&m, "\n");
	for (uint32_t i = 0; i < g->nshown; i++)
		put_interval(s, &m, &s->shown[(size_t)gi * s->max_intervals + i]);
	put_others(s, &m, gi, unreported);
	put_fix(&m);
	return emit(s, g, "contention.background-io", DIO_SEV_WARNING, title, msg, g->harm_first,
		    g->harm_last, g->harmful, excerpt_text(&g->ex));
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
	struct group *g = &s->groups[gi];
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
	excerpt_reset(&g->ex);
	for (uint32_t i = 0; i < n; i++)
		excerpt_add(&g->ex, s->host, s->ctx, &recs[i]->hdr, EXCERPT_LINES);
}

/* a harm found by comparing the windows with few and many background threads busy */
static int report_levels(struct contention *s, uint32_t gi, uint32_t unreported)
{
	struct group *g = &s->groups[gi];
	const struct split *sp = &g->lj.sp;
	char title[512], msg[4096];
	struct buf t = { title, sizeof(title), 0 }, m = { msg, sizeof(msg), 0 };
	double br = rate(s, sp->few.calls, sp->few.windows);
	double hr = rate(s, sp->many.calls, sp->many.windows);
	uint64_t bp = sp->few.p99, hp = sp->many.p99, quiet = g->base.windows;
	struct bginfo bg;
	uint32_t named;

	memset(&bg, 0, sizeof(bg));
	for (uint32_t l = sp->many.lo; l <= sp->many.hi; l++)
		bg_merge(&bg, &s->lvbg[l]);
	named = bg.nthreads;

	put(&t, "%s: %.0f I/O calls/s instead of %.0f (%+.0f%%), p99 ", g->name, hr, br,
	    change(hr, br));
	put_dur(&t, hp);
	put(&t, " instead of ");
	put_dur(&t, bp);
	put(&t, " (x%.1f) while ", bp ? (double)hp / (double)bp : 0);
	put_levels(&t, sp->many.lo, sp->many.hi);
	put(&t, " background threads did I/O, against ");
	put_levels(&t, sp->few.lo, sp->few.hi);

	put(&m, "The foreground threads");
	put_members(&m, g);
	put(&m, " (group %s) made fewer or slower\nreads, writes and syncs in the %" PRIu64
	    " ms windows in which more background threads did I/O.\n", g->name, s->wns / 1000000);
	if (quiet < s->baseline_windows)
		put(&m, "There was no baseline without them (%" PRIu64 " windows with fewer "
		    "than %u busy, %" PRIu64 " needed),\nso the windows are compared by how many "
		    "were busy:\n", quiet, s->min_bg, s->baseline_windows);
	else
		put(&m, "Each contended interval alone was within the thresholds against the "
		    "%" PRIu64 " windows\nwith fewer than %u busy, but by how many were busy "
		    "the windows tell:\n", quiet, s->min_bg);
	put_table(s, &m, gi);
	put(&m, "  ");
	put_levels(&m, sp->few.lo, sp->few.hi);
	put(&m, " busy (%" PRIu64 " windows): %.0f calls/s, p99 ", sp->few.windows, br);
	put_dur(&m, bp);
	put(&m, "\n  ");
	put_levels(&m, sp->many.lo, sp->many.hi);
	put(&m, " busy (%" PRIu64 " windows): %.0f calls/s (%+.0f%%), p99 ", sp->many.windows, hr,
	    change(hr, br));
	put_dur(&m, hp);
	put(&m, " (x%.1f)\nBackground threads doing I/O then:", bp ? (double)hp / (double)bp : 0);
	for (uint32_t i = 0; i < named && i < SHOWN; i++)
		put(&m, "%s %s", i ? "," : "", bg.names[i].comm);
	put(&m, "%s (%" PRIu64 " calls, ", bg.more || named > SHOWN ? ", ..." : "", bg.calls);
	put_bytes(&m, bg.bytes);
	put(&m, ").\n");
	put_others(s, &m, gi, unreported);
	put_fix(&m);

	levels_excerpt(s, gi, &sp->many);
	return emit(s, g, "contention.background-io", DIO_SEV_WARNING, title, msg, sp->many.first,
		    sp->many.last, sp->many.windows, excerpt_text(&g->ex));
}

/* why judging by levels was not possible: short, for a title after "and" */
static void put_why_short(struct buf *b, const struct lvjudge *lj)
{
	if (lj->status == J_ONE_LEVEL) {
		put_levels(b, lj->lo, lj->lo);
		put(b, " busy in every one");
	} else
		put(b, "too few %s to compare by how many were busy",
		    lj->status == J_FEW_WINDOWS ? "windows" : "calls");
}

/* ... and in full, for the message */
static void put_why(struct contention *s, struct buf *b, const struct lvjudge *lj)
{
	put(b, "- comparing the windows by how many were busy needs %" PRIu64 " on each side of "
	    "a split:\n  ", s->baseline_windows);
	switch (lj->status) {
	case J_ONE_LEVEL:
		put_levels(b, lj->lo, lj->lo);
		put(b, " were busy in every one of them, there is nothing to compare.\n");
		break;
	case J_FEW_WINDOWS:
		put(b, "from %u to %u were busy, and at best %" PRIu64 " windows had ", lj->lo,
		    lj->hi, lj->even_few);
		put_levels(b, lj->lo, lj->even_k - 1);
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
	char title[512], msg[4096];
	struct buf t = { title, sizeof(title), 0 }, m = { msg, sizeof(msg), 0 };
	uint32_t gi = s->ngroups, others = 0;
	const struct group *g;
	uint64_t quiet;

	for (uint32_t i = 0; i < s->ngroups; i++)
		if (s->groups[i].verdict == V_UNJUDGED &&
		    (gi == s->ngroups || s->groups[i].cont_calls > s->groups[gi].cont_calls))
			gi = i;
	if (gi == s->ngroups)
		return 0;
	g = &s->groups[gi];
	quiet = g->base.windows;
	put(&t, "%s: contention not judged: ", g->name);
	if (quiet)
		put(&t, "only %" PRIu64 " windows", quiet);
	else
		put(&t, "no window");
	put(&t, " with fewer than %u background threads busy, and ", s->min_bg);
	put_why_short(&t, &g->lj);

	put(&m, "The foreground threads");
	put_members(&m, g);
	put(&m, " (group %s) did I/O in %" PRIu64 " windows of %" PRIu64 " ms\nin which at least "
	    "%u background threads did I/O too (%" PRIu64 " calls), but whether they were\nslowed "
	    "down could not be told:\n", g->name, g->cont_windows, s->wns / 1000000, s->min_bg,
	    g->cont_calls);
	put(&m, "- a baseline needs %" PRIu64 " windows with fewer than %u background threads "
	    "busy: there were %" PRIu64 ";\n", s->baseline_windows, s->min_bg, quiet);
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
		    s->groups[i].name);
	}
	if (others)
		put(&m, ".\n");
	put(&m, "To judge it, trace a stretch in which the background threads rest or vary (start "
	    "dio before\nthe load, or trace longer), or set min_background, baseline_windows and "
	    "min_calls to the load.");

	return emit(s, g, "contention.not-judged", DIO_SEV_INFO, title, msg, g->cont_first,
		    g->cont_last, g->cont_windows, NULL);
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
		if (s->active)
			end_interval(s);
		s->started = 0;
	}
	for (uint32_t gi = 0; gi < s->ngroups; gi++)
		verdict(s, gi);
	/* one finding a process: its worst harmed group leads, the others are named in it */
	for (uint32_t gi = 0; gi < s->ngroups; gi++) {
		struct group *g = &s->groups[gi];

		g->lead = harmed(g);
		for (uint32_t o = 0; o < s->ngroups && g->lead; o++)
			if (o != gi && harmed(&s->groups[o]) && s->groups[o].pid == g->pid &&
			    worse(s, o, gi))
				g->lead = 0;
		leads += g->lead;
	}
	/* the REPORTS worst processes, the worst first */
	for (uint32_t n = 0; n < REPORTS && !err; n++) {
		uint32_t best = s->ngroups;

		for (uint32_t gi = 0; gi < s->ngroups; gi++)
			if (s->groups[gi].lead == 1 && (best == s->ngroups || worse(s, gi, best)))
				best = gi;
		if (best == s->ngroups)
			break;
		s->groups[best].lead = 2;
		if (s->groups[best].verdict == V_HARM_BASE)
			err = report_base(s, best, n || leads <= REPORTS ? 0 : leads - REPORTS);
		else
			err = report_levels(s, best, n || leads <= REPORTS ? 0 : leads - REPORTS);
	}
	if (!err)
		err = report_unjudged(s);
	if (!err) {
		const struct table_use u[] = {
			TABLE_USE(&s->threads, "threads", "max_threads"),
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
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = options,
	.init = ct_init,
	.event = ct_event,
	.finish = ct_finish,
	.destroy = ct_destroy,
	.rules = rules,
};
