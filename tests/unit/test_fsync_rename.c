// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SDK example analyzer (docs/examples/fsync-rename), linked in directly
 * with the fake host: a file written and renamed without a sync is reported
 * with its numbers, every kind of sync prevents it, a rename finds the file by
 * an absolute or relative name, one finding per target, the edges of
 * max_files and max_targets, and state that does not grow.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "fakehost.h"

#define PID	4242
#define SEC	1000000000ULL
#define AT_CWD	(-100)

/* a syscall record with its two string arguments after it */
struct rec {
	struct dio_ev_syscall e;
	char str[512];
};

static struct dio_file_tag tmp_tag, other_tag;

static void write_ev(void *s, uint64_t ts, const struct dio_file_tag *tag, int64_t bytes)
{
	struct dio_ev_syscall e = sys_ev(ts, PID, PID + 1, "saver", NR_write, 4, tag, 0, bytes,
					 1000);

	feed(s, &e);
}

/* nr (fsync, fdatasync, syncfs) on tag, or sync() when tag is NULL */
static void sync_ev(void *s, uint64_t ts, uint16_t nr, const struct dio_file_tag *tag,
		    int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, PID, PID + 1, "saver", nr, tag ? 4 : -1, tag, -1, ret,
					 1000);

	feed(s, &e);
}

/* rename(from, to) when nr is NR_rename, else renameat(olddir, from, newdir, to) */
static void rename_ev(void *s, uint64_t ts, uint16_t nr, int olddir, const char *from,
		      int newdir, const char *to, int64_t ret)
{
	struct rec r;
	size_t a = strlen(from) + 1, b = strlen(to) + 1;

	assert_true(a + b <= sizeof(r.str));
	r.e = sys_ev(ts, PID, PID + 2, "committer", nr, -1, NULL, -1, ret, 2000);
	if (nr != NR_rename) {
		r.e.args[0] = (uint64_t)(int64_t)olddir;
		r.e.args[2] = (uint64_t)(int64_t)newdir;
	}
	memcpy(r.str, from, a);
	memcpy(r.str + a, to, b);
	r.e.str_len[0] = (uint16_t)a;
	r.e.str_len[1] = (uint16_t)b;
	r.e.hdr.size = (uint16_t)(sizeof(r.e) + a + b);
	feed(s, &r);
}

static int setup(void **unused)
{
	tmp_tag = tag_of(10, 7);
	other_tag = tag_of(11, 7);
	opts_reset(NULL);
	return 0;
}

static void reports_rename_of_unsynced_file_with_its_numbers(void **unused)
{
	void *s = start_analyzer();
	const struct fake_finding *f;

	fake_path(&tmp_tag, "/d/config.tmp");
	write_ev(s, 1 * SEC, &tmp_tag, 4096);
	write_ev(s, 2 * SEC, &tmp_tag, 4096);
	write_ev(s, 3 * SEC, &tmp_tag, 4000);
	rename_ev(s, 4 * SEC, NR_rename, 0, "/d/config.tmp", 0, "/d/config", 0);
	stop_analyzer(s);

	assert_int_equal(nfound, 1);
	f = finding("fsync_rename.no-fsync");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title,
			    "renamed to /d/config without fsync: 12192 bytes in 3 writes not synced");
	assert_non_null(strstr(f->message,
			       "/d/config.tmp was written, then renamed to /d/config\n"));
	assert_non_null(strstr(f->message, "fsync() the\ndirectory /d after it"));
	/* the process that renamed, the file that was written */
	assert_int_equal(f->pid, PID);
	assert_int_equal(f->tid, PID + 2);
	assert_string_equal(f->comm, "committer");
	assert_string_equal(f->path, "/d/config.tmp");
	assert_true(f->has_tag);
	assert_memory_equal(&f->tag, &tmp_tag, sizeof(tmp_tag));
	assert_int_equal(f->ts_first, 1 * SEC);
	assert_int_equal(f->ts_last, 4 * SEC);
	assert_int_equal(f->count, 3);
	assert_string_equal(f->excerpt,
			    "+1.000000 [4242/4243 saver] write(4) = 4096\n"
			    "... 1 more write\n"
			    "+3.000000 [4242/4243 saver] write(4) = 4000\n"
			    "+4.000000 [4242/4244 committer] rename(-1) = 0\n");
}

