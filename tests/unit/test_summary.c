// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary analyzer, linked in directly and fed a synthetic stream through
 * its descriptor with a fake host: the exact table rows, the per-file rows and
 * their cap, and the lost-events finding.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "fake_create_output.h"
#include <dio/analyzer.h>
#include "declared_rules.h"

extern const struct dio_analyzer dio_analyzer;

/* ---- fake host ------------------------------------------------------------ */

struct dio_ctx {
	int unused;
};

static struct dio_ctx fake_ctx;

/* x86_64 numbers */
#define NR_READ		0
#define NR_WRITE	1
#define NR_CLOSE	3
#define NR_PREAD64	17
#define NR_SENDFILE	40
#define NR_FSYNC	74
#define NR_OPENAT	257

static const char *fake_syscall_name(uint32_t nr)
{
	static char unknown[512][16];

	switch (nr) {
	case NR_READ: return "read";
	case NR_WRITE: return "write";
	case NR_CLOSE: return "close";
	case NR_PREAD64: return "pread64";
	case NR_SENDFILE: return "sendfile";
	case NR_FSYNC: return "fsync";
	case NR_OPENAT: return "openat";
	}
	if (nr >= 512)
		return "syscall_unknown";
	snprintf(unknown[nr], sizeof(unknown[nr]), "syscall_%u", nr);
	return unknown[nr];
}

/* what the host says of the calls above: which way their bytes go */
static int fake_syscall_info(struct dio_ctx *ctx, uint32_t nr, struct dio_syscall_info *out,
			     size_t size)
{
	struct dio_syscall_info si = { .name = fake_syscall_name(nr) };

	(void)ctx;
	if (nr == NR_READ || nr == NR_PREAD64 || nr == NR_SENDFILE)
		si.io = DIO_IO_READ;
	else if (nr == NR_WRITE)
		si.io = DIO_IO_WRITE;
	memcpy(out, &si, size < sizeof(si) ? size : sizeof(si));
	return 0;
}

static const char *fake_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	assert_ptr_equal(ctx, &fake_ctx);
	if (tag->dev != ((8 << 20) | 1))
		return tag->ino == 1 ? "/mnt/a" : NULL;
	switch (tag->ino) {
	case 1: return tag->gen == 5 ? "/tmp/a" : "/tmp/a#2";
	case 2: return "/tmp/b";
	case 3: return "/tmp/new\nline";
	}
	if (tag->ino >= 100 && tag->ino < 200) {
		static char names[100][16];

		snprintf(names[tag->ino - 100], sizeof(names[0]), "/f%llu",
			 (unsigned long long)tag->ino);
		return names[tag->ino - 100];
	}
	return NULL;
}

static int fake_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
		       char *buf, size_t len)
{
	fail_msg("the summary has no reason to format events");
	return -EINVAL;
}

static uint64_t fake_realtime_ns(struct dio_ctx *ctx, uint64_t mono_ns)
{
	return mono_ns;
}

/* what emit_finding saw; the host copies strings, so do we */
static struct {
	int n;
	uint32_t severity;
	uint64_t count;
	char code[64], title[512], message[2048];
} found;
static int emit_result;
static struct dio_stats fake_stats_val;
static char logged[512];

static int fake_emit_finding(struct dio_ctx *ctx, const struct dio_finding *f)
{
	assert_ptr_equal(ctx, &fake_ctx);
	assert_true(f->size >= sizeof(*f));
	assert_declared(&dio_analyzer, f->code);
	found.n++;
	found.severity = f->severity;
	found.count = f->count;
	snprintf(found.code, sizeof(found.code), "%s", f->code);
	snprintf(found.title, sizeof(found.title), "%s", f->title);
	snprintf(found.message, sizeof(found.message), "%s", f->message);
	return emit_result;
}

/* as the host's ABI 1 stats: the fields up to path_truncated only */
static void fake_stats(struct dio_ctx *ctx, struct dio_stats *out)
{
	memcpy(out, &fake_stats_val, offsetof(struct dio_stats, lost_block));
}

static void fake_stats_sized(struct dio_ctx *ctx, struct dio_stats *out, size_t size)
{
	memcpy(out, &fake_stats_val, size < sizeof(*out) ? size : sizeof(*out));
}

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(logged, sizeof(logged), fmt, ap);
	va_end(ap);
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
	.stats_sized = fake_stats_sized,
	.syscall_info = fake_syscall_info,
};

