// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strace-like lines for records, exactly, and short buffers. Every record here
 * is one the host would pass (record_check): format__event checks nothing itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <cmocka.h>
#include <dio/plugin.h>
#include "engine/format.h"
#include "engine/record.h"

/* x86_64 numbers, written out: the records carry these whatever the build host */
enum {
	NR_read = 0, NR_write = 1, NR_open = 2, NR_close = 3, NR_stat = 4, NR_fstat = 5,
	NR_mmap = 9, NR_munmap = 11, NR_pread64 = 17, NR_pwrite64 = 18, NR_dup = 32, NR_dup2 = 33, NR_getpid = 39,
	NR_fcntl = 72, NR_rename = 82, NR_chown = 92, NR_mknod = 133, NR_sync = 162,
	NR_setxattr = 188, NR_openat = 257, NR_newfstatat = 262, NR_utimensat = 280,
	NR_preadv2 = 327, NR_statx = 332,
};

static const struct dio_file_tag tag = { .ino = 1234, .dev = (8 << 20) | 1, .gen = 5 };

/* the path table: only tag 8:1|1234|5 has a path */
static const char *path_of(void *ud, const struct dio_file_tag *t)
{
	(void)ud;
	return t->ino == 1234 && t->dev == tag.dev && t->gen == tag.gen ? "/tmp/x" : NULL;
}

static const struct fmt_ctx plain = { .path_of = path_of };
static const struct fmt_ctx full = { .flags = DIO_FMT_TID | DIO_FMT_DETAILS, .path_of = path_of };

struct rec {
	struct dio_ev_syscall ev;
	char tail[128];		/* strings, then a content tail */
};

static struct rec mk(unsigned int nr, int64_t ret, const char *s0, const char *s1)
{
	struct rec r;
	size_t l0 = s0 ? strlen(s0) + 1 : 0, l1 = s1 ? strlen(s1) + 1 : 0;

	memset(&r, 0, sizeof(r));
	r.ev.hdr.type = DIO_EV_SYSCALL;
	r.ev.hdr.size = sizeof(r.ev) + l0 + l1;
	r.ev.hdr.ts = 1000;
	r.ev.pid = 10;
	r.ev.tid = 11;
	memcpy(r.ev.comm, "app", 4);
	r.ev.nr = nr;
	r.ev.ret = ret;
	r.ev.fd = -1;
	r.ev.str_len[0] = l0;
	r.ev.str_len[1] = l1;
	if (s0)
		memcpy(r.tail, s0, l0);
	if (s1)
		memcpy(r.tail + l0, s1, l1);
	return r;
}

static void with_file(struct rec *r, int fd)
{
	r->ev.flags |= DIO_SF_FILE;
	r->ev.fd = fd;
	r->ev.tag = tag;
	r->ev.ftype = DIO_FT_REG;
}

static void args(struct rec *r, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		 uint64_t a5)
{
	uint64_t a[6] = { a0, a1, a2, a3, a4, a5 };

	memcpy(r->ev.args, a, sizeof(a));
}

/* a record the host hands over: one that passes its check */
static void checked(const void *r)
{
	const char *why = "";

	if (record_check(r, ((const struct dio_ev_hdr *)r)->size, RECORD_HOST_MADE, &why))
		fail_msg("the test's record is malformed: %s", why);
}