/* each way of syncing the data before the rename, and ways that do not */
static void sync_before_rename_prevents_the_finding(void **unused)
{
	static const struct {
		uint16_t nr;
		int on_file;	/* 0: sync(), 1: the written file, 2: a file on another device */
		int64_t ret;
		int findings;
	} cases[] = {
		{ NR_fsync, 1, 0, 0 },
		{ NR_fdatasync, 1, 0, 0 },
		{ NR_sync, 0, 0, 0 },
		{ NR_syncfs, 1, 0, 0 },		/* the file system of the file */
		{ NR_syncfs, 2, 0, 1 },		/* another file system */
		{ NR_fsync, 2, 0, 1 },		/* another file */
		{ NR_fsync, 1, -EIO, 1 },	/* a failed fsync syncs nothing */
		{ NR_sync_file_range, 1, 0, 1 },	/* flushes no metadata: no durability */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dio_file_tag elsewhere = tag_of(99, 1);
		const struct dio_file_tag *on[] = { NULL, &tmp_tag, &elsewhere };
		void *s = start_analyzer();

		elsewhere.dev = (9 << 20) | 3;
		fake_path(&tmp_tag, "/d/a.tmp");
		write_ev(s, 1 * SEC, &tmp_tag, 10);
		sync_ev(s, 2 * SEC, cases[i].nr, on[cases[i].on_file], cases[i].ret);
		rename_ev(s, 3 * SEC, NR_rename, 0, "/d/a.tmp", 0, "/d/a", 0);
		stop_analyzer(s);
		if (nfindings("fsync_rename.no-fsync") != cases[i].findings)
			fail_msg("case %zu (%s): %d findings, expected %d", i,
				 fakehost.syscall_name(cases[i].nr), nfindings("fsync_rename.no-fsync"),
				 cases[i].findings);
	}
}

static void counts_only_writes_after_the_last_sync(void **unused)
{
	void *s = start_analyzer();
	const struct fake_finding *f;

	fake_path(&tmp_tag, "/d/log.tmp");
	write_ev(s, 1 * SEC, &tmp_tag, 4096);
	sync_ev(s, 2 * SEC, NR_fsync, &tmp_tag, 0);
	write_ev(s, 3 * SEC, &tmp_tag, 10);
	rename_ev(s, 4 * SEC, NR_rename, 0, "/d/log.tmp", 0, "/d/log", 0);
	stop_analyzer(s);
	f = finding("fsync_rename.no-fsync");
	assert_non_null(f);
	assert_int_equal(f->count, 1);
	assert_int_equal(f->ts_first, 3 * SEC);
	assert_string_equal(f->title,
			    "renamed to /d/log without fsync: 10 bytes in 1 write not synced");
	assert_string_equal(f->excerpt, "+3.000000 [4242/4243 saver] write(4) = 10\n"
					"+4.000000 [4242/4244 committer] rename(-1) = 0\n");
}

static void failed_rename_waits_for_the_one_that_succeeds(void **unused)
{
	void *s = start_analyzer();

	fake_path(&tmp_tag, "/d/a.tmp");
	write_ev(s, 1 * SEC, &tmp_tag, 10);
	rename_ev(s, 2 * SEC, NR_rename, 0, "/d/a.tmp", 0, "/d/a", -EXDEV);
	assert_int_equal(nfound, 0);
	rename_ev(s, 3 * SEC, NR_rename, 0, "/d/a.tmp", 0, "/d/a", 0);
	stop_analyzer(s);
	assert_int_equal(nfindings("fsync_rename.no-fsync"), 1);
	assert_int_equal(finding("fsync_rename.no-fsync")->ts_last, 3 * SEC);
}

