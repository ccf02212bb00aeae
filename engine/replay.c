// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A recorded session read back through the same dispatch the live trace
 * uses (replay__run): a trace file with its --pid/--path/--since filter, or
 * a session a source module reads (sources.c), such as one stored in ClickHouse.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/plugin.h>
#include "format.h"
#include "options.h"
#include "progress.h"
#include "record.h"
#include "replay.h"
#include "loss.h"
#include "session.h"
#include "sources.h"
#include "syscalls.h"
#include "tagtab.h"
#include "tracefile.h"
#include "util.h"

/* --pid --tid --comm --path --exclude-path --syscalls --since --until over a trace */
struct filter {
	const struct options *o;
	struct session *s;
	uint64_t t0;		/* origin of --since/--until: the trace's first record */
	uint64_t lo, hi;	/* --since and --until as CLOCK_MONOTONIC ns */
	int active;		/* any filter given */
};

static int id_in(uint32_t id, const pid_t *ids, int n)
{
	for (int i = 0; i < n; i++)
		if ((uint32_t)ids[i] == id)
			return 1;
	return 0;
}

/* p under prefix, at a component boundary ("/data" holds "/data/x", not "/database") */
static int under(const char *p, const char *prefix)
{
	size_t n = strlen(prefix);

	if (n && prefix[n - 1] == '/')
		n--;
	return !strncmp(p, prefix, n) && (p[n] == 0 || p[n] == '/');
}

static int path_kept(const struct options *o, const char *p)
{
	int ok = !o->nprefix;

	if (!p)
		return ok;
	for (int i = 0; !ok && i < o->nprefix; i++)
		ok = under(p, o->prefix[i]);
	for (int i = 0; ok && i < o->nexclude; i++)
		ok = !under(p, o->exclude[i]);
	return ok;
}

static void set_window(struct filter *f, uint64_t t0)
{
	f->t0 = t0;
	f->lo = f->o->since >= 0 ? t0 + (uint64_t)(f->o->since * 1e9) : 0;
	f->hi = f->o->until >= 0 ? t0 + (uint64_t)(f->o->until * 1e9) : UINT64_MAX;
}

static int keep(void *ud, const struct dio_ev_hdr *h)
{
	struct filter *f = ud;
	const struct options *o = f->o;
	uint32_t pid, tid;
	const char *comm, *path = NULL;

	/* path records name files for what follows: always through */
	if (!f->active || h->type == DIO_EV_PATH)
		return 1;
	if (!f->t0 && (o->since >= 0 || o->until >= 0))
		set_window(f, h->ts);	/* no intact block header said when the trace began */
	if (h->ts < f->lo || h->ts > f->hi)
		return 0;
	switch (h->type) {
	case DIO_EV_SYSCALL: {
		const struct dio_ev_syscall *e = (const void *)h;

		if (e->nr >= DIO_NR_MAX || !o->sel[e->nr])
			return 0;
		pid = e->pid, tid = e->tid, comm = e->comm;
		if (e->flags & DIO_SF_FILE)
			path = session__tag_path(f->s, &e->tag);
		else if ((path = dio_ev_syscall_str(e, 0)) && path[0] != '/')
			path = NULL;
		if ((o->nprefix || o->nexclude) && !path_kept(o, path))
			return 0;
		break;
	}
	case DIO_EV_IOURING: {
		const struct dio_ev_iouring *e = (const void *)h;

		pid = e->pid, tid = e->tid, comm = e->comm;
		if ((o->nprefix || o->nexclude) && !path_kept(o, session__tag_path(f->s, &e->tag)))
			return 0;
		break;
	}
	case DIO_EV_PROC: {
		const struct dio_ev_proc *e = (const void *)h;

		pid = e->pid, tid = e->tid, comm = e->comm;
		break;
	}
	case DIO_EV_BLOCK: {
		const struct dio_ev_block *e = (const void *)h;

		/* as live: --path and -e select calls, not requests (--no-block does) */
		pid = e->pid, tid = e->tid, comm = e->comm;
		break;
	}
	case DIO_EV_RUNQ: {
		const struct dio_ev_runq *e = (const void *)h;

		pid = e->pid, tid = e->tid, comm = e->comm;
		break;
	}
	default:
		return 1;
	}
	if (o->npids && !id_in(pid, o->pids, o->npids))
		return 0;
	if (o->ntids && !id_in(tid, o->tids, o->ntids))
		return 0;
	if (o->comm[0] && strncmp(comm, o->comm, DIO_COMM_LEN))
		return 0;
	return 1;
}