/* ---- options, as the host would parse them --------------------------------- */

#define MAX_OPTS 8
static struct dio_optval opts[MAX_OPTS];

static void opt_set(const char *name, const char *val)
{
	for (int i = 0; dio_analyzer.options[i].name; i++) {
		if (strcmp(dio_analyzer.options[i].name, name))
			continue;
		if (dio_analyzer.options[i].type == DIO_OPT_STRING)
			opts[i].s = val;
		else
			opts[i].i = strtoll(val, NULL, 10);
		return;
	}
	fail_msg("no option %s", name);
}

/* the declared defaults, then "key", "value" pairs ending with NULL */
static void opts_reset(const char *key, ...)
{
	va_list ap;

	memset(opts, 0, sizeof(opts));
	for (int i = 0; dio_analyzer.options[i].name; i++) {
		assert_true(i < MAX_OPTS - 1);
		if (dio_analyzer.options[i].def)
			opt_set(dio_analyzer.options[i].name, dio_analyzer.options[i].def);
	}
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *))
		opt_set(key, va_arg(ap, const char *));
	va_end(ap);
}

/* ---- records -------------------------------------------------------------- */

static const struct dio_file_tag no_tag;

static struct dio_file_tag tag_of(uint64_t ino)
{
	struct dio_file_tag t = { .ino = ino, .dev = (8 << 20) | 1, .gen = 5 };

	return t;
}

static struct dio_ev_syscall sc(uint16_t nr, int64_t ret, uint64_t ns,
				const struct dio_file_tag *tag)
{
	struct dio_ev_syscall e;

	memset(&e, 0, sizeof(e));
	e.hdr.type = DIO_EV_SYSCALL;
	e.hdr.size = sizeof(e);
	e.pid = 10;
	e.tid = 10;
	e.nr = nr;
	e.ret = ret;
	e.duration = ns;
	e.fd = -1;
	if (tag->ino) {
		e.flags = DIO_SF_FILE;
		e.tag = *tag;
		e.ftype = DIO_FT_REG;
		e.fd = 3;
	}
	return e;
}

static struct dio_ev_iouring uring(uint8_t op, int64_t res, uint64_t ns,
				   const struct dio_file_tag *tag)
{
	struct dio_ev_iouring u;

	memset(&u, 0, sizeof(u));
	u.hdr.type = DIO_EV_IOURING;
	u.hdr.size = sizeof(u);
	u.opcode = op;
	u.res = res;
	u.duration = ns;
	if (tag->ino) {
		u.flags = DIO_IF_FILE;
		u.tag = *tag;
	}
	return u;
}

/* ---- helpers -------------------------------------------------------------- */

struct fixture {
	char path[64];
	void *state;
};

static int setup(void **st)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	int fd;

	assert_non_null(fx);
	snprintf(fx->path, sizeof(fx->path), "/tmp/dio-test-summary-XXXXXX");
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	close(fd);
	memset(&found, 0, sizeof(found));
	memset(&fake_stats_val, 0, sizeof(fake_stats_val));
	emit_result = 0;
	logged[0] = '\0';
	*st = fx;
	return 0;
}

static int teardown(void **st)
{
	struct fixture *fx = *st;

	dio_analyzer.destroy(fx->state);
	unlink(fx->path);
	free(fx);
	return 0;
}

static char *slurp(const char *path)
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

static void start(struct fixture *fx)
{
	opt_set("output", fx->path);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &fx->state), 0);
	assert_non_null(fx->state);
}

static void feed(struct fixture *fx, const void *ev)
{
	assert_int_equal(dio_analyzer.event(fx->state, ev), 0);
}

/* finish, then compare the whole output */
static void finish_expect(struct fixture *fx, int ret, const char *want)
{
	char *got;

	assert_int_equal(dio_analyzer.finish(fx->state), ret);
	got = slurp(fx->path);
	assert_string_equal(got, want);
	free(got);
}

#define CALL_HEAD \
	"% time     seconds  usecs/call   max usecs     calls    errors        bytes syscall\n" \
	"------ ----------- ----------- ----------- --------- --------- ------------ ----------------\n"
