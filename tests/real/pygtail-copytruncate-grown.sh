#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pygtail (package pygtail), bug: like logtail2, pygtail prints what was
# added to a log since its last run, and keeps the log's inode number and the
# offset it read up to in an offset file; it takes a log whose size is below
# the offset for one rotated by copytruncate. Here logrotate truncates the
# log between two runs and the application writes 200 lines, 5373 bytes,
# more than the offset (2592): the second run finds the same inode and a
# larger file, seeks to 2592 and prints from there, in the middle of a line;
# the first 2592 bytes of the new data are never printed (checked against
# the file). dio must report reuse-offset.stale-offset (error) for the second
# pygtail process on app.log, count = the bytes written after the truncation
# below the offset it sought to that its reading position never read (strace).
. "$top_srcdir/tests/real/lib.sh"
need pygtail:pygtail logrotate:logrotate strace:strace
mount_ext4
printf '%s {\n\trotate 1\n\tcopytruncate\n}\n' "$MNT/app.log" > "$TMP/logrotate.conf"
cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
exec 3>> app.log
i=1
while [ $i -le 100 ]; do echo "line $i of the first file" >&3; i=$((i + 1)); done
pygtail app.log > "$2/first.out"
logrotate -f -s "$2/logrotate.state" "$2/logrotate.conf"
i=1
while [ $i -le 200 ]; do echo "line $i after the rotation" >&3; i=$((i + 1)); done
pygtail app.log > "$2/second.out"
SH
STRACE=1 record pygtail-copytruncate-grown sh "$TMP/scenario.sh" "$MNT" "$TMP"
check "$MNT/app.log" "$TMP/first.out" "$TMP/second.out" << 'PY'
import sys, corpus, stracelog
path, first, second = sys.argv[1:4]
c = corpus.Case("pygtail-copytruncate-grown")
log = c.strace()
reader = log.pids("pygtail")[1]
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
seek = [s.ret for s in log.calls_of(("lseek",), reader, path) if s.ret > 0][0]
lost = log.unread(log.opened(reader, path), 0, min(seek, new), after=cut.seq)
print(f"strace: {new} bytes written after the truncation; the second pygtail (pid {reader})"
      f" sought to {seek} and never read {lost} bytes below it")
data = open(path, "rb").read()
if len(open(first).read().splitlines()) != 100 or open(second, "rb").read() != data[seek:] \
        or lost != seek:
    c.fail("pygtail did not print the new log from the old offset on")
c.expect("reuse-offset.stale-offset", reader, lost, path)
c.allow("durability.truncate-rewrite",
        "pygtail rewrites its offset file in place (open with O_TRUNC, write, close) "
        "with no fsync: after a power cut it can be empty, and pygtail then reads the"
        " log again from the start; right")
c.done()
PY
