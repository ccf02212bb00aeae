#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The npm package tail (node-tail 2.2.6, Debian has none; install-deps.sh
# installs it with npm), bug: a log follower written with it, in Node.js. It
# reads by name, through libuv's thread pool: for each change it opens the
# file anew and preads from the offset it carries in currentCursorPos. When
# logrotate renames the log away (`create`), the follower watches the new
# file of that name after a second, with the offset it had reached in the
# old one, and reads the new file from there at its next change: the first
# bytes of the new log (as many as the old one held, 2592) are never read.
# The application reopens its log after the rotation and writes 200 lines at
# once, then 10 more 2 s later. dio must report reuse-offset.stale-offset
# (error) for node on app.log, count = the bytes of the new log below the
# offset of the follower's first read in it that no read of it got (strace).
. "$top_srcdir/tests/real/lib.sh"
need node:nodejs npm:npm logrotate:logrotate strace:strace
NODE_PATH=$(npm root -g)
export NODE_PATH
node -e 'require("tail")' 2> /dev/null ||
	{ echo "FAIL: the npm package tail is not installed: npm install -g tail@2.2.6 (install-deps.sh does)"; exit 1; }
mount_ext4
cat > "$TMP/follow.js" << 'JS'
// the follower: every line of the log, as node-tail emits it, to the output
const fs = require("fs");
const { Tail } = require("tail");
const out = fs.openSync(process.argv[3], "a");
const t = new Tail(process.argv[2], { fromBeginning: true, follow: true });
t.on("line", (line) => fs.writeSync(out, line + "\n"));
t.on("error", (e) => console.error(String(e)));
process.on("SIGTERM", () => { t.unwatch(); process.exit(0); });
JS
printf '%s {\n\trotate 1\n\tcreate\n}\n' "$MNT/app.log" > "$TMP/logrotate.conf"
follow_helpers
cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
t=$2
. "$t/follow.sh"
exec 3>> app.log
lines 100 "of the first file"
node "$t/follow.js" "$1/app.log" "$t/delivered.log" &
follower=$!
delivered 100 100
logrotate -f -s "$t/logrotate.state" "$t/logrotate.conf"
# the application reopens its log, as after a SIGHUP
exec 3>> app.log
lines 200 "after the rotation"
sleep 2
lines 10 "a little later"
delivered_line "line 10 a little later" 100
kill $follower
wait $follower
SH
STRACE=1 record node-tail-rename sh "$TMP/scenario.sh" "$MNT" "$TMP"
echo "node-tail-rename: the follower delivered $(wc -l < "$TMP/delivered.log") lines"
check "$MNT/app.log" "$TMP/delivered.log" << 'PY'
import sys, corpus
path, delivered = sys.argv[1:3]
c = corpus.Case("node-tail-rename")
c.families()
log = c.strace()
node = log.pid("node")
moved = log.calls_of(("rename", "renameat", "renameat2"), log.pid("logrotate"))[0]
new, at, lost, first = corpus.resumed(c, log, node, path, moved)
print(f"strace: {new} bytes written to the new log; node's first read in it ({first.name},"
      f" thread {first.pid} of its pool) was at offset {at}; {lost} bytes below it never read")
got = open(delivered).read()
if at == 0 or lost != at or "line 1 after the rotation" in got \
        or "line 10 a little later" not in got:
    c.fail("node-tail should have read the new log from the old offset on, no earlier")
c.expect("reuse-offset.stale-offset", node, lost, path)
c.done()
PY
