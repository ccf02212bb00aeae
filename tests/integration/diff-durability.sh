#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio diff between a build that saves its file safely (tests/workloads/durable
# replace-safe: fsync of the file before the rename, of the directory after)
# and one that dropped the fsyncs (replace): the JSON names
# durability.unsynced-replace as new in B, on the file's path relative to
# --srcroot, and --fail-on warning exits 3 for it; the other way round the
# finding is fixed and the gate passes.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

for v in replace-safe replace; do
	rm -rf "$MNT/w" && mkdir "$MNT/w"
	run_dio record -q --no-summary -o "$TMP/$v.dio" -- "$WL/durable" "$v" "$MNT/w" \
		> /dev/null 2> "$TMP/$v.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio record ... durable $v exited with $RC:"; \
		cat "$TMP/$v.err"; exit 1; }
done

# state A B STATE: the durability finding of dio diff A B is in STATE, and
# --fail-on warning exits with RC
state() {
	run_dio diff "$TMP/$1.dio" "$TMP/$2.dio" --srcroot "$MNT" --format json \
		> "$TMP/diff.json" 2> "$TMP/diff.err"
	python3 - "$TMP/diff.json" "$3" << 'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["analyzer"] == "durability"]
want = {"state": sys.argv[2], "severity": "warning", "code": "durability.unsynced-replace",
        "subject": "w/settings.conf", "comm": "durable"}
got = [{k: x.get(k) for k in want} for x in f]
if got != [want]:
    print(f"FAIL: durability findings of the diff: {got}, expected [{want}]")
    sys.exit(1)
print(f"dio diff: {f[0]['state']} {f[0]['code']} {f[0]['subject']}: {f[0]['title']}")
PY
	run_dio diff "$TMP/$1.dio" "$TMP/$2.dio" --srcroot "$MNT" --fail-on warning \
		> "$TMP/diff.txt" 2>&1
	if [ "$RC" -ne "$4" ]; then
		echo "FAIL: dio diff $1 $2 --fail-on warning exited with $RC, expected $4"
		cat "$TMP/diff.txt"
		fail=1
	fi
}

# new in the build that dropped the fsyncs: the gate fails (a latency finding of
# the machine does not count unless named)
state replace-safe replace new 3
state replace replace-safe fixed 0
exit $fail
