// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio diff A.dio B.dio. Each trace is replayed once through a session set up
 * as dio analyze sets it up, but with no sink and the analyzers' own tables
 * sent to /dev/null. The records are counted where a replay's filter sees
 * them, just before they are dispatched (the path record of a file comes
 * before the calls on it, so its path is known), per system call, per file
 * path normalised as findings' subjects are (relative to --srcroot, digit
 * runs as N) and in all. The findings arrive through session__on_finding
 * with their fingerprints. Then the two sides are compared.
 */
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/plugin.h>
#include "engine/cli.h"
#include "cmd/diff.h"
#include "cmd/cmd.h"
#include "engine/findings.h"
#include "engine/format.h"
#include "engine/lathist.h"
#include "engine/optdefs.h"
#include "engine/options.h"
#include "engine/replay.h"
#include "engine/session.h"
#include "engine/sources.h"
#include "engine/spec.h"
#include "engine/syscalls.h"
#include "engine/tracefile.h"
#include "engine/util.h"

#define MAX_FILES	65536	/* file rows of a trace; calls on more files share one row */
#define OTHER_FILES	"(other files)"
/* a file whose path record never came (the tag table was full) */
#define NO_PATH		"(file without a path)"
#define MIN_SPAN_NS	1000000	/* the rates of a shorter trace are taken over 1 ms */
#define KEY_WIDTH	40	/* the name column of the text tables, at most */

/* what a call counts as */
#define K_READ	0x1
#define K_WRITE	0x2
#define K_FSYNC	0x4
#define K_OPEN	0x8

static const struct {
	const char *name;
	uint8_t kind;
} kinds[] = {
	{ "read", K_READ }, { "pread64", K_READ }, { "readv", K_READ }, { "preadv", K_READ },
	{ "preadv2", K_READ },
	/* the record's file is their source: what they move was read from it */
	{ "copy_file_range", K_READ }, { "sendfile", K_READ }, { "splice", K_READ },
	{ "write", K_WRITE }, { "pwrite64", K_WRITE }, { "writev", K_WRITE },
	{ "pwritev", K_WRITE }, { "pwritev2", K_WRITE },
	{ "fsync", K_FSYNC }, { "fdatasync", K_FSYNC }, { "sync_file_range", K_FSYNC },
	{ "msync", K_FSYNC },
	{ "open", K_OPEN }, { "openat", K_OPEN }, { "openat2", K_OPEN }, { "creat", K_OPEN },
};

/* one system call, one file, or all of a trace */
struct row {
	char *key;		/* file rows: the normalised path, owned; NULL: a free slot */
	uint64_t calls, errors, rbytes, wbytes, fsyncs, opens;
	struct lathist lat;	/* durations, ns */
};

/* the findings of one fingerprint in one trace */
struct found {
	char fp[17];
	uint32_t severity;
	int machine;		/* about the machine: --fail-on counts it only when named */
	uint64_t n;
	char *code, *title, *subject, *comm, *analyzer;	/* owned */
};

/* one trace, read */
struct side {
	const char *path;
	const struct options *o;
	const uint8_t *kind;	/* K_* by system call number */
	struct session *s;	/* while it is read */
	struct row total;
	struct row sc[DIO_NR_MAX];
	struct row *files;	/* open addressing on key; cap is a power of two */
	size_t nfiles, cap;
	struct row other;	/* calls on files past MAX_FILES */
	uint64_t first, last;	/* smallest and largest record time */
	struct found *found;	/* sorted by fingerprint once read */
	size_t nfound, capfound;
	int replayed;		/* the session ran to its end (maybe over a damaged file) */
	int nomem;
};

static const struct row empty_row;

/* ---- reading a trace ----------------------------------------------------- */

static int add_call(struct row *r, const struct dio_ev_syscall *ev, uint8_t kind)
{
	r->calls++;
	if (dio_ret_failed(ev->ret))
		r->errors++;
	else if (ev->ret > 0 && (kind & K_READ))
		r->rbytes += (uint64_t)ev->ret;
	else if (ev->ret > 0 && (kind & K_WRITE))
		r->wbytes += (uint64_t)ev->ret;
	if (kind & K_FSYNC)
		r->fsyncs++;
	if (kind & K_OPEN)
		r->opens++;
	return lathist__add(&r->lat, ev->duration);
}

static uint64_t hash_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* key's slot in t: its row, or the free slot where it goes */
static struct row *slot(struct row *t, size_t cap, const char *key)
{
	size_t i = (size_t)hash_key(key) & (cap - 1);

	while (t[i].key && strcmp(t[i].key, key))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int grow_files(struct side *sd)
{
	size_t cap = sd->cap ? 2 * sd->cap : 1024;
	struct row *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < sd->cap; i++)
		if (sd->files[i].key)
			*slot(t, cap, sd->files[i].key) = sd->files[i];
	free(sd->files);
	sd->files = t;
	sd->cap = cap;
	return 0;
}

/* The row of key, NULL when there is none. */
static struct row *find_file(const struct side *sd, const char *key)
{
	struct row *r = sd->cap ? slot(sd->files, sd->cap, key) : NULL;

	return r && r->key ? r : NULL;
}

/* The row of key, made when missing; NULL only when out of memory. */
static struct row *file_row(struct side *sd, const char *key)
{
	struct row *r = find_file(sd, key);

	if (r)
		return r;
	if (sd->nfiles >= MAX_FILES)
		return &sd->other;
	if (2 * (sd->nfiles + 1) > sd->cap && grow_files(sd))
		return NULL;
	r = slot(sd->files, sd->cap, key);
	r->key = strdup(key);
	if (!r->key)
		return NULL;
	sd->nfiles++;
	return r;
}

/*
 * The file a call worked on: the path of its file tag, or the absolute path
 * it named when it found no file (a failed open, a stat); NULL for none.
 */
