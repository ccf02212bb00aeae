// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio record, dio dump and dio info: a session written to a trace file, and
 * read back through the same dispatch the live trace uses (replay__run).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <dio/plugin.h>
#include "config.h"
#include "chsource.h"
#include "format.h"
#include "cli.h"
#include "options.h"
#include "probe.h"
#include "features.h"
#include "record.h"
#include "replay.h"
#include "selfstats.h"
#include "live.h"
#include "loss.h"
#include "session.h"
#include "syscalls.h"
#include "tagtab.h"
#include "tracefile.h"
#include "util.h"

#define META_MAX 8192

static void read_line(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

/* What a reader needs to decode the records without the recording machine. */
static void build_meta(const struct options *o, const struct session *s, int argc, char **argv,
		       char *buf, size_t len)
{
	const struct features *feat = session__features(s);
	struct features probed;
	char ftext[256] = "", err[256];
	struct utsname u;
	char boot[64];
	size_t off;

	uname(&u);
	read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	/* the probe is made when the trace starts: until then, read the kernel as it will */
	if (!feat && !features__probe(&probed, err, sizeof(err)))
		feat = &probed;
	if (feat)
		features__text(feat, ftext, sizeof(ftext));
	off = snprintf(buf, len,
		       "format=dio-trace\ndio_version=%s\nhost=%s\nkernel=%s\nmachine=%s\n"
		       "boot_id=%s\nfeatures=%s\nrealtime_offset_ns=%lld\nmode=%s\nhash=%s\n"
		       "capture_bytes=%u\nsession_id=%s\ndio_pid=%d\nfstypes=%s\noptions=",
		       PACKAGE_VERSION, u.nodename, u.release, u.machine, boot, ftext,
		       (long long)session__realtime_off(s), o->mode == MODE_RAW ? "raw" : "detailed",
		       o->hash == HASH_USER ? "user" : o->hash == HASH_KERNEL ? "kernel" : "off",
		       o->capture_bytes,
		       session__info(s, "session_id") ? session__info(s, "session_id") : "",
		       (int)getpid(),
		       session__info(s, "fstypes") ? session__info(s, "fstypes") : "");
	/* the command line as given, one line: arguments separated by spaces; a URL's
	 * password (--sink clickhouse:url=http://user:pw@...) stays out of the file */
	for (int i = 0; i < argc && off < len; i++) {
		if (i)
			off += snprintf(buf + off, len - off, " ");
		if (off < len)
			off += dio_redact_password(argv[i], buf + off, len - off);
	}
	if (off < len)
		snprintf(buf + off, len - off, "\n");
	for (char *p = strstr(buf, "options="); p && *p; p++)
		if (*p == '\n' && p[1])
			*p = ' ';	/* an argument with a newline must not start a key */
}

/*
 * The trace file(s) of dio record. With --max-size a full file is closed and
 * the next one (FILE.1, FILE.2, ...; with --rotate N the names come round
 * again) starts with the path records of the files used last, so that each
 * file can be read on its own: the latest path record of as many tags as the
 * session's own table keeps (twice --tag-table), the least recently used
 * forgotten past that, as the kernel forgets the tags it sent.
 */
struct recorder {
	const char *base;
	const struct options *o;
	const char *meta;		/* the session's metadata, without part= */
	struct tf_writer *w;
	unsigned int part;
	uint64_t n;			/* records since the size was last looked at */
	uint64_t dropped;		/* in the files already closed */
	struct tf_writer_time time;	/* of their writer threads */
	struct tagtab *paths;		/* --max-size: tag -> its latest path record */
	char name[4200];		/* the file being written */
	/* --stats */
	uint64_t handed;		/* records given to the writers */
	uint64_t raw_bytes;		/* their bytes, the dropped ones left out */
	uint64_t disk_bytes;		/* of the files already closed */
};

/* --stats: the size of the file just closed */
static void add_disk_bytes(struct recorder *rc)
{
	struct stat sb;

	if (!stat(rc->name, &sb))
		rc->disk_bytes += sb.st_size;
}

/* a path record kept whole, into a new part */
static int add_path(void *ud, const struct dio_file_tag *tag, const char *rec, size_t len)
{
	(void)tag;
	return tf_writer__add(ud, rec, len);
}

static int rec_open(struct recorder *rc)
{
	unsigned int idx = rc->o->rotate ? rc->part % rc->o->rotate : rc->part;
	size_t mlen = strlen(rc->meta);
	char *meta = malloc(mlen + 32);
	int e = 0;

	if (!meta)
		return -ENOMEM;
	if (idx)
		snprintf(rc->name, sizeof(rc->name), "%s.%u", rc->base, idx);
	else
		snprintf(rc->name, sizeof(rc->name), "%s", rc->base);
	snprintf(meta, mlen + 32, "%spart=%u\n", rc->meta, rc->part);
	/* a disk slower than the trace costs counted records, never a stalled consumer */
	rc->w = tf_writer__open(rc->name, rc->o->zlevel, meta, TF_W_DROP);
	if (!rc->w)
		e = -errno;
	if (!e && rc->paths)
		e = tagtab__each(rc->paths, add_path, rc->w);
	free(meta);
	return e;
}

static void add_time(struct tf_writer_time *sum, struct tf_writer *w)
{
	struct tf_writer_time t;

	tf_writer__time(w, &t);
	sum->busy_ns += t.busy_ns;
	sum->compress_ns += t.compress_ns;
	sum->write_ns += t.write_ns;
	sum->runq_ns += t.runq_ns;
}

/* the records the writer threads dropped, and what held them back */
static void rec_dropped(struct recorder *rc, uint64_t *dropped, uint32_t *cause)
{
	struct tf_writer_time t = rc->time;

	*dropped = rc->dropped;
	if (rc->w) {
		*dropped += tf_writer__dropped(rc->w);
		add_time(&t, rc->w);
	}
	*cause = *dropped ? tf_writer_cause(&t) : DIO_WRITER_UNKNOWN;
}

/* the recorder's counts among the session's */
static void rec_lost(void *ud, struct loss *l)
{
	struct recorder *rc = ud;

	rec_dropped(rc, &l->n[LOSS_WRITER], &l->writer_cause);
	l->n[LOSS_PART_PATHS] = rc->paths ? tagtab__evicted(rc->paths) : 0;
}

static int rec_add(void *ud, const void *rec, size_t size)
{
	struct recorder *rc = ud;
	const struct dio_ev_hdr *h = rec;
	uint64_t dropped;
	int e = 0;

	if (rc->paths) {
		/* as the session's table: a file in use keeps its path */
		if (h->type == DIO_EV_PATH)
			e = tagtab__set(rc->paths, &((const struct dio_ev_path *)rec)->tag, rec, size);
		else if (h->type == DIO_EV_SYSCALL &&
			 (((const struct dio_ev_syscall *)rec)->flags & DIO_SF_FILE))
			tagtab__touch(rc->paths, &((const struct dio_ev_syscall *)rec)->tag);
		else if (h->type == DIO_EV_IOURING)
			tagtab__touch(rc->paths, &((const struct dio_ev_iouring *)rec)->tag);
		if (e)
			return e;
	}
	dropped = tf_writer__dropped(rc->w);
	e = tf_writer__add(rc->w, rec, size);
	rc->handed++;
	if (tf_writer__dropped(rc->w) == dropped)
		rc->raw_bytes += size;
	if (e || !rc->o->max_size || ++rc->n < 1024)
		return e;
	/* the written size is known block by block: look every 1024 records */
	rc->n = 0;
	if (tf_writer__bytes(rc->w) < rc->o->max_size)
		return 0;
	rc->dropped += tf_writer__dropped(rc->w);
	add_time(&rc->time, rc->w);
	e = tf_writer__close(rc->w, NULL);
	rc->w = NULL;
	add_disk_bytes(rc);
	rc->part++;
	if (!e)
		e = rec_open(rc);
	if (e)
		die_msg("dio record: starting %s failed: %s", rc->name, strerror(-e));
	return e;
}

/* the records of the last flush_ms go to disk even when no block filled up */
static int rec_tick(void *ud)
{
	struct recorder *rc = ud;

	return rc->w ? tf_writer__tick(rc->w, rc->o->flush_ms) : 0;
}

int cmd_record(int argc, char **argv)
{
	struct options o;
	struct session *s = NULL;
	struct recorder rc = { 0 };
	char err[1024], *meta = NULL, *final = NULL, *path = NULL;
	struct tf_writer_time t;
	uint64_t dropped, kept, missing;
	uint32_t cause;
	int e, n, code = 1;

	options_init(&o);
	if (cli_trace_args(argc, argv, &o, &code)) {
		options_free(&o);
		return code;
	}
	code = 1;
	if (!o.output) {
		die_msg("dio record: name the trace file with -o FILE (e.g. dio record -o run.dio -- CMD)");
		options_free(&o);
		return 2;
	}
	if (o.rotate && !o.max_size) {
		die_msg("dio record: --rotate N needs --max-size SIZE (e.g. --max-size 100M --rotate 10)");
		options_free(&o);
		return 2;
	}
	/* -o names the trace file here; the console shows the summary (and with
	 * --print the calls) */
	path = o.output;
	o.output = NULL;
	o.quiet = o.quiet || !o.print;
	if (probe__check_machine(err, sizeof(err))) {
		die_msg("%s", err);
		goto out;
	}
	s = session__new(&o, err, sizeof(err));
	if (!s) {
		if (*err)	/* empty: a module said why */
			die_msg("%s", err);
		goto out;
	}
	meta = malloc(META_MAX);
	final = malloc(META_MAX);
	if (!meta || !final) {
		die_msg("out of memory");
		goto out;
	}
	build_meta(&o, s, argc, argv, meta, META_MAX);
	rc.base = path;
	rc.o = &o;
	rc.meta = meta;
	/* the session's table of paths is twice --tag-table: what a part repeats is that too */
	if (o.max_size && !(rc.paths = tagtab__new(2 * (size_t)o.tag_entries))) {
		die_msg("out of memory");
		goto out;
	}
	e = rec_open(&rc);
	if (e) {
		char why[256];

		die_msg("cannot create the trace file %s: %s", rc.name,
			util__create_output_error(e, why, sizeof(why)));
		goto out;
	}
	session__record_to(s, rec_add, rec_tick, rec_lost, &rc);
	code = live__trace(s);
	if (!rc.w)	/* a rotation failed: the session has said so */
		goto out;
	/* the session's losses, the writer's drops among them */
	n = session__loss_text(s, final, META_MAX);
	missing = session__dropped(s);
	session__record_to(s, NULL, NULL, NULL, NULL);
	rec_dropped(&rc, &dropped, &cause);
	t = rc.time;
	add_time(&t, rc.w);
	snprintf(final + n, META_MAX - n,
		 "writer_busy_ms=%llu\nwriter_compress_ms=%llu\nwriter_write_ms=%llu\n"
		 "writer_runq_ms=%llu\nparts=%u\n",
		 (unsigned long long)(t.busy_ns / 1000000), (unsigned long long)(t.compress_ns / 1000000),
		 (unsigned long long)(t.write_ns / 1000000), (unsigned long long)(t.runq_ns / 1000000),
		 rc.part + 1);
	tf_writer__flush(rc.w);
	kept = tf_writer__written(rc.w);
	e = tf_writer__close(rc.w, final);
	add_disk_bytes(&rc);
	if (o.stats && session__selfstats(s)) {
		struct selfstats *st = session__selfstats(s);

		selfstats__writer(st, &t, rc.handed - dropped, rc.raw_bytes, rc.disk_bytes);
		selfstats__print(st, stderr);
	}
	if (dropped && !e)	/* the numbers behind the cause the session's warning named */
		warn_msg("%s: %llu records dropped; the writer thread was busy %.1f s: %.1f s compressing, %.1f s writing, %.1f s waiting for a CPU, %.1f s waiting for the disk",
			 path, (unsigned long long)dropped, t.busy_ns / 1e9, t.compress_ns / 1e9,
			 t.write_ns / 1e9, t.runq_ns / 1e9,
			 t.busy_ns > t.compress_ns + t.write_ns + t.runq_ns ?
			 (t.busy_ns - t.compress_ns - t.write_ns - t.runq_ns) / 1e9 : 0.0);
	if (e) {
		die_msg("finishing the trace file %s failed: %s; it holds the %llu records written "
			"before, readable with dio dump", rc.name, strerror(-e), (unsigned long long)kept);
		code = 1;
	} else if (missing && (code == 0 || code == DIO_EXIT_FINDINGS)) {
		/* a CI job must notice: findings from a trace with holes may be wrong or missing */
		fprintf(stderr, "dio: %s is incomplete: %llu records were lost (said above): "
			"exit status %d\n", path, (unsigned long long)missing, DIO_EXIT_INCOMPLETE);
		code = DIO_EXIT_INCOMPLETE;
	}
out:
	session__free(s);
	tagtab__free(rc.paths);
	free(meta);
	free(final);
	free(path);
	options_free(&o);
	return code;
}

static void replay_usage(const char *cmd)
{
	if (!strcmp(cmd, "dump"))
		printf("usage: dio dump FILE [-o OUT] [-t|-tt|-ttt] [-T] [--no-details] [--sink NAME[:k=v,...]]\n"
		       "                     [-p|--pid PID,...] [--tid TID,...] [--comm NAME] [--path PREFIX]\n"
		       "                     [--exclude-path PREFIX] [-e trace=SPEC|--syscalls SPEC]\n"
		       "                     [--since S] [--until S] [--format text|json]\n"
		       "  print a recorded trace as dio trace prints it live (to stdout, or OUT);\n"
		       "  --since/--until: seconds after the trace's first record;\n"
		       "  --format json: one JSON object per line (docs/json-schema.md)\n"
		       "example: dio dump run.dio --comm rocksdb:low -e trace=%%data --since 2 --until 3\n");
	else
		printf("usage: dio analyze FILE [--analyzer NAME[:k=v,...]|all] [--sink NAME[:k=v,...]]\n"
		       "                        [--no-summary] [-o OUT] [-q] [-t|-tt|-ttt] [-T] [-C FILE]\n"
		       "                        [--hints] [the filters of dio dump]\n"
		       "  run analyzers over a recorded trace: the findings dio trace would have given;\n"
		       "  -q (default) shows findings and the summary only\n"
		       "example: dio analyze run.dio --analyzer all\n");
}

struct tf_reader *replay_open(const char *path)
{
	char err[512];
	struct tf_reader *r = tf_reader__open(path, err, sizeof(err));

	if (!r)
		die_msg("%s", err);
	return r;
}

int replay_damage(const char *path, const struct tf_reader *r)
{
	struct tf_stats st;

	tf_reader__stats(r, &st);
	if (!st.truncated && !st.bad_blocks && !st.bad_records && !st.skipped_bytes)
		return 0;
	warn_msg("%s: %s: recovered %llu records in %llu blocks; skipped %llu damaged blocks, %llu bad records, %llu bytes",
		 path, st.read_errno ? strerror(st.read_errno) :
		 st.shrunk ? "cut short while dio read it" :
		 st.truncated ? "cut short" : "damaged", (unsigned long long)st.records,
		 (unsigned long long)st.blocks, (unsigned long long)st.bad_blocks,
		 (unsigned long long)st.bad_records, (unsigned long long)st.skipped_bytes);
	return 1;
}

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

static int next_record(void *ud, const void **rec, size_t *size)
{
	return tf_reader__next(ud, rec, size);
}

int replay__run(struct session *s, struct tf_reader *r)
{
	int code = dispatch_all(s, next_record, r, "the trace file");

	/* the recording's losses, from the metadata its writer appended at the end */
	loss__add_meta(session__loss(s), meta_get, r);
	return session__status(s, session__finish(s) || code);
}

/* dio dump and dio analyze: the same replay, with different defaults */
static void clickhouse_info(struct session *s, void *ud)
{
	const struct chsource *src = ud;
	static const char *const keys[] = { "hostname", "boot_id", "command", "session_id" };

	/* the source as the user named it, without a password (a replay: set before init) */
	session__set_info(s, "trace", chsource__info(src, "trace"));
	session__set_realtime_off(s, chsource__realtime_off(src));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (chsource__info(src, keys[i]))
			session__set_info(s, keys[i], chsource__info(src, keys[i]));
}

struct ch_replay {
	struct chsource *src;
	int failed;
};

static int next_clickhouse(void *ud, const void **rec, size_t *size)
{
	struct ch_replay *r = ud;
	int e = chsource__next(r->src, rec, size);

	if (e < 0) {
		/* said in full here; the records before it went through, as of a cut file */
		die_msg("%s", chsource__error(r->src));
		r->failed = 1;
		return 0;
	}
	return e;
}

/* dio dump/analyze --from clickhouse:...: a stored session's records */
static int replay_clickhouse(struct options *o, const char *spec)
{
	struct ch_replay r = { 0 };
	struct chsource *src;
	struct session *s;
	char err[1024];
	int code;

	if (o->since >= 0 || o->until >= 0) {
		die_msg("--since and --until are for trace files: give a WHERE on ts to ClickHouse instead");
		return 2;
	}
	src = chsource__open(spec, err, sizeof(err));
	if (!src) {
		die_msg("%s", err);
		return 1;
	}
	o->recorded_info = clickhouse_info;
	o->recorded_ud = src;
	s = session__new(o, err, sizeof(err));
	o->recorded_info = NULL;
	if (!s) {
		if (*err)
			die_msg("%s", err);
		chsource__close(src);
		return 1;
	}
	r.src = src;
	code = replay__run_from(s, next_clickhouse, &r, "the session from ClickHouse");
	if (session__malformed(s) || r.failed)
		code = 1;
	session__free(s);
	chsource__close(src);
	return code;
}

/*
 * analyze: 0 dump, 1 analyze, 2 report (findings only: the page holds the
 * tables); edit: the command's own modules (may be NULL)
 */
static int replay_cmd(int argc, char **argv, int analyze, const struct cli_edit *edit)
{
	struct options o;
	struct session *s = NULL;
	struct tf_reader *r = NULL;
	struct filter f = { 0 };
	const char *path = NULL;
	char err[1024];
	int code = 1;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			replay_usage(argv[0]);
			return 0;
		}
	}
	options_init(&o);
	/* dump: every call, no summary; analyze: findings and the summary */
	o.no_summary = !analyze;
	o.quiet = analyze;
	o.findings_only = analyze == 2;
	if (cli_parse_replay(argc, argv, &o, edit, &path, err, sizeof(err))) {
		die_msg("%s", err);
		options_free(&o);
		return 2;
	}
	/* the output is the command's own, not a side channel as in dio trace */
	if (!o.output)
		o.output = strdup("-");
	if (!strncmp(path, "clickhouse:", 11)) {
		code = replay_clickhouse(&o, path);
		options_free(&o);
		return code;
	}
	r = replay_open(path);
	if (!r)
		goto out;
	/* writing the output over the input would cut the trace under the reader */
	util__create_output_guard(path);
	s = replay_session(&o, r, path);
	if (!s)
		goto out;
	f.o = &o;
	f.s = s;
	f.hi = UINT64_MAX;
	if ((o.since >= 0 || o.until >= 0) && tf_reader__first_ts(r)) {
		/* skip the blocks outside through the index, filter inside them */
		set_window(&f, tf_reader__first_ts(r));
		tf_reader__set_window(r, f.lo, f.hi);
	}
	f.active = o.npids || o.ntids || o.comm[0] || o.nprefix || o.nexclude || o.syscalls ||
		   o.since >= 0 || o.until >= 0;
	session__filter(s, keep, &f);
	code = replay__run(s, r);
	/* records the session refused (said in its report) are damage too */
	if (replay_damage(path, r) || session__malformed(s))
		code = 1;
