// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzers/common/expool: slots are lent until none is left, then the
 * lowest-scoring one changes hands only to a higher score and its owner is
 * told; ids given back are lent again; an empty pool lends nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analyzers/common/expool.h"

static uint32_t released[16];
static int nreleased;

static void on_release(const void *owner, void *ud)
{
	uint32_t o;

	(void)ud;
	memcpy(&o, owner, sizeof(o));
	released[nreleased++] = o;
}

static void test_a_full_pool_changes_hands_to_higher_scores_only(void **state)
{
	struct expool p;
	uint32_t owner, ids[3];

	(void)state;
	assert_int_equal(expool_init(&p, 3, sizeof(owner)), 0);
	p.release = on_release;
	nreleased = 0;
	for (owner = 0; owner < 3; owner++) {
		ids[owner] = expool_take(&p, &owner, 10 + owner);
		assert_true(ids[owner] >= 1 && ids[owner] <= 3);
		assert_non_null(expool_excerpt(&p, ids[owner]));
	}
	assert_int_not_equal(ids[0], ids[1]);
	assert_int_not_equal(ids[1], ids[2]);
	assert_int_not_equal(ids[0], ids[2]);
	/* 10 is the lowest: a score of 10 does not beat it, 11 does */
	owner = 7;
	assert_int_equal(expool_take(&p, &owner, 10), 0);
	assert_int_equal(nreleased, 0);
	assert_int_equal(expool_take(&p, &owner, 11), ids[0]);
	assert_int_equal(nreleased, 1);
	assert_int_equal(released[0], 0);
	/* scores move: owner 1 drops to 1 and is the next to go */
	expool_score(&p, ids[1], 1);
	owner = 8;
	assert_int_equal(expool_take(&p, &owner, 2), ids[1]);
	assert_int_equal(released[1], 1);
	/* an id given back is lent again, to anyone, with an empty excerpt */
	excerpt_reset(expool_excerpt(&p, ids[2]));
	expool_excerpt(&p, ids[2])->more = 5;
	expool_put(&p, ids[2]);
	assert_null(expool_excerpt(&p, ids[2]));
	owner = 9;
	assert_int_equal(expool_take(&p, &owner, 0), ids[2]);
	assert_int_equal(expool_excerpt(&p, ids[2])->more, 0);
	assert_int_equal(nreleased, 2);
	assert_int_equal(expool_bytes(&p), 3 * (sizeof(struct expool_slot) + sizeof(int32_t)));
	expool_free(&p);
}

/* an id handed to another owner keeps its excerpt; a later hand-over releases the new owner */
static void test_a_slot_handed_over_keeps_its_excerpt(void **state)
{
	struct expool p;
	uint32_t owner = 1, id;

	(void)state;
	assert_int_equal(expool_init(&p, 1, sizeof(owner)), 0);
	p.release = on_release;
	nreleased = 0;
	id = expool_take(&p, &owner, 5);
	expool_excerpt(&p, id)->more = 3;
	owner = 2;
	expool_reown(&p, id, &owner, 50);
	assert_int_equal(expool_excerpt(&p, id)->more, 3);
	assert_int_equal(nreleased, 0);
	/* its score is the new owner's: 20 does not take it, 51 does, from owner 2 */
	owner = 3;
	assert_int_equal(expool_take(&p, &owner, 20), 0);
	assert_int_equal(expool_take(&p, &owner, 51), id);
	assert_int_equal(nreleased, 1);
	assert_int_equal(released[0], 2);
	expool_reown(&p, 0, &owner, 1);	/* id 0: nothing */
	expool_free(&p);
}

static void test_an_empty_pool_lends_nothing(void **state)
{
	struct expool p;
	uint32_t owner = 1;

	(void)state;
	assert_int_equal(expool_init(&p, 0, sizeof(owner)), 0);
	assert_int_equal(expool_take(&p, &owner, 1000), 0);
	assert_null(expool_excerpt(&p, 0));
	expool_put(&p, 0);
	expool_free(&p);
	assert_int_equal(expool_init(&p, 1, EXPOOL_OWNER_MAX + 1), -EINVAL);
}

static void test_worth_asking_at_powers_of_two(void **state)
{
	(void)state;
	assert_false(expool_worth_asking(0));
	assert_true(expool_worth_asking(1));
	assert_true(expool_worth_asking(2));
	assert_false(expool_worth_asking(3));
	assert_true(expool_worth_asking(1024));
	assert_false(expool_worth_asking(1025));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_full_pool_changes_hands_to_higher_scores_only),
		cmocka_unit_test(test_a_slot_handed_over_keeps_its_excerpt),
		cmocka_unit_test(test_an_empty_pool_lends_nothing),
		cmocka_unit_test(test_worth_asking_at_powers_of_two),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
