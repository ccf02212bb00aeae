/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the unit tests of analyzer modules share: a fake host that keeps every
 * finding (strings copied, as the real host does) and fails the test when its
 * code is not among the analyzer's rules (declared_rules.h), names system calls
 * by their x86_64 numbers, knows the paths a test gives it, formats calls in a
 * short strace-like form, and has options parsed by the engine (fakehost.c); builders for
 * synthetic records; the heap in use, to show state stays bounded. It names
 * errnos and flags as the real host does, with the engine's own functions
 * (engine/decode.c). The test links the analyzer, whose descriptor is
 * dio_analyzer, and the engine. Include it after <cmocka.h>.
 */
#ifndef DIO_TEST_FAKE_ANALYZER_HOST_H
#define DIO_TEST_FAKE_ANALYZER_HOST_H

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake_create_output.h"
#include <dio/analyzer.h>
#include "declared_rules.h"
#include "engine/decode.h"
#include "engine/fstypes.h"
#include "fakehost.h"
#ifdef __SANITIZE_ADDRESS__
/* from the sanitizer runtime (sanitizer/allocator_interface.h, not shipped with gcc) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

extern const struct dio_analyzer dio_analyzer;

struct dio_ctx {
	int unused;
};

static struct dio_ctx fake_ctx;

/* 2024-01-02 03:04:05 UTC is monotonic second 1 */
#define REALTIME_OFF	(1704164644ULL * 1000000000ULL)

/* x86_64 numbers of the calls analyzers care about */
enum {
	NR_read = 0, NR_write = 1, NR_open = 2, NR_close = 3, NR_stat = 4, NR_fstat = 5,
	NR_lstat = 6, NR_lseek = 8, NR_pread64 = 17, NR_pwrite64 = 18, NR_readv = 19,
	NR_writev = 20, NR_access = 21, NR_fsync = 74, NR_fdatasync = 75, NR_truncate = 76,
	NR_ftruncate = 77, NR_rename = 82, NR_creat = 85, NR_unlink = 87, NR_openat = 257,
	NR_newfstatat = 262, NR_unlinkat = 263, NR_renameat = 264, NR_faccessat = 269,
	NR_sync_file_range = 277, NR_preadv = 295, NR_pwritev = 296, NR_renameat2 = 316,
	NR_preadv2 = 327, NR_pwritev2 = 328, NR_statx = 332, NR_openat2 = 437,
	NR_faccessat2 = 439,
	NR_sync = 162, NR_syncfs = 306,
};

static const char *fake_syscall_name(uint32_t nr)
{
	static char other[32];

	switch (nr) {
#define X(n) case NR_##n: return #n;
	X(read) X(write) X(open) X(close) X(stat) X(fstat) X(lstat) X(lseek) X(pread64)
	X(pwrite64) X(readv) X(writev) X(access) X(fsync) X(fdatasync) X(truncate)
	X(ftruncate) X(rename) X(creat) X(unlink) X(openat) X(newfstatat) X(unlinkat)
	X(renameat) X(faccessat) X(sync_file_range) X(preadv) X(pwritev) X(renameat2)
	X(preadv2) X(pwritev2) X(statx) X(openat2) X(faccessat2)
	X(sync) X(syncfs)
#undef X
	}
	snprintf(other, sizeof(other), "syscall_%u", nr);
	return other;
}

/* ---- paths the host knows: fake_path(ino, "/p") --------------------------- */

#define FAKE_PATHS 64
static struct {
	struct dio_file_tag tag;
	char path[128];
} fake_paths[FAKE_PATHS];
static int nfake_paths;

__attribute__((unused)) static void fake_path(const struct dio_file_tag *tag, const char *path)
{
	assert_true(nfake_paths < FAKE_PATHS);
	fake_paths[nfake_paths].tag = *tag;
	snprintf(fake_paths[nfake_paths].path, sizeof(fake_paths[0].path), "%s", path);
	nfake_paths++;
}

