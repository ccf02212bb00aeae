// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The redundant-open analyzer on synthetic streams: each pattern gives its
 * finding with the exact numbers, its fixed counterpart none, every threshold
 * at its edge, a re-used pid inherits nothing, the same stream gives the same
 * findings, and a million events on ever-new processes, files and fds leave
 * the heap where init put it.
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
#define PID	100
#define LINE	64

static void *st;
static int64_t fsize;		/* size of the file the windows append to */

static void call(uint64_t ts, uint32_t pid, uint16_t nr, int32_t fd,
		 const struct dio_file_tag *tag, int64_t off, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, "logger", nr, fd, tag, off, ret, 100);

	feed(st, &e);
}

static void seek(uint64_t ts, uint32_t pid, int32_t fd, const struct dio_file_tag *tag,
		 int64_t where, int whence, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, "logger", NR_lseek, fd, tag, ret, ret, 100);

	e.args[1] = (uint64_t)where;
	e.args[2] = (uint64_t)whence;
	feed(st, &e);
}

/* an append of n bytes through fd at the end of the file */
static void append(uint64_t ts, uint32_t pid, int32_t fd, const struct dio_file_tag *tag,
		   int64_t n)
{
	call(ts, pid, NR_write, fd, tag, fsize, n);
	fsize += n;
}

/* Redis' log line: openat, lseek to the end, fstat, writes of bytes each, close */
static void window(uint64_t ts, uint32_t pid, int32_t fd, const struct dio_file_tag *tag,
		   int writes, int64_t bytes)
{
	call(ts, pid, NR_openat, fd, tag, -1, fd);
	seek(ts + 1 * US, pid, fd, tag, 0, 2, fsize);
	call(ts + 2 * US, pid, NR_fstat, fd, tag, -1, 0);
	for (int i = 0; i < writes; i++)
		append(ts + 3 * US, pid, fd, tag, bytes);
	call(ts + 4 * US, pid, NR_close, fd, tag, -1, 0);
}

static void start(void)
{
	fsize = 0;
	st = start_analyzer();
}

/* n windows a ms apart on /log */
static void churn(int n, int writes, int64_t bytes)
{
	struct dio_file_tag a = tag_of(10, 1);

	start();
	fake_path(&a, "/log");
	for (int i = 0; i < n; i++)
		window(T0 + (uint64_t)i * MS, PID, 3, &a, writes, bytes);
	stop_analyzer(st);
}

static void test_churn_reports_windows_rate_bytes_and_calls(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	churn(100, 1, LINE);
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.churn");
	assert_non_null(f);
	/* 100 windows from the first open to the last close, 99 ms + 4 us: 1010.06/s */
	assert_string_equal(f->title, "/log opened and closed 100 times in 99.0 ms (1010/s), "
			    "64 bytes per open: openat lseek fstat write close");
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_int_equal(f->count, 100);
	assert_int_equal(f->pid, PID);
	assert_string_equal(f->comm, "logger");
	assert_string_equal(f->path, "/log");
	assert_int_equal(f->has_tag, 1);
	assert_int_equal(f->tag.ino, 10);
	assert_int_equal(f->ts_first, T0);
	assert_int_equal(f->ts_last, T0 + 99 * MS + 4 * US);
	assert_non_null(strstr(f->message, "100 of its 100 open-close windows on this file, "
				"6400 bytes in all); 100 of them made the calls openat lseek "
				"fstat write close"));
	assert_non_null(strstr(f->message, "O_APPEND"));
	/* the excerpt is one whole window, the second (the first one showed the pattern) */
	assert_string_equal(f->excerpt,
			    "+5.001000 [100/100 logger] openat(3) = 3\n"
			    "+5.001001 [100/100 logger] lseek(3) = 64\n"
			    "+5.001002 [100/100 logger] fstat(3) = 0\n"
			    "+5.001003 [100/100 logger] write(3) = 64\n"
			    "+5.001004 [100/100 logger] close(3) = 0\n");
}