#define CALL_DASH \
	"------ ----------- ----------- ----------- --------- --------- ------------ ----------------\n"
#define FILE_HEAD \
	"\n% time     seconds     calls    errors         read      written file\n" \
	"------ ----------- --------- --------- ------------ ------------ ----------------\n"
#define FILE_DASH \
	"------ ----------- --------- --------- ------------ ------------ ----------------\n"

/* ---- tests ---------------------------------------------------------------- */

static void descriptor_declares_abi_and_subscriptions(void **st)
{
	assert_int_equal(dio_analyzer.abi, DIO_ANALYZER_ABI);
	assert_int_equal(dio_analyzer.size, sizeof(struct dio_analyzer));
	assert_string_equal(dio_analyzer.name, "summary");
	assert_int_equal(dio_analyzer.events,
			 DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_IOURING));
}

/* 3 reads of 4096 bytes from /tmp/a in 1, 2 and 3 us; openat fails with ENOENT in 4 us */
static void tables_for_a_small_stream(void **st)
{
	struct fixture *fx = *st;
	struct dio_file_tag a = tag_of(1);
	struct dio_ev_syscall r1 = sc(NR_READ, 4096, 1000, &a), r2 = sc(NR_READ, 4096, 2000, &a);
	struct dio_ev_syscall r3 = sc(NR_READ, 4096, 3000, &a);
	struct dio_ev_syscall op = sc(NR_OPENAT, -ENOENT, 4000, &no_tag);

	opts_reset(NULL);
	start(fx);
	feed(fx, &r1);
	feed(fx, &op);
	feed(fx, &r2);
	feed(fx, &r3);
	finish_expect(fx, 0,
		CALL_HEAD
		" 60.00    0.000006           2           3         3         0        12288 read\n"
		" 40.00    0.000004           4           4         1         1            0 openat\n"
		CALL_DASH
		"100.00    0.000010           2           4         4         1        12288 total\n"
		FILE_HEAD
		"100.00    0.000006         3         0        12288            0 /tmp/a\n"
		FILE_DASH
		"100.00    0.000006         3         0        12288            0 total\n");
	assert_int_equal(found.n, 0);
}

/* io_uring requests by opcode name, bytes only for read/write-like calls and opcodes */
static void uring_opcodes_bytes_and_errors(void **st)
{
	struct fixture *fx = *st;
	struct dio_file_tag a = tag_of(1), b = tag_of(2);
	struct dio_ev_iouring ur = uring(22, 8192, 30000, &b);		/* READ */
	struct dio_ev_iouring uw = uring(2, 100, 20000, &b);		/* WRITEV */
	struct dio_ev_iouring ux = uring(200, 0, 10000, &no_tag);	/* unknown */
	struct dio_ev_iouring uf = uring(3, -EIO, 5000, &b);		/* FSYNC fails */
	struct dio_ev_syscall w = sc(NR_WRITE, 50, 4000, &a);
	struct dio_ev_syscall sf = sc(NR_SENDFILE, 70, 3000, &a);	/* source file: read */
	struct dio_ev_syscall again = sc(NR_READ, -EAGAIN, 1000, &a);
	struct dio_ev_syscall cl = sc(NR_CLOSE, 0, 2000, &a);		/* not read-like */
	struct dio_ev_syscall big = sc(NR_FSYNC, 12345678, 500, &no_tag); /* not an error */

	opts_reset(NULL);
	start(fx);
	feed(fx, &ur);
	feed(fx, &uw);
	feed(fx, &ux);
	feed(fx, &uf);
	feed(fx, &w);
	feed(fx, &sf);
	feed(fx, &again);
	feed(fx, &cl);
	feed(fx, &big);
	finish_expect(fx, 0,
		CALL_HEAD
		" 39.74    0.000030          30          30         1         0         8192 io_uring:READ\n"
		" 26.49    0.000020          20          20         1         0          100 io_uring:WRITEV\n"
		" 13.25    0.000010          10          10         1         0            0 io_uring:200\n"
		"  6.62    0.000005           5           5         1         1            0 io_uring:FSYNC\n"
		"  5.30    0.000004           4           4         1         0           50 write\n"
		"  3.97    0.000003           3           3         1         0           70 sendfile\n"
		"  2.65    0.000002           2           2         1         0            0 close\n"
		"  1.32    0.000001           1           1         1         1            0 read\n"
		"  0.66    0.000000           0           0         1         0            0 fsync\n"
		CALL_DASH
		"100.00    0.000075           8          30         9         2         8412 total\n"
		FILE_HEAD
		" 84.62    0.000055         3         1         8192          100 /tmp/b\n"
		" 15.38    0.000010         4         1           70           50 /tmp/a\n"
		FILE_DASH
		"100.00    0.000065         7         2         8262          150 total\n");
}

