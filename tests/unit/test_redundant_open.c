// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The redundant-open analyzer on synthetic streams: each pattern gives its
 * finding with the exact numbers, its fixed counterpart none; windows follow
 * open file descriptions (a shell's `>> file`, dup2 and all) and fall back to
 * fds without description ids; files made and deleted under one path are
 * cycles, not churn; whole reads of an unchanged file are duplicates; every
 * threshold at its edge; one finding per code and process however many files;
 * a re-used pid inherits nothing; the same stream gives the same findings; and
 * a million events on ever-new processes, files and descriptions leave the
 * heap where init put it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "fakehost.h"

#define US	1000ULL
#define MS	1000000ULL
#define T0	(5 * 1000000000ULL)
#define PID	100
#define LINE	64

/* x86_64 numbers of calls beyond fakehost.h's */
enum { NR_dup2 = 33, NR_fcntl = 72, NR_getdents64 = 217 };

static void *st;
static int64_t fsize;		/* size of the file the windows append to */

/* the analyzer with the fake host and opts, its findings forgotten */
static void start(void)
{
	fsize = 0;
	nfound = 0;
	nbelow = 0;
	nfake_paths = 0;
	logged[0] = 0;
	/*
	 * The records here take 100 ns each: the patterns are tested without the
	 * floor of their cost a second, unless a test sets it (its own tests do)
	 */
	for (int i = 0; dio_analyzer.options[i].name; i++)
		if (!opts[i].set && !strcmp(dio_analyzer.options[i].name, "min_cost_rate"))
			opt_set(dio_analyzer.options[i].name, "0");
	st = NULL;
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), 0);
}

static void stop(void)
{
	stop_analyzer(st);
	st = NULL;
}

/* ---- records ------------------------------------------------------------------ */

/* nr through fd on tag (NULL: no file), of description ofd (0: unknown) */
static void ocall(uint64_t ts, uint32_t pid, uint16_t nr, int32_t fd,
		  const struct dio_file_tag *tag, uint32_t ofd, int64_t off, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, "logger", nr, fd, tag, off, ret, 100);

	e.ofd = tag ? ofd : 0;
	feed(st, &e);
}

static void call(uint64_t ts, uint32_t pid, uint16_t nr, int32_t fd,
		 const struct dio_file_tag *tag, int64_t off, int64_t ret)
{
	ocall(ts, pid, nr, fd, tag, 0, off, ret);
}

/* a read of count bytes that returned ret */
static void oread(uint64_t ts, uint32_t pid, int32_t fd, const struct dio_file_tag *tag,
		  uint32_t ofd, int64_t off, uint64_t count, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, "cfg", NR_read, fd, tag, off, ret, 100);

	e.ofd = ofd;
	e.args[2] = count;
	feed(st, &e);
}

/* a call on a directory */
static void dcall(uint64_t ts, uint32_t pid, uint16_t nr, int32_t fd,
		  const struct dio_file_tag *tag, uint32_t ofd, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, "db", nr, fd, tag, -1, ret, 100);

	e.ftype = DIO_FT_DIR;
	e.ofd = ofd;
	feed(st, &e);
}

/* the host's record that description ofd ended: its last fd went by how (nr) */
static void ofd_end(uint64_t ts, uint32_t pid, uint32_t ofd, int32_t fd,
		    const struct dio_file_tag *tag, uint16_t nr, uint8_t how)
{
	struct dio_ev_ofd o;

	memset(&o, 0, sizeof(o));
	o.hdr.type = DIO_EV_OFD;
	o.hdr.size = sizeof(o);
	o.hdr.ts = ts;
	o.pid = pid;
	o.tid = how == DIO_OFD_END ? 0 : pid;
	o.ofd = ofd;
	o.fd = fd;
	o.tag = *tag;
	o.nr = nr;
	o.how = how;
	o.flags = DIO_OFDF_OPENED | DIO_OFDF_FILE;
	o.ftype = DIO_FT_REG;
	feed(st, &o);
}

static void unlink_at(uint64_t ts, uint32_t pid, const char *path)
{
	struct sys_ev_buf b;

	feed(st, with_str(&b, sys_ev(ts, pid, pid, "db", NR_unlink, -1, NULL, -1, 0, 100), path));
}

/*
 * n calls of the process on its data file, an fd it holds from before the
 * trace, at offsets of its own: its other work on storage, which the time of
 * a finding's calls is a share of
 */
static void other(uint64_t ts, uint32_t pid, int n)
{
	struct dio_file_tag data = tag_of(999, 1);

	for (int i = 0; i < n; i++)
		call(ts + (uint64_t)i, pid, NR_pread64, 9, &data, 4096 * (int64_t)i, 10);
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

/* n windows a ms apart on /log, records without description ids */
static void churn(int n, int writes, int64_t bytes)
{
	struct dio_file_tag a = tag_of(10, 1);

	start();
	fake_path(&a, "/log");
	for (int i = 0; i < n; i++)
		window(T0 + (uint64_t)i * MS, PID, 3, &a, writes, bytes);
	stop();
}

/* ---- churn, per fd (older recordings) ------------------------------------------ */

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
	assert_non_null(strstr(f->message, "100 of its 100 open-close windows on it, "
				"6400 bytes in all); 100 of them made the calls openat lseek "
				"fstat write close"));
	/* openat, lseek, fstat and close of each: 400 of the process's 500 calls */
	assert_non_null(strstr(f->message, "are 400 of the 500 calls the process made (80%), 40 us in all "
				"(80% of its time in calls on storage but syncs), 0.40 ms a second of its run outside syncs"));
	assert_non_null(strstr(f->message, "O_APPEND"));
	assert_null(strstr(f->message, "done >> file"));
	/* the excerpt is one whole window, the second (the first one showed the pattern) */
	assert_string_equal(f->excerpt,
			    "+5.001000 [100/100 logger] openat(3) = 3\n"
			    "+5.001001 [100/100 logger] lseek(3) = 64\n"
			    "+5.001002 [100/100 logger] fstat(3) = 0\n"
			    "+5.001003 [100/100 logger] write(3) = 64\n"
			    "+5.001004 [100/100 logger] close(3) = 0\n");
}

/* /proc/self/maps read again and again (the address sanitizer's runtime) is no storage */
static void test_pseudo_files_are_no_churn(void **state)
{
	struct dio_file_tag a = tag_of(10, 1);

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&a, "/proc/100/maps");
	for (int i = 0; i < 50; i++)
		window(T0 + (uint64_t)i * MS, PID, 3, &a, 1, LINE);
	stop();
	assert_int_equal(nfound, 0);
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
	stop();
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
	stop();
	f = finding("redundant-open.churn");
	assert_non_null(f);
	assert_non_null(strstr(f->title, ": openat lseek fstat write close"));
	assert_non_null(strstr(f->message, "; 66 of them made the calls openat lseek fstat "
				"write close"));
}

/* ---- churn, per open file description ------------------------------------------ */

#define OFD_F	0x1000		/* the description of the file appended to */
#define OFD_DIR	0x2000

/*
 * bash's `echo x >> f`, n times: open f on fd 3, save fd 1 (a pipe) as fd 10,
 * dup2 3 onto 1, close 3 before writing, write through 1, dup2 10 back onto 1,
 * which ends f's description, close 10. other: calls of the shell between.
 */
