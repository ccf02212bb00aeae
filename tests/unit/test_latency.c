// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency analyzer on synthetic streams: slow block requests and long
 * run-queue waits become findings with the right counts, times, submitter and
 * call; slow requests on several devices are one finding, the waits of a
 * process's threads one finding per process, a warning only when they cost a
 * share of its time; thresholds hold at their edges; fast streams give none;
 * percentiles are within their bucket's 25 %; state does not grow with the
 * trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakehost.h"

#define MS	1000000ULL
#define DEV	((8u << 20) | 16)

static char out_path[] = "/tmp/dio-test-latency-XXXXXX";

static struct dio_ev_block blk(uint64_t ts, uint32_t tid, uint64_t dur, const char *rwbs)
{
	struct dio_ev_block b;

	memset(&b, 0, sizeof(b));
	b.hdr.type = DIO_EV_BLOCK;
	b.hdr.size = sizeof(b);
	b.hdr.ts = ts;
	b.pid = 10;
	b.tid = tid;
	b.duration = dur;
	b.sector = 2048 + ts / 1000;
	b.dev = DEV;
	b.bytes = 4096;
	snprintf(b.comm, sizeof(b.comm), "db");
	memcpy(b.rwbs, rwbs, strlen(rwbs));
	return b;
}

static struct dio_ev_runq runq(uint64_t ts, uint32_t tid, uint64_t wait)
{
	struct dio_ev_runq r;

	memset(&r, 0, sizeof(r));
	r.hdr.type = DIO_EV_RUNQ;
	r.hdr.size = sizeof(r);
	r.hdr.ts = ts;
	r.pid = 10;
	r.tid = tid;
	r.delay = wait;
	snprintf(r.comm, sizeof(r.comm), "client%u", tid);
	r.prev_pid = 20;
	r.prev_tid = 21;
	snprintf(r.prev_comm, sizeof(r.prev_comm), "hog");
	r.flags = DIO_RF_PREEMPTED;
	return r;
}

static void *start(const char *key, const char *val)
{
	opts_reset("output", out_path, key, val, NULL);
	return start_analyzer();
}

static void slow_requests_name_the_request_its_call_and_file(void **state)
{
	struct dio_file_tag wal = tag_of(77, 3);
	void *st = start(NULL, NULL);
	const struct fake_finding *f;
	struct dio_ev_block b;
	struct dio_ev_syscall call;

	(void)state;
	fake_path(&wal, "/data/wal");
	for (int i = 0; i < 97; i++) {
		b = blk(1000 * MS + i * MS, 13, 1 * MS, "WS");
		feed(st, &b);
	}
	b = blk(2000 * MS, 13, 60 * MS, "WS");
	feed(st, &b);
	/* the slowest: in pwrite64, whose record arrives after the request completed */
	b = blk(3000 * MS, 13, 80 * MS, "WS");
	b.flags = DIO_BF_SYSCALL | DIO_BF_QUEUED;
	b.nr = NR_pwrite64;
	b.sys_ts = 2999 * MS;
	feed(st, &b);
	b = blk(4000 * MS, 13, 50 * MS, "FWFS");	/* at the threshold: slow; a write */
	feed(st, &b);
	call = sys_ev(2999 * MS, 10, 13, "db", NR_pwrite64, 5, &wal, 4096, 4096, 81 * MS);
	feed(st, &call);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("latency.slow-block-requests");
	assert_non_null(f);
	assert_int_equal(f->count, 3);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "3 write requests on 8:16 took 50 ms or more "
				      "(p99 67.108 ms, max 80.000 ms)");
	assert_non_null(strstr(f->message, "3 of 100 write requests on device 8:16"));
	assert_non_null(strstr(f->message, "The slowest, 80.000 ms for 4096 bytes at sector "
					   "3002048, was submitted by db (10/13) in pwrite64 of /data/wal."));
	assert_string_equal(f->path, "/data/wal");
	assert_int_equal(f->tid, 13);
	assert_int_equal(f->ts_first, 2000 * MS);
	assert_int_equal(f->ts_last, 4050 * MS);
	/* the three outliers, in order */
	assert_non_null(strstr(f->excerpt, "+2.000000"));
	assert_non_null(strstr(f->excerpt, "+3.000000"));
	assert_non_null(strstr(f->excerpt, "+4.000000"));
	assert_null(strstr(f->excerpt, "more"));
}

