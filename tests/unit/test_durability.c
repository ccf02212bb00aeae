// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The durability analyzer with the fake host: each rule on the sequence of
 * calls it predicts a crash for, with its numbers (bytes at risk, processes
 * of the program), each way of doing it right that keeps it quiet, files on
 * memory file systems left alone (by the host's type, or by path when the
 * type is unknown), and state that stays bounded.
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
#define MS	1000000ULL
#define AT_CWD	(-100)

/* x86_64 open flags, as records carry them */
#define X_O_WRONLY	01
#define X_O_RDWR	02
#define X_O_CREAT	0100
#define X_O_EXCL	0200
#define X_O_TRUNC	01000
#define X_O_SYNC	04010000
#define X_O_DIRECTORY	0200000

#define CODE_REPLACE	"durability.unsynced-replace"
#define CODE_NEW_NAME	"durability.unsynced-new-name"
#define CODE_TRUNCATE	"durability.truncate-rewrite"
#define CODE_FSYNC	"durability.fsync-error"
#define CODE_SHORT	"durability.short-write"

struct rec {
	struct dio_ev_syscall e;
	char str[512];
};

static struct dio_file_tag conf, tmp, dir;
static uint32_t next_ofd;

/* e with strings a and b (NULL: none) after it */
static void feed_str(void *s, struct dio_ev_syscall e, const char *a, const char *b)
{
	struct rec r;
	size_t la = a ? strlen(a) + 1 : 0, lb = b ? strlen(b) + 1 : 0;

	assert_true(la + lb <= sizeof(r.str));
	r.e = e;
	if (a)
		memcpy(r.str, a, la);
	if (b)
		memcpy(r.str + la, b, lb);
	r.e.str_len[0] = (uint16_t)la;
	r.e.str_len[1] = (uint16_t)lb;
	r.e.hdr.size = (uint16_t)(sizeof(r.e) + la + lb);
	feed(s, &r);
}

/* openat(AT_FDCWD, path, flags) = fd of tag, as pid; returns its description */
static uint32_t open_ev(void *s, uint64_t ts, uint32_t pid, const char *comm,
			const struct dio_file_tag *tag, const char *path, uint64_t flags, int fd)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, comm, NR_openat, AT_CWD, tag, -1, fd, 1000);

	e.args[0] = (uint64_t)(int64_t)AT_CWD;
	e.args[2] = flags;
	e.fd = fd;
	e.ofd = ++next_ofd;
	if (tag == &dir)
		e.ftype = DIO_FT_DIR;
	feed_str(s, e, path, NULL);
	return e.ofd;
}

/* write(fd, buf, asked) = ret at offset off through description ofd */
static void write_ev(void *s, uint64_t ts, uint32_t pid, const char *comm,
		     const struct dio_file_tag *tag, uint32_t ofd, int64_t off, uint64_t asked,
		     int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, comm, NR_write, 4, tag, off, ret, 1000);

	e.args[2] = asked;
	e.ofd = ofd;
	feed(s, &e);
}

static void pwrite_ev(void *s, uint64_t ts, const struct dio_file_tag *tag, uint32_t ofd,
		      int64_t off, uint64_t asked, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, PID, PID, "saver", NR_pwrite64, 4, tag, off, ret,
					 1000);

	e.args[2] = asked;
	e.args[3] = (uint64_t)off;
	e.ofd = ofd;
	feed(s, &e);
}

static void read_ev(void *s, uint64_t ts, const struct dio_file_tag *tag, uint32_t ofd,
		    int64_t off, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, PID, PID, "saver", NR_read, 4, tag, off, ret, 1000);

	e.args[2] = 4096;
	e.ofd = ofd;
	feed(s, &e);
}

/* nr (fsync, fdatasync, sync_file_range, syncfs) on tag, or sync() when tag is NULL */
static void sync_ev(void *s, uint64_t ts, uint32_t pid, const char *comm, uint16_t nr,
		    const struct dio_file_tag *tag, int64_t ret)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, comm, nr, tag ? 4 : -1, tag, -1, ret, 1000);

	if (tag == &dir)
		e.ftype = DIO_FT_DIR;
	feed(s, &e);
}