static const char *call_path(struct side *sd, const struct dio_ev_syscall *ev)
{
	const char *str = (const char *)(ev + 1);

	if (ev->flags & DIO_SF_FILE) {
		const char *p = session__tag_path(sd->s, &ev->tag);

		return p ? p : NO_PATH;
	}
	if (ev->str_len[0] && sizeof(*ev) + ev->str_len[0] <= ev->hdr.size && str[0] == '/' &&
	    memchr(str, 0, ev->str_len[0]))
		return str;
	return NULL;
}

/* the session's filter (session__filter): counts every checked record and keeps it */
static int count_record(void *ud, const struct dio_ev_hdr *h)
{
	struct side *sd = ud;
	const struct dio_ev_syscall *ev = (const void *)h;
	char subject[DIO_PATH_MAX + 16];
	struct row *file = NULL;
	const char *path;
	uint8_t kind;

	if (!sd->first || h->ts < sd->first)
		sd->first = h->ts;
	if (h->ts > sd->last)
		sd->last = h->ts;
	if (h->type != DIO_EV_SYSCALL || h->size < sizeof(*ev) || ev->nr >= DIO_NR_MAX || sd->nomem)
		return 1;
	kind = sd->kind[ev->nr];
	path = call_path(sd, ev);
	if (path) {
		findings_subject(path, sd->o->srcroot, subject, sizeof(subject));
		file = file_row(sd, subject);
		if (!file) {
			sd->nomem = 1;
			return 1;
		}
	}
	if (add_call(&sd->total, ev, kind) || add_call(&sd->sc[ev->nr], ev, kind) ||
	    (file && add_call(file, ev, kind)))
		sd->nomem = 1;
	return 1;
}

static void found_free(struct found *f)
{
	free(f->code);
	free(f->title);
	free(f->subject);
	free(f->comm);
	free(f->analyzer);
}

/* *out = a copy of s (NULL stays NULL); -ENOMEM when the copy failed */
static int dup_str(char **out, const char *s)
{
	*out = s ? strdup(s) : NULL;
	return s && !*out ? -ENOMEM : 0;
}

/* session__on_finding: keep what tells the finding apart and what names it */
static int on_finding(void *ud, const struct dio_finding *f)
{
	struct side *sd = ud;
	struct found *x;

	/* an accepted finding (--suppress) is neither new nor fixed */
	if (f->suppressed || !f->fingerprint)
		return 0;
	if (sd->nfound == sd->capfound) {
		size_t cap = sd->capfound ? 2 * sd->capfound : 64;
		struct found *n = realloc(sd->found, cap * sizeof(*n));

		if (!n)
			goto nomem;
		sd->found = n;
		sd->capfound = cap;
	}
	x = &sd->found[sd->nfound];
	memset(x, 0, sizeof(*x));
	snprintf(x->fp, sizeof(x->fp), "%s", f->fingerprint);
	x->severity = f->severity;
	x->machine = session__machine(sd->s, f);
	x->n = 1;
	if (dup_str(&x->code, f->code ? f->code : "") || dup_str(&x->title, f->title) ||
	    dup_str(&x->subject, f->subject) || dup_str(&x->comm, f->comm) ||
	    dup_str(&x->analyzer, f->analyzer)) {
		found_free(x);
		goto nomem;
	}
	sd->nfound++;
	return 0;
nomem:
	sd->nomem = 1;
	return -ENOMEM;
}

static int by_fingerprint(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	int c = strcmp(x->fp, y->fp);

	/* the same fingerprint: the same title each time it is read */
	return c ? c : strcmp(x->title ? x->title : "", y->title ? y->title : "");
}

/* sorted by fingerprint, one entry each, n counting them */
static void merge_findings(struct side *sd)
{
	size_t k = 0;

	if (sd->nfound)
		qsort(sd->found, sd->nfound, sizeof(*sd->found), by_fingerprint);
	for (size_t i = 0; i < sd->nfound; i++) {
		if (k && !strcmp(sd->found[k - 1].fp, sd->found[i].fp)) {
			sd->found[k - 1].n += sd->found[i].n;
			found_free(&sd->found[i]);
		} else {
			sd->found[k++] = sd->found[i];
		}
	}
	sd->nfound = k;
}

/* Replay sd->path; dio's exit status for it (sd->replayed says whether it was read). */
static int read_side(struct side *sd, struct options *o)
{
	/* replay_session takes --hash user from the file: the other file must not inherit it */
	enum hash_mode hash = o->hash;
	uint32_t capture = o->capture_bytes;
	struct tf_reader *r = sources__open_trace(sd->path);
	int code = 1;

	if (!r)
		return 1;
	sd->s = replay_session(o, r, sd->path);
	if (sd->s) {
		session__on_finding(sd->s, on_finding, sd);
		session__filter(sd->s, count_record, sd);
		code = replay__run(sd->s, r);
		sd->replayed = 1;
		/* records the session refused (said in its report) are damage too */
		if (sources__damage(sd->path, r) || session__malformed(sd->s))
			code = 1;
	}
	session__free(sd->s);
	sd->s = NULL;
	tf_reader__close(r);
	o->hash = hash;
	o->capture_bytes = capture;
	if (sd->nomem) {
		die_msg("diff: %s: out of memory", sd->path);
		sd->replayed = 0;
		return 1;
	}
	merge_findings(sd);
	return code;
}

static void side_free(struct side *sd)
{
	if (!sd)
		return;
	lathist__free(&sd->total.lat);
	for (size_t i = 0; i < DIO_NR_MAX; i++)
		lathist__free(&sd->sc[i].lat);
	for (size_t i = 0; i < sd->cap; i++) {
		free(sd->files[i].key);
		lathist__free(&sd->files[i].lat);
	}
	free(sd->files);
	lathist__free(&sd->other.lat);
	for (size_t i = 0; i < sd->nfound; i++)
		found_free(&sd->found[i]);
	free(sd->found);
	free(sd);
}

