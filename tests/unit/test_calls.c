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

static const char *known_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	(void)ctx;
	return tag->ino == 1 ? "/data/a" : NULL;
}

static const struct dio_host host = {
	.abi = DIO_PLUGIN_ABI,
	.size = sizeof(struct dio_host),
	.tag_path = known_path,
};

static void file_label_is_the_path_else_the_tag(void **state)
{
	struct dio_file_tag known = { .ino = 1, .dev = (8 << 20) | 1, .gen = 5 };
	struct dio_file_tag lost = { .ino = 99, .dev = (259 << 20) | 3, .gen = 7 };
	struct dio_file_tag widest = { .ino = UINT64_MAX, .dev = UINT32_MAX, .gen = UINT32_MAX };
	char buf[64], small[8];

	(void)state;
	assert_string_equal(file_label(&host, NULL, &known, buf, sizeof(buf)), "/data/a");
	assert_string_equal(file_label(&host, NULL, &lost, buf, sizeof(buf)), "<tag 259:3|99|7>");
	assert_string_equal(file_label(&host, NULL, &widest, buf, sizeof(buf)),
			    "<tag 4095:1048575|18446744073709551615|4294967295>");
	assert_string_equal(file_label(&host, NULL, &lost, small, sizeof(small)), "<tag 25");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(file_label_is_the_path_else_the_tag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
