#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --report-every and the latency analyzer: slow block requests are reported
# while the traced program runs. With a threshold every request passes,
# tests/workloads/blockq live makes 8 direct writes on an ext4 image, waits
# for DIR/seen, which this script makes only once the finding is in the json
# file, then makes 8 direct reads: it prints "seen" only if the finding came
# while it ran. At the end json has one update of it: the same fingerprint,
# process name and file, and the count the table under it gives (every row's
# slow requests), at least 8 more than while it ran; SARIF has one result.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# watch: when json has the finding, keep what it had then, and say so
watch() {
	i=0
	while [ $i -lt 150 ]; do
		if grep -q '"code":"latency.slow-block-requests"' "$TMP/live.json" 2> /dev/null; then
			cp "$TMP/live.json" "$TMP/mid.json"
			touch "$MNT/seen"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
}
watch &
WATCH=$!
run_dio trace --no-summary --analyzer "latency:block_slow_ms=0.000001,output=$TMP/tables" \
	--report-every 1 --sink console:events=false -o "$TMP/con" \
	--sink "json:file=$TMP/live.json" --sink "sarif:file=$TMP/live.sarif" \
	-- "$WL/blockq" live "$MNT" > "$TMP/out" 2> "$TMP/err" 9> /dev/null
wait $WATCH
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC:"; cat "$TMP/err"; fail=1; }
[ "$(head -n 1 "$TMP/out")" = "seen" ] ||
	{ echo "FAIL: the finding did not come while the workload ran:"; cat "$TMP/out"; fail=1; }
# the slow requests of every row, as the table counts them (its last column)
slow=$(awk '/^block requests/ { t = 1; next } t && NF == 8 && $1 ~ /^[0-9]+:[0-9]+$/ { n += $8 }
	t && NF == 0 { t = 0 } END { print n + 0 }' "$TMP/tables")
[ "$slow" -ge 16 ] || { echo "FAIL: the table counts $slow slow requests, want 16 or more:"; \
	cat "$TMP/tables"; fail=1; }

python3 - "$TMP" "$slow" << 'PY' || fail=1
import json, sys

tmp, slow = sys.argv[1], int(sys.argv[2])
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

def findings(path):
    return [o for o in map(json.loads, open(path))
            if o["type"] == "finding" and o["code"] == "latency.slow-block-requests"]

mid, end = findings(f"{tmp}/mid.json"), findings(f"{tmp}/live.json")
if len(mid) != 1 or "update" in mid[0] or not 1 <= mid[0]["count"] <= slow - 8:
    fail(f"while it ran, json had {mid}, want one finding with 1 to {slow - 8} requests")
    sys.exit(1)
if len(end) != 2 or end[0] != mid[0]:
    fail(f"json at the end: {len(end)} findings, want the one of the run then its update")
    sys.exit(1)
u = end[1]
if (u.get("update") is not True or u["fingerprint"] != mid[0]["fingerprint"] or
        u.get("comm") != mid[0].get("comm") or u.get("path") != mid[0].get("path") or
        u["count"] != slow):
    fail(f"the update: {u}, want update true, fingerprint {mid[0]['fingerprint']}, the "
         f"names of {mid[0]}, count {slow}")
res = json.load(open(f"{tmp}/live.sarif"))["runs"][0]["results"]
res = [r for r in res if r["ruleId"] == "latency.slow-block-requests"]
if (len(res) != 1 or res[0]["properties"]["count"] != slow or
        res[0]["partialFingerprints"]["dio/v1"] != mid[0]["fingerprint"]):
    fail(f"SARIF: {res}, want one result with count {slow}")
sys.exit(bad)
PY
exit $fail
