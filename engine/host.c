// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host table handed to every module (struct dio_host) and what it
 * answers from: the facts of the run (host->info), the wall clock of the
 * records, the files modules created, and through the dispatch and the
 * verdict the file tags, the counts, the findings and the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "decode.h"
#include "dispatch.h"
#include "findings.h"
#include "format.h"
#include "fstypes.h"
#include "host.h"
#include "modules.h"
#include "record.h"
#include "syscalls.h"
#include "util.h"
#include "verdict.h"

struct host {
	const struct options *o;
	struct dispatch *d;	/* file tags, counts */
	struct verdict *v;	/* findings, rules */
	int replay;		/* the records come from a recording, not the kernel */
	int64_t realtime_off;
	struct info {
		const char *key;
		char *val;
	} info[16];
	int ninfo;
	/* files modules created, kept open: a second module naming one shares it */
	struct output {
		char *path;
		int fd;
	} outputs[MAX_PLUGINS];
	int noutputs;
};

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
	return dispatch__tag_path(((struct host *)ctx->host)->d, tag);
}

static const char *fmt_path_of(void *ud, const struct dio_file_tag *tag)
{
	return dispatch__tag_path(((struct host *)ud)->d, tag);
}

static int host_format_event(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
			     char *buf, size_t len)
{
	struct fmt_ctx fc = {
		.flags = flags,
		.realtime_off = ((struct host *)ctx->host)->realtime_off,
		.path_of = fmt_path_of,
		.ud = ctx->host,
	};

	/* a module may hand over a copy or a record of its own: it is checked as any other */
	if (record_check(ev, ev ? ev->size : 0, RECORD_HOST_MADE, NULL)) {
		if (len)
			buf[0] = 0;
		return -EINVAL;
	}
	return format__event(&fc, ev, buf, len);
}

static uint64_t host_realtime_ns(struct dio_ctx *ctx, uint64_t mono_ns)
{
	return mono_ns + ((struct host *)ctx->host)->realtime_off;
}

static void host_stats_sized(struct dio_ctx *ctx, struct dio_stats *out, size_t size)
{
	struct host *h = ctx->host;
	struct dio_stats st = { 0 };

	dispatch__stats(h->d, &st);
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
	return verdict__rule(((struct host *)ctx->host)->v, i, analyzer);
}

static const char *host_info(struct dio_ctx *ctx, const char *key)
{
	return host__info(ctx->host, key);
}

const char *host__info(const struct host *h, const char *key)
{
	for (int i = 0; key && i < h->ninfo; i++)
		if (!strcmp(h->info[i].key, key))
			return h->info[i].val;
	return NULL;
}

int host__set_info(struct host *h, const char *key, const char *val)
{
	char *copy = val ? strdup(val) : NULL;
	int i;

	if (val && !copy)
		return -ENOMEM;
	for (i = 0; i < h->ninfo && strcmp(h->info[i].key, key); i++)
		;
	if (!val) {
		if (i < h->ninfo) {
			free(h->info[i].val);
			h->info[i] = h->info[--h->ninfo];
		}
		return 0;
	}
	if (i == h->ninfo) {
		if (h->ninfo == (int)(sizeof(h->info) / sizeof(h->info[0]))) {
			free(copy);
			return -E2BIG;
		}
		h->info[h->ninfo++].key = key;
	}
	free(h->info[i].val);
	h->info[i].val = copy;
	return 0;
}

/*
 * Now, or in a replay the time of its record at mono (none when it has no
 * record), as RFC 3339 UTC, the form SARIF and JUnit take: a replay's reports
 * depend on the trace alone.
 */
static void set_time(struct host *h, const char *key, uint64_t mono)
{
	struct timespec ts;
	struct tm tm;
	char buf[64];

	if (h->replay && !mono) {
		host__set_info(h, key, NULL);
		return;
	}
	if (h->replay) {
		mono += (uint64_t)h->realtime_off;
		ts.tv_sec = (time_t)(mono / 1000000000);
		ts.tv_nsec = (long)(mono % 1000000000);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
	}
	if (!gmtime_r(&ts.tv_sec, &tm))
		memset(&tm, 0, sizeof(tm));
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".%03ldZ", ts.tv_nsec / 1000000);
	host__set_info(h, key, buf);
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

/* "fstypes": the file system type of each device, as this machine mounts them now */
static void set_fstypes_info(struct host *h)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *text = malloc(FSTYPES_MAX);

	if (f && text && fstypes__read(f, text, FSTYPES_MAX) > 0)
		host__set_info(h, "fstypes", text);
	if (f)
		fclose(f);
	free(text);
}