static void just_under_the_thresholds_is_no_finding(void **state)
{
	void *st = start(NULL, NULL);
	struct dio_ev_block b = blk(1000, 13, 50 * MS - 1, "R");
	struct dio_ev_runq r = runq(2000, 14, 5 * MS - 1);

	(void)state;
	feed(st, &b);
	feed(st, &r);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	/* one nanosecond more each: both */
	st = start(NULL, NULL);
	b.duration++;
	r.delay++;
	feed(st, &b);
	feed(st, &r);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_string_equal(found[0].title, "1 read request on 8:16 took 50 ms or more "
					    "(p99 50.000 ms, max 50.000 ms)");
	assert_string_equal(found[1].title, "thread client14 (10/14) waited 5 ms or more for a "
					    "CPU 1 time (max 5.000 ms)");
}

static void a_kernel_threads_request_is_not_blamed_on_a_process(void **state)
{
	void *st = start("block_slow_ms", "10");
	struct dio_ev_block b = blk(1000, 99, 30 * MS, "WSM");

	(void)state;
	b.flags = DIO_BF_KTHREAD;
	snprintf(b.comm, sizeof(b.comm), "kworker/u8:1");
	feed(st, &b);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_non_null(strstr(found[0].message, "1 of them came from kernel threads"));
	assert_non_null(strstr(found[0].message, "submitted by kernel thread kworker/u8:1 (99): "
						 "writeback or journal work"));
	assert_string_equal(found[0].path, "");
}

static void waits_behind_a_hog_name_the_thread(void **state)
{
	void *st = start(NULL, NULL);
	const struct fake_finding *f;

	(void)state;
	for (int i = 0; i < 30; i++) {
		struct dio_ev_runq r = runq(1000 * MS + i * 10 * MS, 13, (i % 3 ? 1 : 7) * MS);

		feed(st, &r);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("latency.runq-delay");
	assert_non_null(f);
	assert_int_equal(f->count, 10);
	assert_string_equal(f->comm, "client13");
	assert_non_null(strstr(f->message, "10 times for 5 ms or more (30 waits of 90 ms in all)"));
	assert_non_null(strstr(f->message, "7.000 ms after it was preempted, ended when hog "
					   "(20/21) left the CPU"));
	assert_non_null(strstr(f->excerpt, "... 2 more"));	/* 8 lines shown of 10 */
}

static void fast_streams_give_no_finding_but_tables(void **state)
{
	void *st = start(NULL, NULL);
	FILE *f;
	char line[256];
	int rows = 0;

	(void)state;
	/* 1 to 1000 us: p50 is 500 us, p99 990 us, reported within their bucket's 25 % */
	for (uint64_t us = 1; us <= 1000; us++) {
		struct dio_ev_block b = blk(us * 1000, 13, us * 1000, "R");

		feed(st, &b);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	f = fopen(out_path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		double p50, p95, p99, max;
		unsigned long n, slow;

		if (sscanf(line, "8:16 read %lu %lf %lf %lf %lf %lu", &n, &p50, &p95, &p99, &max,
			   &slow) == 6) {
			rows++;
			assert_int_equal(n, 1000);
			assert_true(p50 >= 0.500 && p50 <= 0.625);
			assert_true(p95 >= 0.950 && p95 <= 1.000);
			assert_true(p99 >= 0.990 && p99 <= 1.000);
			assert_true(max == 1.0);
			assert_int_equal(slow, 0);
		}
	}
	fclose(f);
	assert_int_equal(rows, 1);
}

static void state_stays_bounded_on_a_long_trace(void **state)
{
	void *st;
	size_t after_init;

	(void)state;
	opts_reset("output", out_path, "max_threads", "256", NULL);
	st = start_analyzer();
	after_init = heap_in_use();
	/* two million records: new threads and devices all along, slow calls without records */
	for (uint32_t i = 0; i < 1000000; i++) {
		struct dio_ev_runq r = runq(i * 1000ULL, 1000 + i, 6 * MS);
		struct dio_ev_block b = blk(i * 1000ULL, i, 60 * MS, i % 2 ? "R" : "W");

		b.dev = i % 5000;
		b.flags = DIO_BF_SYSCALL;
		b.sys_ts = i;
		feed(st, &r);
		feed(st, &b);
	}
	/* nothing allocated past init: the tables were sized then */
	assert_true(heap_in_use() <= after_init + 4096);
	stop_analyzer(st);
	/*
	 * the 64 device rows in one finding; the million threads of pid 10 in
	 * one; the requests on the 4936 devices past max_devices in a third
	 */
	assert_int_equal(nfound, 3);
	assert_int_equal(nfindings("latency.table-full"), 1);
	assert_non_null(strstr(finding("latency.table-full")->title,
			       "block requests on devices past the limit were not counted "
			       "(max_devices=64)"));
	assert_int_equal(nfindings("latency.slow-block-requests"), 1);
	assert_int_equal(finding("latency.runq-delay")->count, 1000000);
	assert_non_null(strstr(finding("latency.runq-delay")->title, "in 1000000 threads"));
}

/* a syscall record of pid's main thread, running program name, at ts */
static void seen_as(void *st, uint32_t pid, const char *name, uint64_t ts)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, name, NR_read, 3, NULL, -1, 1, 1000);

	feed(st, &e);
}

