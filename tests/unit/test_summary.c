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
#include "fakehost.h"

/* x86_64 number of a call beyond fakehost.h's */
#define NR_sendfile	40

static int refuse_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
			 char *buf, size_t len)
{
	fail_msg("the summary has no reason to format events");
	return -EINVAL;
}

/* ---- records -------------------------------------------------------------- */

static const struct dio_file_tag no_tag;

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

static int setup(void **st)
{
	nfound = 0;
	memset(&fake_stats_val, 0, sizeof(fake_stats_val));
	fake_emit_result = 0;
	return sink_setup(st);
}

static int teardown(void **st)
{
	struct fixture *fx = *st;

	dio_analyzer.destroy(fx->state);
	unlink(fx->path);
	free(fx);
	return 0;
}

static void start(struct fixture *fx)
{
	opt_set("output", fx->path);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	assert_non_null(fx->state);
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
	struct dio_file_tag a = tag_of(1, 5);
	struct dio_ev_syscall r1 = sc(NR_read, 4096, 1000, &a), r2 = sc(NR_read, 4096, 2000, &a);
	struct dio_ev_syscall r3 = sc(NR_read, 4096, 3000, &a);
	struct dio_ev_syscall op = sc(NR_openat, -ENOENT, 4000, &no_tag);

	opts_reset(NULL);
	start(fx);
	deliver(fx, &r1);
	deliver(fx, &op);
	deliver(fx, &r2);
	deliver(fx, &r3);
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
	assert_int_equal(nfound, 0);
}

