#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# restic (package restic), correct: restic init of a local repository,
# restic backup of a tree of 300 files (3 MB) twice (the second run finds
# nothing changed), restic check and restic restore of the latest snapshot.
# restic writes its packs, indexes and snapshots as files named by their
# hash, each written to a temporary file, synced and renamed into place. The
# restored tree equals the original (checked). No finding of the families
# errors, redundant-open or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need restic:restic
mount_ext4
make_tree "$MNT/src" 1500
export RESTIC_PASSWORD=corpus RESTIC_CACHE_DIR="$TMP/restic-cache" GOMAXPROCS=2
cat > "$TMP/scenario.sh" << 'SH'
set -e
cd "$1"
restic -q -r repo init
restic -q -r repo backup src
restic -r repo backup src > "$2/backup.out"
restic -q -r repo check
restic -q -r repo restore latest --target out
SH
record restic-backup sh "$TMP/scenario.sh" "$MNT" "$TMP"
diff -r "$MNT/src" "$MNT/out/src" > /dev/null || { echo "FAIL: the restored tree differs"; exit 1; }
grep -E "^(Files|Added)" "$TMP/backup.out"
check "$TMP/backup.out" << 'PY'
import re, sys, corpus
out = open(sys.argv[1]).read()
c = corpus.Case("restic-backup")
c.families()
m = re.search(r"Files:\s+(\d+) new,\s+(\d+) changed,\s+(\d+) unmodified", out)
if not m or m.groups() != ("0", "0", "300"):
    c.fail(f"restic: expected the second backup to find the 300 files unmodified: {m and m.groups()}")
c.done()
PY
