// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access-pattern analyzer on synthetic streams: each check at the edge of
 * its threshold (just below: nothing; at it: a finding with the counts), the
 * minimum number of requests, the time small requests must cost, what is not
 * random or not read again (a second fd, a reopened fd, the rest of a page)
 * and not small (a file moved whole in one request), one finding per process
 * whatever the number of its files, the severities, the report at process
 * exit, bad options, and its memory staying bounded over a million events.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/unit/fake_analyzer_host.h"

#define PID	300

static uint64_t now, gap = 1000;	/* ns from one request to the next */
static struct dio_file_tag file;

static void *start(void)
{
	void *st;

	now = 0;
	gap = 1000;
	file = tag_of(7, 1);
	st = start_analyzer();
	fake_path(&file, "/data/db");
	return st;
}

/* a read (write) of size bytes at off on fd by pid, that moved them all */
static void req(void *st, uint32_t pid, uint16_t nr, int32_t fd, uint64_t off, uint64_t size)
{
	struct dio_ev_syscall e = sys_ev(now += gap, pid, pid, "db", nr, fd, &file, (int64_t)off,
					 (int64_t)size, 200);

	e.args[2] = size;
	feed(st, &e);
}

static void rd(void *st, uint64_t off, uint64_t size)
{
	req(st, PID, NR_pread64, 3, off, size);
}

static void exit_(void *st, uint32_t pid)
{
	struct dio_ev_proc p = exit_ev(now += 1000, pid);

	feed(st, &p);
}

/* n requests in order from 0: 8 KiB ones, then `small` of 100 bytes */
static void sequential(void *st, int n, int small)
{
	uint64_t off = 0;

	for (int i = 0; i < n; i++) {
		uint64_t size = i < n - small ? 8192 : 100;

		rd(st, off, size);
		off += size;
	}
}

static void small_requests_at_their_edges(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	/* half of the requests small: at the share */
	opts_reset(NULL);
	st = start();
	sequential(st, 1000, 500);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("access-pattern.small-requests");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "pid 300 (db) made 500 of its 1000 requests to /data/db "
			    "smaller than 4096 bytes (50.0%): 500 reads, 0 writes");
	assert_int_equal(f->count, 500);
	assert_int_equal(f->pid, PID);
	assert_string_equal(f->path, "/data/db");
	assert_memory_equal(&f->tag, &file, sizeof(file));
	/* two small calls are kept for the excerpt */
	assert_string_equal(f->excerpt, "+0.000501 [300/300 db] pread64(3) = 100\n"
			    "+0.000502 [300/300 db] pread64(3) = 100\n");

	opts_reset(NULL);
	st = start();
	sequential(st, 1000, 499);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);

	/* all small, but one request short of the minimum */
	opts_reset(NULL);
	st = start();
	sequential(st, 999, 999);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);

	opts_reset("small_size", "100", NULL);
	st = start();
	sequential(st, 1000, 1000);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void small_writes_are_counted_as_writes(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 1000; i++)
		req(st, PID, NR_write, 4, (uint64_t)i * 80, 80);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_non_null(strstr(finding("access-pattern.small-requests")->title,
			       "made 1000 of its 1000 requests to /data/db smaller than 4096 bytes "
			       "(100.0%): 0 reads, 1000 writes"));
}

/* 1000 aligned 8 KiB reads in order, but `jumps` of them skip a page ahead */
static void jumping(void *st, int jumps)
{
	uint64_t off = 0;

	for (int i = 0; i < 1000; i++) {
		if (i >= 1000 - jumps)
			off += 4096;
		rd(st, off, 8192);
		off += 8192;
	}
}

static void random_requests_at_their_edge(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	jumping(st, 200);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("access-pattern.random");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_INFO);
	assert_string_equal(f->title, "pid 300 (db) made 200 of its 1000 requests to /data/db at "
			    "random offsets (20.0%): 200 reads, 0 writes");
	assert_int_equal(f->count, 200);

	opts_reset(NULL);
	st = start();
	jumping(st, 199);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* two fds read the file in order, taking turns: neither is random, but all is read twice */
static void two_fds_in_order_are_not_random(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 1000; i++) {
		req(st, PID, NR_read, 3, (uint64_t)i * 8192, 8192);
		req(st, PID, NR_read, 4, (uint64_t)i * 8192, 8192);
	}
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.random"), 0);
	assert_int_equal(nfindings("access-pattern.reread"), 1);
	assert_int_equal(finding("access-pattern.reread")->count, 1000 * 8192);
	assert_int_equal(nfound, 1);
}