/* ---- comparing ----------------------------------------------------------- */

enum {
	M_CALLS, M_ERRORS, M_READ, M_WRITTEN, M_FSYNCS, M_FSYNC_RATE, M_OPENS, M_OPEN_RATE,
	M_P50, M_P99, M_N
};

/* the tables */
#define T_TOTAL		0x1
#define T_SYSCALL	0x2
#define T_FILE		0x4

#define MF_JUDGED	0x1	/* --fail-on-regress looks at it: more is worse */
#define MF_RATE		0x2	/* per second of the trace's span */
#define MF_LATENCY	0x4	/* ns; compared only over --min-calls calls on both sides */

static const struct metric {
	const char *text;	/* in the text tables and messages */
	const char *json;	/* its key in the JSON objects */
	unsigned int tables;	/* T_*: where the text shows it */
	unsigned int flags;	/* MF_* */
} metrics[M_N] = {
	[M_CALLS] = { "calls", "calls", T_TOTAL | T_SYSCALL | T_FILE, MF_JUDGED },
	[M_ERRORS] = { "errors", "errors", T_TOTAL | T_SYSCALL | T_FILE, MF_JUDGED },
	[M_READ] = { "read", "bytes_read", T_TOTAL | T_SYSCALL | T_FILE, 0 },
	[M_WRITTEN] = { "written", "bytes_written", T_TOTAL | T_SYSCALL | T_FILE, 0 },
	[M_FSYNCS] = { "fsyncs", "fsyncs", T_TOTAL | T_FILE, 0 },
	[M_FSYNC_RATE] = { "fsyncs/s", "fsyncs_per_s", T_TOTAL | T_FILE, MF_JUDGED | MF_RATE },
	[M_OPENS] = { "opens", "opens", T_TOTAL | T_FILE, 0 },
	[M_OPEN_RATE] = { "opens/s", "opens_per_s", T_TOTAL | T_FILE, MF_JUDGED | MF_RATE },
	[M_P50] = { "p50", "p50_ns", T_TOTAL | T_SYSCALL | T_FILE, MF_LATENCY },
	[M_P99] = { "p99", "p99_ns", T_TOTAL | T_SYSCALL | T_FILE, MF_JUDGED | MF_LATENCY },
};

/* one row of both sides */
struct pair {
	const char *key;
	char num[24];		/* the key of a system call dio has no name for */
	const struct row *r[2];
	double v[2][M_N];
	double score;		/* its largest change shown */
};

struct table {
	const char *title;	/* text */
	const char *json;	/* its key in JSON, and its name in messages */
	unsigned int t;		/* T_* */
	struct pair *p;
	size_t n;
};

struct regression {
	const struct table *t;
	const struct pair *p;
	int m;
};

/* a finding of either side */
struct fpair {
	const struct found *f;
	int state;		/* FS_* */
	uint64_t n[2];
};

#define FS_NEW		0
#define FS_FIXED	1
#define FS_UNCHANGED	2
static const char *const state_names[] = { "new", "fixed", "unchanged" };

struct cmp {
	const struct side *sd[2];
	const struct diff_args *d;
	int fail_on;		/* --fail-on, -1: none */
	struct table tables[3];
	struct regression *reg;
	size_t nreg;
	struct fpair *fp;
	size_t nfp;
	size_t nfound[3];	/* per FS_* */
	size_t nfailing;	/* new findings at --fail-on or above */
};

int diff_ratio_text(double a, double b, char *buf, size_t len)
{
	if (a == 0 && b == 0)
		return snprintf(buf, len, "1.00x");
	if (a == 0)
		return snprintf(buf, len, "new");
	if (b == 0)
		return snprintf(buf, len, "gone");
	/* two decimals would make a 300-fold drop 0.00x */
	if (b / a < 0.01)
		return snprintf(buf, len, "%.2gx", b / a);
	return snprintf(buf, len, "%.2fx", b / a);
}

double diff_change(double a, double b)
{
	if (a == b)
		return 1;
	if (a == 0 || b == 0)
		return DBL_MAX;
	return a > b ? a / b : b / a;
}

int diff_worse(double a, double b, double pct)
{
	if (b <= a)
		return 0;
	return a == 0 || (b - a) * 100 > pct * a;
}

/* seconds the rates are taken over */
static double rate_span(const struct side *sd)
{
	uint64_t ns = sd->last - sd->first;

	return (double)(ns < MIN_SPAN_NS ? MIN_SPAN_NS : ns) / 1e9;
}

static double value(const struct side *sd, const struct row *r, int m)
{
	switch (m) {
	case M_CALLS: return (double)r->calls;
	case M_ERRORS: return (double)r->errors;
	case M_READ: return (double)r->rbytes;
	case M_WRITTEN: return (double)r->wbytes;
	case M_FSYNCS: return (double)r->fsyncs;
	case M_FSYNC_RATE: return (double)r->fsyncs / rate_span(sd);
	case M_OPENS: return (double)r->opens;
	case M_OPEN_RATE: return (double)r->opens / rate_span(sd);
	case M_P50: return (double)lathist__pct(&r->lat, 0.50);
	default: return (double)lathist__pct(&r->lat, 0.99);
	}
}

/* percentiles of so few calls say little: both sides need --min-calls (and one) */
static int latency_compared(const struct cmp *c, const struct pair *p)
{
	uint64_t fewer = p->r[0]->calls < p->r[1]->calls ? p->r[0]->calls : p->r[1]->calls;

	return fewer && fewer >= (uint64_t)c->d->min_calls;
}

/* a row with --min-calls calls on one side at least: its rates and counts are judged */
static int busy(const struct cmp *c, const struct pair *p)
{
	uint64_t more = p->r[0]->calls > p->r[1]->calls ? p->r[0]->calls : p->r[1]->calls;

	return more >= (uint64_t)c->d->min_calls;
}