/* the line, and the length returned is the line's */
static void expect(const void *r, const struct fmt_ctx *c, const char *want)
{
	char buf[1024];
	int n;

	checked(r);
	memset(buf, 'Z', sizeof(buf));
	n = format__event(c, r, buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_int_equal(n, (int)strlen(want));
}

#define AT_FDCWD_ARG ((uint64_t)(int64_t)-100)

/* ---- the calls ------------------------------------------------------------- */

static void openat_creating_returns_fd_with_path(void **state)
{
	struct rec r = mk(NR_openat, 3, "/tmp/x", NULL);

	args(&r, AT_FDCWD_ARG, 0x7ffd0000, O_WRONLY | O_CREAT | O_TRUNC, 0644, 0, 0);
	with_file(&r, 3);
	expect(&r, &plain,
	       "openat(AT_FDCWD, \"/tmp/x\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3</tmp/x>");
	expect(&r, &full, "[10/11 app] openat(AT_FDCWD, \"/tmp/x\", O_WRONLY|O_CREAT|O_TRUNC, "
			  "0644) = 3</tmp/x> {type=reg tag=8:1|1234|5}");
}

static void open_mode_only_when_a_file_may_be_created(void **state)
{
	struct rec r = mk(NR_openat, 4, "/tmp/x", NULL);

	args(&r, AT_FDCWD_ARG, 0, O_RDONLY | O_CLOEXEC, 0777, 0, 0);
	with_file(&r, 4);
	expect(&r, &plain, "openat(AT_FDCWD, \"/tmp/x\", O_RDONLY|O_CLOEXEC) = 4</tmp/x>");
	/* O_TMPFILE creates a file: its mode shows */
	r.ev.args[2] = O_RDWR | O_TMPFILE;
	r.ev.args[3] = 0600;
	expect(&r, &plain, "openat(AT_FDCWD, \"/tmp/x\", O_RDWR|O_TMPFILE, 0600) = 4</tmp/x>");
	/* O_DIRECTORY alone is not O_TMPFILE */
	r.ev.args[2] = O_RDONLY | O_DIRECTORY;
	expect(&r, &plain, "openat(AT_FDCWD, \"/tmp/x\", O_RDONLY|O_DIRECTORY) = 4</tmp/x>");
	/* open(2): flags and mode are arguments 1 and 2 */
	r = mk(NR_open, 5, "a", NULL);
	args(&r, 0, O_WRONLY | O_CREAT | O_APPEND, 0640, 0, 0, 0);
	expect(&r, &plain, "open(\"a\", O_WRONLY|O_CREAT|O_APPEND, 0640) = 5");
	r.ev.args[1] = O_RDONLY;
	expect(&r, &plain, "open(\"a\", O_RDONLY) = 5");
}

static void openat_failing_has_no_file(void **state)
{
	struct rec r = mk(NR_openat, -ENOENT, "nope", NULL);

	args(&r, AT_FDCWD_ARG, 0, O_RDONLY, 0, 0, 0);
	expect(&r, &full, "[10/11 app] openat(AT_FDCWD, \"nope\", O_RDONLY) = "
			  "-1 ENOENT (No such file or directory)");
	/* a directory fd that is not the call's file prints bare */
	r.ev.args[0] = 7;
	expect(&r, &plain, "openat(7, \"nope\", O_RDONLY) = -1 ENOENT (No such file or directory)");
}

static void read_with_details_and_duration(void **state)
{
	struct rec r = mk(NR_read, 4096, NULL, NULL);
	struct fmt_ctx c = full;

	c.flags |= DIO_FMT_DURATION;
	args(&r, 3, 0x7ffd0000, 4096, 0, 0, 0);
	r.ev.duration = 12345;
	r.ev.offset = 8192;
	r.ev.flags |= DIO_SF_OFFSET;
	with_file(&r, 3);
	expect(&r, &c, "[10/11 app] read(3</tmp/x>, 0x7ffd0000, 4096) = 4096 <0.000012> "
		       "{off=8192 type=reg tag=8:1|1234|5}");
	/* whole seconds, and the microseconds cut, not rounded */
	r.ev.duration = 2999999999ULL;
	expect(&r, &c, "[10/11 app] read(3</tmp/x>, 0x7ffd0000, 4096) = 4096 <2.999999> "
		       "{off=8192 type=reg tag=8:1|1234|5}");
	/* details show only what the record has */
	r.ev.flags &= ~DIO_SF_FILE;
	expect(&r, &c, "[10/11 app] read(3, 0x7ffd0000, 4096) = 4096 <2.999999> {off=8192}");
	r.ev.flags &= ~DIO_SF_OFFSET;
	expect(&r, &c, "[10/11 app] read(3, 0x7ffd0000, 4096) = 4096 <2.999999>");
	r.ev.flags |= DIO_SF_FILE;
	expect(&r, &c, "[10/11 app] read(3</tmp/x>, 0x7ffd0000, 4096) = 4096 <2.999999> "
		       "{type=reg tag=8:1|1234|5}");
}

static void pread_at_an_offset_and_a_negative_one(void **state)
{
	struct rec r = mk(NR_pread64, 10, NULL, NULL);

	args(&r, 3, 0x1000, 10, 1ULL << 40, 0, 0);
	with_file(&r, 3);
	expect(&r, &plain, "pread64(3</tmp/x>, 0x1000, 10, 1099511627776) = 10");
	r.ev.args[3] = (uint64_t)-5;
	r.ev.ret = -EINVAL;
	expect(&r, &plain, "pread64(3</tmp/x>, 0x1000, 10, -5) = -1 EINVAL (Invalid argument)");
}

/* the formatter's own number writers at their edges, as printf would print them */
static void numbers_at_their_edges(void **state)
{
	struct rec r = mk(NR_pread64, INT64_MIN, NULL, NULL);
	char want[256];

	args(&r, 0, 0, UINT64_MAX, (uint64_t)INT64_MIN, 0, 0);
	snprintf(want, sizeof(want), "pread64(0, NULL, %llu, %lld) = %lld",
		 (unsigned long long)UINT64_MAX, (long long)INT64_MIN, (long long)INT64_MIN);
	expect(&r, &plain, want);
	args(&r, 2147483647, 0xffffffffffffffffULL, 0, INT64_MAX, 0, 0);
	r.ev.ret = 0;
	snprintf(want, sizeof(want), "pread64(2147483647, %#llx, 0, %lld) = 0",
		 (unsigned long long)UINT64_MAX, (long long)INT64_MAX);
	expect(&r, &plain, want);
	args(&r, 9, 0x10, 1, 10, 0, 0);
	r.ev.ret = 1;
	expect(&r, &plain, "pread64(9, 0x10, 1, 10) = 1");
}

static void failing_stat(void **state)
{
	struct rec r = mk(NR_stat, -ENOENT, "/missing", NULL);

	args(&r, 0x5000, 0x7ffd1000, 0, 0, 0, 0);
	expect(&r, &full, "[10/11 app] stat(\"/missing\", 0x7ffd1000) = "
			  "-1 ENOENT (No such file or directory)");
	r = mk(NR_newfstatat, -ENOENT, "missing", NULL);
	args(&r, AT_FDCWD_ARG, 0x5000, 0x7ffd1000, 0, 0, 0);
	expect(&r, &plain, "newfstatat(AT_FDCWD, \"missing\", 0x7ffd1000, 0) = "
			   "-1 ENOENT (No such file or directory)");
}

static void fstat_through_an_empty_path(void **state)
{
	struct rec r = mk(NR_newfstatat, 0, "", NULL);

	args(&r, 3, 0x5000, 0x7ffd2000, 0x1000, 0, 0);
	with_file(&r, 3);
	expect(&r, &full, "[10/11 app] newfstatat(3</tmp/x>, \"\", 0x7ffd2000, AT_EMPTY_PATH) = 0 "
			  "{type=reg tag=8:1|1234|5}");
	r = mk(NR_statx, 0, "", NULL);
	args(&r, 3, 0x5000, 0x1000 | 0x100, 0x7ff, 0x7ffd3000, 0);
	with_file(&r, 3);
	expect(&r, &plain, "statx(3</tmp/x>, \"\", AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH, "
			   "STATX_BASIC_STATS, 0x7ffd3000) = 0");
}

static void strings_cut_unreadable_or_absent(void **state)
{
	struct rec r = mk(NR_openat, 3, "/very/long/pa", NULL);

	args(&r, AT_FDCWD_ARG, 0xabc0, O_RDONLY, 0, 0, 0);
	r.ev.flags |= DIO_SF_STR0_TRUNC;
	expect(&r, &plain, "openat(AT_FDCWD, \"/very/long/pa\"..., O_RDONLY) = 3");
	/* unreadable: no bytes, the pointer */
	r = mk(NR_openat, 3, NULL, NULL);
	args(&r, AT_FDCWD_ARG, 0xabc0, O_RDONLY, 0, 0, 0);
	r.ev.flags = DIO_SF_STR0_FAULT;
	expect(&r, &plain, "openat(AT_FDCWD, 0xabc0, O_RDONLY) = 3");
	/* not captured at all */
	r = mk(NR_openat, 3, NULL, NULL);
	args(&r, AT_FDCWD_ARG, 0xabc0, O_RDONLY, 0, 0, 0);
	expect(&r, &plain, "openat(AT_FDCWD, 0xabc0, O_RDONLY) = 3");
	/* utimensat on the dirfd itself: a NULL path */
	r = mk(NR_utimensat, 0, NULL, NULL);
	args(&r, 3, 0, 0, 0, 0, 0);
	with_file(&r, 3);
	r.ev.flags |= DIO_SF_STR0_FAULT;
	expect(&r, &plain, "utimensat(3</tmp/x>, NULL, NULL, 0) = 0");
}

static void strings_are_escaped(void **state)
{
	struct rec r = mk(NR_rename, 0, "a\"b\\c\td", "e\n\033\001" "7\303\251");

	args(&r, 0x1000, 0x2000, 0, 0, 0, 0);
	expect(&r, &plain, "rename(\"a\\\"b\\\\c\\td\", \"e\\n\\33\\0017\\303\\251\") = 0");
}

/*
 * The one escaping function of dio and its modules: a name as dump writes it;
 * text whose names are escaped already (DIO_ESC_TEXT) keeps its backslashes,
 * so escaping it again changes nothing; snprintf semantics when cut.
 */
static void escape_names_and_text(void **state)
{
	static const struct {
		const char *in;
		unsigned int flags;
		const char *out;
	} cases[] = {
		{ "\033]0;x\007\n\033[2J", 0, "\\33]0;x\\7\\n\\33[2J" },
		{ "a\\b\"c", 0, "a\\\\b\"c" },
		{ "a\\b\"c", DIO_ESC_QUOTE, "a\\\\b\\\"c" },
		{ "x \\33 \033\n", DIO_ESC_TEXT, "x \\33 \\33\\n" },
		{ "\001" "7\303\251\x9b", 0, "\\0017\\303\\251\\233" },
	};
	char buf[64], small[6];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = dio_escape(cases[i].in, strlen(cases[i].in), cases[i].flags, buf,
				      sizeof(buf));

		assert_string_equal(buf, cases[i].out);
		assert_int_equal(n, strlen(cases[i].out));
	}
	/* a NUL ends a name, not data */
	assert_int_equal(dio_escape("ab\0c", 4, 0, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(dio_escape("ab\0c", 4, DIO_ESC_BIN, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "ab\\0c");
	/* cut: what fits and a NUL; the length of all of it */
	assert_int_equal(dio_escape("\033\033\033", 3, 0, small, sizeof(small)), 9);
	assert_string_equal(small, "\\33\\3");
	assert_int_equal(dio_escape("abc", 3, 0, NULL, 0), 3);
}

/*
 * The one JSON string writer: UTF-8 as it is (cut sequences, overlong forms
 * and surrogates are not UTF-8), JSON's escapes, a stray byte as \udcXX or,
 * for people, as the text \xNN; snprintf semantics when cut.
 */
static void json_strings_escaped_once(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		unsigned int flags;
		const char *out;
	} cases[] = {
		{ "a\"b\\c/\303\251\360\237\230\200", 12, 0, "a\\\"b\\\\c/\303\251\360\237\230\200" },
		{ "\b\f\n\r\t\001\177", 7, 0, "\\b\\f\\n\\r\\t\\u0001\\u007f" },
		{ "x\0y", 3, 0, "x\\u0000y" },
		{ "\377\303(\300\257\355\240\200\303", 9, 0,
		  "\\udcff\\udcc3(\\udcc0\\udcaf\\udced\\udca0\\udc80\\udcc3" },
		{ "\377\303(\t", 4, DIO_JSON_XBYTES, "\\\\xff\\\\xc3(\\t" },
	};
	char buf[96], small[5];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = dio_json_escape(cases[i].in, cases[i].n, cases[i].flags, buf, sizeof(buf));

		assert_string_equal(buf, cases[i].out);
		assert_int_equal(n, strlen(cases[i].out));
		assert_true(n <= DIO_JSON_ESC_MAX * cases[i].n);
	}
	assert_int_equal(dio_json_escape("\001\002", 2, 0, small, sizeof(small)), 12);
	assert_string_equal(small, "\\u00");
	assert_int_equal(dio_json_escape("\377", 1, 0, NULL, 0), 6);
}

static void rename_two_strings_each_cut_or_unreadable(void **state)
{
	struct rec r = mk(NR_rename, 0, "/a/old", "/a/new");

	args(&r, 0x1000, 0x2000, 0, 0, 0, 0);
	expect(&r, &full, "[10/11 app] rename(\"/a/old\", \"/a/new\") = 0");
	r.ev.flags |= DIO_SF_STR1_TRUNC;
	expect(&r, &plain, "rename(\"/a/old\", \"/a/new\"...) = 0");
	/* an unreadable string has no bytes: the second is the record's only one */
	r = mk(NR_rename, 0, NULL, "/a/new");
	args(&r, 0x1000, 0x2000, 0, 0, 0, 0);
	r.ev.flags = DIO_SF_STR0_FAULT | DIO_SF_STR1_TRUNC;
	expect(&r, &plain, "rename(0x1000, \"/a/new\"...) = 0");
	r = mk(NR_rename, -EXDEV, "/a/old", NULL);
	args(&r, 0x1000, 0x2000, 0, 0, 0, 0);
	r.ev.flags = DIO_SF_STR1_FAULT;
	expect(&r, &plain, "rename(\"/a/old\", 0x2000) = -1 EXDEV (Invalid cross-device link)");
}

static void xattr_path_and_name(void **state)
{
	struct rec r = mk(NR_setxattr, 0, "new", "user.dio");

	args(&r, 0x1000, 0x2000, 0x3000, 5, 1, 0);
	expect(&r, &plain, "setxattr(\"new\", \"user.dio\", 0x3000, 5, XATTR_CREATE) = 0");
}

static void close_names_its_file(void **state)
{
	struct rec r = mk(NR_close, 0, NULL, NULL);

	args(&r, 3, 0, 0, 0, 0, 0);
	with_file(&r, 3);
	expect(&r, &plain, "close(3</tmp/x>) = 0");
	expect(&r, &full, "[10/11 app] close(3</tmp/x>) = 0 {type=reg tag=8:1|1234|5}");
	/* a file whose path never arrived shows its tag */
	r.ev.tag.ino = 99;
	expect(&r, &plain, "close(3<tag 8:1|99|5>) = 0");
	/* no path lookup at all */
	expect(&r, &(struct fmt_ctx){ .flags = 0 }, "close(3<tag 8:1|99|5>) = 0");
	r.ev.flags = 0;
	r.ev.ret = -EBADF;
	expect(&r, &plain, "close(3) = -1 EBADF (Bad file descriptor)");
}

static void dup_family_names_both_fds(void **state)
{
	struct rec r = mk(NR_dup, 4, NULL, NULL);

	args(&r, 3, 0, 0, 0, 0, 0);
	with_file(&r, 3);
	expect(&r, &full, "[10/11 app] dup(3</tmp/x>) = 4</tmp/x> {type=reg tag=8:1|1234|5}");
	/* the new fd was not the file before the call */
	r = mk(NR_dup2, 10, NULL, NULL);
	args(&r, 3, 10, 0, 0, 0, 0);
	with_file(&r, 3);
	expect(&r, &plain, "dup2(3</tmp/x>, 10) = 10</tmp/x>");
	r.ev.ret = -EBADF;
	r.ev.flags = 0;
	expect(&r, &plain, "dup2(3, 10) = -1 EBADF (Bad file descriptor)");
}

static void fcntl_by_command(void **state)
{
	struct rec r = mk(NR_fcntl, 20, NULL, NULL);

	args(&r, 3, F_DUPFD, 20, 0, 0, 0);
	with_file(&r, 3);
	expect(&r, &full, "[10/11 app] fcntl(3</tmp/x>, F_DUPFD, 20) = 20</tmp/x> "
			  "{type=reg tag=8:1|1234|5}");
	r.ev.args[1] = F_DUPFD_CLOEXEC;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_DUPFD_CLOEXEC, 20) = 20</tmp/x>");
	r.ev.args[1] = F_GETFL;
	r.ev.ret = 0x8002;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_GETFL) = 0x8002 (flags O_RDWR|O_LARGEFILE)");
	r.ev.args[1] = F_GETFD;
	r.ev.ret = 1;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_GETFD) = 0x1 (flags FD_CLOEXEC)");
	r.ev.ret = 0;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_GETFD) = 0");
	r.ev.args[1] = F_SETFD;
	r.ev.args[2] = FD_CLOEXEC;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_SETFD, FD_CLOEXEC) = 0");
	r.ev.args[1] = F_SETFL;
	r.ev.args[2] = O_RDWR | O_NONBLOCK;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_SETFL, O_RDWR|O_NONBLOCK) = 0");
	r.ev.args[1] = F_SETLKW;
	r.ev.args[2] = 0x7ffd4000;
	r.ev.ret = -EINTR;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_SETLKW, 0x7ffd4000) = "
			   "-1 EINTR (Interrupted system call)");
	r.ev.args[1] = F_SETLEASE;
	r.ev.args[2] = F_WRLCK;
	r.ev.ret = 0;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_SETLEASE, F_WRLCK) = 0");
	r.ev.args[1] = F_GETLEASE;
	r.ev.ret = F_UNLCK;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_GETLEASE) = F_UNLCK");
	r.ev.args[1] = F_ADD_SEALS;
	r.ev.args[2] = F_SEAL_SEAL | F_SEAL_GROW;
	r.ev.ret = 0;
	expect(&r, &plain, "fcntl(3</tmp/x>, F_ADD_SEALS, F_SEAL_SEAL|F_SEAL_GROW) = 0");
	r.ev.args[1] = 0x4242;
	r.ev.args[2] = 0x10;
	r.ev.ret = -EINVAL;
	expect(&r, &plain, "fcntl(3</tmp/x>, 0x4242, 0x10) = -1 EINVAL (Invalid argument)");
}

