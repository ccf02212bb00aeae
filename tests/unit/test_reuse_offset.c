// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reuse-offset analyzer on synthetic streams: the Fluent Bit rotation of
 * the DIO paper (26 bytes read, the file deleted and created again with the
 * same inode number, 16 bytes written, the follower resumes at 26), its fixed
 * counterpart, the copytruncate case; a resume that is an lseek on a second
 * description after a header read on a first, an offset saved at a line
 * boundary below the old end, a writer reading past its own end, descriptions
 * shared by dup and fork, one report per process; a follower that reopens
 * the truncated log and reads it from 0 (nothing lost), one that reads
 * exactly what a grown log holds at its kept offset, a pool of threads that
 * carries its offset to a new file of the same name, a next run that
 * continues the saved state, one finding per program, a reader still
 * waiting when the trace ends (a warning); the thresholds at their edges,
 * and its memory staying bounded over a million events.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "fakehost.h"

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

/* reads ask for this many bytes: one that gets fewer reached the end of the file */
#define ASK	64

/*
 * nr by thread tid of pid through fd, whose open file description is ofd (0:
 * unknown, as in records made before dio knew descriptions), on tag at off;
 * an lseek goes to off with whence, a read asks for ask bytes.
 */
static void callr(void *st, uint32_t pid, uint32_t tid, const char *comm, uint16_t nr,
		  int32_t fd, uint32_t ofd, const struct dio_file_tag *tag, int64_t off,
		  int64_t ret, int whence, uint64_t ask)
{
	struct dio_ev_syscall e = sys_ev(tick(), pid, tid, comm, nr, fd, tag, off, ret, 500);

	e.ofd = tag ? ofd : 0;
	if (nr == NR_lseek) {
		e.args[1] = (uint64_t)(whence == SEEK_SET ? off : 0);
		e.args[2] = (uint64_t)whence;
	} else if (nr == NR_read || nr == NR_pread64) {
		e.args[2] = ask;
	}
	feed(st, &e);
}

/* the same, a read asking for ASK bytes */
static void callx(void *st, uint32_t pid, uint32_t tid, const char *comm, uint16_t nr,
		  int32_t fd, uint32_t ofd, const struct dio_file_tag *tag, int64_t off,
		  int64_t ret, int whence)
{
	callr(st, pid, tid, comm, nr, fd, ofd, tag, off, ret, whence, ASK);
}

static void call(void *st, uint32_t pid, const char *comm, uint16_t nr, int32_t fd,
		 const struct dio_file_tag *tag, int64_t off, int64_t ret)
{
	callx(st, pid, pid, comm, nr, fd, 0, tag, off, ret, SEEK_SET);
}

