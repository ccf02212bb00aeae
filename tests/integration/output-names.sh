#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Any file name works for the files dio writes: a page of dio report and the
# JSON of dio dump --format json named "a,b=c:d" (a ',' once split them into
# module options) hold the trace's 3 calls. No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0

$PY - "$top_srcdir/tests/integration" "$TMP/three.dio" << 'PY' || { echo "FAIL: cannot write the trace"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import SYSCALL
from tracefile_writer import write_trace

SF_FILE, FT_REG, NR_FSTAT = 0x01, 8, 5
records = [SYSCALL.pack(1, SYSCALL.size, 0, 1000000 + 10 * i, 4242, 4242, 1000 + i, 0,
                        3, 0, 0, 0, 0, 0, b"three", i + 1, 1, 0, 0, NR_FSTAT, FT_REG, SF_FILE,
                        0, 0, 3, 0) for i in range(3)]
write_trace(sys.argv[2], {"version": "0.1.0", "command": "three"}, records)
PY

PAGE="$TMP/a,b=c:d.html"
"$DIO" report "$TMP/three.dio" -o "$PAGE" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio report -o '$PAGE' exited $?:"; cat "$TMP/out"; fail=1; }
grep -qxF "dio: wrote $PAGE" "$TMP/out" ||
	{ echo "FAIL: dio report did not say it wrote '$PAGE':"; cat "$TMP/out"; fail=1; }
JSON="$TMP/c,d=e:f.json"
"$DIO" dump "$TMP/three.dio" --format json -o "$JSON" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio dump --format json -o '$JSON' exited $?:"; cat "$TMP/out"; fail=1; }
$PY - "$PAGE" "$JSON" << 'PY' || fail=1
import json, re, sys
bad = []
page = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page,
                         re.S).group(1))
if d["calls"] != 3:
    bad.append("the page counts %d calls, want 3" % d["calls"])
lines = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
calls = [l for l in lines if l.get("syscall") == "fstat"]
if [c["tid"] for c in calls] != [4242, 4242, 4242] or [c["duration_ns"] for c in calls] != [1000, 1001, 1002]:
    bad.append("the JSON holds %s, want the 3 fstat calls of 1000, 1001, 1002 ns" % calls)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
exit $fail
