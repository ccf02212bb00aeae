// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access-pattern analyzer on synthetic streams: each check at the edge of
 * its threshold (just below: nothing; at it: a finding with the counts), the
 * minimum number of requests, the floors of what a pattern must cost (a share
 * of the time on storage, a rate a second of the run, syncs aside) and what
 * each kind costs, patterns under them sent as below, what is not random or
 * not read again (a second fd, a reopened fd, the rest of a page) and not
 * small (a file moved whole in one request), one finding per program whatever
 * the number of its processes and files, an exec starting a new program, the
 * severities, bad options, and its memory staying bounded over a million
 * events.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "fakehost.h"

#define PID	300

static uint64_t now, gap = 1000;	/* ns from one request to the next */
static uint64_t dur = 200;		/* ns a request takes */
static const char *comm = "db";		/* the name of the processes */
static struct dio_file_tag file;

static void *start(void)
{
	void *st;

	now = 0;
	gap = 1000;
	dur = 200;
	comm = "db";
	file = tag_of(7, 1);
	st = start_analyzer();
	fake_path(&file, "/data/db");
	return st;
}

/* a read (write) of size bytes at off on fd by pid, that moved them all */
static void req(void *st, uint32_t pid, uint16_t nr, int32_t fd, uint64_t off, uint64_t size)
{
	struct dio_ev_syscall e = sys_ev(now += gap, pid, pid, comm, nr, fd, &file, (int64_t)off,
					 (int64_t)size, dur);

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

/*
 * 1000 aligned 8 KiB reads in order of 200 ns each, but `jumps` of them skip a
 * page ahead and take jump_ns (a read the page cache did not have)
 */
static void jumping(void *st, int jumps, uint64_t jump_ns)
{
	uint64_t off = 0;

	for (int i = 0; i < 1000; i++) {
		if (i >= 1000 - jumps) {
			off += 4096;
			dur = jump_ns;
		}
		rd(st, off, 8192);
		off += 8192;
	}
	dur = 200;
}

static void random_requests_at_their_edge(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	jumping(st, 200, 2000);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("access-pattern.random");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_INFO);
	assert_string_equal(f->title, "pid 300 (db) made 200 of its 1000 requests to /data/db at "
			    "random offsets (20.0%): 200 reads, 0 writes");
	assert_int_equal(f->count, 200);
	assert_int_equal(f->processes, 1);
	/* each took 1800 ns more than the 200 ns the 800 reads of its size in order took */
	assert_int_equal(f->cost_ns, 200 * 1800);
	assert_non_null(strstr(f->message, " They took 400 us in all. 200 of the 200 had a price "
				"(what 16 or more requests of their size took in order in this run "
				"before them), and took 360 us more than it. What their pattern cost: "
				"360 us, 64.3% of the 560 us the process spent in calls on storage but "
				"syncs, "));

	opts_reset(NULL);
	st = start();
	jumping(st, 199, 2000);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	assert_int_equal(nbelow, 0);
}

/*
 * Random reads that take what reads in order take (the page cache had them)
 * cost nothing: the pattern is there, for a baseline, but no finding.
 * Random reads before 16 in order of their size came have no price: no cost.
 */
static void random_requests_that_cost_nothing_are_below(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	jumping(st, 500, 200);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	assert_int_equal(nbelow, 1);

	opts_reset(NULL);
	st = start();
	dur = 2000;
	for (int i = 0; i < 1000; i++)
		rd(st, (uint64_t)((i * 7919) % 1000) * 8192 + 8192, 8192);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	assert_int_equal(nbelow, 1);

	/* with no floors, the pattern is a finding whatever it costs */
	opts_reset("min_share", "0", "min_cost_rate", "0", NULL);
	st = start();
	dur = 2000;
	for (int i = 0; i < 1000; i++)
		rd(st, (uint64_t)((i * 7919) % 1000) * 8192 + 8192, 8192);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].cost_ns, 0);
	assert_non_null(strstr(found[0].message, " They took 2.0 ms in all, and none had a price "
				"(what 16 or more requests of its size took in order in this run): what "
				"their pattern cost cannot be told from the trace, and counts as "
				"nothing."));

	opts_reset("min_share", "0", "min_cost_rate", "0", NULL);
	st = start();
	jumping(st, 500, 200);
	stop_analyzer(st);
	assert_int_equal(nfindings("access-pattern.random"), 1);
	assert_int_equal(found[0].cost_ns, 0);
	assert_int_equal(nbelow, 0);
}