/* io_uring requests by opcode name, bytes only for read/write-like calls and opcodes */
static void uring_opcodes_bytes_and_errors(void **st)
{
	struct fixture *fx = *st;
	struct dio_file_tag a = tag_of(1, 5), b = tag_of(2, 5);
	struct dio_ev_iouring ur = uring(22, 8192, 30000, &b);		/* READ */
	struct dio_ev_iouring uw = uring(2, 100, 20000, &b);		/* WRITEV */
	struct dio_ev_iouring ux = uring(200, 0, 10000, &no_tag);	/* unknown */
	struct dio_ev_iouring uf = uring(3, -EIO, 5000, &b);		/* FSYNC fails */
	struct dio_ev_syscall w = sc(NR_write, 50, 4000, &a);
	struct dio_ev_syscall sf = sc(NR_sendfile, 70, 3000, &a);	/* source file: read */
	struct dio_ev_syscall again = sc(NR_read, -EAGAIN, 1000, &a);
	struct dio_ev_syscall cl = sc(NR_close, 0, 2000, &a);		/* not read-like */
	struct dio_ev_syscall big = sc(NR_fsync, 12345678, 500, &no_tag); /* not an error */

	opts_reset(NULL);
	start(fx);
	deliver(fx, &ur);
	deliver(fx, &uw);
	deliver(fx, &ux);
	deliver(fx, &uf);
	deliver(fx, &w);
	deliver(fx, &sf);
	deliver(fx, &again);
	deliver(fx, &cl);
	deliver(fx, &big);
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
	struct dio_file_tag t1 = tag_of(1, 5), t2 = tag_of(1, 5), t3 = tag_of(1, 5);
	struct dio_ev_syscall e;

	t2.gen = 6;
	t3.dev = (8 << 20) | 2;
	opts_reset(NULL);
	start(fx);
	/* same time and calls for all three: the order falls back to dev, ino, gen */
	e = sc(NR_read, 1, 1000, &t3);
	deliver(fx, &e);
	e = sc(NR_read, 1, 1000, &t2);
	deliver(fx, &e);
	e = sc(NR_read, 1, 1000, &t1);
	deliver(fx, &e);
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
		struct dio_file_tag t = tag_of(1, 5);
		struct dio_ev_syscall e;

		t.gen = g;
		e = sc(NR_read, 1, 1000, &t);
		deliver(fx, &e);
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
	struct dio_file_tag a = tag_of(1, 5);
	struct dio_ev_syscall e1 = sc(NR_write, -4096, 1000, &a);
	struct dio_ev_syscall e2 = sc(NR_write, -4095, 1000, &a);
	struct dio_ev_syscall e3 = sc(NR_write, -1, 1000, &a), e4 = sc(NR_write, 10, 1000, &a);

	opts_reset(NULL);
	start(fx);
	deliver(fx, &e1);
	deliver(fx, &e2);
	deliver(fx, &e3);
	deliver(fx, &e4);
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
	struct dio_file_tag nl = tag_of(3, 5), unk = tag_of(99, 5);
	struct dio_ev_syscall a = sc(NR_read, 1, 2000, &nl), b = sc(NR_read, 1, 1000, &unk);

	opts_reset(NULL);
	start(fx);
	deliver(fx, &a);
	deliver(fx, &b);
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
		struct dio_file_tag t = tag_of(100 + i, 5);
		struct dio_ev_syscall e = sc(NR_pread64, 10, 1000 * (i + 1), &t);

		deliver(fx, &e);
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
		struct dio_file_tag t = tag_of(100 + i, 5);
		struct dio_ev_syscall e = sc(NR_write, 100, 1000 * (i + 1), &t);

		deliver(fx, &e);
		deliver(fx, &e);	/* the second call on a kept file still finds its row */
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
		struct dio_file_tag t = tag_of(1000 + i, 5);
		struct dio_ev_syscall e = sc(NR_read, 1, 1000, &t);

		deliver(fx, &e);
		if (i % 2)
			deliver(fx, &e);
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
	return fakehost.tag_path(ctx, tag);
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

	kinds_host = fakehost;
	kinds_host.tag_path = kinds_tag_path;
	opts_reset("top", top, "files_by", by, "output", fx->path, NULL);
	assert_int_equal(dio_analyzer.init(&kinds_host, &fake_ctx, opts, &fx->state), 0);
	for (uint64_t i = 0; i < 40; i++) {
		t.ino = 1000 + i;
		e = sc(NR_write, 100, 1000, &t);
		feed(fx->state, &e);
	}
	for (uint64_t i = 0; i < 100; i++) {
		t = (struct dio_file_tag){ .dev = 8, .ino = 100 + i };
		e = sc(NR_read, 10, 500, &t);
		feed(fx->state, &e);
	}
	for (uint64_t i = 0; i < 3; i++) {
		t = (struct dio_file_tag){ .dev = 13, .ino = 10 + i };
		e = sc(NR_read, 1, 100, &t);
		feed(fx->state, &e);
	}
	t = tag_of(2, 5);
	e = sc(NR_pread64, 5, 2000, &t);
	feed(fx->state, &e);
	t = tag_of(99, 5);
	e = sc(NR_read, 1, 300, &t);
	feed(fx->state, &e);
	t = tag_of(98, 5);
	e = sc(NR_read, 1, 300, &t);
	feed(fx->state, &e);
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
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
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
	assert_int_equal(nfound, 0);
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
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].severity, DIO_SEV_WARNING);
	assert_string_equal(found[0].code, "summary.lost-events");
	assert_string_equal(found[0].title, "1234 events were lost "
			    "(ring buffer full: 1200, in-flight table full: 34)");
	assert_int_equal(found[0].count, 1234);
	assert_non_null(strstr(found[0].message, "--ring-size"));
	assert_non_null(strstr(found[0].message, "--drain-ms"));
	assert_non_null(strstr(found[0].message, "--wakeup-at"));
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
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title,
			    "5 events were lost (io_uring table full: 2, other: 3); "
			    "4 file paths were not sent (ring buffer full)");
	assert_int_equal(found[0].count, 5);
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
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title,
			    "60 events were lost (block request table full: 3, block completions not "
			    "seen: 43, io_uring completions not seen: 1, file-mapping table full: 2, "
			    "traced-process table full: 6, trace file writer behind: 5)");
	assert_int_equal(found[0].count, 60);
	assert_non_null(strstr(found[0].message, "raise --inflight-table"));
	assert_non_null(strstr(found[0].message, "no option brings them back"));
	assert_non_null(strstr(found[0].message, "--level 0 or 1"));
	assert_non_null(strstr(found[0].message, "trace fewer (-p"));
	assert_null(strstr(found[0].message, "ring buffer"));
	assert_null(strstr(found[0].message, "--ring-size"));
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
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].severity, DIO_SEV_INFO);
	assert_string_equal(found[0].title, "4 events were lost (block completions not seen: 3, "
			    "io_uring completions not seen: 1)");
	assert_int_equal(found[0].count, 4);

	dio_analyzer.destroy(fx->state);
	nfound = 0;
	fake_stats_val.lost_ringbuf = 1;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].severity, DIO_SEV_WARNING);
	assert_int_equal(found[0].count, 5);
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
		nfound = 0;
		fake_stats_val.lost_writer = 7;
		fake_stats_val.writer_cause = cases[i].cause;
		opts_reset(NULL);
		start(fx);
		assert_int_equal(dio_analyzer.finish(fx->state), 0);
		dio_analyzer.destroy(fx->state);
		fx->state = NULL;
		assert_string_equal(found[0].title,
				    "7 events were lost (trace file writer behind: 7)");
		if (!strstr(found[0].message, cases[i].says))
			fail_msg("cause %u: '%s' not in: %s", cases[i].cause, cases[i].says,
				 found[0].message);
		assert_null(strstr(found[0].message, "--ring-size"));
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
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title, "9 file paths were not sent (ring buffer full)");
	assert_int_equal(found[0].count, 9);
	got = slurp(fx->path);
	assert_null(strstr(got, "events lost"));
	assert_non_null(strstr(got, "dio: warning: 9 file paths not sent\n"));
	free(got);
}

