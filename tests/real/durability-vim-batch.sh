#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vim in batch mode (package vim), correct: `vim -es` substitutes in a file
# and writes it back with :wq. With its default 'fsync' option vim syncs the
# file before closing it (strace: an fsync of the file after its last write),
# so whatever it truncates or renames is durable when vim says it is written.
# No durability warning or error may come of it.
. "$top_srcdir/tests/real/lib.sh"
need vim:vim strace:strace
mount_ext4
seq 1 400 | sed 's/^/row /' > "$MNT/data.txt"
cd "$MNT" || exit 1
STRACE=1 record durability-vim-batch vim -es -N -u NONE -i NONE \
	-c '%s/^row 7$/row seven/' -c 'wq' data.txt
grep -q '^row seven$' "$MNT/data.txt" || { echo "FAIL: vim did not edit the file"; exit 1; }
check "$MNT" << 'PY'
import sys, corpus
c = corpus.Case("durability-vim-batch")
log = c.strace()
vim = log.pid("vim")
data = sys.argv[1] + "/data.txt"
written = [d for d in log.opened(vim, data) if d.writes]
synced = [d for d in written if d.syncs and d.syncs[-1].seq > d.writes[-1][1].seq]
print(f"strace: vim wrote data.txt through {len(written)} descriptions, synced after its "
      f"last write in {len(synced)}")
if not written or len(synced) != len(written):
    c.fail("strace: expected vim to fsync data.txt after writing it")
c.durability(log, vim)
c.done()
PY
