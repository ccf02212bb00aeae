#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU ed (package ed), unsafe: a script edits a file and writes it back with
# `w`, which opens the file with O_TRUNC and writes the buffer into it, with
# no fsync. dio must report durability.truncate-rewrite for ed, counting the
# bytes the file held (what strace saw ed read).
. "$top_srcdir/tests/real/lib.sh"
need ed:ed strace:strace
mount_ext4
seq 1 300 | sed 's/^/line /' > "$MNT/notes.txt"
printf ',s/^line 42$/line forty-two/\nw\nq\n' > "$TMP/script.ed"
cd "$MNT" || exit 1
STRACE=1 record durability-ed sh -c 'ed -s notes.txt < "$1"' sh "$TMP/script.ed"
grep -q '^line forty-two$' "$MNT/notes.txt" || { echo "FAIL: ed did not edit the file"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("durability-ed")
log = c.strace()
ed = log.pid("ed")
c.durability(log, ed)
if not log.truncated_rewrites(ed):
    c.fail("strace: expected ed to truncate notes.txt and rewrite it with no sync")
c.done()
PY