/* the last fd of description ofd on tag closed */
static void close_ev(void *s, uint64_t ts, uint32_t pid, const struct dio_file_tag *tag,
		     uint32_t ofd)
{
	struct dio_ev_ofd o = ofd_close_ev(ts, pid, ofd, 4, tag,
					   tag == &dir ? DIO_FT_DIR : DIO_FT_REG);

	feed(s, &o);
}

static void rename_ev(void *s, uint64_t ts, uint32_t pid, const char *comm, const char *from,
		      const char *to)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, comm, NR_rename, -1, NULL, -1, 0, 1000);

	feed_str(s, e, from, to);
}

static void unlink_ev(void *s, uint64_t ts, uint32_t pid, const char *comm, const char *path)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, comm, NR_unlink, -1, NULL, -1, 0, 1000);

	feed_str(s, e, path, NULL);
}

static int setup(void **unused)
{
	(void)unused;
	conf = tag_of(10, 1);
	tmp = tag_of(11, 1);
	dir = tag_of(2, 1);
	fake_fstypes = "8:1=xfs 0:23=tmpfs";
	opts_reset(NULL);
	return 0;
}

/*
 * GNU sed -i: the file read, a temporary file created next to it, written,
 * closed and renamed over it; pid runs as comm, from t on.
 */
static void sed_i(void *s, uint64_t t, uint32_t pid, const char *comm, uint16_t sync_nr,
		  uint64_t oflags)
{
	uint32_t rd, wr;

	fake_path(&conf, "/etc/app/settings.conf");
	rd = open_ev(s, t + 1 * MS, pid, comm, &conf, "settings.conf", 0, 3);
	fake_path(&tmp, "/etc/app/sedX1");
	wr = open_ev(s, t + 2 * MS, pid, comm, &tmp, "./sedX1",
		     X_O_RDWR | X_O_CREAT | X_O_EXCL | oflags, 4);
	read_ev(s, t + 3 * MS, &conf, rd, 0, 100);
	close_ev(s, t + 4 * MS, pid, &conf, rd);
	write_ev(s, t + 5 * MS, pid, comm, &tmp, wr, 0, 60, 60);
	write_ev(s, t + 6 * MS, pid, comm, &tmp, wr, 60, 40, 40);
	if (sync_nr)
		sync_ev(s, t + 7 * MS, pid, comm, sync_nr, &tmp, 0);
	close_ev(s, t + 8 * MS, pid, &tmp, wr);
	rename_ev(s, t + 9 * MS, pid, comm, "./sedX1", "settings.conf");
}

static void replace_without_fsync_is_reported_with_its_bytes(void **unused)
{
	void *s = start_analyzer();
	const struct fake_finding *f;

	(void)unused;
	sed_i(s, 1 * SEC, PID, "sed", 0, 0);
	stop_analyzer(s);
	assert_int_equal(nfound, 1);
	f = finding(CODE_REPLACE);
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "pid 4242 sed replaced 1 file by rename with no fsync: "
			    "100 bytes at risk (/etc/app/settings.conf)");
	assert_string_equal(f->path, "/etc/app/settings.conf");
	assert_int_equal(f->count, 100);
	assert_int_equal(f->processes, 1);
	assert_int_equal(f->cost_ns, 0);
	/* the sequence, from the first unsynced write to the rename: what a timeline marks */
	assert_int_equal(f->ts_first, 1 * SEC + 5 * MS);
	assert_int_equal(f->ts_last, 1 * SEC + 9 * MS);
	assert_non_null(strstr(f->message, "/etc/app/settings.conf (file system xfs): "
			       "/etc/app/sedX1 was written (100 bytes in 2 calls) and renamed "
			       "over the existing /etc/app/settings.conf with no fsync"));
	assert_non_null(strstr(f->message, "Fix: fsync (or fdatasync) the temporary file "
			       "before the rename, then fsync the directory after it"));
	/* the calls in order: the first and last write, the rename */
	assert_string_equal(f->excerpt,
			    "+1.005000 [4242/4242 sed] write(4) = 60\n"
			    "+1.006000 [4242/4242 sed] write(4) = 40\n"
			    "+1.009000 [4242/4242 sed] rename(-1) = 0\n");
}