/*
 * Whether the text shows the metric of the row: it changed, and it tells
 * something. The rates of a row with few calls change with the trace's
 * span, whatever the row did; its percentiles are those of a handful.
 */
static int shown(const struct cmp *c, const struct table *t, const struct pair *p, int m)
{
	if (!(metrics[m].tables & t->t))
		return 0;
	if ((metrics[m].flags & MF_LATENCY) && !latency_compared(c, p))
		return 0;
	if ((metrics[m].flags & MF_RATE) && !busy(c, p))
		return 0;
	return p->v[0][m] != p->v[1][m];
}

static int regressed(const struct cmp *c, const struct table *t, const struct pair *p, int m)
{
	if (c->d->regress_pct < 0 || !(metrics[m].flags & MF_JUDGED) || !shown(c, t, p, m) ||
	    !busy(c, p))
		return 0;
	return diff_worse(p->v[0][m], p->v[1][m], (double)c->d->regress_pct);
}

static void fill_pair(const struct cmp *c, const struct table *t, struct pair *p, const char *key,
		      const struct row *a, const struct row *b)
{
	p->key = key;
	p->r[0] = a ? a : &empty_row;
	p->r[1] = b ? b : &empty_row;
	p->score = 1;
	for (int m = 0; m < M_N; m++) {
		for (int i = 0; i < 2; i++)
			p->v[i][m] = value(c->sd[i], p->r[i], m);
		if (shown(c, t, p, m) && diff_change(p->v[0][m], p->v[1][m]) > p->score)
			p->score = diff_change(p->v[0][m], p->v[1][m]);
	}
}

/* the largest change first; then the busier row, then by name */
static int by_score(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	uint64_t nx = x->r[1]->calls, ny = y->r[1]->calls;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	if (nx != ny)
		return nx < ny ? 1 : -1;
	return strcmp(x->key, y->key);
}

static struct pair *add_pair(struct table *t)
{
	struct pair *p = &t->p[t->n++];

	memset(p, 0, sizeof(*p));
	return p;
}

static int build_tables(struct cmp *c)
{
	const struct side *a = c->sd[0], *b = c->sd[1];
	struct table *t = c->tables;
	size_t most = a->nfiles + b->nfiles + 1;

	t[0] = (struct table){ "in all", "total", T_TOTAL, calloc(1, sizeof(struct pair)), 0 };
	t[1] = (struct table){ "per system call", "syscall", T_SYSCALL,
			       calloc(DIO_NR_MAX, sizeof(struct pair)), 0 };
	t[2] = (struct table){ "per file", "file", T_FILE, calloc(most, sizeof(struct pair)), 0 };
	if (!t[0].p || !t[1].p || !t[2].p)
		return -ENOMEM;
	fill_pair(c, &t[0], add_pair(&t[0]), "total", &a->total, &b->total);
	for (unsigned int nr = 0; nr < DIO_NR_MAX; nr++) {
		const struct dio_syscall *sc = syscall_by_nr(nr);
		struct pair *p;

		if (!a->sc[nr].calls && !b->sc[nr].calls)
			continue;
		p = add_pair(&t[1]);
		snprintf(p->num, sizeof(p->num), "syscall_%u", nr);
		fill_pair(c, &t[1], p, sc ? sc->name : p->num, &a->sc[nr], &b->sc[nr]);
	}
	/* A's files, with B's of the same name; then B's that A has not */
	for (size_t i = 0; i < a->cap; i++)
		if (a->files[i].key)
			fill_pair(c, &t[2], add_pair(&t[2]), a->files[i].key, &a->files[i],
				  find_file(b, a->files[i].key));
	for (size_t i = 0; i < b->cap; i++)
		if (b->files[i].key && !find_file(a, b->files[i].key))
			fill_pair(c, &t[2], add_pair(&t[2]), b->files[i].key, NULL, &b->files[i]);
	if (a->other.calls || b->other.calls)
		fill_pair(c, &t[2], add_pair(&t[2]), OTHER_FILES, &a->other, &b->other);
	for (int i = 1; i < 3; i++)
		if (t[i].n)
			qsort(t[i].p, t[i].n, sizeof(*t[i].p), by_score);
	return 0;
}

static int find_regressions(struct cmp *c)
{
	size_t cap = 0;

	for (int i = 0; i < 3; i++)
		for (size_t k = 0; k < c->tables[i].n; k++)
			for (int m = 0; m < M_N; m++) {
				if (!regressed(c, &c->tables[i], &c->tables[i].p[k], m))
					continue;
				if (c->nreg == cap) {
					struct regression *n;

					cap = cap ? 2 * cap : 16;
					n = realloc(c->reg, cap * sizeof(*n));
					if (!n)
						return -ENOMEM;
					c->reg = n;
				}
				c->reg[c->nreg++] = (struct regression){ &c->tables[i],
									 &c->tables[i].p[k], m };
			}
	return 0;
}

static int by_state(const void *a, const void *b)
{
	const struct fpair *x = a, *y = b;
	int r;

	if (x->state != y->state)
		return x->state - y->state;
	if (x->f->severity != y->f->severity)
		return x->f->severity < y->f->severity ? 1 : -1;
	r = strcmp(x->f->code, y->f->code);
	if (!r)
		r = strcmp(x->f->subject ? x->f->subject : "", y->f->subject ? y->f->subject : "");
	return r ? r : strcmp(x->f->fp, y->f->fp);
}

