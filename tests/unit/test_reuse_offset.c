// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reuse-offset analyzer on synthetic streams: the Fluent Bit rotation of
 * the DIO paper (26 bytes read, the file deleted and created again with the
 * same inode number, 16 bytes written, the follower resumes at 26), its fixed
 * counterpart, the copytruncate case, the thresholds at their edges, and its
 * memory staying bounded over a million events.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/unit/fake_analyzer_host.h"

#define WRITER	100
#define READER	200
#define INO	12

static uint64_t now;

static uint64_t tick(void)
{
	return now += 1000;
}

/* the analyzer with opts, and the clock at 0 */
static void *start(void)
{
	now = 0;
	return start_analyzer();
}

static void call(void *st, uint32_t pid, const char *comm, uint16_t nr, int32_t fd,
		 const struct dio_file_tag *tag, int64_t off, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(tick(), pid, pid, comm, nr, fd, tag, off, ret, 500);

	if (nr == NR_lseek) {
		e.args[1] = (uint64_t)off;
		e.args[2] = SEEK_SET;
	}
	feed(st, &e);
}

static void creat_(void *st, const struct dio_file_tag *tag, int fd)
{
	struct dio_ev_syscall e = sys_ev(tick(), WRITER, WRITER, "logwriter", NR_openat, fd, tag,
					 -1, fd, 500);

	e.args[0] = (uint64_t)(int64_t)AT_FDCWD;
	e.args[2] = O_WRONLY | O_CREAT | O_TRUNC | O_APPEND;
	feed(st, &e);
}

static void write_(void *st, const struct dio_file_tag *tag, int64_t off, int64_t n)
{
	call(st, WRITER, "logwriter", NR_write, 3, tag, off, n);
}

static void read_(void *st, uint32_t pid, const struct dio_file_tag *tag, int64_t off,
		  int64_t n)
{
	call(st, pid, "follower", NR_read, 4, tag, off, n);
}

/* unlink(path) = 0 by the writer: the record and its string argument */
static void unlink_(void *st, const char *path)
{
	struct {
		struct dio_ev_syscall e;
		char s[64];
	} r;

	r.e = sys_ev(tick(), WRITER, WRITER, "logwriter", NR_unlink, -1, NULL, -1, 0, 500);
	snprintf(r.s, sizeof(r.s), "%s", path);
	r.e.str_len[0] = (uint16_t)(strlen(path) + 1);
	r.e.hdr.size = (uint16_t)(sizeof(r.e) + r.e.str_len[0]);
	feed(st, &r);
}

static void exit_(void *st, uint32_t pid)
{
	struct dio_ev_proc p = exit_ev(tick(), pid);

	feed(st, &p);
}

/*
 * The paper's story: old_bytes written and read, the log deleted and created
 * again with a new generation, new_bytes written, and the follower reads the new
 * file from `resume` (seeking there first) to its end, then polls once more.
 */
static void rotation(void *st, int64_t old_bytes, int64_t new_bytes, int64_t resume)
{
	struct dio_file_tag a = tag_of(INO, 1), b = tag_of(INO, 2);
	int64_t off, n;

	fake_path(&a, "/mnt/app.log");
	fake_path(&b, "/mnt/app.log");
	creat_(st, &a, 3);
	write_(st, &a, 0, old_bytes);
	read_(st, READER, &a, 0, old_bytes);
	read_(st, READER, &a, old_bytes, 0);
	unlink_(st, "/mnt/app.log");
	creat_(st, &b, 3);
	write_(st, &b, 0, new_bytes);
	if (resume)
		call(st, READER, "follower", NR_lseek, 4, &b, resume, resume);
	for (off = resume; off < new_bytes; off += n) {
		n = new_bytes - off < 64 ? new_bytes - off : 64;
		read_(st, READER, &b, off, n);
	}
	read_(st, READER, &b, off, 0);
	read_(st, READER, &b, off, 0);
}

