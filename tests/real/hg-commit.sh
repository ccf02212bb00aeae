#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Mercurial (package mercurial), correct: hg init, hg add and commit of a
# tree of 100 files, 20 of them changed and committed again, hg clone of the
# repository and hg verify. Mercurial appends to its revlogs, writes a
# journal per transaction (renamed to undo files when it commits) and holds
# a lock file while it writes. No finding of the families errors,
# redundant-open or reuse-offset, at most 15 findings. The ground truth is
# hg's own: the clone's log and verify's report.
. "$top_srcdir/tests/real/lib.sh"
need hg:mercurial
mount_ext4
export HGRCPATH=/dev/null HGUSER="corpus <corpus@localhost>"
cat > "$TMP/scenario.sh" << 'SH'
set -e
cd "$1"
hg init repo
cd repo
for f in $(seq 100); do mkdir -p "d$((f % 5))"; seq "$f" "$((f + 300))" > "d$((f % 5))/f$f"; done
hg add -q
hg commit -q -m "the tree"
for f in $(seq 20); do echo "changed" >> "d$((f % 5))/f$f"; done
hg commit -q -m "twenty changes"
cd ..
hg clone -q repo clone
hg -R clone log -T '{rev} {desc}\n' > "$2/log.out"
hg -R clone verify > "$2/verify.out" 2>&1
SH
record hg-commit sh "$TMP/scenario.sh" "$MNT" "$TMP"
check "$TMP" << 'PY'
import sys, corpus
t = sys.argv[1]
c = corpus.Case("hg-commit")
c.families()
log = open(f"{t}/log.out").read().splitlines()
verify = open(f"{t}/verify.out").read()
print(f"hg: the clone's log {log}; verify: {verify.splitlines()[-1] if verify else ''}")
if log != ["1 twenty changes", "0 the tree"] or "checked 2 changesets" not in verify:
    c.fail("hg: expected the two changesets in the clone, verified")
c.done()
PY
