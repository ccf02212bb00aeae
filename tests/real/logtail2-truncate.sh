#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# logtail2 (package logtail), correct: the log is emptied with `: > app.log`
# between two runs of logtail2 while the application, which keeps it open
# with O_APPEND, goes on writing (100 lines, 2592 bytes, before; 40 lines,
# 1151 bytes, after). The second run opens the log anew, finds it shorter
# than the offset it saved (it warns so) and prints it from 0: both runs together print
# all 140 lines, once (checked). No finding of the families errors,
# redundant-open or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need logtail2:logtail strace:strace
mount_ext4
follow_helpers
cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
. "$2/follow.sh"
exec 3>> app.log
lines 100 "of the first file"
logtail2 -f app.log -o app.offset > "$2/first.out"
: > app.log
lines 40 "after the truncation"
logtail2 -f app.log -o app.offset > "$2/second.out"
SH
STRACE=1 record logtail2-truncate sh "$TMP/scenario.sh" "$MNT" "$TMP"
check "$MNT/app.log" "$TMP/first.out" "$TMP/second.out" << 'PY'
import sys, corpus, stracelog
path, first, second = sys.argv[1:4]
c = corpus.Case("logtail2-truncate")
c.families()
log = c.strace()
reader = log.pids("logtail2")[1]
cut = [x for x in log.calls_of(stracelog.OPENS, path=path) if "O_TRUNC" in x.args][0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
lost = log.unread(log.opened(reader, path), 0, new, after=cut.seq)
a, b = open(first).read().splitlines(), open(second).read().splitlines()
# logtail2 says so when it notices: "Log file app.log is smaller than last time checked!"
warned = any("smaller than last time checked" in l for l in b)
b = [l for l in b if not l.startswith("*")]
print(f"strace: {new} bytes written after the truncation; the second logtail2 left {lost}"
      f" of them unread; printed {len(a)} then {len(b)} lines (warned: {warned})")
if not warned or lost or len(a) != 100 or b != open(path).read().splitlines() or len(b) != 40:
    c.fail("logtail2 should have printed the 100 lines, then the 40 new ones")
c.done()
PY
