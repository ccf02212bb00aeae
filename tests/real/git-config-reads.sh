#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# git, bug: `git ls-files` reads the repository's .git/config three times in
# one run (while it discovers the repository and checks its format, for the
# early configuration, and for the command's own), each time opening it and
# reading it to the end, though nothing changed it in between. (System and
# global configuration are left out, GIT_CONFIG_NOSYSTEM and an empty HOME,
# so that one file is read again.) dio must report one
# redundant-open.duplicate-read for the git process on .git/config, counting
# the whole reads strace sees.
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
c.expect("redundant-open.duplicate-read", git, again.get(config), config)
c.done()
PY
