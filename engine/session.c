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
	int replay;		/* the records come from a recording, not the kernel */
	struct probe *probe;
	struct modules *m;
	struct verdict *v;
	struct dispatch *d;
	/* files modules created, kept open: a second module naming one shares it */
	struct output {
		char *path;
		int fd;
	} outputs[MAX_PLUGINS];
	int noutputs;
	int64_t realtime_off;
	struct info {
		const char *key;
		char *val;
	} info[16];
	int ninfo;
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

/* ---- the host API offered to modules ------------------------------------- */

static const char *host_syscall_name(uint32_t nr)
{
	static char unknown[DIO_NR_MAX][16];
	const struct dio_syscall *sc = syscall_by_nr(nr);

	if (sc)
		return sc->name;
	if (nr >= DIO_NR_MAX)
		return "syscall_unknown";
	if (!unknown[nr][0])
		snprintf(unknown[nr], sizeof(unknown[nr]), "syscall_%u", nr);
	return unknown[nr];
}

static const char *host_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	return dispatch__tag_path(((struct session *)ctx->host)->d, tag);
}

static const char *fmt_path_of(void *ud, const struct dio_file_tag *tag)
{
	return dispatch__tag_path(((struct session *)ud)->d, tag);
}

static int host_format_event(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
			     char *buf, size_t len)
{
	struct fmt_ctx fc = {
		.flags = flags,
		.realtime_off = ((struct session *)ctx->host)->realtime_off,
		.path_of = fmt_path_of,
		.ud = ctx->host,
	};

	/* a module may hand over a copy or a record of its own: it is checked as any other */
	if (record_check(ev, ev ? ev->size : 0, RECORD_HOST_MADE, NULL)) {
		if (len)
			buf[0] = 0;
		return -EINVAL;
	}
	return format_event(&fc, ev, buf, len);
}

static uint64_t host_realtime_ns(struct dio_ctx *ctx, uint64_t mono_ns)
{
	return mono_ns + ((struct session *)ctx->host)->realtime_off;
}

static void host_stats_sized(struct dio_ctx *ctx, struct dio_stats *out, size_t size)
{
	struct session *s = ctx->host;
	struct dio_stats st = { 0 };

	dispatch__stats(s->d, &st);
	memset(out, 0, size);
	memcpy(out, &st, size < sizeof(st) ? size : sizeof(st));
}

/* ABI 1 as it began: modules built then pass a struct that ends at path_truncated */
static void host_stats(struct dio_ctx *ctx, struct dio_stats *out)
{
	host_stats_sized(ctx, out, offsetof(struct dio_stats, path_truncated) +
			 sizeof(out->path_truncated));
}

static const struct dio_rule *host_rule(struct dio_ctx *ctx, unsigned int i, const char **analyzer)
{
	return verdict__rule(((struct session *)ctx->host)->v, i, analyzer);
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

static const char *host_info(struct dio_ctx *ctx, const char *key)
{
	return session__info(ctx->host, key);
}

const char *session__info(const struct session *s, const char *key)
{
	for (int i = 0; key && i < s->ninfo; i++)
		if (!strcmp(s->info[i].key, key))
			return s->info[i].val;
	return NULL;
}

int session__set_info(struct session *s, const char *key, const char *val)
{
	char *copy = val ? strdup(val) : NULL;
	int i;

	if (val && !copy)
		return -ENOMEM;
	for (i = 0; i < s->ninfo && strcmp(s->info[i].key, key); i++)
		;
	if (!val) {
		if (i < s->ninfo) {
			free(s->info[i].val);
			s->info[i] = s->info[--s->ninfo];
		}
		return 0;
	}
	if (i == s->ninfo) {
		if (s->ninfo == (int)(sizeof(s->info) / sizeof(s->info[0]))) {
			free(copy);
			return -E2BIG;
		}
		s->info[s->ninfo++].key = key;
	}
	free(s->info[i].val);
	s->info[i].val = copy;
	return 0;
}

static void set_default_info(struct session *s);

/*
 * Now, or in a replay the time of its record at mono (none when it has no
 * record), as RFC 3339 UTC, the form SARIF and JUnit take: a replay's reports
 * depend on the trace alone.
 */
static void set_time_info(struct session *s, const char *key, uint64_t mono)
{
	struct timespec ts;
	struct tm tm;
	char buf[64];

	if (s->replay && !mono) {
		session__set_info(s, key, NULL);
		return;
	}
	if (s->replay) {
		mono += (uint64_t)s->realtime_off;
		ts.tv_sec = (time_t)(mono / 1000000000);
		ts.tv_nsec = (long)(mono % 1000000000);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
	}
	if (!gmtime_r(&ts.tv_sec, &tm))
		memset(&tm, 0, sizeof(tm));
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".%03ldZ", ts.tv_nsec / 1000000);
	session__set_info(s, key, buf);
}

/* the first line of a small file, without its newline: its length, or -1 */
static ssize_t read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	ssize_t n = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		n = (ssize_t)strlen(buf);
	}
	fclose(f);
	return n;
}