static void shell_appends(int n, int other_calls, uint32_t ofd_base)
{
	struct dio_file_tag f = tag_of(40, 1);

	fake_path(&f, "/home/u/f");
	for (int i = 0; i < n; i++) {
		uint64_t ts = T0 + (uint64_t)i * 10 * US;
		uint32_t ofd = ofd_base ? ofd_base + (uint32_t)(i % 2) : 0;

		ocall(ts, PID, NR_openat, 3, &f, ofd, -1, 3);
		ocall(ts + 1 * US, PID, NR_fcntl, 1, NULL, 0, -1, 10);
		ocall(ts + 2 * US, PID, NR_dup2, 3, &f, ofd, -1, 1);
		ocall(ts + 3 * US, PID, NR_close, 3, &f, ofd, -1, 0);
		ocall(ts + 4 * US, PID, NR_write, 1, &f, ofd, 2 * i, 2);
		ocall(ts + 5 * US, PID, NR_dup2, 10, NULL, 0, -1, 1);
		if (ofd)
			ofd_end(ts + 5 * US, PID, ofd, 1, &f, NR_dup2, DIO_OFD_REPLACED);
		ocall(ts + 6 * US, PID, NR_close, 10, NULL, 0, -1, 0);
		other(ts + 7 * US, PID, other_calls);
	}
}

static void test_a_shell_appending_with_redirects_is_churn(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	other(T0 - MS, PID, 120);	/* the shell starting */
	shell_appends(50, 2, OFD_F);
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.churn");
	assert_non_null(f);
	assert_int_equal(f->count, 50);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	/* the write through fd 1 belongs to the window, and so does the dup2 that ended it */
	assert_string_equal(f->title, "/home/u/f opened and closed 50 times in 495 us "
			    "(101010/s), 2 bytes per open: openat dup2 close write dup2");
	/* openat, dup2, close and the dup2 over fd 1: 200 of 120 + 50 * 9 calls */
	assert_non_null(strstr(f->message, "are 200 of the 570 calls the process made (35%), 15 us in all "
				"(36% of its time in calls on storage but syncs)"));
	assert_non_null(strstr(f->message, "`done >> file`"));
	assert_null(strstr(f->message, "directory"));
	assert_string_equal(f->excerpt,
			    "+5.000010 [100/100 logger] openat(3) = 3\n"
			    "+5.000012 [100/100 logger] dup2(3) = 1\n"
			    "+5.000013 [100/100 logger] close(3) = 0\n"
			    "+5.000014 [100/100 logger] write(1) = 2\n");
}

/* without description ids each window is fd 3's: open, dup2, close and 0 bytes */
static void test_without_description_ids_windows_are_per_fd(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	shell_appends(50, 2, 0);
	stop();
	f = finding("redundant-open.churn");
	assert_non_null(f);
	assert_int_equal(f->count, 50);
	assert_string_equal(f->title, "/home/u/f opened and closed 50 times in 493 us "
			    "(101420/s), 0 bytes per open: openat dup2 close");
}

/* a dup and a forked child write through the description: one window, not small */
static void test_calls_through_a_dup_or_a_child_belong_to_the_window(void **state)
{
	struct dio_file_tag f = tag_of(41, 1);

	(void)state;
	opts_reset(NULL);
	start();
	for (int i = 0; i < 20; i++) {
		uint64_t ts = T0 + (uint64_t)i * MS;

		ocall(ts, PID, NR_openat, 3, &f, OFD_F, -1, 3);
		ocall(ts + 1, PID, NR_dup2, 3, &f, OFD_F, -1, 1);
		ocall(ts + 2, PID, NR_close, 3, &f, OFD_F, -1, 0);
		/* the child the shell forked writes the command's output */
		ocall(ts + 3, PID + 1, NR_write, 1, &f, OFD_F, 0, 1 << 20);
		ocall(ts + 4, PID + 1, NR_close, 1, &f, OFD_F, -1, 0);
		ocall(ts + 5, PID, NR_close, 1, &f, OFD_F, -1, 0);
		ofd_end(ts + 5, PID, OFD_F, 1, &f, NR_close, DIO_OFD_CLOSE);
	}
	stop();
	assert_int_equal(nfound, 0);
}

/* a program that opens a file three times as it starts, then works: no finding */
static void test_three_opens_at_start_are_no_finding(void **state)
{
	struct dio_file_tag cfg = tag_of(50, 1);

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&cfg, "/etc/app.conf");
	for (int i = 0; i < 3; i++) {
		uint64_t ts = T0 + (uint64_t)i * US * 10;
		uint32_t ofd = 0x500 + (uint32_t)i;

		ocall(ts, PID, NR_openat, 3, &cfg, ofd, -1, 3);
		ocall(ts + 1, PID, NR_fstat, 3, &cfg, ofd, -1, 0);
		oread(ts + 2, PID, 3, &cfg, ofd, 0, 16, 16);	/* its header only */
		ocall(ts + 3, PID, NR_close, 3, &cfg, ofd, -1, 0);
		ofd_end(ts + 3, PID, ofd, 3, &cfg, NR_close, DIO_OFD_CLOSE);
	}
	other(T0 + MS, PID, 20);
	stop();
	assert_int_equal(nfound, 0);
}

/*
 * open-fsync-close of a directory after each file made in it, as databases and
 * dpkg do: the only way to make a new name durable. The sync is the cost, not
 * the open and close around it: no churn. The same directory opened and closed
 * again to list it is churn, and the fix says to keep it open.
 */
static void test_directory_sync_windows_are_no_churn(void **state)
{
	struct dio_file_tag dir = tag_of(60, 1);
	const struct fake_finding *f;

	(void)state;
	for (int sync = 1; sync >= 0; sync--) {
		opts_reset(NULL);
		start();
		fake_path(&dir, "/var/db");
		for (int i = 0; i < 20; i++) {
			uint64_t ts = T0 + (uint64_t)i * MS;

			dcall(ts, PID, NR_openat, 7, &dir, OFD_DIR, 7);
			dcall(ts + 1, PID, sync ? NR_fsync : NR_getdents64, 7, &dir, OFD_DIR, 0);
			dcall(ts + 2, PID, NR_close, 7, &dir, OFD_DIR, 0);
			ofd_end(ts + 2, PID, OFD_DIR, 7, &dir, NR_close, DIO_OFD_CLOSE);
			other(ts + 3, PID, 7);
		}
		stop();
		if (sync) {
			assert_int_equal(nfound, 0);
			continue;
		}
		assert_int_equal(nfound, 1);
		f = finding("redundant-open.churn");
		assert_non_null(f);
		assert_int_equal(f->count, 20);
		assert_string_equal(f->path, "/var/db");
		assert_non_null(strstr(f->title, "0 bytes per open: openat getdents64 close"));
		assert_non_null(strstr(f->message, "can be kept open and used through its fd"));
		assert_null(strstr(f->message, "O_APPEND"));
	}
}

/* ---- create-unlink -------------------------------------------------------------- */

/*
 * SQLite's rollback journal, n transactions: create the journal (a new inode
 * each time), fstat, write the header and pages, fdatasync, open the directory,
 * fdatasync it, close it, write the header again, fdatasync, write the database,
 * fdatasync it, close the journal, unlink it. rel: unlink by a relative name.
 */