/* Both sides' findings, by fingerprint: new (B only), fixed (A only), unchanged. */
static int match_findings(struct cmp *c)
{
	const struct side *a = c->sd[0], *b = c->sd[1];
	size_t i = 0, k = 0;

	c->fp = calloc(a->nfound + b->nfound + 1, sizeof(*c->fp));
	if (!c->fp)
		return -ENOMEM;
	while (i < a->nfound || k < b->nfound) {
		int d = i == a->nfound ? 1 : k == b->nfound ? -1 :
			strcmp(a->found[i].fp, b->found[k].fp);
		struct fpair *x = &c->fp[c->nfp++];

		x->state = d < 0 ? FS_FIXED : d > 0 ? FS_NEW : FS_UNCHANGED;
		x->f = d < 0 ? &a->found[i] : &b->found[k];
		x->n[0] = d <= 0 ? a->found[i++].n : 0;
		x->n[1] = d >= 0 ? b->found[k++].n : 0;
		c->nfound[x->state]++;
		if (x->state == FS_NEW && c->fail_on >= 0 && x->f->severity >= (uint32_t)c->fail_on &&
		    !x->f->machine)
			c->nfailing++;
	}
	if (c->nfp)
		qsort(c->fp, c->nfp, sizeof(*c->fp), by_state);
	return 0;
}

/* ---- text ---------------------------------------------------------------- */

static void fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
}

static void fmt_value(int m, double v, char *buf, size_t len)
{
	if (metrics[m].flags & MF_LATENCY)
		fmt_ns(v, buf, len);
	else if (metrics[m].flags & MF_RATE)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

/*
 * A name from a traced program, safe for a terminal; a title with
 * DIO_ESC_TEXT, since the names in it are escaped already.
 */
static const char *escaped(const char *s, unsigned int flags, char *buf, size_t len)
{
	dio_escape(s, strlen(s), flags, buf, len);
	return buf;
}

struct line {
	const struct pair *p;
	int m;
	double change;
};

static int by_change(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->change != y->change)
		return x->change < y->change ? 1 : -1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;	/* the table's order */
	return x->m - y->m;
}

/*
 * key escaped, cut in the middle to at most w bytes ("/srv/a/b...x/y/log"),
 * so that the columns after it stay in line; --format json keeps it whole.
 * Cut between the raw bytes, so that no escape is split.
 */
static const char *fit(const char *key, int w, char *buf, size_t len)
{
	size_t n = strlen(key), i = 0, j = n, hl = 0, tl = 0, hw, tw, off;
	char one[8];

	if (w < 5 || (int)dio_escape(key, n, 0, buf, len) <= w)
		return buf;
	hw = (size_t)(w - 3) / 2;
	tw = (size_t)(w - 3) - hw;
	while (i < j && hl + dio_escape(key + i, 1, 0, one, sizeof(one)) <= hw)
		hl += dio_escape(key + i++, 1, 0, one, sizeof(one));
	while (j > i && tl + dio_escape(key + j - 1, 1, 0, one, sizeof(one)) <= tw)
		tl += dio_escape(key + --j, 1, 0, one, sizeof(one));
	off = dio_escape(key, i, 0, buf, len);
	off += (size_t)snprintf(buf + off, len - off, "...");
	dio_escape(key + j, n - j, 0, buf + off, len - off);
	return buf;
}

static int print_table(const struct cmp *c, const struct table *t, FILE *out)
{
	struct line *l = calloc(t->n * M_N + 1, sizeof(*l));
	char esc[4 * (DIO_PATH_MAX + 16) + 1], va[64], vb[64], ch[64];
	size_t n = 0;
	int width = 6;

	if (!l)
		return -ENOMEM;
	for (size_t k = 0; k < t->n; k++)
		for (int m = 0; m < M_N; m++) {
			const struct pair *p = &t->p[k];

			if (shown(c, t, p, m))
				l[n++] = (struct line){ p, m, diff_change(p->v[0][m], p->v[1][m]) };
		}
	if (n)
		qsort(l, n, sizeof(*l), by_change);
	for (size_t i = 0; i < n; i++) {
		int w = (int)strlen(escaped(l[i].p->key, 0, esc, sizeof(esc)));

		if (w > width)
			width = w < KEY_WIDTH ? w : KEY_WIDTH;
	}
	fprintf(out, "\n%s%s:\n", t->title,
		t->t == T_FILE && c->sd[0]->o->srcroot ? " (paths relative to --srcroot)" : "");
	if (!n) {
		fprintf(out, "  no change\n");
		free(l);
		return 0;
	}
	/* the table of all calls has one row: no name column */
	if (t->t == T_TOTAL)
		width = -1;
	fprintf(out, "  %*s%-9s %14s %14s %10s\n", width + 1, "", "", "A", "B", "change");
	for (size_t i = 0; i < n; i++) {
		const struct pair *p = l[i].p;
		int m = l[i].m;

		fmt_value(m, p->v[0][m], va, sizeof(va));
		fmt_value(m, p->v[1][m], vb, sizeof(vb));
		diff_ratio_text(p->v[0][m], p->v[1][m], ch, sizeof(ch));
		fprintf(out, "  %-*s%s%-9s %14s %14s %10s%s\n", width < 0 ? 0 : width,
			width < 0 ? "" : fit(p->key, width, esc, sizeof(esc)), width < 0 ? "" : " ",
			metrics[m].text, va, vb, ch, regressed(c, t, p, m) ? " !" : "");
	}
	free(l);
	return 0;
}

static void print_side(const char *name, const struct side *sd, FILE *out)
{
	char esc[4 * 4096 + 1];

	fprintf(out, "%s: %s: %llu calls in %.3f s, %zu distinct finding%s\n", name,
		escaped(sd->path, 0, esc, sizeof(esc)), (unsigned long long)sd->total.calls,
		(double)(sd->last - sd->first) / 1e9, sd->nfound, sd->nfound == 1 ? "" : "s");
}

