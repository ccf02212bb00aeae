// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errors: bursts of system calls that fail the same way: a stat or open of a
 * missing file in a loop (ENOENT), a read of a non-blocking fd that spins on
 * EAGAIN, calls on a closed fd (EBADF), writes that meet a full disk. Failures
 * are grouped by process, system call, errno and what the call was about: the
 * file (by tag) for calls through an fd, the path argument for calls that take
 * one, nothing else. A group is counted in fixed windows that open at a
 * failure and last window_ms; a window with min_failures or more is a burst.
 * The groups with bursts of one process are one finding, at the end of the
 * trace, that names the worst of them; a group that leaves its table first is
 * kept in its process's summary until then.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/expool.h"
#include "analyzers/common/table.h"

enum { O_WINDOW_MS, O_MIN_FAILURES, O_MAX_GROUPS, O_EXCERPTS, O_MAX_PROCS, O_MAX_FDS };

static const struct dio_option options[] = {
	[O_WINDOW_MS] = { "window_ms", DIO_OPT_INT, "1000",
			  "length of a window, from the failure that opens it (ms)" },
	[O_MIN_FAILURES] = { "min_failures", DIO_OPT_INT, "100",
			     "failures of one group in one window that make a burst" },
	[O_MAX_GROUPS] = { "max_groups", DIO_OPT_INT, "4096",
			   "groups (process, call, errno, file or path) tracked" },
	[O_EXCERPTS] = { "excerpts", DIO_OPT_INT, "256",
			 "evidence excerpts kept for the groups with the most failures" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "64",
			  "processes that keep the groups pushed out of the group table" },
	[O_MAX_FDS] = { "max_fds", DIO_OPT_INT, "4096",
			"fds followed to know whether a failing close came after writes" },
	{ NULL, 0, NULL, NULL },
};

/* the code, as README.md explains it */
static const struct dio_rule rules[] = {
	{
		"errors.burst", DIO_SEV_WARNING, 0,
		"A system call that fails the same way again and again",
		"At least min_failures (100) failures within window_ms (1000 ms) of the same "
		"system call with the same errno on the same file or path, in one process; one "
		"finding per process. An error rather than a warning when writes or syncs (or a "
		"close after writes) failed with EIO, ENOSPC, EDQUOT, EBADF or EFBIG: their data "
		"likely did not reach the file.",
		"One failure is normal; hundreds a second of the same one are a program retrying "
		"without changing anything, which burns CPU and system calls, often hides a bug, "
		"and when the calls were writes, loses data: after a failed fsync, only writing "
		"the data again is a safe retry.\n\n"
		"Find the cause once and stop retrying, or back off. ENOENT: check once and "
		"remember the answer, create the file first, or wait with inotify. EAGAIN: wait "
		"with poll, select or epoll instead of spinning. EBADF: find where the fd is "
		"closed early. ENOSPC, EDQUOT: back off, free space, or fail the operation.",
	},
	TABLE_FULL_RULE("errors", "max_groups, max_procs, max_fds"),
	{ NULL, 0, 0, NULL, NULL, NULL },
};

#define PATH_KEEP	256	/* bytes of a path argument kept for the finding */
#define WHAT_KEEP	(PATH_KEEP + 8)	/* what a group was about, as a finding names it */
#define EXCERPT_LINES	8
#define FD_LOOKS_MAX	(1u << 24)	/* fds are small numbers; pointers are not */
#define TOP		5	/* groups a finding names */

/* what a group's failures were about */
#define BY_CALL	0	/* neither a file nor a path: the call alone */
#define BY_TAG	1
#define BY_PATH	2