static const char *fake_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	assert_ptr_equal(ctx, &fake_ctx);
	/* the latest path given wins, as after a rename */
	for (int i = nfake_paths - 1; i >= 0; i--)
		if (!memcmp(&fake_paths[i].tag, tag, sizeof(*tag)))
			return fake_paths[i].path;
	return NULL;
}

/* "[pid/tid comm] name(fd) = ret" at "+S.NNNNNN", enough to check excerpts */
static int fake_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
		       char *buf, size_t len)
{
	const struct dio_ev_syscall *e = (const void *)ev;

	(void)flags;
	assert_ptr_equal(ctx, &fake_ctx);
	if (ev->type != DIO_EV_SYSCALL)
		return snprintf(buf, len, "+%llu.%06llu record type %u",
				(unsigned long long)(ev->ts / 1000000000),
				(unsigned long long)(ev->ts / 1000 % 1000000), ev->type);
	return snprintf(buf, len, "+%llu.%06llu [%u/%u %.16s] %s(%d) = %lld",
			(unsigned long long)(ev->ts / 1000000000),
			(unsigned long long)(ev->ts / 1000 % 1000000), e->pid, e->tid, e->comm,
			fake_syscall_name(e->nr), e->fd, (long long)e->ret);
}

static uint64_t fake_realtime_ns(struct dio_ctx *ctx, uint64_t mono_ns)
{
	(void)ctx;
	return mono_ns + REALTIME_OFF;
}

/* ---- findings, copied ----------------------------------------------------- */

#define FAKE_FINDINGS 64
struct fake_finding {
	uint32_t severity, pid, tid, has_tag;
	struct dio_file_tag tag;
	uint64_t ts_first, ts_last, count, cost_ns;
	uint32_t processes;
	char code[64], title[256], message[4096], comm[32], path[256], excerpt[2048];
};
static struct fake_finding found[FAKE_FINDINGS];
static int nfound;		/* findings emitted (may exceed FAKE_FINDINGS; only those are kept) */
static int nbelow;		/* patterns sent under the analyzer's floors (dio_finding.below) */

static int fake_emit_finding(struct dio_ctx *ctx, const struct dio_finding *f)
{
	struct fake_finding *d;

	assert_ptr_equal(ctx, &fake_ctx);
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
		return 0;
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
	return 0;
}

/* the first finding with this code, or NULL */
__attribute__((unused)) static const struct fake_finding *finding(const char *code)
{
	for (int i = 0; i < nfound && i < FAKE_FINDINGS; i++)
		if (!strcmp(found[i].code, code))
			return &found[i];
	return NULL;
}

__attribute__((unused)) static int nfindings(const char *code)
{
	int n = 0;

	for (int i = 0; i < nfound && i < FAKE_FINDINGS; i++)
		n += !strcmp(found[i].code, code);
	return n;
}

static struct dio_stats fake_stats_val;

static void fake_stats(struct dio_ctx *ctx, struct dio_stats *out)
{
	(void)ctx;
	*out = fake_stats_val;
}

static char logged[1024];

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	va_start(ap, fmt);
	vsnprintf(logged, sizeof(logged), fmt, ap);
	va_end(ap);
}

/* host->info: "key", "value", ... NULL pairs a test sets; NULL: nothing known */
static const char *const *fake_infos;

static const char *fake_info(struct dio_ctx *ctx, const char *key)
{
	(void)ctx;
	for (int k = 0; fake_infos && fake_infos[k]; k += 2)
		if (!strcmp(fake_infos[k], key))
			return fake_infos[k + 1];
	return NULL;
}

/* host->fs_type: "MAJ:MIN=TYPE ..." a test sets, as a recording keeps them; NULL: none known */
static const char *fake_fstypes;

static int fake_fs_type(struct dio_ctx *ctx, uint32_t dev, char *buf, size_t len)
{
	assert_ptr_equal(ctx, &fake_ctx);
	return fstypes__find(fake_fstypes, dev, buf, len);
}

static const struct dio_host host = {
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
	.info = fake_info,
	.syscall_info = decode__syscall_info,
	.decode_arg = decode__arg,
	.name_of = decode__name_of,
	.fs_type = fake_fs_type,
};

/* ---- options, parsed by the engine (fakehost.c) ----------------------------- */

