// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency analyzer on synthetic streams: slow block requests and long
 * run-queue waits become findings with the right counts, times, submitter and
 * call; thresholds hold at their edges; fast streams give none; percentiles
 * are within their bucket's 25 %; state does not grow with the trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/unit/fake_analyzer_host.h"

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
	/* 64 device rows and 256 threads at most: one finding each */
	assert_int_equal(nfound, 64 + 256);
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
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