static void print_findings(const struct cmp *c, FILE *out)
{
	char code[512], subj[4 * (DIO_PATH_MAX + 16) + 1], comm[4 * 16 + 1], title[4 * 1024 + 1];

	fprintf(out, "\nfindings: %zu new, %zu fixed, %zu unchanged\n", c->nfound[FS_NEW],
		c->nfound[FS_FIXED], c->nfound[FS_UNCHANGED]);
	for (size_t i = 0; i < c->nfp; i++) {
		const struct found *f = c->fp[i].f;

		fprintf(out, "  %-9s %-7s %s %s [%s]: %s\n", state_names[c->fp[i].state],
			findings_severity(f->severity),
			escaped(f->code, 0, code, sizeof(code)),
			f->subject && *f->subject ? escaped(f->subject, 0, subj, sizeof(subj)) : "-",
			f->comm ? escaped(f->comm, 0, comm, sizeof(comm)) : "-",
			f->title ? escaped(f->title, DIO_ESC_TEXT, title, sizeof(title)) : "");
	}
}

static int print_text(const struct cmp *c, FILE *out)
{
	print_side("A", c->sd[0], out);
	print_side("B", c->sd[1], out);
	for (int i = 0; i < 3; i++)
		if (print_table(c, &c->tables[i], out))
			return -ENOMEM;
	print_findings(c, out);
	return 0;
}

/* ---- JSON ---------------------------------------------------------------- */

/* s as a JSON string, bytes outside UTF-8 as \udcXX (docs/json-schema.md); NULL as null */
static void json_str(FILE *f, const char *s)
{
	size_t n, len;
	char *t;

	if (!s) {
		fputs("null", f);
		return;
	}
	n = strlen(s);
	len = DIO_JSON_ESC_MAX * n + 1;
	t = malloc(len);
	if (!t)
		die_msg("diff: out of memory");
	dio_json_escape(s, n, 0, t, len);
	fprintf(f, "\"%s\"", t);
	free(t);
}

static void json_stats(const struct row *r, const double *v, FILE *out)
{
	fprintf(out, "{\"calls\":%llu,\"errors\":%llu,\"bytes_read\":%llu,\"bytes_written\":%llu,"
		"\"fsyncs\":%llu,\"fsyncs_per_s\":%.3f,\"opens\":%llu,\"opens_per_s\":%.3f",
		(unsigned long long)r->calls, (unsigned long long)r->errors,
		(unsigned long long)r->rbytes, (unsigned long long)r->wbytes,
		(unsigned long long)r->fsyncs, v[M_FSYNC_RATE], (unsigned long long)r->opens,
		v[M_OPEN_RATE]);
	if (r->calls)
		fprintf(out, ",\"p50_ns\":%.0f,\"p99_ns\":%.0f}", v[M_P50], v[M_P99]);
	else
		fputs(",\"p50_ns\":null,\"p99_ns\":null}", out);
}

/* B/A: 1 when both are 0, null when only A is (or a side has no latency) */
static void json_ratio(double a, double b, int missing, FILE *out)
{
	if (missing || (a == 0 && b != 0))
		fputs("null", out);
	else if (a == 0)
		fputs("1", out);
	else
		fprintf(out, "%.4f", b / a);
}

static void json_row(const struct cmp *c, const struct pair *p, const char *name_key, FILE *out)
{
	fprintf(out, "{\"%s\":", name_key);
	json_str(out, p->key);
	for (int i = 0; i < 2; i++) {
		fprintf(out, ",\"%c\":", 'a' + i);
		json_stats(p->r[i], p->v[i], out);
	}
	fputs(",\"ratio\":{", out);
	for (int m = 0; m < M_N; m++) {
		int missing = (metrics[m].flags & MF_LATENCY) &&
			      (!p->r[0]->calls || !p->r[1]->calls);

		fprintf(out, "%s\"%s\":", m ? "," : "", metrics[m].json);
		json_ratio(p->v[0][m], p->v[1][m], missing, out);
	}
	fputs("}}", out);
}

static void json_side(const struct side *sd, FILE *out)
{
	fputs("{\"file\":", out);
	json_str(out, sd->path);
	fprintf(out, ",\"span_s\":%.6f,\"calls\":%llu,\"findings\":%zu}",
		(double)(sd->last - sd->first) / 1e9, (unsigned long long)sd->total.calls,
		sd->nfound);
}

static void print_json(const struct cmp *c, FILE *out)
{
	fputs("{\"type\":\"diff\",\"a\":", out);
	json_side(c->sd[0], out);
	fputs(",\"b\":", out);
	json_side(c->sd[1], out);
	fputs(",\"srcroot\":", out);
	json_str(out, c->sd[0]->o->srcroot);
	fprintf(out, ",\"min_calls\":%ld,\"fail_on_regress\":", c->d->min_calls);
	if (c->d->regress_pct >= 0)
		fprintf(out, "%ld", c->d->regress_pct);
	else
		fputs("null", out);
	fputs(",\"total\":", out);
	json_row(c, &c->tables[0].p[0], "name", out);
	for (int i = 1; i < 3; i++) {
		const struct table *t = &c->tables[i];

		fprintf(out, ",\"%s\":[", i == 1 ? "syscalls" : "files");
		for (size_t k = 0; k < t->n; k++) {
			fputs(k ? ",\n" : "\n", out);
			json_row(c, &t->p[k], i == 1 ? "name" : "path", out);
		}
		fputs("]", out);
	}
	fputs(",\"findings\":[", out);
	for (size_t i = 0; i < c->nfp; i++) {
		const struct found *f = c->fp[i].f;

		fprintf(out, "%s{\"state\":\"%s\",\"severity\":\"%s\",\"code\":", i ? ",\n" : "\n",
			state_names[c->fp[i].state],
			findings_severity(f->severity));
		json_str(out, f->code);
		fputs(",\"analyzer\":", out);
		json_str(out, f->analyzer);
		fputs(",\"title\":", out);
		json_str(out, f->title);
		fputs(",\"subject\":", out);
		json_str(out, f->subject && *f->subject ? f->subject : NULL);
		fputs(",\"comm\":", out);
		json_str(out, f->comm);
		fprintf(out, ",\"fingerprint\":\"%s\",\"count_a\":%llu,\"count_b\":%llu}", f->fp,
			(unsigned long long)c->fp[i].n[0], (unsigned long long)c->fp[i].n[1]);
	}
	fputs("],\"regressions\":[", out);
	for (size_t i = 0; i < c->nreg; i++) {
		const struct regression *r = &c->reg[i];

		fprintf(out, "%s{\"table\":\"%s\",\"name\":", i ? ",\n" : "\n", r->t->json);
		json_str(out, r->p->key);
		fprintf(out, ",\"metric\":\"%s\",\"a\":%.3f,\"b\":%.3f,\"ratio\":",
			metrics[r->m].json, r->p->v[0][r->m], r->p->v[1][r->m]);
		json_ratio(r->p->v[0][r->m], r->p->v[1][r->m], 0, out);
		fputc('}', out);
	}
	fprintf(out, "],\"new_failing_findings\":%zu,\"failed\":%s}\n", c->nfailing,
		c->nreg || c->nfailing ? "true" : "false");
}