/* each way of making the data durable before the rename, and the ways that do not */
static void syncs_before_the_rename(void **unused)
{
	static const struct {
		uint16_t nr;		/* 0: none */
		uint64_t oflags;
		int findings;
	} cases[] = {
		{ 0, 0, 1 },
		{ NR_fsync, 0, 0 },
		{ NR_fdatasync, 0, 0 },
		{ NR_sync_file_range, 0, 1 },	/* starts writeback; durable it is not */
		{ 0, X_O_SYNC, 0 },		/* every write was durable when it returned */
		{ NR_sync, 0, 0 },
		{ NR_syncfs, 0, 0 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *s = start_analyzer();

		sed_i(s, 1 * SEC, PID, "sed", cases[i].nr, cases[i].oflags);
		stop_analyzer(s);
		/* a program that syncs a file's data gets the temporary file's new name
		 * too, an info (sync and syncfs make the names durable as well) */
		if (nfindings(CODE_REPLACE) != cases[i].findings ||
		    nfound != cases[i].findings + (cases[i].nr == NR_fsync ||
						   cases[i].nr == NR_fdatasync))
			fail_msg("case %zu (%s, flags %#llx): %d findings, expected %d", i,
				 fakehost.syscall_name(cases[i].nr), (unsigned long long)cases[i].oflags,
				 nfound, cases[i].findings);
	}
}

/* a new name (nothing there before) is no replacement; a rename that fails, none at all */
static void rename_to_a_new_name_is_no_replace(void **unused)
{
	void *s = start_analyzer();
	uint32_t wr;

	(void)unused;
	fake_path(&tmp, "/srv/out.part");
	wr = open_ev(s, 1 * SEC, PID, "dl", &tmp, "/srv/out.part", X_O_WRONLY | X_O_CREAT, 3);
	write_ev(s, 2 * SEC, PID, "dl", &tmp, wr, 0, 10, 10);
	rename_ev(s, 3 * SEC, PID, "dl", "/srv/out.part", "/srv/out");
	stop_analyzer(s);
	assert_int_equal(nfound, 0);
}

/* tmpfs is not judged; with no type known, the paths of memory file systems are not */
static void memory_file_systems_are_not_judged(void **unused)
{
	static const struct {
		const char *types;
		const char *dir;
		int findings;
	} cases[] = {
		{ "8:1=tmpfs", "/srv/app", 0 },
		{ "8:1=ext4", "/srv/app", 1 },
		{ "8:1=ext4", "/run/app", 1 },	/* the type says disk: the path does not matter */
		{ NULL, "/run/app", 0 },
		{ NULL, "/dev/shm", 0 },
		{ NULL, "/srv/app", 1 },
		{ "9:9=ext4", "/srv/app", 1 },	/* another device's type: this one is unknown */
		{ "8:1=ext4", "/home/u/.cache/app", 0 },	/* a cache: made again, not lost */
		{ "8:1=ext4", "/var/cache/app", 0 },
		{ "8:1=ext4", "/srv/cache/app", 1 },
	};
	char target[64], temp[64];

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *s;
		uint32_t rd, wr;

		fake_fstypes = cases[i].types;
		s = start_analyzer();
		snprintf(target, sizeof(target), "%s/state", cases[i].dir);
		snprintf(temp, sizeof(temp), "%s/state.new", cases[i].dir);
		fake_path(&conf, target);
		fake_path(&tmp, temp);
		rd = open_ev(s, 1 * SEC, PID, "app", &conf, target, 0, 3);
		close_ev(s, 2 * SEC, PID, &conf, rd);
		wr = open_ev(s, 3 * SEC, PID, "app", &tmp, temp, X_O_WRONLY | X_O_CREAT, 3);
		write_ev(s, 4 * SEC, PID, "app", &tmp, wr, 0, 10, 10);
		rename_ev(s, 5 * SEC, PID, "app", temp, target);
		stop_analyzer(s);
		if (nfound != cases[i].findings)
			fail_msg("case %zu (%s, %s): %d findings, expected %d", i,
				 cases[i].types ? cases[i].types : "no types", cases[i].dir,
				 nfound, cases[i].findings);
	}
	fake_fstypes = "8:1=xfs 0:23=tmpfs";
}