static void mmap_and_munmap_of_a_file(void **state)
{
	struct rec r = mk(NR_mmap, 0x7f0000000000, NULL, NULL);

	args(&r, 0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
	with_file(&r, 3);
	r.ev.flags |= DIO_SF_OFFSET;
	expect(&r, &full, "[10/11 app] mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_SHARED, "
			  "3</tmp/x>, 0) = 0x7f0000000000 {off=0 type=reg tag=8:1|1234|5}");
	r.ev.args[5] = 0x3000;
	r.ev.ret = -ENOMEM;
	r.ev.flags = 0;
	expect(&r, &plain, "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_SHARED, 3, 0x3000) = "
			   "-1 ENOMEM (Cannot allocate memory)");
	/* munmap: the remembered mapping's file, no fd */
	r = mk(NR_munmap, 0, NULL, NULL);
	args(&r, 0x7f0000000000, 4096, 0, 0, 0, 0);
	r.ev.flags = DIO_SF_FILE;
	r.ev.tag = tag;
	r.ev.ftype = DIO_FT_REG;
	expect(&r, &full, "[10/11 app] munmap(0x7f0000000000, 4096) = 0 {type=reg tag=8:1|1234|5}");
}

static void mknod_mode_and_device(void **state)
{
	struct rec r = mk(NR_mknod, 0, "/dev/x", NULL);

	/* the kernel's 32-bit dev: minor 0x1234 spans both of its fields */
	args(&r, 0x1000, 020000 | 0600, (0x34) | (8 << 8) | (0x12 << 20), 0, 0, 0);
	expect(&r, &plain, "mknod(\"/dev/x\", S_IFCHR|0600, makedev(0x8, 0x1234)) = 0");
	r.ev.args[1] = 010644;
	r.ev.args[2] = 0;
	expect(&r, &plain, "mknod(\"/dev/x\", S_IFIFO|0644, makedev(0, 0)) = 0");
}

static void chown_keeps_minus_one(void **state)
{
	struct rec r = mk(NR_chown, 0, "/x", NULL);

	/* uid_t -1 reaches the tracepoint zero-extended */
	args(&r, 0x1000, 0xffffffff, 1000, 0, 0, 0);
	expect(&r, &plain, "chown(\"/x\", -1, 1000) = 0");
	r.ev.args[1] = (uint64_t)-1;
	r.ev.args[2] = 4294967294ULL;
	expect(&r, &plain, "chown(\"/x\", -1, 4294967294) = 0");
}

static void skipped_argument_and_flags(void **state)
{
	struct rec r = mk(NR_preadv2, 100, NULL, NULL);

	args(&r, 3, 0x1000, 2, (uint64_t)-1, 0xdead, 0x8);
	with_file(&r, 3);
	expect(&r, &plain, "preadv2(3</tmp/x>, 0x1000, 2, -1, RWF_NOWAIT) = 100");
}

static void no_arguments_and_unknown_numbers(void **state)
{
	struct rec r = mk(NR_sync, 0, NULL, NULL);

	args(&r, 1, 2, 3, 4, 5, 6);
	expect(&r, &full, "[10/11 app] sync() = 0");
	r = mk(NR_getpid, 1234, NULL, NULL);
	args(&r, 1, 0, 0, 0, 0, 0xffffffffffffffffULL);
	expect(&r, &plain, "syscall_39(0x1, 0, 0, 0, 0, 0xffffffffffffffff) = 1234");
	r.ev.nr = 60000;
	r.ev.ret = -EPERM;
	expect(&r, &plain, "syscall_60000(0x1, 0, 0, 0, 0, 0xffffffffffffffff) = "
			   "-1 EPERM (Operation not permitted)");
}

static void errors_by_name_text_and_number(void **state)
{
	struct rec r = mk(NR_fstat, -600, NULL, NULL);

	args(&r, 3, 0x1000, 0, 0, 0, 0);
	expect(&r, &plain, "fstat(3, 0x1000) = -1 ERRNO_600 (Unknown error 600)");
	/* the last errno; one more is a value */
	r.ev.ret = -4095;
	expect(&r, &plain, "fstat(3, 0x1000) = -1 ERRNO_4095 (Unknown error 4095)");
	r.ev.ret = -4096;
	expect(&r, &plain, "fstat(3, 0x1000) = -4096");
	/* a call interrupted by a signal, as the exit tracepoint sees it */
	r.ev.ret = -512;
	expect(&r, &plain, "fstat(3, 0x1000) = -1 ERESTARTSYS "
			   "(Interrupted by a signal; restarted if SA_RESTART is set)");
	r.ev.ret = -EAGAIN;
	expect(&r, &plain, "fstat(3, 0x1000) = -1 EAGAIN (Resource temporarily unavailable)");
}

static void time_prefixes(void **state)
{
	struct rec r = mk(NR_sync, 0, NULL, NULL);
	/* 2023-11-14 22:13:20.123456789 UTC */
	struct fmt_ctx c = { .realtime_off = 1700000000123456789LL - 1000, .path_of = path_of };

	setenv("TZ", "UTC", 1);
	tzset();
	c.flags = DIO_FMT_TIME_T;
	expect(&r, &c, "22:13:20 sync() = 0");
	c.flags = DIO_FMT_TIME_TT;
	expect(&r, &c, "22:13:20.123456 sync() = 0");
	c.flags = DIO_FMT_TIME_TTT;
	expect(&r, &c, "1700000000.123456 sync() = 0");
	c.flags = DIO_FMT_TIME_TTT | DIO_FMT_TID | DIO_FMT_DURATION;
	r.ev.duration = 1500;
	expect(&r, &c, "1700000000.123456 [10/11 app] sync() = 0 <0.000001>");
	/* local time of day, unless DIO_FMT_UTC asks for UTC (excerpts kept in files) */
	setenv("TZ", "Asia/Kolkata", 1);
	tzset();
	expect(&r, &c, "1700000000.123456 [10/11 app] sync() = 0 <0.000001>");
	c.flags = DIO_FMT_TIME_TT;
	expect(&r, &c, "03:43:20.123456 sync() = 0");
	c.flags = DIO_FMT_TIME_TT | DIO_FMT_UTC;
	expect(&r, &c, "22:13:20.123456Z sync() = 0");
	c.flags = DIO_FMT_TIME_T | DIO_FMT_UTC;
	expect(&r, &c, "22:13:20Z sync() = 0");
	setenv("TZ", "UTC", 1);
	tzset();
	/* the microseconds keep their leading zeros */
	c.realtime_off = 1700000000000001000LL - 1000;
	c.flags = DIO_FMT_TIME_TT;
	expect(&r, &c, "22:13:20.000001 sync() = 0");
	/* a clock offset gone wrong still prints a number that reads back: -2 + 0.5 s */
	c.realtime_off = -1500000000LL - 1000;
	c.flags = DIO_FMT_TIME_TTT;
	expect(&r, &c, "-2.500000 sync() = 0");
	/* a crafted file: timestamp and offset that overflow a signed sum wrap (no UB) */
	r.ev.hdr.ts = UINT64_MAX;
	c.realtime_off = INT64_MAX;
	expect(&r, &c, "9223372036.854775 sync() = 0");
}

/* a URL's password is starred wherever a command line is kept; nothing else changes */
static void url_passwords_are_redacted(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "clickhouse:url=http://dio:s3cret@db:8123/,session=x",
		  "clickhouse:url=http://dio:***@db:8123/,session=x" },
		{ "http://u:p@h http://v:q@i/x", "http://u:***@h http://v:***@i/x" },
		{ "http://user@host/", "http://user@host/" },
		{ "https://host:8443/a@b", "https://host:8443/a@b" },
		{ "url=http://a:b:c@h", "url=http://a:***@h" },
		{ "no url: at all://", "no url: at all://" },
		{ "", "" },
	};
	char buf[128], small[12];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(dio_redact_password(cases[i].in, buf, sizeof(buf)),
				 strlen(cases[i].out));
		assert_string_equal(buf, cases[i].out);
	}
	/* cut to the buffer, never past it, never the password */
	dio_redact_password("http://u:secret@h", small, sizeof(small));
	assert_string_equal(small, "http://u:**");
}

