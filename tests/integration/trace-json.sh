#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The json sink next to the console sink in one run of tests/workloads/basic:
# every line is a JSON object, there is one syscall object per call line the
# console printed, and the first openat of the workload's file has exactly the
# fields the console shows for it. Then the same through gzip (.gz), from a
# recorded trace file (dio dump), and the errors that must stop dio: a file
# that cannot be opened, a full disk.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# check JSON CONSOLE EXPECT: python3's json module is the judge
check() {
	python3 - "$@" << 'PY'
import gzip, json, re, sys

path, console, expect = sys.argv[1:4]
opener = gzip.open if path.endswith(".gz") else open
objs = []
with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
    for n, line in enumerate(f, 1):
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            sys.exit(f"FAIL: {path}:{n} is not JSON ({e}): {line[:200]!r}")
bad = 0
calls = [l for l in open(console, errors="replace")
         if re.match(r"^\[\d+/\d+ [^]]*\] [a-z0-9_]+\(", l)]
sc = [o for o in objs if o["type"] == "syscall"]
if len(sc) != len(calls):
    print(f"FAIL: {len(sc)} syscall objects in {path}, {len(calls)} call lines on the console")
    bad = 1
# the workload's first open of its file "a", as the workload itself saw it
want = None
for l in open(expect):
    m = re.match(r'^\[(\d+)/(\d+) [^]]*\] openat\(AT_FDCWD, "a", O_WRONLY\|O_CREAT\|O_TRUNC, '
                 r'0644\) = (\d+)<([^>]*)> \{type=reg tag=([^}]*)\}$', l)
    if m:
        want = m
        break
if not want:
    sys.exit(f"FAIL: no openat of \"a\" in {expect}")
got = [o for o in sc if o["syscall"] == "openat" and o.get("strings") == ["a"]
       and o["tid"] == int(want[2])]
if not got:
    sys.exit(f"FAIL: no openat object for \"a\" of thread {want[2]} in {path}")
o = got[0]
checks = {
    "pid": int(want[1]), "tid": int(want[2]), "comm": "basic", "nr": 257,
    "ret": int(want[3]), "fd": int(want[3]), "path": want[4], "file_tag": want[5],
    "file_type": "reg", "strings": ["a"],
}
for k, v in checks.items():
    if o.get(k) != v:
        print(f"FAIL: openat of \"a\": {k} is {o.get(k)!r}, expected {v!r}")
        bad = 1
if o["decoded"][:4] != ["AT_FDCWD", None, "O_WRONLY|O_CREAT|O_TRUNC", "0644"]:
    print(f"FAIL: openat of \"a\": decoded is {o['decoded']!r}")
    bad = 1
if o["args"][2] != 0o1101 or o["args"][3] != 0o644 or "errno" in o:
    print(f"FAIL: openat of \"a\": args {o['args']!r}, errno {o.get('errno')!r}")
    bad = 1
if not (o["ts_ns"] > 1600000000 * 10**9 and 0 <= o["rel_ns"] < 60 * 10**9
        and o["duration_ns"] > 0):
    print(f"FAIL: openat of \"a\": times ts_ns={o['ts_ns']} rel_ns={o['rel_ns']}")
    bad = 1
# a failing call carries its errno name
errs = [x for x in sc if x["ret"] < 0 and x["ret"] >= -4095]
if any(not re.match(r"^E[A-Z0-9]+$", x.get("errno", "")) for x in errs):
    print(f"FAIL: a failed call without its errno name")
    bad = 1
kinds = {x["kind"] for x in objs if x["type"] == "proc"}
if "exec" not in kinds or "exit" not in kinds:
    print(f"FAIL: proc records {sorted(kinds)}, expected exec and exit among them")
    bad = 1
if not bad:
    print(f"ok: {path}: {len(objs)} objects, {len(sc)} syscalls, openat of \"a\" exact")
sys.exit(bad)
PY
}

for out in out.json out.json.gz; do
	rm -rf "$MNT/wd"
	mkdir "$MNT/wd"
	run_dio trace --no-summary --sink console -o "$TMP/con" --sink "json:file=$TMP/$out" \
		-- "$WL/basic" "$MNT/wd" 9> "$TMP/expect"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio with --sink json:file=$out exited with $RC"; fail=1; }
	check "$TMP/$out" "$TMP/con" "$TMP/expect" || fail=1
done
# record now, export later: dio dump of a trace file through the same sink
rm -rf "$MNT/wd"
mkdir "$MNT/wd"
run_dio record -o "$TMP/t.dio" -- "$WL/basic" "$MNT/wd" 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC"; fail=1; }
run_dio dump "$TMP/t.dio" --sink console -o "$TMP/con" --sink "json:file=$TMP/dump.json.gz"
[ "$RC" -eq 0 ] || { echo "FAIL: dio dump --sink json exited with $RC"; fail=1; }
check "$TMP/dump.json.gz" "$TMP/con" "$TMP/expect" || fail=1

if [ "$(head -c 2 "$TMP/out.json.gz" | od -An -tx1 | tr -d ' ')" != 1f8b ]; then
	echo "FAIL: out.json.gz is not gzip"
	fail=1
fi

# errors: one line from the sink that says why, and dio does not exit 0
msg="dio: json: cannot create output '/nonexistent-dio/x.json': No such file or directory"
run_dio trace --no-summary --sink json:file=/nonexistent-dio/x.json -- true 2> "$TMP/err"
if [ "$RC" -eq 0 ] || ! grep -qxF "$msg" "$TMP/err"; then
	echo "FAIL: unopenable file: dio exited with $RC and said:"
	cat "$TMP/err"
	fail=1
fi
# the workload succeeds (exit 0): only the lost output may make dio fail
mkdir "$MNT/wd2"
msg="dio: json: cannot write output: No space left on device"
run_dio trace --no-summary --sink json:file=/dev/full -- "$WL/basic" "$MNT/wd2" \
	9> /dev/null 2> "$TMP/err"
if [ "$RC" -eq 0 ] || [ "$(grep -cxF "$msg" "$TMP/err")" -ne 1 ]; then
	echo "FAIL: full disk: dio exited with $RC and said:"
	cat "$TMP/err"
	fail=1
fi
exit $fail