/* FNV-1a of s, from h */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/*
 * The recorded session's boot id and session id. A recording made before
 * session_id was kept gets one made of what is fixed about it (machine,
 * boot, clock offset, command line), the same each time it is read.
 */
static void set_recorded_ids(struct session *s, struct tf_reader *r)
{
	static const char *const keys[] = { "host", "boot_id", "realtime_offset_ns", "options" };
	char v[4096], id[40];
	uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;

	if (!tf_reader__meta_get(r, "boot_id", v, sizeof(v)))
		session__set_info(s, "boot_id", v);
	if (!tf_reader__meta_get(r, "session_id", v, sizeof(v)) && *v) {
		session__set_info(s, "session_id", v);
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (tf_reader__meta_get(r, keys[i], v, sizeof(v)))
			*v = 0;
		a = fnv1a(fnv1a(a, keys[i]), v);
		b = fnv1a(fnv1a(b, v), keys[i]);
	}
	snprintf(id, sizeof(id), "%016" PRIx64 "%016" PRIx64, a, b);
	session__set_info(s, "session_id", id);
}

struct replay_info {
	struct tf_reader *r;
	const char *path;
};

/* for modules, from their start: the run the recording holds, not this one */
static void recorded_info(struct session *s, void *ud)
{
	const struct replay_info *ri = ud;
	char v[4096];

	if (!tf_reader__meta_get(ri->r, "realtime_offset_ns", v, sizeof(v)))
		session__set_realtime_off(s, strtoll(v, NULL, 10));
	session__set_info(s, "trace", ri->path);
	if (!tf_reader__meta_get(ri->r, "host", v, sizeof(v)))
		session__set_info(s, "hostname", v);
	if (!tf_reader__meta_get(ri->r, "options", v, sizeof(v)))
		session__set_info(s, "command", v);
	if (!tf_reader__meta_get(ri->r, "dio_pid", v, sizeof(v)) && *v)
		session__set_info(s, "tracer_pid", v);
	/* the recording machine's file systems; older recordings: none known */
	if (!tf_reader__meta_get(ri->r, "fstypes", v, sizeof(v)) && *v)
		session__set_info(s, "fstypes", v);
	set_recorded_ids(s, ri->r);
	/* FILE.K of a --max-size recording: its records are a part of the session's */
	if (!tf_reader__meta_get(ri->r, "part", v, sizeof(v)))
		session__set_info(s, "part", v);
}

struct session *replay_session(struct options *o, struct tf_reader *r, const char *path)
{
	struct session *s;
	struct replay_info rinfo;
	char err[1024], v[4096];

	/* --hash user: the kernel sent bytes that the host hashes, in the replay too */
	if (!tf_reader__meta_get(r, "hash", v, sizeof(v)) && !strcmp(v, "user")) {
		/* and it keeps the bytes --capture-data asked for, as the live session did */
		o->hash = HASH_USER;
		if (!tf_reader__meta_get(r, "capture_bytes", v, sizeof(v)))
			o->capture_bytes = (uint32_t)strtoul(v, NULL, 10);
	}
	rinfo.r = r;
	rinfo.path = path;
	o->recorded_info = recorded_info;
	o->recorded_ud = &rinfo;
	s = session__new(o, err, sizeof(err));
	o->recorded_info = NULL;
	if (!s) {
		if (*err)	/* empty: a module said why */
			die_msg("%s", err);
		return NULL;
	}
	return s;
}

