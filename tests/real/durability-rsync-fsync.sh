#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsync --fsync (package rsync), correct: a tree copied, 20 of its files
# changed, copied again over the first copy. The receiver writes each changed
# file to a temporary .NAME.XXXXXX, fsyncs it and renames it over the old
# copy (strace: every rename comes after an fsync of its file). It never
# syncs a directory: a crash can undo a rename (the old, whole copy comes
# back), which rsync accepts; dio may say so as an info
# (durability.unsynced-new-name), never as a warning or an error.
. "$top_srcdir/tests/real/lib.sh"
need rsync:rsync strace:strace
mount_ext4
make_tree "$MNT/src" 200
rsync -a "$MNT/src/" "$MNT/dst/" || { echo "FAIL: the first rsync"; exit 1; }
for d in 1 2; do
	for f in $(seq 10); do echo "changed" >> "$MNT/src/d$d/f$f"; done
done
STRACE=1 record durability-rsync-fsync rsync -a --fsync "$MNT/src/" "$MNT/dst/"
diff -r "$MNT/src" "$MNT/dst" > /dev/null || { echo "FAIL: the copy differs"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("durability-rsync-fsync")
log = c.strace()
renames = log.calls_of(("rename", "renameat", "renameat2"))
syncs = log.calls_of(("fsync",))
print(f"strace: rsync renamed {len(renames)} files, fsynced {len(syncs)}")
if len(renames) != 20 or len(syncs) < 20:
    c.fail("strace: expected 20 renames, each after an fsync of its file")
for pid in {log.tgid.get(r.pid, r.pid) for r in renames}:
    c.durability(log, pid)
c.done()
PY
