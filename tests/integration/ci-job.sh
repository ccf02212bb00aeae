#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A CI job, played whole (docs/ci.md). The job's test script runs the demo,
# whose log churn is known and accepted, and the appender: "before" writes
# its log through one fd, "after" (today's build) opens, writes, fsyncs and
# closes it per line. Yesterday's run left a SARIF log: it is today's
# baseline. Today only the new finding fails the job (exit 3), the old one is
# unchanged; the JUnit report says which is which; dio diff names the fsync
# regression; a suppression with its reason lets the job pass, and the
# reports carry the reason.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
command -v python3 > /dev/null || { echo "SKIP: python3 not installed"; exit 77; }
fail=0

# the job, run in a fresh work directory each time as CI does
work=$TMP/work
job() {	# before|after
	rm -rf "$work"
	mkdir -p "$work/d" "$work/w"
	"$DIO" record -q --no-summary -o "$TMP/$1.dio" -- \
		sh -c "\"$WL/demo\" \"$work/d\" && \"$WL/appender\" $1 \"$work/w\"" \
		> "$TMP/$1.rec" 2>&1 || { echo "FAIL: dio record of the $1 job:"; cat "$TMP/$1.rec"; exit 1; }
}
job before
job after
an() {	# VARIANT ARGS...: dio analyze the variant's recording as the job does
	v=$1
	shift
	"$DIO" analyze "$TMP/$v.dio" -q --no-summary --analyzer redundant-open \
		--srcroot "$work" --fail-on warning "$@" > "$TMP/an.out" 2> "$TMP/an.err"
}

# yesterday: the baseline, with the demo's finding only
an before --sink "sarif:file=$TMP/base.sarif"
[ $? -eq 3 ] || { echo "FAIL: the before job without a baseline did not fail on the demo's finding"; fail=1; }

# today with the baseline: only the new finding fails the job
an after --baseline "$TMP/base.sarif" --sink console --sink "sarif:file=$TMP/today.sarif" \
	--sink "junit:file=$TMP/today.xml"
rc=$?
[ $rc -eq 3 ] || { echo "FAIL: today's job exited $rc, expected 3 for its new finding"; cat "$TMP/an.err"; fail=1; }
grep -q "^dio: \[WARNING, new\] redundant-open.churn: .*/w/log opened and closed" "$TMP/an.out" &&
	grep -q "^dio: \[WARNING, unchanged\] redundant-open.churn: .*/d/app.log opened and closed" "$TMP/an.out" ||
	{ echo "FAIL: the console does not say which finding is new:"; grep '^dio: \[' "$TMP/an.out"; fail=1; }
grep -qx "dio: 1 new finding at warning or above (--fail-on warning): exit status 3" "$TMP/an.err" ||
	{ echo "FAIL: no line saying the one new finding failed the job:"; cat "$TMP/an.err"; fail=1; }
python3 - "$TMP/today.sarif" "$TMP/today.xml" << 'PY' || fail=1
import json, sys
import xml.etree.ElementTree as ET

sarif = json.load(open(sys.argv[1]))
res = sarif["runs"][0]["results"]
state = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r.get("baselineState")
         for r in res if r["ruleId"] == "redundant-open.churn"}
if state != {"w/log": "new", "d/app.log": "unchanged"}:
    sys.exit(f"FAIL: SARIF baseline states {state}")
cases = ET.parse(sys.argv[2]).getroot().iter("testcase")
failing = [c.get("name") for c in cases if c.find("failure") is not None]
if len(failing) != 1 or "w/log" not in failing[0]:
    sys.exit(f"FAIL: JUnit failures {failing}, expected the new finding on w/log alone")
PY

# dio diff names the regression
"$DIO" diff "$TMP/before.dio" "$TMP/after.dio" --srcroot "$work" --analyzer redundant-open \
	--fail-on-regress 50 > "$TMP/diff.txt" 2> "$TMP/diff.err"
rc=$?
[ $rc -eq 3 ] && grep -Eq '^  fsync +calls +1 +200 +200\.00x( !)?$' "$TMP/diff.txt" &&
	grep -q '^dio: diff: syscall fsync: calls 1 -> 200 (200.00x), worse by more than 50%$' "$TMP/diff.err" ||
	{ echo "FAIL: dio diff (exit $rc) does not name the fsync regression:"; cat "$TMP/diff.txt" "$TMP/diff.err"; fail=1; }

# the team accepts the new churn for now: the job passes, the reason travels
printf 'suppress = (\n  { reason = "per-line fsync until the batch writer lands"; code = "redundant-open.churn"; path = "w/log"; }\n);\n' \
	> "$TMP/dio.supp"
an after --baseline "$TMP/base.sarif" --suppress "$TMP/dio.supp" --sink console \
	--sink "sarif:file=$TMP/supp.sarif" --sink "junit:file=$TMP/supp.xml"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: the job with the suppression exited $rc"; cat "$TMP/an.err"; fail=1; }
grep -qx "    suppressed: per-line fsync until the batch writer lands" "$TMP/an.out" ||
	{ echo "FAIL: the console does not give the suppression's reason"; fail=1; }
python3 - "$TMP/supp.sarif" "$TMP/supp.xml" << 'PY' || fail=1
import json, sys
import xml.etree.ElementTree as ET

why = "per-line fsync until the batch writer lands"
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
sup = [r for r in res if r.get("suppressions")]
if len(sup) != 1 or sup[0]["suppressions"][0].get("justification") != why:
    sys.exit(f"FAIL: SARIF suppressions {[r.get('suppressions') for r in res]}")
cases = list(ET.parse(sys.argv[2]).getroot().iter("testcase"))
if any(c.find("failure") is not None for c in cases):
    sys.exit("FAIL: JUnit still has a failure with the suppression")
skipped = [c.find("skipped").get("message", "") for c in cases if c.find("skipped") is not None]
if not any(why in m for m in skipped):
    sys.exit(f"FAIL: JUnit skipped messages {skipped} lack the reason")
PY
[ $fail -eq 0 ] && echo "PASS: the CI job: baseline, new finding, diff, suppression"
exit $fail
