// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace files: round trip, and every kind of damage a reader must survive
 * (wrong magic, future version, truncated header, empty file, directory,
 * unreadable file, flipped bits in a block, a file cut short).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <dio/event.h>
#include "engine/tracefile.h"
#include "engine/weight.h"

#define NREC 60000	/* enough for several 1 MiB blocks */

static char dir[] = "/tmp/dio-test-tf.XXXXXX";
static char path[64];

/* record i: a syscall record with fields derived from i, or a path record with a tail */
static size_t make_rec(uint32_t i, uint8_t *buf)
{
	if (i % 7 == 3) {
		struct dio_ev_path *p = (void *)buf;
		int n = snprintf((char *)buf + sizeof(*p), 64, "/data/file-%u", i) + 1;

		memset(p, 0, sizeof(*p));
		p->hdr.type = DIO_EV_PATH;
		p->hdr.size = sizeof(*p) + n;
		p->hdr.ts = 1000 + i;
		p->tag.ino = i;
		p->len = n;
		return p->hdr.size;
	} else {
		struct dio_ev_syscall *e = (void *)buf;

		memset(e, 0, sizeof(*e));
		e->hdr.type = DIO_EV_SYSCALL;
		e->hdr.size = sizeof(*e);
		e->hdr.ts = 1000 + i;
		e->pid = 42;
		e->tid = 42 + i % 3;
		e->ret = 4096;
		e->offset = (int64_t)i * 4096;
		e->args[0] = i;
		return sizeof(*e);
	}
}

static void write_trace(uint32_t n)
{
	uint8_t buf[256];
	struct tf_writer *w = tf_writer__open(path, 6, "host=test\nkernel=6.18\n", 0);

	assert_non_null(w);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(tf_writer__add(w, buf, make_rec(i, buf)), 0);
	assert_int_equal(tf_writer__close(w, NULL), 0);
}

/* read the whole file, checking that records come back in order and intact */
static void read_all(struct tf_stats *st, uint32_t *first_seen)
{
	char err[256] = "";
	struct tf_reader *r = tf_reader__open(path, err, sizeof(err));
	const void *rec;
	size_t size;
	uint8_t want[256];
	uint32_t expect = 0;
	int first = 1, ret;

	assert_non_null(r);
	while ((ret = tf_reader__next(r, &rec, &size)) == 1) {
		const struct dio_ev_hdr *h = rec;
		uint32_t i = h->ts - 1000;

		if (first && first_seen)
			*first_seen = i;
		/* damage may drop whole blocks, never reorder or alter records */
		assert_true(first || i >= expect);
		assert_int_equal(size, make_rec(i, want));
		assert_memory_equal(rec, want, size);
		expect = i + 1;
		first = 0;
	}
	assert_int_equal(ret, 0);
	tf_reader__stats(r, st);
	tf_reader__close(r);
}

static void test_round_trip_keeps_every_record_and_the_metadata(void **state)
{
	struct tf_stats st;
	char err[128], v[64];
	struct tf_reader *r;

	(void)state;
	write_trace(NREC);
	read_all(&st, NULL);
	assert_int_equal(st.records, NREC);
	assert_true(st.blocks > 1);
	assert_int_equal(st.bad_blocks, 0);
	assert_int_equal(st.bad_records, 0);
	assert_int_equal(st.skipped_bytes, 0);
	assert_int_equal(st.truncated, 0);
	assert_int_equal(st.indexed, 1);

	r = tf_reader__open(path, err, sizeof(err));
	assert_non_null(r);
	assert_string_equal(tf_reader__meta(r), "host=test\nkernel=6.18\n");
	assert_int_equal(tf_reader__meta_get(r, "kernel", v, sizeof(v)), 0);
	assert_string_equal(v, "6.18");
	assert_int_equal(tf_reader__meta_get(r, "kern", v, sizeof(v)), -ENOENT);
	tf_reader__close(r);
}

static void test_empty_trace_has_no_records_and_is_complete(void **state)
{
	struct tf_stats st;

	(void)state;
	write_trace(0);
	read_all(&st, NULL);
	assert_int_equal(st.records, 0);
	assert_int_equal(st.truncated, 0);
	assert_int_equal(st.indexed, 1);
}