static void journal(int n, int rel)
{
	struct dio_file_tag dir = tag_of(70, 1), db = tag_of(71, 1);

	fake_path(&dir, "/var/db");
	fake_path(&db, "/var/db/t.db");
	ocall(T0 - MS, PID, NR_openat, 3, &db, 0x300, -1, 3);
	for (int i = 0; i < n; i++) {
		struct dio_file_tag j = tag_of(72, 100 + (uint32_t)i);
		uint64_t ts = T0 + (uint64_t)i * MS;
		uint32_t ofd = 0x400 + (uint32_t)i;

		fake_path(&j, "/var/db/t.db-journal");
		other(ts, PID, 6);	/* locks, stats of paths */
		ocall(ts + 10, PID, NR_openat, 5, &j, ofd, -1, 5);
		ocall(ts + 11, PID, NR_fstat, 5, &j, ofd, -1, 0);
		for (int w = 0; w < 10; w++)
			ocall(ts + 12, PID, NR_pwrite64, 5, &j, ofd, 512 * w, 512);
		ocall(ts + 13, PID, NR_fdatasync, 5, &j, ofd, -1, 0);
		dcall(ts + 14, PID, NR_openat, 6, &dir, OFD_DIR, 6);
		dcall(ts + 15, PID, NR_fdatasync, 6, &dir, OFD_DIR, 0);
		dcall(ts + 16, PID, NR_close, 6, &dir, OFD_DIR, 0);
		ofd_end(ts + 16, PID, OFD_DIR, 6, &dir, NR_close, DIO_OFD_CLOSE);
		ocall(ts + 17, PID, NR_pwrite64, 5, &j, ofd, 0, 12);
		ocall(ts + 18, PID, NR_fdatasync, 5, &j, ofd, -1, 0);
		ocall(ts + 19, PID, NR_pwrite64, 3, &db, 0x300, 0, 4096);
		ocall(ts + 20, PID, NR_fdatasync, 3, &db, 0x300, -1, 0);
		ocall(ts + 21, PID, NR_close, 5, &j, ofd, -1, 0);
		ofd_end(ts + 21, PID, ofd, 5, &j, NR_close, DIO_OFD_CLOSE);
		unlink_at(ts + 22, PID, rel ? "t.db-journal" : "/var/db/t.db-journal");
	}
}

static void test_a_journal_made_and_deleted_per_transaction_is_create_unlink(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	journal(50, 0);
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.create-unlink");
	assert_non_null(f);
	assert_int_equal(f->count, 50);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->path, "/var/db/t.db-journal");
	assert_int_equal(f->tag.gen, 149);	/* the latest file */
	assert_int_equal(f->ts_first, T0 + 10);
	assert_int_equal(f->ts_last, T0 + 49 * MS + 22);
	assert_string_equal(f->title, "/var/db/t.db-journal created and deleted 50 times in "
			    "49.0 ms; per cycle 2 fsyncs or fdatasyncs, 1 open, 1 close, 1 unlink, "
			    "1 directory sync");
	assert_non_null(strstr(f->message, "Per cycle: 2 fsyncs or fdatasyncs of the file, "
				"1 open, 1 close, 1 other call on it (fstat, fchown, lseek, ...), "
				"1 unlink, and 1 directory sync (3 calls on directories"));
	/* open, fstat, close, unlink and 3 directory calls of each cycle (not the file's
	 * syncs): 350 of 1 + 50 * 28, of 100 ns each */
	assert_non_null(strstr(f->message,
				"are 350 of the 1401 calls the process made (25%), 35 us in all "
				"(29% of its time in calls on storage but syncs), 0.70 ms a second of its run outside syncs"));
	assert_non_null(strstr(f->message, "journal_mode=WAL"));
	/* the second cycle, without its writes */
	assert_string_equal(f->excerpt,
			    "+5.001000 [100/100 logger] openat(5) = 5\n"
			    "+5.001000 [100/100 logger] fstat(5) = 0\n"
			    "+5.001000 [100/100 logger] fdatasync(5) = 0\n"
			    "+5.001000 [100/100 db] openat(6) = 6\n"
			    "+5.001000 [100/100 db] fdatasync(6) = 0\n"
			    "+5.001000 [100/100 db] close(6) = 0\n"
			    "+5.001000 [100/100 logger] fdatasync(5) = 0\n"
			    "+5.001000 [100/100 logger] close(5) = 0\n"
			    "+5.001000 [100/100 db] unlink(-1) = 0\n");
}

/* nr of a process of program prog through fd on tag (NULL: no file), dur ns */
static void pcall(uint64_t ts, uint32_t pid, const char *prog, uint16_t nr, int32_t fd,
		  const struct dio_file_tag *tag, uint32_t ofd, int64_t ret, uint64_t dur)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, prog, nr, fd, tag, -1, ret, dur);

	e.ofd = tag ? ofd : 0;
	if (tag && tag->ino >= 700 && tag->ino < 800)
		e.ftype = DIO_FT_DIR;
	feed(st, &e);
}

/*
 * A test suite of forty sqlite3 processes, one transaction each: each makes,
 * syncs and deletes the journal once (no process reaches min_cycles alone).
 * Together they are one create-unlink finding for the program: count 40, the
 * 40 processes, and the time of the cycles' calls, syncs included.
 */
static void test_forty_processes_each_making_a_journal_are_one_finding(void **state)
{
	struct dio_file_tag dir = tag_of(700, 1);
	const struct fake_finding *f;
	uint64_t cost = 0;

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&dir, "/srv/test");
	for (uint32_t i = 0; i < 40; i++) {
		struct dio_file_tag j = tag_of(72, 500 + i);
		uint32_t pid = 2000 + i, ofd = 0x900 + i;
		uint64_t ts = T0 + (uint64_t)i * 10 * MS;
		struct dio_ev_proc ex = exit_ev(ts + 9 * MS, pid);
		struct sys_ev_buf b;

		fake_path(&j, "/srv/test/app.db-journal");
		for (int n = 0; n < 100; n++)	/* the loader, the schema, the statement */
			pcall(ts + (uint64_t)n * US, pid, "sqlite3", NR_read, 0, NULL, 0, 10, 2 * US);
		pcall(ts + MS, pid, "sqlite3", NR_openat, 5, &j, ofd, 5, 20 * US);
		pcall(ts + MS + 1, pid, "sqlite3", NR_pwrite64, 5, &j, ofd, 512, 5 * US);
		pcall(ts + MS + 2, pid, "sqlite3", NR_fdatasync, 5, &j, ofd, 0, 2 * MS);
		pcall(ts + 3 * MS, pid, "sqlite3", NR_openat, 6, &dir, 0x800 + i, 6, 10 * US);
		pcall(ts + 3 * MS + 1, pid, "sqlite3", NR_fsync, 6, &dir, 0x800 + i, 0, MS);
		pcall(ts + 4 * MS, pid, "sqlite3", NR_close, 6, &dir, 0x800 + i, 0, 3 * US);
		ofd_end(ts + 4 * MS, pid, 0x800 + i, 6, &dir, NR_close, DIO_OFD_CLOSE);
		pcall(ts + 4 * MS + 1, pid, "sqlite3", NR_close, 5, &j, ofd, 0, 4 * US);
		ofd_end(ts + 4 * MS + 1, pid, ofd, 5, &j, NR_close, DIO_OFD_CLOSE);
		feed(st, with_str(&b, sys_ev(ts + 5 * MS, pid, pid, "sqlite3", NR_unlink, -1, NULL,
					     -1, 0, 30 * US), "/srv/test/app.db-journal"));
		feed(st, &ex);
		/* open and close of the journal (not its sync); the directory's three; the unlink */
		cost += 20 * US + 4 * US + 10 * US + MS + 3 * US + 30 * US;
	}
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.create-unlink");
	assert_non_null(f);
	assert_int_equal(f->count, 40);
	assert_int_equal(f->processes, 40);
	assert_int_equal(f->cost_ns, cost);
	assert_string_equal(f->comm, "sqlite3");
	assert_string_equal(f->path, "/srv/test/app.db-journal");
	assert_string_equal(f->title, "/srv/test/app.db-journal created and deleted 40 times in "
			    "394.0 ms; per cycle 1 fsync or fdatasync, 1 open, 1 close, 1 unlink, 1 "
			    "directory sync");
	assert_non_null(strstr(f->message, "40 processes of sqlite3 (pid 2000 among them) made "
				"/srv/test/app.db-journal"));
	assert_non_null(strstr(f->message,
				"are 240 of the 4320 calls its processes made (5.6%), 42.7 ms in "
				"all (100% of their time in calls on storage but syncs), 525.62 ms a "
				"second of their run outside syncs"));
}

