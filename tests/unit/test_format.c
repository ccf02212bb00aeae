// SPDX-License-Identifier: GPL-2.0-or-later
/* strace-like lines for records, exactly. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <dio/plugin.h>
#include "engine/format.h"

static const struct dio_file_tag tag = { .ino = 1234, .dev = (8 << 20) | 1, .gen = 5 };

static const char *path_of(void *ud, const struct dio_file_tag *t)
{
	return t->ino == 1234 ? "/tmp/x" : NULL;
}

static const struct fmt_ctx fc = { .flags = DIO_FMT_TID | DIO_FMT_DETAILS, .path_of = path_of };

struct rec {
	struct dio_ev_syscall ev;
	char str[64];
};

static struct rec mk(unsigned int nr, int64_t ret, const char *s0, const char *s1)
{
	struct rec r;
	size_t l0 = s0 ? strlen(s0) + 1 : 0, l1 = s1 ? strlen(s1) + 1 : 0;

	memset(&r, 0, sizeof(r));
	r.ev.hdr.type = DIO_EV_SYSCALL;
	r.ev.hdr.size = sizeof(r.ev) + l0 + l1;
	r.ev.pid = 10;
	r.ev.tid = 11;
	memcpy(r.ev.comm, "app", 4);
	r.ev.nr = nr;
	r.ev.ret = ret;
	r.ev.fd = -1;
	r.ev.str_len[0] = l0;
	r.ev.str_len[1] = l1;
	if (s0)
		memcpy(r.str, s0, l0);
	if (s1)
		memcpy(r.str + l0, s1, l1);
	return r;
}

static void with_file(struct rec *r, int fd)
{
	r->ev.flags |= DIO_SF_FILE;
	r->ev.fd = fd;
	r->ev.tag = tag;
	r->ev.ftype = DIO_FT_REG;
}

static void expect(const void *r, const struct fmt_ctx *c, const char *want)
{
	char buf[512];
	int n = format_event(c, r, buf, sizeof(buf));

	assert_string_equal(buf, want);
	assert_int_equal(n, (int)strlen(want));
}

static void openat_with_create(void **unused)
{
	struct rec r = mk(SYS_openat, 3, "/tmp/x", NULL);

	r.ev.args[0] = (uint64_t)-100;
	r.ev.args[2] = O_WRONLY | O_CREAT | O_TRUNC;
	r.ev.args[3] = 0644;
	with_file(&r, 3);
	expect(&r, &fc, "[10/11 app] openat(AT_FDCWD, \"/tmp/x\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = "
			"3</tmp/x> {type=reg tag=8:1|1234|5}");
}

static void openat_without_create_has_no_mode(void **unused)
{
	struct rec r = mk(SYS_openat, -ENOENT, "nope", NULL);
	struct fmt_ctx plain = { .path_of = path_of };

	r.ev.args[0] = (uint64_t)-100;
	r.ev.args[2] = O_RDONLY | O_CLOEXEC;
	expect(&r, &plain, "openat(AT_FDCWD, \"nope\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)");
}

static void read_with_offset_and_duration(void **unused)
{
	struct rec r = mk(SYS_read, 4096, NULL, NULL);
	struct fmt_ctx c = fc;

	c.flags |= DIO_FMT_DURATION;
	r.ev.args[0] = 3;
	r.ev.args[1] = 0x7ffd0000;
	r.ev.args[2] = 4096;
	r.ev.duration = 12345;
	r.ev.offset = 8192;
	r.ev.flags |= DIO_SF_OFFSET;
	with_file(&r, 3);
	expect(&r, &c, "[10/11 app] read(3</tmp/x>, 0x7ffd0000, 4096) = 4096 <0.000012> "
		       "{off=8192 type=reg tag=8:1|1234|5}");
}

static void unknown_path_shows_tag(void **unused)
{
	struct rec r = mk(SYS_close, 0, NULL, NULL);
	struct fmt_ctx plain = { .path_of = path_of };

	r.ev.args[0] = 7;
	with_file(&r, 7);
	r.ev.tag.ino = 99;
	expect(&r, &plain, "close(7<tag 8:1|99|5>) = 0");
}

static void rename_two_strings_and_truncation(void **unused)
{
	struct rec r = mk(SYS_rename, 0, "a\"b", "c\n");
	struct fmt_ctx plain = { 0 };

	expect(&r, &plain, "rename(\"a\\\"b\", \"c\\n\") = 0");
	r.ev.flags |= DIO_SF_STR1_TRUNC;
	expect(&r, &plain, "rename(\"a\\\"b\", \"c\\n\"...) = 0");
	r.ev.flags |= DIO_SF_STR0_FAULT;
	r.ev.args[0] = 0x1000;
	expect(&r, &plain, "rename(0x1000, \"c\\n\"...) = 0");
}

static void malformed_records_are_refused(void **unused)
{
	struct rec r = mk(SYS_rename, 0, "a", "b");
	char buf[64];

	r.ev.str_len[1] = 60;	/* past the record's end */
	assert_int_equal(format_event(&fc, &r.ev.hdr, buf, sizeof(buf)), -EINVAL);
	r = mk(SYS_read, 0, NULL, NULL);
	r.ev.hdr.size = 20;
	assert_int_equal(format_event(&fc, &r.ev.hdr, buf, sizeof(buf)), -EINVAL);
}

