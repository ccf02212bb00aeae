// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The errors analyzer on synthetic streams: a burst gives one finding with its
 * numbers, grouped by process, call, errno and path or file; the thresholds at
 * their edges; bursts of one group add up; a group pushed out of its table is
 * reported then; the order is the bursts' and the heap stays where init put it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/unit/fake_analyzer_host.h"

#define US	1000ULL
#define MS	1000000ULL
#define T0	(5 * 1000000000ULL)
#define PID	200

static void *st;

/* stat(path) failing with err */
static void fail_path(uint64_t ts, uint32_t pid, const char *path, int err)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, "poller", NR_stat, -1, NULL, -1, -err, 50);
	struct sys_ev_buf b;

	feed(st, with_str(&b, e, path));
}

/* n failures of nr through fd (on the file tag, or none) with err, a us apart */
static void fail_fd(uint32_t tid, const char *comm, uint16_t nr, int32_t fd,
		    const struct dio_file_tag *tag, int err, int n)
{
	for (int i = 0; i < n; i++) {
		struct dio_ev_syscall e = sys_ev(T0 + (uint64_t)i * US, PID, tid, comm, nr, fd, tag,
						 -1, -err, 10);

		feed(st, &e);
	}
}

/* n failing stats of path, step ns apart from ts */
static void storm(uint64_t ts, uint32_t pid, const char *path, int n, uint64_t step)
{
	for (int i = 0; i < n; i++)
		fail_path(ts + (uint64_t)i * step, pid, path, ENOENT);
}

static void test_a_storm_reports_count_rate_errno_path(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	for (int i = 0; i < 300; i++) {	/* calls that succeed are not failures */
		struct dio_ev_syscall e = sys_ev(T0 - MS + (uint64_t)i, PID, PID, "poller",
						 NR_stat, -1, NULL, -1, 0, 50);
		feed(st, &e);
	}
	storm(T0, PID, "/missing", 100, MS);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("errors.burst");
	assert_non_null(f);
	assert_string_equal(f->title, "100 stat calls failed with ENOENT in 99.0 ms (1010/s): "
			    "\"/missing\"");
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_int_equal(f->count, 100);
	assert_int_equal(f->pid, PID);
	assert_int_equal(f->tid, PID);
	assert_string_equal(f->comm, "poller");
	assert_string_equal(f->path, "/missing");
	assert_int_equal(f->has_tag, 0);
	assert_int_equal(f->ts_first, T0);
	assert_int_equal(f->ts_last, T0 + 99 * MS);
	assert_non_null(strstr(f->message, "made 100 stat calls on \"/missing\" that failed with "
				"ENOENT, in 1 burst of 100 or more within 1000 ms (at most 100 in "
				"one); 100 failed the same way in all."));
	assert_non_null(strstr(f->message, "inotify"));
	assert_non_null(strstr(f->excerpt, "+5.000000 [200/200 poller] stat(-1) = -2\n"
				"+5.001000 [200/200 poller] stat(-1) = -2\n"));
	assert_non_null(strstr(f->excerpt, "+5.007000 [200/200 poller] stat(-1) = -2\n"
				"... 92 more\n"));
}

