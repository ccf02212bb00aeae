// SPDX-License-Identifier: GPL-2.0-or-later
/* The file-tag table: lookups by the whole tag, growth, and pointers that outlive a rename. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "engine/tagtab.h"

static void generation_tells_files_apart(void **unused)
{
	struct tagtab *t = tagtab__new();
	struct dio_file_tag a = { .ino = 12, .dev = 7 << 20, .gen = 1 };
	struct dio_file_tag b = a;

	b.gen = 2;
	assert_int_equal(tagtab__set(t, &a, "/mnt/log", 8), 0);
	assert_int_equal(tagtab__set(t, &b, "/mnt/log.new", 12), 0);
	assert_string_equal(tagtab__lookup(t, &a), "/mnt/log");
	assert_string_equal(tagtab__lookup(t, &b), "/mnt/log.new");
	b.dev++;
	assert_null(tagtab__lookup(t, &b));
	assert_int_equal(tagtab__count(t), 2);
	tagtab__free(t);
}

static void old_path_stays_valid_after_rename(void **unused)
{
	struct tagtab *t = tagtab__new();
	struct dio_file_tag a = { .ino = 5, .dev = 1, .gen = 9 };
	const char *before;

	assert_int_equal(tagtab__set(t, &a, "/a/old-name-and-more", 10), 0);
	before = tagtab__lookup(t, &a);
	assert_string_equal(before, "/a/old-nam");
	assert_int_equal(tagtab__set(t, &a, "/a/new", 6), 0);
	assert_string_equal(tagtab__lookup(t, &a), "/a/new");
	assert_string_equal(before, "/a/old-nam");	/* still readable: kept until free */
	assert_int_equal(tagtab__count(t), 1);
	tagtab__free(t);
}

static void grows_past_initial_capacity(void **unused)
{
	struct tagtab *t = tagtab__new();
	char path[64];

	for (unsigned int i = 0; i < 100000; i++) {
		struct dio_file_tag k = { .ino = i, .dev = i % 3, .gen = i * 7 };

		snprintf(path, sizeof(path), "/f/%u", i);
		assert_int_equal(tagtab__set(t, &k, path, strlen(path)), 0);
	}
	assert_int_equal(tagtab__count(t), 100000);
	for (unsigned int i = 0; i < 100000; i += 997) {
		struct dio_file_tag k = { .ino = i, .dev = i % 3, .gen = i * 7 };

		snprintf(path, sizeof(path), "/f/%u", i);
		assert_string_equal(tagtab__lookup(t, &k), path);
	}
	tagtab__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(generation_tells_files_apart),
		cmocka_unit_test(old_path_stays_valid_after_rename),
		cmocka_unit_test(grows_past_initial_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