out:
	session__free(s);
	tf_reader__close(r);
	options_free(&o);
	return code;
}

/* --from SOURCE stands for the trace file: dio analyze --from clickhouse:url=...,session=... */
static int replay_from_arg(int argc, char **argv, int analyze)
{
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	int n = 0, code;

	if (!av) {
		die_msg("out of memory");
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc)
			av[n++] = argv[++i];
		else if (!strncmp(argv[i], "--from=", 7))
			av[n++] = argv[i] + 7;
		else
			av[n++] = argv[i];
	}
	code = replay_cmd(n, av, analyze, NULL);
	free(av);
	return code;
}

int cmd_dump(int argc, char **argv)
{
	return replay_from_arg(argc, argv, 0);
}

int cmd_analyze(int argc, char **argv)
{
	return replay_from_arg(argc, argv, 1);
}

/* dio report: the html sink writing the page, every analyzer unless named, no summary */
static int report_edit(struct options *o, const struct cli_given *g, const void *ud, char *err,
		       size_t errlen)
{
	struct plugin_sel *s = spec__own_sink(o, "html", g->sink, err, errlen);
	int e = s ? spec__set(s, "file", ud, err, errlen) : -EINVAL;

	o->no_summary = 1;
	return e ? e : spec__all_analyzers(o, g->analyzer, err, errlen);
}