/* ---- the command --------------------------------------------------------- */

/* One line on stderr for each regression and each new finding that fails the diff. */
static void say_failures(const struct cmp *c)
{
	char esc[4 * (DIO_PATH_MAX + 16) + 1], va[64], vb[64], ch[64];

	for (size_t i = 0; i < c->nreg; i++) {
		const struct regression *r = &c->reg[i];

		fmt_value(r->m, r->p->v[0][r->m], va, sizeof(va));
		fmt_value(r->m, r->p->v[1][r->m], vb, sizeof(vb));
		diff_ratio_text(r->p->v[0][r->m], r->p->v[1][r->m], ch, sizeof(ch));
		fprintf(stderr, "dio: diff: %s%s%s: %s %s -> %s (%s), worse by more than %ld%%\n",
			r->t->t == T_TOTAL ? "in all" : r->t->json, r->t->t == T_TOTAL ? "" : " ",
			r->t->t == T_TOTAL ? "" : escaped(r->p->key, 0, esc, sizeof(esc)),
			metrics[r->m].text, va, vb, ch, c->d->regress_pct);
	}
	for (size_t i = 0; i < c->nfp; i++) {
		const struct found *f = c->fp[i].f;

		if (c->fp[i].state != FS_NEW || c->fail_on < 0 ||
		    f->severity < (uint32_t)c->fail_on || f->machine)
			continue;
		fprintf(stderr, "dio: diff: new finding %s (%s, --fail-on %s): %s\n", f->code,
			findings_severity(f->severity), findings_severity((uint32_t)c->fail_on),
			f->title ? escaped(f->title, DIO_ESC_TEXT, esc, sizeof(esc)) : "");
	}
}

static void diff_usage(FILE *f)
{
	fputs(
"usage: dio diff A.dio B.dio [--format text|json] [-o FILE] [--srcroot DIR]\n"
"                [--analyzer NAME[:k=v,...] ...] [--fail-on-regress PCT]\n"
"                [--min-calls N] [--fail-on info|warning|error] [--suppress FILE]\n"
"                [-C FILE]\n"
"\n"
"What changed from the recording A to the recording B of one workload: per\n"
"system call, per file (relative to --srcroot, digit runs as N) and in all,\n"
"calls, errors, bytes read and written, fsyncs and opens (and per second of\n"
"each trace's span), p50 and p99 latency, as the ratio B/A, the largest change\n"
"first; and the findings of the analyzers (default: all) that are new in B,\n"
"fixed since A, or unchanged.\n"
"\n", f);
	cli_help(f, cli_diff_opts, cli_diff_nopts);
	/* the options it shares with dio trace, as a diff uses them */
	fputs(
"      --fail-on LEVEL       also exit 3 for a new finding this severe or worse\n"
"      --analyzer NAME       the analyzers to compare the findings of (repeatable)\n"
"      --srcroot DIR         paths under DIR are compared relative to it\n"
"                            (default: the top of the git work tree)\n"
"      --suppress FILE       accepted findings, left out of the comparison\n"
"  -C, --config FILE         config file (analyzer settings, --srcroot)\n"
"\n"
"Examples:\n"
"  dio diff yesterday.dio today.dio\n"
"  dio diff before.dio after.dio --srcroot /var/lib/app --fail-on-regress 50\n"
"  dio diff before.dio after.dio --format json -o diff.json --fail-on warning\n", f);
}

static struct side *side_new(const char *path, const struct options *o, const uint8_t *kind)
{
	struct side *sd = calloc(1, sizeof(*sd));

	if (sd) {
		sd->path = path;
		sd->o = o;
		sd->kind = kind;
	}
	return sd;
}

