#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsyslogd's imfile (package rsyslog), bug: rsyslog-copytruncate, but the
# follower is busy (stopped) while logrotate truncates the log and the
# application writes 200 lines, 5373 bytes, more than the follower's offset
# (2592). imfile keeps its descriptor and its offset (reopenOnTruncate off,
# the default); when it runs again the file is longer than that offset, so
# nothing tells it the file was cut: it reads on from 2592, in the middle of
# a line, and the first 2592 bytes of the new data are never delivered.
# A kept offset (analyzers/reuse-offset/README.md: a position that goes on
# reading at the offset it had before a truncation), though no read returns
# past the end here: dio must report reuse-offset.read-past-end (error) for
# rsyslogd on app.log, count = the bytes written after the truncation, below
# the offset where rsyslogd read on, that its reading position never read
# (from strace).
. "$top_srcdir/tests/real/lib.sh"
need rsyslogd:rsyslog logrotate:logrotate strace:strace
mount_ext4
copytruncate rsyslog-copytruncate-grown "$(rsyslog_follower off)" 200 stop
check "$MNT/app.log" "$TMP/delivered.log" << 'PY'
import sys, corpus
path, delivered = sys.argv[1:3]
c = corpus.Case("rsyslog-copytruncate-grown")
c.families()
log = c.strace()
rs = log.pid("rsyslogd")
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
new, at, lost, _ = corpus.resumed(c, log, rs, path, cut)
print(f"strace: {new} bytes written after the truncation; rsyslogd read on at offset {at}"
      f" and never read {lost} bytes below it")
got = open(delivered).read()
if at == 0 or lost != at or "line 1 after the rotation" in got \
        or "line 200 after the rotation" not in got:
    c.fail("rsyslog should have delivered the new lines from the old offset on, no earlier")
c.expect("reuse-offset.read-past-end", rs, lost, path)
c.done()
PY
