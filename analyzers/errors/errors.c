// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errors: bursts of system calls that fail the same way: a stat or open of a
 * missing file in a loop (ENOENT), a read of a non-blocking fd that spins on
 * EAGAIN, calls on a closed fd (EBADF). Failures are grouped by process,
 * system call, errno and what the call was about: the file (by tag) for calls
 * through an fd, the path argument for calls that take one, nothing else. A
 * group is counted in fixed windows that open at a failure and last window_ms;
 * a window with min_failures or more is a burst, and a group with bursts is
 * one finding, at the end of the trace (or when the group leaves its table).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/errnames.h"
#include "analyzers/common/expool.h"
#include "analyzers/common/table.h"

enum { O_WINDOW_MS, O_MIN_FAILURES, O_MAX_GROUPS, O_EXCERPTS };

static const struct dio_option options[] = {
	[O_WINDOW_MS] = { "window_ms", DIO_OPT_INT, "1000",
			  "length of a window, from the failure that opens it (ms)" },
	[O_MIN_FAILURES] = { "min_failures", DIO_OPT_INT, "100",
			     "failures of one group in one window that make a burst" },
	[O_MAX_GROUPS] = { "max_groups", DIO_OPT_INT, "4096",
			   "groups (process, call, errno, file or path) tracked" },
	[O_EXCERPTS] = { "excerpts", DIO_OPT_INT, "256",
			 "evidence excerpts kept for the groups with the most failures" },
	{ NULL, 0, NULL, NULL },
};

#define PATH_KEEP	256	/* bytes of a path argument kept for the finding */
#define EXCERPT_LINES	8
#define FD_LOOKS_MAX	(1u << 24)	/* fds are small numbers; pointers are not */

/* what a group's failures were about */
#define BY_CALL	0	/* neither a file nor a path: the call alone */
#define BY_TAG	1
#define BY_PATH	2

struct gkey {
	uint32_t pid;
	uint16_t nr;
	uint16_t err;
	uint64_t what;		/* hash of the tag or of the path; 0 for BY_CALL */
};

struct group {
	uint64_t total;		/* failures of the group, in bursts or not */
	uint64_t win_start, win_last, win_count;
	uint64_t bursts, burst_failures, burst_ns, peak;
	uint64_t ts_first, ts_last;	/* first and last failure in a burst */
	uint32_t tid, win_tid;	/* first burst's first failure; the current window's */
	uint32_t by;
	int32_t fd;		/* of the first failure */
	uint32_t ex;		/* excerpt: the current window's calls, kept once frozen */
	uint32_t frozen;	/* the excerpt holds calls of a burst */
	struct dio_file_tag tag;
	char comm[DIO_COMM_LEN], win_comm[DIO_COMM_LEN];
	char path[PATH_KEEP];
	uint32_t path_cut;
	uint32_t pad;
};

struct ref {
	const struct gkey *key;
	struct group *g;
};

struct errs {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct table groups;
	struct expool pool;
	uint64_t window_ns, min_failures;
	int err;
	struct ref *refs;
	size_t nrefs_max;
};

/* what a group is about, as a key: 0 is kept for "nothing" */
static uint64_t what_hash(const void *p, size_t n)
{
	uint64_t h = table_hash(p, n);

	return h ? h : 1;
}

/* ---- findings --------------------------------------------------------------- */

