#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The durability analyzer on tests/workloads/durable, on an ext4 file system:
# a file renamed over another with no fsync (unsynced-replace), truncated and
# rewritten in place (truncate-rewrite), a short write left short
# (short-write), each with the bytes the workload printed; their safe modes
# (fsync, fdatasync, the rest written again) get no warning or error, and
# the replace done right no finding at all. The same on tmpfs is not judged.
# A recording analyzed elsewhere judges the same: it keeps the file system
# types (dio info shows them).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# run MODE DIR [NAME]: the workload under dio trace with the analyzer; json in
# $TMP/NAME.json, what the workload printed in $TMP/NAME.out
run() {
	name=${3:-$1}
	rm -rf "$2/w" && mkdir "$2/w"
	run_dio trace -q --no-summary --analyzer durability --sink "json:file=$TMP/$name.json" \
		-- "$WL/durable" "$1" "$2/w" > "$TMP/$name.out" 2> "$TMP/$name.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio trace ... durable $1 exited with $RC"; \
		cat "$TMP/$name.err"; fail=1; }
}

# check NAME [none]: the warnings and errors in NAME.json are exactly the
# workload's lines (pid, code, count, path), with the rule's severity; with
# "none", no finding at all, not even an info
check() {
	python3 - "$TMP/$1.json" "$TMP/$1.out" "$2" << 'PY' || fail=1
import json, sys
path, out, none = sys.argv[1:4]
found = [json.loads(l) for l in open(path)]
found = [o for o in found if o["type"] == "finding" and o["analyzer"] == "durability"]
want = set()
for line in open(out):
    pid, code, count, p = line.split()
    want.add((int(pid), code, int(count), p))
sev = {"durability.unsynced-replace": "warning", "durability.truncate-rewrite": "warning",
       "durability.short-write": "error"}
got = set()
for o in found:
    print(f"  {o['severity']} {o['code']} pid {o['pid']} count {o['count']} {o.get('path')}")
    if o["severity"] == "info" and not none:
        continue
    got.add((o["pid"], o["code"], o["count"], o.get("path")))
    if o["code"] in sev and o["severity"] != sev[o["code"]]:
        print(f"FAIL: {o['code']} is a {o['severity']}, expected {sev[o['code']]}")
        sys.exit(1)
    if o.get("processes") != 1:
        print(f"FAIL: {o['code']}: processes {o.get('processes')}, expected 1")
        sys.exit(1)
if got != want:
    print(f"FAIL: {path}: findings {sorted(got)}, expected {sorted(want)}")
    sys.exit(1)
PY
}

for mode in replace rewrite short; do
	run "$mode" "$MNT"
	check "$mode"
	[ -s "$TMP/$mode.out" ] || { echo "FAIL: durable $mode printed nothing to expect"; fail=1; }
	run "$mode-safe" "$MNT"
done
check replace-safe none
check rewrite-safe
check short-safe

# tmpfs: the same bug is not judged (the file dies with the machine anyway)
mkdir -p "$TMP/shm"
mount -t tmpfs -o size=4m tmpfs "$TMP/shm" || { echo "FAIL: cannot mount tmpfs"; exit 1; }
run replace "$TMP/shm" tmpfs
umount "$TMP/shm"
: > "$TMP/tmpfs.out"
check tmpfs none

# recorded, then analyzed: the recording keeps the types, the findings are the same
rm -rf "$MNT/w" && mkdir "$MNT/w"
run_dio record -q --no-summary -o "$TMP/rec.dio" -- "$WL/durable" replace "$MNT/w" \
	> "$TMP/rec.out" 2> "$TMP/rec.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC"; cat "$TMP/rec.err"; fail=1; }
dev=$(stat -c '%d' "$MNT")
majmin="$((dev >> 8 & 0xfff)):$(((dev & 0xff) | (dev >> 12 & 0xfff00)))"
run_dio info "$TMP/rec.dio" > "$TMP/info" 2>&1
if ! grep -q "^fstypes=.*\b$majmin=ext4\b" "$TMP/info"; then
	echo "FAIL: dio info does not name $majmin (the test's ext4) in fstypes:"
	grep '^fstypes=' "$TMP/info"
	fail=1
fi
run_dio analyze -q --no-summary "$TMP/rec.dio" --analyzer durability \
	--sink "json:file=$TMP/rec.json" --sink "sarif:file=$TMP/rec.sarif" > /dev/null 2>&1
check rec
python3 - "$TMP/rec.sarif" << 'PY' || fail=1
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
for code in ("unsynced-replace", "unsynced-new-name", "truncate-rewrite", "fsync-error",
             "short-write"):
    text = rules.get("durability." + code, {}).get("help", {}).get("text", "")
    if not (text.startswith(("Crash predicted", "No crash needed")) and "\n\nWhere: " in text
            and "\n\nFix: " in text):
        print(f"FAIL: SARIF help of durability.{code}: {text[:200]!r}")
        sys.exit(1)
res = [r for r in run["results"] if r["ruleId"] == "durability.unsynced-replace"]
if len(res) != 1 or res[0]["level"] != "warning":
    print(f"FAIL: SARIF results of durability.unsynced-replace: {res}")
    sys.exit(1)
PY
grep -q '(file system ext4)' "$TMP/rec.json" ||
	{ echo "FAIL: the replayed finding does not name the file system ext4"; fail=1; }

# dio report marks the unsafe sequence on its timeline: the finding's span runs
# from the first write of the temporary file to the rename over the old name
run_dio report "$TMP/rec.dio" -o "$TMP/rec.html" > /dev/null 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio report exited $RC"; fail=1; }
python3 - "$TMP/rec.html" << 'PY' || fail=1
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page, re.S).group(1))
f = [f for f in data["findings"] if f["code"] == "durability.unsynced-replace"]
if len(f) != 1 or not f[0]["first"] < f[0]["last"]:
    print("FAIL: the report's unsynced-replace finding spans no sequence:", f)
    sys.exit(1)
lines = f[0]["excerpt"].splitlines()
if "write(" not in lines[0] or "rename" not in lines[-1]:
    print("FAIL: the marked sequence is not the write to the rename:", lines)
    sys.exit(1)
print("report: unsynced-replace marked from %d to %d ns" % (f[0]["first"], f[0]["last"]))
PY
exit $fail