/*
 * A backup tool's lock: a roster file made when the lock is taken and deleted
 * when it is let go, 11 times, and while it is held the tool saves 9 other
 * files in the same directory, each with a sync of the directory (2 ms). The
 * cycle is charged one directory sync of its window, not nine: 11 cycles of
 * 3 calls on the directory, not 27.
 */
static void test_a_lock_held_while_other_files_are_saved_is_charged_one_sync(void **state)
{
	struct dio_file_tag dir = tag_of(703, 1);
	const struct fake_finding *f;

	(void)state;
	opts_reset("min_cost_rate", "0", "min_share", "0", NULL);
	start();
	fake_path(&dir, "/srv/cache");
	for (uint32_t i = 0; i < 11; i++) {
		struct dio_file_tag r = tag_of(76, 100 + i);
		uint64_t ts = T0 + (uint64_t)i * 100 * MS;
		uint32_t ofd = 0xc00 + 16 * i;
		struct sys_ev_buf b;

		fake_path(&r, "/srv/cache/lock.roster");
		pcall(ts, 5000, "borg", NR_openat, 5, &r, ofd, 5, 20 * US);
		pcall(ts + 1, 5000, "borg", NR_write, 5, &r, ofd, 60, 5 * US);
		pcall(ts + 2, 5000, "borg", NR_close, 5, &r, ofd, 0, 4 * US);
		ofd_end(ts + 2, 5000, ofd, 5, &r, NR_close, DIO_OFD_CLOSE);
		for (uint32_t d = 0; d < 9; d++) {
			uint64_t t = ts + (1 + d) * 5 * MS;
			uint32_t dofd = ofd + 1 + d;

			pcall(t, 5000, "borg", NR_openat, 6, &dir, dofd, 6, 10 * US);
			pcall(t + 1, 5000, "borg", NR_fsync, 6, &dir, dofd, 0, 2 * MS);
			pcall(t + 2 * MS + 2, 5000, "borg", NR_close, 6, &dir, dofd, 0, 3 * US);
			ofd_end(t + 2 * MS + 2, 5000, dofd, 6, &dir, NR_close, DIO_OFD_CLOSE);
		}
		feed(st, with_str(&b, sys_ev(ts + 60 * MS, 5000, 5000, "borg", NR_unlink, -1, NULL,
					     -1, 0, 30 * US), "/srv/cache/lock.roster"));
	}
	stop();
	f = finding("redundant-open.create-unlink");
	assert_non_null(f);
	assert_int_equal(f->count, 11);
	assert_non_null(strstr(f->title, "per cycle 0 fsyncs or fdatasyncs, 1 open, 1 close, "
			       "1 unlink, 1 directory sync"));
	assert_non_null(strstr(f->message, "and 1 directory sync (3 calls on directories"));
	/* per cycle: the roster's open, close and unlink, and one of the nine syncs with
	 * its open and close */
	assert_int_equal(f->cost_ns, 11 * (20 * US + 4 * US + 30 * US + 10 * US + 2 * MS + 3 * US));
}

/*
 * A parallel build: twenty cc1 processes each read a header whole twice,
 * microseconds among 500 other calls of 10 us. Each process is a duplicate-read
 * candidate, and they are one program's; but the reads again cost 0.1 ms in
 * all, far under min_cost_ms (1 ms): no finding. Without the floors, the one
 * finding of the program says the 20 processes.
 */
static void test_a_build_reading_headers_again_is_no_finding(void **state)
{
	struct dio_file_tag h = tag_of(75, 1);

	(void)state;
	for (int floors = 1; floors >= 0; floors--) {
		if (floors)
			opts_reset("min_cost_rate", "1", NULL);
		else
			opts_reset("min_cost_rate", "0", "min_share", "0", NULL);
		start();
		fake_path(&h, "/usr/include/stdio.h");
		for (uint32_t i = 0; i < 20; i++) {
			uint32_t pid = 3000 + i;
			uint64_t ts = T0 + (uint64_t)i * 50 * MS;
			struct dio_ev_proc ex = exit_ev(ts + 40 * MS, pid);

			for (int n = 0; n < 500; n++)
				pcall(ts + (uint64_t)n * 50 * US, pid, "cc1", NR_read, 0, NULL, 0, 10,
				      10 * US);
			for (uint32_t r = 0; r < 2; r++) {
				struct dio_ev_syscall e;
				uint32_t ofd = 0xa00 + 2 * i + r;
				uint64_t t = ts + 30 * MS + r * MS;

				pcall(t, pid, "cc1", NR_openat, 4, &h, ofd, 4, 1 * US);
				e = sys_ev(t + 1, pid, pid, "cc1", NR_read, 4, &h, 0, 800, 1 * US);
				e.ofd = ofd;
				e.args[2] = 4096;
				feed(st, &e);
				pcall(t + 2, pid, "cc1", NR_close, 4, &h, ofd, 0, 1 * US);
				ofd_end(t + 2, pid, ofd, 4, &h, NR_close, DIO_OFD_CLOSE);
			}
			feed(st, &ex);
		}
		stop();
		if (floors) {
			/* under the floors: sent for a --baseline only */
			assert_int_equal(nfound, 0);
			assert_int_equal(nbelow, 1);
		} else {
			assert_int_equal(nfound, 1);
			assert_string_equal(found[0].code, "redundant-open.duplicate-read");
			assert_int_equal(found[0].processes, 20);
			assert_int_equal(found[0].count, 40);
			assert_string_equal(found[0].comm, "cc1");
		}
	}
}

/* O_PATH opens of directories and files are path lookups, not windows: no churn */
static void test_o_path_opens_are_no_churn(void **state)
{
	struct dio_file_tag root = tag_of(701, 1), usr = tag_of(702, 1);

	(void)state;
	opts_reset("min_cost_rate", "0", "min_share", "0", NULL);
	start();
	fake_path(&root, "/");
	fake_path(&usr, "/usr");
	for (uint32_t i = 0; i < 24; i++) {
		const struct dio_file_tag *t = i % 2 ? &usr : &root;
		struct dio_ev_syscall e = sys_ev(T0 + i * MS, 4000, 4000, "postgres", NR_openat, 7,
						 t, -1, 7, US);

		e.ftype = DIO_FT_DIR;
		e.ofd = 0xb00 + i;
		e.args[2] = 010000000 | 0200000;	/* O_PATH | O_DIRECTORY */
		feed(st, &e);
		pcall(T0 + i * MS + 1, 4000, "postgres", NR_close, 7, t, 0xb00 + i, 0, US);
		ofd_end(T0 + i * MS + 1, 4000, 0xb00 + i, 7, t, NR_close, DIO_OFD_CLOSE);
	}
	stop();
	assert_int_equal(nfound, 0);
}

static void test_a_relative_unlink_ends_the_cycle(void **state)
{
	(void)state;
	opts_reset(NULL);
	start();
	journal(10, 1);
	stop();
	assert_int_equal(nfindings("redundant-open.create-unlink"), 1);
	assert_int_equal(finding("redundant-open.create-unlink")->count, 10);
}

