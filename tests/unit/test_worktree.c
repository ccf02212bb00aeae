// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The git work tree's top, which --srcroot defaults to: found from a
 * subdirectory, for a repository and a linked work tree (a .git file), past
 * .git entries git would not take (no objects, a bad HEAD, a FIFO, which must
 * not block), and not at all outside a repository or with a small buffer.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/worktree.h"

static char dir[] = "/tmp/dio-test-worktree-XXXXXX";

/* dir/rel made as a directory (with its parents) */
static void mkdirs(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *c = p + strlen(dir) + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(p, 0700);
			*c = '/';
		}
	assert_true(!mkdir(p, 0700) || errno == EEXIST);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* a git directory as git init makes one at dir/rel */
static void git_dir(const char *rel, const char *head)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/objects", rel);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/refs/heads", rel);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/HEAD", rel);
	put(p, head);
}

/* the top found from dir/rel, relative to dir ("" for dir itself); -errno: none */
static int top_of(const char *rel, char *out, size_t len)
{
	char from[PATH_MAX], top[PATH_MAX];
	size_t n = strlen(dir);
	int e;

	snprintf(from, sizeof(from), "%s/%s", dir, rel);
	e = worktree_top(from, top, sizeof(top));
	if (e)
		return e;
	assert_memory_equal(top, dir, n);
	snprintf(out, len, "%s", top[n] ? top + n + 1 : "");
	return 0;
}

static void found_from_a_subdirectory(void **state)
{
	char top[PATH_MAX];

	git_dir("repo/.git", "ref: refs/heads/main\n");
	mkdirs("repo/src/deep");
	assert_int_equal(top_of("repo/src/deep", top, sizeof(top)), 0);
	assert_string_equal(top, "repo");
	assert_int_equal(top_of("repo", top, sizeof(top)), 0);
	assert_string_equal(top, "repo");
	/* a trailing slash is the same directory */
	assert_int_equal(top_of("repo/src/", top, sizeof(top)), 0);
	assert_string_equal(top, "repo");
}

static void a_linked_work_tree_is_its_own_top(void **state)
{
	char top[PATH_MAX];

	/* git worktree add: a .git file naming repo/.git/worktrees/wt, which names its common dir */
	git_dir("repo/.git", "ref: refs/heads/main\n");
	mkdirs("repo/.git/worktrees/wt");
	put("repo/.git/worktrees/wt/HEAD", "0123456789abcdef0123456789abcdef01234567\n");
	put("repo/.git/worktrees/wt/commondir", "../..\n");
	mkdirs("wt/sub");
	put("wt/.git", "gitdir: ../repo/.git/worktrees/wt\n");
	assert_int_equal(top_of("wt/sub", top, sizeof(top)), 0);
	assert_string_equal(top, "wt");
	/* an absolute gitdir (a submodule's is relative, git worktree's absolute) */
	mkdirs("wt2");
	{
		char text[PATH_MAX];

		snprintf(text, sizeof(text), "gitdir: %s/repo/.git/worktrees/wt", dir);
		put("wt2/.git", text);
	}
	assert_int_equal(top_of("wt2", top, sizeof(top)), 0);
	assert_string_equal(top, "wt2");
}

static void entries_git_would_not_take_are_passed(void **state)
{
	char top[PATH_MAX];

	git_dir("outer/.git", "ref: refs/heads/main\n");
	/* no objects/ */
	mkdirs("outer/a/.git/refs");
	put("outer/a/.git/HEAD", "ref: refs/heads/main\n");
	/* a HEAD that is no ref */
	git_dir("outer/a/b/.git", "not a ref\n");
	/* a .git file naming nothing, and one that is not a gitdir line */
	mkdirs("outer/a/b/c/d");
	put("outer/a/b/c/.git", "gitdir: /nonexistent\n");
	put("outer/a/b/c/d/.git", "hello\n");
	assert_int_equal(top_of("outer/a/b/c/d", top, sizeof(top)), 0);
	assert_string_equal(top, "outer");
}

static void a_fifo_does_not_block(void **state)
{
	char p[PATH_MAX], top[PATH_MAX];

	git_dir("f/.git", "ref: refs/heads/main\n");
	mkdirs("f/x/.git");
	snprintf(p, sizeof(p), "%s/f/x/.git/HEAD", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	mkdirs("f/x/y");
	snprintf(p, sizeof(p), "%s/f/x/y/.git", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(top_of("f/x/y", top, sizeof(top)), 0);
	assert_string_equal(top, "f");
}

static void none_outside_a_repository(void **state)
{
	char top[PATH_MAX], small[8];

	mkdirs("plain/sub");
	/* mkdtemp's directory lies in /tmp, which no repository holds */
	assert_int_equal(top_of("plain/sub", top, sizeof(top)), -ENOENT);
	git_dir("r/.git", "ref: refs/heads/main\n");
	snprintf(top, sizeof(top), "%s/r", dir);
	assert_int_equal(worktree_top(top, small, sizeof(small)), -ENAMETOOLONG);
	assert_int_equal(worktree_top("relative/dir", top, sizeof(top)), -EINVAL);
	snprintf(top, sizeof(top), "%s/missing", dir);
	assert_int_equal(worktree_top(top, small, sizeof(small)), -ENOENT);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(found_from_a_subdirectory),
		cmocka_unit_test(a_linked_work_tree_is_its_own_top),
		cmocka_unit_test(entries_git_would_not_take_are_passed),
		cmocka_unit_test(a_fifo_does_not_block),
		cmocka_unit_test(none_outside_a_repository),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
