#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dpkg, correct (cheap): installing a package of 20 files (built with
# dpkg-deb, into a separate root and database). For each member of the
# package's data archive dpkg looks up its owner and group by name (getpwnam,
# getgrnam) without keeping the answer; without nscd, glibc opens /etc/passwd
# and /etc/group and reads them whole each time. strace must see those reads
# again; but they are about a tenth of a millisecond, about 5 % of dpkg's time
# in calls on storage (syncs aside): under redundant-open's min_share, so dio
# makes no redundant-open finding, nor any other of the families a correct
# program must not get. It opens its updates directory to fsync it after each
# status change: its journal's durability, no churn.
. "$top_srcdir/tests/real/lib.sh"
need dpkg:dpkg dpkg-deb:dpkg strace:strace
mount_ext4
demo_deb
db=$MNT/root/var/lib/dpkg
mkdir -p "$db/updates" "$db/info" "$db/triggers"
touch "$db/status" "$db/available"
STRACE=1 record dpkg-unpack dpkg --root="$MNT/root" --log="$MNT/dpkg.log" -i "$TMP/corpus-demo.deb"
[ -f "$MNT/root/usr/share/corpus-demo/f20" ] || { echo "FAIL: dpkg did not install"; exit 1; }
check "$MNT" << 'PY'
import sys, corpus
c = corpus.Case("dpkg-unpack")
log = c.strace()
dpkg = log.pid("dpkg")
again = corpus.whole_reads(log, dpkg)
print(f"strace: dpkg read whole, more than once: {again}")
if sorted(again) != ["/etc/group", "/etc/passwd"] or min(again.values()) < 20:
    c.fail("strace: expected /etc/passwd and /etc/group read whole once per file or more")
c.families()
c.forbid("redundant-open.duplicate-read")
db = sys.argv[1] + "/root/var/lib/dpkg/updates"
syncs = [d for d in log.opened(dpkg, db) if d.syncs]
print(f"strace: dpkg opened {db} {len(syncs)} times to fsync it")
c.forbid("redundant-open.create-unlink")
# no save of a file here that a power cut could empty or cut short
c.forbid(*corpus.DURABILITY)
c.done()
PY