static void thread_names_are_escaped_and_bounded(void **state)
{
	struct rec r = mk(NR_sync, 0, NULL, NULL);

	memcpy(r.ev.comm, "a\nb", 4);
	expect(&r, &full, "[10/11 a\\nb] sync() = 0");
	/* a full 16-byte name without a NUL stops at 16 */
	memcpy(r.ev.comm, "0123456789abcdef", 16);
	expect(&r, &full, "[10/11 0123456789abcdef] sync() = 0");
}

/* content signature tail: hash, and the captured bytes with their NULs */
static void hash_and_data_in_details(void **state)
{
	struct rec r = mk(NR_read, 6, NULL, NULL);
	struct dio_ev_content ct = { .hash = 0xa9bc80cca21f28b3ULL, .hashed_len = 6,
				     .data_len = 6 };

	args(&r, 3, 0x1000, 4096, 0, 0, 0);
	with_file(&r, 3);
	r.ev.flags |= DIO_SF_OFFSET | DIO_SF_HASH;
	memcpy(r.tail, &ct, sizeof(ct));
	memcpy(r.tail + sizeof(ct), "hello\n", 6);
	r.ev.hdr.size = sizeof(r.ev) + sizeof(ct) + 6;
	expect(&r, &full, "[10/11 app] read(3</tmp/x>, 0x1000, 4096) = 6 "
			  "{off=0 type=reg tag=8:1|1234|5 hash=a9bc80cca21f28b3/6 "
			  "data=\"hello\\n\"}");
	memcpy(r.tail + sizeof(ct), "a\0" "1\0\"b", 6);
	expect(&r, &plain, "read(3</tmp/x>, 0x1000, 4096) = 6");
	expect(&r, &full, "[10/11 app] read(3</tmp/x>, 0x1000, 4096) = 6 "
			  "{off=0 type=reg tag=8:1|1234|5 hash=a9bc80cca21f28b3/6 "
			  "data=\"a\\0001\\0\\\"b\"}");
	/* hash only */
	ct.data_len = 0;
	ct.hashed_len = 2;
	memcpy(r.tail, &ct, sizeof(ct));
	r.ev.hdr.size = sizeof(r.ev) + sizeof(ct);
	expect(&r, &full, "[10/11 app] read(3</tmp/x>, 0x1000, 4096) = 6 "
			  "{off=0 type=reg tag=8:1|1234|5 hash=a9bc80cca21f28b3/2}");
	/* after the strings, unaligned */
	r = mk(NR_openat, 3, "ab", NULL);
	args(&r, AT_FDCWD_ARG, 0, O_RDONLY, 0, 0, 0);
	r.ev.flags |= DIO_SF_HASH;
	ct.hash = 1;
	memcpy(r.tail + 3, &ct, sizeof(ct));
	r.ev.hdr.size += sizeof(ct);
	expect(&r, &full, "[10/11 app] openat(AT_FDCWD, \"ab\", O_RDONLY) = 3 "
			  "{hash=0000000000000001/2}");
}

