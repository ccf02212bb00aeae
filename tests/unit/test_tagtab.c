// SPDX-License-Identifier: GPL-2.0-or-later
/* The file-tag table: lookups by the whole tag, growth, renames, and its bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "engine/tagtab.h"

static void generation_tells_files_apart(void **unused)
{
	struct tagtab *t = tagtab__new(0);
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

static void rename_replaces_the_path(void **unused)
{
	struct tagtab *t = tagtab__new(0);
	struct dio_file_tag a = { .ino = 5, .dev = 1, .gen = 9 };
	const char *before;

	assert_int_equal(tagtab__set(t, &a, "/a/old-name-and-more", 10), 0);
	before = tagtab__lookup(t, &a);
	assert_string_equal(before, "/a/old-nam");
	/* the same path sent again (the kernel forgot the tag): the same string */
	assert_int_equal(tagtab__set(t, &a, "/a/old-nam", 10), 0);
	assert_ptr_equal(tagtab__lookup(t, &a), before);
	assert_int_equal(tagtab__set(t, &a, "/a/new", 6), 0);
	assert_string_equal(tagtab__lookup(t, &a), "/a/new");
	assert_int_equal(tagtab__count(t), 1);
	assert_int_equal(tagtab__evicted(t), 0);
	tagtab__free(t);
}

/*
 * At most max paths: each new one past it forgets one not used since the
 * clock hand last passed, and is counted; a file in use (touched, looked up)
 * keeps its path. 100 000 files through a table of 1000 leave 1000.
 */
static void bounded_forgets_the_least_recently_used(void **unused)
{
	struct tagtab *t = tagtab__new(1000);
	struct dio_file_tag hot = { .ino = 1, .dev = 1, .gen = 1 };
	struct dio_file_tag looked = { .ino = 2, .dev = 1, .gen = 1 };
	char path[64];

	assert_int_equal(tagtab__set(t, &hot, "/hot", 4), 0);
	assert_int_equal(tagtab__set(t, &looked, "/looked", 7), 0);
	for (unsigned int i = 0; i < 100000; i++) {
		struct dio_file_tag k = { .ino = 1000 + i, .dev = 2, .gen = i };

		snprintf(path, sizeof(path), "/f/%u", i);
		assert_int_equal(tagtab__set(t, &k, path, strlen(path)), 0);
		/* every record of the hot file touches it; the other is looked up now and then */
		tagtab__touch(t, &hot);
		if (i % 100 == 0)
			assert_string_equal(tagtab__lookup(t, &looked), "/looked");
		/* another tag in between, so that the touch is not skipped as a repeat */
		tagtab__touch(t, &k);
		assert_true(tagtab__count(t) <= 1000);
	}
	assert_int_equal(tagtab__count(t), 1000);
	assert_int_equal(tagtab__evicted(t), 100002 - 1000);
	assert_string_equal(tagtab__lookup(t, &hot), "/hot");
	assert_string_equal(tagtab__lookup(t, &looked), "/looked");
	/* the newest are there, the oldest forgotten */
	for (unsigned int i = 99900; i < 100000; i++) {
		struct dio_file_tag k = { .ino = 1000 + i, .dev = 2, .gen = i };

		snprintf(path, sizeof(path), "/f/%u", i);
		assert_string_equal(tagtab__lookup(t, &k), path);
	}
	for (unsigned int i = 0; i < 1000; i++) {
		struct dio_file_tag k = { .ino = 1000 + i, .dev = 2, .gen = i };

		assert_null(tagtab__lookup(t, &k));
	}
	tagtab__free(t);
}

static void grows_past_initial_capacity(void **unused)
{
	struct tagtab *t = tagtab__new(0);
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

struct seen {
	unsigned int n;
	size_t bytes;
	int stop_at;
};

static int count_each(void *ud, const struct dio_file_tag *tag, const char *val, size_t len)
{
	struct seen *s = ud;

	assert_int_equal(val[len], 0);
	assert_int_equal(val[0], (char)tag->ino);
	s->n++;
	s->bytes += len;
	return (int)s->n == s->stop_at ? 7 : 0;
}

/*
 * Any bytes, NULs among them (dio record keeps whole path records), with
 * their length; each visits every entry, and stops at cb's first non-zero.
 */
static void bytes_with_nuls_and_each(void **unused)
{
	struct tagtab *t = tagtab__new(0);
	struct dio_file_tag a = { .ino = 'a', .dev = 1, .gen = 1 };
	struct dio_file_tag b = { .ino = 'b', .dev = 1, .gen = 1 };
	const char rec_a[6] = { 'a', 0, 1, 0, 2, 3 }, rec_b[3] = { 'b', 0, 0 };
	struct seen seen = { 0 };

	assert_int_equal(tagtab__set(t, &a, rec_a, sizeof(rec_a)), 0);
	assert_int_equal(tagtab__set(t, &b, rec_b, sizeof(rec_b)), 0);
	assert_memory_equal(tagtab__lookup(t, &a), rec_a, sizeof(rec_a));
	assert_int_equal(tagtab__each(t, count_each, &seen), 0);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.bytes, 9);
	/* the same first bytes, another length: replaced, not taken for the same */
	assert_int_equal(tagtab__set(t, &a, rec_a, 4), 0);
	memset(&seen, 0, sizeof(seen));
	seen.stop_at = 1;
	assert_int_equal(tagtab__each(t, count_each, &seen), 7);
	assert_int_equal(seen.n, 1);
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(tagtab__each(t, count_each, &seen), 0);
	assert_int_equal(seen.bytes, 7);
	tagtab__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(generation_tells_files_apart),
		cmocka_unit_test(rename_replaces_the_path),
		cmocka_unit_test(bounded_forgets_the_least_recently_used),
		cmocka_unit_test(grows_past_initial_capacity),
		cmocka_unit_test(bytes_with_nuls_and_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
