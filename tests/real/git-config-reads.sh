#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# git, correct (cheap): `git ls-files` reads the repository's .git/config
# three times in one run (while it discovers the repository and checks its
# format, for the early configuration, and for the command's own), each time
# opening it and reading it to the end, though nothing changed it in between.
# (System and global configuration are left out, GIT_CONFIG_NOSYSTEM and an
# empty HOME, so that one file is read again.) strace must see the reads
# again; but they cost a few microseconds, about 3 % of git's time in calls on
# storage, under redundant-open's min_share (10 %): dio makes no
# redundant-open finding, nor any other of the families a correct program
# must not get.
. "$top_srcdir/tests/real/lib.sh"
need git:git strace:strace
mount_ext4
mkdir -p "$MNT/repo"
cd "$MNT/repo" || exit 1
git init -q . && echo hello > a && git add a &&
	git -c user.name=corpus -c user.email=corpus@localhost commit -qm first ||
	{ echo "FAIL: cannot make a git repository"; exit 1; }
(
	GIT_CONFIG_NOSYSTEM=1 STRACE=1
	export GIT_CONFIG_NOSYSTEM
	record git-config-reads git ls-files
) || exit 1
check "$MNT/repo/.git/config" << 'PY'
import sys, corpus
config = sys.argv[1]
c = corpus.Case("git-config-reads")
log = c.strace()
git = log.pid("git")
again = corpus.whole_reads(log, git)
print(f"strace: git read whole, more than once: {again}")
if list(again) != [config]:
    c.fail(f"strace: expected only {config} read whole more than once")
c.families()
c.forbid("redundant-open.duplicate-read")
c.done()
PY
