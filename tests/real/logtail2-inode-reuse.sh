#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# logtail2 (package logtail, what logcheck runs from cron), bug: logtail2
# keeps in its offset file the log's inode number and the offset it read up
# to. The log is deleted and written anew; ext4 hands the freed inode number
# to the new file at once, logtail2's next run finds the same number, takes
# the file for the one it read, seeks to the old offset and prints from there:
# the new file's first bytes are never read (the new output even starts in
# the middle of a line). dio must report reuse-offset.stale-offset (an error)
# for the second logtail2 process, its count the bytes below the old offset
# that the new log holds and that its reading position (the open file
# description it sought) never read, from strace.
. "$top_srcdir/tests/real/lib.sh"
need logtail2:logtail strace:strace
mount_ext4
cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
seq 1 500 > app.log
logtail2 -f app.log -o app.offset > "$2/first.out"
stat -c %i app.log > "$2/inode.before"
rm app.log
seq 1001 1700 > app.log
stat -c %i app.log > "$2/inode.after"
logtail2 -f app.log -o app.offset > "$2/second.out"
SH
STRACE=1 record logtail2-inode-reuse sh "$TMP/scenario.sh" "$MNT" "$TMP"
if ! cmp -s "$TMP/inode.before" "$TMP/inode.after"; then
	echo "FAIL: the new app.log did not get the inode number back:" \
		"$(cat "$TMP/inode.before") then $(cat "$TMP/inode.after")"
	exit 1
fi
check "$MNT/app.log" "$TMP/second.out" << 'PY'
import sys, corpus, stracelog
path, second = sys.argv[1:3]
c = corpus.Case("logtail2-inode-reuse")
log = c.strace()
first, reader = log.pids("logtail2")
gone = log.removals(log.pid("rm"), path)[0]
new = sum(c.ret for c in log.calls_of(stracelog.WRITES, path=path, after=gone.seq))
seek = log.calls_of(("lseek",), reader, path)
stale = [s.ret for s in seek if s.ret > 0][0]
lost = log.unread(log.opened(reader, path), 0, min(stale, new), after=gone.seq)
print(f"strace: the new log has {new} bytes; logtail2 (pid {reader}) seeked to {stale}"
      f" and never read {lost} bytes below it")
data = open(path, "rb").read()
if open(second, "rb").read() != data[stale:] or lost != stale:
    c.fail("logtail2 did not print the new log from the old offset on")
c.expect("reuse-offset.stale-offset", reader, lost, path)
c.allow("durability.truncate-rewrite",
        "logtail2 rewrites its offset file in place (open with O_TRUNC, write, close)"
        " with no fsync: after a power cut it can be empty, and logtail2 then reports"
        " the whole log again; right")
c.done()
PY
