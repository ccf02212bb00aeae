// SPDX-License-Identifier: GPL-2.0-or-later
/* analyzers/common/pool: blocks handed out by index, zeroed, counted when none is left. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "analyzers/common/pool.h"

static void blocks_come_zeroed_lowest_first(void **unused)
{
	struct pool p;

	(void)unused;
	assert_int_equal(pool_init(&p, 13, 3), 0);
	/* sizes are rounded up to 8 bytes: each block starts aligned */
	assert_int_equal(p.block_size, 16);
	assert_int_equal(pool_bytes(&p), 3 * (16 + sizeof(int32_t)));
	assert_int_equal(pool_get(&p), 0);
	assert_int_equal(pool_get(&p), 1);
	memset(pool_at(&p, 1), 0xff, 13);
	pool_put(&p, 1);
	assert_int_equal(pool_get(&p), 1);
	for (int i = 0; i < 13; i++)
		assert_int_equal(((uint8_t *)pool_at(&p, 1))[i], 0);
	pool_free(&p);
	pool_free(&p);
}

static void a_full_pool_says_none_and_counts(void **unused)
{
	struct pool p;

	(void)unused;
	assert_int_equal(pool_init(&p, 8, 2), 0);
	assert_int_equal(pool_get(&p), 0);
	assert_int_equal(pool_get(&p), 1);
	assert_int_equal(pool_get(&p), POOL_NONE);
	assert_int_equal(pool_get(&p), POOL_NONE);
	assert_int_equal(p.misses, 2);
	pool_put(&p, POOL_NONE);
	pool_put(&p, 0);
	assert_int_equal(pool_get(&p), 0);
	pool_free(&p);
}

static void bad_sizes_are_refused(void **unused)
{
	struct pool p;

	(void)unused;
	assert_int_equal(pool_init(&p, 0, 4), -EINVAL);
	assert_int_equal(pool_init(&p, 8, 0), -EINVAL);
	assert_int_equal(pool_init(&p, 8, (size_t)INT32_MAX + 1), -EINVAL);
	assert_int_equal(pool_bytes(&p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_come_zeroed_lowest_first),
		cmocka_unit_test(a_full_pool_says_none_and_counts),
		cmocka_unit_test(bad_sizes_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
