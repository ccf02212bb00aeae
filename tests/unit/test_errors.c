// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The errors analyzer on synthetic streams: a burst gives one finding with its
 * numbers, grouped by process, call, errno and path or file; the thresholds at
 * their edges; bursts of one group add up; the groups of one program, in all
 * its processes, are one finding that names the worst five ways and the
 * processes with the most; answers (each entry of the table) are not failures
 * unless asked again with nothing succeeding in between, and real failures
 * are, whatever comes between them; the cost is stated and a pattern under the
 * share floor is left out unless it lost data; severity is error only where
 * written data likely did not reach the file; a group pushed out of its table
 * is kept for its program; the order is the bursts' and the heap stays where
 * init put it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <cmocka.h>
#include "fakehost.h"

#define US	1000ULL
#define MS	1000000ULL
#define T0	(5 * 1000000000ULL)
#define PID	200

/* x86_64 numbers of the calls the answers name, beyond fakehost.h's */
enum {
	NR_ioctl = 16, NR_sendfile = 40, NR_dup2 = 33, NR_execve = 59, NR_fcntl = 72,
	NR_flock = 73, NR_chdir = 80, NR_mkdir = 83, NR_rmdir = 84, NR_readlink = 89,
	NR_statfs = 137, NR_getxattr = 191, NR_lgetxattr = 192, NR_fgetxattr = 193,
	NR_listxattr = 194, NR_mkdirat = 258, NR_readlinkat = 267, NR_splice = 275,
	NR_fallocate = 285, NR_copy_file_range = 326, NR_close_range = 436,
};

/*
 * The host's names, and two of calls dio does not trace (an exec comes as a
 * record of its own; ioctl is no storage call), which the answers name
 */
static const char *names(uint32_t nr)
{
	if (nr == NR_execve)
		return "execve";
	return nr == NR_ioctl ? "ioctl" : fakehost.syscall_name(nr);
}

/* what the fake host does not keep of a finding: its cost and processes */
static uint64_t costs[FAKE_FINDINGS];
static uint32_t procs[FAKE_FINDINGS];

static int keep_emit(struct dio_ctx *ctx, const struct dio_finding *f)
{
	if (nfound < FAKE_FINDINGS) {
		costs[nfound] = f->cost_ns;
		procs[nfound] = f->processes;
	}
	return fakehost.emit_finding(ctx, f);
}

static struct dio_host xhost;
static void *st;

static void *start(void)
{
	void *state = NULL;

	xhost = fakehost;
	xhost.syscall_name = names;
	xhost.emit_finding = keep_emit;
	nfound = 0;
	nfake_paths = 0;
	logged[0] = 0;
	assert_int_equal(dio_analyzer.init(&xhost, &fake_ctx, opts, &state), 0);
	return state;
}

/* stat(path) by pid, a process of comm, failing with err */
static void fail_as(uint64_t ts, uint32_t pid, const char *comm, const char *path, int err)
{
	struct dio_ev_syscall e = sys_ev(ts, pid, pid, comm, NR_stat, -1, NULL, -1, -err, 50);
	struct sys_ev_buf b;

	feed(st, with_str(&b, e, path));
}