/* open, read from 0 in order, close, again: a closed fd's position is forgotten */
static void reopened_fd_starts_over(void **unused)
{
	struct dio_ev_syscall c;
	void *st;

	(void)unused;
	opts_reset("reread_share", "1", NULL);
	st = start();
	for (int round = 0; round < 500; round++) {
		req(st, PID, NR_read, 3, 0, 8192);
		req(st, PID, NR_read, 3, 8192, 8192);
		c = sys_ev(now += 1000, PID, PID, "db", NR_close, 3, &file, -1, 0, 100);
		feed(st, &c);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* 1000 large reads in order: 8 KiB ones, then `bad` of 6000 bytes */
static void with_misaligned(void *st, int bad)
{
	uint64_t off = 0;

	for (int i = 0; i < 1000; i++) {
		uint64_t size = i < 1000 - bad ? 8192 : 6000;

		rd(st, off, size);
		off += size;
	}
}

static void misaligned_requests_at_their_edge(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	with_misaligned(st, 100);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("access-pattern.misaligned");
	assert_non_null(f);
	assert_string_equal(f->title, "pid 300 (db) made 100 of its 1000 requests to /data/db of "
			    "4096 bytes or more not aligned to 4096 bytes (10.0%)");
	/* the first 6000-byte read starts aligned, the others do not */
	assert_non_null(strstr(found[0].message, "Of 1000 requests of 4096 bytes or more, 99 started "
				"and 100 had a size off a multiple of 4096"));
	assert_int_equal(f->count, 100);

	opts_reset(NULL);
	st = start();
	with_misaligned(st, 99);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* 1000 pages read once in order, then `again` of them read again */
static void rereading(void *st, int again)
{
	for (int i = 0; i < 1000; i++)
		rd(st, (uint64_t)i * 4096, 4096);
	for (int i = 0; i < again; i++)
		rd(st, (uint64_t)i * 4096, 4096);
}

static void rereads_at_their_edges(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	/* 112 of 1112 pages is 10.07 %, 111 of 1111 is 9.99 % */
	opts_reset("reread_min", "4096", NULL);
	st = start();
	rereading(st, 112);
	stop_analyzer(st);
	f = finding("access-pattern.reread");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "pid 300 (db) read 458752 of the 4554752 bytes it read from "
			    "/data/db more than once (10.1%)");
	assert_int_equal(f->count, 112 * 4096);
	assert_int_equal(nfindings("access-pattern.reread"), 1);

	opts_reset("reread_min", "4096", NULL);
	st = start();
	rereading(st, 111);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.reread"), 0);

	/* the byte floor: 1 MiB read again is 256 pages */
	opts_reset(NULL);
	st = start();
	rereading(st, 256);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.reread"), 1);
	assert_int_equal(finding("access-pattern.reread")->count, 1 << 20);

	opts_reset(NULL);
	st = start();
	rereading(st, 255);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.reread"), 0);

	/* pages past reread_cap are not followed */
	opts_reset("reread_cap", "4096", NULL);
	st = start();
	for (int i = 0; i < 2000; i++)
		rd(st, 4096, 4096);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.reread"), 0);
}

/* a file read in order 100 bytes at a time touches each page 41 times: not a re-read */
/* /proc and /sys files are made when read: no storage, never counted */
static void pseudo_files_are_not_counted(void **unused)
{
	void *st;

	(void)unused;
	opts_reset("reread_min", "4096", NULL);
	st = start();
	fake_path(&file, "/proc/300/maps");
	rereading(st, 500);
	sequential(st, 2000, 2000);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void rest_of_a_page_is_not_read_again(void **unused)
{
	void *st;

	(void)unused;
	opts_reset("reread_min", "1", NULL);
	st = start();
	sequential(st, 20000, 20000);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.reread"), 0);
	assert_int_equal(nfindings("access-pattern.small-requests"), 1);
	assert_int_equal(nfindings("access-pattern.random"), 0);
}

/*
 * Small requests must cost: 1000 of them of 200 ns each are 10.0 % of the
 * time from the first to the end of the last 2 us apart, 9.5 % 2.1 us apart.
 */
static void small_requests_must_cost_a_tenth_of_the_time(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	gap = 2000;
	sequential(st, 1000, 1000);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.small-requests"), 1);
	assert_non_null(strstr(found[0].message, "in 1000 requests, 1000 of them small; these took "
				"0.000200 s, 10.0% of the 0.001998 s from its first request to the "
				"end of its last."));

	opts_reset(NULL);
	st = start();
	gap = 2100;
	sequential(st, 1000, 1000);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.small-requests"), 0);
}

/*
 * 2000 files read whole in one small request each: as few calls as can be.
 * Seven each are few enough too (the dynamic loader reads three or four
 * pieces of each library); eight each count.
 */
static void a_file_moved_in_one_small_request_is_not_small(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 2000; i++) {
		file = tag_of(1000 + (uint64_t)i, 1);
		rd(st, 0, 200);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 0);

	for (int each = 7; each <= 8; each++) {
		opts_reset(NULL);
		st = start();
		for (int i = 0; i < 200; i++) {
			file = tag_of(1000 + (uint64_t)i, 1);
			for (int k = 0; k < each; k++)
				rd(st, (uint64_t)k * 100, 100);
		}
		stop_analyzer(st);
		assert_int_equal(nfindings("access-pattern.small-requests"), each == 8);
		if (each == 8)
			assert_int_equal(found[0].count, 1600);
	}
}

/*
 * One process, small requests on 300 files: one finding whose count is the
 * sum, whose title says how many files and the one with the most, whose
 * message names the five with the most with their numbers and counts the
 * rest, and whose evidence (path, tag, excerpt) is that file's.
 */
static void on_300_files(const char *max_files)
{
	const struct fake_finding *f;
	char path[32];
	void *st;

	opts_reset("max_files", max_files, NULL);
	st = start();
	/* 50, 40, 30, 20, 15 requests of 100 bytes on f000 to f004 (through fd 3 to 7), 10 on the others */
	for (int i = 299; i >= 0; i--) {
		int n = i < 5 ? (int[]){ 50, 40, 30, 20, 15 }[i] : 10;

		file = tag_of(1000 + (uint64_t)i, 1);
		if (i < 60) {
			snprintf(path, sizeof(path), "/data/f%03d", i);
			fake_path(&file, path);
		}
		for (int k = 0; k < n; k++)
			req(st, PID, NR_pread64, 3 + i, (uint64_t)k * 100, 100);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("access-pattern.small-requests");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_int_equal(f->count, 295 * 10 + 50 + 40 + 30 + 20 + 15);
	assert_string_equal(f->title, "pid 300 (db) made 3105 of its 3105 requests smaller than 4096 "
			    "bytes (100.0%) on 300 files, most on /data/f000: 3105 reads, 0 writes");
	assert_non_null(strstr(f->message, "\nFiles with the most: /data/f000 (50 of 50 requests), "
				"/data/f001 (40 of 40 requests), /data/f002 (30 of 30 requests), "
				"/data/f003 (20 of 20 requests), /data/f004 (15 of 15 requests), and "
				"295 more files.\n"));
	assert_string_equal(f->path, "/data/f000");
	file = tag_of(1000, 1);
	assert_memory_equal(&f->tag, &file, sizeof(file));
	assert_string_equal(f->excerpt, "+0.003056 [300/300 db] pread64(3) = 100\n"
			    "+0.003057 [300/300 db] pread64(3) = 100\n");
	assert_int_equal(f->ts_first, 1000);
	assert_int_equal(f->ts_last, 3105 * 1000);
}

/* the same whether the 300 files fit the table or go to their process as they are pushed out */
static void a_process_on_300_files_is_one_finding(void **unused)
{
	(void)unused;
	on_300_files("2048");
	on_300_files("16");
}

/*
 * Processes that do not fit their table: the one used least recently is
 * reported when another pushes it out, with its files; the others at the end.
 */
static void a_process_pushed_out_is_reported_then(void **unused)
{
	void *st;

	(void)unused;
	opts_reset("max_procs", "1", NULL);
	st = start();
	sequential(st, 1000, 1000);
	assert_int_equal(nfound, 0);
	req(st, PID + 1, NR_read, 3, 0, 100);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].pid, PID);
	assert_int_equal(found[0].count, 1000);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
}

/* what the README says the defaults take: 6.7 MiB */
static void the_defaults_take_what_the_readme_says(void **unused)
{
	size_t used;

	(void)unused;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 6950000 || used > 7100000)
		fail_msg("%zu bytes after init", used);
}