/* a lock file: create, write the pid, fsync, close, unlink; small windows, not churn */
static void test_small_files_made_and_deleted_are_cycles_not_churn(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	for (int i = 0; i < 20; i++) {
		struct dio_file_tag l = tag_of(80, 1 + (uint32_t)i);
		uint64_t ts = T0 + (uint64_t)i * MS;

		fake_path(&l, "/run/app.lock");
		ocall(ts, PID, NR_openat, 4, &l, 0x700, -1, 4);
		ocall(ts + 1, PID, NR_write, 4, &l, 0x700, 0, 6);
		ocall(ts + 2, PID, NR_fsync, 4, &l, 0x700, -1, 0);
		ocall(ts + 3, PID, NR_close, 4, &l, 0x700, -1, 0);
		ofd_end(ts + 3, PID, 0x700, 4, &l, NR_close, DIO_OFD_CLOSE);
		unlink_at(ts + 4, PID, "/run/app.lock");
		other(ts + 5, PID, 10);
	}
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.create-unlink");
	assert_non_null(f);
	assert_int_equal(f->count, 20);
	assert_string_equal(f->title, "/run/app.lock created and deleted 20 times in 19.0 ms; "
			    "per cycle 1 fsync or fdatasync, 1 open, 1 close, 1 unlink, "
			    "0 directory syncs");
}

/* the file is kept and overwritten (journal_mode=PERSIST): no cycle, no churn */
static void test_a_kept_journal_is_no_finding(void **state)
{
	struct dio_file_tag j = tag_of(72, 1);

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&j, "/var/db/t.db-journal");
	ocall(T0, PID, NR_openat, 5, &j, 0x400, -1, 5);
	for (int i = 0; i < 50; i++) {
		uint64_t ts = T0 + (uint64_t)i * MS;

		for (int w = 0; w < 10; w++)
			ocall(ts + 1, PID, NR_pwrite64, 5, &j, 0x400, 512 * w, 512);
		ocall(ts + 2, PID, NR_fdatasync, 5, &j, 0x400, -1, 0);
		other(ts + 3, PID, 10);
	}
	stop();
	assert_int_equal(nfound, 0);
}

/* ---- duplicate-read ----------------------------------------------------------- */

/* a configuration of size bytes read whole: open, fstat, read, read (0), close */
static void read_config(uint64_t ts, const struct dio_file_tag *cfg, uint32_t ofd, int64_t size)
{
	ocall(ts, PID, NR_openat, 3, cfg, ofd, -1, 3);
	ocall(ts + 1, PID, NR_fstat, 3, cfg, ofd, -1, 0);
	oread(ts + 2, PID, 3, cfg, ofd, 0, 4096, size);
	oread(ts + 3, PID, 3, cfg, ofd, size, 4096, 0);
	ocall(ts + 4, PID, NR_close, 3, cfg, ofd, -1, 0);
	ofd_end(ts + 4, PID, ofd, 3, cfg, NR_close, DIO_OFD_CLOSE);
}

/* a command reading its configuration times times among 40 calls of other work */
static void config_reads(int times, int change)
{
	struct dio_file_tag cfg = tag_of(90, 1);

	fake_path(&cfg, "/etc/tool.conf");
	for (int i = 0; i < times; i++) {
		uint64_t ts = T0 + (uint64_t)i * MS;

		read_config(ts, &cfg, 0x900 + (uint32_t)i, 300);
		if (change && i == 0) {	/* the tool rewrites it */
			ocall(ts + 10, PID, NR_openat, 4, &cfg, 0x990, -1, 4);
			ocall(ts + 11, PID, NR_write, 4, &cfg, 0x990, 0, 300);
			ocall(ts + 12, PID, NR_close, 4, &cfg, 0x990, -1, 0);
			ofd_end(ts + 12, PID, 0x990, 4, &cfg, NR_close, DIO_OFD_CLOSE);
		}
		other(ts + 20, PID, 40 / times);
	}
}

static void test_a_configuration_read_three_times_is_duplicate_read(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	config_reads(3, 0);
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.duplicate-read");
	assert_non_null(f);
	assert_int_equal(f->count, 3);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->path, "/etc/tool.conf");
	assert_int_equal(f->ts_first, T0);
	assert_int_equal(f->ts_last, T0 + 2 * MS + 4);
	assert_string_equal(f->title, "/etc/tool.conf read whole 3 times while unchanged, "
			    "600 bytes read again");
	/* 5 calls of each read after the first, of 3 * 5 + 39 */
	assert_non_null(strstr(f->message,
				"are 10 of the 54 calls the process made (19%), 1.0 us in all (19% "
				"of its time in calls on storage but syncs)"));
	assert_string_equal(f->excerpt,
			    "+5.001000 [100/100 logger] openat(3) = 3\n"
			    "+5.001000 [100/100 logger] fstat(3) = 0\n"
			    "+5.001000 [100/100 cfg] read(3) = 300\n"
			    "+5.001000 [100/100 cfg] read(3) = 0\n"
			    "+5.001000 [100/100 logger] close(3) = 0\n");
}

static void test_a_configuration_read_once_or_changed_between_is_no_finding(void **state)
{
	(void)state;
	opts_reset(NULL);
	start();
	config_reads(1, 0);
	stop();
	assert_int_equal(nfound, 0);
	/* written after the first read: the second is no duplicate, the third is */
	opts_reset("min_share", "0", NULL);
	start();
	config_reads(3, 1);
	stop();
	assert_int_equal(nfindings("redundant-open.duplicate-read"), 1);
	assert_int_equal(finding("redundant-open.duplicate-read")->count, 2);
	start();
	config_reads(2, 1);
	stop();
	assert_int_equal(nfound, 0);
}

/* read whole 20 times: each window is small, but reading again is the pattern, not churn */
static void test_whole_reads_again_are_duplicates_not_churn(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	start();
	config_reads(20, 0);
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.duplicate-read");
	assert_non_null(f);
	assert_int_equal(f->count, 20);
	/* 19 reads again of 5 calls, of 20 * 5 + 40 */
	assert_non_null(strstr(f->message,
				"are 95 of the 140 calls the process made (68%), 9.5 us in all (68% "
				"of its time in calls on storage but syncs)"));
}

/* a read that stops short of the end, or the file grown between: not the same content */
static void test_partial_reads_and_new_sizes_are_no_duplicates(void **state)
{
	struct dio_file_tag cfg = tag_of(90, 1);

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&cfg, "/etc/tool.conf");
	read_config(T0, &cfg, 0x900, 300);
	read_config(T0 + MS, &cfg, 0x901, 310);
	ocall(T0 + 2 * MS, PID, NR_openat, 3, &cfg, 0x902, -1, 3);
	oread(T0 + 2 * MS + 1, PID, 3, &cfg, 0x902, 0, 100, 100);
	ocall(T0 + 2 * MS + 2, PID, NR_close, 3, &cfg, 0x902, -1, 0);
	ofd_end(T0 + 2 * MS + 2, PID, 0x902, 3, &cfg, NR_close, DIO_OFD_CLOSE);
	stop();
	assert_int_equal(nfound, 0);
}

/* ---- thresholds and flood control ------------------------------------------------ */

