#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio dump --since/--until over a trace of many blocks: the reader skips the
# blocks outside the window through the index (or, in a file cut short, their
# headers) but must print exactly the records the whole trace holds in that
# window, each with its path although the path record sits in a skipped block.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf

# ~400 000 lseek+read calls: dozens of 1 MiB blocks; its one file is opened first
run_dio record -o "$TMP/t.dio" -- "$top_builddir/bench/callcost" "$TMP/file" 2 100000 \
	> "$TMP/rec.out" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC:"; cat "$TMP/rec.out"; exit 1; }
blocks=$("$DIO" info "$TMP/t.dio" | sed -n 's/^blocks: \([0-9]*\) intact.*/\1/p')
[ "${blocks:-0}" -ge 10 ] || { echo "FAIL: want a trace of 10 blocks or more, got '$blocks'"; exit 1; }
span=$("$DIO" info "$TMP/t.dio" | sed -n 's/^time span: \([0-9.]*\) s$/\1/p')

# check WHAT: the windowed dump ($TMP/win) holds exactly the whole dump's records in the window
check() {
	python3 - "$TMP/all" "$TMP/first" "$TMP/win" "$1" "$2" "$3" << 'PY'
import json, sys

all_, first, win, since, until, what = sys.argv[1:7]
load = lambda p: [json.loads(l) for l in open(p)]
# the window's origin: the trace's first record (the only one --until 0 keeps)
t0 = min(o["ts_ns"] for o in load(first) if o["type"] != "path")
lo = t0 + int(float(since) * 1e9) if since != "-" else 0
hi = t0 + int(float(until) * 1e9) if until != "-" else 1 << 64
strip = lambda o: {k: v for k, v in o.items() if k != "rel_ns"}
want = [strip(o) for o in load(all_) if o["type"] != "path" and lo <= o["ts_ns"] <= hi]
got = [strip(o) for o in load(win) if o["type"] != "path"]
if not want:
    sys.exit(f"FAIL: {what}: the window holds no record; the test is broken")
if got != want:
    print(f"FAIL: {what}: {len(got)} records, the whole trace has {len(want)} in the window")
    for g, w in zip(got, want):
        if g != w:
            print(f"  first difference:\n  got  {g}\n  want {w}")
            break
    sys.exit(1)
if not all("path" in o for o in got if o["type"] == "syscall" and o["syscall"] == "read"):
    sys.exit(f"FAIL: {what}: reads in the window lack the path of their file")
PY
}

fail=0
"$DIO" dump --format json "$TMP/t.dio" > "$TMP/all" || fail=1
"$DIO" dump --format json "$TMP/t.dio" --until 0 > "$TMP/first" || fail=1
mid=$(echo "$span / 2" | bc -l)
mid2=$(echo "$span / 2 + $span / 50" | bc -l)
end=$(echo "$span * 0.95" | bc -l)
for file in indexed cut; do
	if [ $file = cut ]; then
		# no trailer, no index: the block headers must do
		truncate -s -5 "$TMP/t.dio"
	fi
	"$DIO" dump --format json "$TMP/t.dio" --since "$mid" --until "$mid2" > "$TMP/win" 2> /dev/null
	check "$mid" "$mid2" "$file: --since $mid --until $mid2" || fail=1
	"$DIO" dump --format json "$TMP/t.dio" --since "$end" > "$TMP/win" 2> /dev/null
	check "$end" - "$file: --since $end" || fail=1
	"$DIO" dump --format json "$TMP/t.dio" --until 0.01 > "$TMP/win" 2> /dev/null
	check - 0.01 "$file: --until 0.01" || fail=1
done
exit $fail
