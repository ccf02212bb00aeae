// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one fake host of the unit tests (fakehost.h): the engine's own option
 * parser, names, decoding and output files, with what a test sets and reads
 * kept here.
 */
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "engine/decode.h"
#include "engine/fstypes.h"
#include "engine/host.h"
#include "engine/modules.h"
#include "engine/plugin.h"
#include "engine/util.h"

/* a test links one module: the other descriptor is NULL */
extern const struct dio_analyzer dio_analyzer __attribute__((weak));
extern const struct dio_sink dio_sink __attribute__((weak));

#include "declared_rules.h"
#include "fakehost.h"
#ifdef __SANITIZE_ADDRESS__
/* from the sanitizer runtime (sanitizer/allocator_interface.h, not shipped with gcc) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* the module as the engine keeps it: its options, and its name for messages */
static struct plugin mod;

struct dio_ctx fake_ctx = { .p = &mod };

/* ---- what the host knows ---------------------------------------------------- */

#define FAKE_PATHS 64
static struct {
	struct dio_file_tag tag;
	char path[128];
} fake_paths[FAKE_PATHS];
int nfake_paths;

struct dio_stats fake_stats_val;
const char *const *fake_infos;
const char *fake_fstypes;
const struct fake_rule *fake_rules;

char logged[1024];
int nlogged;

struct fake_finding found[FAKE_FINDINGS];
int nfound;
int nbelow;
int fake_emit_result;

static const char *refused;	/* who takes no records (fakehost_refuse_records) */

void fake_path(const struct dio_file_tag *tag, const char *path)
{
	assert_true(nfake_paths < FAKE_PATHS);
	fake_paths[nfake_paths].tag = *tag;
	snprintf(fake_paths[nfake_paths].path, sizeof(fake_paths[0].path), "%s", path);
	nfake_paths++;
}

/* ---- the host table ----------------------------------------------------------- */

static const char *fake_syscall_name(uint32_t nr)
{
	if (refused)
		fail_msg("%s names no system call", refused);
	return host_table.syscall_name(nr);
}

static const char *fake_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	assert_ptr_equal(ctx, &fake_ctx);
	if (refused)
		fail_msg("%s looks up no file tag", refused);
	for (int i = nfake_paths - 1; i >= 0; i--)
		if (!memcmp(&fake_paths[i].tag, tag, sizeof(*tag)))
			return fake_paths[i].path;
	return NULL;
}

/* "+S.NNNNNN [pid/tid comm] name(fd) = ret", enough to check excerpts */
static int fake_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
		       char *buf, size_t len)
{
	const struct dio_ev_syscall *e = (const void *)ev;

	(void)flags;
	assert_ptr_equal(ctx, &fake_ctx);
	if (refused)
		fail_msg("%s formats no record", refused);
	if (ev->type != DIO_EV_SYSCALL)
		return snprintf(buf, len, "+%llu.%06llu record type %u",
				(unsigned long long)(ev->ts / 1000000000),
				(unsigned long long)(ev->ts / 1000 % 1000000), ev->type);
	return snprintf(buf, len, "+%llu.%06llu [%u/%u %.16s] %s(%d) = %lld",
			(unsigned long long)(ev->ts / 1000000000),
			(unsigned long long)(ev->ts / 1000 % 1000000), e->pid, e->tid, e->comm,
			fakehost.syscall_name(e->nr), e->fd, (long long)e->ret);
}

static uint64_t fake_realtime_ns(struct dio_ctx *ctx, uint64_t mono_ns)
{
	(void)ctx;
	return mono_ns + REALTIME_OFF;
}