/* relative names end the known path at a '/'; the new name joins the same directory */
static void relative_names_match_at_a_slash(void **unused)
{
	static const struct {
		uint16_t nr;
		int olddir, newdir;
		const char *from, *to;
		const char *target;	/* NULL: no finding */
	} cases[] = {
		{ NR_renameat, 5, 5, "sub/state.tmp", "sub/state", "/d/sub/state" },
		{ NR_renameat2, AT_CWD, AT_CWD, "./state.tmp", "./state", "/d/sub/state" },
		{ NR_rename, 0, 0, "state.tmp", "state", "/d/sub/state" },
		{ NR_renameat, 5, 6, "state.tmp", "state", "state" },	/* other directory */
		{ NR_renameat, 5, 5, "state.tmp", "/e/state", "/e/state" },
		{ NR_renameat, 5, 5, "ate.tmp", "ate", NULL },	/* not at a '/' */
		{ NR_rename, 0, 0, "/d/state.tmp", "/d/state", NULL },	/* another file */
		{ NR_rename, 0, 0, "/d/sub/state.tm", "/d/sub/state", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[256];
		void *s = start_analyzer();

		fake_path(&tmp_tag, "/d/sub/state.tmp");
		write_ev(s, 1 * SEC, &tmp_tag, 200);
		rename_ev(s, 2 * SEC, cases[i].nr, cases[i].olddir, cases[i].from, cases[i].newdir,
			  cases[i].to, 0);
		stop_analyzer(s);
		if (!cases[i].target) {
			if (nfound)
				fail_msg("case %zu: %s -> %s: unexpected finding", i, cases[i].from,
					 cases[i].to);
			continue;
		}
		snprintf(want, sizeof(want),
			 "renamed to %s without fsync: 200 bytes in 1 write not synced",
			 cases[i].target);
		if (nfound != 1 || strcmp(found[0].title, want))
			fail_msg("case %zu: %s -> %s: %d findings, title '%s', expected '%s'", i,
				 cases[i].from, cases[i].to, nfound, nfound ? found[0].title : "",
				 want);
	}
}

static void of_two_files_the_name_matches_the_latest_written(void **unused)
{
	void *s = start_analyzer();

	fake_path(&tmp_tag, "/x/a.tmp");
	fake_path(&other_tag, "/y/a.tmp");
	write_ev(s, 1 * SEC, &tmp_tag, 1);
	write_ev(s, 2 * SEC, &other_tag, 2);
	rename_ev(s, 3 * SEC, NR_rename, 0, "a.tmp", 0, "a", 0);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].path, "/y/a.tmp");
	/* that one is done with; the other is still pending */
	rename_ev(s, 4 * SEC, NR_rename, 0, "a.tmp", 0, "b", 0);
	stop_analyzer(s);
	assert_int_equal(nfound, 2);
	assert_string_equal(found[1].path, "/x/a.tmp");
	assert_string_equal(found[1].title,
			    "renamed to /x/b without fsync: 1 byte in 1 write not synced");
}

/* save n files onto targets /d/t0.. /d/t(n-1), each one twice when twice is set */
static void save_targets(void *s, int n, int twice)
{
	for (int round = 0; round <= twice; round++) {
		for (int i = 0; i < n; i++) {
			struct dio_file_tag t = tag_of(1000 + (uint64_t)(round * n + i), 1);
			char from[64], to[64];
			uint64_t ts = (uint64_t)(round * n + i + 1) * SEC;

			snprintf(from, sizeof(from), "/d/t%d.tmp", i);
			snprintf(to, sizeof(to), "/d/t%d", i);
			fake_path(&t, from);
			write_ev(s, ts, &t, 1);
			rename_ev(s, ts + 1, NR_rename, 0, from, 0, to, 0);
		}
	}
}

static void one_finding_per_target_then_a_count(void **unused)
{
	void *s = start_analyzer();
	const struct fake_finding *more;

	save_targets(s, 2, 1);
	assert_int_equal(nfindings("fsync_rename.no-fsync"), 2);
	stop_analyzer(s);
	more = finding("fsync_rename.more");
	assert_non_null(more);
	assert_int_equal(more->severity, DIO_SEV_INFO);
	assert_int_equal(more->count, 2);
	assert_string_equal(more->title, "2 more renames without fsync, not reported one by one");
	assert_non_null(strstr(more->message, "2 renames onto 2 targets reported above.\n"));
	assert_int_equal(nfound, 3);
}