/* a re-used inode number (new generation) or another device is another file */
static void each_tag_is_its_own_file(void **st)
{
	struct fixture *fx = *st;
	struct dio_file_tag t1 = tag_of(1), t2 = tag_of(1), t3 = tag_of(1);
	struct dio_ev_syscall e;

	t2.gen = 6;
	t3.dev = (8 << 20) | 2;
	opts_reset(NULL);
	start(fx);
	/* same time and calls for all three: the order falls back to dev, ino, gen */
	e = sc(NR_READ, 1, 1000, &t3);
	feed(fx, &e);
	e = sc(NR_READ, 1, 1000, &t2);
	feed(fx, &e);
	e = sc(NR_READ, 1, 1000, &t1);
	feed(fx, &e);
	finish_expect(fx, 0,
		CALL_HEAD
		"100.00    0.000003           1           1         3         0            3 read\n"
		CALL_DASH
		"100.00    0.000003           1           1         3         0            3 total\n"
		FILE_HEAD
		" 33.33    0.000001         1         0            1            0 /tmp/a\n"
		" 33.33    0.000001         1         0            1            0 /tmp/a#2\n"
		" 33.33    0.000001         1         0            1            0 /mnt/a\n"
		FILE_DASH
		"100.00    0.000003         3         0            3            0 total\n");
}

/*
 * an inode number re-used 300 times is 300 files, even where the hash slots
 * collide: rows by tag, as the table keeps them (by path, 299 of them have
 * one path and make one row)
 */
static void generations_never_merge(void **st)
{
	struct fixture *fx = *st;
	char *got;

	opts_reset("top", "0", "files_by", "tag", NULL);
	start(fx);
	for (uint32_t g = 0; g < 300; g++) {
		struct dio_file_tag t = tag_of(1);
		struct dio_ev_syscall e;

		t.gen = g;
		e = sc(NR_READ, 1, 1000, &t);
		feed(fx, &e);
	}
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	got = slurp(fx->path);
	assert_non_null(strstr(got, " 300         0          300            0 (300 more files)\n"));
	free(got);
}

/* like strace: only -1..-4095 are errors; no bytes for anything that is not positive */
static void errors_are_minus_one_to_minus_4095(void **st)
{
	struct fixture *fx = *st;
	struct dio_file_tag a = tag_of(1);
	struct dio_ev_syscall e1 = sc(NR_WRITE, -4096, 1000, &a);
	struct dio_ev_syscall e2 = sc(NR_WRITE, -4095, 1000, &a);
	struct dio_ev_syscall e3 = sc(NR_WRITE, -1, 1000, &a), e4 = sc(NR_WRITE, 10, 1000, &a);

	opts_reset(NULL);
	start(fx);
	feed(fx, &e1);
	feed(fx, &e2);
	feed(fx, &e3);
	feed(fx, &e4);
	finish_expect(fx, 0,
		CALL_HEAD
		"100.00    0.000004           1           1         4         2           10 write\n"
		CALL_DASH
		"100.00    0.000004           1           1         4         2           10 total\n"
		FILE_HEAD
		"100.00    0.000004         4         2            0           10 /tmp/a\n"
		FILE_DASH
		"100.00    0.000004         4         2            0           10 total\n");
}