/* windows Redis-like windows among others calls of other work: floor and share edges */
static void test_churn_threshold_edges(void **state)
{
	static const struct {
		const char *option, *short_of, *met;
		int windows, others;
	} cases[] = {
		{ "min_windows", "6", "5", 5, 0 },
		/* 10 windows: 40 avoidable calls of 50 + 350 = 400: 10% */
		{ "min_share", "10.1", "10", 10, 350 },
		{ "max_bytes", "64", "65", 10, 0 },
		{ "max_data_calls", "0", "1", 10, 0 },
	};
	struct dio_file_tag a = tag_of(10, 1);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int met = 0; met < 2; met++) {
			opts_reset(cases[i].option, met ? cases[i].met : cases[i].short_of, NULL);
			start();
			for (int w = 0; w < cases[i].windows; w++)
				window(T0 + (uint64_t)w * MS, PID, 3, &a, 1, LINE);
			other(T0 + 100 * MS, PID, cases[i].others);
			stop();
			if (nfound != met)
				fail_msg("%s=%s: %d findings", cases[i].option,
					 met ? cases[i].met : cases[i].short_of, nfound);
		}
	}
}

/* the same windows in a process that does much more: no measurable cost */
static void test_churn_in_a_busy_process_is_no_finding(void **state)
{
	(void)state;
	opts_reset(NULL);
	start();
	shell_appends(50, 60, OFD_F);
	stop();
	assert_int_equal(nfound, 0);
}

static void test_many_files_in_one_process_give_one_finding(void **state)
{
	const struct fake_finding *f;
	char name[32];

	(void)state;
	opts_reset(NULL);
	start();
	for (int k = 0; k < 10; k++) {
		struct dio_file_tag t = tag_of(200 + (uint64_t)k, 1);

		snprintf(name, sizeof(name), "/spool/%d", k);
		fake_path(&t, name);
		/* file k churns 11 + k times; files 0-4 after the others */
		for (int w = 0; w < 11 + k; w++)
			window(T0 + (uint64_t)((k + 5) % 10) * 100 * MS + (uint64_t)w * MS, PID,
			       3, &t, 1, LINE);
	}
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.churn");
	assert_non_null(f);
	assert_int_equal(f->count, 155);
	assert_string_equal(f->path, "/spool/9");
	assert_non_null(strstr(f->title, "/spool/9 and 9 other files opened and closed 155 "
			       "times in "));
	assert_non_null(strstr(f->message, "Process 100 (logger) opened 10 files and closed "
			       "them again 155 times"));
	assert_non_null(strstr(f->message, "Files: /spool/9 (20), /spool/8 (19), /spool/7 (18), "
			       "/spool/6 (17), /spool/5 (16), /spool/4 (15) and 4 more (50 times)"));
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
		unlink_at(ts + 6 * US, PID, "/es");
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
	other(T0 + 5000 * MS, PID, 300);
	assert_int_equal(nfound, 0);
	/* a program's finding comes when the trace ends: its processes added up */
	feed(st, &ex);
	other(T0 + 10001 * MS, PID + 3, 1);
	assert_int_equal(nfound, 0);
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.sync-reopen");
	assert_non_null(f);
	/* 10 opens and closes of 335 calls, shorter than the others: a hint */
	assert_int_equal(f->severity, DIO_SEV_INFO);
	assert_string_equal(f->title, "5 times a file already open was opened again only to "
			    "fsync it: /es");
	assert_int_equal(f->count, 5);
	assert_int_equal(f->tid, PID + 1);
	assert_string_equal(f->comm, "health");
	assert_string_equal(f->path, "/es");
	assert_int_equal(f->ts_first, T0 + 2 * US);
	assert_int_equal(f->ts_last, T0 + 200 * MS + 4 * US);
	assert_non_null(strstr(f->message, "5 times, in threads: health, health2."));
	assert_non_null(strstr(f->message, "fsync the existing fd"));
	/* 5 rounds of 7 calls and 300 others */
	assert_non_null(strstr(f->message,
				"are 10 of the 335 calls the process made (3.0%), 0.1 us in all "
				"(0.3% of its time in calls on storage but syncs)"));
	assert_string_equal(f->excerpt,
			    "+5.000002 [100/101 health] openat(6) = 6\n"
			    "+5.000003 [100/101 health] fsync(6) = 0\n"
			    "+5.000004 [100/101 health] close(6) = 0\n");
}

/* a new thread may name itself after its first call: it is named as its last call saw it */
static void test_a_thread_named_late_is_named_by_its_name_at_the_end(void **state)
{
	struct dio_file_tag t = tag_of(20, 1);
	struct dio_ev_syscall e[4];

	(void)state;
	opts_reset(NULL);
	start();
	e[0] = sys_ev(T0, PID, PID + 1, "logger", NR_openat, 5, &t, -1, 5, 10);
	e[1] = sys_ev(T0 + 1, PID, PID + 1, "logger", NR_openat, 6, &t, -1, 6, 10);
	e[2] = sys_ev(T0 + 2, PID, PID + 1, "health", NR_fsync, 6, &t, -1, 0, 10);
	e[3] = sys_ev(T0 + 3, PID, PID + 1, "health", NR_close, 6, &t, -1, 0, 10);
	for (int i = 0; i < 4; i++)
		feed(st, &e[i]);
	stop();
	assert_int_equal(nfindings("redundant-open.sync-reopen"), 1);
	assert_string_equal(found[0].comm, "health");
	assert_non_null(strstr(found[0].message, "in threads: health."));
}

static void test_fsync_on_the_open_fd_is_no_finding(void **state)
{
	(void)state;
	opts_reset(NULL);
	start();
	health(5, 0, PID, "health");
	other(T0 + 1000 * MS, PID, 300);	/* the rest of the node's work */
	stop();
	assert_int_equal(nfound, 0);
}

static void test_sync_reopen_threshold_edge_and_severity(void **state)
{
	(void)state;
	opts_reset("min_sync_reopens", "3", NULL);
	start();
	health(2, 1, PID, "health");
	stop();
	assert_int_equal(nfound, 0);
	start();
	health(3, 1, PID, "health");
	stop();
	assert_int_equal(nfindings("redundant-open.sync-reopen"), 1);
	/* 6 of its 18 calls: a measurable cost */
	assert_int_equal(found[0].severity, DIO_SEV_WARNING);
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
	stop();
	assert_int_equal(nfound, 0);
}

/* a dup of the fd is the same description: fsync through it is no reopen */
static void test_a_dup_synced_is_no_reopen(void **state)
{
	struct dio_file_tag t = tag_of(20, 1);

	(void)state;
	opts_reset(NULL);
	start();
	ocall(T0, PID, NR_openat, 5, &t, 0x50, -1, 5);
	ocall(T0 + 1, PID, NR_write, 5, &t, 0x50, 0, 10);
	ocall(T0 + 2, PID, NR_dup2, 5, &t, 0x50, -1, 6);
	ocall(T0 + 3, PID, NR_fsync, 6, &t, 0x50, -1, 0);
	ocall(T0 + 4, PID, NR_close, 6, &t, 0x50, -1, 0);
	ocall(T0 + 5, PID, NR_close, 5, &t, 0x50, -1, 0);
	ofd_end(T0 + 5, PID, 0x50, 5, &t, NR_close, DIO_OFD_CLOSE);
	stop();
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
	stop();
	assert_int_equal(nfound, 0);
}

/* windows that end with the process (DIO_OFD_EXIT after its exit record) count */
static void test_windows_ended_by_the_exit_count(void **state)
{
	struct dio_file_tag a = tag_of(10, 1);
	struct dio_ev_proc ex = exit_ev(T0 + 100 * MS, PID);

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&a, "/log");
	/* 4 windows closed, a fifth left open when the process ends */
	for (int i = 0; i < 5; i++) {
		uint64_t ts = T0 + (uint64_t)i * MS;

		ocall(ts, PID, NR_openat, 3, &a, 0x60 + (uint32_t)i, -1, 3);
		ocall(ts + 1, PID, NR_write, 3, &a, 0x60 + (uint32_t)i, 64 * i, 64);
		if (i == 4)
			break;
		ocall(ts + 2, PID, NR_close, 3, &a, 0x60 + (uint32_t)i, -1, 0);
		ofd_end(ts + 2, PID, 0x60 + (uint32_t)i, 3, &a, NR_close, DIO_OFD_CLOSE);
	}
	feed(st, &ex);
	ofd_end(T0 + 100 * MS, PID, 0x64, 3, &a, 0, DIO_OFD_EXIT);
	other(T0 + 101 * MS, PID + 1, 1);
	stop();
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 5);
}

