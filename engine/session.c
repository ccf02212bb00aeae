// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A session is its parts, and only this file sees all of them: the modules
 * (modules.c), the dispatch of records to them (dispatch.c), the verdict on
 * their findings (verdict.c) and the host table they are handed (host.c).
 * session__new wires them in that order and session__finish ends them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "dispatch.h"
#include "host.h"
#include "modules.h"
#include "probe.h"
#include "selfstats.h"
#include "session.h"
#include "verdict.h"

struct session {
	struct options *o;
	struct probe *probe;	/* live: the caller's (live.c) */
	struct modules *m;
	struct verdict *v;
	struct dispatch *d;
	struct host *h;
	struct selfstats *stats;	/* --stats, while tracing live */
};

/* a sink that cannot write out (disk full) has said why; dio must not then exit 0 */
static void flush_sinks(struct session *s)
{
	if (modules__flush(s->m))
		dispatch__fail(s->d);
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
			 int (*tick)(void *ud), void (*lost)(void *ud, struct loss *l), void *ud)
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

struct options *session__options(const struct session *s)
{
	return s->o;
}

void session__ring(struct session *s, int (**cb)(void *ctx, void *data, size_t size), void **ctx)
{
	*cb = dispatch__ring;
	*ctx = s->d;
}

void session__set_probe(struct session *s, struct probe *p)
{
	dispatch__set_probe(s->d, p);
	s->probe = p;
}

void session__set_stats(struct session *s, struct selfstats *st)
{
	selfstats__free(s->stats);
	s->stats = st;
	dispatch__set_stats(s->d, st);
}

int session__tick(struct session *s)
{
	flush_sinks(s);
	return dispatch__tick(s->d);
}

int session__report(struct session *s, uint64_t now_ns)
{
	int e;

	verdict__begin(s->v);
	e = modules__tick_analyzers(s->m, now_ns);
	if (verdict__send(s->v) < 0 || e < 0)
		dispatch__fail(s->d);
	flush_sinks(s);
	return e;
}

int session__sweep(struct session *s, int end)
{
	return dispatch__sweep(s->d, end);
}

uint64_t session__exits(struct session *s, int swept)
{
	return dispatch__exits(s->d, swept);
}

int session__failed(const struct session *s)
{
	return dispatch__failed(s->d);
}

int session__status(struct session *s, int code)
{
	return verdict__status(s->v, code);
}

struct loss *session__loss(struct session *s)
{
	return dispatch__loss(s->d);
}

const struct features *session__features(const struct session *s)
{
	return s->probe ? probe__features(s->probe) : NULL;
}

static int finish_analyzers(struct session *s)
{
	uint64_t span[2];
	int e, ret = 0;

	/* the events so far before any table an analyzer writes (-o FILE holds both) */
	flush_sinks(s);
	ret = dispatch__end(s->d);
	/* what finish says replaces what the analyzers' ticks said */
	verdict__begin(s->v);
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
	if (s->stats)
		selfstats__loss(s->stats, dispatch__loss(s->d));
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

void session__filter(struct session *s, int (*keep)(void *ud, const struct dio_ev_hdr *h),
		     void *ud)
{
	dispatch__filter(s->d, keep, ud);
}