/* three processes of one program: one finding that counts them and adds their bytes */
static void processes_of_a_program_are_one_finding(void **unused)
{
	void *s = start_analyzer();
	const struct fake_finding *f;

	(void)unused;
	for (uint32_t p = 0; p < 3; p++)
		sed_i(s, (1 + p) * SEC, PID + p, "sed", 0, 0);
	stop_analyzer(s);
	assert_int_equal(nfound, 1);
	f = finding(CODE_REPLACE);
	assert_int_equal(f->processes, 3);
	assert_int_equal(f->count, 300);
	assert_int_equal(f->pid, PID);
	assert_string_equal(f->title, "3 processes of sed replaced 3 files by rename with no "
			    "fsync: 300 bytes at risk (/etc/app/settings.conf)");
	assert_non_null(strstr(f->message, "The other instances are counted in the title."));
}

/*
 * rsync --fsync: the file synced, renamed, its directory never synced: the
 * new name, an info; a sync of the directory after the rename, nothing; a
 * program that syncs nothing does not care, nothing either.
 */
static void new_names_of_programs_that_sync(void **unused)
{
	static const struct {
		int sync_file, sync_dir;	/* sync_dir: 1 after the rename, 2 before it */
		int findings;
		uint64_t names;
		const char *first;
	} cases[] = {
		{ 1, 0, 1, 2, "/srv/dst/.f1.x" },	/* the create and the rename */
		{ 1, 1, 0, 0, NULL },
		{ 1, 2, 1, 1, "/srv/dst/f1" },		/* the rename */
		{ 0, 0, 0, 0, NULL },
	};
	char title[256];

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *s = start_analyzer();
		const struct fake_finding *f;
		uint32_t wr, d;

		fake_path(&dir, "/srv/dst");
		fake_path(&tmp, "/srv/dst/.f1.x");
		wr = open_ev(s, 1 * SEC, PID, "rsync", &tmp, "/srv/dst/.f1.x",
			     X_O_WRONLY | X_O_CREAT | X_O_EXCL, 3);
		write_ev(s, 2 * SEC, PID, "rsync", &tmp, wr, 0, 10, 10);
		if (cases[i].sync_file)
			sync_ev(s, 3 * SEC, PID, "rsync", NR_fsync, &tmp, 0);
		close_ev(s, 4 * SEC, PID, &tmp, wr);
		d = open_ev(s, 5 * SEC, PID, "rsync", &dir, "/srv/dst", X_O_DIRECTORY, 5);
		if (cases[i].sync_dir == 2)
			sync_ev(s, 6 * SEC, PID, "rsync", NR_fsync, &dir, 0);
		rename_ev(s, 7 * SEC, PID, "rsync", "/srv/dst/.f1.x", "/srv/dst/f1");
		if (cases[i].sync_dir == 1)
			sync_ev(s, 8 * SEC, PID, "rsync", NR_fdatasync, &dir, 0);
		close_ev(s, 9 * SEC, PID, &dir, d);
		stop_analyzer(s);
		if (nfound != cases[i].findings)
			fail_msg("case %zu: %d findings, expected %d", i, nfound,
				 cases[i].findings);
		if (!cases[i].findings)
			continue;
		f = finding(CODE_NEW_NAME);
		assert_non_null(f);
		assert_int_equal(f->severity, DIO_SEV_INFO);
		assert_int_equal(f->count, cases[i].names);
		snprintf(title, sizeof(title), "pid 4242 rsync syncs file data but not the "
			 "directories of %llu name%s it made, moved or removed (%s)",
			 (unsigned long long)cases[i].names, cases[i].names == 1 ? "" : "s",
			 cases[i].first);
		assert_string_equal(f->title, title);
	}
}

