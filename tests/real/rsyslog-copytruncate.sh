#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsyslogd's imfile, bug: rsyslog follows an application's log file (imfile,
# inotify mode) and forwards each line; logrotate rotates the log with
# copytruncate. imfile's reopenOnTruncate is off by default: rsyslog keeps
# its offset in the truncated file, every read there returns 0, and the lines
# the application writes below that offset are never forwarded (rsyslog's
# documentation: turn the option on when logs are rotated by truncation).
# dio must report reuse-offset.read-past-end for the rsyslogd process, its
# count the new bytes below the offset rsyslogd never read. At its exit
# rsyslogd reads the file's first 512 bytes through a second fd, to compute
# the file's id for its state file: those bytes it did read.
. "$top_srcdir/tests/real/lib.sh"
need rsyslogd:rsyslog logrotate:logrotate strace:strace
mount_ext4
copytruncate rsyslog-copytruncate "$(rsyslog_follower off)"
check "$MNT/app.log" << 'PY'
import sys, corpus, stracelog
path = sys.argv[1]
c = corpus.Case("rsyslog-copytruncate")
log = c.strace()
rs = log.pid("rsyslogd")
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
past = [o for d in log.opened(rs, path) for o, n, r in d.reads if r.seq > cut.seq and n == 0
        and o > new]
if not past:
    c.fail("strace: rsyslogd did not read app.log past its end after the truncation")
stale = max(past, default=0)
lost = log.unread(rs, path, 0, min(stale, new), after=cut.seq)
print(f"strace: {new} bytes written after the truncation; rsyslogd read at offset {stale},"
      f" past the end, and never read {lost} of them")
c.expect("reuse-offset.read-past-end", rs, lost, path)
c.done()
PY