static void test_writer_refuses_a_record_shorter_than_its_header(void **state)
{
	struct tf_writer *w = tf_writer__open(path, 1, NULL, 0);
	uint8_t b[8] = { 0 };

	(void)state;
	assert_non_null(w);
	assert_int_equal(tf_writer__add(w, b, sizeof(b)), -EINVAL);
	assert_int_equal(tf_writer__close(w, NULL), 0);
}

static void test_writer_open_fails_with_errno_in_a_missing_directory(void **state)
{
	(void)state;
	errno = 0;
	assert_null(tf_writer__open("/nonexistent-dir/x.dio", 6, NULL, 0));
	assert_int_equal(errno, ENOENT);
	assert_null(tf_writer__open(path, 10, NULL, 0));
	assert_int_equal(errno, EINVAL);
}

static void *drain(void *arg)
{
	char buf[65536];
	int fd = *(int *)arg;

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/*
 * dio record --max-size cuts a file when this says it is full: blocks
 * queued for a writer thread that is behind (here: stuck on a pipe nobody
 * reads) must count, or a burst of records is never cut.
 */
static void test_writer_size_counts_the_blocks_not_yet_written(void **state)
{
	char fifo[80];
	uint8_t buf[256];
	uint64_t x = 0x9e3779b97f4a7c15ULL, head;
	struct tf_writer *w;
	pthread_t th;
	int rd;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	/* level 0, records of random fields: a block stays larger than the pipe's buffer */
	w = tf_writer__open(fifo, 0, "host=test\n", 0);
	assert_non_null(w);
	head = tf_writer__bytes(w);
	for (uint32_t i = 0; i < 3 * (1u << 20) / sizeof(struct dio_ev_syscall); i++) {
		struct dio_ev_syscall *e = (void *)buf;

		make_rec(1, buf);
		for (int a = 0; a < 6; a++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			e->args[a] = x;
		}
		e->hdr.ts = 1000 + i;
		assert_int_equal(tf_writer__add(w, buf, sizeof(*e)), 0);
	}
	/* two blocks of 1 MiB handed over, none written whole */
	assert_true(tf_writer__bytes(w) >= head + (2u << 20));
	assert_int_equal(fcntl(rd, F_SETFL, 0), 0);
	assert_int_equal(pthread_create(&th, NULL, drain, &rd), 0);
	assert_int_equal(tf_writer__close(w, NULL), 0);
	pthread_join(th, NULL);
	close(rd);
	unlink(fifo);
}

static void test_final_metadata_is_appended_after_the_records(void **state)
{
	uint8_t buf[256];
	struct tf_writer *w = tf_writer__open(path, 6, "host=test\n", 0);
	struct tf_stats st;
	char err[128], v[32];
	struct tf_reader *r;
	const void *rec;
	size_t n;

	(void)state;
	assert_non_null(w);
	assert_int_equal(tf_writer__add(w, buf, make_rec(0, buf)), 0);
	assert_int_equal(tf_writer__close(w, "lost_ringbuf=7\n"), 0);
	r = tf_reader__open(path, err, sizeof(err));
	assert_non_null(r);
	assert_string_equal(tf_reader__meta(r), "host=test\n");
	while (tf_reader__next(r, &rec, &n) == 1)
		;
	assert_string_equal(tf_reader__meta(r), "host=test\nlost_ringbuf=7\n");
	assert_int_equal(tf_reader__meta_get(r, "lost_ringbuf", v, sizeof(v)), 0);
	assert_string_equal(v, "7");
	tf_reader__stats(r, &st);
	assert_int_equal(st.records, 1);
	assert_int_equal(st.indexed, 1);
	tf_reader__close(r);
}

/* dropping mode: every record is either in the file or counted, and the file is whole */
static uint32_t count_paths(void)
{
	char err[256] = "";
	struct tf_reader *r = tf_reader__open(path, err, sizeof(err));
	const void *rec;
	size_t size;
	uint32_t n = 0;

	assert_non_null(r);
	while (tf_reader__next(r, &rec, &size) == 1)
		n += ((const struct dio_ev_hdr *)rec)->type == DIO_EV_PATH;
	tf_reader__close(r);
	return n;
}

struct copy_out {
	int from;
	FILE *to;
};

static void *copy_out(void *arg)
{
	struct copy_out *c = arg;
	char buf[65536];
	ssize_t n;

	while ((n = read(c->from, buf, sizeof(buf))) > 0)
		assert_int_equal(fwrite(buf, 1, (size_t)n, c->to), (size_t)n);
	return NULL;
}

static void test_drop_mode_counts_every_record_it_did_not_write(void **state)
{
	uint8_t buf[256];
	char fifo[80];
	struct copy_out c;
	struct tf_writer *w;
	struct tf_stats st;
	uint64_t dropped, added = 0, paths = 0;
	pthread_t th;
	uint32_t i;

	(void)state;
	/*
	 * A writer stuck on a pipe nobody reads yet: behind, however fast this
	 * machine. Calls only: a path record would wait for it.
	 */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	c.from = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(c.from >= 0);
	w = tf_writer__open(fifo, 9, NULL, TF_W_DROP);
	assert_non_null(w);
	for (i = 0; !tf_writer__dropped(w) && i < 400 * NREC; i++, added++) {
		if (i % 7 == 3)
			i++;
		assert_int_equal(tf_writer__add(w, buf, make_rec(i, buf)), 0);
	}
	c.to = fopen(path, "w");
	assert_non_null(c.to);
	assert_int_equal(fcntl(c.from, F_SETFL, 0), 0);
	assert_int_equal(pthread_create(&th, NULL, copy_out, &c), 0);
	/* then every kind, while it catches up */
	for (uint32_t end = i + 4 * NREC; i < end; i++, added++) {
		paths += i % 7 == 3;
		assert_int_equal(tf_writer__add(w, buf, make_rec(i, buf)), 0);
	}
	dropped = tf_writer__dropped(w);
	assert_int_equal(tf_writer__close(w, NULL), 0);
	pthread_join(th, NULL);
	close(c.from);
	assert_int_equal(fclose(c.to), 0);
	unlink(fifo);
	read_all(&st, NULL);
	assert_int_equal(st.records + dropped, added);
	assert_int_equal(st.bad_blocks, 0);
	assert_int_equal(st.truncated, 0);
	/* records were dropped, but no path record: later records need those */
	assert_true(dropped > 0);
	assert_int_equal(count_paths(), paths);
}

static long file_size(void)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return sb.st_size;
}