/* why this errno comes back in a loop, and what to do instead */
static const char *fix_for(int err)
{
	switch (err) {
	case ENOENT:
		return "The file is looked for again and again and is not there. Check once and "
		       "remember the answer (cache the miss), create the file before it is "
		       "polled for, or wait for it with inotify instead of polling the path.";
	case EAGAIN:
		return "The fd is non-blocking and the loop calls again at once, spinning on the "
		       "CPU. Wait until the fd is ready with poll, select or epoll (or make it "
		       "blocking) before calling again.";
	case EBADF:
		return "The fd is not open: a use after close, or a double close. Another thread "
		       "may be given the same fd number for another file in between; find where "
		       "the fd is closed early and stop using it after its close.";
	case EACCES:
	case EPERM:
		return "Permission is refused every time; retrying changes nothing. Fix the "
		       "permissions or the path, or remember the failure instead of retrying.";
	case EEXIST:
		return "The file exists already, so an exclusive create (O_EXCL, mkdir, link) "
		       "fails every time: check once, or take EEXIST as success where the file "
		       "is what was wanted.";
	case ENOTDIR:
	case EISDIR:
		return "The path names a file where a directory is expected, or a directory where "
		       "a file is: it is built wrongly, and retrying will not help.";
	case EINVAL:
		return "The arguments are invalid (an unaligned O_DIRECT buffer, a flag the file "
		       "does not support, ...); the same call will fail again: fix the call.";
	case ENOSPC:
	case EDQUOT:
		return "The file system or the quota is full; retrying at once frees nothing: "
		       "back off, free space, or fail the operation.";
	case EINTR:
		return "Signals interrupt the call over and over: install the handlers with "
		       "SA_RESTART, or find what sends so many signals.";
	case EMFILE:
	case ENFILE:
		return "No fd can be opened: fds leak, or the limit (ulimit -n) is too low for "
		       "the program.";
	default:
		return "The same call fails the same way again and again, and retrying without a "
		       "change will not succeed: find the cause once and stop retrying, or back "
		       "off between tries.";
	}
}

static const char *what_text(struct errs *s, const struct group *g, char *buf, size_t len)
{
	if (g->by == BY_TAG)
		return file_label(s->host, s->ctx, &g->tag, buf, len);
	if (g->by == BY_PATH)
		snprintf(buf, len, "\"%s\"%s", g->path, g->path_cut ? "..." : "");
	else if (g->fd >= 0)
		snprintf(buf, len, "fd %d", g->fd);
	else
		snprintf(buf, len, "no file or path");
	return buf;
}

static int report(struct errs *s, const struct gkey *k, struct group *g)
{
	struct dio_finding fd = { .size = sizeof(fd) };
	const char *call = s->host->syscall_name(k->nr), *ename = errno_name(k->err);
	char what[PATH_KEEP + 520], title[1024], msg[2048], rate[48] = "", ebuf[16], span[32];
	double secs = (double)g->burst_ns / 1e9;
	struct excerpt *x = expool_excerpt(&s->pool, g->ex);
	int err;

	if (!ename) {
		snprintf(ebuf, sizeof(ebuf), "errno %u", k->err);
		ename = ebuf;
	}
	what_text(s, g, what, sizeof(what));
	if (g->burst_ns)
		snprintf(rate, sizeof(rate), " (%.0f/s)", (double)g->burst_failures / secs);
	snprintf(title, sizeof(title), "%" PRIu64 " %s calls failed with %s in %s%s: %s",
		 g->burst_failures, call, ename, span_text(g->burst_ns, span, sizeof(span)), rate,
		 what);
	snprintf(msg, sizeof(msg),
		 "Process %u (%s) made %" PRIu64 " %s calls on %s that failed with %s, in %" PRIu64
		 " burst%s of %" PRIu64 " or more within %" PRIu64 " ms (at most %" PRIu64
		 " in one); %" PRIu64 " failed the same way in all.\n%s",
		 k->pid, g->comm, g->burst_failures, call, what, ename, g->bursts,
		 g->bursts == 1 ? "" : "s", s->min_failures, s->window_ns / 1000000, g->peak,
		 g->total, fix_for(k->err));
	fd.severity = k->err == EBADF ? DIO_SEV_ERROR : DIO_SEV_WARNING;
	fd.code = "errors.burst";
	fd.title = title;
	fd.message = msg;
	fd.pid = k->pid;
	fd.tid = g->tid;
	fd.comm = g->comm;
	if (g->by == BY_TAG) {
		fd.path = what;
		fd.tag = g->tag;
		fd.has_tag = 1;
	} else if (g->by == BY_PATH) {
		fd.path = g->path;
	}
	fd.ts_first = g->ts_first;
	fd.ts_last = g->ts_last;
	fd.count = g->burst_failures;
	if (x && x->lines) {
		/* the lines are the start of a burst: "... N more" counts the rest of them */
		if (g->frozen && g->burst_failures > x->lines)
			x->more = g->burst_failures - x->lines;
		fd.excerpt = excerpt_text(x);
	}
	err = s->host->emit_finding(s->ctx, &fd);
	if (err && !s->err)
		s->err = err;
	return err;
}