/* a pid that execs runs another program: what each loads once is no churn */
static void test_an_exec_starts_another_program(void **state)
{
	struct dio_file_tag cache = tag_of(11, 1), a = tag_of(10, 1);

	(void)state;
	opts_reset(NULL);
	for (int execs = 0; execs < 2; execs++) {
		start();
		for (int i = 0; i < 10; i++) {
			uint64_t ts = T0 + (uint64_t)i * MS;
			struct dio_ev_proc ex = exit_ev(ts + 10, PID);

			ocall(ts, PID, NR_openat, 3, &cache, 0x70, -1, 3);
			ocall(ts + 1, PID, NR_fstat, 3, &cache, 0x70, -1, 0);
			ocall(ts + 2, PID, NR_close, 3, &cache, 0x70, -1, 0);
			ofd_end(ts + 2, PID, 0x70, 3, &cache, NR_close, DIO_OFD_CLOSE);
			if (!execs)
				continue;
			/* a log opened without O_CLOEXEC: its end by the exec is the old one's */
			ocall(ts + 3, PID, NR_openat, 4, &a, 0x71, -1, 4);
			ex.kind = DIO_PROC_EXEC;
			ex.flags = 0;
			feed(st, &ex);
			ofd_end(ts + 10, PID, 0x71, 4, &a, 0, DIO_OFD_EXEC);
		}
		stop();
		/* one program opening the cache ten times is churn; ten programs, once each, not */
		assert_int_equal(nfound, !execs);
	}
}

/* a description still open when the trace ends is no open-close window */
static void test_a_description_open_at_the_end_is_no_window(void **state)
{
	struct dio_file_tag a = tag_of(10, 1);

	(void)state;
	opts_reset("min_windows", "1", NULL);
	start();
	ocall(T0, PID, NR_openat, 3, &a, 0x60, -1, 3);
	ocall(T0 + 1, PID, NR_write, 3, &a, 0x60, 0, 64);
	ofd_end(T0 + 2, PID, 0x60, 3, &a, 0, DIO_OFD_END);
	stop();
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
	stop();
	assert_int_equal(nfound, 1);
	f = finding("redundant-open.seek");
	assert_non_null(f);
	assert_string_equal(f->title, "10 lseek calls set the offset the fd already had, before "
			    "a read or write: /data");
	assert_int_equal(f->count, 10);
	/* half of its calls */
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_int_equal(f->ts_first, T0 + MS);
	assert_int_equal(f->ts_last, T0 + 10 * MS + US);
	assert_non_null(strstr(f->message, "pread/pwrite"));
	assert_non_null(strstr(f->message,
				"are 10 of the 22 calls the process made (45%), 1.0 us in all (45% "
				"of its time in calls on storage but syncs), 0.09 ms a second of its run outside syncs"));
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
	stop();
	assert_int_equal(nfound, 0);
	start();
	reseek(10, 1);		/* SEEK_END of a file only appended to: the same offset */
	other(T0 + 100 * MS, PID, 200);
	stop();
	assert_int_equal(nfindings("redundant-open.seek"), 1);
	/* 10 of 222 calls: a hint */
	assert_int_equal(found[0].severity, DIO_SEV_INFO);
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
	stop();
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
	stop();
	assert_int_equal(nfindings("redundant-open.seek"), 1);
	assert_int_equal(finding("redundant-open.seek")->count, 1);
}

/* a crafted file's offset and return whose sum passes INT64_MAX: it wraps, no overflow */
static void test_an_offset_at_the_end_of_the_range_is_no_overflow(void **state)
{
	struct dio_file_tag a = tag_of(30, 1);

	(void)state;
	start();
	fake_path(&a, "/data");
	call(T0, PID, NR_openat, 4, &a, -1, 4);
	call(T0 + 1, PID, NR_write, 4, &a, INT64_MAX, 1424);
	call(T0 + 2, PID, NR_write, 4, &a, INT64_MIN, LINE);
	call(T0 + 3, PID, NR_close, 4, &a, -1, 0);
	stop();
	assert_int_equal(nfindings("redundant-open.seek"), 0);
}

/*
 * Without description ids another fd on the file may be a dup: a move through
 * it makes this fd's offset unknown. With them, two opens have two offsets.
 */
static void test_a_move_through_another_fd_forgets_the_offset_unless_known_apart(void **state)
{
	struct dio_file_tag a = tag_of(30, 1);

	(void)state;
	for (uint32_t ofd = 0; ofd <= 0x80; ofd += 0x80) {
		opts_reset("min_seeks", "1", NULL);
		start();
		ocall(T0, PID, NR_openat, 4, &a, ofd, -1, 4);
		ocall(T0 + 1, PID, NR_openat, 5, &a, ofd + !!ofd, -1, 5);
		ocall(T0 + 2, PID, NR_write, 5, &a, ofd + !!ofd, 0, LINE);
		seek(T0 + 3, PID, 4, &a, 0, 0, 0);
		ocall(T0 + 4, PID, NR_write, 4, &a, ofd, 0, LINE);
		stop();
		assert_int_equal(nfound, 0);
	}
	/* the seek record itself has no ofd in seek(): give it one */
	opts_reset("min_seeks", "1", NULL);
	start();
	ocall(T0, PID, NR_openat, 4, &a, 0x80, -1, 4);
	ocall(T0 + 1, PID, NR_openat, 5, &a, 0x81, -1, 5);
	ocall(T0 + 2, PID, NR_write, 5, &a, 0x81, 0, LINE);
	{
		struct dio_ev_syscall e = sys_ev(T0 + 3, PID, PID, "logger", NR_lseek, 4, &a, 0, 0,
						 100);

		e.ofd = 0x80;
		feed(st, &e);
	}
	ocall(T0 + 4, PID, NR_write, 4, &a, 0x80, 0, LINE);
	stop();
	assert_int_equal(nfindings("redundant-open.seek"), 1);
}

/* a child seeks on a description its parent opened: the lseeks are the child's */
static void test_seeks_are_the_callers(void **state)
{
	struct dio_file_tag a = tag_of(30, 1);

	(void)state;
	opts_reset(NULL);
	start();
	fake_path(&a, "/data");
	ocall(T0, PID, NR_openat, 4, &a, 0x90, -1, 4);
	for (int i = 0; i < 10; i++) {
		struct dio_ev_syscall e = sys_ev(T0 + 10 + 2 * (uint64_t)i, PID + 1, PID + 1, "child",
						 NR_lseek, 4, &a, LINE * i, LINE * i, 100);

		e.ofd = 0x90;
		feed(st, &e);
		ocall(T0 + 11 + 2 * (uint64_t)i, PID + 1, NR_write, 4, &a, 0x90, LINE * i, LINE);
	}
	stop();
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].code, "redundant-open.seek");
	assert_int_equal(found[0].pid, PID + 1);
	assert_int_equal(found[0].tid, PID + 1);
	assert_int_equal(found[0].count, 10);
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
	journal(20, 0);
	config_reads(3, 0);
}