static void test_cut_short_file_yields_every_complete_block(void **state)
{
	struct tf_stats full, st;
	long size;

	(void)state;
	write_trace(NREC);
	read_all(&full, NULL);
	size = file_size();
	/* cut in the middle: the blocks before the cut come back, the rest is reported */
	assert_int_equal(truncate(path, size / 2), 0);
	read_all(&st, NULL);
	assert_true(st.records > 0 && st.records < full.records);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.indexed, 0);
	assert_true(st.skipped_bytes > 0);
	assert_int_equal(st.bad_blocks, 0);
	/* cut inside the trailer: every record is still there */
	write_trace(NREC);
	assert_int_equal(truncate(path, file_size() - 5), 0);
	read_all(&st, NULL);
	assert_int_equal(st.records, NREC);
	assert_int_equal(st.truncated, 1);
}

static void flip(long off)
{
	int fd = open(path, O_RDWR);
	uint8_t c;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, off), 1);
	c ^= 0x10;
	assert_int_equal(pwrite(fd, &c, 1, off), 1);
	close(fd);
}

static void test_flipped_bits_cost_only_the_blocks_they_hit(void **state)
{
	struct tf_stats full, st;
	uint32_t first;
	long size;

	(void)state;
	write_trace(NREC);
	read_all(&full, NULL);
	size = file_size();
	/* inside a payload: that block fails its CRC */
	flip(size / 2);
	read_all(&st, NULL);
	assert_int_equal(st.bad_blocks, 1);
	assert_true(st.records < full.records);
	/* no more lost than one block can hold: 1 MiB of the smallest records */
	assert_true(full.records - st.records <= (1u << 20) / sizeof(struct dio_ev_path) + 1);
	assert_int_equal(st.truncated, 0);

	/* in the first record block's header (after file header and meta block) */
	write_trace(NREC);
	{
		char err[128];
		struct tf_reader *r = tf_reader__open(path, err, sizeof(err));
		const void *rec;
		size_t sz;

		assert_non_null(r);
		assert_int_equal(tf_reader__next(r, &rec, &sz), 1);
		tf_reader__close(r);
	}
	/* the meta block is file header (16) + 48 + a few bytes; its successor's header follows */
	{
		int fd = open(path, O_RDONLY);
		struct tf_block_hdr h;

		assert_true(fd >= 0);
		assert_int_equal(pread(fd, &h, sizeof(h), sizeof(struct tf_file_hdr)), sizeof(h));
		close(fd);
		flip(sizeof(struct tf_file_hdr) + sizeof(h) + h.comp_len + 12);
	}
	read_all(&st, &first);
	assert_true(first > 0);		/* the first block is gone ... */
	assert_int_equal(st.bad_blocks, 1);
	assert_true(st.records > 0);	/* ... the reader found the next one */
	assert_true(st.skipped_bytes > 0);
}