struct gkey {
	uint32_t pid;
	uint16_t nr;
	uint16_t err;
	uint64_t what;		/* hash of the tag or of the path; 0 for BY_CALL */
	uint32_t lost;		/* the data of the calls likely did not reach the file */
	uint32_t pad;
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

/* a group among the worst of its process */
struct item {
	uint64_t n, bursts, peak, total;
	uint32_t sev;
	uint16_t nr, err;
	char what[WHAT_KEEP];
};

/* the groups with bursts of one process, added up, and its worst */
struct proc {
	uint64_t n, bursts, total, burst_ns, groups;
	uint64_t ts_first, ts_last;
	uint32_t sev;		/* the highest of its groups */
	uint32_t same;		/* SAME_* its groups all share */
	uint16_t nr, err;	/* of the first group */
	uint32_t by, sev0;	/* of the first group */
	struct item top[TOP];	/* worst first: severity, then failures; of equals the first */
	/* the worst group's evidence */
	uint32_t tid, has_tag;
	char comm[DIO_COMM_LEN];
	struct dio_file_tag tag;
	char path[WHAT_KEEP];
	uint32_t has_x, pad;
	struct excerpt x;
};

#define SAME_NR		0x1
#define SAME_ERR	0x2
#define SAME_BY		0x4
#define SAME_SEV	0x8

struct ref {
	const struct gkey *key;
	struct group *g;
};

/* a process to report: its groups still in the table are refs[ref0, ref0 + nrefs) */
struct pref {
	uint64_t first;
	size_t ref0, nrefs;
	uint32_t pid, pad;
};

struct errs {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	struct table groups, procs, written;
	struct expool pool;
	uint64_t window_ns, min_failures;
	int err;
	struct ref *refs;
	struct pref *prefs;
	size_t nrefs_max, nprefs_max;
	struct proc scratch;	/* the process being reported */
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

/* said first of a group whose data likely did not reach its file */
static const char *const lost_text =
	"These calls write or sync data: what they carried likely did not reach the file, "
	"and after a failed fsync the kernel may have dropped the unwritten pages, so only "
	"writing them again is a safe retry. ";

static const char *what_text(struct errs *s, const struct group *g, char *buf, size_t len)
{
	if (g->by == BY_TAG)
		return file_label(s->host, s->ctx, &g->tag, buf, len);
	if (g->by == BY_PATH) {
		char esc[PATH_KEEP];

		/* cut shorter than buf, so that the closing quote always fits */
		dio_escape(g->path, sizeof(g->path), DIO_ESC_QUOTE, esc, sizeof(esc));
		snprintf(buf, len, "\"%s\"%s", esc, g->path_cut ? "..." : "");
	}
	else if (g->fd >= 0)
		snprintf(buf, len, "fd %d", g->fd);
	else
		snprintf(buf, len, "no file or path");
	return buf;
}

/* "ENOENT" from the host's table; "errno N" for a number it has no name for */
static const char *err_text(const struct errs *s, int err, char *buf, size_t len)
{
	const char *name = DIO_HOST_HAS(s->host, name_of) ?
			   s->host->name_of(s->ctx, DIO_NAME_ERRNO, (uint32_t)err) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "errno %d", err);
	return buf;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* what the groups of p are about, for "on N ..." */
static const char *things(const struct proc *p)
{
	if (!(p->same & SAME_BY))
		return "files, paths or fds";
	return p->by == BY_TAG ? "files" : p->by == BY_PATH ? "paths" : "fds";
}

/* the title of a process's finding: as a group's when it has one */
static void title_of(struct errs *s, const struct proc *p, char *buf, size_t len)
{
	const struct item *w = &p->top[0];
	const char *most = (p->same & SAME_SEV) ? "most" : "worst";
	char rate[48] = "", span[32], e1[16];
	const char *call = s->host->syscall_name(w->nr);
	const char *ename = err_text(s, w->err, e1, sizeof(e1));

	if (p->burst_ns)
		snprintf(rate, sizeof(rate), " (%.0f/s)",
			 (double)p->n / ((double)p->burst_ns / 1e9));
	span_text(p->burst_ns, span, sizeof(span));
	if (p->groups == 1)
		snprintf(buf, len, "%" PRIu64 " %s calls failed with %s in %s%s: %s", p->n, call,
			 ename, span, rate, w->what);
	else if ((p->same & SAME_NR) && (p->same & SAME_ERR))
		snprintf(buf, len, "%" PRIu64 " %s calls failed with %s in %s%s on %" PRIu64
			 " %s, %s on %s", p->n, call, ename, span, rate, p->groups, things(p), most,
			 w->what);
	else
		snprintf(buf, len, "%" PRIu64 " calls failed in %" PRIu64 " ways in %s%s, %s %"
			 PRIu64 " %s calls with %s on %s", p->n, p->groups, span, rate, most, w->n,
			 call, ename, w->what);
}

static int report(struct errs *s, uint32_t pid, const struct proc *p)
{
	struct dio_finding fd = { .size = sizeof(fd) };
	const struct item *w = &p->top[0];
	char title[1024], msg[4096], e1[16], comm[COMM_LABEL_LEN];
	size_t at;
	int err;

	title_of(s, p, title, sizeof(title));
	comm_label(p->comm, comm);
	if (p->groups == 1) {
		at = (size_t)snprintf(msg, sizeof(msg),
				      "Process %u (%s) made %" PRIu64 " %s calls on %s that failed with "
				      "%s, in %" PRIu64 " burst%s of %" PRIu64 " or more within %" PRIu64
				      " ms (at most %" PRIu64 " in one); %" PRIu64
				      " failed the same way in all.\n",
				      pid, comm, p->n, s->host->syscall_name(w->nr), w->what,
				      err_text(s, w->err, e1, sizeof(e1)), p->bursts,
				      plural(p->bursts), s->min_failures, s->window_ns / 1000000,
				      w->peak, p->total);
	} else {
		at = (size_t)snprintf(msg, sizeof(msg),
				      "Process %u (%s) made %" PRIu64 " calls that failed in bursts of %"
				      PRIu64 " or more within %" PRIu64 " ms, in %" PRIu64 " ways "
				      "(call, errno, file or path); %" PRIu64 " failed the same ways "
				      "in all. The worst:\n",
				      pid, comm, p->n, s->min_failures, s->window_ns / 1000000,
				      p->groups, p->total);
		for (int i = 0; i < TOP && (uint64_t)i < p->groups && at < sizeof(msg); i++) {
			const struct item *t = &p->top[i];

			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  %" PRIu64 " %s calls with %s on %s%s: %" PRIu64
					       " burst%s, at most %" PRIu64 " in one, %" PRIu64
					       " in all\n",
					       t->n, s->host->syscall_name(t->nr),
					       err_text(s, t->err, e1, sizeof(e1)), t->what,
					       t->sev == DIO_SEV_ERROR ? " (data likely lost)" : "",
					       t->bursts, plural(t->bursts), t->peak, t->total);
		}
		if (p->groups > TOP && at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  and %" PRIu64 " more ways\n", p->groups - TOP);
	}
	if (at < sizeof(msg))
		snprintf(msg + at, sizeof(msg) - at, "%s%s",
			 w->sev == DIO_SEV_ERROR ? lost_text : "", fix_for(w->err));
	fd.severity = p->sev;
	fd.code = "errors.burst";
	fd.title = title;
	fd.message = msg;
	fd.pid = pid;
	fd.tid = p->tid;
	fd.comm = p->comm;
	fd.path = p->path[0] ? p->path : NULL;
	fd.tag = p->tag;
	fd.has_tag = p->has_tag;
	fd.ts_first = p->ts_first;
	fd.ts_last = p->ts_last;
	fd.count = p->n;
	fd.excerpt = p->has_x ? p->x.text : NULL;
	err = s->host->emit_finding(s->ctx, &fd);
	if (err && !s->err)
		s->err = err;
	return err;
}

/* ---- groups into their processes ----------------------------------------------- */

/* a group with bursts joins the summary of its process */
static void fold(struct errs *s, struct proc *p, const struct gkey *k, struct group *g)
{
	struct item it = { .n = g->burst_failures, .bursts = g->bursts, .peak = g->peak,
			   .total = g->total, .nr = k->nr, .err = k->err,
			   .sev = k->lost ? DIO_SEV_ERROR : DIO_SEV_WARNING };
	struct excerpt *x = expool_excerpt(&s->pool, g->ex);
	int at = 0;

	what_text(s, g, it.what, sizeof(it.what));
	if (!p->groups++) {
		p->nr = k->nr;
		p->err = k->err;
		p->by = g->by;
		p->sev0 = it.sev;
		p->same = SAME_NR | SAME_ERR | SAME_BY | SAME_SEV;
		p->ts_first = g->ts_first;
	}
	if (k->nr != p->nr)
		p->same &= ~(uint32_t)SAME_NR;
	if (k->err != p->err)
		p->same &= ~(uint32_t)SAME_ERR;
	if (g->by != p->by)
		p->same &= ~(uint32_t)SAME_BY;
	if (it.sev != p->sev0)
		p->same &= ~(uint32_t)SAME_SEV;
	p->n += g->burst_failures;
	p->bursts += g->bursts;
	p->total += g->total;
	p->burst_ns += g->burst_ns;
	if (g->ts_first < p->ts_first)
		p->ts_first = g->ts_first;
	if (g->ts_last > p->ts_last)
		p->ts_last = g->ts_last;
	if (it.sev > p->sev)
		p->sev = it.sev;
	while (at < TOP && at < (int)p->groups - 1 &&
	       (p->top[at].sev > it.sev || (p->top[at].sev == it.sev && p->top[at].n >= it.n)))
		at++;
	if (at == TOP)
		return;
	memmove(&p->top[at + 1], &p->top[at], (TOP - 1 - (size_t)at) * sizeof(p->top[0]));
	p->top[at] = it;
	if (at)
		return;
	p->tid = g->tid;
	memcpy(p->comm, g->comm, sizeof(p->comm));
	p->has_tag = g->by == BY_TAG;
	p->tag = p->has_tag ? g->tag : (struct dio_file_tag){ 0 };
	if (g->by == BY_TAG) {
		/* the path as it is: it.what is escaped for the text */
		const char *path = s->host->tag_path(s->ctx, &g->tag);

		snprintf(p->path, sizeof(p->path), "%s", path ? path : it.what);
	}
	else if (g->by == BY_PATH)
		snprintf(p->path, sizeof(p->path), "%s", g->path);
	else
		p->path[0] = 0;
	p->has_x = x && x->lines;
	if (p->has_x) {
		p->x = *x;
		/* the lines are the start of a burst: "... N more" counts the rest of them */
		if (g->frozen && g->burst_failures > p->x.lines)
			p->x.more = g->burst_failures - p->x.lines;
		excerpt_text(&p->x);
	}
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

/* a group pushed out of its table: into its process's summary if it had a burst */
static void evicted(void *key, void *val, void *ud)
{
	struct errs *s = ud;
	const struct gkey *k = key;
	struct group *g = val;

	window_close(s, g);
	if (g->bursts)
		fold(s, table_put(&s->procs, &k->pid, NULL), k, g);
	expool_put(&s->pool, g->ex);
}

/* a summary pushed out of its table: reported now */
static void proc_evicted(void *key, void *val, void *ud)
{
	report(ud, *(const uint32_t *)key, val);
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
	table_free(&s->procs);
	table_free(&s->written);
	expool_free(&s->pool);
	free(s->refs);
	free(s->prefs);
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
	    o[O_EXCERPTS].i > 65536 || o[O_MAX_PROCS].i < 1 || o[O_MAX_PROCS].i > (1 << 20) ||
	    o[O_MAX_FDS].i < 1 || o[O_MAX_FDS].i > (1 << 24)) {
		host->log(ctx, "window_ms must be from 1 to 86400000, min_failures at least 1, "
			  "max_groups from 1 to %d, excerpts from 0 to 65536, max_procs from 1 to %d, "
			  "max_fds from 1 to %d", 1 << 30, 1 << 20, 1 << 24);
		goto cleanup;
	}
	s->window_ns = (uint64_t)o[O_WINDOW_MS].i * 1000000;
	s->min_failures = (uint64_t)o[O_MIN_FAILURES].i;
	err = table_init(&s->groups, sizeof(struct gkey), sizeof(struct group),
			 (size_t)o[O_MAX_GROUPS].i);
	if (!err)
		err = table_init(&s->procs, sizeof(uint32_t), sizeof(struct proc),
				 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = table_init(&s->written, sizeof(uint64_t), sizeof(uint64_t),
				 (size_t)o[O_MAX_FDS].i);
	if (!err)
		err = expool_init(&s->pool, (uint32_t)o[O_EXCERPTS].i, sizeof(struct gkey));
	if (err)
		goto cleanup;
	s->groups.evict = evicted;
	s->groups.ud = s->procs.ud = s->pool.ud = s;
	s->procs.evict = proc_evicted;
	s->pool.release = on_release;
	s->nrefs_max = (size_t)o[O_MAX_GROUPS].i;
	s->nprefs_max = s->nrefs_max + (size_t)o[O_MAX_PROCS].i;
	s->refs = calloc(s->nrefs_max, sizeof(*s->refs));
	s->prefs = calloc(s->nprefs_max, sizeof(*s->prefs));
	if (!s->refs || !s->prefs) {
		err = -ENOMEM;
		goto cleanup;
	}
	call_kinds_init(&s->kinds, host);
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
	const char *p = dio_ev_syscall_str(e, 0);

	return p && p[0] ? p : NULL;
}

/* (pid, fd) as a key of the table of fds written to */
static uint64_t fd_key(uint32_t pid, uint64_t fd)
{
	return (uint64_t)pid << 32 | (uint32_t)fd;
}

/*
 * Follow which fds were written to since they were opened, and say whether a
 * failure likely lost data: a write or sync that failed with an errno that
 * means the data did not get to the file, or a close that did after writes
 * (NFS and some FUSE file systems report write-back errors at close).
 */
static int lost_data(struct errs *s, const struct dio_ev_syscall *e)
{
	enum call_kind kind = call_kind(&s->kinds, e->nr);
	int failed = call_failed(e->ret), err = failed ? (int)-e->ret : 0, wrote = 0;
	uint64_t key = fd_key(e->pid, e->args[0]);

	if (kind == CALL_OPEN) {
		if (!failed && e->ret >= 0) {
			key = fd_key(e->pid, (uint64_t)e->ret);
			table_del(&s->written, &key);
		}
		return 0;
	}
	if (kind == CALL_WRITE && !failed) {
		if (e->args[0] < FD_LOOKS_MAX)
			++*(uint64_t *)table_put(&s->written, &key, NULL);
		return 0;
	}
	if (kind == CALL_CLOSE) {
		wrote = s->written.n && table_get(&s->written, &key);
		table_del(&s->written, &key);
	}
	if (!failed || (err != EIO && err != ENOSPC && err != EDQUOT && err != EBADF && err != EFBIG))
		return 0;
	return kind == CALL_WRITE || kind == CALL_SYNC || (kind == CALL_CLOSE && wrote);
}

static int errs_event(void *state, const struct dio_ev_hdr *ev)
{
	struct errs *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	const char *path = NULL;
	struct gkey k;
	struct group *g;
	struct excerpt *x;
	int created, lost;

	if (ev->type != DIO_EV_SYSCALL)
		return s->err;
	lost = lost_data(s, e);
	if (!call_failed(e->ret))
		return s->err;
	memset(&k, 0, sizeof(k));
	k.pid = e->pid;
	k.nr = e->nr;
	k.err = (uint16_t)-e->ret;
	k.lost = (uint32_t)lost;
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

/* by process, then first burst first; the rest of the key breaks ties */
static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = cmp_u64(x->key->pid, y->key->pid);

	if (!c)
		c = cmp_u64(x->g->ts_first, y->g->ts_first);
	if (!c)
		c = cmp_u64(x->key->nr, y->key->nr);
	if (!c)
		c = cmp_u64(x->key->err, y->key->err);
	if (!c)
		c = cmp_u64(x->key->lost, y->key->lost);
	return c ? c : cmp_u64(x->key->what, y->key->what);
}

/* processes in the order of their first burst, then by pid */
static int pref_cmp(const void *a, const void *b)
{
	const struct pref *x = a, *y = b;
	int c = cmp_u64(x->first, y->first);

	return c ? c : cmp_u64(x->pid, y->pid);
}

static int pref_pid_cmp(const void *key, const void *elt)
{
	return cmp_u64(*(const uint32_t *)key, ((const struct pref *)elt)->pid);
}

struct summaries {
	struct errs *s;
	size_t n, with_groups;
};

/* a summary of a process whose groups are all gone from the table, or its first burst */
static void add_summary(void *key, void *val, void *ud)
{
	struct summaries *c = ud;
	const struct proc *p = val;
	struct pref *in = bsearch(key, c->s->prefs, c->with_groups, sizeof(*c->s->prefs),
				  pref_pid_cmp);

	if (in) {
		if (p->ts_first < in->first)
			in->first = p->ts_first;
		return;
	}
	c->s->prefs[c->n++] = (struct pref){ .first = p->ts_first, .pid = *(const uint32_t *)key };
}

static int errs_finish(void *state)
{
	struct errs *s = state;
	struct collect c = { s, 0 };
	struct summaries sum = { s, 0, 0 };

	table_each(&s->groups, collect, &c);
	qsort(s->refs, c.n, sizeof(*s->refs), ref_cmp);
	for (size_t i = 0; i < c.n; i++) {
		if (!sum.n || s->prefs[sum.n - 1].pid != s->refs[i].key->pid)
			s->prefs[sum.n++] = (struct pref){ .first = s->refs[i].g->ts_first,
							   .ref0 = i, .pid = s->refs[i].key->pid };
		s->prefs[sum.n - 1].nrefs++;
		if (s->refs[i].g->ts_first < s->prefs[sum.n - 1].first)
			s->prefs[sum.n - 1].first = s->refs[i].g->ts_first;
	}
	sum.with_groups = sum.n;
	table_each(&s->procs, add_summary, &sum);
	qsort(s->prefs, sum.n, sizeof(*s->prefs), pref_cmp);
	for (size_t i = 0; i < sum.n; i++) {
		const struct pref *r = &s->prefs[i];
		const struct proc *kept = table_get(&s->procs, &r->pid);

		if (kept)
			s->scratch = *kept;
		else
			memset(&s->scratch, 0, sizeof(s->scratch));
		for (size_t j = r->ref0; j < r->ref0 + r->nrefs; j++)
			fold(s, &s->scratch, s->refs[j].key, s->refs[j].g);
		report(s, r->pid, &s->scratch);
	}
	if (!s->err) {
		const struct table_use u[] = {
			/* a group pushed out is kept in its process's tally: only that one counts */
			TABLE_USE(&s->procs, "processes with groups pushed out", "max_procs"),
			TABLE_USE(&s->written, "fds followed for writes", "max_fds"),
		};

		s->err = tables_report(s->host, s->ctx, rules[1].code, "errors", u,
				       sizeof(u) / sizeof(u[0]));
	}
	return s->err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "errors",
	.description = "bursts of calls failing the same way, per process: ENOENT storms, EAGAIN "
		       "spins, EBADF, writes that lose data",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = options,
	.init = errs_init,
	.event = errs_event,
	.finish = errs_finish,
	.destroy = errs_destroy,
	.rules = rules,
};
