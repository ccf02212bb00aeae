#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -p and --tid with a real threaded program (python3): -p given a thread that
# is not the process's first traces that thread's process (as strace -f -p
# does) and says so; --tid of a thread that does not exist is refused at once,
# and a trace of --tid threads ends when they have, not when dio is killed.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
command -v python3 > /dev/null || { echo "SKIP: python3 not installed"; exit 77; }
fail=0

# A process whose second thread writes a line to FILE every 50 ms for SECS s,
# while its first thread waits LIVE s; prints the second thread's id on stdout.
threaded() {	# FILE SECS LIVE
	exec python3 -c '
import sys, threading, time, os
path, secs, live = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def work():
    print(threading.get_native_id(), flush=True)
    end = time.time() + secs
    with open(path, "w") as f:
        while time.time() < end:
            f.write("x\n"); f.flush(); time.sleep(0.05)
t = threading.Thread(target=work); t.start(); time.sleep(live); t.join()
' "$@"
}

# -p TID of the second thread: the whole process, and the end with it
# long enough for dio to start under sanitizers in a slow guest before the writes end
bg threaded "$TMP/p.out" 10 10 > "$TMP/p.tid"
sleep 1
tid=$(cat "$TMP/p.tid")
[ -n "$tid" ] && [ "$tid" != "$BG" ] || { echo "FAIL: no second thread ('$tid', process $BG)"; exit 1; }
timeout 30 "$DIO" trace --no-summary -p "$tid" -d 25 -e trace=write > "$TMP/p.trace" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: dio trace -p $tid exited $rc:"; cat "$TMP/p.trace"; fail=1; }
grep -qxF "dio: warning: -p $tid is a thread of process $BG: tracing the whole process (--tid $tid traces that thread alone)" \
	"$TMP/p.trace" || { echo "FAIL: -p $tid: no note that it is a thread of $BG"; fail=1; }
n=$(grep -c "^\[$BG/$tid python3\] write([0-9]*<$TMP/p\.out>, 0x[0-9a-f]*, 2) = 2 " "$TMP/p.trace")
[ "$n" -ge 10 ] || { echo "FAIL: -p $tid: $n writes of thread $tid traced, want 10 or more:"; head "$TMP/p.trace"; fail=1; }
kill -0 "$BG" 2> /dev/null && { echo "FAIL: -p $tid: dio ended before process $BG"; fail=1; }

# --tid: ends when the thread has, while its process lives on
bg threaded "$TMP/t.out" 6 20 > "$TMP/t.tid"
sleep 1
tid=$(cat "$TMP/t.tid")
timeout 30 "$DIO" trace -q --no-summary --tid "$tid" > "$TMP/t.trace" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: dio trace --tid $tid exited $rc (124: still running after 30 s):"; cat "$TMP/t.trace"; fail=1; }
kill -0 "$BG" 2> /dev/null || { echo "FAIL: --tid $tid: dio waited for process $BG to end, not for the thread"; fail=1; }

# a thread that does not exist
dead=$(python3 -c 'print(4194304 - 7)')
timeout 10 "$DIO" trace --tid "$dead" > "$TMP/d.out" 2> "$TMP/d.err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(cat "$TMP/d.err")" = "dio: --tid $dead: no such thread" ] ||
	{ echo "FAIL: --tid $dead: status $rc, stderr: $(cat "$TMP/d.err")"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: -p of a thread traces its process; --tid ends with its threads"
exit $fail