static void expect_open_error(const char *p, const char *want)
{
	char err[256] = "";

	assert_null(tf_reader__open(p, err, sizeof(err)));
	if (!strstr(err, want))
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
	assert_null(strchr(err, '\n'));
}

static void write_bytes(const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

static void test_bad_files_give_one_line_errors(void **state)
{
	struct tf_file_hdr fh = { .magic = TF_MAGIC, .version = TF_VERSION + 1,
				  .hdr_size = sizeof(fh) };

	(void)state;
	write_bytes("", 0);
	expect_open_error(path, "empty file");
	write_bytes("DIOTR", 5);
	expect_open_error(path, "truncated header");
	write_bytes("GARBAGE!GARBAGE!GARBAGE!", 24);
	expect_open_error(path, "not a dio trace file (wrong magic)");
	write_bytes(&fh, sizeof(fh));
	expect_open_error(path, "trace format version 3, this dio reads versions 1 to 2: upgrade dio");
	expect_open_error(dir, "is a directory");
	expect_open_error("/nonexistent-dir/x.dio", "No such file or directory");
	if (geteuid() != 0) {
		write_trace(1);
		chmod(path, 0);
		expect_open_error(path, "Permission denied");
	}
}

static void test_garbage_after_the_header_yields_nothing_and_ends(void **state)
{
	uint8_t buf[sizeof(struct tf_file_hdr) + 4096];
	struct tf_file_hdr fh = { .magic = TF_MAGIC, .version = TF_VERSION,
				  .hdr_size = sizeof(fh) };
	struct tf_stats st;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	memcpy(buf, &fh, sizeof(fh));
	write_bytes(buf, sizeof(buf));
	read_all(&st, NULL);
	assert_int_equal(st.records, 0);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.skipped_bytes, 4096);
}

/* a trace whose only path records are records 5, 20005 and 40005 */
static size_t make_sparse_rec(uint32_t i, uint8_t *buf)
{
	size_t n = make_rec(i % 20000 == 5 ? 3 : 1, buf);

	((struct dio_ev_hdr *)buf)->ts = 1000 + i;
	return n;
}

/* read with a window of [lo, hi] (record numbers); the records seen into seen[] */
static void read_window(uint32_t lo, uint32_t hi, uint8_t *seen, struct tf_stats *st)
{
	char err[256] = "";
	struct tf_reader *r = tf_reader__open(path, err, sizeof(err));
	const void *rec;
	size_t size;
	int ret;

	assert_non_null(r);
	assert_int_equal(tf_reader__first_ts(r), 1000);
	tf_reader__set_window(r, 1000 + lo, 1000 + hi);
	memset(seen, 0, NREC);
	while ((ret = tf_reader__next(r, &rec, &size)) == 1) {
		uint32_t i = ((const struct dio_ev_hdr *)rec)->ts - 1000;

		assert_true(i < NREC);
		seen[i] = 1;
	}
	assert_int_equal(ret, 0);
	tf_reader__stats(r, st);
	tf_reader__close(r);
}

static void check_window(const uint8_t *seen, const struct tf_stats *st)
{
	uint32_t n = 0;

	/* every record inside, and the path records before and after it */
	for (uint32_t i = 30000; i <= 35000; i++)
		assert_true(seen[i]);
	assert_true(seen[5] && seen[20005] && seen[40005]);
	/* the blocks before 20005's and after 40005's were skipped unread */
	assert_false(seen[0] || seen[NREC - 1] || seen[15000] || seen[45000]);
	for (uint32_t i = 0; i < NREC; i++)
		n += seen[i];
	assert_int_equal(st->records, n);
	assert_int_equal(st->records + st->window_records, NREC);
	assert_true(st->window_blocks >= 3);
	assert_int_equal(st->bad_blocks, 0);
}