static void fail_path(uint64_t ts, uint32_t pid, const char *path, int err)
{
	fail_as(ts, pid, "poller", path, err);
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

/* a call of tid in process pid that succeeds, lasting dur ns */
static void ok_call(uint64_t ts, uint32_t pid, uint32_t tid, const char *comm, uint64_t dur)
{
	struct dio_file_tag f = tag_of(5000, 0);
	struct dio_ev_syscall e = sys_ev(ts, pid, tid, comm, NR_read, 99, &f, 0, 10, dur);

	feed(st, &e);
}

static void test_a_storm_reports_count_rate_errno_path(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 300; i++) {	/* calls that succeed are not failures */
		struct dio_ev_syscall e = sys_ev(T0 - MS + (uint64_t)i, PID, PID, "poller",
						 NR_stat, -1, NULL, -1, 0, 5);
		feed(st, &e);
	}
	storm(T0, PID, "/missing", 100, MS);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("errors.burst");
	assert_non_null(f);
	/* 100 failures of 50 ns, 5000 ns, of 6500 ns in system calls */
	assert_string_equal(f->title, "100 stat calls failed with ENOENT in 99.0 ms (1010/s, 77 % "
			    "of the program's system-call time): \"/missing\"");
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_int_equal(f->count, 100);
	assert_int_equal(costs[0], 5000);
	assert_int_equal(procs[0], 1);
	assert_int_equal(f->pid, PID);
	assert_int_equal(f->tid, PID);
	assert_string_equal(f->comm, "poller");
	assert_string_equal(f->path, "/missing");
	assert_int_equal(f->has_tag, 0);
	assert_int_equal(f->ts_first, T0);
	assert_int_equal(f->ts_last, T0 + 99 * MS);
	assert_non_null(strstr(f->message, "Process 200 (poller) made 100 stat calls on "
				"\"/missing\" that failed with ENOENT, in 1 burst of 100 or more "
				"within 1000 ms (at most 100 in one); 100 failed the same way in "
				"all.\nThe failing calls took 5 us, 77 % of the 6 us the program "
				"spent in system calls.\n"));
	assert_non_null(strstr(f->message, "inotify"));
	/* from the second ask on: the first counted when the second came with nothing between */
	assert_non_null(strstr(f->excerpt, "+5.001000 [200/200 poller] stat(-1) = -2\n"
				"+5.002000 [200/200 poller] stat(-1) = -2\n"));
	assert_non_null(strstr(f->excerpt, "+5.008000 [200/200 poller] stat(-1) = -2\n"
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
		st = start();
		storm(T0, PID, "/missing", cases[i].n, MS);
		stop_analyzer(st);
		if (nfound)
			fail_msg("%s=%s: %d findings", cases[i].option, cases[i].short_of, nfound);
		opts_reset(cases[i].option, cases[i].met, NULL);
		st = start();
		storm(T0, PID, "/missing", cases[i].n, MS);
		stop_analyzer(st);
		if (nfindings("errors.burst") != 1)
			fail_msg("%s=%s: %d findings", cases[i].option, cases[i].met, nfound);
	}
}

/* a read of a non-blocking pipe spinning on EAGAIN: grouped by the file, named by its path */
static void test_an_eagain_spin_is_grouped_by_its_file(void **state)
{
	struct dio_file_tag p = tag_of(77, 0);
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start();
	fake_path(&p, "pipe:[77]");
	for (int i = 0; i < 150; i++) {
		struct dio_ev_syscall e = sys_ev(T0 + (uint64_t)i * US, PID, PID + 1, "reader",
						 NR_read, 3, &p, -1, -EAGAIN, 10);

		e.ftype = DIO_FT_FIFO;
		feed(st, &e);
	}
	stop_analyzer(st);
	f = finding("errors.burst");
	assert_non_null(f);
	/* all 150: the first ask counts once the second comes with nothing in between */
	assert_string_equal(f->title, "150 read calls failed with EAGAIN in 149 us (1006711/s, "
			    "100 % of the program's system-call time): pipe:[77]");
	assert_int_equal(f->count, 150);
	assert_int_equal(f->tid, PID + 1);
	assert_string_equal(f->comm, "reader");
	assert_string_equal(f->path, "pipe:[77]");
	assert_int_equal(f->has_tag, 1);
	assert_int_equal(f->tag.ino, 77);
	assert_non_null(strstr(f->message, "Process 200 (reader) made 150 read calls"));
	assert_non_null(strstr(f->message, "epoll"));
	/* the excerpt starts at the second ask, the first counted when it came */
	assert_non_null(strstr(f->excerpt, "+5.000001 [200/201 reader] read(3) = -11\n"));
	assert_non_null(strstr(f->excerpt, "... 142 more\n"));
}

/* EBADF of fsync: no file, no path; what was to be synced may not be: an error */
static void test_ebadf_is_an_error_by_call(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start();
	fail_fd(PID, "worker", NR_fsync, 9, NULL, EBADF, 100);
	stop_analyzer(st);
	f = finding("errors.burst");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_string_equal(f->title, "100 fsync calls failed with EBADF in 99 us (1010101/s, "
			    "100 % of the program's system-call time): fd 9");
	assert_string_equal(f->path, "");
	assert_non_null(strstr(f->message, "use after close"));
}

/* failures of other paths, processes, calls or errnos are other groups */
static void test_groups_do_not_add_up(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start();
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
	st = start();
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
	assert_string_equal(f->title, "30150 stat calls failed with ENOENT in 29.9 ms (1010050/s, "
			    "100 % of the program's system-call time) on 300 paths, most on "
			    "\"/p000\"");
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
				"The failing calls took 1.5 ms, 100 % of"));
	assert_null(strstr(f->message, "/p005"));
	/* the worst path's first calls; "... N more" counts the rest of its burst */
	assert_non_null(strstr(f->excerpt, "+5.299001 [200/200 poller] stat(-1) = -2\n"));
	assert_non_null(strstr(f->excerpt, "... 142 more\n"));
}

/*
 * The same storm in 100 processes of one program is one finding: the sum,
 * the number of processes, the five with the most named; another program's
 * storm is another finding.
 */
static void test_the_processes_of_a_program_are_one_finding(void **state)
{
	const struct fake_finding *f;

	(void)state;
	opts_reset(NULL);
	st = start();
	for (uint32_t p = 0; p < 100; p++)
		for (int i = 0; i < 100 + (p == 42) * 20 + (p == 7) * 10; i++)
			fail_as(T0 + p * MS + (uint64_t)i * US, 1000 + p, "cc1", "/usr/x.h", ENOENT);
	for (int i = 0; i < 100; i++)
		fail_as(T0 + 200 * MS + (uint64_t)i * US, 3000, "make", "/m", ENOENT);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	f = &found[0];
	assert_int_equal(f->count, 100 * 100 + 30);
	assert_int_equal(procs[0], 100);
	assert_int_equal(costs[0], (100 * 100 + 30) * 50);
	assert_string_equal(f->title, "10030 stat calls failed with ENOENT in 100 processes in "
			    "9.9 ms (1010070/s, 100 % of the program's system-call time): "
			    "\"/usr/x.h\"");
	assert_non_null(strstr(f->message, "100 processes of cc1 (the most: 1042 with 120, 1007 "
				"with 110, 1000 with 100, 1001 with 100, 1002 with 100, ...) made "
				"10030 stat calls on \"/usr/x.h\" that failed with ENOENT, in 100 "
				"bursts"));
	assert_non_null(strstr(f->message, "of the 501 us the program's processes spent in system "));
	/* the evidence is the process with the most */
	assert_int_equal(f->pid, 1042);
	assert_int_equal(found[1].pid, 3000);
	assert_int_equal(procs[1], 1);
	assert_string_equal(found[1].path, "/m");
}

