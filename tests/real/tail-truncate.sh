#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tail -F (coreutils), correct: it follows a log that an operator empties
# with `: > app.log` (an open with O_TRUNC) while the application, which
# keeps it open with O_APPEND, goes on writing: 100 lines, the truncation,
# then 40 lines (1151 bytes, less than tail's offset, 2592). tail notices the
# file shrank below the offset it had read to ("file truncated"), goes back
# to 0 and reads the new bytes from there: all 140 lines are delivered
# (checked), nothing lost. No finding of the families errors, redundant-open
# or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need tail:coreutils strace:strace
mount_ext4
follow_helpers
cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
t=$2
. "$t/follow.sh"
exec 3>> app.log
tail -F -n +1 app.log > "$t/delivered.log" 2> "$t/tail.err" &
follower=$!
lines 100 "of the first file"
delivered 100 100
: > app.log
lines 40 "after the truncation"
delivered 140 100
kill $follower
SH
STRACE=1 record tail-truncate sh "$TMP/scenario.sh" "$MNT" "$TMP"
cat "$TMP/tail.err"
check "$MNT/app.log" "$TMP/delivered.log" << 'PY'
import sys, corpus, stracelog
path, delivered = sys.argv[1:3]
c = corpus.Case("tail-truncate")
c.families()
log = c.strace()
tail = log.pid("tail")
cut = [x for x in log.calls_of(stracelog.OPENS, path=path) if "O_TRUNC" in x.args][0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
descs = log.opened(tail, path)
lost = log.unread(descs, 0, new, after=cut.seq)
got = open(delivered).read().splitlines()
print(f"strace: {new} bytes written after the truncation; tail read all but {lost} of them;"
      f" {len(got)} lines delivered")
if lost or len(got) != 140:
    c.fail("tail should have delivered all 140 lines")
c.done()
PY