static void test_window_skips_blocks_but_keeps_their_path_records(void **state)
{
	static uint8_t seen[NREC];
	struct tf_stats st;
	uint8_t buf[256];
	struct tf_writer *w = tf_writer__open(path, 1, "", 0);

	(void)state;
	assert_non_null(w);
	for (uint32_t i = 0; i < NREC; i++)
		assert_int_equal(tf_writer__add(w, buf, make_sparse_rec(i, buf)), 0);
	assert_int_equal(tf_writer__close(w, "events=60000\n"), 0);
	/* through the index */
	read_window(30000, 35000, seen, &st);
	check_window(seen, &st);
	assert_int_equal(st.indexed, 1);
	assert_int_equal(st.truncated, 0);
	/* a window past the end: only path records, and the end is still reached */
	read_window(NREC + 10, NREC + 20, seen, &st);
	assert_int_equal(st.records, 3);
	assert_int_equal(st.indexed, 1);
	/* without the index (trailer cut off): the block headers say the same */
	assert_int_equal(truncate(path, file_size() - 5), 0);
	read_window(30000, 35000, seen, &st);
	check_window(seen, &st);
	assert_int_equal(st.indexed, 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.dio", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

struct pace_step {
	unsigned int queued;
	int disk;
	int want;	/* the level tf_pace__next gives */
};

static void run_pace(struct tf_pace *p, const struct pace_step *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int got = tf_pace__next(p, s[i].queued, s[i].disk);

		if (got != s[i].want)
			fail_msg("step %zu (queued %u, disk %d): level %d, want %d", i, s[i].queued,
				 s[i].disk, got, s[i].want);
	}
}

static void test_pace_keeps_the_level_while_the_writer_keeps_up(void **state)
{
	static const struct pace_step s[] = {
		{ 1, 0, 3 }, { 2, 0, 3 }, { 3, 0, 3 }, { 1, 0, 3 }, { 3, 1, 3 }, { 1, 0, 3 },
		{ TF_PACE_HIGH - 1, 0, 3 }, { 1, 0, 3 },
	};
	struct tf_pace p;

	(void)state;
	tf_pace__init(&p, 3);
	run_pace(&p, s, sizeof(s) / sizeof(s[0]));
	assert_int_equal(p.downs, 0);
	assert_int_equal(p.ups, 0);
	assert_int_equal(p.lowest, 3);
}

static void test_pace_steps_down_one_level_a_block_to_packing_only(void **state)
{
	static const struct pace_step s[] = {
		{ TF_PACE_HIGH, 0, 2 }, { 9, 0, 1 }, { 20, 0, 0 }, { 32, 0, 0 }, { 32, 0, 0 },
		{ 3, 0, 0 },
	};
	struct tf_pace p;

	(void)state;
	tf_pace__init(&p, 3);
	run_pace(&p, s, sizeof(s) / sizeof(s[0]));
	assert_int_equal(p.downs, 3);
	assert_int_equal(p.lowest, 0);
}

static void test_pace_held_back_by_the_disk_does_not_step_down(void **state)
{
	static const struct pace_step s[] = {
		{ 8, 1, 1 }, { 30, 1, 1 }, { 30, 0, 0 }, { 30, 1, 0 },
	};
	struct tf_pace p;

	(void)state;
	tf_pace__init(&p, 1);
	run_pace(&p, s, sizeof(s) / sizeof(s[0]));
	assert_int_equal(p.downs, 1);
}

/* n blocks, each the last of its queue */
static int calm_blocks(struct tf_pace *p, unsigned int n)
{
	int level = -1;

	for (unsigned int i = 0; i < n; i++)
		level = tf_pace__next(p, 1, 0);
	return level;
}

static void test_pace_comes_back_up_after_emptying_its_queue_never_above_the_level(void **state)
{
	struct tf_pace p;

	(void)state;
	tf_pace__init(&p, 2);
	assert_int_equal(tf_pace__next(&p, 10, 0), 1);
	assert_int_equal(tf_pace__next(&p, 10, 0), 0);
	assert_int_equal(calm_blocks(&p, TF_PACE_CALM - 1), 0);
	/* falling behind again starts the count afresh */
	assert_int_equal(tf_pace__next(&p, TF_PACE_HIGH, 0), 0);
	assert_int_equal(calm_blocks(&p, TF_PACE_CALM - 1), 0);
	/* a short queue, emptied again, does not */
	assert_int_equal(tf_pace__next(&p, TF_PACE_HIGH - 1, 0), 0);
	assert_int_equal(tf_pace__next(&p, 2, 0), 0);
	assert_int_equal(calm_blocks(&p, 1), 1);
	assert_int_equal(calm_blocks(&p, TF_PACE_CALM), 2);
	assert_int_equal(calm_blocks(&p, 10 * TF_PACE_CALM), 2);
	assert_int_equal(p.downs, 2);
	assert_int_equal(p.ups, 2);
	assert_int_equal(p.lowest, 0);
	assert_int_equal(p.need, TF_PACE_CALM);
}

static void test_pace_behind_again_after_a_step_up_waits_twice_as_long(void **state)
{
	struct tf_pace p;

	(void)state;
	tf_pace__init(&p, 1);
	assert_int_equal(tf_pace__next(&p, TF_PACE_HIGH, 0), 0);
	assert_int_equal(calm_blocks(&p, TF_PACE_CALM), 1);
	/* level 1 was too much: back down, and the next try waits 2 runs */
	assert_int_equal(tf_pace__next(&p, TF_PACE_HIGH, 0), 0);
	assert_int_equal(calm_blocks(&p, 2 * TF_PACE_CALM - 1), 0);
	assert_int_equal(calm_blocks(&p, 1), 1);
	/* behind long after the step up: the wait stays as it is */
	assert_int_equal(calm_blocks(&p, 2 * TF_PACE_CALM + 1), 1);
	assert_int_equal(tf_pace__next(&p, TF_PACE_HIGH, 0), 0);
	assert_int_equal(calm_blocks(&p, 2 * TF_PACE_CALM - 1), 0);
	assert_int_equal(calm_blocks(&p, 1), 1);
	assert_int_equal(p.need, 2 * TF_PACE_CALM);
}

static void test_pace_wait_for_a_step_up_is_bounded(void **state)
{
	struct tf_pace p;

	(void)state;
	tf_pace__init(&p, 1);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(tf_pace__next(&p, TF_PACE_HIGH, 0), 0);
		assert_int_equal(calm_blocks(&p, p.need), 1);
	}
	assert_int_equal(p.need, TF_PACE_CALM_MAX);
}