#define MAX_OPTS 32
static struct dio_optval opts[MAX_OPTS];

__attribute__((unused)) static void opt_set(const char *name, const char *val)
{
	fakehost_set(name, val, opts, MAX_OPTS);
}

/* the declared defaults, then "key", "value" pairs ending with NULL */
__attribute__((unused)) static void opts_reset(const char *key, ...)
{
	va_list ap;

	fakehost_options(dio_analyzer.options, dio_analyzer.name, 0, opts, MAX_OPTS);
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *))
		opt_set(key, va_arg(ap, const char *));
	va_end(ap);
}

/* Reset findings and paths, init the analyzer with opts. */
__attribute__((unused)) static void *start_analyzer(void)
{
	void *state = NULL;

	nfound = 0;
	nbelow = 0;
	nfake_paths = 0;
	logged[0] = 0;
	memset(&fake_stats_val, 0, sizeof(fake_stats_val));
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &state), 0);
	return state;
}

/* Deliver a record, as the host would: only the types the analyzer subscribed to. */
__attribute__((unused)) static void feed(void *state, const void *ev)
{
	const struct dio_ev_hdr *h = ev;

	if (dio_analyzer.events & DIO_EV_MASK(h->type))
		assert_int_equal(dio_analyzer.event(state, ev), 0);
}

__attribute__((unused)) static void stop_analyzer(void *state)
{
	assert_int_equal(dio_analyzer.finish(state), 0);
	dio_analyzer.destroy(state);
}

/* ---- records -------------------------------------------------------------- */

__attribute__((unused)) static struct dio_file_tag tag_of(uint64_t ino, uint32_t gen)
{
	struct dio_file_tag t = { .ino = ino, .dev = (8 << 20) | 1, .gen = gen };

	return t;
}

/*
 * A syscall record at ts (ns) by pid/tid named comm: nr(args...) = ret on the
 * file tag (NULL: no file) through fd, at offset (< 0: none), lasting dur ns.
 */
__attribute__((unused)) static struct dio_ev_syscall sys_ev(uint64_t ts, uint32_t pid, uint32_t tid, const char *comm,
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

/* A syscall record followed by its first string argument, as the host delivers it. */
struct sys_ev_buf {
	struct dio_ev_syscall e;
	char str[256];
};

/* e with the string s appended (str_len[0], hdr.size set); the record is b->e. */
__attribute__((unused)) static const struct dio_ev_syscall *
with_str(struct sys_ev_buf *b, struct dio_ev_syscall e, const char *s)
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

/* The exit of process pid (its last thread) at ts. */
__attribute__((unused)) static struct dio_ev_proc exit_ev(uint64_t ts, uint32_t pid)
{
	struct dio_ev_proc p = proc_ev(ts, pid, DIO_PROC_EXIT);

	p.flags = DIO_PROCF_GROUP_DEAD;
	return p;
}

/* The exec of the program comm by process pid at ts. */
__attribute__((unused)) static struct dio_ev_proc exec_ev(uint64_t ts, uint32_t pid,
							  const char *comm)
{
	struct dio_ev_proc p = proc_ev(ts, pid, DIO_PROC_EXEC);

	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	return p;
}

/* The host's record that description ofd (on tag, of type ftype) ended: close of its last fd. */
__attribute__((unused)) static struct dio_ev_ofd ofd_close_ev(uint64_t ts, uint32_t pid,
							       uint32_t ofd, int32_t fd,
							       const struct dio_file_tag *tag,
							       uint8_t ftype)
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

/* ---- memory --------------------------------------------------------------- */

/* bytes of heap in use: state that grows shows here (under ASan, its allocator's count) */
__attribute__((unused)) static size_t heap_in_use(void)
{
#ifdef __SANITIZE_ADDRESS__
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#endif
}

/* Heap bytes the analyzer's init takes with opts (the state is destroyed again). */
__attribute__((unused)) static size_t init_heap_bytes(void)
{
	size_t before = heap_in_use(), used;
	void *state = start_analyzer();

	used = heap_in_use() - before;
	stop_analyzer(state);
	return used;
}

#endif
