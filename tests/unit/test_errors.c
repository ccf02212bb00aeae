// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The errors analyzer on synthetic streams: a burst gives one finding with its
 * numbers, grouped by process, call, errno and path or file; the thresholds at
 * their edges; bursts of one group add up; the groups of one process are one
 * finding that names the worst five; severity is error only where written data
 * likely did not reach the file; a group pushed out of its table is kept for
 * its process; the order is the bursts' and the heap stays where init put it.
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

/* EBADF of fsync: no file, no path; what was to be synced may not be: an error */
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

/*
 * One process with bursts on 300 paths: one finding whose count is the sum,
 * whose title says how many paths and the one with the most, whose message
 * names the five worst with their numbers and counts the rest, and whose
 * evidence (path, excerpt, thread) is the worst path's.
 */
static void test_a_process_with_bursts_on_300_paths_is_one_finding(void **state)
{
	const struct fake_finding *f;
	char path[32];

	(void)state;
	/* an excerpt for every group, so the worst has the start of its burst */
	opts_reset("excerpts", "512", NULL);
	st = start_analyzer();
	/* 150, 140, 130, 120 and 110 failures on /p000 to /p004, 100 on the others */
	for (int i = 299; i >= 0; i--) {
		snprintf(path, sizeof(path), "/p%03d", i);
		storm(T0 + (uint64_t)(299 - i) * MS, PID, path, i < 5 ? 150 - 10 * i : 100, US);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("errors.burst");
	assert_int_equal(f->count, 295 * 100 + 150 + 140 + 130 + 120 + 110);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	/* 29850 us of bursts: each burst of n lasts n - 1 us */
	assert_string_equal(f->title, "30150 stat calls failed with ENOENT in 29.9 ms (1010050/s) "
			    "on 300 paths, most on \"/p000\"");
	assert_string_equal(f->path, "/p000");
	assert_int_equal(f->ts_first, T0);
	assert_int_equal(f->ts_last, T0 + 299 * MS + 149 * US);
	assert_non_null(strstr(f->message, "made 30150 calls that failed in bursts of 100 or more "
				"within 1000 ms, in 300 ways (call, errno, file or path); 30150 "
				"failed the same ways in all. The worst:\n"
				"  150 stat calls with ENOENT on \"/p000\": 1 burst, at most 150 in "
				"one, 150 in all\n"
				"  140 stat calls with ENOENT on \"/p001\": 1 burst, at most 140 in "
				"one, 140 in all\n"));
	assert_non_null(strstr(f->message, "  110 stat calls with ENOENT on \"/p004\": 1 burst, "
				"at most 110 in one, 110 in all\n"
				"  and 295 more ways\n"
				"The file is looked for again"));
	assert_null(strstr(f->message, "/p005"));
	/* the worst path's first calls; "... N more" counts the rest of its burst */
	assert_non_null(strstr(f->excerpt, "+5.299000 [200/200 poller] stat(-1) = -2\n"));
	assert_non_null(strstr(f->excerpt, "... 142 more\n"));
}

/* the same storms in two processes: one finding each */
static void test_two_processes_are_two_findings(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	storm(T0, PID, "/a", 100, US);
	storm(T0 + MS, PID + 1, "/a", 100, US);
	storm(T0 + 2 * MS, PID, "/b", 100, US);
	storm(T0 + 3 * MS, PID + 1, "/b", 100, US);
	stop_analyzer(st);
	assert_int_equal(nfindings("errors.burst"), 2);
	assert_int_equal(found[0].pid, PID);
	assert_int_equal(found[1].pid, PID + 1);
	assert_int_equal(found[0].count, 200);
	assert_int_equal(found[1].count, 200);
}

/*
 * Severity: error where written data likely did not reach the file (a write
 * or sync failing with EIO, ENOSPC, EDQUOT, EBADF or EFBIG; a close that does
 * after writes to its fd), warning for everything else.
 */
static void test_error_only_where_data_is_likely_lost(void **state)
{
	static const struct {
		uint16_t nr;
		int err, wrote;
		uint32_t sev;
	} cases[] = {
		{ NR_write, ENOSPC, 0, DIO_SEV_ERROR },
		{ NR_pwrite64, EIO, 0, DIO_SEV_ERROR },
		{ NR_writev, EDQUOT, 0, DIO_SEV_ERROR },
		{ NR_pwritev2, EFBIG, 0, DIO_SEV_ERROR },
		{ NR_write, EBADF, 0, DIO_SEV_ERROR },
		{ NR_fdatasync, EIO, 0, DIO_SEV_ERROR },
		{ NR_sync_file_range, ENOSPC, 0, DIO_SEV_ERROR },
		{ NR_close, EIO, 1, DIO_SEV_ERROR },
		{ NR_close, EBADF, 1, DIO_SEV_ERROR },
		/* a close with no write since the fd was opened loses nothing */
		{ NR_close, EIO, 0, DIO_SEV_WARNING },
		{ NR_close, EBADF, 0, DIO_SEV_WARNING },
		/* a stat loop on a closed fd costs calls, not data */
		{ NR_fstat, EBADF, 1, DIO_SEV_WARNING },
		{ NR_read, EIO, 1, DIO_SEV_WARNING },
		{ NR_write, EAGAIN, 0, DIO_SEV_WARNING },
		{ NR_write, EINTR, 0, DIO_SEV_WARNING },
		{ NR_fsync, EINVAL, 0, DIO_SEV_WARNING },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts_reset(NULL);
		st = start_analyzer();
		for (int n = 0; n < 100; n++) {
			struct dio_ev_syscall e;

			/* each fd written to (or opened afresh) before its call fails */
			if (cases[i].wrote)
				e = sys_ev(T0 + (uint64_t)n * US, PID, PID, "db", NR_write, 10 + n,
					   NULL, -1, 10, 5);
			else
				e = sys_ev(T0 + (uint64_t)n * US, PID, PID, "db", NR_openat, -1,
					   NULL, -1, 10 + n, 5);
			feed(st, &e);
			e = sys_ev(T0 + (uint64_t)n * US + 1, PID, PID, "db", cases[i].nr, 10 + n,
				   NULL, -1, -cases[i].err, 5);
			feed(st, &e);
		}
		stop_analyzer(st);
		if (nfound != 1 || found[0].severity != cases[i].sev)
			fail_msg("%s %s after %s: %d findings, severity %u, expected %u",
				 fake_syscall_name(cases[i].nr), strerror(cases[i].err),
				 cases[i].wrote ? "writes" : "no writes", nfound,
				 nfound ? found[0].severity : 99, cases[i].sev);
		if (cases[i].sev == DIO_SEV_ERROR && !strstr(found[0].message, "did not reach the file"))
			fail_msg("%s: the message does not say data was lost: %s",
				 fake_syscall_name(cases[i].nr), found[0].message);
	}
}

/*
 * A process with a large warning burst and a smaller one that lost data: an
 * error, titled and evidenced by the data loss, the larger one listed too.
 */
static void test_the_worst_is_the_most_severe(void **state)
{
	struct dio_file_tag wal = tag_of(9, 1);
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	fake_path(&wal, "/db/wal");
	storm(T0, PID, "/missing", 500, US);
	fail_fd(PID, "db", NR_pwrite64, 5, &wal, ENOSPC, 100);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = &found[0];
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_int_equal(f->count, 600);
	assert_string_equal(f->title, "600 calls failed in 2 ways in 598 us (1003344/s), worst 100 "
			    "pwrite64 calls with ENOSPC on /db/wal");
	assert_string_equal(f->path, "/db/wal");
	assert_int_equal(f->has_tag, 1);
	assert_string_equal(f->comm, "db");
	assert_non_null(strstr(f->message, "  100 pwrite64 calls with ENOSPC on /db/wal (data likely "
				"lost): 1 burst, at most 100 in one, 100 in all\n"
				"  500 stat calls with ENOENT on \"/missing\": 1 burst"));
	assert_non_null(strstr(f->excerpt, "pwrite64(5) = -28"));
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

/*
 * The table holds one group: the burst pushed out by the next group is kept
 * for its process and reported with it at the end, once. The summaries hold
 * one process: the first is reported when the second's pushes it out.
 */
static void test_an_evicted_group_is_kept_for_its_process(void **state)
{
	(void)state;
	opts_reset("max_groups", "1", NULL);
	st = start_analyzer();
	storm(T0, PID, "/a", 100, US);
	fail_path(T0 + MS, PID, "/b", ENOENT);
	storm(T0 + 2 * MS, PID, "/c", 120, US);
	fail_path(T0 + 3 * MS, PID, "/d", ENOENT);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 220);
	assert_string_equal(found[0].path, "/c");
	assert_non_null(strstr(found[0].title, "220 stat calls failed with ENOENT in 218 us "));
	assert_non_null(strstr(found[0].title, " on 2 paths, most on \"/c\""));

	opts_reset("max_groups", "1", "max_procs", "1", NULL);
	st = start_analyzer();
	storm(T0, PID, "/a", 100, US);
	fail_path(T0 + MS, PID, "/b", ENOENT);
	assert_int_equal(nfound, 0);
	storm(T0 + 2 * MS, PID + 1, "/a", 100, US);
	fail_path(T0 + 3 * MS, PID + 1, "/b", ENOENT);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].pid, PID);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].pid, PID + 1);
}