/* two fds read the file in order, taking turns: neither is random, but all is read twice */
static void two_fds_in_order_are_not_random(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	gap = 500;
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

/*
 * 1000 large reads in order: 4 KiB ones of 200 ns, then `bad` of 6000 bytes
 * of 2000 ns (a partial page to read first)
 */
static void with_misaligned(void *st, int bad)
{
	uint64_t off = 0;

	for (int i = 0; i < 1000; i++) {
		uint64_t size = i < 1000 - bad ? 4096 : 6000;

		dur = i < 1000 - bad ? 200 : 2000;
		rd(st, off, size);
		off += size;
	}
	dur = 200;
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
	/* each 2000 ns, where 200 ns for 4096 bytes in order and aligned prices 6000 at 292 */
	assert_int_equal(f->cost_ns, 100 * (2000 - 292));

	opts_reset(NULL);
	st = start();
	with_misaligned(st, 99);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* 1000 pages read once in order, then `again` of them read again, 100 ns apart */
static void rereading(void *st, int again)
{
	gap = 100;
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
	/* the time of the reads of pages read before */
	assert_int_equal(f->cost_ns, 112 * 200);
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

/* a call of thread tid of pid on a path (no fd), at now + after, lasting d ns */
static void path_call(void *st, uint32_t pid, uint32_t tid, uint16_t nr, uint64_t after,
		      uint64_t d)
{
	struct sys_ev_buf b;
	struct dio_ev_syscall e = sys_ev(now += after, pid, tid, comm, nr, -1, NULL, -1, 0, d);

	feed(st, with_str(&b, e, "/data/other"));
}

/* a call of pid on no file at all (a socket, a pipe: not storage), at now + after */
static void other_call(void *st, uint32_t pid, uint64_t after, uint64_t d)
{
	struct dio_ev_syscall e = sys_ev(now += after, pid, pid, comm, NR_read, 5, NULL, -1, 1, d);

	feed(st, &e);
}

static void fsync_(void *st, uint32_t pid, uint64_t after, uint64_t d)
{
	struct dio_ev_syscall e = sys_ev(now += after, pid, pid, comm, NR_fsync, 3, &file, -1, 0, d);

	feed(st, &e);
}

/*
 * The share floor: 1000 small requests of 200 ns are 10.0 % of the process's
 * time on storage with a stat of 1.8 ms beside them (in another thread), and
 * 9.99 % with one of 1.8002 ms; a sync of any length is not time on storage.
 */
static void a_pattern_must_cost_a_tenth_of_the_time_on_storage(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	path_call(st, PID, PID + 1, NR_stat, 0, 1800000);
	sequential(st, 1000, 1000);
	fsync_(st, PID, 1000, 50000000);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("access-pattern.small-requests");
	assert_non_null(f);
	assert_int_equal(f->cost_ns, 200000);
	assert_int_equal(f->processes, 1);
	assert_non_null(strstr(f->message, "in 1000 requests, 1000 of them small; these took 200 us, "
				"10.0% of the 2.0 ms the process spent in calls on storage but syncs, "
				"199.80 ms a second of its run outside syncs."));

	opts_reset(NULL);
	st = start();
	path_call(st, PID, PID + 1, NR_stat, 0, 1800200);
	sequential(st, 1000, 1000);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	assert_int_equal(nbelow, 1);
}

/*
 * The rate floor: 200 us of small requests in a run of 2 ms are 100 ms a
 * second; in a run of 2.002 ms, less. The time in syncs is no run: the same
 * with a sync of 1 ms in a run of 3 ms passes.
 */
static void a_pattern_must_cost_a_millisecond_a_second(void **unused)
{
	void *st;

	(void)unused;
	for (int c = 0; c < 3; c++) {
		opts_reset(NULL);
		st = start();
		sequential(st, 1000, 1000);
		if (c == 2)
			fsync_(st, PID, 0, 1000000);
		/* the first request started at 1000 ns: the run ends at 1000 + the run */
		other_call(st, PID, (c == 1 ? 2002000 : c == 2 ? 3000000 : 2000000) + 1000 - now - 100,
			   100);
		stop_analyzer(st);
		assert_int_equal(nfound, c != 1);
		assert_int_equal(nbelow, c == 1);
	}
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
 * Processes that do not fit their table: the one used least recently goes to
 * its program when another pushes it out, with its files; a program pushed
 * out of its own table is reported then, the others at the end.
 */
static void a_process_pushed_out_goes_to_its_program(void **unused)
{
	void *st;

	(void)unused;
	opts_reset("max_procs", "1", NULL);
	st = start();
	sequential(st, 1000, 1000);
	req(st, PID + 1, NR_read, 3, 0, 100);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].pid, PID);
	assert_int_equal(found[0].count, 1000);
	assert_int_equal(found[0].processes, 1);

	opts_reset("max_procs", "1", "max_programs", "1", NULL);
	st = start();
	sequential(st, 1000, 1000);
	comm = "other";
	req(st, PID + 1, NR_read, 3, 0, 100);
	assert_int_equal(nfound, 0);
	file = tag_of(8, 1);
	sequential(st, 1000, 1000);
	/* PID + 2 pushes PID + 1 out, whose program pushes db out */
	req(st, PID + 2, NR_read, 3, 0, 100);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].comm, "db");
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	/* PID came back as "other" after it was pushed out: a new process of that program */
	assert_string_equal(found[1].comm, "other");
	assert_int_equal(found[1].pid, PID);
}