static void unknown_paths_show_the_tag_and_odd_names_stay_on_one_line(void **st)
{
	struct fixture *fx = *st;
	struct dio_file_tag nl = tag_of(3), unk = tag_of(99);
	struct dio_ev_syscall a = sc(NR_READ, 1, 2000, &nl), b = sc(NR_READ, 1, 1000, &unk);

	opts_reset(NULL);
	start(fx);
	feed(fx, &a);
	feed(fx, &b);
	finish_expect(fx, 0,
		CALL_HEAD
		"100.00    0.000003           1           2         2         0            2 read\n"
		CALL_DASH
		"100.00    0.000003           1           2         2         0            2 total\n"
		FILE_HEAD
		" 66.67    0.000002         1         0            1            0 /tmp/new\\nline\n"
		" 33.33    0.000001         1         0            1            0 <tag 8:1|99|5>\n"
		FILE_DASH
		"100.00    0.000003         2         0            2            0 total\n");
}

static void no_events_prints_an_empty_table(void **st)
{
	struct fixture *fx = *st;

	opts_reset(NULL);
	start(fx);
	finish_expect(fx, 0,
		CALL_HEAD
		CALL_DASH
		"  0.00    0.000000           0           0         0         0            0 total\n");
}

/* files beyond `top` are added up in one row, so the total still adds up */
static void top_limits_the_listed_files(void **st)
{
	struct fixture *fx = *st;

	opts_reset("top", "1", NULL);
	start(fx);
	for (uint64_t i = 0; i < 3; i++) {
		struct dio_file_tag t = tag_of(100 + i);
		struct dio_ev_syscall e = sc(NR_PREAD64, 10, 1000 * (i + 1), &t);

		feed(fx, &e);
	}
	finish_expect(fx, 0,
		CALL_HEAD
		"100.00    0.000006           2           3         3         0           30 pread64\n"
		CALL_DASH
		"100.00    0.000006           2           3         3         0           30 total\n"
		FILE_HEAD
		" 50.00    0.000003         1         0           10            0 /f102\n"
		" 50.00    0.000003         2         0           20            0 (2 more files)\n"
		FILE_DASH
		"100.00    0.000006         3         0           30            0 total\n");
}

/* max_files=2: the first two files keep their rows, the rest go to (other files) */
static void max_files_caps_the_table(void **st)
{
	struct fixture *fx = *st;

	opts_reset("max_files", "2", NULL);
	start(fx);
	for (uint64_t i = 0; i < 5; i++) {
		struct dio_file_tag t = tag_of(100 + i);
		struct dio_ev_syscall e = sc(NR_WRITE, 100, 1000 * (i + 1), &t);

		feed(fx, &e);
		feed(fx, &e);	/* the second call on a kept file still finds its row */
	}
	finish_expect(fx, 0,
		CALL_HEAD
		"100.00    0.000030           3           5        10         0         1000 write\n"
		CALL_DASH
		"100.00    0.000030           3           5        10         0         1000 total\n"
		FILE_HEAD
		" 13.33    0.000004         2         0            0          200 /f101\n"
		"  6.67    0.000002         2         0            0          200 /f100\n"
		" 80.00    0.000024         6         0            0          600 (other files)\n"
		FILE_DASH
		"100.00    0.000030        10         0            0         1000 total\n");
}

/* thousands of files: the table grows, every call is counted in one file row */
static void many_files_all_counted(void **st)
{
	struct fixture *fx = *st;
	char *got, *tail;

	opts_reset("top", "0", NULL);
	start(fx);
	for (uint64_t i = 0; i < 5000; i++) {
		struct dio_file_tag t = tag_of(1000 + i);
		struct dio_ev_syscall e = sc(NR_READ, 1, 1000, &t);

		feed(fx, &e);
		if (i % 2)
			feed(fx, &e);
	}
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	got = slurp(fx->path);
	tail = strstr(got, FILE_HEAD);
	assert_non_null(tail);
	assert_string_equal(tail + strlen(FILE_HEAD),
		"100.00    0.007500      7500         0         7500            0 (5000 more files)\n"
		FILE_DASH
		"100.00    0.007500      7500         0         7500            0 total\n");
	free(got);
}

/*
 * Paths as dio names them for a journal re-created 40 times (dev 8:3,
 * inodes 1000 to 1039), 100 sockets (sockfs, 0:8) and 3 pipes (pipefs,
 * 0:13); the other files as the fake host names them.
 */
static const char *kinds_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	static char names[200][24];

	if (tag->dev == (8 << 20 | 3) && tag->ino >= 1000 && tag->ino < 1040)
		return "/var/lib/app/journal";
	if ((tag->dev == 8 || tag->dev == 13) && tag->ino < 200) {
		snprintf(names[tag->ino], sizeof(names[0]), "%s:[%llu]",
			 tag->dev == 8 ? "socket" : "pipe", (unsigned long long)tag->ino);
		return names[tag->ino];
	}
	return fake_tag_path(ctx, tag);
}

