#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tail -F (coreutils), bug: tail-copytruncate.sh, but tail is busy (stopped)
# while logrotate truncates the log and the application writes 200 lines,
# 5373 bytes, more than tail's offset (2592). When tail runs again the file
# is longer than its offset, so nothing tells it the file was cut ("file
# truncated" needs a size below the offset): it reads on from 2592, in the
# middle of a line, and the first 2592 bytes of the new data are never
# delivered (checked). A kept offset: dio must report reuse-offset.read-past-end
# (error) for tail on app.log, count = the bytes written after the truncation,
# below the offset where tail read on, that its reading position never read
# (from strace).
. "$top_srcdir/tests/real/lib.sh"
need tail:coreutils logrotate:logrotate strace:strace
mount_ext4
copytruncate tail-copytruncate-grown "tail -F -n +1 app.log > $TMP/delivered.log" 200 stop
check "$MNT/app.log" "$TMP/delivered.log" << 'PY'
import sys, corpus, stracelog
path, delivered = sys.argv[1:3]
c = corpus.Case("tail-copytruncate-grown")
log = c.strace()
tail = log.pid("tail")
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
after = [(r.seq, o, d) for d in log.opened(tail, path) for o, n, r in d.reads
         if r.seq > cut.seq and n > 0]
if not after:
    c.fail("strace: tail read nothing after the truncation")
    c.done()
_, at, pos = min(after, key=lambda a: a[0])
lost = log.unread([pos], 0, min(at, new), after=cut.seq)
print(f"strace: {new} bytes written after the truncation; tail read on at offset {at}"
      f" and never read {lost} bytes below it")
got = open(delivered).read()
if at == 0 or lost != at or "line 1 after the rotation" in got \
        or "line 200 after the rotation" not in got:
    c.fail("tail should have delivered the new lines from the old offset on, no earlier")
c.expect("reuse-offset.read-past-end", tail, lost, path)
c.done()
PY