/* what host->info knows before the trace: dio, the machine, the options */
static void set_default_info(struct session *s)
{
	const struct options *o = s->o;
	char host[256], cmd[4096], id[64];
	unsigned char rnd[16];
	size_t off = 0;

	session__set_info(s, "version", PACKAGE_VERSION);
	if (read_first_line("/proc/sys/kernel/random/boot_id", id, sizeof(id)) > 0)
		session__set_info(s, "boot_id", id);
	/* a new id for each session: what rows of many runs in one database tell apart */
	if (getrandom(rnd, sizeof(rnd), 0) == (ssize_t)sizeof(rnd)) {
		for (size_t i = 0; i < sizeof(rnd); i++)
			snprintf(id + 2 * i, 3, "%02x", rnd[i]);
		session__set_info(s, "session_id", id);
	}
	if (!gethostname(host, sizeof(host) - 1)) {
		host[sizeof(host) - 1] = 0;
		session__set_info(s, "hostname", host);
	}
	if (o->srcroot)
		session__set_info(s, "srcroot", *o->srcroot ? o->srcroot : "/");
	/* a live session's tracer is this process; a replay's, the recording's (if it says) */
	if (!s->replay) {
		snprintf(id, sizeof(id), "%d", (int)getpid());
		session__set_info(s, "tracer_pid", id);
	}
	if (o->fail_on >= 0 && o->fail_on_names) {
		char v[512];

		snprintf(v, sizeof(v), "%s,%s", findings_severity((uint32_t)o->fail_on),
			 o->fail_on_names);
		session__set_info(s, "fail_on", v);
	} else if (o->fail_on >= 0) {
		session__set_info(s, "fail_on", findings_severity((uint32_t)o->fail_on));
	}
	cmd[0] = 0;
	for (int i = 0; o->argv && o->argv[i] && off < sizeof(cmd); i++)
		off += (size_t)snprintf(cmd + off, sizeof(cmd) - off, "%s%s", i ? " " : "", o->argv[i]);
	for (int i = 0; !o->argv && i < o->npids && off < sizeof(cmd); i++)
		off += (size_t)snprintf(cmd + off, sizeof(cmd) - off, "%s%d", i ? "," : "-p ", o->pids[i]);
	if (!o->argv && !o->npids && o->trace_all)
		snprintf(cmd, sizeof(cmd), "-a");
	if (cmd[0]) {
		char clean[sizeof(cmd)];

		/* a URL's password (a traced client's, a sink's) goes into no report */
		dio_redact_password(cmd, clean, sizeof(clean));
		session__set_info(s, "command", clean);
	}
	set_time_info(s, "start", 0);
}

static int host_emit_finding(struct dio_ctx *ctx, const struct dio_finding *f)
{
	return verdict__emit(((struct session *)ctx->host)->v, f, ctx->p->name);
}

static void host_log(struct dio_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	ctx->p->logged++;
	fprintf(stderr, "dio: %s: ", ctx->p->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * A path a module of this session created already is not truncated again:
 * the module gets a new descriptor of the same open file, so that what both
 * write lands one after the other (-o FILE: the console's lines and findings,
 * then the summary's tables, as strace -c -o FILE does).
 */
static int host_create_output(struct dio_ctx *ctx, const char *path)
{
	struct session *s = ctx->host;
	char why[256];
	int fd;

	for (int i = 0; i < s->noutputs; i++)
		if (!strcmp(s->outputs[i].path, path)) {
			fd = fcntl(s->outputs[i].fd, F_DUPFD_CLOEXEC, 0);
			if (fd < 0) {
				fd = -errno;
				host_log(ctx, "cannot share output '%s': %s", path, strerror(-fd));
			}
			return fd;
		}
	fd = create_output(path);
	if (fd < 0) {
		host_log(ctx, "cannot create output '%s': %s", path,
			 create_output_error(fd, why, sizeof(why)));
		return fd;
	}
	if (s->noutputs < MAX_PLUGINS) {
		struct output *out = &s->outputs[s->noutputs];

		out->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		out->path = out->fd >= 0 ? strdup(path) : NULL;
		if (out->path)
			s->noutputs++;
		else if (out->fd >= 0)
			close(out->fd);
	}
	return fd;
}

static const struct dio_host host = {
	.abi = DIO_PLUGIN_ABI,
	.size = sizeof(struct dio_host),
	.syscall_name = host_syscall_name,
	.tag_path = host_tag_path,
	.format_event = host_format_event,
	.realtime_ns = host_realtime_ns,
	.emit_finding = host_emit_finding,
	.stats = host_stats,
	.log = host_log,
	.create_output = host_create_output,
	.rule = host_rule,
	.info = host_info,
	.stats_sized = host_stats_sized,
	/* decoding reads only dio's tables: engine/decode.c */
	.syscall_info = decode_syscall_info,
	.decode_arg = decode_arg,
	.name_of = decode_name_of,
};

/* ---- setting up ---------------------------------------------------------- */

static int64_t clock_offset(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
}

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
	s->realtime_off = clock_offset();
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
	s->replay = !!o->recorded_info;
	set_default_info(s);
	if (o->recorded_info)
		o->recorded_info(s, o->recorded_ud);
	e = modules__start(s->m, o, &host, s, err, errlen);
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
	for (int i = 0; i < s->noutputs; i++) {
		close(s->outputs[i].fd);
		free(s->outputs[i].path);
	}
	for (int i = 0; i < s->ninfo; i++)
		free(s->info[i].val);
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
	s->realtime_off = off;
}

int64_t session__realtime_off(const struct session *s)
{
	return s->realtime_off;
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
	if (s->replay)
		set_time_info(s, "start", span[0]);
	set_time_info(s, "end", span[1]);
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