/* ---- other records --------------------------------------------------------- */

struct path_rec {
	struct dio_ev_path p;
	char s[16];
};

static void path_records(void **state)
{
	struct path_rec pa = {
		.p = { .hdr = { .type = DIO_EV_PATH, .size = sizeof(pa.p) + 7 }, .tag = tag,
		       .len = 7, .ftype = DIO_FT_REG, .pid = 10 },
		.s = "/tmp/x",
	};

	expect(&pa, &plain, "path 8:1|1234|5 reg \"/tmp/x\"");
	expect(&pa, &full, "[10] path 8:1|1234|5 reg \"/tmp/x\"");
	pa.p.flags = DIO_PF_RENAMED;
	expect(&pa, &plain, "path 8:1|1234|5 reg \"/tmp/x\" (renamed)");
	pa.p.flags = DIO_PF_DELETED | DIO_PF_TRUNC | DIO_PF_RENAMED;
	pa.p.ftype = DIO_FT_DIR;
	pa.p.tag.dev = (259u << 20) | 0xfffff;
	expect(&pa, &plain, "path 259:1048575|1234|5 dir \"/tmp/x\"... (renamed) (deleted)");
}

static void proc_records(void **state)
{
	struct dio_ev_proc p = { .hdr = { .type = DIO_EV_PROC, .size = sizeof(p) }, .pid = 10,
				 .tid = 12, .kind = DIO_PROC_RENAME, .comm = "rocksdb:low" };

	expect(&p, &full, "[10/12 rocksdb:low] +++ renamed \"rocksdb:low\" +++");
	expect(&p, &plain, "+++ renamed \"rocksdb:low\" +++");
	p.kind = DIO_PROC_FORK;
	p.other_pid = 1240;
	p.other_tid = 1240;
	expect(&p, &full, "[10/12 rocksdb:low] +++ fork child 1240/1240 +++");
	p.flags = DIO_PROCF_THREAD;
	p.other_pid = 10;
	p.other_tid = 1241;
	expect(&p, &full, "[10/12 rocksdb:low] +++ thread 10/1241 +++");
	p.flags = 0;
	p.kind = DIO_PROC_EXEC;
	memcpy(p.comm, "dd\0low", 7);
	expect(&p, &full, "[10/12 dd] +++ exec \"dd\" +++");
	p.kind = DIO_PROC_EXIT;
	p.exit_code = 0;
	expect(&p, &full, "[10/12 dd] +++ exited with 0 +++");
	p.exit_code = 3 << 8;
	p.flags = DIO_PROCF_GROUP_DEAD;
	expect(&p, &full, "[10/12 dd] +++ exited with 3 +++");
	p.exit_code = 9;
	expect(&p, &full, "[10/12 dd] +++ killed by signal 9 +++");
	p.exit_code = 11 | 0x80;
	expect(&p, &full, "[10/12 dd] +++ killed by signal 11 (core dumped) +++");
}