/* the same pattern in two processes: one finding each */
static void two_processes_are_two_findings(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 4; i++) {
		file = tag_of(1000 + (uint64_t)i, 1);
		for (int k = 0; k < 600; k++)
			req(st, PID + (uint32_t)i % 2, NR_read, 3, (uint64_t)k * 100, 100);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[0].pid, PID);
	assert_int_equal(found[1].pid, PID + 1);
	assert_int_equal(found[0].count, 1200);
	assert_int_equal(found[1].count, 1200);
	assert_non_null(strstr(found[1].title, "on 2 files"));
}

/* small requests and re-reads cost time: warnings; random and misaligned ones are hints */
static void the_severities(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	/* 600 reads of 6000 bytes at random, twice (random, misaligned, read again), 1200 small */
	for (int i = 0; i < 1200; i++)
		rd(st, (uint64_t)((i * 7919) % 600) * 8192 + 100, 6000);
	for (int i = 0; i < 1200; i++)
		rd(st, (uint64_t)i * 100, 100);
	stop_analyzer(st);
	assert_int_equal(nfound, 4);
	assert_int_equal(finding("access-pattern.small-requests")->severity, DIO_SEV_WARNING);
	assert_int_equal(finding("access-pattern.reread")->severity, DIO_SEV_WARNING);
	assert_int_equal(finding("access-pattern.random")->severity, DIO_SEV_INFO);
	assert_int_equal(finding("access-pattern.misaligned")->severity, DIO_SEV_INFO);
}