/*
 * 40 journals of 100 bytes written in 1 us each, 100 sockets of 10 bytes
 * read in 0.5 us each, 3 pipes, /tmp/b, and two files whose path never came
 */
static void feed_kinds(struct fixture *fx, const char *top, const char *by)
{
	static struct dio_host kinds_host;
	struct dio_file_tag t = { .dev = 8 << 20 | 3 };
	struct dio_ev_syscall e;

	kinds_host = host;
	kinds_host.tag_path = kinds_tag_path;
	opts_reset("top", top, "files_by", by, "output", fx->path, NULL);
	assert_int_equal(dio_analyzer.init(&kinds_host, &fake_ctx, opts, &fx->state), 0);
	for (uint64_t i = 0; i < 40; i++) {
		t.ino = 1000 + i;
		e = sc(NR_WRITE, 100, 1000, &t);
		feed(fx, &e);
	}
	for (uint64_t i = 0; i < 100; i++) {
		t = (struct dio_file_tag){ .dev = 8, .ino = 100 + i };
		e = sc(NR_READ, 10, 500, &t);
		feed(fx, &e);
	}
	for (uint64_t i = 0; i < 3; i++) {
		t = (struct dio_file_tag){ .dev = 13, .ino = 10 + i };
		e = sc(NR_READ, 1, 100, &t);
		feed(fx, &e);
	}
	t = tag_of(2);
	e = sc(NR_PREAD64, 5, 2000, &t);
	feed(fx, &e);
	t = tag_of(99);
	e = sc(NR_READ, 1, 300, &t);
	feed(fx, &e);
	t = tag_of(98);
	e = sc(NR_READ, 1, 300, &t);
	feed(fx, &e);
}

#define KINDS_CALLS \
	CALL_HEAD \
	" 54.79    0.000050           0           0       105         0         1005 read\n" \
	" 43.06    0.000040           1           1        40         0         4000 write\n" \
	"  2.15    0.000002           2           2         1         0            5 pread64\n" \
	CALL_DASH \
	"100.00    0.000092           0           2       146         0         5010 total\n"

/* one row for the path of 40 files, one for the sockets, one for the pipes */
static void files_grouped_by_path_sockets_and_pipes(void **st)
{
	struct fixture *fx = *st;

	feed_kinds(fx, "10", "path");
	finish_expect(fx, 0,
		KINDS_CALLS
		FILE_HEAD
		" 53.82    0.000050       100         0         1000            0 sockets (100)\n"
		" 43.06    0.000040        40         0            0         4000 /var/lib/app/journal (40 files)\n"
		"  2.15    0.000002         1         0            5            0 /tmp/b\n"
		"  0.32    0.000000         3         0            3            0 pipes (3)\n"
		"  0.32    0.000000         1         0            1            0 <tag 8:1|98|5>\n"
		"  0.32    0.000000         1         0            1            0 <tag 8:1|99|5>\n"
		FILE_DASH
		"100.00    0.000092       146         0         1010         4000 total\n");
}

/* past top, the rest in one row that says how many paths and files it holds */
static void grouped_rows_past_top_say_paths_and_files(void **st)
{
	struct fixture *fx = *st;

	feed_kinds(fx, "2", "path");
	finish_expect(fx, 0,
		KINDS_CALLS
		FILE_HEAD
		" 53.82    0.000050       100         0         1000            0 sockets (100)\n"
		" 43.06    0.000040        40         0            0         4000 /var/lib/app/journal (40 files)\n"
		"  3.12    0.000002         6         0           10            0 (4 more paths, 6 files)\n"
		FILE_DASH
		"100.00    0.000092       146         0         1010         4000 total\n");
}