static void small_buffer_counts_whole_line(void **unused)
{
	struct rec r = mk(SYS_fsync, 0, NULL, NULL);
	struct fmt_ctx plain = { 0 };
	char buf[6];

	r.ev.args[0] = 3;
	assert_int_equal(format_event(&plain, &r.ev.hdr, buf, sizeof(buf)), (int)strlen("fsync(3) = 0"));
	assert_string_equal(buf, "fsync");
}

static void proc_path_and_uring_records(void **unused)
{
	struct dio_ev_proc p = { .hdr = { .type = DIO_EV_PROC, .size = sizeof(p) }, .pid = 10,
				 .tid = 12, .kind = DIO_PROC_RENAME, .comm = "rocksdb:low" };
	struct {
		struct dio_ev_path p;
		char s[8];
	} pa = { .p = { .hdr = { .type = DIO_EV_PATH, .size = sizeof(pa) }, .tag = tag, .len = 7,
			.ftype = DIO_FT_REG, .flags = DIO_PF_RENAMED, .pid = 10 }, .s = "/tmp/x" };
	struct dio_ev_iouring u = { .hdr = { .type = DIO_EV_IOURING, .size = sizeof(u) }, .pid = 10,
				    .tid = 10, .res = 4096, .offset = 8192, .comm = "app",
				    .tag = tag, .len = 4096, .fd = 5, .opcode = 22, .ftype = DIO_FT_REG,
				    .flags = DIO_IF_FILE };

	expect(&p, &fc, "[10/12 rocksdb:low] +++ renamed \"rocksdb:low\" +++");
	p.kind = DIO_PROC_EXIT;
	p.exit_code = 3 << 8;
	expect(&p, &fc, "[10/12 rocksdb:low] +++ exited with 3 +++");
	p.exit_code = 9;
	expect(&p, &fc, "[10/12 rocksdb:low] +++ killed by signal 9 +++");
	expect(&pa, &fc, "[10/10 ] path 8:1|1234|5 reg \"/tmp/x\" (renamed)");
	expect(&u, &fc, "[10/10 app] io_uring READ(fd 5</tmp/x>, off=8192, len=4096) = 4096 "
			"{type=reg tag=8:1|1234|5}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(openat_with_create),
		cmocka_unit_test(openat_without_create_has_no_mode),
		cmocka_unit_test(read_with_offset_and_duration),
		cmocka_unit_test(unknown_path_shows_tag),
		cmocka_unit_test(rename_two_strings_and_truncation),
		cmocka_unit_test(malformed_records_are_refused),
		cmocka_unit_test(small_buffer_counts_whole_line),
		cmocka_unit_test(proc_path_and_uring_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
