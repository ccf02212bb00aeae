#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sort -o FILE FILE (package coreutils), unsafe: sorts a file onto itself.
# It reads the file whole, opens it again with O_TRUNC, writes the sorted
# lines and closes it, with no fsync: a power cut before writeback leaves the
# file empty (ext4's auto_da_alloc narrows the window; XFS and ext4
# noauto_da_alloc do not). dio must report durability.truncate-rewrite for
# sort, counting the bytes the file held (what strace saw it read).
. "$top_srcdir/tests/real/lib.sh"
need sort:coreutils strace:strace
mount_ext4
seq 2000 -1 1 > "$MNT/list.txt"
cd "$MNT" || exit 1
STRACE=1 record durability-sort-o sort -n -o list.txt list.txt
[ "$(head -n 1 "$MNT/list.txt")" = 1 ] || { echo "FAIL: sort did not sort the file"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("durability-sort-o")
log = c.strace()
sort = log.pid("sort")
c.durability(log, sort)
if not log.truncated_rewrites(sort):
    c.fail("strace: expected sort to truncate list.txt and rewrite it with no sync")
c.done()
PY
