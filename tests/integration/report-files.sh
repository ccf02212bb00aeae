#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio report keeps a row for the 10 000 files that cost most and adds the
# rest up in one: a trace of 30 000 files, one fstat each, the call on file i
# taking 1000 + i ns. The page lists exactly files 20 000 to 29 999 (their
# figures as they were), says 20 000 more files in its "files_other" row,
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
records = [SYSCALL.pack(1, SYSCALL.size, 0, 1000000 + 10 * i, 4242, 4242, 1000 + i, 0,
                        3, 0, 0, 0, 0, 0, b"many", i + 1, 1, 0, 0, NR_FSTAT, FT_REG, SF_FILE,
                        0, 0, 3, 0) for i in range(n)]
write_trace(sys.argv[2], {"version": "0.1.0", "command": "many"}, records)
PY

"$DIO" report "$TMP/many.dio" -o "$TMP/many.html" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio report exited $?:"; cat "$TMP/out"; exit 1; }
$PY - "$TMP/many.html" $N << 'PY' || fail=1
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page,
                         re.S).group(1))
n = int(sys.argv[2])
bad = []
rows = d["files"]
if len(rows) != 10000:
    bad.append("%d file rows, want 10000" % len(rows))
want = {"%d" % (i + 1): 1000 + i for i in range(n - 10000, n)}
got = {r["tag"].split("|")[1]: r["ns"] for r in rows}
if got != want:
    missing = sorted(set(want) - set(got), key=int)[:3]
    bad.append("the rows are not files %d..%d with their time; missing e.g. %s" %
               (n - 10000, n - 1, missing))
if any(r["calls"] != 1 or r["pid"] != 4242 or r["type"] != "reg" for r in rows):
    bad.append("a row's calls, pid or type is wrong")
other = d["files_other"]
want_other = {"files": n - 10000, "calls": n - 10000, "errors": 0, "read": 0, "written": 0,
              "ns": sum(1000 + i for i in range(n - 10000))}
if other != want_other:
    bad.append("files_other %s, want %s" % (other, want_other))
if sum(r["calls"] for r in rows) + other["calls"] != d["calls"] or d["calls"] != n:
    bad.append("the rows and files_other do not add up to the %d calls" % d["calls"])
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
exit $fail