/* what the README says the defaults take: 9.0 MiB */
static void the_defaults_take_what_the_readme_says(void **unused)
{
	size_t used;

	(void)unused;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 9330000 || used > 9480000)
		fail_msg("%zu bytes after init", used);
}

/*
 * The same pattern in two processes of one program: one finding, with the
 * processes' sums, how many there were, the process with the most named and
 * its calls as the evidence; in two programs, one finding each.
 */
static void two_processes_of_a_program_are_one_finding(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	/* PID: 600 reads on each of f1000 and f1002; PID + 1: 700 on f1001, 600 on f1003 */
	for (int i = 0; i < 4; i++) {
		char path[32];

		file = tag_of(1000 + (uint64_t)i, 1);
		snprintf(path, sizeof(path), "/data/f%d", 1000 + i);
		fake_path(&file, path);
		for (int k = 0; k < (i == 1 ? 700 : 600); k++)
			req(st, PID + (uint32_t)i % 2, NR_read, 3, (uint64_t)k * 100, 100);
	}
	exit_(st, PID);
	exit_(st, PID + 1);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = &found[0];
	assert_int_equal(f->count, 2500);
	assert_int_equal(f->processes, 2);
	assert_int_equal(f->cost_ns, 2500 * 200);
	assert_int_equal(f->pid, PID + 1);
	assert_string_equal(f->comm, "db");
	assert_string_equal(f->title, "program db: 2 processes made 2500 of their 2500 requests "
			    "smaller than 4096 bytes (100.0%) on 4 files, most on /data/f1001: "
			    "2500 reads, 0 writes");
	assert_non_null(strstr(f->message, "\nProcesses with the most: 301 (1300 requests, 260 us), "
				"300 (1200 requests, 240 us).\nFiles with the most: /data/f1001 (700 of "
				"700 requests), /data/f1000 (600 of 600 requests), /data/f1002 (600 of 600 "
				"requests), /data/f1003 (600 of 600 requests).\nFix: "));
	assert_non_null(strstr(f->message, "these took 500 us, 100.0% of the 500 us its processes "
				"spent in calls on storage but syncs, "));
	assert_string_equal(f->excerpt, "+0.000601 [301/301 db] read(3) = 100\n"
			    "+0.000602 [301/301 db] read(3) = 100\n");

	/* the second process under another name: another program */
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 4; i++) {
		file = tag_of(1000 + (uint64_t)i, 1);
		comm = i % 2 ? "other" : "db";
		for (int k = 0; k < 600; k++)
			req(st, PID + (uint32_t)i % 2, NR_read, 3, (uint64_t)k * 100, 100);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[0].pid, PID);
	assert_int_equal(found[1].pid, PID + 1);
	assert_string_equal(found[1].comm, "other");
	assert_int_equal(found[0].count, 1200);
	assert_int_equal(found[1].count, 1200);
	assert_int_equal(found[1].processes, 1);
	assert_non_null(strstr(found[1].title, "pid 301 (other) made 1200 of its 1200 requests "
				"smaller than 4096 bytes (100.0%) on 2 files"));
}

/* a file two processes of the program used is one line of the list, with their sums */
static void a_file_of_two_processes_is_counted_once(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (uint32_t pid = PID; pid < PID + 2; pid++)
		for (int k = 0; k < 600; k++)
			req(st, pid, NR_read, 3, (uint64_t)k * 100, 100);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].processes, 2);
	assert_string_equal(found[0].title, "program db: 2 processes made 1200 of their 1200 "
			    "requests to /data/db smaller than 4096 bytes (100.0%): 1200 reads, 0 "
			    "writes");
}