/*
 * Severity: error where written data likely did not reach the file (a write
 * or sync failing with EIO, ENOSPC, EDQUOT, EBADF, EFBIG or EROFS; a close
 * that does after writes to its fd), warning for everything else.
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
		{ NR_write, EROFS, 0, DIO_SEV_ERROR },
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
		{ NR_write, EINTR, 0, DIO_SEV_WARNING },
		{ NR_fsync, EINVAL, 0, DIO_SEV_WARNING },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts_reset(NULL);
		st = start();
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
				 names(cases[i].nr), strerror(cases[i].err),
				 cases[i].wrote ? "writes" : "no writes", nfound,
				 nfound ? found[0].severity : 99, cases[i].sev);
		if (cases[i].sev == DIO_SEV_ERROR && !strstr(found[0].message, "did not reach the file"))
			fail_msg("%s: the message does not say data was lost: %s",
				 names(cases[i].nr), found[0].message);
	}
}

/* a failing call: nr with err, arguments 1, 2 and 5, on a file of ftype (0: none) or a path */
struct call {
	const char *what;	/* what the case pins */
	uint16_t nr;
	int err;
	uint64_t a1, a2, a5;
	uint8_t ftype;
	const char *path;
};

/* the call at ts by thread tid of process PID ("prog") */
static void fail_call(const struct call *c, uint64_t ts, uint32_t tid)
{
	struct dio_file_tag f = tag_of(4000, 0);
	struct dio_ev_syscall e = sys_ev(ts, PID, tid, "prog", c->nr, 5,
					 c->ftype ? &f : NULL, -1, -c->err, 50);
	struct sys_ev_buf b;

	e.args[1] = c->a1;
	e.args[2] = c->a2;
	e.args[5] = c->a5;
	if (c->ftype)
		e.ftype = c->ftype;
	feed(st, c->path ? with_str(&b, e, c->path) : &e);
}

/* c asked 200 times, with a call that succeeds before each or back to back: findings */
static int asked(const struct call *c, int between)
{
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 200; i++) {
		if (between)
			ok_call(T0 + (uint64_t)i * 10 * US, PID, PID, "prog", 10);
		fail_call(c, T0 + (uint64_t)i * 10 * US + US, PID);
	}
	stop_analyzer(st);
	return nfound;
}

#define O_RDONLY_CLOEXEC 02000000
#define O_PATH_DIRECTORY (010000000 | 0200000)

/*
 * The table of answers, one case an entry and errno at least: asked once per
 * piece of work (a call succeeding before each ask) none is a failure, and
 * asked back to back each is a retry loop, all 200 counted, but readlink's
 * EINVAL, which realpath() asks of path after path without anything between.
 */