/*
 * Paths on devices past the kernel's device table, and paths the kernel
 * forgot it sent: said under the tables, with their numbers, but no call was lost.
 */
static void kernel_table_bounds_are_said_without_a_finding(void **st)
{
	struct fixture *fx = *st;
	char *got;

	fake_stats_val.lost_blkdevs = 3;
	fake_stats_val.kernel_paths_evicted = 70000;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), 0);
	assert_int_equal(nfound, 0);
	got = slurp(fx->path);
	assert_non_null(strstr(got, "\ndio: warning: 3 file paths on devices past the kernel's "
				"device table (256): writeback and journal requests to them "
				"were not recorded\n"));
	assert_non_null(strstr(got, "\ndio: note: 70000 file paths forgotten by the kernel, at "
				"least (its tag table, --tag-table, was full): sent again if "
				"their file is used again\n"));
	assert_null(strstr(got, "events lost"));
	free(got);
}

static void failed_finding_fails_finish(void **st)
{
	struct fixture *fx = *st;

	fake_stats_val.lost_ringbuf = 1;
	fake_emit_result = -EIO;
	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_analyzer.finish(fx->state), -EIO);
	assert_int_equal(nfound, 1);
	assert_string_equal(logged, "");	/* the host names the sink that failed */
}

static void write_error_fails_finish_and_says_why(void **st)
{
	void *state = NULL;

	opts_reset("output", "/dev/full", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), 0);
	assert_int_equal(dio_analyzer.finish(state), -ENOSPC);
	assert_string_equal(logged, "cannot write the summary: No space left on device");
	dio_analyzer.destroy(state);
}

static void unopenable_output_fails_at_init(void **st)
{
	void *state = NULL;

	opts_reset("output", "/nonexistent-dio/sum", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), -ENOENT);
	assert_null(state);
	assert_string_equal(logged,
			    "cannot create output '/nonexistent-dio/sum': No such file or directory");
}

static void bad_limits_are_rejected(void **st)
{
	void *state = NULL;

	opts_reset("max_files", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
	assert_string_equal(logged, "max_files must be at least 1");
	opts_reset("top", "-1", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
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
		T(kernel_table_bounds_are_said_without_a_finding),
		T(failed_finding_fails_finish),
		T(write_error_fails_finish_and_says_why),
		T(unopenable_output_fails_at_init),
		T(bad_limits_are_rejected),
#undef T
	};

	/* the paths the host knows: another generation or device is another file */
	static const struct {
		uint32_t dev;
		uint64_t ino;
		uint32_t gen;
		const char *path;
	} paths[] = {
		{ (8 << 20) | 1, 1, 5, "/tmp/a" }, { (8 << 20) | 1, 1, 6, "/tmp/a#2" },
		{ (8 << 20) | 2, 1, 5, "/mnt/a" }, { (8 << 20) | 1, 2, 5, "/tmp/b" },
		{ (8 << 20) | 1, 3, 5, "/tmp/new\nline" },
	};
	char name[16];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		fake_path(&(struct dio_file_tag){ .ino = paths[i].ino, .dev = paths[i].dev,
						  .gen = paths[i].gen }, paths[i].path);
	for (uint64_t ino = 100; ino < 105; ino++) {
		struct dio_file_tag t = tag_of(ino, 5);

		snprintf(name, sizeof(name), "/f%llu", (unsigned long long)ino);
		fake_path(&t, name);
	}
	fakehost.format_event = refuse_format;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