/* the current window ends: a burst if it holds enough failures */
static void window_close(struct errs *s, struct group *g)
{
	if (g->win_count < s->min_failures)
		return;
	if (!g->bursts) {
		g->ts_first = g->win_start;
		g->tid = g->win_tid;
		memcpy(g->comm, g->win_comm, sizeof(g->comm));
	}
	g->bursts++;
	g->burst_failures += g->win_count;
	g->burst_ns += g->win_last - g->win_start;
	g->ts_last = g->win_last;
	if (g->win_count > g->peak)
		g->peak = g->win_count;
	g->win_count = 0;
}

static void evicted(void *key, void *val, void *ud)
{
	struct errs *s = ud;
	struct group *g = val;

	window_close(s, g);
	if (g->bursts)
		report(s, key, g);
	expool_put(&s->pool, g->ex);
}

static void on_release(const void *owner, void *ud)
{
	struct errs *s = ud;
	struct group *g = table_get(&s->groups, owner);

	if (g)
		g->ex = g->frozen = 0;
}

/* ---- init ------------------------------------------------------------------- */

static void errs_destroy(void *state)
{
	struct errs *s = state;

	if (!s)
		return;
	table_free(&s->groups);
	expool_free(&s->pool);
	free(s->refs);
	free(s);
}

static int errs_init(const struct dio_host *host, struct dio_ctx *ctx,
		     const struct dio_optval *o, void **state)
{
	struct errs *s = calloc(1, sizeof(*s));
	int err = -EINVAL;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	if (o[O_WINDOW_MS].i < 1 || o[O_WINDOW_MS].i > 86400000 || o[O_MIN_FAILURES].i < 1 ||
	    o[O_MAX_GROUPS].i < 1 || o[O_MAX_GROUPS].i > (1 << 30) || o[O_EXCERPTS].i < 0 ||
	    o[O_EXCERPTS].i > 65536) {
		host->log(ctx, "window_ms must be from 1 to 86400000, min_failures at least 1, "
			  "max_groups from 1 to %d, excerpts from 0 to 65536", 1 << 30);
		goto cleanup;
	}
	s->window_ns = (uint64_t)o[O_WINDOW_MS].i * 1000000;
	s->min_failures = (uint64_t)o[O_MIN_FAILURES].i;
	err = table_init(&s->groups, sizeof(struct gkey), sizeof(struct group),
			 (size_t)o[O_MAX_GROUPS].i);
	if (!err)
		err = expool_init(&s->pool, (uint32_t)o[O_EXCERPTS].i, sizeof(struct gkey));
	if (err)
		goto cleanup;
	s->groups.evict = evicted;
	s->groups.ud = s->pool.ud = s;
	s->pool.release = on_release;
	s->nrefs_max = (size_t)o[O_MAX_GROUPS].i;
	s->refs = calloc(s->nrefs_max, sizeof(*s->refs));
	if (!s->refs) {
		err = -ENOMEM;
		goto cleanup;
	}
	*state = s;
	return 0;
cleanup:
	errs_destroy(s);
	return err;
}

/* ---- events ----------------------------------------------------------------- */

/* the first string argument, when the record holds a non-empty one */
static const char *path_arg(const struct dio_ev_syscall *e)
{
	const char *p = (const char *)(e + 1);

	if (e->str_len[0] < 2 || (e->flags & DIO_SF_STR0_FAULT) ||
	    sizeof(*e) + e->str_len[0] > e->hdr.size || p[e->str_len[0] - 1])
		return NULL;
	return p;
}