static void good_pattern_is_fine(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	sequential(st, 5000, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void reported_when_the_process_exits(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	sequential(st, 1000, 1000);
	req(st, PID + 1, NR_read, 3, 0, 100);
	exit_(st, PID + 1);
	assert_int_equal(nfound, 0);
	exit_(st, PID);
	assert_int_equal(nfound, 1);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
}

static void bad_options_are_refused(void **unused)
{
	void *st = NULL;

	(void)unused;
	opts_reset("small_share", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &st), -EINVAL);
	assert_non_null(strstr(logged, "small_share"));
	opts_reset("random_share", "1.5", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &st), -EINVAL);
	opts_reset("align", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &st), -EINVAL);
	assert_non_null(strstr(logged, "align"));
}

/*
 * A million requests from ever-new processes on ever-new files: pairs are pushed
 * out and reported, bitmaps go back to the pool, and the heap does not grow.
 */
static void memory_stays_bounded(void **unused)
{
	size_t before;
	void *st;

	(void)unused;
	opts_reset("max_files", "16", "max_tracked", "4", "min_requests", "10", NULL);
	st = start();
	before = heap_in_use();
	for (uint32_t i = 0; i < 50000; i++) {
		file = tag_of(1000 + i, 1);
		for (int k = 0; k < 20; k++)
			req(st, 10000 + i % 40000, NR_pread64, 3, (uint64_t)k * 7 * 4096 + 100, 100);
		if (i % 7 == 0)
			exit_(st, 10000 + i % 40000);
	}
	assert_true(heap_in_use() <= before);
	stop_analyzer(st);
	/* each pair: small and random */
	assert_int_equal(nfound, 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_requests_at_their_edges),
		cmocka_unit_test(small_writes_are_counted_as_writes),
		cmocka_unit_test(random_requests_at_their_edge),
		cmocka_unit_test(two_fds_in_order_are_not_random),
		cmocka_unit_test(reopened_fd_starts_over),
		cmocka_unit_test(misaligned_requests_at_their_edge),
		cmocka_unit_test(rereads_at_their_edges),
		cmocka_unit_test(rest_of_a_page_is_not_read_again),
		cmocka_unit_test(pseudo_files_are_not_counted),
		cmocka_unit_test(small_requests_must_cost_a_tenth_of_the_time),
		cmocka_unit_test(a_file_moved_in_one_small_request_is_not_small),
		cmocka_unit_test(a_process_on_300_files_is_one_finding),
		cmocka_unit_test(two_processes_are_two_findings),
		cmocka_unit_test(a_process_pushed_out_is_reported_then),
		cmocka_unit_test(the_defaults_take_what_the_readme_says),
		cmocka_unit_test(the_severities),
		cmocka_unit_test(good_pattern_is_fine),
		cmocka_unit_test(reported_when_the_process_exits),
		cmocka_unit_test(bad_options_are_refused),
		cmocka_unit_test(memory_stays_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