/* host-made: the end of an open file description */
static void ofd_records(void **state)
{
	struct dio_ev_ofd r = { .hdr = { .type = DIO_EV_OFD, .size = sizeof(r) }, .pid = 10,
				.tid = 11, .ofd = 0x1a2b3c, .fd = 1, .nr = NR_dup2,
				.how = DIO_OFD_REPLACED, .ftype = DIO_FT_REG,
				.flags = DIO_OFDF_FILE | DIO_OFDF_OPENED,
				.tag = { .ino = 1234 } };

	r.tag.dev = tag.dev;
	r.tag.gen = tag.gen;
	expect(&r, &full, "[10/11] --- ofd 001a2b3c ended: replaced of 1</tmp/x> sys=dup2 ---");
	r.how = DIO_OFD_END;
	r.nr = 0;
	r.flags = 0;
	r.fd = 4;
	expect(&r, &plain, "--- ofd 001a2b3c ended: end of trace of 4 ---");
}

static void block_and_runq_records(void **state)
{
	struct dio_ev_block b = { .hdr = { .type = DIO_EV_BLOCK, .size = sizeof(b) }, .pid = 10,
				  .tid = 12, .duration = 1234000, .queue_ns = 56000,
				  .sector = 2048, .comm = "db", .dev = (8u << 20) | 16,
				  .bytes = 65536, .nr = NR_pwrite64, .rwbs = "WS",
				  .flags = DIO_BF_QUEUED | DIO_BF_SYSCALL };
	struct dio_ev_runq r = { .hdr = { .type = DIO_EV_RUNQ, .size = sizeof(r), .cpu = 1 },
				 .pid = 10, .tid = 13, .delay = 2500000, .comm = "client0",
				 .prev_pid = 20, .prev_tid = 21, .prev_comm = "rocksdb:low0",
				 .nr = NR_read, .flags = DIO_RF_SYSCALL };

	expect(&b, &full, "[10/12 db] --- block WS 8:16 sector=2048 bytes=65536 latency=0.001234 "
			  "queue=0.000056 sys=pwrite64 ---");
	/* the latency always; queue, call and submitter are details */
	expect(&b, &plain, "--- block WS 8:16 sector=2048 bytes=65536 latency=0.001234 ---");
	b.flags = DIO_BF_KTHREAD;
	b.error = -EIO;
	memcpy(b.rwbs, "FWFSM\0\0\0", 8);
	memcpy(b.comm, "kworker/u8:6", 13);
	expect(&b, &full, "[10/12 kworker/u8:6] --- block FWFSM 8:16 sector=2048 bytes=65536 "
			  "latency=0.001234 error=EIO kthread ---");
	/* eight letters, no NUL: all eight, nothing more */
	memcpy(b.rwbs, "ABCDEFGH", 8);
	b.flags = 0;
	b.error = -4095;
	expect(&b, &plain, "--- block ABCDEFGH 8:16 sector=2048 bytes=65536 latency=0.001234 "
			   "error=4095 ---");
	/* a crafted file's INT_MIN: printed, not negated into overflow */
	b.error = INT32_MIN;
	expect(&b, &plain, "--- block ABCDEFGH 8:16 sector=2048 bytes=65536 latency=0.001234 "
			   "error=2147483648 ---");
	b.error = 5;	/* not an errno at all */
	expect(&b, &plain, "--- block ABCDEFGH 8:16 sector=2048 bytes=65536 latency=0.001234 "
			   "error=-5 ---");
	expect(&r, &full, "[10/13 client0] --- runq woken cpu=1 wait=0.002500 prev=20/21 "
			  "\"rocksdb:low0\" sys=read ---");
	r.flags = DIO_RF_PREEMPTED;
	expect(&r, &plain, "--- runq preempted cpu=1 wait=0.002500 prev=20/21 \"rocksdb:low0\" ---");
}

