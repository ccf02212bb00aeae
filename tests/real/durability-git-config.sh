#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# git config (package git), unsafe: git writes the new configuration to
# .git/config.lock and renames it over .git/config; with git's default
# core.fsync it syncs neither the lock file nor the directory. dio must
# report durability.unsynced-replace for git, with the bytes strace saw
# written to config.lock, on .git/config.
. "$top_srcdir/tests/real/lib.sh"
need git:git strace:strace
mount_ext4
git init -q "$MNT/repo" || { echo "FAIL: git init"; exit 1; }
STRACE=1 record durability-git-config git -C "$MNT/repo" config user.name "Corpus Case"
[ "$(git -C "$MNT/repo" config user.name)" = "Corpus Case" ] ||
	{ echo "FAIL: git did not set user.name"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("durability-git-config")
log = c.strace()
git = log.pid("git")
c.durability(log, git)
if not log.unsynced_replaces(git):
    c.fail("strace: expected git to rename an unsynced config.lock over .git/config")
c.done()
PY