static void stale_offset_reported_with_the_lost_bytes(void **unused)
{
	const struct fake_finding *f;
	struct dio_file_tag b = tag_of(INO, 2);
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	rotation(st, 26, 16, 26);
	assert_int_equal(nfound, 0);
	/* the reader is gone: what it missed is final */
	exit_(st, READER);
	assert_int_equal(nfound, 1);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_string_equal(f->title, "pid 200 (follower) resumed the new /mnt/app.log at its old "
			    "offset 26: 16 bytes pid 100 (logwriter) wrote below it were never "
			    "read");
	assert_non_null(strstr(f->message, "deleted (unlink by pid 100 (logwriter)) and created "
				"again"));
	assert_non_null(strstr(f->message, "inode number 12 back with a new generation (1, "
				"then 2)"));
	assert_non_null(strstr(f->message, "up to offset 26; its first read of the new one was "
				"at offset 26, not 0, so 16 of the 16 bytes"));
	assert_non_null(strstr(f->message, "2 of its 2 reads returned 0"));
	assert_non_null(strstr(f->message, "FS_IOC_GETVERSION"));
	assert_int_equal(f->pid, READER);
	assert_string_equal(f->comm, "follower");
	assert_string_equal(f->path, "/mnt/app.log");
	assert_true(f->has_tag);
	assert_memory_equal(&f->tag, &b, sizeof(b));
	assert_int_equal(f->count, 16);
	/* unlink, the first write, the lseek, the two reads at the stale offset */
	assert_string_equal(f->excerpt, "+0.000005 [100/100 logwriter] unlink(-1) = 0\n"
			    "+0.000007 [100/100 logwriter] write(3) = 16\n"
			    "+0.000008 [200/200 follower] lseek(4) = 26\n"
			    "+0.000009 [200/200 follower] read(4) = 0\n"
			    "+0.000010 [200/200 follower] read(4) = 0\n");
	assert_true(f->ts_first < f->ts_last);
}

static void stale_offset_below_new_data_loses_what_is_below(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	/* 100 bytes this time: the follower reads 26..100 and misses 0..26 */
	rotation(st, 26, 100, 26);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.stale-offset")->count, 26);
	assert_non_null(strstr(finding("reuse-offset.stale-offset")->title, ": 26 bytes pid 100"));
}

static void follower_that_starts_new_file_at_zero_is_fine(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	rotation(st, 26, 16, 0);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void min_lost_at_its_edge(void **unused)
{
	void *st;

	(void)unused;
	opts_reset("min_lost", "16", NULL);
	st = start();
	rotation(st, 26, 16, 26);
	stop_analyzer(st);
	assert_int_equal(nfindings("reuse-offset.stale-offset"), 1);

	opts_reset("min_lost", "17", NULL);
	st = start();
	rotation(st, 26, 16, 26);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* a reader that jumps to a trailer of the new file did not carry an offset over */
static void first_read_elsewhere_needs_any_offset(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	rotation(st, 26, 16, 10);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);

	opts_reset("any_offset", "true", NULL);
	st = start();
	rotation(st, 26, 16, 10);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.stale-offset")->count, 10);
}

/* a follower restarted (a new pid) that resumes where the old one left the earlier file */
static void restarted_follower_at_the_old_offset(void **unused)
{
	struct dio_file_tag a = tag_of(INO, 1), b = tag_of(INO, 2);
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	fake_path(&b, "/mnt/app.log");
	write_(st, &a, 0, 26);
	read_(st, READER, &a, 0, 26);
	exit_(st, READER);
	creat_(st, &b, 3);
	write_(st, &b, 0, 16);
	read_(st, READER + 1, &b, 26, 0);
	stop_analyzer(st);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->pid, READER + 1);
	assert_int_equal(f->count, 16);
	assert_non_null(strstr(f->message, "A reader (another process) had read the earlier file "
				"up to offset 26"));
	/* no unlink seen: the message says what it knows */
	assert_non_null(strstr(f->message, "was deleted and created again"));
}

