#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsyslogd's imfile, bug: rsyslog follows an application's log file (imfile,
# inotify mode) and forwards each line; logrotate rotates the log with
# copytruncate. imfile's reopenOnTruncate is off by default: rsyslog keeps
# its offset in the truncated file, every read there returns 0, and the lines
# the application writes below that offset are never forwarded (rsyslog's
# documentation: turn the option on when logs are rotated by truncation).
# dio must report reuse-offset.read-past-end for the rsyslogd process, its
# count the new bytes below the offset that rsyslogd's reading position (the
# open file description that read past the end) never read. At its exit
# rsyslogd reads the file's first 512 bytes through another descriptor, to
# fingerprint the file for its state file: that read forwards nothing, and
# the stale position never reads those bytes, so they are lost too, as the
# lines missing from what rsyslog delivered show. dio report's offset view
# must show imfile's reads past the end of the cut file.
. "$top_srcdir/tests/real/lib.sh"
need rsyslogd:rsyslog logrotate:logrotate strace:strace
mount_ext4
copytruncate rsyslog-copytruncate "$(rsyslog_follower off)"
# dio report's offset view shows it: after the cut, imfile's reads return
# nothing at offsets above all that was written since
offsets_view rsyslog-copytruncate "$MNT/app.log"
grep -q " in:imfile stale=[1-9]" "$TMP/rsyslog-copytruncate.offsets" ||
	{ echo "FAIL: the report's offset view shows no read past the end of the cut file"; exit 1; }
check "$MNT/app.log" "$TMP/delivered.log" << 'PY'
import sys, corpus, stracelog
path, delivered = sys.argv[1:3]
c = corpus.Case("rsyslog-copytruncate")
log = c.strace()
rs = log.pid("rsyslogd")
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
stale = [d for d in log.opened(rs, path)
         if any(r.seq > cut.seq and n == 0 and o > new for o, n, r in d.reads)]
if len(stale) != 1:
    c.fail(f"strace: {len(stale)} positions of rsyslogd read past the end after the truncation")
at = max((o for d in stale for o, n, r in d.reads if r.seq > cut.seq), default=0)
lost = log.unread(stale, 0, min(at, new), after=cut.seq)
print(f"strace: {new} bytes written after the truncation; rsyslogd read at offset {at},"
      f" past the end, and never read {lost} of them there")
got = open(delivered).read().splitlines()
sent = sum(len(line) + 1 for line in open(path).read().splitlines())
if len(got) != 100 or lost != sent:
    c.fail(f"rsyslog delivered {len(got)} lines; the {sent} bytes after the rotation"
           f" should be the ones lost")
c.expect("reuse-offset.read-past-end", rs, lost, path)
c.done()
PY