/*
 * dio report FILE -o PAGE [options of dio analyze]: dio analyze with every
 * analyzer (unless --analyzer names some) and the html sink writing PAGE in
 * the console's place, without the summary's tables.
 */
int cmd_report(int argc, char **argv)
{
	const char *page = NULL;
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	struct cli_edit edit = { .edit = report_edit };
	int n = 0, code;

	if (!av) {
		die_msg("out of memory");
		return 1;
	}
	av[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: dio report FILE -o PAGE.html [--analyzer NAME[:k=v,...]|all] [-C FILE]\n"
			       "                       [--fail-on LEVEL] [the filters of dio dump]\n"
			       "  write one self-contained HTML page of a recorded trace: overview, findings\n"
			       "  with their evidence, a timeline of threads, block requests and run-queue\n"
			       "  waits, files, offsets over time, I/O rate by thread group, the system call\n"
			       "  mix, latency histograms and threads; it loads nothing from elsewhere\n"
			       "example: dio report run.dio -o run.html\n");
			free(av);
			return 0;
		}
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
			page = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--output=", 9)) {
			page = argv[i] + 9;
			continue;
		}
		if (!strncmp(argv[i], "-o", 2) && argv[i][2]) {
			page = argv[i] + 2;
			continue;
		}
		av[n++] = argv[i];
	}
	if (!page || !*page) {
		die_msg("report: give the page to write: dio report run.dio -o run.html");
		free(av);
		return 2;
	}
	edit.ud = page;
	code = replay_cmd(n, av, 2, &edit);
	if (code == 0 || code == DIO_EXIT_FINDINGS)
		fprintf(stderr, "dio: wrote %s\n", page);
	free(av);
	return code;
}