/* SQLite's journal: unlinked to commit, its directory synced only after it was made */
static void unlink_after_sync_is_a_new_name(void **unused)
{
	void *s = start_analyzer();
	uint32_t j, d;

	(void)unused;
	fake_path(&dir, "/srv");
	fake_path(&tmp, "/srv/app.db-journal");
	j = open_ev(s, 1 * SEC, PID, "sqlite3", &tmp, "/srv/app.db-journal",
		    X_O_RDWR | X_O_CREAT, 4);
	write_ev(s, 2 * SEC, PID, "sqlite3", &tmp, j, 0, 512, 512);
	sync_ev(s, 3 * SEC, PID, "sqlite3", NR_fdatasync, &tmp, 0);
	d = open_ev(s, 4 * SEC, PID, "sqlite3", &dir, "/srv", 0, 5);
	sync_ev(s, 5 * SEC, PID, "sqlite3", NR_fdatasync, &dir, 0);
	close_ev(s, 6 * SEC, PID, &dir, d);
	close_ev(s, 7 * SEC, PID, &tmp, j);
	unlink_ev(s, 8 * SEC, PID, "sqlite3", "/srv/app.db-journal");
	stop_analyzer(s);
	assert_int_equal(nfound, 1);
	assert_int_equal(finding(CODE_NEW_NAME)->count, 1);
	assert_int_equal(finding(CODE_NEW_NAME)->ts_first, 8 * SEC);
	assert_non_null(strstr(finding(CODE_NEW_NAME)->message,
			       "unlink of /srv/app.db-journal, and no fsync of its directory"));
}

/* sort -o f f: read, truncated, written, closed: the bytes it held are at risk */
static void truncate_and_rewrite(void **unused)
{
	static const struct {
		int read_first;		/* dio saw data in it */
		uint16_t sync_nr;
		int findings;
	} cases[] = {
		{ 1, 0, 1 },
		{ 1, NR_fsync, 0 },
		{ 1, NR_fdatasync, 0 },
		{ 0, 0, 0 },		/* maybe empty: nothing known to lose */
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *s = start_analyzer();
		const struct fake_finding *f;
		uint32_t rd, wr;

		fake_path(&conf, "/srv/list");
		if (cases[i].read_first) {
			rd = open_ev(s, 1 * SEC, PID, "sort", &conf, "list", 0, 3);
			read_ev(s, 2 * SEC, &conf, rd, 0, 700);
			close_ev(s, 3 * SEC, PID, &conf, rd);
		}
		wr = open_ev(s, 4 * SEC, PID, "sort", &conf, "list",
			     X_O_WRONLY | X_O_CREAT | X_O_TRUNC, 1);
		write_ev(s, 5 * SEC, PID, "sort", &conf, wr, 0, 650, 650);
		if (cases[i].sync_nr)
			sync_ev(s, 6 * SEC, PID, "sort", cases[i].sync_nr, &conf, 0);
		close_ev(s, 7 * SEC, PID, &conf, wr);
		stop_analyzer(s);
		if (nfound != cases[i].findings)
			fail_msg("case %zu: %d findings, expected %d", i, nfound,
				 cases[i].findings);
		if (!cases[i].findings)
			continue;
		f = finding(CODE_TRUNCATE);
		assert_int_equal(f->severity, DIO_SEV_WARNING);
		assert_int_equal(f->count, 700);
		assert_string_equal(f->title, "pid 4242 sort truncated and rewrote 1 file in place "
				    "with no fsync: 700 bytes they held at risk (/srv/list)");
		assert_non_null(strstr(f->message, "it held 700 bytes; it was truncated, 650 "
				       "bytes were written in 1 calls"));
	}
}