/* processes come in the order of their first burst, whatever the table's layout */
static void test_findings_come_in_the_order_of_their_bursts(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start_analyzer();
	fail_path(T0, PID + 2, "/late", ENOENT);
	storm(T0 + 10 * MS, PID, "/early", 100, US);
	storm(T0 + 3000 * MS, PID + 2, "/late", 100, US);
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

/* the failures in bursts of every finding, added up */
static uint64_t counted;

static int counting_emit(struct dio_ctx *ctx, const struct dio_finding *f)
{
	counted += f->count;
	return fake_emit_finding(ctx, f);
}

/*
 * 250000 groups of 7000 processes through tables of 256 groups and 64
 * processes: every failure in a burst is counted in exactly one finding, and
 * the heap does not grow.
 */
static void test_state_stays_bounded_on_a_million_events(void **state)
{
	struct dio_host counting = host;
	size_t after_init;
	char path[64];
	uint64_t ts = T0;

	(void)state;
	counting.emit_finding = counting_emit;
	counted = 0;
	nfound = 0;
	opts_reset("max_groups", "256", "excerpts", "8", "min_failures", "3", NULL);
	assert_int_equal(dio_analyzer.init(&counting, &fake_ctx, opts, (void **)&st), 0);
	after_init = heap_in_use();
	for (uint32_t i = 0; i < 250000; i++) {
		snprintf(path, sizeof(path), "/f%u", i);
		for (int k = 0; k < 4; k++)	/* 4 failures: each group a burst */
			fail_path(ts++, 1000 + i % 7000, path, ENOENT);
		if (!(i % 64))
			assert_true(heap_in_use() <= after_init);
	}
	assert_true(heap_in_use() <= after_init);
	/* processes pushed out of the summaries are reported then */
	assert_true(nfound >= 7000 - 64);
	stop_analyzer(st);
	assert_int_equal(counted, 250000 * 4);
}

/* what the README says the defaults take: 5.3 MB */
static void test_the_defaults_take_what_the_readme_says(void **state)
{
	size_t used;

	(void)state;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 5200000 || used > 5300000)
		fail_msg("%zu bytes after init", used);
}