/* records of the deleted file that arrive after the new file's first ones change nothing */
static void late_record_of_the_earlier_file_is_ignored(void **unused)
{
	struct dio_file_tag a = tag_of(INO, 1), b = tag_of(INO, 2);
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	write_(st, &a, 0, 26);
	read_(st, READER, &a, 0, 20);
	creat_(st, &b, 3);
	write_(st, &b, 0, 16);
	read_(st, READER, &a, 20, 6);
	read_(st, READER, &b, 0, 16);
	read_(st, READER, &b, 16, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* copytruncate: the file is truncated and written again, the follower reads at its offset */
static void copytruncate(void *st, int recover)
{
	struct dio_file_tag a = tag_of(INO, 1);

	fake_path(&a, "/mnt/app.log");
	creat_(st, &a, 3);
	write_(st, &a, 0, 2600);
	read_(st, READER, &a, 0, 2600);
	read_(st, READER, &a, 2600, 0);
	call(st, WRITER, "logwriter", NR_ftruncate, 3, &a, -1, 0);
	write_(st, &a, 0, 1000);
	read_(st, READER, &a, 2600, 0);
	read_(st, READER, &a, 2600, 0);
	if (recover) {
		read_(st, READER, &a, 0, 1000);
		read_(st, READER, &a, 1000, 0);
	}
	read_(st, READER, &a, recover ? 1000 : 2600, 0);
}

static void read_past_end_after_truncation(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	copytruncate(st, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.read-past-end");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "pid 200 (follower) waits at offset 2600 of /mnt/app.log, "
			    "past its end at 1000: 1000 bytes pid 100 (logwriter) wrote below it "
			    "were never read");
	assert_non_null(strstr(f->message, "returned 0 (end of file) 3 times while the file held "
				"1000 bytes: it was truncated (ftruncate by pid 100 (logwriter))"));
	assert_int_equal(f->count, 1000);
	assert_non_null(strstr(f->excerpt, "ftruncate(3) = 0\n"));
}

static void reader_that_starts_again_at_zero_lost_nothing(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	copytruncate(st, 1);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* tail -f: reads that return 0 at the end, then the new data */
static void follower_at_the_end_is_fine(void **unused)
{
	struct dio_file_tag a = tag_of(INO, 1);
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	creat_(st, &a, 3);
	for (int i = 0; i < 100; i++) {
		write_(st, &a, i * 26, 26);
		read_(st, READER, &a, i * 26, 26);
		read_(st, READER, &a, (i + 1) * 26, 0);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void bad_options_are_refused(void **unused)
{
	void *st = NULL;

	(void)unused;
	opts_reset("min_lost", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &st), -EINVAL);
	assert_non_null(strstr(logged, "min_lost"));
	opts_reset("max_suspects", "0", NULL);
	assert_int_equal(dio_analyzer.init(&host, &fake_ctx, opts, &st), -EINVAL);
}

/*
 * A million events with ever-new inode numbers, generations, readers and
 * suspects: the heap does not grow after init, and suspects that are pushed
 * out are still reported.
 */
static void memory_stays_bounded(void **unused)
{
	size_t before;
	void *st;

	(void)unused;
	opts_reset("max_files", "64", "max_readers", "64", "max_suspects", "4",
		   "max_removals", "8", NULL);
	st = start();
	before = heap_in_use();
	for (uint32_t i = 0; i < 100000; i++) {
		struct dio_file_tag a = tag_of(1000 + i % 5000, i), b = tag_of(1000 + i % 5000, i + 1);
		uint32_t pid = 1000 + i;

		write_(st, &a, 0, 26);
		read_(st, pid, &a, 0, 26);
		unlink_(st, i % 2 ? "/mnt/x.log" : "y.log");
		creat_(st, &b, 3);
		write_(st, &b, 0, 16);
		call(st, pid, "follower", NR_lseek, 4, &b, 26, 26);
		read_(st, pid, &b, 26, 0);
		read_(st, pid, &b, 26, 0);
		if (i % 3 == 0)
			exit_(st, pid);
		call(st, WRITER, "logwriter", NR_ftruncate, 3, &b, -1, 0);
	}
	assert_true(heap_in_use() <= before);
	stop_analyzer(st);
	/* every rotation lost 16 bytes; exits, evictions and new generations reported them */
	assert_int_equal(nfound, 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stale_offset_reported_with_the_lost_bytes),
		cmocka_unit_test(stale_offset_below_new_data_loses_what_is_below),
		cmocka_unit_test(follower_that_starts_new_file_at_zero_is_fine),
		cmocka_unit_test(min_lost_at_its_edge),
		cmocka_unit_test(first_read_elsewhere_needs_any_offset),
		cmocka_unit_test(restarted_follower_at_the_old_offset),
		cmocka_unit_test(late_record_of_the_earlier_file_is_ignored),
		cmocka_unit_test(read_past_end_after_truncation),
		cmocka_unit_test(reader_that_starts_again_at_zero_lost_nothing),
		cmocka_unit_test(follower_at_the_end_is_fine),
		cmocka_unit_test(bad_options_are_refused),
		cmocka_unit_test(memory_stays_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
