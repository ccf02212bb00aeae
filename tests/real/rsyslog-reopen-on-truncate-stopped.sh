#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsyslogd's imfile, correct: rsyslog-reopen-on-truncate.sh, but rsyslog is
# busy (stopped) while logrotate truncates the log and the application
# writes its 40 lines. When it runs again, imfile may read at its old offset
# first and get nothing (the file is now shorter), then it closes the file,
# opens it again and reads it from 0 through the new descriptor: all 140
# lines are delivered (checked). Bytes read through the reopened descriptor
# are read: no reuse-offset finding, whichever way rsyslog went (the log says
# which, from strace; the model of the analyzer before the one that judges a
# reader as a program took such a run for 1071 bytes lost).
. "$top_srcdir/tests/real/lib.sh"
need rsyslogd:rsyslog logrotate:logrotate strace:strace
mount_ext4
copytruncate rsyslog-reopen-on-truncate-stopped "$(rsyslog_follower on)" 40 stop
[ "$(wc -l < "$TMP/delivered.log")" -eq 140 ] || { echo "FAIL: rsyslog lost lines"; exit 1; }
check "$MNT/app.log" << 'PY'
import sys, corpus, stracelog
path = sys.argv[1]
c = corpus.Case("rsyslog-reopen-on-truncate-stopped")
log = c.strace()
rs = log.pid("rsyslogd")
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
descs = log.opened(rs, path)
past = [d for d in descs if any(r.seq > cut.seq and n == 0 and o > 0 for o, n, r in d.reads)]
again = [d for d in descs if d not in past
         and any(r.seq > cut.seq and n > 0 and o == 0 for o, n, r in d.reads)]
print(f"strace: after the truncation rsyslogd read past the end at its old offset through"
      f" {len(past)} description(s), and from 0 through {len(again)} other(s)")
c.forbid("reuse-offset.stale-offset", "reuse-offset.read-past-end")
c.done()
PY