/* the host says open file description ofd of pid ended (its last fd closed) */
static void ofd_end(void *st, uint32_t pid, uint32_t ofd, const struct dio_file_tag *tag)
{
	struct dio_ev_ofd o;

	memset(&o, 0, sizeof(o));
	o.hdr.type = DIO_EV_OFD;
	o.hdr.size = sizeof(o);
	o.hdr.ts = tick();
	o.pid = pid;
	o.tid = pid;
	o.ofd = ofd;
	o.tag = *tag;
	o.how = DIO_OFD_CLOSE;
	o.flags = DIO_OFDF_FILE;
	feed(st, &o);
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
	/* the reader is gone: what it missed is final; its program's finding comes at the end */
	exit_(st, READER);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_string_equal(f->title, "pid 200 (follower) resumed the new /mnt/app.log at offset "
			    "26, which it never read up to: 16 bytes pid 100 (logwriter) wrote "
			    "below it were never read");
	assert_non_null(strstr(f->message, "deleted (unlink by pid 100 (logwriter)) and created "
				"again"));
	assert_non_null(strstr(f->message, "inode number 12 back with a new generation (1, "
				"then 2)"));
	assert_non_null(strstr(f->message, "It had read the earlier file up to offset 26. This "
				"reader was put at offset 26 of the new file, not 0, and read on to "
				"the end (the file then held 16 bytes), so 16 of the 16 bytes"));
	assert_non_null(strstr(f->message, "2 of its 2 reads there returned 0"));
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
	/* what it read after the stale offset is not below it */
	assert_non_null(strstr(finding("reuse-offset.stale-offset")->message, "26 of the 26 bytes"));
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

/*
 * (c) A follower that saves the last line boundary it read, a bit below the
 * offset it reached: the resume need not be where any reader left the
 * earlier file.
 */
static void saved_offset_below_the_old_end_is_still_found(void **unused)
{
	struct dio_file_tag a = tag_of(INO, 1), b = tag_of(INO, 2);
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	fake_path(&b, "/mnt/app.log");
	/* 100 lines and 10 bytes of the next: the follower keeps 2600, the last newline */
	creat_(st, &a, 3);
	write_(st, &a, 0, 2610);
	read_(st, READER, &a, 0, 2610);
	read_(st, READER, &a, 2610, 0);
	unlink_(st, "/mnt/app.log");
	creat_(st, &b, 3);
	write_(st, &b, 0, 1000);
	call(st, READER, "follower", NR_lseek, 4, &b, 2600, 2600);
	read_(st, READER, &b, 2600, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->count, 1000);
	assert_non_null(strstr(f->message, "It had read the earlier file up to offset 2610. This "
				"reader was put at offset 2600"));

	/* the same at offset 10 of a 26-byte file: any offset > 0 it never read up to */
	opts_reset(NULL);
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
	assert_non_null(strstr(f->message, "A reader had read the earlier file up to offset 26"));
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
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.read-past-end");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_string_equal(f->title, "pid 200 (follower) kept its offset 2600 while /mnt/app.log "
			    "was truncated: 1000 bytes pid 100 (logwriter) wrote below it were "
			    "never read");
	assert_non_null(strstr(f->message, "/mnt/app.log was truncated (ftruncate by pid 100 "
				"(logwriter)) and written again from the start, but this reader went "
				"on reading at offset 2600, where it was before, and read on to the "
				"end (the file then held 1000 bytes): 1000 of the 1000 bytes"));
	assert_non_null(strstr(f->message, "3 of its 3 reads there returned 0"));
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

/*
 * The log of the tests below: 2600 bytes (100 lines) written and read to the
 * end by the reader through description 10, which then ends; the log deleted
 * and created again with the same inode number, and new_bytes written to it.
 * Returns the new file's tag.
 */
static struct dio_file_tag rotated_log(void *st, uint64_t ino, const char *path,
				       int64_t new_bytes)
{
	struct dio_file_tag a = tag_of(ino, 1), b = tag_of(ino, 2);

	fake_path(&a, path);
	fake_path(&b, path);
	creat_(st, &a, 3);
	write_(st, &a, 0, 2600);
	callx(st, READER, READER, "follower", NR_read, 4, 10, &a, 0, 2600, 0);
	callx(st, READER, READER, "follower", NR_read, 4, 10, &a, 2600, 0, 0);
	ofd_end(st, READER, 10, &a);
	unlink_(st, path);
	creat_(st, &b, 3);
	write_(st, &b, 0, new_bytes);
	return b;
}

/* reads through fd/ofd by pid/tid (comm) from off to the end of a file of size bytes, and a poll */
static void read_to_end(void *st, uint32_t pid, uint32_t tid, const char *comm, int32_t fd,
			uint32_t ofd, const struct dio_file_tag *tag, int64_t off, int64_t size)
{
	int64_t n;

	for (; off < size; off += n) {
		n = size - off < ASK ? size - off : ASK;
		callx(st, pid, tid, comm, NR_read, fd, ofd, tag, off, n, 0);
	}
	callx(st, pid, tid, comm, NR_read, fd, ofd, tag, off, 0, 0);
}

/*
 * A follower that checks the header through hfd/hofd (by hpid; none when hfd
 * < 0), then puts fd/ofd at off by lseek (by pid) and reads to the end.
 */
static void header_then_resume(void *st, uint32_t hpid, int32_t hfd, uint32_t hofd,
			       uint32_t pid, int32_t fd, uint32_t ofd,
			       const struct dio_file_tag *tag, int64_t off, int64_t size)
{
	/* a header of 26 bytes, asked for as such: not a read to the end */
	if (hfd >= 0)
		callr(st, hpid, hpid, "follower", NR_read, hfd, hofd, tag, 0, 26, 0, 26);
	callx(st, pid, pid, "follower", NR_lseek, fd, ofd, tag, off, off, SEEK_SET);
	read_to_end(st, pid, pid, "follower", fd, ofd, tag, off, size);
}

/*
 * (a, b) The follower identifies the file by a header it reads at offset 0
 * through one description and resumes through another, put at the saved
 * offset by lseek. The header read does not make the bytes below the resume
 * read: they are counted per description.
 */
static void resume_by_lseek_on_a_second_description(void **unused)
{
	const struct fake_finding *f;
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	header_then_resume(st, READER, 5, 21, READER, 6, 22, &b, 2600, 4000);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_int_equal(f->pid, READER);
	/* written below 2600 by the writer, none of it read through the resumed description */
	assert_int_equal(f->count, 2600);
	assert_non_null(strstr(f->title, "resumed the new /mnt/app.log at offset 2600, which it "
			       "never read up to: 2600 bytes pid 100 (logwriter)"));
	/* how it got there: the lseek, then its reads from the stale offset */
	assert_non_null(strstr(f->excerpt, "lseek(6) = 2600\n"));

	/* the header read through the same description: written below minus what it read */
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	header_then_resume(st, READER, 5, 22, READER, 5, 22, &b, 2600, 4000);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.stale-offset")->count, 2600 - 26);

	/* records without description ids: pid+fd is the position, with the same result */
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	header_then_resume(st, READER, 5, 0, READER, 6, 0, &b, 2600, 4000);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.stale-offset")->count, 2600);
}

/* the new file shorter than the saved offset: every read returns 0, all of it is lost */
static void resume_past_the_end_of_a_shorter_new_file(void **unused)
{
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 1000);
	header_then_resume(st, READER, 5, 21, READER, 6, 22, &b, 2600, 1000);
	/* the description ends: the reader could still read them through another */
	ofd_end(st, READER, 22, &b);
	exit_(st, READER);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.stale-offset")->count, 1000);
	assert_int_equal(finding("reuse-offset.stale-offset")->severity, DIO_SEV_ERROR);
}