/* cmake's scratch files: rewritten in place, then removed: nothing kept could be lost */
static void rewritten_then_removed_is_scratch(void **unused)
{
	for (int removed = 0; removed < 2; removed++) {
		void *s = start_analyzer();
		uint32_t wr;

		fake_path(&conf, "/srv/build/TryCompile/check_cache");
		wr = open_ev(s, 1 * SEC, PID, "cmake", &conf, "check_cache",
			     X_O_WRONLY | X_O_CREAT | X_O_TRUNC, 3);
		write_ev(s, 2 * SEC, PID, "cmake", &conf, wr, 0, 170, 170);
		close_ev(s, 3 * SEC, PID, &conf, wr);
		wr = open_ev(s, 4 * SEC, PID, "cmake", &conf, "check_cache",
			     X_O_WRONLY | X_O_CREAT | X_O_TRUNC, 3);
		write_ev(s, 5 * SEC, PID, "cmake", &conf, wr, 0, 160, 160);
		if (!removed) {
			/* its last fd ends with the process: the host's record comes after the exit */
			struct dio_ev_proc x = exit_ev(6 * SEC, PID);

			feed(s, &x);
		}
		close_ev(s, 6 * SEC, PID, &conf, wr);
		if (removed)
			unlink_ev(s, 7 * SEC, PID, "cmake", "/srv/build/TryCompile/check_cache");
		stop_analyzer(s);
		assert_int_equal(nfindings(CODE_TRUNCATE), !removed);
		if (!removed) {
			assert_int_equal(finding(CODE_TRUNCATE)->count, 170);
			assert_string_equal(finding(CODE_TRUNCATE)->comm, "cmake");
		}
	}
	(void)unused;
}

/* logrotate's copytruncate: the log truncated by one process, written on by another */
static void truncated_by_another_is_no_rewrite(void **unused)
{
	void *s = start_analyzer();
	uint32_t app, rot;

	(void)unused;
	fake_path(&conf, "/srv/app.log");
	app = open_ev(s, 1 * SEC, PID, "app", &conf, "/srv/app.log", X_O_WRONLY | X_O_CREAT, 3);
	write_ev(s, 2 * SEC, PID, "app", &conf, app, 0, 2000, 2000);
	rot = open_ev(s, 3 * SEC, PID + 1, "logrotate", &conf, "/srv/app.log", X_O_RDWR, 4);
	{
		struct dio_ev_syscall e = sys_ev(4 * SEC, PID + 1, PID + 1, "logrotate",
						 NR_ftruncate, 4, &conf, -1, 0, 1000);

		e.args[1] = 0;
		feed(s, &e);
	}
	close_ev(s, 5 * SEC, PID + 1, &conf, rot);
	write_ev(s, 6 * SEC, PID, "app", &conf, app, 2000, 100, 100);
	close_ev(s, 7 * SEC, PID, &conf, app);
	stop_analyzer(s);
	assert_int_equal(nfindings(CODE_TRUNCATE), 0);
}

/*
 * A log emptied by its own writer (open, ftruncate, close: `: > log`) and
 * appended to through new opens, the kernel handing the same struct file (so
 * the same ofd) to the next open: no rewrite in place. A rewrite through the
 * description that truncated it still is one.
 */
/* app.log written (2000 bytes) and closed, opened again and ftruncated to 0: that description */
static uint32_t log_truncated(void *s)
{
	uint32_t w, t;
	struct dio_ev_syscall e;

	fake_path(&conf, "/srv/app.log");
	w = open_ev(s, 1 * SEC, PID, "app", &conf, "/srv/app.log", X_O_WRONLY | X_O_CREAT, 3);
	write_ev(s, 2 * SEC, PID, "app", &conf, w, 0, 2000, 2000);
	close_ev(s, 2 * SEC + MS, PID, &conf, w);
	t = open_ev(s, 3 * SEC, PID, "app", &conf, "/srv/app.log", X_O_WRONLY, 4);
	e = sys_ev(4 * SEC, PID, PID, "app", NR_ftruncate, 4, &conf, -1, 0, 1000);
	e.args[1] = 0;
	e.ofd = t;
	feed(s, &e);
	return t;
}

