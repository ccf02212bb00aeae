#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# logtail2, correct: the counterpart of logtail2-inode-reuse.sh. The log is
# rotated by logrotate (rename to app.log.1, create a new app.log), so the old
# file keeps its inode and the new one gets another number. logtail2 sees the
# inode change, finds the rotated file (its detectrotate rules look for
# app.log.1 with the saved inode number), prints what was added to it since
# the last run, then the new log from the start: nothing is lost. No WARNING
# or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need logtail2:logtail logrotate:logrotate strace:strace
mount_ext4
printf '%s {\n\trotate 1\n\tcreate\n}\n' "$MNT/app.log" > "$TMP/logrotate.conf"
cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
seq 1 500 > app.log
logtail2 -f app.log -o app.offset > "$2/first.out"
seq 501 600 >> app.log
logrotate -f -s "$2/logrotate.state" "$2/logrotate.conf"
seq 1001 1700 >> app.log
logtail2 -f app.log -o app.offset > "$2/second.out"
SH
STRACE=1 record logtail2-logrotate sh "$TMP/scenario.sh" "$MNT" "$TMP"
{ seq 501 600; seq 1001 1700; } > "$TMP/expected.out"
if ! cmp -s "$TMP/second.out" "$TMP/expected.out"; then
	echo "FAIL: logtail2 did not print the rest of app.log.1 and all of the new app.log"
	exit 1
fi
check << 'PY'
import corpus
c = corpus.Case("logtail2-logrotate")
c.forbid("reuse-offset.stale-offset", "reuse-offset.read-past-end")
c.allow("durability.truncate-rewrite",
        "logtail2 rewrites its offset file in place (open with O_TRUNC, write, close)"
        " with no fsync: after a power cut it can be empty, and logtail2 then reports"
        " the whole log again; right")
c.done()
PY