/* names are the host's: "errno N" from a host without name_of, and for errnos without one */
static void test_errno_names_are_the_hosts(void **state)
{
	struct dio_host old = host;
	void *s = NULL;

	(void)state;
	opts_reset(NULL);
	old.size = offsetof(struct dio_host, syscall_info);
	nfound = 0;
	assert_int_equal(dio_analyzer.init(&old, &fake_ctx, opts, &s), 0);
	st = s;
	storm(T0, PID, "/missing", 100, MS);
	stop_analyzer(s);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title, "100 stat calls failed with errno 2 in 99.0 ms "
			    "(1010/s): \"/missing\"");
	st = start_analyzer();
	for (int i = 0; i < 100; i++)
		fail_path(T0 + (uint64_t)i * MS, PID, "/odd", 530);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title, "100 stat calls failed with errno 530 in 99.0 ms "
			    "(1010/s): \"/odd\"");
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
		cmocka_unit_test(test_a_process_with_bursts_on_300_paths_is_one_finding),
		cmocka_unit_test(test_two_processes_are_two_findings),
		cmocka_unit_test(test_error_only_where_data_is_likely_lost),
		cmocka_unit_test(test_the_worst_is_the_most_severe),
		cmocka_unit_test(test_an_evicted_group_is_kept_for_its_process),
		cmocka_unit_test(test_findings_come_in_the_order_of_their_bursts),
		cmocka_unit_test(test_state_stays_bounded_on_a_million_events),
		cmocka_unit_test(test_the_defaults_take_what_the_readme_says),
		cmocka_unit_test(test_errno_names_are_the_hosts),
		cmocka_unit_test(test_bad_options_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
