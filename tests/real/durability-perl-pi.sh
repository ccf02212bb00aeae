#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perl -pi (package perl-base), unsafe: since Perl 5.28 -i writes the edited
# text to a temporary file in the same directory and renames it over the
# original, with no fsync. dio must report durability.unsynced-replace for
# perl, with the bytes strace saw written to the temporary file, on the
# edited file's path.
. "$top_srcdir/tests/real/lib.sh"
need perl:perl-base strace:strace
mount_ext4
seq 1 500 | sed 's/^/key/; s/$/=value/' > "$MNT/settings.ini"
cd "$MNT" || exit 1
STRACE=1 record durability-perl-pi perl -pi -e 's/^key7=value$/key7=changed/' settings.ini
grep -q '^key7=changed$' "$MNT/settings.ini" || { echo "FAIL: perl did not edit the file"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("durability-perl-pi")
log = c.strace()
perl = log.pid("perl")
c.durability(log, perl)
if not log.unsynced_replaces(perl):
    c.fail("strace: expected perl to rename an unsynced file over settings.ini")
c.done()
PY
