// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loss reasons: each counter has its own key in a trace file's metadata and
 * comes back from it; files written before a key existed still read; modules
 * get every counter; the writer thread's drops are blamed on what held it back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/loss.h"
#include "engine/tracefile.h"

/* the value of key in "key=value\n" lines */
static int get(const void *ud, const char *key, char *buf, size_t len)
{
	const char *meta = ud;
	size_t klen = strlen(key);

	for (const char *p = meta; *p; p = strchr(p, '\n') + 1) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + klen + 1, "\n"), p + klen + 1);
			return 0;
		}
		if (!strchr(p, '\n'))
			break;
	}
	return -1;
}

static void every_counter_round_trips_through_the_metadata(void **unused)
{
	struct loss l = { .writer_cause = DIO_WRITER_DISK }, back = { 0 };
	char meta[2048];

	for (int i = 0; i < LOSS_MAX; i++)
		l.n[i] = 100 + i;
	assert_true(loss__meta(&l, meta, sizeof(meta)) < (int)sizeof(meta));
	loss__add_meta(&back, get, meta);
	for (int i = 0; i < LOSS_MAX; i++) {
		uint64_t want = l.n[i];

		if (i == LOSS_MALFORMED)	/* written as part of lost_other */
			want = 0;
		else if (i >= LOSS_PATHS_EVICTED && i != LOSS_PART_PATHS &&
			 i != LOSS_KPATHS_EVICTED)
			want = 0;	/* the host's own: a replay has its own */
		else if (i == DIO_LOST_OTHER)
			want = l.n[i] + l.n[LOSS_MALFORMED];
		else if (i == DIO_CNT_TAG_NEW)
			want = 0;	/* kept as what it means: kernel_paths_evicted */
		else if (i > DIO_LOST_BLKDEVS && i < DIO_CNT_MAX)
			want = 0;	/* no counter there */
		if (back.n[i] != want)
			fail_msg("counter %d: %llu back, %llu written", i,
				 (unsigned long long)back.n[i], (unsigned long long)want);
	}
	assert_int_equal(back.writer_cause, DIO_WRITER_DISK);
	assert_non_null(strstr(meta, "lost_block=106\n"));
	assert_non_null(strstr(meta, "lost_block_unseen=107\n"));
	assert_non_null(strstr(meta, "dropped_records=116\n"));
	assert_non_null(strstr(meta, "dropped_cause=disk\n"));
	/* what a --max-size part did not repeat is the recording's */
	assert_non_null(strstr(meta, "part_paths_evicted=119\n"));
	assert_null(strstr(meta, "ofd_procs"));
	assert_non_null(strstr(meta, "lost_pathtab=102\n"));
	assert_non_null(strstr(meta, "lost_blkdevs=113\n"));
	assert_non_null(strstr(meta, "kernel_paths_evicted=123\n"));
	assert_null(strstr(meta, "=112\n"));
}

/* a recording made before the reasons had keys of their own */
static void an_old_file_reads_with_its_drops_unexplained(void **unused)
{
	const char *old = "events=50\nlost_ringbuf=1\nlost_inflight=2\nlost_pathtab=3\n"
			  "lost_iouring=4\nlost_other=5\ndropped_records=6\nparts=1\n";
	struct loss l = { 0 };
	struct dio_stats st = { 0 };

	loss__add_meta(&l, get, old);
	loss__stats(&l, &st);
	assert_int_equal(st.lost_ringbuf, 1);
	assert_int_equal(st.lost_inflight, 2);
	assert_int_equal(st.lost_pathtab, 3);
	assert_int_equal(st.lost_iouring, 4);
	assert_int_equal(st.lost_other, 5);
	/* the writer's drops are no longer "other": they have their own field */
	assert_int_equal(st.lost_writer, 6);
	assert_int_equal(st.writer_cause, DIO_WRITER_UNKNOWN);
	assert_int_equal(st.lost_block + st.lost_block_unseen + st.lost_mappings, 0);
	assert_int_equal(st.lost_blkdevs + st.kernel_paths_evicted, 0);
	assert_int_equal(loss__records(&l), 1 + 2 + 4 + 5 + 6);
}

static void malformed_records_count_as_other(void **unused)
{
	struct loss l = { 0 };
	struct dio_stats st = { 0 };

	l.n[DIO_LOST_OTHER] = 2;
	l.n[LOSS_MALFORMED] = 3;
	loss__stats(&l, &st);
	assert_int_equal(st.lost_other, 5);
	assert_int_equal(loss__records(&l), 5);
}

static void cause_names_are_stable(void **unused)
{
	assert_string_equal(loss__cause_name(DIO_WRITER_UNKNOWN), "unknown");
	assert_string_equal(loss__cause_name(DIO_WRITER_CPU), "cpu");
	assert_string_equal(loss__cause_name(DIO_WRITER_CPU_WAIT), "cpu-wait");
	assert_string_equal(loss__cause_name(DIO_WRITER_DISK), "disk");
	assert_string_equal(loss__cause_name(1000), "unknown");
}

/* a too small buffer: snprintf semantics, never past its end */
static void meta_into_a_small_buffer_says_how_much_it_needs(void **unused)
{
	struct loss l = { 0 };
	char big[2048], small[16];
	int n = loss__meta(&l, big, sizeof(big));

	memset(small, 'x', sizeof(small));
	assert_int_equal(loss__meta(&l, small, 10), n);
	assert_int_equal(small[9], 0);
	assert_int_equal(small[10], 'x');
}