/* each threshold just short of the storm (no finding) and just met (one) */
static void test_threshold_edges(void **state)
{
	static const struct {
		const char *option, *short_of, *met;
		int n;
	} cases[] = {
		{ "min_failures", "100", "99", 99 },
		/* the 100th failure 99 ms after the first: in a 100 ms window, not a 99 ms one */
		{ "window_ms", "99", "100", 100 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts_reset(cases[i].option, cases[i].short_of, NULL);
		st = start_analyzer();
		storm(T0, PID, "/missing", cases[i].n, MS);
		stop_analyzer(st);
		if (nfound)
			fail_msg("%s=%s: %d findings", cases[i].option, cases[i].short_of, nfound);
		opts_reset(cases[i].option, cases[i].met, NULL);
		st = start_analyzer();
		storm(T0, PID, "/missing", cases[i].n, MS);
		stop_analyzer(st);
		if (nfindings("errors.burst") != 1)
			fail_msg("%s=%s: %d findings", cases[i].option, cases[i].met, nfound);
	}
}

/* a read of a non-blocking pipe spinning on EAGAIN: grouped by the file, named by its path */
static void test_eagain_on_an_fd_is_grouped_by_its_file(void **state)
{
	struct dio_file_tag p = tag_of(77, 0);
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	fake_path(&p, "pipe:[77]");
	fail_fd(PID + 1, "reader", NR_read, 3, &p, EAGAIN, 150);
	stop_analyzer(st);
	f = finding("errors.burst");
	assert_non_null(f);
	assert_string_equal(f->title, "150 read calls failed with EAGAIN in 149 us (1006711/s): "
			    "pipe:[77]");
	assert_int_equal(f->tid, PID + 1);
	assert_string_equal(f->comm, "reader");
	assert_string_equal(f->path, "pipe:[77]");
	assert_int_equal(f->has_tag, 1);
	assert_int_equal(f->tag.ino, 77);
	assert_non_null(strstr(f->message, "epoll"));
}

/* EBADF: no file, no path; a bug, so an error */
static void test_ebadf_is_an_error_by_call(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	fail_fd(PID, "worker", NR_fsync, 9, NULL, EBADF, 100);
	stop_analyzer(st);
	f = finding("errors.burst");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_string_equal(f->title, "100 fsync calls failed with EBADF in 99 us (1010101/s): "
			    "fd 9");
	assert_string_equal(f->path, "");
	assert_non_null(strstr(f->message, "use after close"));
}

/* failures of other paths, processes, calls or errnos are other groups */
static void test_groups_do_not_add_up(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	storm(T0, PID, "/a", 50, US);
	storm(T0, PID, "/b", 50, US);
	storm(T0, PID + 1, "/a", 50, US);
	for (int i = 0; i < 50; i++)
		fail_path(T0 + (uint64_t)i, PID, "/a", EACCES);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* two bursts and a few failures between them: one finding that counts the bursts */
static void test_bursts_of_a_group_add_up(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	storm(T0, PID, "/missing", 100, US);
	storm(T0 + 2000 * MS, PID, "/missing", 3, 400 * MS);
	storm(T0 + 5000 * MS, PID, "/missing", 150, US);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("errors.burst");
	assert_int_equal(f->count, 250);
	assert_int_equal(f->ts_first, T0);
	assert_int_equal(f->ts_last, T0 + 5000 * MS + 149 * US);
	/* 250 failures in 99 + 149 us */
	assert_string_equal(f->title, "250 stat calls failed with ENOENT in 248 us (1008065/s): "
			    "\"/missing\"");
	assert_non_null(strstr(f->message, "in 2 bursts of 100 or more within 1000 ms (at most "
				"150 in one); 253 failed the same way in all."));
}

/* the table holds one group: the burst is reported when the next group pushes it out */
static void test_an_evicted_group_is_reported_then(void **state)
{
	(void)state;
	opts_reset("max_groups", "1", NULL);
	st = start_analyzer();
	storm(T0, PID, "/a", 100, US);
	assert_int_equal(nfound, 0);
	fail_path(T0 + MS, PID, "/b", ENOENT);
	assert_int_equal(nfound, 1);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].path, "/a");
}

/* findings come in the order of their first burst, whatever the table's layout */
static void test_findings_come_in_the_order_of_their_bursts(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	fail_path(T0, PID, "/late", ENOENT);
	storm(T0 + 10 * MS, PID, "/early", 100, US);
	storm(T0 + 3000 * MS, PID, "/late", 100, US);
	storm(T0 + 4000 * MS, PID - 1, "/last", 100, US);
	/* at the same time: the lower pid first (256 after 255, though its low byte is 0) */
	storm(T0 + 6000 * MS, 256, "/same", 100, US);
	storm(T0 + 6000 * MS, 255, "/same", 100, US);
	stop_analyzer(st);
	assert_int_equal(nfound, 5);
	assert_string_equal(found[0].path, "/early");
	assert_string_equal(found[1].path, "/late");
	assert_string_equal(found[2].path, "/last");
	assert_int_equal(found[3].pid, 255);
	assert_int_equal(found[4].pid, 256);
}

static void test_state_stays_bounded_on_a_million_events(void **state)
{
	size_t after_init;
	char path[64];
	uint64_t ts = T0;

	(void)state;
	opts_reset("max_groups", "256", "excerpts", "8", "min_failures", "3", NULL);
	st = start_analyzer();
	after_init = heap_in_use();
	for (uint32_t i = 0; i < 250000; i++) {
		snprintf(path, sizeof(path), "/f%u", i);
		for (int k = 0; k < 4; k++)	/* 4 failures: each group a burst */
			fail_path(ts++, 1000 + i % 7000, path, ENOENT);
		if (!(i % 64))
			assert_true(heap_in_use() <= after_init);
	}
	assert_true(heap_in_use() <= after_init);
	assert_true(nfound >= 250000 - 256);
	stop_analyzer(st);
}

/* what the README says the defaults take: 4.2 MB */
static void test_the_defaults_take_what_the_readme_says(void **state)
{
	size_t used;

	(void)state;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 4150000 || used > 4250000)
		fail_msg("%zu bytes after init", used);
}

static void test_bad_options_are_refused(void **state)
{
	void *s = NULL;

	(void)state;
	opts_reset("window_ms", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &s), -EINVAL);
	assert_non_null(strstr(logged, "window_ms"));
	opts_reset("min_failures", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &s), -EINVAL);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_storm_reports_count_rate_errno_path),
		cmocka_unit_test(test_threshold_edges),
		cmocka_unit_test(test_eagain_on_an_fd_is_grouped_by_its_file),
		cmocka_unit_test(test_ebadf_is_an_error_by_call),
		cmocka_unit_test(test_groups_do_not_add_up),
		cmocka_unit_test(test_bursts_of_a_group_add_up),
		cmocka_unit_test(test_an_evicted_group_is_reported_then),
		cmocka_unit_test(test_findings_come_in_the_order_of_their_bursts),
		cmocka_unit_test(test_state_stays_bounded_on_a_million_events),
		cmocka_unit_test(test_the_defaults_take_what_the_readme_says),
		cmocka_unit_test(test_bad_options_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