static void emptied_then_appended_is_no_rewrite(void **unused)
{
	void *s = start_analyzer();
	uint32_t t;

	(void)unused;
	t = log_truncated(s);
	close_ev(s, 5 * SEC, PID, &conf, t);
	/* the next open's description: the same struct file, so the same ofd */
	write_ev(s, 6 * SEC, PID, "app", &conf, t, 0, 100, 100);
	close_ev(s, 7 * SEC, PID, &conf, t);
	stop_analyzer(s);
	assert_int_equal(nfindings(CODE_TRUNCATE), 0);

	/* truncated and written through one description: a rewrite */
	s = start_analyzer();
	t = log_truncated(s);
	write_ev(s, 5 * SEC, PID, "app", &conf, t, 0, 100, 100);
	close_ev(s, 6 * SEC, PID, &conf, t);
	stop_analyzer(s);
	assert_int_equal(nfindings(CODE_TRUNCATE), 1);
}

/*
 * A failed fsync and what came next: the same fsync again, a write elsewhere
 * and a close, the lost bytes written again and synced, nothing more.
 */
static void fsync_error_treated_as_transient(void **unused)
{
	enum { RETRY_SYNC, WRITE_ON, REWRITE, GIVE_UP, REWRITE_HALF, OTHER_ERRNO };
	static const struct {
		int what;
		int64_t err;
		int findings;
	} cases[] = {
		{ RETRY_SYNC, -EIO, 1 },
		{ RETRY_SYNC, -ENOSPC, 1 },
		{ RETRY_SYNC, -EDQUOT, 1 },
		{ WRITE_ON, -EIO, 1 },
		{ REWRITE, -EIO, 0 },
		{ GIVE_UP, -EIO, 0 },
		{ REWRITE_HALF, -EIO, 1 },
		{ RETRY_SYNC, -EINVAL, 0 },	/* a file that cannot be synced: nothing was lost */
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *s = start_analyzer();
		const struct fake_finding *f;
		uint32_t wr;

		fake_path(&conf, "/srv/wal");
		wr = open_ev(s, 1 * SEC, PID, "db", &conf, "/srv/wal", X_O_WRONLY | X_O_CREAT, 3);
		write_ev(s, 2 * SEC, PID, "db", &conf, wr, 0, 4096, 4096);
		sync_ev(s, 3 * SEC, PID, "db", NR_fsync, &conf, cases[i].err);
		switch (cases[i].what) {
		case RETRY_SYNC:
			sync_ev(s, 4 * SEC, PID, "db", NR_fsync, &conf, 0);
			break;
		case WRITE_ON:
			write_ev(s, 4 * SEC, PID, "db", &conf, wr, 4096, 100, 100);
			break;
		case REWRITE:
			pwrite_ev(s, 4 * SEC, &conf, wr, 0, 4096, 4096);
			sync_ev(s, 5 * SEC, PID, "db", NR_fsync, &conf, 0);
			break;
		case REWRITE_HALF:
			pwrite_ev(s, 4 * SEC, &conf, wr, 0, 2048, 2048);
			sync_ev(s, 5 * SEC, PID, "db", NR_fsync, &conf, 0);
			break;
		}
		close_ev(s, 6 * SEC, PID, &conf, wr);
		stop_analyzer(s);
		/* the file's new name, of a program that syncs, is another rule's */
		if (nfindings(CODE_FSYNC) != cases[i].findings)
			fail_msg("case %zu: %d findings, expected %d", i, nfound,
				 cases[i].findings);
		if (!cases[i].findings)
			continue;
		f = finding(CODE_FSYNC);
		assert_int_equal(f->severity, DIO_SEV_ERROR);
		assert_int_equal(f->count, 4096);
		assert_non_null(strstr(f->excerpt, "+3.000000 [4242/4242 db] fsync(4) = "));
	}
}

