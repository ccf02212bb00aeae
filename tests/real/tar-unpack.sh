#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU tar, correct: the counterpart of dpkg-unpack.sh. tar extracts the same
# data archive (the same 24 members, owned by root/root by name) as root, so
# it also looks up each member's owner and group by name, but it keeps the
# last name it looked up and its id: /etc/passwd and /etc/group are read once
# each. No WARNING or ERROR finding may come of it, and no duplicate-read.
. "$top_srcdir/tests/real/lib.sh"
need tar:tar dpkg-deb:dpkg strace:strace
mount_ext4
demo_deb
mkdir "$MNT/root"
STRACE=1 record tar-unpack tar -xf "$TMP/data.tar" -C "$MNT/root"
[ -f "$MNT/root/usr/share/corpus-demo/f20" ] || { echo "FAIL: tar did not extract"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("tar-unpack")
log = c.strace()
tar = log.pid("tar")
reads = {p: len([d for d in log.opened(tar, p) if d.whole()])
         for p in ("/etc/passwd", "/etc/group")}
print(f"strace: tar read whole: {reads}")
if reads != {"/etc/passwd": 1, "/etc/group": 1}:
    c.fail("strace: expected /etc/passwd and /etc/group read once each")
c.forbid("redundant-open.duplicate-read")
# no save of a file here that a power cut could empty or cut short
c.forbid(*corpus.DURABILITY)
c.done()
PY
