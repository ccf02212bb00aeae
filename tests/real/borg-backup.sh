#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# BorgBackup (package borgbackup), correct: borg init (unencrypted) of a
# repository, borg create of a tree of 300 files (3 MB) twice (the second
# archive finds every chunk in its cache and stores only its metadata, under
# 10 kB, again), borg check
# and borg extract of the second archive. Borg writes its repository in
# segment files, appends and syncs them at each commit, and keeps a chunks
# cache and a files cache. The extracted tree equals the original (checked).
# No finding of the families errors, redundant-open or reuse-offset, at most
# 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need borg:borgbackup
mount_ext4
make_tree "$MNT/src" 1500
export BORG_BASE_DIR="$TMP/borg-base" BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK=yes
cat > "$TMP/scenario.sh" << 'SH'
set -e
cd "$1"
borg init -e none repo
borg create repo::one src
borg create --stats repo::two src > "$2/create.out" 2>&1
borg check repo
mkdir out && cd out && borg extract ../repo::two
SH
record borg-backup sh "$TMP/scenario.sh" "$MNT" "$TMP"
diff -r "$MNT/src" "$MNT/out/src" > /dev/null || { echo "FAIL: the extracted tree differs"; exit 1; }
grep -E "This archive|Number of files" "$TMP/create.out"
check "$TMP/create.out" << 'PY'
import re, sys, corpus
out = open(sys.argv[1]).read()
c = corpus.Case("borg-backup")
c.families()
files = re.search(r"Number of files: (\d+)", out)
dedup = re.search(r"This archive:\s+\S+ \S+\s+\S+ \S+\s+(\S+) (\S+)", out)
print(f"borg: the second archive has {files.group(1) if files else '?'} files,"
      f" {dedup.group(1) + ' ' + dedup.group(2) if dedup else '?'} stored anew")
unit = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
if not files or int(files.group(1)) != 300 or not dedup \
        or float(dedup.group(1)) * unit.get(dedup.group(2), 1e12) > 10000:
    c.fail("borg: expected 300 files in the second archive, next to nothing stored anew")
c.done()
PY
