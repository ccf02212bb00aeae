#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU sed -i (package sed), unsafe: edits a configuration file in place by
# writing a temporary file next to it (O_CREAT|O_EXCL), closing it and
# renaming it over the original, with no fsync anywhere. On XFS, or ext4
# mounted noauto_da_alloc, a power cut after the rename can leave the
# configuration empty (tests/kernels/powercut.sh shows it). dio must report
# durability.unsynced-replace for sed, with the bytes strace saw written to
# the temporary file and not synced, on the configuration's path.
. "$top_srcdir/tests/real/lib.sh"
need sed:sed strace:strace
mount_ext4
printf 'listen=80\nworkers=4\nlog=/var/log/app.log\n' > "$MNT/app.conf"
cd "$MNT" || exit 1
STRACE=1 record durability-sed-i sed -i 's/workers=4/workers=8/' app.conf
grep -q '^workers=8$' "$MNT/app.conf" || { echo "FAIL: sed did not edit the file"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("durability-sed-i")
log = c.strace()
sed = log.pid("sed")
c.durability(log, sed)
if not log.unsynced_replaces(sed):
    c.fail("strace: expected sed to rename an unsynced file over app.conf")
c.done()
PY