/* dio push: the clickhouse sink of --to, every analyzer unless named, no summary */
static int push_edit(struct options *o, const struct cli_given *g, const void *ud, char *err,
		     size_t errlen)
{
	int e = spec__push_to(o, ud, g->sink, err, errlen);

	o->no_summary = 1;
	return e ? e : spec__all_analyzers(o, g->analyzer, err, errlen);
}

/*
 * dio push FILE... --to URL[,key=value...] [options of dio analyze]: each
 * recording replayed into the clickhouse sink (origin=push: batches cut by
 * size alone, so the same file gives the same batches, and those already
 * stored are skipped), with every analyzer's findings unless --analyzer
 * names some. Pushing a file twice leaves the tables as one push did.
 */
int cmd_push(int argc, char **argv)
{
	const char *to = NULL;
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	struct cli_edit edit = { .edit = push_edit };
	int n = 0, files = 0, code = 0;
	int *is_file = calloc((size_t)argc + 1, sizeof(*is_file));

	if (!av || !is_file) {
		die_msg("out of memory");
		free(av);
		free(is_file);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: dio push FILE... --to URL[,key=value...] [--analyzer NAME|all] [-C FILE]\n"
			       "                           [the filters of dio dump]\n"
			       "  send recordings to ClickHouse (the clickhouse sink's tables), with their\n"
			       "  findings; pushing a file again sends nothing twice. key=value: the sink's\n"
			       "  options (database=, user=, password_file=, table_prefix=, spool=, ...)\n"
			       "example: dio push run.dio --to http://db1:8123\n");
			free(av);
			free(is_file);
			return 0;
		}
		if (!strcmp(argv[i], "--to") && i + 1 < argc) {
			to = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--to=", 5)) {
			to = argv[i] + 5;
			continue;
		}
		/* the recordings come first, before any option */
		if (argv[i][0] != '-' && files == i - 1) {
			is_file[i] = 1;
			files++;
		}
	}
	if (!to || !*to || !files) {
		die_msg("push: give the recordings and the server: dio push run.dio --to http://HOST:8123");
		free(av);
		free(is_file);
		return 2;
	}
	edit.ud = to;
	for (int f = 1; f < argc; f++) {
		int c;

		if (!is_file[f])
			continue;
		n = 0;
		av[n++] = argv[0];
		av[n++] = argv[f];
		for (int i = 1; i < argc; i++) {
			if (is_file[i] || !strcmp(argv[i], "--to") || !strncmp(argv[i], "--to=", 5) ||
			    (i > 1 && !strcmp(argv[i - 1], "--to")))
				continue;
			av[n++] = argv[i];
		}
		c = replay_cmd(n, av, 2, &edit);
		if (c == 0 || c == DIO_EXIT_FINDINGS)
			fprintf(stderr, "dio: pushed %s\n", argv[f]);
		else
			code = c;
	}
	free(av);
	free(is_file);
	return code;
}