/* a syscall record of pid at ts: the time the process was traced */
static void seen(void *st, uint32_t pid, uint64_t ts)
{
	seen_as(st, pid, "db", ts);
}

/*
 * Twelve threads of one process wait: one finding whose count is the sum,
 * whose title names the thread with the most, whose message lists five and
 * counts the rest; another process is another finding.
 */
static void the_threads_of_a_process_are_one_finding(void **state)
{
	void *st = start(NULL, NULL);
	const struct fake_finding *f;
	uint64_t ts = 1000 * MS;

	(void)state;
	seen(st, 10, ts);
	seen_as(st, 30, "web", ts);
	/* thread 100 + i waits 6 ms i + 1 times; thread 200 of pid 30 twice */
	for (uint32_t i = 0; i < 12; i++)
		for (uint32_t n = 0; n <= i; n++) {
			struct dio_ev_runq r = runq(ts += 10 * MS, 100 + i, 6 * MS);

			feed(st, &r);
		}
	for (int n = 0; n < 2; n++) {
		struct dio_ev_runq r = runq(ts += 10 * MS, 200, 6 * MS);

		r.pid = 30;
		feed(st, &r);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	f = &found[0];
	assert_string_equal(f->code, "latency.runq-delay");
	assert_int_equal(f->pid, 10);
	assert_int_equal(f->count, 78);
	assert_int_equal(f->tid, 111);
	assert_string_equal(f->comm, "client111");
	assert_string_equal(f->title, "process db (10) waited 5 ms or more for a CPU 78 times "
			    "in 12 threads, most client111 (10/111) 12 times (max 6.000 ms)");
	assert_non_null(strstr(f->message, "Threads with the most:\n"
				"  client111 (10/111): 12 times, 72.000 ms in all, max 6.000 ms\n"
				"  client110 (10/110): 11 times, 66.000 ms in all, max 6.000 ms\n"));
	assert_non_null(strstr(f->message, "  client107 (10/107): 8 times, 48.000 ms in all, max "
				"6.000 ms\n  and 7 more threads\n"));
	assert_null(strstr(f->message, "client106"));
	/* the excerpt is the calls of the thread with the most */
	assert_non_null(strstr(f->excerpt, "... 4 more"));
	assert_int_equal(found[1].pid, 30);
	assert_int_equal(found[1].count, 2);
}

/*
 * The processes of one program are one finding: five cc1 processes (pids 40
 * to 44) wait 6 ms once to five times each, an ld process once. cc1's finding
 * counts 15 waits of 90 ms in 5 processes and names the most first; ld's is
 * its own, worded as a thread's.
 */
static void the_processes_of_a_program_are_one_finding(void **state)
{
	void *st = start(NULL, NULL);
	const struct fake_finding *f;
	uint64_t ts = 1000 * MS;

	(void)state;
	for (uint32_t p = 40; p <= 44; p++) {
		seen_as(st, p, "cc1", ts);
		for (uint32_t n = 0; n <= p - 40; n++) {
			struct dio_ev_runq r = runq(ts += 10 * MS, p, 6 * MS);

			r.pid = p;
			snprintf(r.comm, sizeof(r.comm), "cc1");
			feed(st, &r);
		}
	}
	seen_as(st, 50, "ld", ts);
	{
		struct dio_ev_runq r = runq(ts += 10 * MS, 50, 6 * MS);

		r.pid = 50;
		snprintf(r.comm, sizeof(r.comm), "ld");
		feed(st, &r);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	f = &found[0];
	assert_string_equal(f->code, "latency.runq-delay");
	assert_int_equal(f->count, 15);
	assert_int_equal(f->processes, 5);
	assert_int_equal(f->cost_ns, 90 * MS);
	assert_int_equal(f->pid, 44);
	assert_string_equal(f->comm, "cc1");
	assert_string_equal(f->title, "program cc1: 5 processes waited 5 ms or more for a CPU 15 "
			    "times, most 44 5 times (max 6.000 ms)");
	assert_non_null(strstr(f->message, "Processes with the most:\n"
				"  44: 5 times in 1 thread, 30.000 ms in all, max 6.000 ms\n"
				"  43: 4 times in 1 thread, 24.000 ms in all, max 6.000 ms\n"));
	/* the excerpt is the calls of the lead process's thread: pid 44's five waits */
	assert_non_null(strstr(f->excerpt, "+1.110000 record type 6\n"));
	assert_null(strstr(f->excerpt, "+1.100000"));
	f = &found[1];
	assert_int_equal(f->pid, 50);
	assert_int_equal(f->processes, 1);
	assert_string_equal(f->title, "thread ld (50/50) waited 5 ms or more for a CPU 1 time "
			    "(max 6.000 ms)");
}

/*
 * A wait that ended when a thread of dio itself left the CPU is dio's cost:
 * with host->info "tracer_pid" 20 (the runq() waits' prev_pid), no finding,
 * and the table says how many were left out.
 */
static void waits_dio_caused_are_not_the_programs(void **state)
{
	static const char *const infos[] = { "tracer_pid", "20", NULL };
	void *st;
	uint64_t ts = 1000 * MS;

	(void)state;
	fake_infos = infos;
	st = start(NULL, NULL);
	seen(st, 10, ts);
	for (int n = 0; n < 30; n++) {
		struct dio_ev_runq r = runq(ts += 10 * MS, 11, 20 * MS);

		feed(st, &r);
	}
	stop_analyzer(st);
	fake_infos = NULL;
	assert_int_equal(nfound, 0);
	{
		FILE *f = fopen(out_path, "r");
		char text[8192];
		size_t n;

		assert_non_null(f);
		n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = 0;
		fclose(f);
		assert_non_null(strstr(text, "(30 waits that dio's own threads caused are not "
					"counted)\n"));
	}
}

/*
 * Severity: the slow waits of a process traced 2 s add up to 6 ms (0.3 %): a
 * hint (info); to 102 ms (5.1 %): a cost (warning). Traced 0.2 s, 48 ms (24 %)
 * are under the 50 ms floor: a hint.
 */
static void a_wait_is_a_warning_only_when_it_costs(void **state)
{
	static const struct {
		int waits;
		uint64_t traced;
		uint32_t sev;
		const char *says;
	} cases[] = {
		{ 1, 2000 * MS, DIO_SEV_INFO, "The waits of 5 ms or more add up to 6.000 ms, 0.3% of "
				   "the 2.000 s from its first record to its last: a hint that the "
				   "machine was busy (a warning from 5% and 50 ms)." },
		{ 17, 2000 * MS, DIO_SEV_WARNING, "The waits of 5 ms or more add up to 102.000 ms, 5.1% "
				       "of the 2.000 s from its first record to its last: a cost (a "
				       "warning from 5% and 50 ms)." },
		{ 8, 200 * MS, DIO_SEV_INFO, "The waits of 5 ms or more add up to 48.000 ms, 24.0% of "
				   "the 0.200 s from its first record to its last: a hint that the "
				   "machine was busy (a warning from 5% and 50 ms)." },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *st = start(NULL, NULL);

		seen(st, 10, 1000 * MS);
		for (int n = 0; n < cases[i].waits; n++) {
			struct dio_ev_runq r = runq(1010 * MS + (uint64_t)n * 10 * MS, 13, 6 * MS);

			feed(st, &r);
		}
		seen(st, 10, 1000 * MS + cases[i].traced - 1000);
		stop_analyzer(st);
		assert_int_equal(nfound, 1);
		assert_int_equal(found[0].severity, cases[i].sev);
		if (!strstr(found[0].message, cases[i].says))
			fail_msg("%d waits: %s", cases[i].waits, found[0].message);
	}
}

/* threads pushed out of their table still count in their process's finding */
static void threads_pushed_out_still_count(void **state)
{
	void *st = start("max_threads", "2");

	(void)state;
	for (uint32_t t = 0; t < 10; t++) {
		struct dio_ev_runq r = runq(1000 * MS + t * MS, 100 + t, 6 * MS + t);

		feed(st, &r);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 10);
	assert_non_null(strstr(found[0].title, "10 times in 10 threads"));
}

/* slow requests on two devices: one finding, the row with the most as its evidence */
static void slow_requests_on_two_devices_are_one_finding(void **state)
{
	void *st = start(NULL, NULL);
	struct dio_ev_block b;

	(void)state;
	for (int i = 0; i < 3; i++) {
		b = blk(1000 * MS + (uint64_t)i * MS, 13, 60 * MS, "W");
		b.dev = (8u << 20) | 32;
		feed(st, &b);
	}
	b = blk(2000 * MS, 14, 70 * MS, "R");
	feed(st, &b);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 4);
	assert_string_equal(found[0].title, "4 block requests took 50 ms or more in 2 device and "
			    "operation rows, most 3 write requests on 8:32 (p99 60.000 ms, max "
			    "60.000 ms)");
	assert_non_null(strstr(found[0].message, "Rows with the most:\n"
				"  8:32 write: 3 of 3 requests (p99 60.000 ms, max 60.000 ms)\n"
				"  8:16 read: 1 of 1 requests (p99 70.000 ms, max 70.000 ms)\n"
				"3 of 3 write requests on device 8:32"));
	/* what the 4 slow requests took, added up */
	assert_int_equal(found[0].cost_ns, 250 * MS);
	assert_non_null(strstr(found[0].message, "\nCost: 250.0 ms from issue to completion in the 4 "
				"slow requests, added up"));
	assert_int_equal(found[0].tid, 13);
	assert_int_equal(found[0].ts_first, 1000 * MS);
	assert_int_equal(found[0].ts_last, 2070 * MS);
}

/* a slow write of tid in a pwrite64 call that began at sys_ts */
static struct dio_ev_block blk_in_call(uint64_t ts, uint32_t tid, uint64_t dur, uint64_t sys_ts)
{
	struct dio_ev_block b = blk(ts, tid, dur, "W");

	b.flags = DIO_BF_SYSCALL;
	b.nr = NR_pwrite64;
	b.sys_ts = sys_ts;
	return b;
}

/*
 * --report-every: a tick reports the slow requests so far, since a row with
 * one is in the end's finding whatever comes; the end reports it again with
 * its final count and the names the tick gave it (its fingerprint), though
 * a slower request of another thread and file came since. A row under the
 * threshold at the tick is not reported then.
 */
static void a_tick_reports_slow_requests_the_end_updates(void **state)
{
	struct dio_file_tag wal = tag_of(77, 3), log = tag_of(77, 4);
	void *st = start(NULL, NULL);
	struct dio_ev_block b;
	struct dio_ev_syscall call;
	size_t in_use;

	(void)state;
	fake_path(&wal, "/data/wal");
	fake_path(&log, "/data/log");
	/* just under the threshold: nothing to report at the tick */
	b = blk(1000 * MS, 13, 50 * MS - 1, "W");
	feed(st, &b);
	assert_int_equal(dio_analyzer.tick(st, 5000 * MS), 0);
	assert_int_equal(nfound, 0);
	/* a slow request in pwrite64 of /data/wal: the tick waits for the call's record */
	b = blk_in_call(6000 * MS, 13, 60 * MS, 5999 * MS);
	feed(st, &b);
	assert_int_equal(dio_analyzer.tick(st, 6100 * MS), 0);
	assert_int_equal(nfound, 0);
	call = sys_ev(5999 * MS, 10, 13, "db", NR_pwrite64, 5, &wal, 0, 4096, 62 * MS);
	feed(st, &call);
	in_use = heap_in_use();
	assert_int_equal(dio_analyzer.tick(st, 6200 * MS), 0);
	/* a tick allocates nothing: the list it sorts and the names it keeps are there */
	assert_int_equal(heap_in_use(), in_use);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].code, "latency.slow-block-requests");
	assert_int_equal(found[0].count, 1);
	assert_string_equal(found[0].path, "/data/wal");
	assert_string_equal(found[0].comm, "db");
	assert_int_equal(found[0].tid, 13);
	assert_string_equal(found[0].title, "1 write request on 8:16 took 50 ms or more "
					    "(p99 60.000 ms, max 60.000 ms)");
	/* nothing new: the next tick says nothing */
	assert_int_equal(dio_analyzer.tick(st, 7000 * MS), 0);
	assert_int_equal(nfound, 1);
	/* a slower one by another thread in another file, and two more */
	b = blk_in_call(8000 * MS, 14, 90 * MS, 7999 * MS);
	snprintf(b.comm, sizeof(b.comm), "flusher");
	feed(st, &b);
	call = sys_ev(7999 * MS, 10, 14, "flusher", NR_pwrite64, 6, &log, 0, 4096, 92 * MS);
	feed(st, &call);
	b = blk(9000 * MS, 13, 55 * MS, "W");
	feed(st, &b);
	b = blk(9100 * MS, 13, 51 * MS, "R");
	feed(st, &b);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].count, 4);
	assert_string_equal(found[1].path, "/data/wal");
	assert_string_equal(found[1].comm, "db");
	assert_int_equal(found[1].tid, 13);
	assert_int_equal(found[1].ts_first, 6000 * MS);
	assert_int_equal(found[1].ts_last, 9151 * MS);
	assert_int_equal(found[1].cost_ns, 256 * MS);
	/* its text is the end's: the slowest is the flusher's */
	assert_non_null(strstr(found[1].message, "was submitted by flusher (10/14) in pwrite64 of "
				"/data/log."));
	/* without the tick, the end names the slowest */
	st = start(NULL, NULL);
	b = blk(6000 * MS, 13, 60 * MS, "W");
	feed(st, &b);
	b = blk(8000 * MS, 14, 90 * MS, "W");
	snprintf(b.comm, sizeof(b.comm), "flusher");
	feed(st, &b);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].comm, "flusher");
}

