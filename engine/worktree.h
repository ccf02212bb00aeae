/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The top of the git work tree a directory lies in, as `git rev-parse
 * --show-toplevel` finds it, by reading the .git entries on the way up: dio
 * runs as root, and running git there would run the repository's
 * configuration (core.fsmonitor) from a tree a user controls.
 */
#ifndef DIO_WORKTREE_H
#define DIO_WORKTREE_H

#include <stddef.h>

/*
 * dir (absolute, without symbolic links: getcwd's) or the nearest directory
 * above it on the same file system that holds a .git directory, or a .git
 * file naming one ("gitdir: PATH", a linked work tree or a submodule), whose
 * HEAD, objects/ and refs/ are there as git checks them. The top goes into
 * buf. Returns 0, -ENOENT when dir is in no work tree, -ENAMETOOLONG when buf
 * is too small, or another -errno.
 */
int worktree_top(const char *dir, char *buf, size_t len);

#endif