/* ms of a busy writer: whichever of its CPU, a CPU's wait and the disk is largest */
static void the_writer_is_blamed_on_what_held_it_back(void **unused)
{
	static const struct {
		const char *name;
		struct tf_writer_time t;
		uint32_t cause;
	} cases[] = {
		{ "never busy", { 0, 0, 0, 0 }, DIO_WRITER_UNKNOWN },
		{ "compressing all the time", { 1000, 900, 50, 10 }, DIO_WRITER_CPU },
		{ "copying into the page cache", { 1000, 100, 800, 0 }, DIO_WRITER_CPU },
		{ "behind other threads", { 1000, 300, 10, 600 }, DIO_WRITER_CPU_WAIT },
		{ "blocked in write", { 1000, 100, 50, 50 }, DIO_WRITER_DISK },
		{ "no schedstat, blocked", { 1000, 200, 100, 0 }, DIO_WRITER_DISK },
		{ "a tie of CPU and disk is the CPU", { 1000, 250, 250, 0 }, DIO_WRITER_CPU },
		{ "clocks that disagree", { 100, 300, 0, 300 }, DIO_WRITER_CPU },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t got = tf_writer_cause(&cases[i].t);

		if (got != cases[i].cause)
			fail_msg("%s: cause %u, want %u", cases[i].name, got, cases[i].cause);
	}
}

struct listed {
	const char *key;
	uint64_t n;
};

static void list_row(void *ud, const char *key, const char *what, uint64_t n)
{
	struct listed *l = ud;

	assert_non_null(what);
	for (; l->key; l++)
		if (!strcmp(l->key, key))
			l->n = n;
}

/* loss__each lists keys[i] with i + 1 */
static void assert_listed_in_order(const struct loss *l, struct listed *keys)
{
	loss__each(l, list_row, keys);
	for (int i = 0; keys[i].key; i++)
		if (keys[i].n != (uint64_t)i + 1)
			fail_msg("%s: %llu listed, want %d", keys[i].key,
				 (unsigned long long)keys[i].n, i + 1);
}

/*
 * What the host's own tables forgot or swept is listed with the losses
 * (--stats) under its own key, but no record was lost.
 */
static void host_bounds_are_listed_but_lose_no_record(void **unused)
{
	struct loss l = { 0 };
	struct listed keys[] = { { "paths_evicted", 0 }, { "part_paths_evicted", 0 },
				 { "ofd_procs_evicted", 0 }, { "ofd_procs_swept", 0 },
				 { "top_rows_folded", 0 }, { NULL, 0 } };

	l.n[LOSS_PATHS_EVICTED] = 1;
	l.n[LOSS_PART_PATHS] = 2;
	l.n[LOSS_OFD_EVICTED] = 3;
	l.n[LOSS_OFD_SWEPT] = 4;
	l.n[LOSS_TOP_FOLDED] = 5;
	assert_listed_in_order(&l, keys);
	assert_int_equal(loss__records(&l), 0);
	assert_int_equal(loss__dropped(&l), 0);
}

/*
 * The kernel's tag table is an LRU: it forgets a tag for each one it takes
 * in once full, so at least the tags taken in past its size; never below 0.
 */
static void kernel_paths_evicted_are_the_tags_taken_in_past_the_table(void **unused)
{
	static const struct {
		uint64_t taken, capacity, want;
	} cases[] = {
		{ 0, 65536, 0 },
		{ 1000, 65536, 0 },
		{ 65536, 65536, 0 },
		{ 65537, 65536, 1 },
		{ 20070, 1024, 19046 },
		{ UINT64_MAX, 1024, UINT64_MAX - 1024 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = loss__kernel_paths_evicted(cases[i].taken, cases[i].capacity);

		if (got != cases[i].want)
			fail_msg("%llu taken in, %llu entries: %llu evicted, want %llu",
				 (unsigned long long)cases[i].taken,
				 (unsigned long long)cases[i].capacity, (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

/*
 * What the kernel counted that is no record lost is listed under its key,
 * reaches modules, and loses no record: paths not sent (their calls are
 * there), paths of files on devices past the device table, paths sent again.
 */
static void kernel_notes_are_listed_but_lose_no_record(void **unused)
{
	struct loss l = { 0 };
	struct dio_stats st = { 0 };
	struct listed keys[] = { { "lost_pathtab", 0 }, { "lost_blkdevs", 0 },
				 { "kernel_paths_evicted", 0 }, { "path_truncated", 0 },
				 { NULL, 0 } };

	l.n[DIO_LOST_PATHTAB] = 1;
	l.n[DIO_LOST_BLKDEVS] = 2;
	l.n[LOSS_KPATHS_EVICTED] = 3;
	l.n[DIO_CNT_PATH_TRUNC] = 4;
	l.n[DIO_CNT_TAG_NEW] = 5;
	assert_listed_in_order(&l, keys);
	loss__stats(&l, &st);
	assert_int_equal(st.lost_pathtab, 1);
	assert_int_equal(st.lost_blkdevs, 2);
	assert_int_equal(st.kernel_paths_evicted, 3);
	assert_int_equal(loss__records(&l), 0);
	assert_int_equal(loss__dropped(&l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_counter_round_trips_through_the_metadata),
		cmocka_unit_test(an_old_file_reads_with_its_drops_unexplained),
		cmocka_unit_test(malformed_records_count_as_other),
		cmocka_unit_test(cause_names_are_stable),
		cmocka_unit_test(meta_into_a_small_buffer_says_how_much_it_needs),
		cmocka_unit_test(the_writer_is_blamed_on_what_held_it_back),
		cmocka_unit_test(host_bounds_are_listed_but_lose_no_record),
		cmocka_unit_test(kernel_paths_evicted_are_the_tags_taken_in_past_the_table),
		cmocka_unit_test(kernel_notes_are_listed_but_lose_no_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