/* the records of the file, which need not be make_rec's */
static uint64_t count_records(struct tf_stats *st)
{
	char err[256] = "";
	struct tf_reader *r = tf_reader__open(path, err, sizeof(err));
	const void *rec;
	size_t size;
	uint64_t n = 0;
	int ret;

	assert_non_null(r);
	while ((ret = tf_reader__next(r, &rec, &size)) == 1)
		n++;
	assert_int_equal(ret, 0);
	tf_reader__stats(r, st);
	tf_reader__close(r);
	return n;
}

/* a call record whose arguments are random: packing and zstd cannot shrink them much */
static size_t random_rec(uint32_t i, uint8_t *buf, uint64_t *x)
{
	struct dio_ev_syscall *e = (void *)buf;

	make_rec(1, buf);
	for (int a = 0; a < 6; a++) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		e->args[a] = *x;
	}
	e->hdr.ts = 1000 + i;
	return sizeof(*e);
}

/*
 * path in tmpfs, where a write never waits for a disk: a writer held back by
 * the disk does not step down, and on a busy machine /tmp's disk may hold it
 */
static void path_in_tmpfs(int on)
{
	static char saved[sizeof(path)];

	if (on) {
		memcpy(saved, path, sizeof(path));
		snprintf(path, sizeof(path), "/dev/shm/dio-test-pace.%d", (int)getpid());
	} else {
		unlink(path);
		memcpy(path, saved, sizeof(path));
	}
}

/*
 * The writer itself: a caller that copies records faster than zstd 9 can
 * take them keeps blocks queued, and the writer writes them at lower levels;
 * blocks handed over one at a time then bring it back to the level asked
 * for. Every record reads back, whatever its block's level.
 */