/* a call record that never comes: a tick reports a second after the request ended */
static void a_tick_waits_a_second_for_the_call(void **state)
{
	void *st = start(NULL, NULL);
	struct dio_ev_block b = blk_in_call(1000 * MS, 13, 60 * MS, 999 * MS);

	(void)state;
	feed(st, &b);
	assert_int_equal(dio_analyzer.tick(st, 2059 * MS), 0);
	assert_int_equal(nfound, 0);
	assert_int_equal(dio_analyzer.tick(st, 2060 * MS), 0);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].path, "");
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].count, 1);
	assert_string_equal(found[1].path, "");
}

/* run-queue waits are judged at the end only: their severity is a share of a span that grows */
static void a_tick_leaves_the_waits_to_the_end(void **state)
{
	void *st = start(NULL, NULL);
	struct dio_ev_runq r = runq(1000 * MS, 13, 60 * MS);

	(void)state;
	feed(st, &r);
	assert_int_equal(dio_analyzer.tick(st, 5000 * MS), 0);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].code, "latency.runq-delay");
}

/* what the README says the defaults take: 11.2 MiB */
static void the_defaults_take_what_the_readme_says(void **state)
{
	size_t used;

	(void)state;
	opts_reset("output", out_path, NULL);
	used = init_heap_bytes();
	if (used < 11650000 || used > 11850000)
		fail_msg("%zu bytes after init", used);
}

