#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsync (package rsync), correct: a tree of 300 files in 10 directories
# copied with rsync -a, then 30 of them changed and rsync -a run again,
# which finds them by size and time and sends only their deltas (the
# receiver writes each into a temporary file, renamed over the old one). The
# copies equal the originals, and no rsync process opens a file of the
# source more than once (checked). rsync opens files safely: for each one
# it opens its parent directory anew (O_PATH, then ".") and the file relative
# to it, with O_NOFOLLOW, so that no symlink planted in the tree can lead it
# out (secure_relative_open, its defence against symlink races): a design,
# not churn. No finding of the families errors,
# redundant-open or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need rsync:rsync strace:strace
mount_ext4
make_tree "$MNT/src" 500
cat > "$TMP/scenario.sh" << 'SH'
set -e
rsync -a "$1/src/" "$1/dst/"
for d in 1 2 3; do
	for f in $(seq 10); do echo "changed" >> "$1/src/d$d/f$f"; done
done
touch -d '1 minute ago' "$1/src/d1/f1"
rsync -a --stats "$1/src/" "$1/dst/" > "$2/stats.out"
SH
STRACE=1 record rsync-tree sh "$TMP/scenario.sh" "$MNT" "$TMP"
diff -r "$MNT/src" "$MNT/dst" > /dev/null || { echo "FAIL: the copy differs"; exit 1; }
grep -E '^Number of (regular )?files transferred' "$TMP/stats.out"
check "$TMP/stats.out" << 'PY'
import re, sys, corpus
c = corpus.Case("rsync-tree")
c.families()
log = c.strace()
most, dirs = {}, 0
for d in log.descriptions:
    if d.path and "/src/d" in d.path and log.prog.get(d.tgid) == "rsync":
        if "O_DIRECTORY" in d.open.args:
            dirs += 1
        else:
            most[(d.tgid, d.path)] = most.get((d.tgid, d.path), 0) + 1
print(f"strace: the rsync processes opened {len(most)} (process, file) pairs of the source,"
      f" each at most {max(most.values())} times, and its directories {dirs} times"
      " (O_DIRECTORY, the parent of each file opened anew)")
if max(most.values()) > 1:
    c.fail("strace: expected no source file opened more than once by one rsync process")
m = re.search(r"Number of regular files transferred: (\d+)", open(sys.argv[1]).read())
if not m or int(m.group(1)) != 30:
    c.fail("rsync: expected the second run to send the 30 changed files")
c.done()
PY
