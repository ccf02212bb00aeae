#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The errors analyzer on tests/workloads/errstorm: 500 stats of a missing file
# and 300 reads of an empty non-blocking pipe give one finding each, with the
# counts, errno, path and rate; checking once gives none; and the findings of a
# recorded trace analyzed offline are those dio found live.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# check JSON OUT: the findings in JSON are exactly the storms the OUT lines name
check() {
	python3 - "$@" << 'PY'
import json, re, sys

path, out = sys.argv[1:3]
found = [json.loads(l) for l in open(path)]
found = [o for o in found if o["type"] == "finding" and o["analyzer"] == "errors"]
want = [l.split() for l in open(out)]
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

if len(found) != len(want):
    fail(f"{len(found)} findings in {path}, expected {len(want)}: "
         f"{[o['title'] for o in found]}")
for (pid, call, n, err, what), o in zip(want, found):
    n = int(n)
    rate = round(n * 1e9 / o["span_ns"])
    shown = f'"{what}"' if what.startswith("/") else what
    head = f"{n} {call} calls failed with {err} in "
    tail = f" ({rate}/s): {shown}"
    if (o["code"] != "errors.burst" or o["count"] != n or o["pid"] != int(pid)
            or not o["title"].startswith(head) or not o["title"].endswith(tail)):
        fail(f"{o['code']} pid {o['pid']} count {o['count']} title {o['title']!r}; expected "
             f"pid {pid}, {head}...{tail}")
    if o.get("path") != what or o["severity"] != "warning" or o["comm"] != "errstorm":
        fail(f"{call}: path {o.get('path')!r} severity {o['severity']} comm {o['comm']!r}")
    lines = o["excerpt"].splitlines()
    if len(lines) != 9 or lines[-1] != f"... {n - 8} more" or not all(
            re.search(rf"\] {call}\(.*\) = -1 {err} ", l) for l in lines[:8]):
        fail(f"{call}: excerpt {o['excerpt']!r}")
if not bad:
    print(f"ok: {path}: {len(found)} findings, as the workload says")
sys.exit(bad)
PY
}

for mode in storm calm; do
	run_dio trace -q --no-summary --analyzer errors --sink "json:file=$TMP/$mode.json" \
		-- "$WL/errstorm" "$mode" "$MNT" > "$TMP/$mode.out" 2> "$TMP/$mode.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio trace ... errstorm $mode exited with $RC"; \
		cat "$TMP/$mode.err"; fail=1; }
	check "$TMP/$mode.json" "$TMP/$mode.out" || fail=1
done

inline_is_offline errors 2 "$WL/errstorm" storm "$MNT" || fail=1
check "$TMP/inline.json" "$TMP/inline.out" || fail=1
exit $fail