static int setup(void **state)
{
	int fd = mkstemp(out_path);

	(void)state;
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(out_path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slow_requests_name_the_request_its_call_and_file),
		cmocka_unit_test(just_under_the_thresholds_is_no_finding),
		cmocka_unit_test(a_kernel_threads_request_is_not_blamed_on_a_process),
		cmocka_unit_test(waits_behind_a_hog_name_the_thread),
		cmocka_unit_test(fast_streams_give_no_finding_but_tables),
		cmocka_unit_test(state_stays_bounded_on_a_long_trace),
		cmocka_unit_test(the_threads_of_a_process_are_one_finding),
		cmocka_unit_test(the_processes_of_a_program_are_one_finding),
		cmocka_unit_test(waits_dio_caused_are_not_the_programs),
		cmocka_unit_test(a_wait_is_a_warning_only_when_it_costs),
		cmocka_unit_test(threads_pushed_out_still_count),
		cmocka_unit_test(slow_requests_on_two_devices_are_one_finding),
		cmocka_unit_test(the_defaults_take_what_the_readme_says),
		cmocka_unit_test(a_tick_reports_slow_requests_the_end_updates),
		cmocka_unit_test(a_tick_waits_a_second_for_the_call),
		cmocka_unit_test(a_tick_leaves_the_waits_to_the_end),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