static void test_the_same_stream_gives_the_same_findings(void **state)
{
	static struct fake_finding first[FAKE_FINDINGS];
	int n;

	(void)state;
	opts_reset("min_share", "0", NULL);	/* every code, however busy the process */
	start();
	mixed();
	stop();
	n = nfound;
	assert_int_equal(n, 5);	/* the journal's directory syncs are no churn */
	memcpy(first, found, sizeof(first));
	start();
	mixed();
	stop();
	assert_int_equal(nfound, n);
	assert_memory_equal(first, found, sizeof(first));
	/* oldest first, then by code; one per code and process */
	assert_string_equal(found[0].code, "redundant-open.churn");
	assert_int_equal(found[0].pid, PID + 1);
	assert_string_equal(found[1].code, "redundant-open.duplicate-read");
	assert_string_equal(found[2].code, "redundant-open.create-unlink");
	assert_string_equal(found[3].code, "redundant-open.sync-reopen");
	assert_string_equal(found[4].code, "redundant-open.seek");
}

static void test_state_stays_bounded_on_a_million_events(void **state)
{
	size_t after_init;
	uint64_t ts = T0;

	(void)state;
	opts_reset("max_procs", "64", "max_files", "128", "max_fds", "256", "excerpts", "8",
		   "max_candidates", "16", "min_windows", "2", NULL);
	start();
	after_init = heap_in_use();
	/* new processes, files and descriptions all the time; findings, too */
	for (uint32_t i = 0; i < 120000; i++) {
		uint32_t pid = 1000 + i % 5000, ofd = i % 2 ? 0 : 1 + i % 3000;
		struct dio_file_tag t = tag_of(1000 + i % 700, i % 3);
		int32_t fd = 3 + (int32_t)(i % 1000);
		char name[32];

		if (i < 64) {
			snprintf(name, sizeof(name), "/f%u", i);
			fake_path(&t, name);
		}
		ocall(ts++, pid, NR_openat, fd, &t, ofd, -1, fd);
		ocall(ts++, pid, NR_openat, fd + 1, &t, ofd + !!ofd, -1, fd + 1);
		ocall(ts++, pid, NR_fsync, fd + 1, &t, ofd + !!ofd, -1, 0);
		ocall(ts++, pid, NR_close, fd + 1, &t, ofd + !!ofd, -1, 0);
		if (ofd)
			ofd_end(ts++, pid, ofd + 1, fd + 1, &t, NR_close, DIO_OFD_CLOSE);
		seek(ts++, pid, fd, &t, 0, 0, 0);
		ocall(ts++, pid, NR_write, fd, &t, ofd, 0, 10);
		if (i % 3) {
			ocall(ts++, pid, NR_close, fd, &t, ofd, -1, 0);
			if (ofd)
				ofd_end(ts++, pid, ofd, fd, &t, NR_close, DIO_OFD_CLOSE);
		} else {
			oread(ts++, pid, fd, &t, ofd, 10, 100, 0);
		}
		if (i % 7 == 0)
			unlink_at(ts++, pid, i < 64 ? name : "x");
		ocall(ts++, pid + 1, NR_pwrite64, fd, &t, ofd, 0, 10);
		assert_true(heap_in_use() <= after_init);
	}
	assert_true(ts - T0 >= 1000000);
	stop();
}

/* what the README says the defaults take */
static void test_the_defaults_take_what_the_readme_says(void **state)
{
	size_t used;

	(void)state;
	opts_reset(NULL);
	used = init_heap_bytes();
	/* valgrind's allocator does not show in mallinfo2 */
	if (!used)
		skip();
	if (used < 13650000 || used > 13850000)
		fail_msg("%zu bytes after init", used);
}

static void test_bad_options_are_refused(void **state)
{
	void *s = NULL;

	(void)state;
	opts_reset("max_fds", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &s), -EINVAL);
	assert_non_null(strstr(logged, "max_fds"));
	opts_reset("min_share", "-1", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &s), -EINVAL);
	opts_reset("min_share", "101", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &s), -EINVAL);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_churn_reports_windows_rate_bytes_and_calls),
		cmocka_unit_test(test_keeping_the_fd_open_is_no_finding),
		cmocka_unit_test(test_pseudo_files_are_no_churn),
		cmocka_unit_test(test_churn_names_the_most_common_sequence),
		cmocka_unit_test(test_a_shell_appending_with_redirects_is_churn),
		cmocka_unit_test(test_without_description_ids_windows_are_per_fd),
		cmocka_unit_test(test_calls_through_a_dup_or_a_child_belong_to_the_window),
		cmocka_unit_test(test_three_opens_at_start_are_no_finding),
		cmocka_unit_test(test_directory_sync_windows_are_no_churn),
		cmocka_unit_test(test_a_journal_made_and_deleted_per_transaction_is_create_unlink),
		cmocka_unit_test(test_a_relative_unlink_ends_the_cycle),
		cmocka_unit_test(test_forty_processes_each_making_a_journal_are_one_finding),
		cmocka_unit_test(test_a_lock_held_while_other_files_are_saved_is_charged_one_sync),
		cmocka_unit_test(test_a_build_reading_headers_again_is_no_finding),
		cmocka_unit_test(test_o_path_opens_are_no_churn),
		cmocka_unit_test(test_small_files_made_and_deleted_are_cycles_not_churn),
		cmocka_unit_test(test_a_kept_journal_is_no_finding),
		cmocka_unit_test(test_a_configuration_read_three_times_is_duplicate_read),
		cmocka_unit_test(test_a_configuration_read_once_or_changed_between_is_no_finding),
		cmocka_unit_test(test_whole_reads_again_are_duplicates_not_churn),
		cmocka_unit_test(test_partial_reads_and_new_sizes_are_no_duplicates),
		cmocka_unit_test(test_churn_threshold_edges),
		cmocka_unit_test(test_churn_in_a_busy_process_is_no_finding),
		cmocka_unit_test(test_many_files_in_one_process_give_one_finding),
		cmocka_unit_test(test_sync_reopen_reports_count_paths_threads),
		cmocka_unit_test(test_a_thread_named_late_is_named_by_its_name_at_the_end),
		cmocka_unit_test(test_fsync_on_the_open_fd_is_no_finding),
		cmocka_unit_test(test_sync_reopen_threshold_edge_and_severity),
		cmocka_unit_test(test_a_second_fd_that_writes_or_a_sequential_reopen_is_no_finding),
		cmocka_unit_test(test_a_dup_synced_is_no_reopen),
		cmocka_unit_test(test_a_reused_pid_inherits_no_fds),
		cmocka_unit_test(test_windows_ended_by_the_exit_count),
		cmocka_unit_test(test_an_exec_starts_another_program),
		cmocka_unit_test(test_a_description_open_at_the_end_is_no_window),
		cmocka_unit_test(test_seek_to_the_same_offset_reports_count),
		cmocka_unit_test(test_seek_threshold_edge_and_seek_end),
		cmocka_unit_test(test_seeks_that_move_or_only_ask_are_no_finding),
		cmocka_unit_test(test_pwrite_leaves_the_offset),
		cmocka_unit_test(test_an_offset_at_the_end_of_the_range_is_no_overflow),
		cmocka_unit_test(test_a_move_through_another_fd_forgets_the_offset_unless_known_apart),
		cmocka_unit_test(test_seeks_are_the_callers),
		cmocka_unit_test(test_the_same_stream_gives_the_same_findings),
		cmocka_unit_test(test_state_stays_bounded_on_a_million_events),
		cmocka_unit_test(test_the_defaults_take_what_the_readme_says),
		cmocka_unit_test(test_bad_options_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