static int errs_event(void *state, const struct dio_ev_hdr *ev)
{
	struct errs *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	const char *path = NULL;
	struct gkey k;
	struct group *g;
	struct excerpt *x;
	int created;

	if (ev->type != DIO_EV_SYSCALL || !call_failed(e->ret))
		return s->err;
	memset(&k, 0, sizeof(k));
	k.pid = e->pid;
	k.nr = e->nr;
	k.err = (uint16_t)-e->ret;
	if (e->flags & DIO_SF_FILE)
		k.what = what_hash(&e->tag, sizeof(e->tag));
	else if ((path = path_arg(e)))
		k.what = what_hash(path, strlen(path));
	g = table_put(&s->groups, &k, &created);
	if (created) {
		g->by = (e->flags & DIO_SF_FILE) ? BY_TAG : path ? BY_PATH : BY_CALL;
		g->tag = e->tag;
		/* the first argument, when it looks like an fd (not a pointer) */
		g->fd = e->args[0] < FD_LOOKS_MAX ? (int32_t)e->args[0] : -1;
		if (path) {
			size_t n = strlen(path);

			g->path_cut = n >= sizeof(g->path) ||
				      (e->flags & DIO_SF_STR0_TRUNC);
			snprintf(g->path, sizeof(g->path), "%s", path);
		}
	}
	g->total++;
	if (g->win_count && e->hdr.ts - g->win_start < s->window_ns) {
		g->win_count++;
		g->win_last = e->hdr.ts;
	} else {
		window_close(s, g);
		g->win_start = g->win_last = e->hdr.ts;
		g->win_count = 1;
		g->win_tid = e->tid;
		memcpy(g->win_comm, e->comm, sizeof(g->win_comm));
		if (g->ex && !g->frozen)
			excerpt_reset(expool_excerpt(&s->pool, g->ex));
	}
	if (!g->ex && expool_worth_asking(g->total))
		g->ex = expool_take(&s->pool, &k, g->total);	/* release only gets */
	expool_score(&s->pool, g->ex, g->total);
	x = expool_excerpt(&s->pool, g->ex);
	if (x && !g->frozen) {
		excerpt_add(x, s->host, s->ctx, ev, EXCERPT_LINES);
		g->frozen = g->win_count >= s->min_failures;
	}
	return s->err;
}

/* ---- finish ----------------------------------------------------------------- */

struct collect {
	struct errs *s;
	size_t n;
};

static void collect(void *key, void *val, void *ud)
{
	struct collect *c = ud;
	struct group *g = val;

	window_close(c->s, g);
	if (g->bursts && c->n < c->s->nrefs_max)
		c->s->refs[c->n++] = (struct ref){ key, g };
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* first burst first; the rest of the key breaks ties, so the table's layout never shows */
static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = cmp_u64(x->g->ts_first, y->g->ts_first);

	if (!c)
		c = cmp_u64(x->key->pid, y->key->pid);
	if (!c)
		c = cmp_u64(x->key->nr, y->key->nr);
	if (!c)
		c = cmp_u64(x->key->err, y->key->err);
	return c ? c : cmp_u64(x->key->what, y->key->what);
}

static int errs_finish(void *state)
{
	struct errs *s = state;
	struct collect c = { s, 0 };

	table_each(&s->groups, collect, &c);
	qsort(s->refs, c.n, sizeof(*s->refs), ref_cmp);
	for (size_t i = 0; i < c.n; i++)
		report(s, s->refs[i].key, s->refs[i].g);
	return s->err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "errors",
	.description = "bursts of calls failing the same way: ENOENT storms, EAGAIN spins, EBADF",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = options,
	.init = errs_init,
	.event = errs_event,
	.finish = errs_finish,
	.destroy = errs_destroy,
};
