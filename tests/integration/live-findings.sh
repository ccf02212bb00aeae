#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --report-every: a finding judged while the traced program still runs reaches
# the console and the json sink then. tests/workloads/errstorm live makes a
# storm of 500 failing stats, waits for DIR/seen, which this script makes
# only once the finding is in the json file, then makes 300 more: it prints
# "seen" only if the finding came while it ran. At the end the console prints
# one update line and json one "update":true object with the same fingerprint
# and the count of both storms (800); the SARIF report, --fail-on and the
# findings' closing count see one finding, with 800.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
mkdir "$TMP/d"

# watch: when json has the finding, keep what console and json had then, and say so
watch() {
	i=0
	while [ $i -lt 150 ]; do
		if grep -q '"code":"errors.burst"' "$TMP/live.json" 2> /dev/null; then
			cp "$TMP/live.json" "$TMP/mid.json"
			cp "$TMP/con" "$TMP/mid.con"
			touch "$TMP/d/seen"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
}
watch &
WATCH=$!
run_dio trace --no-summary --analyzer errors --report-every 1 --fail-on warning \
	--sink console:events=false -o "$TMP/con" --sink "json:file=$TMP/live.json" \
	--sink "sarif:file=$TMP/live.sarif" -- "$WL/errstorm" live "$TMP/d" > "$TMP/out" 2> "$TMP/err"
wait $WATCH
[ "$RC" -eq 3 ] || { echo "FAIL: dio exited with $RC, want 3 (--fail-on warning):"; cat "$TMP/err"; fail=1; }
grep -qx 'dio: 1 finding at warning or above (--fail-on warning): exit status 3' "$TMP/err" ||
	{ echo "FAIL: --fail-on did not count one finding:"; cat "$TMP/err"; fail=1; }
[ "$(head -n 1 "$TMP/out")" = "seen" ] ||
	{ echo "FAIL: the finding did not come while the workload ran:"; cat "$TMP/out"; fail=1; }

python3 - "$TMP" << 'PY' || fail=1
import json, re, sys

tmp = sys.argv[1]
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

def findings(path):
    return [o for o in map(json.loads, open(path))
            if o["type"] == "finding" and o["code"] == "errors.burst"]

pid, call, n, err, path, sev = open(f"{tmp}/out").read().split("\n")[1].split()
mid, end = findings(f"{tmp}/mid.json"), findings(f"{tmp}/live.json")
# while it ran: the first storm's 500, once, not an update
if len(mid) != 1 or mid[0]["count"] != 500 or "update" in mid[0]:
    fail(f"while it ran, json had {mid}, want one finding with count 500")
# at the end: that finding and one update of it, with both storms
if len(end) != 2 or end[0] != mid[0]:
    fail(f"json at the end: {len(end)} findings, want the one of the run then its update")
elif (end[1].get("update") is not True or end[1]["fingerprint"] != mid[0]["fingerprint"] or
      end[1]["count"] != int(n) or int(n) != 800):
    fail(f"the update: {end[1]}, want update true, fingerprint {mid[0]['fingerprint']}, "
         f"count {n} (800)")
fp = mid[0]["fingerprint"]

# the console: the whole finding while it ran, then one line
con_mid, con = open(f"{tmp}/mid.con").read(), open(f"{tmp}/con").read()
head = re.compile(r"^dio: \[WARNING\] errors\.burst: 500 stat calls failed with ENOENT in .*"
                  + re.escape(f': "{path}"') + "$", re.M)
if len(head.findall(con_mid)) != 1 or f"    fingerprint: {fp}\n" not in con_mid:
    fail("while it ran, the console did not have the finding:\n" + con_mid)
upd = re.compile(r"^dio: \[WARNING\] errors\.burst: update: count 800, fingerprint "
                 + fp + r": 800 stat calls failed with ENOENT in .*"
                 + re.escape(f': "{path}"') + "$", re.M)
if (len(head.findall(con)) != 1 or len(upd.findall(con)) != 1 or
        len(re.findall(r"^dio: \[", con, re.M)) != 2 or not con.startswith(con_mid)):
    fail("the console at the end, want the finding once and one update line:\n" + con)

# the report written at the end: one result, its final count
res = json.load(open(f"{tmp}/live.sarif"))["runs"][0]["results"]
res = [r for r in res if r["ruleId"] == "errors.burst"]
if (len(res) != 1 or res[0]["properties"]["count"] != 800 or
        res[0]["partialFingerprints"]["dio/v1"] != fp):
    fail(f"SARIF: {res}, want one result with count 800 and fingerprint {fp}")
sys.exit(bad)
PY

# the update lines are what docs/json-schema.json says (Debian's python3 has jsonschema)
/usr/bin/python3 - "$top_srcdir/docs/json-schema.json" "$TMP/live.json" << 'PY' || fail=1
import json, sys
import jsonschema

v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
for o in map(json.loads, open(sys.argv[2])):
    if o["type"] == "finding" and not v.is_valid(o):
        sys.exit("FAIL: not as docs/json-schema.json says: " + json.dumps(o)[:300])
PY

# without --report-every, nothing comes before the end: the finding once, with 800
rm -f "$TMP/d/seen"
run_dio trace --no-summary --analyzer errors --sink console:events=false -o "$TMP/con2" \
	-- "$WL/errstorm" live "$TMP/d" > "$TMP/out2" 2> "$TMP/err2"
[ "$RC" -eq 0 ] || { echo "FAIL: dio without --report-every exited with $RC:"; cat "$TMP/err2"; fail=1; }
[ "$(cat "$TMP/out2" | head -n 1)" = "not seen" ] || { echo "FAIL: a marker without a watcher"; fail=1; }
[ "$(grep -c '^dio: \[' "$TMP/con2")" -eq 1 ] &&
	grep -q '^dio: \[WARNING\] errors\.burst: 800 stat calls failed' "$TMP/con2" ||
	{ echo "FAIL: without --report-every, want one finding with 800 at the end:"; cat "$TMP/con2"; fail=1; }

# a bad value is refused with one line
run_dio trace --report-every soon -- true 2> "$TMP/err3"
[ "$RC" -eq 2 ] && grep -qx "dio: --report-every: 'soon' is not a number of seconds greater than 0" "$TMP/err3" ||
	{ echo "FAIL: --report-every soon: exit $RC:"; cat "$TMP/err3"; fail=1; }
exit $fail