static void test_answers_are_not_failures(void **state)
{
	static const struct {
		struct call c;
		int always;	/* an answer even back to back */
	} cases[] = {
		{ .c = { "readlink: not a symbolic link", NR_readlink, EINVAL, 0, 0, 0, 0, "/usr" },
		  .always = 1 },
		{ .c = { "readlinkat", NR_readlinkat, EINVAL, 0, 0, 0, 0, "usr/include" },
		  .always = 1 },
		{ .c = { "a header not in this -I dir", NR_openat, ENOENT, 0, O_RDONLY_CLOEXEC, 0, 0,
		    "/src/include/stdio.h" } },
		{ .c = { "open to read", NR_open, ENOENT, O_RDONLY_CLOEXEC, 0, 0, 0, "/etc/x.conf" } },
		{ .c = { "a directory looked up", NR_openat, ENOENT, 0, O_PATH_DIRECTORY, 0, 0, "/d" } },
		{ .c = { "stat in a search", NR_stat, ENOENT, 0, 0, 0, 0, "/usr/lib/libm.so.6" } },
		{ .c = { "lstat", NR_lstat, ENOENT, 0, 0, 0, 0, "/x" } },
		{ .c = { "newfstatat through a file", NR_newfstatat, ENOTDIR, 0, 0, 0, 0,
		    "/usr/lib/python3.zip/json" } },
		{ .c = { "statx", NR_statx, ENOENT, 0, 0, 0, 0, "/x" } },
		{ .c = { "access F_OK", NR_access, ENOENT, 0, 0, 0, 0, "/db-journal" } },
		{ .c = { "faccessat2", NR_faccessat2, ENOENT, 0, 0, 0, 0, "/x" } },
		{ .c = { "execve over $PATH", NR_execve, ENOENT, 0, 0, 0, 0, "/usr/local/bin/cc" } },
		/* gettext asks for its catalog again for each message */
		{ .c = { "a translation file", NR_newfstatat, ENOENT, 0, 0, 0, 0,
		    "/usr/share/locale/en_US/LC_MESSAGES/messages.mo" }, .always = 1 },
		{ .c = { "statfs", NR_statfs, ENOENT, 0, 0, 0, 0, "/x" } },
		{ .c = { "chdir", NR_chdir, ENOENT, 0, 0, 0, 0, "/x" } },
		{ .c = { "access W_OK", NR_access, EACCES, 2, 0, 0, 0, "/etc/passwd" } },
		{ .c = { "faccessat on a read-only fs", NR_faccessat, EROFS, 0, 2, 0, 0, "/ro/f" } },
		{ .c = { "rm -f", NR_unlinkat, ENOENT, 0, 0, 0, 0, "x.o" } },
		{ .c = { "rmdir", NR_rmdir, ENOENT, 0, 0, 0, 0, "/d" } },
		{ .c = { "mkdir -p", NR_mkdir, EEXIST, 0755, 0, 0, 0, "/usr" } },
		{ .c = { "mkdirat", NR_mkdirat, EEXIST, 0, 0755, 0, 0, "x-7z/src" } },
		{ .c = { "ls asks for a label", NR_lgetxattr, ENODATA, 0, 0, 0, 0, "/etc/hosts" } },
		{ .c = { "an ACL", NR_getxattr, EOPNOTSUPP, 0, 0, 0, 0, "/proc/1" } },
		{ .c = { "fgetxattr", NR_fgetxattr, ENODATA, 0, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "listxattr", NR_listxattr, EOPNOTSUPP, 0, 0, 0, 0, "/proc/1" } },
		{ .c = { "can a pipe seek?", NR_lseek, ESPIPE, 0, 1, 0, DIO_FT_FIFO, NULL } },
		{ .c = { "statx in a sandbox", NR_statx, EPERM, 0, 0, 0, 0, "/x" } },
		{ .c = { "faccessat2 on an old kernel", NR_faccessat2, ENOSYS, 0, 0, 0, 0, "/x" } },
		{ .c = { "openat2", NR_openat2, ENOSYS, 0, 0, 0, 0, "/x" } },
		{ .c = { "close_range", NR_close_range, ENOSYS, 0, 0, 0, 0, NULL } },
		{ .c = { "cp across file systems", NR_copy_file_range, EXDEV, 0, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "posix_fallocate", NR_fallocate, EOPNOTSUPP, 0, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "a socket read until EAGAIN", NR_read, EAGAIN, 0, 0, 0, DIO_FT_SOCK, NULL } },
		{ .c = { "readv of a pipe", NR_readv, EAGAIN, 0, 0, 0, DIO_FT_FIFO, NULL } },
		{ .c = { "an eventfd", NR_write, EAGAIN, 0, 0, 0, DIO_FT_ANON, NULL } },
		{ .c = { "a tty", NR_writev, EAGAIN, 0, 0, 0, DIO_FT_CHR, NULL } },
		{ .c = { "an fd dio found no file for", NR_read, EAGAIN, 0, 0, 0, 0, NULL } },
		{ .c = { "sendfile to a full socket", NR_sendfile, EAGAIN, 0, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "splice", NR_splice, EAGAIN, 0, 0, 0, DIO_FT_FIFO, NULL } },
		{ .c = { "RWF_NOWAIT", NR_preadv2, EAGAIN, 0, 0, 0x8, DIO_FT_REG, NULL } },
		{ .c = { "flock LOCK_EX|LOCK_NB", NR_flock, EWOULDBLOCK, 6, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "fcntl F_SETLK", NR_fcntl, EAGAIN, 6, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "fcntl F_OFD_SETLK", NR_fcntl, EACCES, 37, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "isatty", NR_ioctl, ENOTTY, 0x5401, 0, 0, DIO_FT_REG, NULL } },
		{ .c = { "TIOCGWINSZ", NR_ioctl, ENOTTY, 0x5413, 0, 0, DIO_FT_FIFO, NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct call *c = &cases[i].c;
		int n = asked(c, 1);

		if (n)
			fail_msg("%s: %s %s asked once per piece of work: %d findings", c->what,
				 names(c->nr), strerror(c->err), n);
		n = asked(c, 0);
		if (cases[i].always ? n != 0 : n != 1 || found[0].count != 200)
			fail_msg("%s: %s %s asked back to back: %d findings, count %" PRIu64,
				 c->what, names(c->nr), strerror(c->err), n,
				 n ? found[0].count : 0);
	}
}

/* real failures, one case each: a failure whatever comes between them */
static void test_failures_stay_failures(void **state)
{
	static const struct call cases[] = {
		{ "a write to a full disk", NR_write, ENOSPC, 0, 0, 0, DIO_FT_REG, NULL },
		{ "a sync that met an I/O error", NR_fsync, EIO, 0, 0, 0, DIO_FT_REG, NULL },
		{ "a write to a read-only file system", NR_pwrite64, EROFS, 0, 0, 0, DIO_FT_REG,
		  NULL },
		{ "over quota", NR_writev, EDQUOT, 0, 0, 0, DIO_FT_REG, NULL },
		{ "a write to a closed fd", NR_write, EBADF, 0, 0, 0, 0, NULL },
		{ "a stat refused", NR_stat, EACCES, 0, 0, 0, 0, "/root/x" },
		{ "a symlink loop", NR_stat, ELOOP, 0, 0, 0, 0, "/loop" },
		{ "a log that cannot be created", NR_openat, ENOENT, 0, 02101, 0, 0, "/no/dir/log" },
		{ "a file opened to write that is not there", NR_openat, ENOENT, 0, 02, 0, 0, "/x" },
		{ "an exclusive create", NR_openat, EEXIST, 0, 0301, 0, 0, "/lock" },
		{ "EAGAIN from a regular file", NR_read, EAGAIN, 0, 0, 0, DIO_FT_REG, NULL },
		{ "preadv2 without RWF_NOWAIT", NR_preadv2, EAGAIN, 0, 0, 0, DIO_FT_REG, NULL },
		{ "flock without LOCK_NB", NR_flock, EWOULDBLOCK, 2, 0, 0, DIO_FT_REG, NULL },
		{ "fcntl F_GETLK", NR_fcntl, EAGAIN, 5, 0, 0, DIO_FT_REG, NULL },
		{ "ioctl of another request", NR_ioctl, ENOTTY, 0x1234, 0, 0, DIO_FT_REG, NULL },
		{ "mkdir refused", NR_mkdir, EACCES, 0755, 0, 0, 0, "/root/d" },
		{ "unlink refused", NR_unlink, EACCES, 0, 0, 0, 0, "/root/f" },
		{ "readlink refused", NR_readlink, EACCES, 0, 0, 0, 0, "/root/l" },
		{ "lseek past the end", NR_lseek, EINVAL, 0, 0, 0, DIO_FT_REG, NULL },
		{ "an attribute too big", NR_getxattr, ERANGE, 0, 0, 0, 0, "/f" },
		{ "interrupted", NR_read, EINTR, 0, 0, 0, DIO_FT_SOCK, NULL },
		{ "a stat of a closed fd", NR_fstat, EBADF, 0, 0, 0, 0, NULL },
		{ "fcntl F_SETFL of a closed fd", NR_fcntl, EBADF, 4, 0, 0, 0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = asked(&cases[i], 1);

		if (n != 1 || found[0].count != 200)
			fail_msg("%s: %s %s with calls succeeding between: %d findings, count %"
				 PRIu64, cases[i].what, names(cases[i].nr), strerror(cases[i].err),
				 n, n ? found[0].count : 0);
	}
}

/*
 * EAGAIN from an fd opened without O_NONBLOCK, or set blocking with F_SETFL,
 * is a failure; once set non-blocking, an answer again.
 */
static void test_eagain_of_a_blocking_fd_is_a_failure(void **state)
{
	static const struct call again = { "", NR_read, EAGAIN, 0, 0, 0, DIO_FT_FIFO, NULL };
	struct dio_file_tag f = tag_of(4000, 0);
	struct dio_ev_syscall e;
	struct sys_ev_buf b;
	uint64_t ts = T0;

	(void)state;
	opts_reset(NULL);
	st = start();
	/* open("/fifo", O_RDONLY) = 5 */
	e = sys_ev(ts, PID, PID, "prog", NR_open, -1, &f, -1, 5, 10);
	e.ftype = DIO_FT_FIFO;
	feed(st, with_str(&b, e, "/fifo"));
	for (int i = 0; i < 150; i++) {
		ok_call(ts += US, PID, PID, "prog", 10);
		fail_call(&again, ts += US, PID);
	}
	/* fcntl(5, F_SETFL, O_NONBLOCK) = 0: answers from now on */
	e = sys_ev(ts += MS, PID, PID, "prog", NR_fcntl, 5, &f, -1, 0, 10);
	e.args[1] = 4;
	e.args[2] = 04000;
	e.ftype = DIO_FT_FIFO;
	feed(st, &e);
	for (int i = 0; i < 150; i++) {
		ok_call(ts += US, PID, PID, "prog", 10);
		fail_call(&again, ts += US, PID);
	}
	/* fcntl(5, F_SETFL, 0) = 0: blocking again */
	e.hdr.ts = ts += MS;
	e.args[2] = 0;
	feed(st, &e);
	for (int i = 0; i < 120; i++) {
		ok_call(ts += US, PID, PID, "prog", 10);
		fail_call(&again, ts += US, PID);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 270);
}

/*
 * A question asked once per piece of work, then again and again with nothing
 * in between: the retry counts from its first ask, not before; another
 * thread's progress is not this one's; a thread that exits takes its own
 * with it.
 */
static void test_a_retry_counts_from_its_first_ask(void **state)
{
	uint64_t ts = T0;

	(void)state;
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 50; i++) {
		ok_call(ts += US, PID, PID, "poller", 10);
		fail_path(ts += US, PID, "/missing", ENOENT);
	}
	/* thread PID + 1 succeeds between the asks of PID: PID made no progress */
	for (int i = 0; i < 120; i++) {
		ok_call(ts += US, PID, PID + 1, "poller", 10);
		fail_path(ts += US, PID, "/missing", ENOENT);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	/* the last of the 50 and the 120 after it */
	assert_int_equal(found[0].count, 121);
	assert_int_equal(found[0].ts_first, T0 + 100 * US);

	/* thread PID + 1 asks and exits, 150 times: each is a new thread that asks once */
	opts_reset(NULL);
	st = start();
	ts = T0;
	for (int i = 0; i < 150; i++) {
		struct dio_ev_syscall e = sys_ev(ts += US, PID, PID + 1, "poller", NR_stat, -1,
						 NULL, -1, -ENOENT, 50);
		struct dio_ev_proc x = exit_ev(ts += US, PID);
		struct sys_ev_buf b;

		feed(st, with_str(&b, e, "/missing"));
		x.tid = PID + 1;
		x.flags = 0;
		feed(st, &x);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/*
 * A lookup of a translation catalog or a locale that is not there is an
 * answer however often it is asked: 800 stats of messages.mo (argparse asks
 * for its catalog for each message) and of a locale's LC_CTYPE give no
 * finding; the same storm on another missing file is one.
 */
static void test_locale_and_catalog_lookups_are_answers(void **state)
{
	static const char *const paths[] = {
		"/usr/share/locale/en_US.UTF-8/LC_MESSAGES/messages.mo",
		"/usr/lib/locale/C.utf8/LC_CTYPE", "/opt/app/po/de.mo", "/srv/missing",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		opts_reset(NULL);
		st = start();
		storm(T0, PID, paths[i], 800, US);
		stop_analyzer(st);
		assert_int_equal(nfound, i == 3);
	}
}

/*
 * The share floor: 100 failures of 50 ns in a program that spent 1 ms in
 * system calls (0.5 %) are under the 1 % of min_share, and found with
 * min_share=0.005; writes that lost data are found whatever their share.
 */
static void test_a_burst_under_the_share_floor_is_left_out(void **state)
{
	static const struct {
		const char *share;
		uint16_t nr;
		int err, found;
	} cases[] = {
		{ "0.01", NR_stat, ENOENT, 0 },
		{ "0.005", NR_stat, ENOENT, 1 },
		{ "0.01", NR_write, ENOSPC, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts_reset("min_share", cases[i].share, NULL);
		st = start();
		ok_call(T0, PID, PID, "db", 1000 * US - 100 * 50);
		for (int n = 0; n < 100; n++) {
			struct dio_ev_syscall e = sys_ev(T0 + MS + (uint64_t)n * US, PID, PID, "db",
							 cases[i].nr, 7, NULL, -1, -cases[i].err, 50);
			struct sys_ev_buf b;

			feed(st, with_str(&b, e, "/db/x"));
		}
		stop_analyzer(st);
		if (nfound != cases[i].found)
			fail_msg("min_share=%s, %s %s: %d findings", cases[i].share,
				 names(cases[i].nr), strerror(cases[i].err), nfound);
		if (nfound && !strstr(found[0].title, "0.5 % of the program's system-call time"))
			fail_msg("title %s", found[0].title);
		if (nfound && !strstr(found[0].message, "The failing calls took 5 us, 0.5 % of the "
				      "1.0 ms the program spent in system calls."))
			fail_msg("message %s", found[0].message);
	}
}

/* time before exec is the old program's: the new one's share is of its own calls */
static void test_exec_starts_a_new_program(void **state)
{
	struct dio_ev_proc x;

	(void)state;
	opts_reset(NULL);
	st = start();
	ok_call(T0, PID, PID, "sh", 1000 * MS);
	memset(&x, 0, sizeof(x));
	x.hdr.type = DIO_EV_PROC;
	x.hdr.size = sizeof(x);
	x.hdr.ts = T0 + 1001 * MS;
	x.pid = x.tid = PID;
	x.kind = DIO_PROC_EXEC;
	snprintf(x.comm, sizeof(x.comm), "poller");
	feed(st, &x);
	storm(T0 + 1002 * MS, PID, "/missing", 100, US);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_non_null(strstr(found[0].title, "100 % of the program's system-call time"));
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
	st = start();
	fake_path(&wal, "/db/wal");
	storm(T0, PID, "/missing", 500, US);
	fail_fd(PID, "poller", NR_pwrite64, 5, &wal, ENOSPC, 100);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = &found[0];
	assert_int_equal(f->severity, DIO_SEV_ERROR);
	assert_int_equal(f->count, 600);
	assert_string_equal(f->title, "600 calls failed in 2 ways in 598 us (1003344/s, 100 % of "
			    "the program's system-call time), worst 100 pwrite64 calls with "
			    "ENOSPC on /db/wal");
	assert_string_equal(f->path, "/db/wal");
	assert_int_equal(f->has_tag, 1);
	assert_string_equal(f->comm, "poller");
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
	st = start();
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
	assert_string_equal(f->title, "250 stat calls failed with ENOENT in 248 us (1008065/s, "
			    "99 % of the program's system-call time): \"/missing\"");
	assert_non_null(strstr(f->message, "in 2 bursts of 100 or more within 1000 ms (at most "
				"150 in one); 253 failed the same way in all."));
}

/*
 * The table holds one group: the burst pushed out by the next group is kept
 * for its program and reported with it at the end, once. The summaries hold
 * one program: the first is reported when the second's pushes it out.
 */
static void test_an_evicted_group_is_kept_for_its_program(void **state)
{
	(void)state;
	opts_reset("max_groups", "1", NULL);
	st = start();
	storm(T0, PID, "/a", 100, US);
	fail_path(T0 + MS, PID, "/b", ENOENT);
	storm(T0 + 2 * MS, PID, "/c", 120, US);
	fail_path(T0 + 3 * MS, PID, "/d", ENOENT);
	/* another process of the program: its burst joins the same finding */
	storm(T0 + 4 * MS, PID + 1, "/c", 100, US);
	fail_path(T0 + 5 * MS, PID + 1, "/d", ENOENT);
	assert_int_equal(nfound, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 320);
	assert_int_equal(procs[0], 2);
	assert_string_equal(found[0].path, "/c");
	assert_non_null(strstr(found[0].title, "320 stat calls failed with ENOENT in 2 processes "
			       "in 317 us "));
	assert_non_null(strstr(found[0].title, " on 2 paths, most on \"/c\""));

	opts_reset("max_groups", "1", "max_summaries", "1", NULL);
	st = start();
	fail_as(T0, PID, "one", "/a", ENOENT);
	for (int i = 1; i < 100; i++)
		fail_as(T0 + (uint64_t)i * US, PID, "one", "/a", ENOENT);
	fail_as(T0 + MS, PID, "one", "/b", ENOENT);
	assert_int_equal(nfound, 0);
	for (int i = 0; i < 100; i++)
		fail_as(T0 + 2 * MS + (uint64_t)i * US, PID + 1, "two", "/a", ENOENT);
	fail_as(T0 + 3 * MS, PID + 1, "two", "/b", ENOENT);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].pid, PID);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].pid, PID + 1);
}

/* programs come in the order of their first burst, whatever the table's layout */
static void test_findings_come_in_the_order_of_their_bursts(void **state)
{
	static const struct {
		uint64_t at;
		uint32_t pid;
		const char *comm, *path;
	} storms[] = {
		{ 10, PID, "early", "/early" },
		{ 3000, PID + 2, "late", "/late" },
		{ 4000, PID - 1, "last", "/last" },
		/* at the same time: by name */
		{ 6000, 256, "same-b", "/same" },
		{ 6000, 255, "same-a", "/same" },
	};

	(void)state;
	opts_reset(NULL);
	st = start();
	fail_as(T0, PID + 2, "late", "/late", ENOENT);
	for (size_t s = 0; s < sizeof(storms) / sizeof(storms[0]); s++)
		for (int i = 0; i < 100; i++)
			fail_as(T0 + storms[s].at * MS + (uint64_t)i * US, storms[s].pid,
				storms[s].comm, storms[s].path, ENOENT);
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
	return fakehost.emit_finding(ctx, f);
}

/*
 * 250000 groups of 7000 processes of 7000 programs through tables of 256
 * groups and 64 summaries: every failure in a burst is counted in exactly one
 * finding, and the heap does not grow.
 */
static void test_state_stays_bounded_on_a_million_events(void **state)
{
	struct dio_host counting;
	size_t after_init;
	char path[64], comm[16];
	uint64_t ts = T0;

	(void)state;
	counting = fakehost;
	counting.syscall_name = names;
	counting.emit_finding = counting_emit;
	counted = 0;
	nfound = 0;
	opts_reset("max_groups", "256", "excerpts", "8", "min_failures", "3", NULL);
	assert_int_equal(dio_analyzer.init(&counting, &fake_ctx, opts, (void **)&st), 0);
	after_init = heap_in_use();
	for (uint32_t i = 0; i < 250000; i++) {
		snprintf(path, sizeof(path), "/f%u", i);
		snprintf(comm, sizeof(comm), "p%u", i % 7000);
		for (int k = 0; k < 4; k++)	/* 4 failures: each group a burst */
			fail_as(ts++, 1000 + i % 7000, comm, path, ENOENT);
		if (!(i % 64))
			assert_true(heap_in_use() <= after_init);
	}
	assert_true(heap_in_use() <= after_init);
	/* programs pushed out of the summaries are reported then */
	assert_true(nfound >= 7000 - 64);
	stop_analyzer(st);
	assert_int_equal(counted, 250000 * 4);
}

/* what the README says the defaults take: 6.9 MB */
static void test_the_defaults_take_what_the_readme_says(void **state)
{
	size_t used;

	(void)state;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 6850000 || used > 6950000)
		fail_msg("%zu bytes after init", used);
}

/* names are the host's: "errno N" from a host without name_of, and for errnos without one */
static void test_errno_names_are_the_hosts(void **state)
{
	struct dio_host old = fakehost;
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
			    "(1010/s, 100 % of the program's system-call time): \"/missing\"");
	st = start();
	for (int i = 0; i < 100; i++)
		fail_path(T0 + (uint64_t)i * MS, PID, "/odd", 530);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title, "100 stat calls failed with errno 530 in 99.0 ms "
			    "(1010/s, 100 % of the program's system-call time): \"/odd\"");
}