/* what host->info knows before the trace: dio, the machine, the options */
static void set_default_info(struct host *h)
{
	const struct options *o = h->o;
	char host[256], cmd[4096], id[64];
	unsigned char rnd[16];
	size_t off = 0;

	host__set_info(h, "version", PACKAGE_VERSION);
	if (read_first_line("/proc/sys/kernel/random/boot_id", id, sizeof(id)) > 0)
		host__set_info(h, "boot_id", id);
	/* a new id for each session: what rows of many runs in one database tell apart */
	if (getrandom(rnd, sizeof(rnd), 0) == (ssize_t)sizeof(rnd)) {
		for (size_t i = 0; i < sizeof(rnd); i++)
			snprintf(id + 2 * i, 3, "%02x", rnd[i]);
		host__set_info(h, "session_id", id);
	}
	if (!gethostname(host, sizeof(host) - 1)) {
		host[sizeof(host) - 1] = 0;
		host__set_info(h, "hostname", host);
	}
	if (o->srcroot)
		host__set_info(h, "srcroot", *o->srcroot ? o->srcroot : "/");
	/* a live session's tracer is this process; a replay's, the recording's (if it says) */
	if (!h->replay) {
		snprintf(id, sizeof(id), "%d", (int)getpid());
		host__set_info(h, "tracer_pid", id);
	}
	if (o->fail_on >= 0 && o->fail_on_names) {
		char v[512];

		snprintf(v, sizeof(v), "%s,%s", findings_severity((uint32_t)o->fail_on),
			 o->fail_on_names);
		host__set_info(h, "fail_on", v);
	} else if (o->fail_on >= 0) {
		host__set_info(h, "fail_on", findings_severity((uint32_t)o->fail_on));
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
		host__set_info(h, "command", clean);
	}
	set_time(h, "start", 0);
	/* a replay's come from its recording (recorded_info) */
	if (!h->replay)
		set_fstypes_info(h);
}

static int host_fs_type(struct dio_ctx *ctx, uint32_t dev, char *buf, size_t len)
{
	return fstypes__find(host__info(ctx->host, "fstypes"), dev, buf, len);
}

static int host_emit_finding(struct dio_ctx *ctx, const struct dio_finding *f)
{
	return verdict__emit(((struct host *)ctx->host)->v, f, ctx->p->name);
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
	struct host *h = ctx->host;
	char why[256];
	int fd;

	for (int i = 0; i < h->noutputs; i++)
		if (!strcmp(h->outputs[i].path, path)) {
			fd = fcntl(h->outputs[i].fd, F_DUPFD_CLOEXEC, 0);
			if (fd < 0) {
				fd = -errno;
				host_log(ctx, "cannot share output '%s': %s", path, strerror(-fd));
			}
			return fd;
		}
	fd = util__create_output(path);
	if (fd < 0) {
		host_log(ctx, "cannot create output '%s': %s", path,
			 util__create_output_error(fd, why, sizeof(why)));
		return fd;
	}
	if (h->noutputs < MAX_PLUGINS) {
		struct output *out = &h->outputs[h->noutputs];

		out->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		out->path = out->fd >= 0 ? strdup(path) : NULL;
		if (out->path)
			h->noutputs++;
		else if (out->fd >= 0)
			close(out->fd);
	}
	return fd;
}

const struct dio_host host_table = {
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
	.syscall_info = decode__syscall_info,
	.decode_arg = decode__arg,
	.name_of = decode__name_of,
	.fs_type = host_fs_type,
};

static int64_t clock_offset(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
}

struct host *host__new(const struct options *o, struct dispatch *d, struct verdict *v, int replay)
{
	struct host *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->o = o;
	h->d = d;
	h->v = v;
	h->replay = replay;
	h->realtime_off = clock_offset();
	set_default_info(h);
	return h;
}

void host__free(struct host *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->noutputs; i++) {
		close(h->outputs[i].fd);
		free(h->outputs[i].path);
	}
	for (int i = 0; i < h->ninfo; i++)
		free(h->info[i].val);
	free(h);
}

void host__end(struct host *h, const uint64_t span[2])
{
	if (h->replay)
		set_time(h, "start", span[0]);
	set_time(h, "end", span[1]);
}

void host__set_realtime_off(struct host *h, int64_t off)
{
	h->realtime_off = off;
}

int64_t host__realtime_off(const struct host *h)
{
	return h->realtime_off;
}
