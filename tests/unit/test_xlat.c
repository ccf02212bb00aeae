// SPDX-License-Identifier: GPL-2.0-or-later
/* Flag decoding: multi-bit flags, values, unknown bits, small buffers. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "engine/xlat.h"

struct flag_case {
	const char *name;
	int (*fn)(uint64_t, char *, size_t);
	uint64_t v;
	const char *want;
};

static const struct flag_case cases[] = {
	{ "access mode is a value", xlat_open_flags, O_RDWR, "O_RDWR" },
	{ "read-only is named", xlat_open_flags, O_RDONLY, "O_RDONLY" },
	{ "create and truncate", xlat_open_flags, O_WRONLY | O_CREAT | O_TRUNC,
	  "O_WRONLY|O_CREAT|O_TRUNC" },
	{ "O_SYNC before its O_DSYNC bit", xlat_open_flags, O_WRONLY | O_SYNC, "O_WRONLY|O_SYNC" },
	{ "O_DSYNC alone", xlat_open_flags, O_WRONLY | O_DSYNC, "O_WRONLY|O_DSYNC" },
	{ "O_TMPFILE contains O_DIRECTORY", xlat_open_flags, O_RDWR | O_TMPFILE, "O_RDWR|O_TMPFILE" },
	{ "unknown open bit", xlat_open_flags, O_RDONLY | 0x40000000, "O_RDONLY|0x40000000" },
	{ "whence value", xlat_whence, SEEK_END, "SEEK_END" },
	{ "unknown whence", xlat_whence, 9, "9" },
	{ "mmap prot bits", xlat_mmap_prot, PROT_READ | PROT_WRITE, "PROT_READ|PROT_WRITE" },
	{ "mmap prot none", xlat_mmap_prot, 0, "PROT_NONE" },
	{ "mmap flags", xlat_mmap_flags, MAP_PRIVATE | MAP_ANONYMOUS, "MAP_PRIVATE|MAP_ANONYMOUS" },
	{ "shared-validate contains shared", xlat_mmap_flags, MAP_SHARED_VALIDATE,
	  "MAP_SHARED_VALIDATE" },
	{ "access F_OK", xlat_access_mode, 0, "F_OK" },
	{ "access bits", xlat_access_mode, 6, "R_OK|W_OK" },
	{ "at flags", xlat_at_flags, 0x1000 | 0x100, "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH" },
	{ "fcntl command", xlat_fcntl_cmd, F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC" },
	{ "msync", xlat_msync_flags, MS_SYNC | MS_INVALIDATE, "MS_INVALIDATE|MS_SYNC" },
	{ "unknown bit after known", xlat_msync_flags, MS_ASYNC | 0x100, "MS_ASYNC|0x100" },
};

static void decodes_table(void **unused)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[256];
		int n = cases[i].fn(cases[i].v, buf, sizeof(buf));

		if (strcmp(buf, cases[i].want) || n != (int)strlen(cases[i].want))
			fail_msg("%s: got '%s' (%d), want '%s'", cases[i].name, buf, n, cases[i].want);
	}
}

static void small_buffer_is_cut_and_counted(void **unused)
{
	char buf[8];
	int n = xlat_open_flags(O_WRONLY | O_CREAT | O_TRUNC, buf, sizeof(buf));

	assert_int_equal(n, (int)strlen("O_WRONLY|O_CREAT|O_TRUNC"));
	assert_string_equal(buf, "O_WRONL");
	n = xlat_open_flags(O_WRONLY | O_CREAT, NULL, 0);
	assert_int_equal(n, (int)strlen("O_WRONLY|O_CREAT"));
}

static void errno_names(void **unused)
{
	assert_string_equal(xlat_errno(2), "ENOENT");
	assert_string_equal(xlat_errno(9), "EBADF");
	assert_null(xlat_errno(4000));
	assert_string_equal(xlat_uring_op(22), "READ");
	assert_string_equal(xlat_uring_op(23), "WRITE");
	assert_null(xlat_uring_op(250));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decodes_table),
		cmocka_unit_test(small_buffer_is_cut_and_counted),
		cmocka_unit_test(errno_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