static int fake_emit_finding(struct dio_ctx *ctx, const struct dio_finding *f)
{
	struct fake_finding *d;

	assert_ptr_equal(ctx, &fake_ctx);
	if (!&dio_analyzer)
		fail_msg("a sink must not emit findings");
	assert_true(f->size >= sizeof(*f));
	assert_non_null(f->code);
	assert_non_null(f->title);
	assert_declared(&dio_analyzer, f->code);
	/* under the analyzer's floors: the host keeps it for a --baseline only, as here none */
	if (f->below) {
		nbelow++;
		return 0;
	}
	if (nfound++ >= FAKE_FINDINGS)
		return fake_emit_result;
	d = &found[nfound - 1];
	d->severity = f->severity;
	d->pid = f->pid;
	d->tid = f->tid;
	d->has_tag = f->has_tag;
	d->tag = f->tag;
	d->ts_first = f->ts_first;
	d->ts_last = f->ts_last;
	d->count = f->count;
	d->cost_ns = f->cost_ns;
	d->processes = f->processes;
	if (getenv("FAKE_FINDINGS_SHOW"))
		fprintf(stderr, "finding %s sev %u pid %u count %llu: %s\n", f->code, f->severity,
			f->pid, (unsigned long long)f->count, f->title);
#define COPY(field) snprintf(d->field, sizeof(d->field), "%s", f->field ? f->field : "")
	COPY(code); COPY(title); COPY(message); COPY(comm); COPY(path); COPY(excerpt);
#undef COPY
	return fake_emit_result;
}

static void fake_stats_sized(struct dio_ctx *ctx, struct dio_stats *out, size_t size)
{
	(void)ctx;
	memset(out, 0, size);
	memcpy(out, &fake_stats_val, size < sizeof(*out) ? size : sizeof(*out));
}

/* ABI 1 as it began, as the host: the fields up to path_truncated */
static void fake_stats(struct dio_ctx *ctx, struct dio_stats *out)
{
	fake_stats_sized(ctx, out, offsetof(struct dio_stats, path_truncated) +
			 sizeof(out->path_truncated));
}

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	va_start(ap, fmt);
	vsnprintf(logged, sizeof(logged), fmt, ap);
	va_end(ap);
	nlogged++;
}

/* the host's file and the host's one line when it cannot be made */
static int fake_create_output(struct dio_ctx *ctx, const char *path)
{
	char why[256];
	int fd = util__create_output(path);

	if (fd < 0)
		fake_log(ctx, "cannot create output '%s': %s", path,
			 util__create_output_error(fd, why, sizeof(why)));
	return fd;
}

static const struct dio_rule *fake_rule(struct dio_ctx *ctx, unsigned int i, const char **analyzer)
{
	(void)ctx;
	for (unsigned int k = 0; fake_rules && fake_rules[k].rule.code; k++)
		if (k == i) {
			if (analyzer)
				*analyzer = fake_rules[k].analyzer;
			return &fake_rules[k].rule;
		}
	return NULL;
}

static const char *fake_info(struct dio_ctx *ctx, const char *key)
{
	(void)ctx;
	for (int k = 0; fake_infos && fake_infos[k]; k += 2)
		if (!strcmp(fake_infos[k], key))
			return fake_infos[k + 1];
	return NULL;
}

static int fake_fs_type(struct dio_ctx *ctx, uint32_t dev, char *buf, size_t len)
{
	assert_ptr_equal(ctx, &fake_ctx);
	return fstypes__find(fake_fstypes, dev, buf, len);
}

struct dio_host fakehost = {
	.abi = DIO_PLUGIN_ABI,
	.size = sizeof(struct dio_host),
	.syscall_name = fake_syscall_name,
	.tag_path = fake_tag_path,
	.format_event = fake_format,
	.realtime_ns = fake_realtime_ns,
	.emit_finding = fake_emit_finding,
	.stats = fake_stats,
	.log = fake_log,
	.create_output = fake_create_output,
	.rule = fake_rule,
	.info = fake_info,
	.stats_sized = fake_stats_sized,
	/* decoding reads only dio's tables, as the host's own table does */
	.syscall_info = decode__syscall_info,
	.decode_arg = decode__arg,
	.name_of = decode__name_of,
	.fs_type = fake_fs_type,
};

void fakehost_refuse_records(const char *who)
{
	refused = who;
}