static void uring_records(void **state)
{
	struct dio_ev_iouring u = { .hdr = { .type = DIO_EV_IOURING, .size = sizeof(u) },
				    .pid = 10, .tid = 13, .res = 4096, .offset = 0, .comm = "app",
				    .tag = tag, .len = 4096, .fd = 3, .opcode = 22,
				    .ftype = DIO_FT_REG, .flags = DIO_IF_FILE, .duration = 250000 };
	struct fmt_ctx c = full;

	expect(&u, &plain, "io_uring READ(fd 3</tmp/x>, off=0, len=4096) = 4096");
	c.flags |= DIO_FMT_DURATION;
	expect(&u, &c, "[10/13 app] io_uring READ(fd 3</tmp/x>, off=0, len=4096) = 4096 <0.000250> "
		       "{type=reg tag=8:1|1234|5}");
	u.opcode = 23;
	u.flags |= DIO_IF_FIXED;
	u.fd = 0;
	u.offset = (uint64_t)-1;
	u.res = -EAGAIN;
	expect(&u, &plain, "io_uring WRITE(fixed 0</tmp/x>, off=-1, len=4096) = "
			   "-1 EAGAIN (Resource temporarily unavailable)");
	u.flags = 0;
	u.opcode = 200;
	u.fd = 5;
	u.offset = 8192;
	u.res = 0;
	expect(&u, &c, "[10/13 app] io_uring OP_200(fd 5, off=8192, len=4096) = 0 <0.000250>");
	u.opcode = 3;
	u.len = 0;
	expect(&u, &plain, "io_uring FSYNC(fd 5, off=8192, len=0) = 0");
}

/* ---- text kept from one line for the next ---------------------------------- */

static char moving_path[64] = "/tmp/a";

static const char *moving_path_of(void *ud, const struct dio_file_tag *t)
{
	(void)ud;
	return t->ino == 1234 ? moving_path : NULL;
}

/*
 * The thread's prefix, the file's <path> and the tag are kept from a line for
 * the next: every change of what makes them shows at once, and a line cut
 * short keeps nothing that a later line could reuse.
 */