/* files_by=tag: a row per file, sockets by their own name */
static void files_by_tag_keeps_a_row_per_file(void **st)
{
	struct fixture *fx = *st;

	feed_kinds(fx, "3", "tag");
	finish_expect(fx, 0,
		KINDS_CALLS
		FILE_HEAD
		"  2.15    0.000002         1         0            5            0 /tmp/b\n"
		"  1.08    0.000001         1         0            0          100 /var/lib/app/journal\n"
		"  1.08    0.000001         1         0            0          100 /var/lib/app/journal\n"
		" 95.69    0.000088       143         0         1005         3800 (143 more files)\n"
		FILE_DASH
		"100.00    0.000092       146         0         1010         4000 total\n");
}

static void files_by_is_path_or_tag(void **st)
{
	void *state = NULL;

	opts_reset("files_by", "inode", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &state), -EINVAL);
	assert_string_equal(logged, "files_by: 'inode' is not path or tag");
	assert_null(state);
}

static void no_finding_when_nothing_was_lost(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.events = 123;
	fake_stats_val.path_truncated = 7;	/* not a loss */
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(found.n, 0);
}

static void lost_events_give_a_warning_line_and_a_finding(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.lost_ringbuf = 1200;
	fake_stats_val.lost_inflight = 34;
	opts_reset(NULL);
	start(fx);
	finish_expect(fx, 0,
		CALL_HEAD
		CALL_DASH
		"  0.00    0.000000           0           0         0         0            0 total\n"
		"dio: warning: 1234 events lost\n");
	assert_int_equal(found.n, 1);
	assert_int_equal(found.severity, DIO_SEV_WARNING);
	assert_string_equal(found.code, "summary.lost-events");
	assert_string_equal(found.title, "1234 events were lost "
			    "(ring buffer full: 1200, in-flight table full: 34)");
	assert_int_equal(found.count, 1234);
	assert_non_null(strstr(found.message, "--ring-size"));
	assert_non_null(strstr(found.message, "--drain-ms"));
	assert_non_null(strstr(found.message, "--wakeup-at"));
}

static void every_loss_counter_is_named(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.lost_iouring = 2;
	fake_stats_val.lost_other = 3;
	fake_stats_val.lost_pathtab = 4;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(found.n, 1);
	assert_string_equal(found.title,
			    "5 events were lost (io_uring table full: 2, other: 3); "
			    "4 file paths were not sent (file-tag table full)");
	assert_int_equal(found.count, 5);
}

/* each reason by its name, with its own advice: writer drops are no ring-buffer loss */
static void each_loss_reason_has_its_name_and_advice(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.lost_block = 3;
	fake_stats_val.lost_block_unseen = 43;
	fake_stats_val.lost_mappings = 2;
	fake_stats_val.lost_iouring_unseen = 1;
	fake_stats_val.lost_procs = 6;
	fake_stats_val.lost_writer = 5;
	fake_stats_val.writer_cause = DIO_WRITER_CPU;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(found.n, 1);
	assert_string_equal(found.title,
			    "60 events were lost (block request table full: 3, block completions not "
			    "seen: 43, io_uring completions not seen: 1, file-mapping table full: 2, "
			    "traced-process table full: 6, trace file writer behind: 5)");
	assert_int_equal(found.count, 60);
	assert_non_null(strstr(found.message, "raise --inflight-table"));
	assert_non_null(strstr(found.message, "no option brings them back"));
	assert_non_null(strstr(found.message, "--level 0 or 1"));
	assert_non_null(strstr(found.message, "trace fewer (-p"));
	assert_null(strstr(found.message, "ring buffer"));
	assert_null(strstr(found.message, "--ring-size"));
}

/*
 * completions the kernel never showed dio: said, but an INFO, as no run of
 * dio would have them (no --fail-on warning gate fails on them); one
 * avoidable loss beside them makes it the warning again
 */
static void completions_never_shown_are_no_warning(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.lost_block_unseen = 3;
	fake_stats_val.lost_iouring_unseen = 1;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(found.n, 1);
	assert_int_equal(found.severity, DIO_SEV_INFO);
	assert_string_equal(found.title, "4 events were lost (block completions not seen: 3, "
			    "io_uring completions not seen: 1)");
	assert_int_equal(found.count, 4);

	dio_analyzer.destroy(fx->state);
	memset(&found, 0, sizeof(found));
	fake_stats_val.lost_ringbuf = 1;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(found.n, 1);
	assert_int_equal(found.severity, DIO_SEV_WARNING);
	assert_int_equal(found.count, 5);
}