static FILE *open_output(const char *path)
{
	char why[256];
	int fd = util__create_output(path);
	FILE *f;

	if (fd < 0) {
		die_msg("diff: cannot create %s: %s", path,
			util__create_output_error(fd, why, sizeof(why)));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		die_msg("diff: cannot write %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Compare and print; DIO_EXIT_FINDINGS when the diff fails, 0, or 1 (out of memory). */
static int compare(struct cmp *c, FILE *out)
{
	if (build_tables(c) || find_regressions(c) || match_findings(c) ||
	    (!c->d->json && print_text(c, out))) {
		die_msg("diff: out of memory");
		return 1;
	}
	if (c->d->json)
		print_json(c, out);
	say_failures(c);
	return c->nreg || c->nfailing ? DIO_EXIT_FINDINGS : 0;
}

/* ---- the command line ---------------------------------------------------- */

/* A pointer into argv, not a copy: -o FILE */
static int set_argv(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	*(const char **)((char *)base + d->off) = v;
	return 0;
}

/* A whole number for one of diff's own options, with the range in the message. */
static int diff_number(const struct opt_def *d, const char *v, void *base, const char *example,
		       char *err, size_t errlen)
{
	if (!parse_long(v, 0, (long)d->max, (long *)((char *)base + d->off)))
		return 0;
	snprintf(err, errlen, "--%s %s: give a whole number from 0 to %ld, e.g. --%s %s", d->name,
		 v, (long)d->max, d->name, example);
	return -EINVAL;
}

static int set_regress(void *base, const struct opt_def *d, const char *v, char *err,
		       size_t errlen)
{
	return diff_number(d, v, base, "50", err, errlen);
}

static int set_min_calls(void *base, const struct opt_def *d, const char *v, char *err,
			 size_t errlen)
{
	return diff_number(d, v, base, "100", err, errlen);
}

#define DIFF_FIELD(f)	.off = offsetof(struct diff_args, f), \
			.size = sizeof(((struct diff_args *)0)->f), .cmds = CMD_DIFF

/* dio diff's own options; it takes --analyzer, --srcroot, --fail-on, --suppress and -C too */
const struct opt_def cli_diff_opts[] = {
	{ .name = "output", .letter = 'o', .kind = OPT_CUSTOM, .set = set_argv, DIFF_FIELD(output),
	  .arg = "FILE", .help = "write the diff to FILE (default: standard output)" },
	{ .name = "format", .kind = OPT_CUSTOM, .set = optdefs__format, DIFF_FIELD(json),
	  .arg = "text|json", .help = "one JSON object instead of the tables" },
	{ .name = "fail-on-regress", .kind = OPT_CUSTOM, .set = set_regress,
	  DIFF_FIELD(regress_pct), .max = 1000000, .arg = "PCT",
	  .help = "exit 3 when calls, errors, fsyncs/s or opens/s (of\n"
		  "a row, or in all) or a p99 latency grew by more than\n"
		  "PCT percent; each such row is named on stderr" },
	{ .name = "min-calls", .kind = OPT_CUSTOM, .set = set_min_calls, DIFF_FIELD(min_calls),
	  .max = 1000000000, .arg = "N",
	  .help = "rows with fewer calls on both sides never fail and\n"
		  "show no rates; latencies are compared with N calls\n"
		  "on both sides (default " STR(DIFF_MIN_CALLS) ")" },
};

const size_t cli_diff_nopts = sizeof(cli_diff_opts) / sizeof(cli_diff_opts[0]);

/*
 * From the config, the analyzers' settings, --srcroot and --suppress hold;
 * its sinks, output and baseline are for a trace, not a diff.
 */
static void diff_config(struct options *o)
{
	options_clear_list(o, "sink");
	free(o->output);
	o->output = NULL;
	free(o->baseline);
	o->baseline = NULL;
}

int cli_parse_diff(int argc, char **argv, struct options *o, struct diff_args *d, char *err,
		   size_t errlen)
{
	const struct cli_cmd c = { .cmd = CMD_DIFF, .own = cli_diff_opts, .nown = cli_diff_nopts,
				   .own_base = d, .help_stops = 1, .after_config = diff_config };
	struct cli_given g;
	int e;

	memset(d, 0, sizeof(*d));
	d->regress_pct = -1;
	d->min_calls = DIFF_MIN_CALLS;
	e = cli_read(&c, argc, argv, o, &g, err, errlen);
	/* every analyzer unless the command line names some */
	if (!e)
		e = spec__all_analyzers(o, g.analyzer, err, errlen);
	if (!e && optind != argc - 2) {
		snprintf(err, errlen, "diff: give two trace files (dio diff before.dio after.dio)");
		e = -EINVAL;
	}
	if (!e) {
		d->file[0] = argv[optind];
		d->file[1] = argv[optind + 1];
	}
	return e;
}

int cmd_diff(int argc, char **argv)
{
	struct options o;
	struct diff_args d;
	struct side *sd[2] = { NULL, NULL };
	struct cmp c;
	uint8_t kind[DIO_NR_MAX] = { 0 };
	char err[1024];
	FILE *out = stdout;
	int code = 1, rc[2] = { 0, 0 };

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			diff_usage(stdout);
			return 0;
		}
	options_init(&o);
	code = cli_parse_diff(argc, argv, &o, &d, err, sizeof(err));
	if (code) {
		if (code == 1)
			diff_usage(stdout);
		else
			die_msg("%s", err);
		options_free(&o);
		return code == 1 ? 0 : 2;
	}
	code = 1;
	memset(&c, 0, sizeof(c));
	c.d = &d;
	/* a session would fail on any finding: a diff fails on new ones only */
	c.fail_on = o.fail_on;
	o.fail_on = -1;
	o.findings_only = 1;
	o.quiet = 1;
	o.no_summary = 1;
	o.max_findings = 0;	/* every finding: one left out would look fixed */
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct dio_syscall *sc = syscall_by_name(kinds[i].name);

		if (sc && sc->nr < DIO_NR_MAX)
			kind[sc->nr] = kinds[i].kind;
	}
	util__create_output_guard(d.file[0]);
	util__create_output_guard(d.file[1]);
	if (d.output && strcmp(d.output, "-") && !(out = open_output(d.output)))
		goto cleanup;
	for (int i = 0; i < 2; i++) {
		sd[i] = side_new(d.file[i], &o, kind);
		if (!sd[i]) {
			die_msg("diff: out of memory");
			goto cleanup;
		}
		rc[i] = read_side(sd[i], &o);
		if (!sd[i]->replayed)
			goto cleanup;
		c.sd[i] = sd[i];
	}
	code = compare(&c, out);
	/* a damaged file was compared for what it held, and said so: still a failure */
	if (rc[0] || rc[1])
		code = 1;
cleanup:
	if (out && out != stdout && fclose(out) && code != 1) {
		die_msg("diff: writing %s failed: %s", d.output, strerror(errno));
		code = 1;
	}
	for (int i = 0; i < 3; i++)
		free(c.tables[i].p);
	free(c.reg);
	free(c.fp);
	side_free(sd[0]);
	side_free(sd[1]);
	options_free(&o);
	return code;
}
