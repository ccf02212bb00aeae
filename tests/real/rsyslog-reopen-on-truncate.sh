#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsyslogd's imfile, correct: rsyslog-copytruncate.sh with
# reopenOnTruncate="on": when the file is shorter than rsyslog's offset,
# imfile opens it again and reads from 0, so it forwards every line. No
# WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need rsyslogd:rsyslog logrotate:logrotate strace:strace
mount_ext4
mkdir -p "$TMP/rsyslog"
cat > "$TMP/rsyslog.conf" << EOF2
global(workDirectory="$TMP/rsyslog")
module(load="imfile" mode="inotify")
input(type="imfile" file="$MNT/app.log" tag="app:" reopenOnTruncate="on")
template(name="line" type="string" string="%msg%\n")
if \$syslogtag == "app:" then action(type="omfile" file="$TMP/delivered.log" template="line")
EOF2
copytruncate rsyslog-reopen-on-truncate "rsyslogd -n -f $TMP/rsyslog.conf -i $TMP/rsyslog.pid"
[ "$(wc -l < "$TMP/delivered.log")" -eq 140 ] || { echo "FAIL: rsyslog lost lines"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("rsyslog-reopen-on-truncate")
c.done()
PY