static void kept_text_follows_every_change(void **state)
{
	const struct fmt_ctx c = { .flags = DIO_FMT_TID | DIO_FMT_DETAILS,
				   .path_of = moving_path_of };
	struct rec r = mk(NR_read, 5, NULL, NULL);
	char small[24];
	struct dio_file_tag other = tag;

	args(&r, 3, 0x10, 5, 0, 0, 0);
	with_file(&r, 3);
	expect(&r, &c, "[10/11 app] read(3</tmp/a>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	expect(&r, &c, "[10/11 app] read(3</tmp/a>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	/* the path replaced in place, under the same tag and pointer */
	strcpy(moving_path, "/tmp/b\033");
	expect(&r, &c, "[10/11 app] read(3</tmp/b\\33>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	strcpy(moving_path, "/tmp/b");
	expect(&r, &c, "[10/11 app] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	/* a longer path, then a shorter one that is its start */
	strcpy(moving_path, "/tmp/bc");
	expect(&r, &c, "[10/11 app] read(3</tmp/bc>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	strcpy(moving_path, "/tmp/b");
	expect(&r, &c, "[10/11 app] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	/* the thread renamed, another thread, another process */
	memcpy(r.ev.comm, "app2", 5);
	expect(&r, &c, "[10/11 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	r.ev.tid = 12;
	expect(&r, &c, "[10/12 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	r.ev.pid = 9;
	expect(&r, &c, "[9/12 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	/* another file with the same path; a tag without one */
	other.gen = 6;
	r.ev.tag = other;
	expect(&r, &c, "[9/12 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|6}");
	other.ino = 99;
	r.ev.tag = other;
	expect(&r, &c, "[9/12 app2] read(3<tag 8:1|99|6>, 0x10, 5) = 5 {type=reg tag=8:1|99|6}");
	/* a line cut inside the prefix, then in full with another thread */
	r.ev.tid = 13;
	r.ev.tag = tag;
	assert_int_equal(format__event(&c, &r.ev.hdr, small, 4),
			 (int)strlen("[9/13 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}"));
	assert_string_equal(small, "[9/");
	r.ev.pid = 10;
	expect(&r, &c, "[10/13 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	r.ev.pid = 9;
	expect(&r, &c, "[9/13 app2] read(3</tmp/b>, 0x10, 5) = 5 {type=reg tag=8:1|1234|5}");
	(void)state;
}

/* ---- short buffers ----------------------------------------------------------- */

/* every buffer size: the full length back, the start of the line, a NUL, nothing past len */
static void cut(const void *r, const struct fmt_ctx *c, const char *want)
{
	size_t n = strlen(want);

	checked(r);
	for (size_t len = 0; len <= n + 1; len++) {
		char buf[1024];

		memset(buf, 'Z', sizeof(buf));
		assert_int_equal(format__event(c, r, len ? buf : NULL, len), (int)n);
		assert_int_equal(buf[len], 'Z');
		if (!len)
			continue;
		assert_int_equal(strlen(buf), len - 1 < n ? len - 1 : n);
		assert_memory_equal(buf, want, strlen(buf));
	}
}

static void small_buffers_are_cut_and_counted(void **state)
{
	struct rec r = mk(NR_openat, 3, "/tmp/\n\"x", NULL);
	struct path_rec pa = { .p = { .hdr = { .type = DIO_EV_PATH, .size = sizeof(pa.p) + 7 },
				      .tag = tag, .len = 7, .ftype = DIO_FT_REG, .pid = 10,
				      .flags = DIO_PF_DELETED }, .s = "/tmp/x" };
	struct dio_ev_proc p = { .hdr = { .type = DIO_EV_PROC, .size = sizeof(p) }, .pid = 10,
				 .tid = 12, .kind = DIO_PROC_EXEC, .comm = "a\tb" };
	struct dio_ev_iouring u = { .hdr = { .type = DIO_EV_IOURING, .size = sizeof(u) },
				    .pid = 10, .tid = 13, .res = -ENOSPC, .comm = "app",
				    .tag = tag, .len = 4096, .fd = 3, .opcode = 23,
				    .ftype = DIO_FT_REG, .flags = DIO_IF_FILE };
	char buf[6];

	args(&r, AT_FDCWD_ARG, 0, O_WRONLY | O_CREAT, 0644, 0, 0);
	with_file(&r, 3);
	r.ev.flags |= DIO_SF_STR0_TRUNC;
	cut(&r, &full, "[10/11 app] openat(AT_FDCWD, \"/tmp/\\n\\\"x\"..., O_WRONLY|O_CREAT, "
		       "0644) = 3</tmp/x> {type=reg tag=8:1|1234|5}");
	cut(&pa, &full, "[10] path 8:1|1234|5 reg \"/tmp/x\" (deleted)");
	cut(&p, &full, "[10/12 a\\tb] +++ exec \"a\\tb\" +++");
	cut(&u, &full, "[10/13 app] io_uring WRITE(fd 3</tmp/x>, off=0, len=4096) = "
		       "-1 ENOSPC (No space left on device) {type=reg tag=8:1|1234|5}");
	r = mk(NR_fstat, 0, NULL, NULL);
	args(&r, 3, 0x10, 0, 0, 0, 0);
	assert_int_equal(format__event(&plain, &r.ev.hdr, buf, sizeof(buf)),
			 (int)strlen("fstat(3, 0x10) = 0"));
	assert_string_equal(buf, "fstat");
}

static void tags_and_types(void **state)
{
	struct dio_file_tag t = { .ino = 18446744073709551615ULL, .dev = 0xffffffff,
				  .gen = 4294967295u };
	char buf[64];

	assert_int_equal(dio_file_tag_format(&tag, buf, sizeof(buf)), 10);
	assert_string_equal(buf, "8:1|1234|5");
	assert_int_equal(dio_file_tag_format(&t, buf, sizeof(buf)),
			 (int)strlen("4095:1048575|18446744073709551615|4294967295"));
	assert_string_equal(buf, "4095:1048575|18446744073709551615|4294967295");
	assert_int_equal(strlen(buf) + 1, DIO_FILE_TAG_LEN);
	assert_int_equal(dio_file_tag_format(&tag, buf, 4), 10);
	assert_string_equal(buf, "8:1");
	assert_string_equal(format_ftype(DIO_FT_REG), "reg");
	assert_string_equal(format_ftype(DIO_FT_DIR), "dir");
	assert_string_equal(format_ftype(DIO_FT_SOCK), "sock");
	assert_string_equal(format_ftype(DIO_FT_FIFO), "fifo");
	assert_string_equal(format_ftype(DIO_FT_CHR), "chr");
	assert_string_equal(format_ftype(DIO_FT_BLK), "blk");
	assert_string_equal(format_ftype(DIO_FT_LNK), "lnk");
	assert_string_equal(format_ftype(DIO_FT_ANON), "anon");
	assert_string_equal(format_ftype(DIO_FT_NONE), "-");
	assert_string_equal(format_ftype(3), "-");
	assert_string_equal(format_ftype(1000), "-");
	assert_string_equal(format_ftype_name(DIO_FT_ANON), "anon");
	assert_null(format_ftype_name(DIO_FT_NONE));
	assert_null(format_ftype_name(3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(openat_creating_returns_fd_with_path),
		cmocka_unit_test(open_mode_only_when_a_file_may_be_created),
		cmocka_unit_test(openat_failing_has_no_file),
		cmocka_unit_test(read_with_details_and_duration),
		cmocka_unit_test(pread_at_an_offset_and_a_negative_one),
		cmocka_unit_test(numbers_at_their_edges),
		cmocka_unit_test(kept_text_follows_every_change),
		cmocka_unit_test(failing_stat),
		cmocka_unit_test(fstat_through_an_empty_path),
		cmocka_unit_test(strings_cut_unreadable_or_absent),
		cmocka_unit_test(strings_are_escaped),
		cmocka_unit_test(escape_names_and_text),
		cmocka_unit_test(json_strings_escaped_once),
		cmocka_unit_test(url_passwords_are_redacted),
		cmocka_unit_test(rename_two_strings_each_cut_or_unreadable),
		cmocka_unit_test(xattr_path_and_name),
		cmocka_unit_test(close_names_its_file),
		cmocka_unit_test(dup_family_names_both_fds),
		cmocka_unit_test(fcntl_by_command),
		cmocka_unit_test(mmap_and_munmap_of_a_file),
		cmocka_unit_test(mknod_mode_and_device),
		cmocka_unit_test(chown_keeps_minus_one),
		cmocka_unit_test(skipped_argument_and_flags),
		cmocka_unit_test(no_arguments_and_unknown_numbers),
		cmocka_unit_test(errors_by_name_text_and_number),
		cmocka_unit_test(time_prefixes),
		cmocka_unit_test(thread_names_are_escaped_and_bounded),
		cmocka_unit_test(hash_and_data_in_details),
		cmocka_unit_test(path_records),
		cmocka_unit_test(proc_records),
		cmocka_unit_test(block_and_runq_records),
		cmocka_unit_test(ofd_records),
		cmocka_unit_test(uring_records),
		cmocka_unit_test(small_buffers_are_cut_and_counted),
		cmocka_unit_test(tags_and_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