/*
 * (d) A program that writes a file and then reads past its own end, through
 * another description, 49 times over on a file whose inode number comes back
 * each time: none of the bytes below are another's, nothing is lost. The
 * same through its own description by another thread.
 */
static void writer_reading_past_its_own_end_lost_nothing(void **unused)
{
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (uint32_t i = 1; i <= 49; i++) {
		struct dio_file_tag t = tag_of(INO, i);
		uint32_t ofd = 100 + 2 * i;

		callx(st, 300, 300, "db", NR_write, 7, ofd, &t, 0, 4096, 0);
		callx(st, 300, 300, "db", NR_read, 8, ofd + 1, &t, 4096, 0, 0);
		callx(st, 300, 300, "db", NR_pread64, 8, ofd + 1, &t, 8192, 0, 0);
		callx(st, 300, 300, "db", NR_lseek, 8, ofd + 1, &t, 2048, 2048, SEEK_SET);
		callx(st, 300, 300, "db", NR_read, 8, ofd + 1, &t, 2048, 2048, 0);
		callx(st, 300, 300, "db", NR_read, 8, ofd + 1, &t, 4096, 0, 0);
		/* another thread, through the description the bytes were written through */
		callx(st, 300, 301, "db:reader", NR_pread64, 7, ofd, &t, 8192, 0, 0);
	}
	exit_(st, 300);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * (d) Own bytes are a thread's, or a description's: a thread of the writing
 * process that follows the log through a description of its own loses what
 * the writing thread wrote, as the README's demo does.
 */
static void thread_following_its_own_process_log_loses_data(void **unused)
{
	struct dio_file_tag t = tag_of(INO, 1);
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	fake_path(&t, "/mnt/app.log");
	callx(st, 400, 400, "app", NR_write, 3, 60, &t, 0, 1790, 0);
	callx(st, 400, 401, "reader", NR_pread64, 7, 61, &t, 0, 1790, 0);
	callx(st, 400, 401, "reader", NR_pread64, 7, 61, &t, 1790, 0, 0);
	callx(st, 400, 400, "app", NR_ftruncate, 3, 60, &t, -1, 0, 0);
	callx(st, 400, 400, "app", NR_write, 3, 60, &t, 0, 1900, 0);
	/* it goes on where it was: 110 bytes above its offset, the 1790 below never */
	callx(st, 400, 401, "reader", NR_pread64, 7, 61, &t, 1790, 110, 0);
	callx(st, 400, 401, "reader", NR_pread64, 7, 61, &t, 1900, 0, 0);
	exit_(st, 400);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.read-past-end");
	assert_non_null(f);
	assert_int_equal(f->pid, 400);
	assert_int_equal(f->tid, 401);
	assert_int_equal(f->count, 1790);
	/* the program is named; the thread that was put there in the message */
	assert_string_equal(f->title, "pid 400 (app) kept its offset 1790 while /mnt/app.log "
			    "was truncated: 1790 bytes pid 400 (app) wrote below it were never read");
	assert_non_null(strstr(f->message, "this reader (its thread 401, reader) went on reading"));
}

/*
 * (b) dup'ed fds and a forked child share one description, and so one reading
 * position: a header read through one fd counts for the other. Without
 * description ids, pid+fd is all dio has, and the child's fd is another
 * position.
 */
static void dup_and_fork_share_a_reading_position(void **unused)
{
	const struct fake_finding *f;
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	/* fd 5 is a dup of fd 4 */
	header_then_resume(st, READER, 4, 30, READER, 5, 30, &b, 2600, 4000);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.stale-offset")->count, 2600 - 26);

	/* the parent reads the header, the child it forked resumes through the same fd */
	for (uint32_t ofd = 0; ofd <= 31; ofd += 31) {
		opts_reset(NULL);
		st = start();
		b = rotated_log(st, INO, "/mnt/app.log", 4000);
		header_then_resume(st, READER, 4, ofd, READER + 1, 4, ofd, &b, 2600, 4000);
		exit_(st, READER + 1);
		exit_(st, READER);
		stop_analyzer(st);
		assert_int_equal(nfound, 1);
		f = finding("reuse-offset.stale-offset");
		assert_int_equal(f->pid, READER + 1);
		assert_int_equal(f->count, ofd ? 2600 - 26 : 2600);
	}
}

/*
 * (e) One finding per code and process: a follower that resumed three files
 * at stale offsets gets one, with the bytes summed, named after the file
 * that lost the most, the others in the message.
 */
static void one_report_per_process_and_code(void **unused)
{
	static const char *const paths[] = { "/mnt/a.log", "/mnt/b.log", "/mnt/c.log" };
	static const int64_t size[] = { 2650, 4000, 2610 }, resume[] = { 1000, 2600, 500 };
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 3; i++) {
		struct dio_file_tag b = rotated_log(st, INO + (uint64_t)i, paths[i], size[i]);
		uint32_t ofd = 40 + (uint32_t)i;

		callx(st, READER, READER, "follower", NR_lseek, 5, ofd, &b, resume[i], resume[i],
		      SEEK_SET);
		read_to_end(st, READER, READER, "follower", 5, ofd, &b, resume[i], size[i]);
		ofd_end(st, READER, ofd, &b);
	}
	/* another follower, on another file, copytruncated under it */
	{
		struct dio_file_tag t = tag_of(INO + 10, 1);

		fake_path(&t, "/mnt/d.log");
		write_(st, &t, 0, 100);
		callx(st, READER + 5, READER + 5, "tailer", NR_read, 4, 50, &t, 0, 100, 0);
		call(st, WRITER, "logwriter", NR_ftruncate, 3, &t, -1, 0);
		write_(st, &t, 0, 40);
		callx(st, READER + 5, READER + 5, "tailer", NR_read, 4, 50, &t, 100, 0, 0);
	}
	exit_(st, READER);
	exit_(st, READER + 5);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->pid, READER);
	assert_int_equal(f->processes, 1);
	assert_int_equal(f->count, 1000 + 2600 + 500);
	assert_string_equal(f->path, "/mnt/b.log");
	assert_string_equal(f->title, "pid 200 (follower) resumed at offsets it never read up to "
			    "in 3 files: 4100 bytes other threads wrote below its offsets were "
			    "never read (2600 in /mnt/b.log)");
	assert_non_null(strstr(f->message, "\nThe other files: /mnt/a.log at offset 1000 (1000 "
				"bytes), /mnt/c.log at offset 500 (500 bytes)."));
	/* the top file's own story comes first */
	assert_non_null(strstr(f->message, "put at offset 2600 of the new file"));
	f = finding("reuse-offset.read-past-end");
	assert_non_null(f);
	assert_int_equal(f->pid, READER + 5);
	assert_int_equal(f->count, 40);
}

