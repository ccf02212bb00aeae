// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzers/common/table: what goes in comes out, deletions (backward shift)
 * never lose a neighbour, a full table evicts old entries rather than recent
 * ones and counts them, and its memory is fixed at init.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyzers/common/table.h"

struct key {
	uint32_t a, b;
};

/* random puts, gets and dels against a plain array as the reference */
static void test_matches_a_reference_under_random_operations(void **state)
{
	enum { KEYS = 3000, OPS = 200000 };
	static uint64_t ref[KEYS];	/* 0: absent; else the value */
	struct table t;
	uint32_t seed = 1;

	(void)state;
	assert_int_equal(table_init(&t, sizeof(struct key), sizeof(uint64_t), KEYS), 0);
	for (int op = 0; op < OPS; op++) {
		uint32_t k, what;
		struct key key;
		uint64_t *v;

		seed = seed * 1103515245 + 12345;
		k = (seed >> 8) % KEYS;
		what = (seed >> 24) % 3;
		key = (struct key){ k, k * 7 };
		if (what == 0) {
			int created;

			v = table_put(&t, &key, &created);
			assert_non_null(v);
			assert_int_equal(created, ref[k] == 0);
			assert_true(created ? *v == 0 : *v == ref[k]);
			*v = ref[k] = (uint64_t)op + 1;
		} else if (what == 1) {
			v = table_get(&t, &key);
			if (ref[k])
				assert_true(v && *v == ref[k]);
			else
				assert_null(v);
		} else {
			table_del(&t, &key);
			ref[k] = 0;
		}
	}
	/* never full, so nothing was evicted, and every entry is still found */
	assert_int_equal(t.evicted, 0);
	for (uint32_t k = 0; k < KEYS; k++) {
		struct key key = { k, k * 7 };
		uint64_t *v = table_get(&t, &key);

		if (ref[k])
			assert_true(v && *v == ref[k]);
		else
			assert_null(v);
	}
	table_free(&t);
}

static int evicted_recent;

static void on_evict(void *key, void *val, void *ud)
{
	const struct key *k = key;

	(void)val;
	if (k->a >= *(uint32_t *)ud)
		evicted_recent++;
}

static void test_a_full_table_evicts_old_entries_and_stays_the_same_size(void **state)
{
	enum { MAX = 1000 };
	struct table t;
	uint32_t recent;
	size_t bytes;

	(void)state;
	assert_int_equal(table_init(&t, sizeof(struct key), 64, MAX), 0);
	t.evict = on_evict;
	t.ud = &recent;
	bytes = table_bytes(&t);
	assert_true(bytes >= MAX * (8 + 8 + 64));
	/* a million distinct keys through a table of a thousand */
	for (uint32_t k = 0; k < 1000000; k++) {
		struct key key = { k, 0 };

		recent = k > 100 ? k - 100 : 0;
		assert_non_null(table_put(&t, &key, NULL));
		/* keep key 7 alive by using it */
		if (k > 7 && !(k % 50))
			assert_non_null(table_get(&t, &(struct key){ 7, 0 }));
	}
	assert_int_equal(t.n, MAX);
	assert_int_equal(t.evicted, 1000000 - MAX);
	assert_int_equal(table_bytes(&t), bytes);
	/* the last hundred keys put are never the ones pushed out */
	assert_int_equal(evicted_recent, 0);
	assert_non_null(table_get(&t, &(struct key){ 7, 0 }));
	assert_non_null(table_get(&t, &(struct key){ 999999, 0 }));
	table_free(&t);
}

/* keys that come back after eviction are counted; new keys almost never are */
static void test_keys_that_come_back_after_eviction_are_counted(void **state)
{
	enum { MAX = 1000 };
	struct table t;

	(void)state;
	assert_int_equal(table_init(&t, sizeof(struct key), 8, MAX), 0);
	/* a hundred thousand keys seen once each: evicted, none returns */
	for (uint32_t k = 0; k < 100000; k++)
		table_put(&t, &(struct key){ k, 1 }, NULL);
	assert_int_equal(t.evicted, 100000 - MAX);
	/* false returns stay under 2 % of what was put, and are not reported as a loss */
	assert_true(t.returned < 2000);
	assert_int_equal(TABLE_LOST(&t), 0);
	t.returned = t.fresh = 0;
	/* a round-robin over 5000 keys, five times: each round brings back every key */
	for (int round = 0; round < 5; round++)
		for (uint32_t k = 0; k < 5000; k++)
			table_put(&t, &(struct key){ k, 2 }, NULL);
	/* the first round's keys are new; the four rounds after come back, filter resets
	 * forget some of them */
	assert_true(t.returned >= 4 * 5000 / 2);
	assert_true(t.returned <= 4 * 5000 + 5000 / 20);
	assert_int_equal(TABLE_LOST(&t), t.returned);
	/* deleted keys are not evicted ones: putting them again is not a return */
	table_free(&t);
	assert_int_equal(table_init(&t, sizeof(struct key), 8, MAX), 0);
	for (int round = 0; round < 5; round++)
		for (uint32_t k = 0; k < MAX; k++) {
			table_put(&t, &(struct key){ k, 3 }, NULL);
			table_del(&t, &(struct key){ k, 3 });
		}
	assert_int_equal(t.returned, 0);
	table_free(&t);
}

static int count_each;

static void count(void *key, void *val, void *ud)
{
	(void)key, (void)val, (void)ud;
	count_each++;
}

static void test_each_visits_every_entry_once(void **state)
{
	struct table t;

	(void)state;
	assert_int_equal(table_init(&t, 4, 4, 100), 0);
	for (uint32_t k = 0; k < 50; k++)
		table_put(&t, &k, NULL);
	for (uint32_t k = 0; k < 50; k += 2)
		table_del(&t, &k);
	table_each(&t, count, NULL);
	assert_int_equal(count_each, 25);
	table_free(&t);
	assert_int_equal(table_init(&t, 0, 4, 100), -22);
	assert_int_equal(table_bytes(&t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_a_reference_under_random_operations),
		cmocka_unit_test(test_a_full_table_evicts_old_entries_and_stays_the_same_size),
		cmocka_unit_test(test_keys_that_come_back_after_eviction_are_counted),
		cmocka_unit_test(test_each_visits_every_entry_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