static void test_writer_lowers_its_level_when_behind_and_restores_it(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL, lowered, dropped;
	struct tf_writer *w;
	uint8_t buf[256];
	struct tf_writer_time t;
	struct tf_stats st;
	uint32_t i, n;

	(void)state;
	path_in_tmpfs(1);
	/*
	 * The caller as heavy as the writer, so that on a busy machine the writer
	 * does not keep up by starving it (not allowed without CAP_SYS_NICE).
	 */
	weight__raise();
	w = tf_writer__open(path, 9, NULL, TF_W_DROP);
	assert_non_null(w);
	/* more than the writer holds: the queue stays long, records may be dropped */
	for (i = 0; i < 48 * (1u << 20) / sizeof(struct dio_ev_syscall); i++)
		assert_int_equal(tf_writer__add(w, buf, random_rec(i, buf, &x)), 0);
	assert_int_equal(tf_writer__flush(w), 0);
	tf_writer__time(w, &t);
	/* how far down depends on this machine's zstd against its memcpy (the steps: above) */
	assert_int_equal(t.level, 9);
	assert_true(t.depth >= 1 && t.depth <= 9);
	assert_true(t.downs >= (uint64_t)t.depth);
	assert_true(t.lowered > 0);
	lowered = t.lowered;
	/* one block at a time, until it is back at 9 (level 9 - downs + ups) */
	for (n = 0; t.ups < t.downs && n < 9 * TF_PACE_CALM_MAX; n++, i++) {
		assert_int_equal(tf_writer__add(w, buf, random_rec(i, buf, &x)), 0);
		assert_int_equal(tf_writer__flush(w), 0);
		tf_writer__time(w, &t);
	}
	assert_int_equal(t.ups, t.downs);
	/* the first of those blocks were still below level 9 */
	assert_true(t.lowered > lowered);
	dropped = tf_writer__dropped(w);
	assert_int_equal(tf_writer__close(w, NULL), 0);
	assert_int_equal(count_records(&st) + dropped, i);
	assert_int_equal(st.bad_blocks, 0);
	path_in_tmpfs(0);
}

/* a caller that waits for the writer loses nothing by it: every block at the level asked for */
static void test_writer_that_is_waited_for_keeps_its_level(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	struct tf_writer *w;
	uint8_t buf[256];
	struct tf_writer_time t;
	struct tf_stats st;
	uint32_t i;

	(void)state;
	path_in_tmpfs(1);
	w = tf_writer__open(path, 9, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < 48 * (1u << 20) / sizeof(struct dio_ev_syscall); i++)
		assert_int_equal(tf_writer__add(w, buf, random_rec(i, buf, &x)), 0);
	assert_int_equal(tf_writer__flush(w), 0);
	tf_writer__time(w, &t);
	assert_int_equal(t.downs, 0);
	assert_int_equal(t.lowered, 0);
	assert_int_equal(t.depth, 0);
	assert_int_equal(tf_writer__close(w, NULL), 0);
	assert_int_equal(count_records(&st), i);
	path_in_tmpfs(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_keeps_every_record_and_the_metadata),
		cmocka_unit_test(test_empty_trace_has_no_records_and_is_complete),
		cmocka_unit_test(test_writer_refuses_a_record_shorter_than_its_header),
		cmocka_unit_test(test_writer_open_fails_with_errno_in_a_missing_directory),
		cmocka_unit_test(test_writer_size_counts_the_blocks_not_yet_written),
		cmocka_unit_test(test_final_metadata_is_appended_after_the_records),
		cmocka_unit_test(test_drop_mode_counts_every_record_it_did_not_write),
		cmocka_unit_test(test_pace_keeps_the_level_while_the_writer_keeps_up),
		cmocka_unit_test(test_pace_steps_down_one_level_a_block_to_packing_only),
		cmocka_unit_test(test_pace_held_back_by_the_disk_does_not_step_down),
		cmocka_unit_test(test_pace_comes_back_up_after_emptying_its_queue_never_above_the_level),
		cmocka_unit_test(test_pace_behind_again_after_a_step_up_waits_twice_as_long),
		cmocka_unit_test(test_pace_wait_for_a_step_up_is_bounded),
		cmocka_unit_test(test_writer_lowers_its_level_when_behind_and_restores_it),
		cmocka_unit_test(test_writer_that_is_waited_for_keeps_its_level),
		cmocka_unit_test(test_cut_short_file_yields_every_complete_block),
		cmocka_unit_test(test_flipped_bits_cost_only_the_blocks_they_hit),
		cmocka_unit_test(test_bad_files_give_one_line_errors),
		cmocka_unit_test(test_garbage_after_the_header_yields_nothing_and_ends),
		cmocka_unit_test(test_window_skips_blocks_but_keeps_their_path_records),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