static void test_bad_options_are_refused(void **state)
{
	static const char *const bad[][2] = {
		{ "window_ms", "0" }, { "min_failures", "0" }, { "min_share", "1.5" },
		{ "min_share", "-0.1" }, { "max_threads", "0" }, { "max_summaries", "0" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *s = NULL;

		opts_reset(bad[i][0], bad[i][1], NULL);
		logged[0] = 0;
		assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &s), -EINVAL);
		assert_non_null(strstr(logged, bad[i][0]));
		assert_null(s);
	}
}

/*
 * --report-every: a tick reports the bursts of the windows over by then (a
 * second later than their end, for calls still running), as finish would;
 * finish reports the program again with its final figures.
 */
static void test_a_tick_reports_the_windows_over(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start();
	storm(T0, PID, "/missing", 100, MS);
	/* the window ends at T0 + 1 s: a call begun in it may still come for a second */
	assert_int_equal(dio_analyzer.tick(st, T0 + 1999 * MS), 0);
	assert_int_equal(nfound, 0);
	assert_int_equal(dio_analyzer.tick(st, T0 + 2000 * MS), 0);
	assert_int_equal(nfound, 1);
	assert_int_equal(found[0].count, 100);
	assert_string_equal(found[0].path, "/missing");
	/* a window still open is not judged: 150 more in one, at a tick before its end */
	storm(T0 + 3000 * MS, PID, "/missing", 150, MS);
	assert_int_equal(dio_analyzer.tick(st, T0 + 3500 * MS), 0);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].count, 100);
	stop_analyzer(st);
	assert_int_equal(nfound, 3);
	assert_int_equal(found[2].count, 250);
	assert_int_equal(found[2].ts_last, T0 + 3149 * MS);
}

