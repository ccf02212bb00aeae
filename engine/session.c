// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "config.h"
#include "decode.h"
#include "dispatch.h"
#include "format.h"
#include "host.h"
#include "loss.h"
#include "modules.h"
#include "selfstats.h"
#include "plugin.h"
#include "probe.h"
#include "proc.h"
#include "record.h"
#include "session.h"
#include "syscalls.h"
#include "tracefile.h"
#include "findings.h"
#include "util.h"
#include "verdict.h"

#define SWEEP_MS	1000		/* the in-flight tables are swept this often */
#define SWEEP_EXITS	64		/* or after this many processes ended */
#define BLOCK_AGE_NS	(60 * 1000000000ULL)	/* a block request older was never seen completing */
#define BLOCK_END_AGE_NS 1000000000ULL		/* the same when the trace ends */

struct session {
	struct options *o;
	struct probe *probe;
	struct modules *m;
	struct verdict *v;
	struct dispatch *d;
	struct host *h;
	struct selfstats *stats;	/* --stats, while tracing live */
};


static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void on_sigchld(int sig)
{
	(void)sig;	/* only to interrupt the poll */
}

void session__on_finding(struct session *s, int (*cb)(void *ud, const struct dio_finding *f),
			 void *ud)
{
	verdict__on_finding(s->v, cb, ud);
}

int session__machine(struct session *s, const struct dio_finding *f)
{
	return verdict__machine(s->v, f);
}

const char *session__info(const struct session *s, const char *key)
{
	return host__info(s->h, key);
}

int session__set_info(struct session *s, const char *key, const char *val)
{
	return host__set_info(s->h, key, val);
}

/* ---- setting up ---------------------------------------------------------- */