const struct fake_finding *finding(const char *code)
{
	for (int i = 0; i < nfound && i < FAKE_FINDINGS; i++)
		if (!strcmp(found[i].code, code))
			return &found[i];
	return NULL;
}

int nfindings(const char *code)
{
	int n = 0;

	for (int i = 0; i < nfound && i < FAKE_FINDINGS; i++)
		n += !strcmp(found[i].code, code);
	return n;
}

/* ---- options, parsed by the engine (engine/plugin.c) ------------------------- */

struct dio_optval opts[MAX_OPTS];

static void copy_out(void)
{
	assert_true(mod.nopts <= MAX_OPTS);
	memset(opts, 0, sizeof(opts));
	memcpy(opts, mod.opts, mod.nopts * sizeof(*opts));
}

void fakehost_set(const char *key, const char *val)
{
	char err[512];

	if (val) {
		if (plugin__set(&mod, key, val, "test", err, sizeof(err)))
			fail_msg("%s", err);
	} else {
		int i = 0;

		while (i < mod.nopts && strcmp(mod.options[i].name, key))
			i++;
		if (i == mod.nopts)
			fail_msg("no option %s", key);
		free(mod.owned[i]);
		mod.owned[i] = NULL;
		memset(&mod.opts[i], 0, sizeof(mod.opts[i]));
	}
	copy_out();
}

void opts_reset(const char *key, ...)
{
	const struct dio_option *options = &dio_analyzer ? dio_analyzer.options : dio_sink.options;
	char err[512];
	va_list ap;
	int n = 0;

	plugin__unload(&mod);
	while (options && options[n].name)
		n++;
	mod.kind = &dio_analyzer ? PLUGIN_ANALYZER : PLUGIN_SINK;
	mod.name = &dio_analyzer ? dio_analyzer.name : dio_sink.name;
	mod.options = options;
	mod.nopts = n;
	mod.opts = calloc(n + 1, sizeof(*mod.opts));
	mod.owned = calloc(n + 1, sizeof(*mod.owned));
	assert_non_null(mod.opts);
	assert_non_null(mod.owned);
	err[0] = 0;
	if (plugin__configure(&mod, NULL, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	copy_out();
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *)) {
		const char *v = va_arg(ap, const char *);

		fakehost_set(key, v);
	}
	va_end(ap);
}

/* ---- an analyzer's life ------------------------------------------------------- */

void *start_analyzer(void)
{
	void *state = NULL;

	nfound = 0;
	nbelow = 0;
	nfake_paths = 0;
	logged[0] = 0;
	memset(&fake_stats_val, 0, sizeof(fake_stats_val));
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), 0);
	return state;
}

void feed(void *state, const void *ev)
{
	const struct dio_ev_hdr *h = ev;

	if (dio_analyzer.events & DIO_EV_MASK(h->type))
		assert_int_equal(dio_analyzer.event(state, ev), 0);
}

void stop_analyzer(void *state)
{
	assert_int_equal(dio_analyzer.finish(state), 0);
	dio_analyzer.destroy(state);
}

size_t heap_in_use(void)
{
#ifdef __SANITIZE_ADDRESS__
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#endif
}

size_t init_heap_bytes(void)
{
	size_t before = heap_in_use(), used;
	void *state = start_analyzer();

	used = heap_in_use() - before;
	stop_analyzer(state);
	return used;
}

/* ---- records ---------------------------------------------------------------- */

struct dio_file_tag tag_of(uint64_t ino, uint32_t gen)
{
	struct dio_file_tag t = { .ino = ino, .dev = (8 << 20) | 1, .gen = gen };

	return t;
}