static int meta_get(const void *r, const char *key, char *buf, size_t len)
{
	return tf_reader__meta_get(r, key, buf, len);
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

int replay__run_from(struct session *s, int (*next)(void *ud, const void **rec, size_t *size),
		      void *ud, const char *what)
{
	int code = dispatch_all(s, next, ud, what);

	return session__status(s, session__finish(s) || code);
}

struct file_read {
	struct tf_reader *r;
	struct progress p;
	uint64_t n, total;
};

static int next_record(void *ud, const void **rec, size_t *size)
{
	struct file_read *f = ud;
	int e = tf_reader__next(f->r, rec, size);

	/* the progress line looks at the clock once every 4096 records, off the hot path */
	if (e == 1 && !(++f->n & 4095) && f->p.on) {
		uint64_t done, len;

		tf_reader__progress(f->r, &done, &len, NULL);
		progress__update(&f->p, done, len, f->n, f->total);
	}
	return e;
}

int replay__run(struct session *s, struct tf_reader *r)
{
	struct file_read f = { .r = r };
	const char *path = session__info(s, "trace");
	uint64_t done, len;
	int code;

	progress__start(&f.p, session__options(s), path ? path : "the trace");
	tf_reader__progress(r, &done, &len, &f.total);
	code = dispatch_all(s, next_record, &f, "the trace file");
	progress__end(&f.p);

	/* the recording's losses, from the metadata its writer appended at the end */
	loss__add_meta(session__loss(s), meta_get, r);
	return session__status(s, session__finish(s) || code);
}

/* for modules, from their start: the run the source's session holds (a replay: before init) */
static void source_info(struct session *s, void *ud)
{
	const struct source *src = ud;
	static const char *const keys[] = { "hostname", "boot_id", "command", "session_id",
					    "tracer_pid", "fstypes" };
	char v[64];

	/* the source as the user named it, without a password */
	session__set_info(s, "trace", source__info(src, "trace"));
	if (!source__meta(src, "realtime_offset_ns", v, sizeof(v)))
		session__set_realtime_off(s, strtoll(v, NULL, 10));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (source__info(src, keys[i]))
			session__set_info(s, keys[i], source__info(src, keys[i]));
}

static int src_meta_get(const void *ud, const char *key, char *buf, size_t len)
{
	return source__meta(ud, key, buf, len);
}

struct src_replay {
	struct source *src;
	int failed;
};

static int next_from_source(void *ud, const void **rec, size_t *size)
{
	struct src_replay *r = ud;
	int e = source__next(r->src, rec, size);

	if (e < 0) {
		/* said in full here; the records before it went through, as of a cut file */
		die_msg("%s", source__error(r->src));
		r->failed = 1;
		return 0;
	}
	return e;
}

/* dio dump/analyze --from SCHEME:...: a stored session's records */
int replay__source(struct options *o, const char *spec)
{
	struct src_replay r = { 0 };
	struct source *src;
	struct session *s;
	char err[1024];
	int code;

	if (o->since >= 0 || o->until >= 0) {
		die_msg("--since and --until are for trace files: give a WHERE on ts to ClickHouse instead");
		return 2;
	}
	src = source__open(spec, err, sizeof(err));
	if (!src) {
		die_msg("%s", err);
		return 1;
	}
	o->recorded_info = source_info;
	o->recorded_ud = src;
	s = session__new(o, err, sizeof(err));
	o->recorded_info = NULL;
	if (!s) {
		if (*err)
			die_msg("%s", err);
		source__close(src);
		return 1;
	}
	r.src = src;
	/* the recording's losses, as its source keeps them */
	loss__add_meta(session__loss(s), src_meta_get, src);
	code = replay__run_from(s, next_from_source, &r, "the source's session");
	if (session__malformed(s) || r.failed)
		code = 1;
	session__free(s);
	source__close(src);
	return code;
}

int replay__file(struct options *o, const char *path)
{
	struct session *s = NULL;
	struct tf_reader *r;
	struct filter f = { 0 };
	int code = 1;

	r = sources__open_trace(path);
	if (!r)
		goto out;
	/* writing the output over the input would cut the trace under the reader */
	util__create_output_guard(path);
	s = replay_session(o, r, path);
	if (!s)
		goto out;
	f.o = o;
	f.s = s;
	f.hi = UINT64_MAX;
	if ((o->since >= 0 || o->until >= 0) && tf_reader__first_ts(r)) {
		/* skip the blocks outside through the index, filter inside them */
		set_window(&f, tf_reader__first_ts(r));
		tf_reader__set_window(r, f.lo, f.hi);
	}
	f.active = o->npids || o->ntids || o->comm[0] || o->nprefix || o->nexclude ||
		   o->syscalls || o->since >= 0 || o->until >= 0;
	session__filter(s, keep, &f);
	code = replay__run(s, r);
	/* records the session refused (said in its report) are damage too */
	if (sources__damage(path, r) || session__malformed(s))
		code = 1;
out:
	session__free(s);
	tf_reader__close(r);
	return code;
}