/* each threshold just short of the stream (no finding) and just met (one) */
static void test_churn_threshold_edges(void **state)
{
	static const struct {
		const char *option, *short_of, *met;
		int windows, writes;
		int64_t bytes;
	} cases[] = {
		{ "min_windows", "100", "99", 99, 1, LINE },
		/* 100 windows in 0.099004 s: 1010.06 windows/s */
		{ "min_rate", "1010.1", "1010", 100, 1, LINE },
		/* fewer bytes than max_bytes make a window small */
		{ "max_bytes", "64", "65", 100, 1, LINE },
		{ "max_data_calls", "1", "2", 100, 2, 32 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts_reset(cases[i].option, cases[i].short_of, NULL);
		churn(cases[i].windows, cases[i].writes, cases[i].bytes);
		if (nfound)
			fail_msg("%s=%s: %d findings", cases[i].option, cases[i].short_of, nfound);
		opts_reset(cases[i].option, cases[i].met, NULL);
		churn(cases[i].windows, cases[i].writes, cases[i].bytes);
		if (nfound != 1 || !finding("redundant-open.churn"))
			fail_msg("%s=%s: %d findings", cases[i].option, cases[i].met, nfound);
	}
	/* the last case's windows wrote twice */
	assert_non_null(strstr(found[0].title, "64 bytes per open: openat lseek fstat write "
				"write close"));
}

/* the fix: one open, a write per line, one close */
static void test_keeping_the_fd_open_is_no_finding(void **state)
{
	struct dio_file_tag a = tag_of(10, 1);

	(void)state;
	opts_reset(NULL);
	start();
	call(T0, PID, NR_openat, 3, &a, -1, 3);
	for (int i = 0; i < 1000; i++)
		append(T0 + (uint64_t)i * MS, PID, 3, &a, LINE);
	call(T0 + 1000 * MS, PID, NR_close, 3, &a, -1, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* the sequence named is the most frequent one, with its count */
static void test_churn_names_the_most_common_sequence(void **state)
{
	struct dio_file_tag a = tag_of(10, 1);
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&a, "/log");
	for (int i = 0; i < 100; i++) {
		uint64_t ts = T0 + (uint64_t)i * MS;

		if (i % 3) {
			window(ts, PID, 3, &a, 1, LINE);
			continue;
		}
		call(ts, PID, NR_openat, 3, &a, -1, 3);
		append(ts + US, PID, 3, &a, LINE);
		call(ts + 2 * US, PID, NR_close, 3, &a, -1, 0);
	}
	stop_analyzer(st);
	f = finding("redundant-open.churn");
	assert_non_null(f);
	assert_non_null(strstr(f->title, ": openat lseek fstat write close"));
	assert_non_null(strstr(f->message, "; 66 of them made the calls openat lseek fstat "
				"write close"));
}

/* ---- sync-reopen ------------------------------------------------------------- */

/*
 * Elasticsearch's health check, n times on new files at /es: create, write,
 * open again, fsync (through the new fd when again, else the first), close
 * both, unlink. A new file each round: the tag changes, the path does not.
 */
static void health(int n, int again, uint32_t tid, const char *comm)
{
	for (int i = 0; i < n; i++) {
		struct dio_file_tag t = tag_of(20, (uint32_t)i + 1);
		uint64_t ts = T0 + (uint64_t)i * 100 * MS;
		struct dio_ev_syscall e[6];
		int k = 0;

		fake_path(&t, "/es");
		e[k++] = sys_ev(ts, PID, tid, comm, NR_openat, 5, &t, -1, 5, 10);
		e[k++] = sys_ev(ts + 1 * US, PID, tid, comm, NR_write, 5, &t, 0, 22, 10);
		if (again) {
			e[k++] = sys_ev(ts + 2 * US, PID, tid, comm, NR_openat, 6, &t, -1, 6, 10);
			e[k++] = sys_ev(ts + 3 * US, PID, tid, comm, NR_fsync, 6, &t, -1, 0, 10);
			e[k++] = sys_ev(ts + 4 * US, PID, tid, comm, NR_close, 6, &t, -1, 0, 10);
		} else {
			e[k++] = sys_ev(ts + 3 * US, PID, tid, comm, NR_fsync, 5, &t, -1, 0, 10);
		}
		e[k++] = sys_ev(ts + 5 * US, PID, tid, comm, NR_close, 5, &t, -1, 0, 10);
		for (int j = 0; j < k; j++)
			feed(st, &e[j]);
	}
}

static void test_sync_reopen_reports_count_paths_threads(void **state)
{
	struct dio_ev_proc ex = exit_ev(T0 + 10000 * MS, PID);
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	health(3, 1, PID + 1, "health");
	health(2, 1, PID + 2, "health2");
	assert_int_equal(nfound, 0);
	/* reported when the process is gone: its evidence is complete */
	feed(st, &ex);
	assert_int_equal(nfound, 1);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.sync-reopen");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_INFO);
	assert_string_equal(f->title, "5 times a file already open was opened again only to "
			    "fsync it: /es");
	assert_int_equal(f->count, 5);
	assert_int_equal(f->tid, PID + 1);
	assert_string_equal(f->comm, "health");
	assert_string_equal(f->path, "/es");
	assert_int_equal(f->ts_first, T0 + 2 * US);
	assert_int_equal(f->ts_last, T0 + 100 * MS + 4 * US);
	assert_non_null(strstr(f->message, "5 times, in threads: health, health2."));
	assert_non_null(strstr(f->message, "fsync the existing fd"));
	assert_string_equal(f->excerpt,
			    "+5.000002 [100/101 health] openat(6) = 6\n"
			    "+5.000003 [100/101 health] fsync(6) = 0\n"
			    "+5.000004 [100/101 health] close(6) = 0\n");
}

static void test_fsync_on_the_open_fd_is_no_finding(void **state)
{
	(void)state;
	opts_reset(NULL);
	start();
	health(5, 0, PID, "health");
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void test_sync_reopen_threshold_edge(void **state)
{
	(void)state;
	opts_reset("min_sync_reopens", "3", NULL);
	start();
	health(2, 1, PID, "health");
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	start();
	health(3, 1, PID, "health");
	stop_analyzer(st);
	assert_int_equal(nfindings("redundant-open.sync-reopen"), 1);
}

/* the second fd wrote, or the first was closed before: not a reopen only to sync */
static void test_a_second_fd_that_writes_or_a_sequential_reopen_is_no_finding(void **state)
{
	struct dio_file_tag t = tag_of(20, 1);

	(void)state;
	opts_reset(NULL);
	start();
	call(T0, PID, NR_openat, 5, &t, -1, 5);
	call(T0 + 1, PID, NR_openat, 6, &t, -1, 6);
	call(T0 + 2, PID, NR_write, 6, &t, 0, 10);
	call(T0 + 3, PID, NR_fsync, 6, &t, -1, 0);
	call(T0 + 4, PID, NR_close, 6, &t, -1, 0);
	call(T0 + 5, PID, NR_close, 5, &t, -1, 0);
	call(T0 + 6, PID, NR_openat, 5, &t, -1, 5);
	call(T0 + 7, PID, NR_fsync, 5, &t, -1, 0);
	call(T0 + 8, PID, NR_close, 5, &t, -1, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* a process that left fds open exits; a new one gets its pid and must not inherit them */
static void test_a_reused_pid_inherits_no_fds(void **state)
{
	struct dio_file_tag t = tag_of(20, 1);
	struct dio_ev_proc ex = exit_ev(T0 + 1, PID);

	(void)state;
	opts_reset(NULL);
	start();
	call(T0, PID, NR_openat, 5, &t, -1, 5);
	feed(st, &ex);
	call(T0 + 2, PID, NR_openat, 6, &t, -1, 6);
	call(T0 + 3, PID, NR_fsync, 6, &t, -1, 0);
	call(T0 + 4, PID, NR_close, 6, &t, -1, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* ---- seek -------------------------------------------------------------------- */

/* one open; n times an lseek to where the fd is (SEEK_SET), then a write */
static void reseek(int n, int whence_end)
{
	struct dio_file_tag a = tag_of(30, 1);

	fake_path(&a, "/data");
	call(T0, PID, NR_openat, 4, &a, -1, 4);
	for (int i = 0; i < n; i++) {
		uint64_t ts = T0 + (uint64_t)(i + 1) * MS;

		seek(ts, PID, 4, &a, whence_end ? 0 : fsize, whence_end ? 2 : 0, fsize);
		append(ts + US, PID, 4, &a, LINE);
	}
	call(T0 + (uint64_t)(n + 1) * MS, PID, NR_close, 4, &a, -1, 0);
}

static void test_seek_to_the_same_offset_reports_count(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	reseek(10, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.seek");
	assert_non_null(f);
	assert_string_equal(f->title, "10 lseek calls set the offset the fd already had, before "
			    "a read or write: /data");
	assert_int_equal(f->count, 10);
	assert_int_equal(f->ts_first, T0 + MS);
	assert_int_equal(f->ts_last, T0 + 10 * MS + US);
	assert_non_null(strstr(f->message, "pread/pwrite"));
	assert_string_equal(f->excerpt,
			    "+5.001000 [100/100 logger] lseek(4) = 0\n"
			    "+5.001001 [100/100 logger] write(4) = 64\n");
}

static void test_seek_threshold_edge_and_seek_end(void **state)
{
	(void)state;
	opts_reset(NULL);
	start();
	reseek(9, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	fsize = 0;
	st = start_analyzer();
	reseek(10, 1);		/* SEEK_END of a file only appended to: the same offset */
	stop_analyzer(st);
	assert_int_equal(nfindings("redundant-open.seek"), 1);
}

static void test_seeks_that_move_or_only_ask_are_no_finding(void **state)
{
	struct dio_file_tag a = tag_of(30, 1);

	(void)state;
	opts_reset("min_seeks", "1", NULL);
	start();
	call(T0, PID, NR_openat, 4, &a, -1, 4);
	append(T0 + 1, PID, 4, &a, LINE);
	seek(T0 + 2, PID, 4, &a, 0, 0, 0);		/* moves back: a real seek */
	call(T0 + 3, PID, NR_read, 4, &a, 0, LINE);
	seek(T0 + 4, PID, 4, &a, 0, 1, LINE);		/* SEEK_CUR 0: where am I */
	call(T0 + 5, PID, NR_read, 4, &a, LINE, 0);
	seek(T0 + 6, PID, 4, &a, LINE, 0, LINE);	/* the same offset, but no read follows */
	call(T0 + 7, PID, NR_close, 4, &a, -1, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* pwrite writes elsewhere and leaves the offset: the lseek after it still goes nowhere */
static void test_pwrite_leaves_the_offset(void **state)
{
	struct dio_file_tag a = tag_of(30, 1);

	(void)state;
	opts_reset("min_seeks", "1", NULL);
	start();
	fake_path(&a, "/data");
	call(T0, PID, NR_openat, 4, &a, -1, 4);
	call(T0 + 1, PID, NR_write, 4, &a, 0, LINE);
	call(T0 + 2, PID, NR_pwrite64, 4, &a, 1000, 10);
	seek(T0 + 3, PID, 4, &a, LINE, 0, LINE);
	call(T0 + 4, PID, NR_write, 4, &a, LINE, LINE);
	call(T0 + 5, PID, NR_close, 4, &a, -1, 0);
	stop_analyzer(st);
	assert_int_equal(nfindings("redundant-open.seek"), 1);
	assert_int_equal(finding("redundant-open.seek")->count, 1);
}

/* another fd on the file moved an offset: what this fd's offset is, is no longer known */
static void test_a_move_through_another_fd_forgets_the_offset(void **state)
{
	struct dio_file_tag a = tag_of(30, 1);

	(void)state;
	opts_reset("min_seeks", "1", NULL);
	start();
	call(T0, PID, NR_openat, 4, &a, -1, 4);
	call(T0 + 1, PID, NR_openat, 5, &a, -1, 5);
	call(T0 + 2, PID, NR_write, 5, &a, 0, LINE);
	seek(T0 + 3, PID, 4, &a, 0, 0, 0);
	call(T0 + 4, PID, NR_write, 4, &a, 0, LINE);
	call(T0 + 5, PID, NR_close, 4, &a, -1, 0);
	call(T0 + 6, PID, NR_close, 5, &a, -1, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* ---- determinism and memory --------------------------------------------------- */

static void mixed(void)
{
	struct dio_file_tag a = tag_of(10, 1);

	fake_path(&a, "/log");
	health(3, 1, PID, "health");
	for (int i = 0; i < 150; i++)
		window(T0 + (uint64_t)i * MS, PID + 1, 3, &a, 1, LINE);
	reseek(20, 0);
}

static void test_the_same_stream_gives_the_same_findings(void **state)
{
	static struct fake_finding first[FAKE_FINDINGS];
	int n;

	(void)state;
	opts_reset(NULL);
	start();
	mixed();
	stop_analyzer(st);
	n = nfound;
	assert_int_equal(n, 3);
	memcpy(first, found, sizeof(first));
	start();
	mixed();
	stop_analyzer(st);
	assert_int_equal(nfound, n);
	assert_memory_equal(first, found, sizeof(first));
	/* oldest first */
	assert_string_equal(found[0].code, "redundant-open.churn");
	assert_string_equal(found[1].code, "redundant-open.sync-reopen");
	assert_string_equal(found[2].code, "redundant-open.seek");
}

static void test_state_stays_bounded_on_a_million_events(void **state)
{
	size_t after_init;
	uint64_t ts = T0;

	(void)state;
	opts_reset("max_procs", "64", "max_files", "128", "max_fds", "256", "excerpts", "8",
		   "min_windows", "2", NULL);
	start();
	after_init = heap_in_use();
	/* new processes, files and fds all the time; windows that are findings, too */
	for (uint32_t i = 0; i < 125000; i++) {
		uint32_t pid = 1000 + i % 5000;
		struct dio_file_tag t = tag_of(1000 + i, i);
		int32_t fd = 3 + (int32_t)(i % 1000);

		call(ts++, pid, NR_openat, fd, &t, -1, fd);
		call(ts++, pid, NR_openat, fd + 1, &t, -1, fd + 1);
		call(ts++, pid, NR_fsync, fd + 1, &t, -1, 0);
		call(ts++, pid, NR_close, fd + 1, &t, -1, 0);
		seek(ts++, pid, fd, &t, 0, 0, 0);
		call(ts++, pid, NR_write, fd, &t, 0, 10);
		if (i % 3)
			call(ts++, pid, NR_close, fd, &t, -1, 0);
		else
			call(ts++, pid, NR_read, fd, &t, 10, 0);
		call(ts++, pid + 1, NR_pwrite64, fd, &t, 0, 10);
		assert_true(heap_in_use() <= after_init);
	}
	assert_true(ts - T0 >= 1000000);
	stop_analyzer(st);
}

/* what the README says the defaults take: 9.3 MB */
static void test_the_defaults_take_what_the_readme_says(void **state)
{
	size_t used;

	(void)state;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 9250000 || used > 9350000)
		fail_msg("%zu bytes after init", used);
}

static void test_bad_options_are_refused(void **state)
{
	void *s = NULL;

	(void)state;
	opts_reset("max_fds", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &s), -EINVAL);
	assert_non_null(strstr(logged, "max_fds"));
	opts_reset("min_rate", "-1", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &s), -EINVAL);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_churn_reports_windows_rate_bytes_and_calls),
		cmocka_unit_test(test_churn_threshold_edges),
		cmocka_unit_test(test_keeping_the_fd_open_is_no_finding),
		cmocka_unit_test(test_churn_names_the_most_common_sequence),
		cmocka_unit_test(test_sync_reopen_reports_count_paths_threads),
		cmocka_unit_test(test_fsync_on_the_open_fd_is_no_finding),
		cmocka_unit_test(test_sync_reopen_threshold_edge),
		cmocka_unit_test(test_a_second_fd_that_writes_or_a_sequential_reopen_is_no_finding),
		cmocka_unit_test(test_a_reused_pid_inherits_no_fds),
		cmocka_unit_test(test_seek_to_the_same_offset_reports_count),
		cmocka_unit_test(test_seek_threshold_edge_and_seek_end),
		cmocka_unit_test(test_seeks_that_move_or_only_ask_are_no_finding),
		cmocka_unit_test(test_pwrite_leaves_the_offset),
		cmocka_unit_test(test_a_move_through_another_fd_forgets_the_offset),
		cmocka_unit_test(test_the_same_stream_gives_the_same_findings),
		cmocka_unit_test(test_state_stays_bounded_on_a_million_events),
		cmocka_unit_test(test_the_defaults_take_what_the_readme_says),
		cmocka_unit_test(test_bad_options_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