/* an exec ends a program: what the process did before is the old program's */
static void an_exec_starts_a_new_program(void **unused)
{
	struct dio_ev_proc x;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	comm = "sh";
	sequential(st, 1000, 1000);
	x = exit_ev(now += 1000, PID);
	x.kind = DIO_PROC_EXEC;
	x.flags = 0;
	snprintf(x.comm, sizeof(x.comm), "db");
	feed(st, &x);
	comm = "db";
	file = tag_of(8, 1);
	sequential(st, 1000, 1000);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_string_equal(found[0].comm, "sh");
	assert_string_equal(found[1].comm, "db");
	assert_int_equal(found[0].pid, PID);
	assert_int_equal(found[1].pid, PID);
	assert_int_equal(found[0].count, 1000);
	assert_int_equal(found[1].count, 1000);
}

/* small requests and re-reads cost time: warnings; random and misaligned ones are hints */
static void the_severities(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	/* the price of 4096 bytes: 100 reads in order of another file */
	file = tag_of(8, 1);
	for (int i = 0; i < 100; i++)
		rd(st, (uint64_t)i * 4096, 4096);
	file = tag_of(7, 1);
	/* 600 reads of 6000 bytes at random, twice (random, misaligned, read again), 1500 small */
	dur = 1000;
	for (int i = 0; i < 1200; i++)
		rd(st, (uint64_t)((i * 7919) % 600) * 8192 + 100, 6000);
	dur = 200;
	for (int i = 0; i < 1500; i++)
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

/*
 * A process that exits goes to its program, reported at the end of the
 * trace; its pid used again is a new process of the program
 */
static void reported_at_the_end(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	sequential(st, 1000, 1000);
	req(st, PID + 1, NR_read, 3, 0, 100);
	exit_(st, PID + 1);
	exit_(st, PID);
	file = tag_of(8, 1);
	sequential(st, 1000, 1000);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].processes, 2);
	assert_int_equal(found[0].count, 2000);
}

static void bad_options_are_refused(void **unused)
{
	void *st = NULL;

	(void)unused;
	opts_reset("small_share", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
	assert_non_null(strstr(logged, "small_share"));
	opts_reset("random_share", "1.5", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
	opts_reset("align", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
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
	opts_reset("max_files", "16", "max_tracked", "4", "min_requests", "10", "max_procs", "64",
		   "max_programs", "8", NULL);
	st = start();
	before = heap_in_use();
	for (uint32_t i = 0; i < 50000; i++) {
		char name[16];

		/* 20 programs: each pushed out of its table, reported and made again */
		snprintf(name, sizeof(name), "p%u", i % 20);
		comm = name;
		file = tag_of(1000 + i, 1);
		for (int k = 0; k < 20; k++)
			req(st, 10000 + i % 40000, NR_pread64, 3, (uint64_t)k * 7 * 4096 + 100, 100);
		if (i % 7 == 0)
			exit_(st, 10000 + i % 40000);
	}
	assert_true(heap_in_use() <= before);
	comm = "db";
	stop_analyzer(st);
	/*
	 * each program, each time it is pushed out and at the end: small requests;
	 * random ones too, but with no reads in order to price them they cost
	 * nothing and are below. 20 programs at the end, fewer than 50000 before,
	 * and the table-full warning: programs came back after they were pushed out.
	 */
	assert_true(nfound > 20 && nfound < 50000);
	assert_int_equal(nfound, nbelow + 1);
	for (int i = 0; i < FAKE_FINDINGS; i++)
		assert_string_equal(found[i].code, "access-pattern.small-requests");
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
		cmocka_unit_test(random_requests_that_cost_nothing_are_below),
		cmocka_unit_test(a_pattern_must_cost_a_tenth_of_the_time_on_storage),
		cmocka_unit_test(a_pattern_must_cost_a_millisecond_a_second),
		cmocka_unit_test(a_file_moved_in_one_small_request_is_not_small),
		cmocka_unit_test(a_process_on_300_files_is_one_finding),
		cmocka_unit_test(two_processes_of_a_program_are_one_finding),
		cmocka_unit_test(a_file_of_two_processes_is_counted_once),
		cmocka_unit_test(an_exec_starts_a_new_program),
		cmocka_unit_test(a_process_pushed_out_goes_to_its_program),
		cmocka_unit_test(the_defaults_take_what_the_readme_says),
		cmocka_unit_test(the_severities),
		cmocka_unit_test(good_pattern_is_fine),
		cmocka_unit_test(reported_at_the_end),
		cmocka_unit_test(bad_options_are_refused),
		cmocka_unit_test(memory_stays_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
