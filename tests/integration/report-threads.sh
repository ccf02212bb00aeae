#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio report keeps a row for 10 000 threads and adds the rest up in one: a
# trace of 30 000 threads of one process, one fstat each, the call of thread
# i taking 1000 + i ns. The first 512 threads have a lane in the timeline and
# keep their row; the other 9 488 rows are the busiest threads (20 512 to
# 29 999, their figures as they were); "threads_other" holds 20 000 threads,
# and the rows and that one add up to every call. No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0
N=30000

$PY - "$top_srcdir/tests/integration" "$TMP/many.dio" $N << 'PY' || { echo "FAIL: cannot write the trace"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import SYSCALL
from tracefile_writer import write_trace

n = int(sys.argv[3])
SF_FILE, FT_REG, NR_FSTAT = 0x01, 8, 5
records = [SYSCALL.pack(1, SYSCALL.size, 0, 1000000 + 10 * i, 4242, 100000 + i, 1000 + i, 0,
                        3, 0, 0, 0, 0, 0, b"many", 7, 1, 0, 0, NR_FSTAT, FT_REG, SF_FILE,
                        0, 0, 3, 0) for i in range(n)]
write_trace(sys.argv[2], {"version": "0.1.0", "command": "many"}, records)
PY

"$DIO" report "$TMP/many.dio" -o "$TMP/many.html" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio report exited $?:"; cat "$TMP/out"; exit 1; }
$PY - "$top_srcdir/tests/report" "$TMP/many.html" $N << 'PY' || fail=1
import sys
sys.path.insert(0, sys.argv[1])
from model import page_data

d, n, bad = page_data(sys.argv[2]), int(sys.argv[3]), []
rows = d["threads"]
if len(rows) != 10000:
    bad.append("%d thread rows, want 10000" % len(rows))
kept = list(range(512)) + list(range(n - 9488, n))
want = {100000 + i: 1000 + i for i in kept}
got = {r["tid"]: r["ns"] for r in rows}
if got != want:
    missing = sorted(set(want) - set(got))[:3]
    bad.append("the rows are not threads 0..511 and %d..%d with their time; missing e.g. %s" %
               (n - 9488, n - 1, missing))
if any(r["calls"] != 1 or r["pid"] != 4242 or r["comm"] != "many" for r in rows):
    bad.append("a row's calls, pid or name is wrong")
other = d["threads_other"]
folded = range(512, n - 9488)
want_other = {"threads": len(folded), "calls": len(folded), "read": 0, "written": 0,
              "ns": sum(1000 + i for i in folded)}
if other != want_other:
    bad.append("threads_other %s, want %s" % (other, want_other))
if sum(r["calls"] for r in rows) + other["calls"] != d["calls"] or d["calls"] != n:
    bad.append("the rows and threads_other do not add up to the %d calls" % d["calls"])
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
exit $fail
