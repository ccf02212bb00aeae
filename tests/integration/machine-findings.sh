#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The machine is not the program: run-queue waits (latency.runq-delay) stay
# out of --fail-on unless it names them. A crafted trace holds one process,
# "busyapp", that makes calls for a second and waits 30 ms for a CPU ten
# times behind "hog" (30 % of its time: a warning). --fail-on warning still
# reports the finding but exits 0, and its JUnit case passes saying why;
# --fail-on warning,latency and --fail-on warning,latency.runq-delay count it
# (exit 3); a name of another analyzer does not. No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0

$PY - "$top_srcdir/tests/integration" "$TMP/m.dio" << 'PY' || { echo "FAIL: cannot write the trace"; exit 1; }
import struct, sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import SYSCALL, RUNQ
from tracefile_writer import write_trace

MS = 1000000
T0 = 5000 * 1000 * MS
meta = {"format": "dio-trace", "dio_version": "test", "host": "crafted", "boot_id": "b",
        "realtime_offset_ns": "1700000000000000000", "mode": "detailed", "hash": "off",
        "capture_bytes": "0", "session_id": "0123456789abcdef0123456789abcdef",
        "options": "record -o m.dio -- busyapp"}
recs = []
def call(ts, pid, comm):
    # getpid() = pid, 1 us
    recs.append(SYSCALL.pack(1, SYSCALL.size, 0, ts, pid, pid, 1000, pid, *([0] * 6),
                             comm, 0, 0, 0, 0, 39, 0, 0, 0, 0, -1, 0))
for i in range(101):
    call(T0 + i * 10 * MS, 500, b"busyapp")
for i in range(10):
    ts = T0 + (5 + i * 100) * MS
    recs.append(RUNQ.pack(6, RUNQ.size, 0, ts, 500, 500, 30 * MS, 0, b"busyapp", 600, 600,
                          b"hog", 0, 1, b""))
recs.sort(key=lambda r: struct.unpack_from("<Q", r, 8)[0])
write_trace(sys.argv[2], meta, recs)
PY

# gate WANT ARGS...: dio analyze of the trace with ARGS exits WANT
gate() {
	want=$1
	shift
	"$DIO" analyze "$TMP/m.dio" --no-summary --analyzer latency "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "FAIL: analyze $* exited with $rc, not $want:"; cat "$TMP/err"; fail=1; }
}

gate 0 --fail-on warning --sink console --sink "junit:file=$TMP/j.xml"
grep -q '^dio: \[WARNING\] latency.runq-delay: ' "$TMP/out" ||
	{ echo "FAIL: the run-queue warning is not reported:"; cat "$TMP/out"; fail=1; }
grep -q 'state: warning, about the machine: --fail-on counts it only when it names latency' \
	"$TMP/j.xml" || { echo "FAIL: the JUnit case does not say why it passes:"; cat "$TMP/j.xml"; fail=1; }
grep -q '<failure' "$TMP/j.xml" && { echo "FAIL: a JUnit case fails on the machine's finding"; fail=1; }
gate 3 --fail-on warning,latency
grep -qx "dio: 1 finding at warning or above (--fail-on warning): exit status 3" "$TMP/err" ||
	{ echo "FAIL: --fail-on warning,latency: no line saying why the status is 3:"; cat "$TMP/err"; fail=1; }
gate 3 --fail-on warning,errors,latency.runq-delay
gate 0 --fail-on warning,errors
gate 3 --fail-on info,latency
gate 2 --fail-on warning,
grep -qx "dio: --fail-on: 'warning,': name an analyzer or a code after each comma (e.g. warning,latency)" \
	"$TMP/err" || { echo "FAIL: --fail-on warning, : no one-line reason:"; cat "$TMP/err"; fail=1; }
[ $fail -eq 0 ] && echo "ok: run-queue waits gate only when named"
exit $fail