struct dio_ev_syscall sys_ev(uint64_t ts, uint32_t pid, uint32_t tid, const char *comm,
			     uint16_t nr, int32_t fd, const struct dio_file_tag *tag,
			     int64_t offset, int64_t ret, uint64_t dur)
{
	struct dio_ev_syscall e;

	memset(&e, 0, sizeof(e));
	e.hdr.type = DIO_EV_SYSCALL;
	e.hdr.size = sizeof(e);
	e.hdr.ts = ts;
	e.pid = pid;
	e.tid = tid;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	e.nr = nr;
	e.fd = fd;
	e.args[0] = (uint64_t)(int64_t)fd;
	e.ret = ret;
	e.duration = dur;
	if (tag) {
		e.flags |= DIO_SF_FILE;
		e.tag = *tag;
		e.ftype = DIO_FT_REG;
	}
	if (offset >= 0) {
		e.flags |= DIO_SF_OFFSET;
		e.offset = offset;
	}
	return e;
}

const struct dio_ev_syscall *with_str(struct sys_ev_buf *b, struct dio_ev_syscall e,
				      const char *s)
{
	size_t n = strlen(s) + 1;

	assert_true(n <= sizeof(b->str));
	b->e = e;
	memcpy(b->str, s, n);
	b->e.str_len[0] = (uint16_t)n;
	b->e.hdr.size = (uint16_t)(sizeof(b->e) + n);
	return &b->e;
}

/* A record of kind DIO_PROC_* about process pid (its main thread) at ts. */
static struct dio_ev_proc proc_ev(uint64_t ts, uint32_t pid, uint16_t kind)
{
	struct dio_ev_proc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DIO_EV_PROC;
	p.hdr.size = sizeof(p);
	p.hdr.ts = ts;
	p.pid = pid;
	p.tid = pid;
	p.kind = kind;
	return p;
}

struct dio_ev_proc exit_ev(uint64_t ts, uint32_t pid)
{
	struct dio_ev_proc p = proc_ev(ts, pid, DIO_PROC_EXIT);

	p.flags = DIO_PROCF_GROUP_DEAD;
	return p;
}

struct dio_ev_proc exec_ev(uint64_t ts, uint32_t pid, const char *comm)
{
	struct dio_ev_proc p = proc_ev(ts, pid, DIO_PROC_EXEC);

	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	return p;
}

struct dio_ev_ofd ofd_close_ev(uint64_t ts, uint32_t pid, uint32_t ofd, int32_t fd,
			       const struct dio_file_tag *tag, uint8_t ftype)
{
	struct dio_ev_ofd o;

	memset(&o, 0, sizeof(o));
	o.hdr.type = DIO_EV_OFD;
	o.hdr.size = sizeof(o);
	o.hdr.ts = ts;
	o.pid = pid;
	o.tid = pid;
	o.ofd = ofd;
	o.fd = fd;
	o.tag = *tag;
	o.nr = NR_close;
	o.how = DIO_OFD_CLOSE;
	o.ftype = ftype;
	o.flags = DIO_OFDF_OPENED | DIO_OFDF_FILE;
	return o;
}

/* ---- a module's output file ----------------------------------------------------- */

int sink_setup(void **st)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	int fd;

	assert_non_null(fx);
	snprintf(fx->path, sizeof(fx->path), "/tmp/dio-test-%s-XXXXXX",
		 &dio_analyzer ? dio_analyzer.name : dio_sink.name);
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	close(fd);
	logged[0] = '\0';
	nlogged = 0;
	*st = fx;
	return 0;
}

int sink_teardown(void **st)
{
	struct fixture *fx = *st;

	if (fx->state)
		dio_sink.destroy(fx->state);
	unlink(fx->path);
	free(fx);
	return 0;
}

void deliver(struct fixture *fx, const void *ev)
{
	if (&dio_analyzer)
		assert_int_equal(dio_analyzer.event(fx->state, ev), 0);
	else
		assert_int_equal(dio_sink.event(fx->state, ev), 0);
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

void has(const char *report, const char *want)
{
	if (!strstr(report, want))
		fail_msg("not in the report: %s\nreport: %s", want, report ? report : "");
}

void has_not(const char *report, const char *unwanted)
{
	if (strstr(report, unwanted))
		fail_msg("in the report: %s\nreport: %s", unwanted, report ? report : "");
}