/* dio info's records per process: open addressing on pid, bounded */
#define PROC_SLOTS	65536	/* processes counted one by one; the rest go to "others" */
#define PROC_SHOWN	20

struct proc_count {
	uint32_t pid;		/* 0: free slot */
	char comm[DIO_COMM_LEN];
	uint64_t n;
};

static void count_proc(struct proc_count *t, uint64_t *others, uint32_t pid, const char *comm)
{
	uint32_t i = (pid * 2654435761u) % PROC_SLOTS;

	for (uint32_t probes = 0; probes < PROC_SLOTS / 2; probes++, i = (i + 1) % PROC_SLOTS) {
		if (t[i].pid == pid || !t[i].pid) {
			t[i].pid = pid;
			/* the process's name as of its last record: after exec, the new one */
			memcpy(t[i].comm, comm, DIO_COMM_LEN);
			t[i].comm[DIO_COMM_LEN - 1] = 0;
			t[i].n++;
			return;
		}
	}
	(*others)++;
}

static int by_count(const void *a, const void *b)
{
	const struct proc_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * The metadata, a line at a time, escaped: it holds the command line and
 * names a traced program chose, which must not drive the terminal.
 */
static void print_meta(const char *meta)
{
	char line[4 * 1024 + 1];

	while (*meta) {
		size_t n = strcspn(meta, "\n");

		for (size_t off = 0; off < n; off += 1024) {
			dio_escape(meta + off, n - off < 1024 ? n - off : 1024, 0, line, sizeof(line));
			fputs(line, stdout);
		}
		putchar('\n');
		meta += n + (meta[n] == '\n');
	}
}

static void print_procs(struct proc_count *t, uint64_t others)
{
	size_t n = 0;

	for (size_t i = 0; i < PROC_SLOTS; i++)
		if (t[i].pid)
			t[n++] = t[i];
	qsort(t, n, sizeof(*t), by_count);
	printf("processes: %zu\n", n);
	for (size_t i = 0; i < n && i < PROC_SHOWN; i++) {
		char comm[4 * DIO_COMM_LEN + 1];

		dio_escape(t[i].comm, DIO_COMM_LEN, 0, comm, sizeof(comm));
		printf("  %-8u %-16s %llu\n", t[i].pid, comm, (unsigned long long)t[i].n);
	}
	if (n > PROC_SHOWN)
		printf("  ... %zu more processes\n", n - PROC_SHOWN);
	if (others)
		printf("  %llu records of processes past the first %d\n", (unsigned long long)others,
		       PROC_SLOTS / 2);
}

int cmd_info(int argc, char **argv)
{
	struct tf_reader *r;
	struct tf_stats st;
	uint64_t per_type[DIO_EV_MAX] = { 0 }, per_nr[DIO_NR_MAX] = { 0 }, first = 0, last = 0;
	uint64_t others = 0, malformed = 0;
	struct proc_count *procs;
	const void *rec;
	size_t size;
	long long fsize;
	struct stat sb;
	int e, code = 0;

	if (argc != 2 || argv[1][0] == '-') {
		if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			printf("usage: dio info FILE\n  metadata, counts and damage of a recorded trace\n");
			return 0;
		}
		die_msg("dio info: give exactly one trace file (dio info run.dio)");
		return 2;
	}
	r = replay_open(argv[1]);
	if (!r)
		return 1;
	procs = calloc(PROC_SLOTS, sizeof(*procs));
	if (!procs) {
		die_msg("dio info: out of memory");
		tf_reader__close(r);
		return 1;
	}
	while ((e = tf_reader__next(r, &rec, &size)) == 1) {
		const struct dio_ev_hdr *h = rec;

		/* what dump and analyze would leave out is not counted as what the file holds */
		if (record_check(rec, size, 0, NULL)) {
			malformed++;
			continue;
		}
		per_type[h->type]++;
		if (h->type == DIO_EV_SYSCALL) {
			const struct dio_ev_syscall *sc = rec;

			if (sc->nr < DIO_NR_MAX)
				per_nr[sc->nr]++;
			count_proc(procs, &others, sc->pid, sc->comm);
		} else if (h->type == DIO_EV_IOURING) {
			const struct dio_ev_iouring *u = rec;

			count_proc(procs, &others, u->pid, u->comm);
		}
		if (!first || h->ts < first)
			first = h->ts;
		if (h->ts > last)
			last = h->ts;
	}
	tf_reader__stats(r, &st);
	fsize = !stat(argv[1], &sb) ? (long long)sb.st_size : -1;
	printf("file: %s (%lld bytes)\n", argv[1], fsize);
	print_meta(tf_reader__meta(r));
	printf("records: %llu (syscall %llu, path %llu, io_uring %llu, process %llu, block %llu, "
	       "runq %llu)\n",
	       (unsigned long long)(st.records - malformed),
	       (unsigned long long)per_type[DIO_EV_SYSCALL],
	       (unsigned long long)per_type[DIO_EV_PATH], (unsigned long long)per_type[DIO_EV_IOURING],
	       (unsigned long long)per_type[DIO_EV_PROC], (unsigned long long)per_type[DIO_EV_BLOCK],
	       (unsigned long long)per_type[DIO_EV_RUNQ]);
	if (malformed)
		printf("malformed records: %llu (dio dump and dio analyze leave them out)\n",
		       (unsigned long long)malformed);
	if (st.records)
		printf("bytes per record: %.1f\n", (double)fsize / st.records);
	printf("time span: %.6f s\n", st.records ? (last - first) / 1e9 : 0.0);
	printf("blocks: %llu intact, %llu damaged; %s\n", (unsigned long long)st.blocks,
	       (unsigned long long)st.bad_blocks,
	       st.truncated ? "cut short (no index at the end)" : "complete");
	printf("syscalls:\n");
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const struct dio_syscall *sc;

		if (!per_nr[nr])
			continue;
		sc = syscall_by_nr(nr);
		printf("  %-18s %llu\n", sc ? sc->name : "?", (unsigned long long)per_nr[nr]);
	}
	print_procs(procs, others);
	free(procs);
	if (e < 0) {
		die_msg("reading %s failed: %s", argv[1], strerror(-e));
		code = 1;
	}
	if (malformed)
		warn_msg("%s: %llu malformed records, which dio dump and dio analyze leave out",
			 argv[1], (unsigned long long)malformed);
	if (replay_damage(argv[1], r) || malformed)
		code = 1;
	tf_reader__close(r);
	return code;
}