static void max_targets_edge(void **unused)
{
	void *s;

	/* as many targets as max_targets: each reported, nothing left over */
	opts_reset("max_targets", "3", NULL);
	s = start_analyzer();
	save_targets(s, 3, 0);
	stop_analyzer(s);
	assert_int_equal(nfindings("fsync_rename.no-fsync"), 3);
	assert_null(finding("fsync_rename.more"));

	/* one more: counted instead */
	opts_reset("max_targets", "2", NULL);
	s = start_analyzer();
	save_targets(s, 3, 0);
	stop_analyzer(s);
	assert_int_equal(nfindings("fsync_rename.no-fsync"), 2);
	assert_int_equal(finding("fsync_rename.more")->count, 1);
	assert_non_null(strstr(finding("fsync_rename.more")->message,
			       "1 rename onto targets past max_targets=2.\n"));
}

/* max_files=8 is one bucket: 8 pending files fit, a 9th pushes out the oldest */
static void max_files_edge(void **unused)
{
	for (int extra = 0; extra <= 1; extra++) {
		struct dio_file_tag first = tag_of(500, 1);
		void *s;

		opts_reset("max_files", "8", NULL);
		s = start_analyzer();
		fake_path(&first, "/d/first.tmp");
		for (int i = 0; i < 8 + extra; i++) {
			struct dio_file_tag t = tag_of(500 + (uint64_t)i, 1);

			write_ev(s, (uint64_t)(i + 1) * SEC, &t, 1);
		}
		rename_ev(s, 100 * SEC, NR_rename, 0, "/d/first.tmp", 0, "/d/first", 0);
		stop_analyzer(s);
		assert_int_equal(nfindings("fsync_rename.no-fsync"), extra ? 0 : 1);
		assert_int_equal(nfindings("fsync_rename.forgotten"), extra);
		if (extra) {
			assert_int_equal(finding("fsync_rename.forgotten")->count, 1);
			assert_string_equal(finding("fsync_rename.forgotten")->title,
				"1 written file forgotten before a sync or rename (table full)");
		}
	}
}

static void refuses_tables_of_no_size(void **unused)
{
	static const char *const keys[] = { "max_files", "max_targets" };

	for (int i = 0; i < 2; i++) {
		void *state = NULL;

		opts_reset(keys[i], "0", NULL);
		logged[0] = 0;
		assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
		assert_null(state);
		assert_non_null(strstr(logged, "must be between 1 and"));
	}
}

/*
 * A million writes to ever-new files, syncs and renames: the heap holds what
 * init allocated (the documented bytes) and not a byte more.
 */
static void state_stays_within_its_tables(void **unused)
{
	size_t before = heap_in_use(), after_init, after;
	void *s = start_analyzer();

	after_init = heap_in_use();
	/* 1024 files of 312 bytes, 512 target slots of 16 bytes, the rest */
	assert_true(after_init - before <= 1024 * 312 + 512 * 16 + 1024);
	for (uint64_t i = 0; i < 1000000; i++) {
		struct dio_file_tag t = tag_of(1000000 + i, (uint32_t)i);

		if (i % 1000 == 999) {
			char from[64];

			snprintf(from, sizeof(from), "/d/n%llu.tmp", (unsigned long long)i);
			rename_ev(s, i, NR_rename, 0, from, 0, "/d/n", 0);
		} else if (i % 16 == 15) {
			sync_ev(s, i, NR_fsync, &t, 0);
		} else {
			write_ev(s, i, &t, 1);
		}
	}
	after = heap_in_use();
	stop_analyzer(s);
	assert_true(after <= after_init);
	assert_int_equal(nfindings("fsync_rename.no-fsync"), 0);
	assert_int_equal(nfindings("fsync_rename.forgotten"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(reports_rename_of_unsynced_file_with_its_numbers, setup),
		cmocka_unit_test_setup(sync_before_rename_prevents_the_finding, setup),
		cmocka_unit_test_setup(counts_only_writes_after_the_last_sync, setup),
		cmocka_unit_test_setup(failed_rename_waits_for_the_one_that_succeeds, setup),
		cmocka_unit_test_setup(relative_names_match_at_a_slash, setup),
		cmocka_unit_test_setup(of_two_files_the_name_matches_the_latest_written, setup),
		cmocka_unit_test_setup(one_finding_per_target_then_a_count, setup),
		cmocka_unit_test_setup(max_targets_edge, setup),
		cmocka_unit_test_setup(max_files_edge, setup),
		cmocka_unit_test_setup(refuses_tables_of_no_size, setup),
		cmocka_unit_test_setup(state_stays_within_its_tables, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