/* a short write: closed with the rest unwritten, or the next write past it; or retried */
static void short_write_left_short(void **unused)
{
	enum { CLOSE, PAST, RETRY, RETRY_FAILS };
	static const struct {
		int what;
		int findings;
	} cases[] = {
		{ CLOSE, 1 }, { PAST, 1 }, { RETRY, 0 }, { RETRY_FAILS, 0 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *s = start_analyzer();
		const struct fake_finding *f;
		uint32_t wr;

		fake_path(&conf, "/srv/out");
		wr = open_ev(s, 1 * SEC, PID, "saver", &conf, "/srv/out", X_O_WRONLY | X_O_CREAT,
			     4);
		write_ev(s, 2 * SEC, PID, "saver", &conf, wr, 0, 200, 120);
		if (cases[i].what == PAST)
			pwrite_ev(s, 3 * SEC, &conf, wr, 200, 100, 100);
		else if (cases[i].what == RETRY)
			write_ev(s, 3 * SEC, PID, "saver", &conf, wr, 120, 80, 80);
		else if (cases[i].what == RETRY_FAILS)
			write_ev(s, 3 * SEC, PID, "saver", &conf, wr, 120, 80, -EFBIG);
		sync_ev(s, 4 * SEC, PID, "saver", NR_fsync, &conf, 0);
		close_ev(s, 5 * SEC, PID, &conf, wr);
		stop_analyzer(s);
		if (nfindings(CODE_SHORT) != cases[i].findings)
			fail_msg("case %zu: %d findings, expected %d", i, nfound,
				 cases[i].findings);
		if (!cases[i].findings)
			continue;
		f = finding(CODE_SHORT);
		assert_int_equal(f->severity, DIO_SEV_ERROR);
		assert_int_equal(f->count, 80);
		assert_string_equal(f->excerpt, cases[i].what == PAST ?
				    "+2.000000 [4242/4242 saver] write(4) = 120\n"
				    "+3.000000 [4242/4242 saver] pwrite64(4) = 100\n" :
				    "+2.000000 [4242/4242 saver] write(4) = 120\n");
	}
}

/* all state is allocated at init: many files, names and processes leave the heap as it was */
static void state_stays_bounded(void **unused)
{
	size_t init = init_heap_bytes(), before, after;
	void *s;

	(void)unused;
	/* what README.md's table adds up to */
	assert_true(init < 12u << 20);
	s = start_analyzer();
	before = heap_in_use();
	for (uint32_t i = 0; i < 50000; i++) {
		struct dio_file_tag t = tag_of(1000 + i, 1);
		char p[64];
		uint32_t wr;

		snprintf(p, sizeof(p), "/srv/many/f%u", i);
		fake_path(&t, "/srv/many/x");
		nfake_paths = 0;
		wr = open_ev(s, SEC + i, PID + i % 7000, "many", &t, p, X_O_WRONLY | X_O_CREAT, 3);
		write_ev(s, SEC + i, PID + i % 7000, "many", &t, wr, 0, 10, 10);
		close_ev(s, SEC + i, PID + i % 7000, &t, wr);
	}
	after = heap_in_use();
	assert_int_equal(after, before);
	stop_analyzer(s);
}

static void options_out_of_range_are_refused(void **unused)
{
	void *state = NULL;

	(void)unused;
	opts_reset("max_files", "0", NULL);
	assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
	assert_string_equal(logged, "max_files must be between 1 and 16777216, not 0");
	opts_reset(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(replace_without_fsync_is_reported_with_its_bytes, setup),
		cmocka_unit_test_setup(syncs_before_the_rename, setup),
		cmocka_unit_test_setup(rename_to_a_new_name_is_no_replace, setup),
		cmocka_unit_test_setup(memory_file_systems_are_not_judged, setup),
		cmocka_unit_test_setup(processes_of_a_program_are_one_finding, setup),
		cmocka_unit_test_setup(new_names_of_programs_that_sync, setup),
		cmocka_unit_test_setup(unlink_after_sync_is_a_new_name, setup),
		cmocka_unit_test_setup(truncate_and_rewrite, setup),
		cmocka_unit_test_setup(truncated_by_another_is_no_rewrite, setup),
		cmocka_unit_test_setup(emptied_then_appended_is_no_rewrite, setup),
		cmocka_unit_test_setup(rewritten_then_removed_is_scratch, setup),
		cmocka_unit_test_setup(fsync_error_treated_as_transient, setup),
		cmocka_unit_test_setup(short_write_left_short, setup),
		cmocka_unit_test_setup(state_stays_bounded, setup),
		cmocka_unit_test_setup(options_out_of_range_are_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
