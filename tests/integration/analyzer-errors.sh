#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The errors analyzer on tests/workloads/errstorm: 500 stats of a missing file
# and 300 reads of an empty non-blocking pipe in one process give one finding
# for the process, with the sum, the errnos, paths and rates of both; checking
# once gives none; 200 writes to a full file system and 150 stats of a closed
# fd give one error (the writes lost data), not two findings; and the findings
# of a recorded trace analyzed offline are those dio found live.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# check JSON OUT: one finding per process of the OUT lines, with their numbers
check() {
	python3 - "$@" << 'PY'
import json, re, sys

path, out = sys.argv[1:3]
found = [json.loads(l) for l in open(path)]
found = [o for o in found if o["type"] == "finding" and o["analyzer"] == "errors"]
procs = {}
for pid, call, n, err, what, sev in (l.split() for l in open(out)):
    what = what.replace("fd:", "fd ")
    procs.setdefault(int(pid), []).append((call, int(n), err, what, sev))
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

# what a group is about: the path argument of stat, quoted; else a file or an fd
def shown(call, what):
    return f'"{what}"' if call == "stat" else what

if len(found) != len(procs):
    fail(f"{len(found)} findings in {path}, expected {len(procs)}: "
         f"{[o['title'] for o in found]}")
for (pid, storms), o in zip(procs.items(), found):
    total = sum(s[1] for s in storms)
    # the worst: an error before a warning, then the most failures
    worst = sorted(storms, key=lambda s: (s[4] != "error", -s[1]))[0]
    call, n, err, what, sev = worst
    if len(storms) == 1:
        rate = round(n * 1e9 / o["span_ns"])
        head = f"{n} {call} calls failed with {err} in "
        tail = f" ({rate}/s): {shown(call, what)}"
    else:
        most = "most" if len({s[4] for s in storms}) == 1 else "worst"
        head = f"{total} calls failed in {len(storms)} ways in "
        tail = f", {most} {n} {call} calls with {err} on {shown(call, what)}"
        for c, k, e, w, s in storms:
            line = f"  {k} {c} calls with {e} on {shown(c, w)}"
            line += " (data likely lost): " if s == "error" else ": "
            if line not in o["message"]:
                fail(f"pid {pid}: no {line!r} in the message {o['message']!r}")
    if (o["code"] != "errors.burst" or o["count"] != total or o["pid"] != pid
            or not o["title"].startswith(head) or not o["title"].endswith(tail)):
        fail(f"{o['code']} pid {o['pid']} count {o['count']} title {o['title']!r}; expected "
             f"pid {pid}, count {total}, {head}...{tail}")
    want_sev = "error" if any(s[4] == "error" for s in storms) else "warning"
    want_path = None if what.startswith("fd ") else what
    if o.get("path") != want_path or o["severity"] != want_sev or o["comm"] != "errstorm":
        fail(f"{call}: path {o.get('path')!r} severity {o['severity']} comm {o['comm']!r}; "
             f"expected {want_path!r} {want_sev}")
    lines = o["excerpt"].splitlines()
    if len(lines) != 9 or lines[-1] != f"... {n - 8} more" or not all(
            re.search(rf"\] {call}\(.*\) = -1 {err} ", l) for l in lines[:8]):
        fail(f"{call}: excerpt {o['excerpt']!r}")
if not bad:
    print(f"ok: {path}: {len(found)} findings, as the workload says")
sys.exit(bad)
PY
}

for mode in storm calm lost; do
	run_dio trace -q --no-summary --analyzer errors --sink "json:file=$TMP/$mode.json" \
		-- "$WL/errstorm" "$mode" "$MNT" > "$TMP/$mode.out" 2> "$TMP/$mode.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio trace ... errstorm $mode exited with $RC"; \
		cat "$TMP/$mode.err"; fail=1; }
	check "$TMP/$mode.json" "$TMP/$mode.out" || fail=1
done

inline_is_offline errors 1 "$WL/errstorm" storm "$MNT" || fail=1
check "$TMP/inline.json" "$TMP/inline.out" || fail=1
exit $fail