/* a program a tick reported is reported at the end, though its share fell under the floor */
static void test_what_a_tick_reported_the_end_reports(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start();
	storm(T0, PID, "/missing", 100, MS);
	assert_int_equal(dio_analyzer.tick(st, T0 + 3000 * MS), 0);
	assert_int_equal(nfound, 1);
	/* 5 us of failures against 1 ms of calls that succeed: 0.5 % */
	ok_call(T0 + 4000 * MS, PID, PID, "poller", MS);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].count, 100);
	assert_non_null(strstr(found[1].title, "0.5 % of the program's system-call time"));
	/* without the tick, the end leaves it out */
	st = start();
	storm(T0, PID, "/missing", 100, MS);
	ok_call(T0 + 4000 * MS, PID, PID, "poller", MS);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

/* the worst way changes after a tick: the end's report keeps the file the tick named */
static void test_a_ticked_finding_keeps_its_name(void **state)
{
	(void)state;
	opts_reset(NULL);
	st = start();
	storm(T0, PID, "/a", 100, MS);
	assert_int_equal(dio_analyzer.tick(st, T0 + 3000 * MS), 0);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].path, "/a");
	storm(T0 + 4000 * MS, PID, "/b", 300, US);
	stop_analyzer(st);
	assert_int_equal(nfound, 2);
	assert_int_equal(found[1].count, 400);
	assert_string_equal(found[1].path, "/a");
	assert_string_equal(found[1].comm, found[0].comm);
	assert_non_null(strstr(found[1].title, "on 2 paths, most on \"/b\""));
	/* without the tick, the end names the worst */
	st = start();
	storm(T0, PID, "/a", 100, MS);
	storm(T0 + 4000 * MS, PID, "/b", 300, US);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].path, "/b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_storm_reports_count_rate_errno_path),
		cmocka_unit_test(test_threshold_edges),
		cmocka_unit_test(test_an_eagain_spin_is_grouped_by_its_file),
		cmocka_unit_test(test_ebadf_is_an_error_by_call),
		cmocka_unit_test(test_groups_do_not_add_up),
		cmocka_unit_test(test_bursts_of_a_group_add_up),
		cmocka_unit_test(test_a_process_with_bursts_on_300_paths_is_one_finding),
		cmocka_unit_test(test_the_processes_of_a_program_are_one_finding),
		cmocka_unit_test(test_error_only_where_data_is_likely_lost),
		cmocka_unit_test(test_answers_are_not_failures),
		cmocka_unit_test(test_failures_stay_failures),
		cmocka_unit_test(test_eagain_of_a_blocking_fd_is_a_failure),
		cmocka_unit_test(test_a_retry_counts_from_its_first_ask),
		cmocka_unit_test(test_locale_and_catalog_lookups_are_answers),
		cmocka_unit_test(test_a_burst_under_the_share_floor_is_left_out),
		cmocka_unit_test(test_exec_starts_a_new_program),
		cmocka_unit_test(test_the_worst_is_the_most_severe),
		cmocka_unit_test(test_an_evicted_group_is_kept_for_its_program),
		cmocka_unit_test(test_findings_come_in_the_order_of_their_bursts),
		cmocka_unit_test(test_state_stays_bounded_on_a_million_events),
		cmocka_unit_test(test_the_defaults_take_what_the_readme_says),
		cmocka_unit_test(test_errno_names_are_the_hosts),
		cmocka_unit_test(test_bad_options_are_refused),
		cmocka_unit_test(test_a_tick_reports_the_windows_over),
		cmocka_unit_test(test_what_a_tick_reported_the_end_reports),
		cmocka_unit_test(test_a_ticked_finding_keeps_its_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
