#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsyslogd's imfile, correct: rsyslog-copytruncate.sh with
# reopenOnTruncate="on": when the file is shorter than rsyslog's offset,
# imfile opens it again and reads from 0, so it forwards every line. No
# WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need rsyslogd:rsyslog logrotate:logrotate strace:strace
mount_ext4
copytruncate rsyslog-reopen-on-truncate "$(rsyslog_follower on)"
[ "$(wc -l < "$TMP/delivered.log")" -eq 140 ] || { echo "FAIL: rsyslog lost lines"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("rsyslog-reopen-on-truncate")
c.forbid("reuse-offset.stale-offset", "reuse-offset.read-past-end")
c.allow("durability.truncate-rewrite",
        "rsyslogd's imfile rewrites its state file in place (truncated, written, "
        "closed) with no fsync: after a power cut it can be empty, and imfile then "
        "reads the log again from the start; right")
c.done()
PY