struct session *session__new(struct options *o, char *err, size_t errlen)
{
	struct session *s = calloc(1, sizeof(*s));
	int e = 0;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	s->o = o;
	s->m = modules__new();
	if (!s->m) {
		e = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	s->d = dispatch__new(o, s->m);
	if (!s->d) {
		e = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	s->v = verdict__new(o, s->m, err, errlen);
	if (!s->v) {
		e = -errno;
		goto fail;
	}
	/* a session whose records were recorded before: its facts are the recording's */
	s->h = host__new(o, s->d, s->v, !!o->recorded_info);
	if (!s->h) {
		e = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (o->recorded_info)
		o->recorded_info(s, o->recorded_ud);
	e = modules__start(s->m, o, &host_table, s->h, err, errlen);
	if (!e && (e = dispatch__start(s->d)))
		snprintf(err, errlen, "out of memory");
	if (e)
		goto fail;
	return s;
fail:
	session__free(s);
	errno = e < 0 ? -e : EINVAL;
	return NULL;
}

void session__free(struct session *s)
{
	if (!s)
		return;
	if (s->d)	/* a module's destroy may still ask for the counts */
		dispatch__set_probe(s->d, NULL);
	probe__free(s->probe);
	selfstats__free(s->stats);
	modules__free(s->m);
	dispatch__free(s->d);
	host__free(s->h);
	verdict__free(s->v);
	free(s);
}

/* ---- records ------------------------------------------------------------- */

int session__dispatch(struct session *s, const void *rec, size_t size)
{
	return dispatch__record(s->d, rec, size);
}

void session__record_to(struct session *s, int (*add)(void *ud, const void *rec, size_t size),
			 int (*tick)(void *ud),
			 void (*lost)(void *ud, uint64_t *dropped, uint32_t *cause), void *ud)
{
	dispatch__record_to(s->d, add, tick, lost, ud);
}

void session__set_realtime_off(struct session *s, int64_t off)
{
	host__set_realtime_off(s->h, off);
}

int64_t session__realtime_off(const struct session *s)
{
	return host__realtime_off(s->h);
}

struct selfstats *session__selfstats(const struct session *s)
{
	return s->stats;
}

const struct features *session__features(const struct session *s)
{
	return s->probe ? probe__features(s->probe) : NULL;
}

/* a sink that cannot write out (disk full) has said why; dio must not then exit 0 */
static void flush_sinks(struct session *s)
{
	if (modules__flush(s->m))
		dispatch__fail(s->d);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static int finish_analyzers(struct session *s)
{
	uint64_t span[2];
	int e, ret = 0;

	/* the events so far before any table an analyzer writes (-o FILE holds both) */
	flush_sinks(s);
	ret = dispatch__end(s->d);
	e = modules__finish_analyzers(s->m);
	if (e)
		ret = e;
	verdict__end(s->v);
	dispatch__span(s->d, span);
	host__end(s->h, span);
	e = modules__finish_sinks(s->m);
	if (e)
		ret = e;
	flush_sinks(s);
	return ret;
}

int session__finish(struct session *s)
{
	int e = finish_analyzers(s);

	dispatch__report_loss(s->d);
	return e || dispatch__failed(s->d);
}

uint64_t session__malformed(const struct session *s)
{
	return dispatch__malformed(s->d);
}

uint64_t session__dropped(struct session *s)
{
	return dispatch__dropped(s->d);
}

int session__loss_text(struct session *s, char *buf, size_t len)
{
	return dispatch__loss_text(s->d, buf, len);
}

const char *session__tag_path(struct session *s, const struct dio_file_tag *tag)
{
	return dispatch__tag_path(s->d, tag);
}

static int meta_get(const void *r, const char *key, char *buf, size_t len)
{
	return tf_reader__meta_get(r, key, buf, len);
}

void session__filter(struct session *s, int (*keep)(void *ud, const struct dio_ev_hdr *h),
		     void *ud)
{
	dispatch__filter(s->d, keep, ud);
}

/* every record next gives to the modules: 0, or 1 when a record or the reading failed */
static int dispatch_all(struct session *s, int (*next)(void *ud, const void **rec, size_t *size),
			void *ud, const char *what)
{
	const void *rec;
	size_t size;
	int e;

	while ((e = next(ud, &rec, &size)) == 1)
		if (session__dispatch(s, rec, size) < 0)
			return 1;
	if (e < 0) {
		die_msg("reading %s failed: %s", what, strerror(-e));
		return 1;
	}
	return 0;
}

int session__replay_from(struct session *s, int (*next)(void *ud, const void **rec, size_t *size),
			 void *ud, const char *what)
{
	int code = dispatch_all(s, next, ud, what);

	return verdict__status(s->v, session__finish(s) || code);
}

static int next_record(void *ud, const void **rec, size_t *size)
{
	return tf_reader__next(ud, rec, size);
}

int session__replay(struct session *s, struct tf_reader *r)
{
	int code = dispatch_all(s, next_record, r, "the trace file");

	/* the recording's losses, from the metadata its writer appended at the end */
	loss__add_meta(dispatch__loss(s->d), meta_get, r);
	return verdict__status(s->v, session__finish(s) || code);
}

int session__trace(struct session *s)
{
	struct options *o = s->o;
	struct sigaction sa = { .sa_handler = on_signal }, sc = { .sa_handler = on_sigchld };
	struct child child = { .pid = -1, .gate = -1 };
	char err[1024];
	uint64_t start, last_check = 0, last_sweep;
	int e, status = 0, code = 0, child_done = 0;

	/* no SA_RESTART: a signal must end the poll so the loop sees it */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sc, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (procs_check_ids(o))
		return 1;
	/* the kernel's BPF statistics count from before the programs run */
	if (o->stats && !(s->stats = selfstats__new())) {
		die_msg("--stats: out of memory");
		return 1;
	}
	if (o->argv) {
		e = child__spawn(&child, o->argv, err, sizeof(err));
		if (e) {
			die_msg("%s", err);
			return 127;
		}
	}
	dispatch__set_stats(s->d, s->stats);
	s->probe = probe__new(o, dispatch__ring, s->d, err, sizeof(err));
	if (!s->probe) {
		die_msg("%s", err);
		child__abort(&child);
		return 1;
	}
	dispatch__set_probe(s->d, s->probe);
	for (int i = 0; i < o->npids; i++) {
		e = probe__trace_pid(s->probe, o->pids[i]);
		if (e) {
			die_msg("cannot trace process %d: %s", o->pids[i], strerror(-e));
			child__abort(&child);
			return 1;
		}
	}
	if (child.pid > 0) {
		e = probe__trace_pid(s->probe, child.pid);
		if (!e)
			e = child__release(&child);
		if (e) {
			die_msg("cannot start the command: %s", strerror(-e));
			child__abort(&child);
			return 1;
		}
	}
	start = last_sweep = now_ms();
	if (s->stats)
		selfstats__consumer_start(s->stats);
	while (!stop_signal) {
		e = probe__poll(s->probe, o->drain_ms);
		if (s->stats)
			selfstats__poll(s->stats, e);
		if (e < 0 && e != -EINTR) {
			if (!dispatch__failed(s->d))
				die_msg("reading the ring buffer failed: %s", strerror(-e));
			code = 1;
			break;
		}
		flush_sinks(s);
		if (dispatch__tick(s->d)) {
			code = 1;
			break;
		}
		/*
		 * The in-flight tables fail when full instead of evicting: what
		 * nobody removes (a process's mappings at its exit, requests its
		 * end cancelled, a completion the kernel never showed) is swept.
		 */
		if (now_ms() - last_sweep >= SWEEP_MS ||
		    (dispatch__exits(s->d, 0) >= SWEEP_EXITS && now_ms() - last_sweep >= SWEEP_MS / 8)) {
			probe__sweep(s->probe, BLOCK_AGE_NS);
			last_sweep = now_ms();
			dispatch__exits(s->d, 1);
		}
		if (child.pid > 0 && !child_done) {
			pid_t r = waitpid(child.pid, &status, WNOHANG);

			if (r == child.pid) {
				child_done = 1;
				break;
			}
		}
		if (o->duration > 0 && now_ms() - start >= (uint64_t)(o->duration * 1000))
			break;
		if (now_ms() - last_check >= 200) {
			last_check = now_ms();
			if (procs_nothing_left(o))
				break;
		}
	}
	/* everything the kernel produced before the stop */
	e = probe__drain(s->probe);
	/* a request issued a second ago and not complete lost its completion, or ends too late */
	probe__sweep(s->probe, BLOCK_END_AGE_NS);
	dispatch__set_probe(s->d, NULL);	/* its counters, before it goes */
	if (s->stats) {
		selfstats__poll(s->stats, e);
		selfstats__consumer_stop(s->stats);
		e = selfstats__progs(s->stats, probe__object(s->probe));
		if (e)
			warn_msg("--stats: cannot read the BPF programs' run times: %s", strerror(-e));
	}
	probe__free(s->probe);
	s->probe = NULL;
	if (session__finish(s))
		code = 1;
	if (s->stats)
		selfstats__loss(s->stats, dispatch__loss(s->d));
	if (!code && child_done)
		code = exit_code_of(status);
	else if (!code && stop_signal && !child_done && child.pid > 0)
		code = 128 + stop_signal;
	return verdict__status(s->v, code);
}