/*
 * tail: it goes to the end (SEEK_END) and reads the last lines from there: no
 * offset carried, though the same program read the earlier file
 */
static void seek_relative_to_the_end_is_not_a_resume(void **unused)
{
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	callx(st, READER, READER, "follower", NR_lseek, 3, 70, &b, 0, 0, SEEK_CUR);
	callx(st, READER, READER, "follower", NR_lseek, 3, 70, &b, 0, 4000, SEEK_END);
	callx(st, READER, READER, "follower", NR_lseek, 3, 70, &b, 3900, 3900, SEEK_SET);
	read_to_end(st, READER, READER, "follower", 3, 70, &b, 3900, 4000);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * a reader of the earlier file that jumps about in the new one (a database,
 * an index) and goes below where it jumped to, or never reads on to the end
 */
static void random_access_is_not_a_resume(void **unused)
{
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 8192);
	callx(st, READER, READER, "follower", NR_pread64, 3, 70, &b, 4096, 64, 0);
	callx(st, READER, READER, "follower", NR_pread64, 3, 70, &b, 64, 64, 0);
	callx(st, READER, READER, "follower", NR_pread64, 3, 70, &b, 8192, 0, 0);
	/* and one that never reads on to the end from where it jumped */
	callx(st, READER, READER, "follower", NR_pread64, 3, 71, &b, 4096, 64, 0);
	callx(st, READER, READER, "follower", NR_pread64, 3, 71, &b, 6144, 64, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * A database file created again by another process (same inode number): a
 * reader of the earlier one reads the header, then the last page whole (it
 * ends where the data ends, but no read comes back short), then a page
 * below: a lookup, not a resume.
 */
static void last_page_read_whole_is_not_a_resume(void **unused)
{
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.db", 16384);
	callr(st, READER, READER, "follower", NR_pread64, 3, 70, &b, 0, 100, 0, 100);
	callr(st, READER, READER, "follower", NR_pread64, 3, 70, &b, 12288, 4096, 0, 4096);
	callr(st, READER, READER, "follower", NR_pread64, 3, 70, &b, 4096, 4096, 0, 4096);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * dd skip=10, or a script's seek: a program that never read the earlier file
 * (nor one of its name) had no offset of it to carry over. A restarted
 * follower has its name: restarted_follower_at_the_old_offset.
 */
static void skip_by_a_program_that_never_read_the_earlier_file(void **unused)
{
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	callx(st, 600, 600, "dd", NR_lseek, 0, 80, &b, 1000, 1000, SEEK_SET);
	read_to_end(st, 600, 600, "dd", 0, 80, &b, 1000, 4000);
	exit_(st, 600);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * A log of 2600 bytes read to the end by READER through description 10, then
 * truncated by the writer (copytruncate) and written again with new_bytes.
 */
static void cut_log(void *st, const struct dio_file_tag *t, int64_t new_bytes)
{
	fake_path(t, "/mnt/app.log");
	creat_(st, t, 3);
	write_(st, t, 0, 2600);
	read_to_end(st, READER, READER, "follower", 4, 10, t, 0, 2600);
	call(st, WRITER, "logwriter", NR_ftruncate, 3, t, -1, 0);
	write_(st, t, 0, new_bytes);
}

/*
 * The follower reads at its old offset after the truncation, gets nothing,
 * notices (fstat), closes the file, opens it again and reads the new bytes
 * from 0 through the new description: it read every byte, nothing is lost.
 */
static void reopened_after_truncation_lost_nothing(void **unused)
{
	struct dio_file_tag t = tag_of(INO, 1);
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	cut_log(st, &t, 1000);
	callx(st, READER, READER, "follower", NR_read, 4, 10, &t, 2600, 0, 0);
	ofd_end(st, READER, 10, &t);
	read_to_end(st, READER, READER, "follower", 4, 11, &t, 0, 1000);
	/* the writer goes on; the follower is killed before it reads the last line */
	write_(st, &t, 1000, 26);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);

	/* a look at the first bytes through another description is no reading of them */
	opts_reset(NULL);
	st = start();
	cut_log(st, &t, 1000);
	callx(st, READER, READER, "follower", NR_read, 4, 10, &t, 2600, 0, 0);
	callr(st, READER, READER, "follower", NR_read, 5, 12, &t, 0, 512, 0, 512);
	ofd_end(st, READER, 12, &t);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding("reuse-offset.read-past-end")->count, 1000);
}

/*
 * The file grew past the follower's offset before it looked again: it reads
 * the size (fstat, or lseek to the end and back, as Perl's File::Tail does)
 * and exactly the bytes above its offset, so no read comes back short.
 */
static void kept_offset_in_a_file_grown_past_it(void **unused)
{
	struct dio_file_tag t = tag_of(INO, 1);
	const struct fake_finding *f;
	void *st;

	(void)unused;
	for (int peek = 0; peek <= 1; peek++) {
		opts_reset(NULL);
		st = start();
		cut_log(st, &t, 4000);
		if (peek) {
			callx(st, READER, READER, "follower", NR_lseek, 4, 10, &t, 0, 4000,
			      SEEK_END);
			callx(st, READER, READER, "follower", NR_lseek, 4, 10, &t, 2600, 2600,
			      SEEK_SET);
		}
		callr(st, READER, READER, "follower", NR_read, 4, 10, &t, 2600, 1400, 0, 1400);
		exit_(st, READER);
		stop_analyzer(st);
		assert_int_equal(nfound, 1);
		f = finding("reuse-offset.read-past-end");
		assert_non_null(f);
		assert_int_equal(f->severity, DIO_SEV_ERROR);
		assert_int_equal(f->count, 2600);
		assert_string_equal(f->title, "pid 200 (follower) kept its offset 2600 while "
				    "/mnt/app.log was truncated: 2600 bytes pid 100 (logwriter) "
				    "wrote below it were never read");
		assert_non_null(strstr(f->message, "went on reading at offset 2600, where it was "
					"before, and read on to the end (the file then held 4000 "
					"bytes): 2600 of the 2600 bytes"));
	}

	/* a look at the end that goes elsewhere is a tail -n, not a kept offset */
	opts_reset(NULL);
	st = start();
	cut_log(st, &t, 4000);
	callx(st, READER, READER, "follower", NR_lseek, 4, 10, &t, 0, 4000, SEEK_END);
	callx(st, READER, READER, "follower", NR_lseek, 4, 10, &t, 3000, 3000, SEEK_SET);
	callr(st, READER, READER, "follower", NR_read, 4, 10, &t, 3000, 1000, 0, 1000);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* the same reader reopens the grown file and seeks to the offset it saved: the same loss */
static void reopened_at_the_old_offset_in_a_grown_file(void **unused)
{
	struct dio_file_tag t = tag_of(INO, 1);
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	cut_log(st, &t, 4000);
	ofd_end(st, READER, 10, &t);
	callx(st, READER + 1, READER + 1, "follower", NR_lseek, 4, 11, &t, 2600, 2600, SEEK_SET);
	callr(st, READER + 1, READER + 1, "follower", NR_read, 4, 11, &t, 2600, 1400, 0, 1400);
	exit_(st, READER + 1);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_int_equal(f->pid, READER + 1);
	assert_int_equal(f->count, 2600);
	assert_string_equal(f->title, "pid 201 (follower) resumed the truncated /mnt/app.log at "
			    "offset 2600, which it never read up to: 2600 bytes pid 100 "
			    "(logwriter) wrote below it were never read");
}

/*
 * A shipper reads by name through a pool of threads, with pread at the offset
 * it carries: the log is renamed away and created again (another inode), and
 * the pool reads the new file from the old offset, exactly as much as there
 * is, its reads reaching dio out of order.
 */
static void pool_carries_its_offset_to_a_file_of_the_same_name(void **unused)
{
	struct dio_file_tag a = tag_of(INO, 1), b = tag_of(INO + 1, 7);
	const struct fake_finding *f;
	void *st;

	(void)unused;
	for (int other = 0; other <= 1; other++) {
		opts_reset(NULL);
		st = start();
		fake_path(&a, "/mnt/app.log");
		fake_path(&b, "/mnt/app.log");
		creat_(st, &a, 3);
		write_(st, &a, 0, 2600);
		callx(st, READER, READER, "shipper", NR_openat, 4, 10, &a, -1, 4, 0);
		callr(st, READER, READER + 1, "pool-1", NR_pread64, 4, 10, &a, 0, 1300, 0, 1300);
		callr(st, READER, READER + 2, "pool-2", NR_pread64, 4, 10, &a, 1300, 1300, 0,
		      1300);
		ofd_end(st, READER, 10, &a);
		/* the rotation: the earlier log gets another name, a new one this name */
		creat_(st, &b, 3);
		write_(st, &b, 0, 4000);
		callx(st, READER, READER, "shipper", NR_openat, 4, 11, &b, -1, 4, 0);
		callr(st, READER, READER + 2, "pool-2", NR_pread64, 4, 11, &b, 3300, 700, 0, 700);
		callr(st, READER, READER + 1, "pool-1", NR_pread64, 4, 11, &b, 2600, 700, 0, 700);
		if (other) {
			/* another program that reads the file at 2600 never read the earlier */
			callr(st, 700, 700, "grep", NR_pread64, 4, 30, &b, 2600, 700, 0, 700);
			exit_(st, 700);
		}
		exit_(st, READER);
		stop_analyzer(st);
		assert_int_equal(nfound, 1);
		f = finding("reuse-offset.stale-offset");
		assert_non_null(f);
		assert_int_equal(f->pid, READER);
		assert_string_equal(f->comm, "shipper");
		assert_int_equal(f->count, 2600);
		assert_string_equal(f->title, "pid 200 (shipper) resumed the renamed /mnt/app.log "
				    "at offset 2600, which it never read up to: 2600 bytes pid 100 "
				    "(logwriter) wrote below it were never read");
		assert_non_null(strstr(f->message, "/mnt/app.log now names another file (inode 13, "
					"where it named inode 12 when this program read it)"));
	}

	/* starting the new file anywhere but where it left the earlier one carries nothing */
	opts_reset(NULL);
	st = start();
	fake_path(&a, "/mnt/app.log");
	fake_path(&b, "/mnt/app.log");
	creat_(st, &a, 3);
	write_(st, &a, 0, 2600);
	callx(st, READER, READER, "shipper", NR_openat, 4, 10, &a, -1, 4, 0);
	callr(st, READER, READER, "shipper", NR_pread64, 4, 10, &a, 0, 2600, 0, 2600);
	creat_(st, &b, 3);
	write_(st, &b, 0, 4000);
	callx(st, READER, READER, "shipper", NR_openat, 4, 11, &b, -1, 4, 0);
	callx(st, READER, READER, "shipper", NR_pread64, 4, 11, &b, 2000, 64, 0);
	callx(st, READER, READER, "shipper", NR_pread64, 4, 11, &b, 3968, 32, 0);
	exit_(st, READER);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * A program that continues its saved state: the first run resumes at a stale
 * offset and loses what is below it; the next run resumes where the first
 * left the new file, and loses nothing more. One finding for the program.
 */
static void next_run_that_continues_the_saved_state(void **unused)
{
	const struct fake_finding *f;
	struct dio_file_tag b;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	b = rotated_log(st, INO, "/mnt/app.log", 4000);
	header_then_resume(st, READER, -1, 0, READER + 1, 6, 22, &b, 2600, 4000);
	exit_(st, READER + 1);
	write_(st, &b, 4000, 500);
	header_then_resume(st, READER, -1, 0, READER + 2, 6, 23, &b, 4000, 4500);
	exit_(st, READER + 2);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_int_equal(f->pid, READER + 1);
	assert_int_equal(f->count, 2600);
	assert_int_equal(f->processes, 1);
}

/* two processes of one program, each on its own rotated log: one finding, two processes */
static void one_finding_per_program(void **unused)
{
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	for (uint32_t i = 0; i < 2; i++) {
		struct dio_file_tag b = rotated_log(st, INO + i, i ? "/mnt/b.log" : "/mnt/a.log",
						    4000 + 100 * i);

		header_then_resume(st, READER, -1, 0, READER + 1 + i, 6, 30 + i, &b,
				   2600 - 100 * i, 4000 + 100 * i);
		exit_(st, READER + 1 + i);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("reuse-offset.stale-offset");
	assert_int_equal(f->processes, 2);
	assert_int_equal(f->count, 2600 + 2500);
	assert_int_equal(f->pid, READER + 1);
	assert_string_equal(f->title, "2 processes of follower resumed at offsets they never "
			    "read up to in 2 files: 5100 bytes other threads wrote below their "
			    "offsets were never read (2600 in /mnt/a.log)");
	assert_non_null(strstr(f->message, "\nThe processes that lost the most: pid 201 (2600 "
				"bytes), pid 202 (2500 bytes)."));
}

/*
 * A reader still waiting past the end when the trace ends may yet go back: a
 * warning that says so, not an error of bytes lost.
 */
static void reader_still_waiting_when_the_trace_ends(void **unused)
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
	assert_int_equal(f->count, 1000);
	assert_string_equal(f->title, "pid 200 (follower) kept its offset 2600 while /mnt/app.log "
			    "was truncated: 1000 bytes pid 100 (logwriter) wrote below it had not "
			    "been read by it when the trace ended");
}

static void bad_options_are_refused(void **unused)
{
	void *st = NULL;

	(void)unused;
	opts_reset("min_lost", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
	assert_non_null(strstr(logged, "min_lost"));
	opts_reset("max_suspects", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
	opts_reset("max_positions", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
	/* removed: refused, saying why, whatever its value */
	opts_reset("any_offset", "false", NULL);
	logged[0] = 0;
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
	assert_non_null(strstr(logged, "any_offset was removed"));
	/* not given: the defaults start */
	opts_reset(NULL);
	st = start();
	stop_analyzer(st);
}

/* with the defaults, init takes what the README's memory table adds up to */
static void memory_at_init_as_the_readme_says(void **unused)
{
	size_t used;

	(void)unused;
	opts_reset(NULL);
	used = init_heap_bytes();
	/* valgrind's allocator does not show in mallinfo2 */
	if (!used)
		skip();
	if (used < (size_t)24 << 20 || used > (size_t)25 << 20)
		fail_msg("%zu bytes after init, not 24.7 MiB", used);
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
	/*
	 * every rotation lost 16 bytes; exits, evictions and new generations
	 * settled them, into one finding for the program
	 */
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 16 * 100000);
	assert_int_equal(found[0].processes, 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stale_offset_reported_with_the_lost_bytes),
		cmocka_unit_test(stale_offset_below_new_data_loses_what_is_below),
		cmocka_unit_test(follower_that_starts_new_file_at_zero_is_fine),
		cmocka_unit_test(min_lost_at_its_edge),
		cmocka_unit_test(saved_offset_below_the_old_end_is_still_found),
		cmocka_unit_test(restarted_follower_at_the_old_offset),
		cmocka_unit_test(late_record_of_the_earlier_file_is_ignored),
		cmocka_unit_test(read_past_end_after_truncation),
		cmocka_unit_test(reader_that_starts_again_at_zero_lost_nothing),
		cmocka_unit_test(follower_at_the_end_is_fine),
		cmocka_unit_test(resume_by_lseek_on_a_second_description),
		cmocka_unit_test(resume_past_the_end_of_a_shorter_new_file),
		cmocka_unit_test(writer_reading_past_its_own_end_lost_nothing),
		cmocka_unit_test(thread_following_its_own_process_log_loses_data),
		cmocka_unit_test(dup_and_fork_share_a_reading_position),
		cmocka_unit_test(one_report_per_process_and_code),
		cmocka_unit_test(seek_relative_to_the_end_is_not_a_resume),
		cmocka_unit_test(random_access_is_not_a_resume),
		cmocka_unit_test(last_page_read_whole_is_not_a_resume),
		cmocka_unit_test(skip_by_a_program_that_never_read_the_earlier_file),
		cmocka_unit_test(reopened_after_truncation_lost_nothing),
		cmocka_unit_test(kept_offset_in_a_file_grown_past_it),
		cmocka_unit_test(reopened_at_the_old_offset_in_a_grown_file),
		cmocka_unit_test(pool_carries_its_offset_to_a_file_of_the_same_name),
		cmocka_unit_test(next_run_that_continues_the_saved_state),
		cmocka_unit_test(one_finding_per_program),
		cmocka_unit_test(reader_still_waiting_when_the_trace_ends),
		cmocka_unit_test(bad_options_are_refused),
		cmocka_unit_test(memory_at_init_as_the_readme_says),
		cmocka_unit_test(memory_stays_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