static void writer_drops_name_what_held_the_writer_back(void **st)
{
	static const struct {
		uint32_t cause;
		const char *says;
	} cases[] = {
		{ DIO_WRITER_CPU, "short of CPU time, compressing" },
		{ DIO_WRITER_CPU_WAIT, "waited for a CPU that other threads held" },
		{ DIO_WRITER_DISK, "waited for the disk" },
		{ DIO_WRITER_UNKNOWN, "the recording does not say why" },
		{ 99, "the recording does not say why" },
	};
	struct fixture *fx = *st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&fake_stats_val, 0, sizeof(fake_stats_val));
		memset(&found, 0, sizeof(found));
		fake_stats_val.lost_writer = 7;
		fake_stats_val.writer_cause = cases[i].cause;
		opts_reset(NULL);
		start(fx);
		assert_int_equal(dio_analyzer.finish(fx->state), 0);
		dio_analyzer.destroy(fx->state);
		fx->state = NULL;
		assert_string_equal(found.title, "7 events were lost (trace file writer behind: 7)");
		if (!strstr(found.message, cases[i].says))
			fail_msg("cause %u: '%s' not in: %s", cases[i].cause, cases[i].says,
				 found.message);
		assert_null(strstr(found.message, "--ring-size"));
	}
}

static void lost_paths_alone_are_reported(void **st)
{
	struct fixture *fx = *st;
	char *got;

	fake_stats_val.lost_pathtab = 9;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(found.n, 1);
	assert_string_equal(found.title, "9 file paths were not sent (file-tag table full)");
	assert_int_equal(found.count, 9);
	got = slurp(fx->path);
	assert_null(strstr(got, "events lost"));
	assert_non_null(strstr(got, "dio: warning: 9 file paths not sent\n"));
	free(got);
}

static void failed_finding_fails_finish(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.lost_ringbuf = 1;
	emit_result = -EIO;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), -EIO);
	assert_int_equal(found.n, 1);
	assert_string_equal(logged, "");	/* the host names the sink that failed */
}

static void write_error_fails_finish_and_says_why(void **st)
{
	void *state = NULL;

	opts_reset("output", "/dev/full", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &state), 0);
	assert_int_equal(dio_analyzer.finish(state), -ENOSPC);
	assert_string_equal(logged, "cannot write the summary: No space left on device");
	dio_analyzer.destroy(state);
}

static void unopenable_output_fails_at_init(void **st)
{
	void *state = NULL;

	opts_reset("output", "/nonexistent-dio/sum", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &state), -ENOENT);
	assert_null(state);
	assert_string_equal(logged,
			    "cannot create output '/nonexistent-dio/sum': No such file or directory");
}

static void bad_limits_are_rejected(void **st)
{
	void *state = NULL;

	opts_reset("max_files", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &state), -EINVAL);
	assert_string_equal(logged, "max_files must be at least 1");
	opts_reset("top", "-1", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &state), -EINVAL);
	assert_string_equal(logged, "top must be at least 0");
	assert_null(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(descriptor_declares_abi_and_subscriptions),
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(tables_for_a_small_stream),
		T(uring_opcodes_bytes_and_errors),
		T(each_tag_is_its_own_file),
		T(generations_never_merge),
		T(errors_are_minus_one_to_minus_4095),
		T(unknown_paths_show_the_tag_and_odd_names_stay_on_one_line),
		T(no_events_prints_an_empty_table),
		T(top_limits_the_listed_files),
		T(max_files_caps_the_table),
		T(many_files_all_counted),
		T(files_grouped_by_path_sockets_and_pipes),
		T(grouped_rows_past_top_say_paths_and_files),
		T(files_by_tag_keeps_a_row_per_file),
		T(files_by_is_path_or_tag),
		T(no_finding_when_nothing_was_lost),
		T(lost_events_give_a_warning_line_and_a_finding),
		T(every_loss_counter_is_named),
		T(each_loss_reason_has_its_name_and_advice),
		T(completions_never_shown_are_no_warning),
		T(writer_drops_name_what_held_the_writer_back),
		T(lost_paths_alone_are_reported),
		T(failed_finding_fails_finish),
		T(write_error_fails_finish_and_says_why),
		T(unopenable_output_fails_at_init),
		T(bad_limits_are_rejected),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
