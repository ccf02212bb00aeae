// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The top of the git work tree around a directory, found as git's setup.c
 * finds it (setup_git_directory_gently: .git in each directory upwards, not
 * across a file system boundary, a .git directory valid when is_git_directory
 * says so) but without git: dio runs as root, usually in a checkout a CI user
 * owns. git there either refuses the repository ("dubious ownership", since
 * 2.35.2) or, told to trust it, reads its config, which can name programs to
 * run (core.fsmonitor). Reading three small files runs nothing. What git
 * also reads and this does not: GIT_DIR, GIT_WORK_TREE,
 * GIT_CEILING_DIRECTORIES and core.worktree (give --srcroot there).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "worktree.h"

/*
 * A small regular file's first line, NUL-terminated: 0 or -errno. O_NONBLOCK:
 * a FIFO planted as .git or HEAD must not hold dio up; it is refused.
 */
static int first_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto cleanup;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto cleanup;
	}
	n = read(fd, buf, len - 1);
	if (n < 0) {
		err = -errno;
		goto cleanup;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
cleanup:
	close(fd);
	return err;
}

/* HEAD as git's validate_headref takes it: a symbolic ref under refs/, or an object id */
static int valid_head(const char *head)
{
	size_t n = strspn(head, "0123456789abcdef");

	if (!strncmp(head, "ref:", 4)) {
		head += 4;
		head += strspn(head, " \t");
		return !strncmp(head, "refs/", 5);
	}
	return !head[n] && (n == 40 || n == 64);
}

/* dir holds a git directory: HEAD here, objects/ and refs/ in its common dir */
static int is_git_dir(const char *dir)
{
	char p[PATH_MAX], line[PATH_MAX], common[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s/HEAD", dir) >= (int)sizeof(p) ||
	    first_line(p, line, sizeof(line)) || !valid_head(line))
		return 0;
	/* a linked work tree's git directory names the repository's in "commondir" */
	snprintf(p, sizeof(p), "%s/commondir", dir);
	if (!first_line(p, line, sizeof(line)) && *line) {
		if (snprintf(common, sizeof(common), "%s%s%s", line[0] == '/' ? "" : dir,
			     line[0] == '/' ? "" : "/", line) >= (int)sizeof(common))
			return 0;
	} else {
		snprintf(common, sizeof(common), "%s", dir);
	}
	if (snprintf(p, sizeof(p), "%s/objects", common) >= (int)sizeof(p) || access(p, X_OK))
		return 0;
	if (snprintf(p, sizeof(p), "%s/refs", common) >= (int)sizeof(p) || access(p, X_OK))
		return 0;
	return 1;
}

/* dir (absolute) has a .git directory, or a .git file "gitdir: PATH" naming one */
static int has_git(const char *dir)
{
	char dotgit[PATH_MAX], line[PATH_MAX], target[PATH_MAX];
	const char *gd;
	struct stat st;

	if (snprintf(dotgit, sizeof(dotgit), "%s/.git", strcmp(dir, "/") ? dir : "") >=
	    (int)sizeof(dotgit) || stat(dotgit, &st))
		return 0;
	if (S_ISDIR(st.st_mode))
		return is_git_dir(dotgit);
	if (first_line(dotgit, line, sizeof(line)) || strncmp(line, "gitdir:", 7))
		return 0;
	gd = line + 7 + strspn(line + 7, " \t");
	if (!*gd)
		return 0;
	/* a relative gitdir is relative to the directory of the .git file */
	if (snprintf(target, sizeof(target), "%s%s%s", gd[0] == '/' ? "" : dir,
		     gd[0] == '/' || !strcmp(dir, "/") ? "" : "/", gd) >= (int)sizeof(target))
		return 0;
	return is_git_dir(target);
}

int worktree_top(const char *dir, char *buf, size_t len)
{
	char cur[PATH_MAX];
	struct stat st;
	dev_t dev;
	size_t n;

	if (!dir || dir[0] != '/')
		return -EINVAL;
	n = strlen(dir);
	if (n >= sizeof(cur))
		return -ENAMETOOLONG;
	memcpy(cur, dir, n + 1);
	while (n > 1 && cur[n - 1] == '/')
		cur[--n] = 0;
	if (stat(cur, &st))
		return -errno;
	dev = st.st_dev;
	for (;;) {
		char *slash;

		if (has_git(cur)) {
			if (strlen(cur) >= len)
				return -ENAMETOOLONG;
			memcpy(buf, cur, strlen(cur) + 1);
			return 0;
		}
		if (!strcmp(cur, "/"))
			return -ENOENT;
		slash = strrchr(cur, '/');
		if (slash == cur)
			slash[1] = 0;
		else
			*slash = 0;
		/* git stops at a mount point unless GIT_DISCOVERY_ACROSS_FILESYSTEM */
		if (stat(cur, &st))
			return -errno;
		if (st.st_dev != dev)
			return -ENOENT;
	}
}
