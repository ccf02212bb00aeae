// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzers/common/calls: a file's label is the path the host knows, else its
 * tag as dio writes tags everywhere, cut to the caller's buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyzers/common/calls.h"
#include "fakehost.h"

static void file_label_is_the_path_else_the_tag(void **state)
{
	struct dio_file_tag known = { .ino = 1, .dev = (8 << 20) | 1, .gen = 5 };
	struct dio_file_tag lost = { .ino = 99, .dev = (259 << 20) | 3, .gen = 7 };
	struct dio_file_tag widest = { .ino = UINT64_MAX, .dev = UINT32_MAX, .gen = UINT32_MAX };
	char buf[64], small[8];

	(void)state;
	fake_path(&known, "/data/a");
	assert_string_equal(file_label(&fakehost, &fake_ctx, &known, buf, sizeof(buf)), "/data/a");
	assert_string_equal(file_label(&fakehost, &fake_ctx, &lost, buf, sizeof(buf)),
			    "<tag 259:3|99|7>");
	assert_string_equal(file_label(&fakehost, &fake_ctx, &widest, buf, sizeof(buf)),
			    "<tag 4095:1048575|18446744073709551615|4294967295>");
	assert_string_equal(file_label(&fakehost, &fake_ctx, &lost, small, sizeof(small)),
			    "<tag 25");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(file_label_is_the_path_else_the_tag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
