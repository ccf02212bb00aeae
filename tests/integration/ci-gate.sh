#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The CI gate: --fail-on makes dio exit 3 when a finding that severe was
# reported, after dio's own failure and the traced command's status; a
# suppressed finding, or one the --baseline log had, does not count; the
# fingerprint is the same in two runs of the workload in fresh directories.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

status() {	# WANT WHAT CMD...: CMD exits WANT
	want=$1 what=$2
	shift 2
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "FAIL: $what: exit $rc, expected $want:"; tail -5 "$TMP/err"; fail=1; }
}

# the demo opens and closes its log for every line: redundant-open.churn (warning);
# dio analyze prints findings on standard output, its own lines on standard error
for run in 1 2; do
	mkdir "$TMP/run$run"
	"$DIO" record -q -o "$TMP/run$run.dio" -- "$WL/demo" "$TMP/run$run" > /dev/null 2>&1 ||
		{ echo "FAIL: dio record of run $run"; exit 1; }
done
an() { "$DIO" analyze "$TMP/run1.dio" -q --no-summary --analyzer redundant-open "$@"; }

status 0 "no --fail-on" an
status 3 "--fail-on warning" an --fail-on warning
grep -qx "dio: 1 finding at warning or above (--fail-on warning): exit status 3" "$TMP/err" ||
	{ echo "FAIL: --fail-on warning: no line saying why the status is 3"; fail=1; }
status 3 "--fail-on info" an --fail-on info
status 0 "--fail-on error (the finding is a warning)" an --fail-on error
status 2 "--fail-on bad" an --fail-on severe
grep -qx "dio: --fail-on: 'severe' is not a severity (use info, warning or error)" "$TMP/err" ||
	{ echo "FAIL: --fail-on severe: no one-line reason"; fail=1; }

# live: the command's own failure comes first, its success lets the findings speak
status 5 "trace, command exits 5" "$DIO" trace -q --no-summary --analyzer redundant-open \
	--fail-on warning -- sh -c "\"$WL/demo\" \"$TMP/run1\" && exit 5"
status 3 "trace, command succeeds" "$DIO" trace -q --no-summary --analyzer redundant-open \
	--fail-on warning -- "$WL/demo" "$TMP/run1"

# fingerprints: the same in both runs once --srcroot takes the directory out
fp() {	# RUN: the churn finding's fingerprint
	"$DIO" analyze "$TMP/run$1.dio" -q --no-summary --analyzer redundant-open \
		--srcroot "$TMP/run$1" --sink "json:file=$TMP/f$1.json" > /dev/null 2>&1
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "finding" and o["code"] == "redundant-open.churn":
        print(o["fingerprint"], o["subject"])' "$TMP/f$1.json"
}
fp1=$(fp 1)
fp2=$(fp 2)
[ -n "$fp1" ] && [ "$fp1" = "$fp2" ] && [ "${fp1#* }" = "app.log" ] ||
	{ echo "FAIL: fingerprints differ between runs: '$fp1' and '$fp2'"; fail=1; }

# suppressed: reported, marked, and the gate stays open
printf 'suppress = (\n  { reason = "the demo reopens on purpose"; code = "redundant-open.churn"; path = "app.log"; process = "demo"; }\n);\n' \
	> "$TMP/ok.supp"
status 0 "--suppress" an --fail-on warning --srcroot "$TMP/run1" --suppress "$TMP/ok.supp"
grep -q "^dio: \[WARNING, suppressed\] redundant-open.churn: " "$TMP/out" &&
	grep -qx "    suppressed: the demo reopens on purpose" "$TMP/out" ||
	{ echo "FAIL: the suppressed finding is not shown as such"; fail=1; }
grep -qx "dio: 1 finding: 1 suppressed" "$TMP/err" ||
	{ echo "FAIL: --suppress: no count of the findings and of those suppressed"; cat "$TMP/err"; fail=1; }
# a suppression that matches nothing: every finding still counted in the tally line
printf 'suppress = (\n  { reason = "another program"; process = "nosuch"; code = "*"; }\n);\n' \
	> "$TMP/none.supp"
status 3 "--suppress matching nothing" an --fail-on warning --suppress "$TMP/none.supp"
grep -qx "dio: 1 finding: 0 suppressed" "$TMP/err" ||
	{ echo "FAIL: --suppress matching nothing: the tally does not count the finding"; cat "$TMP/err"; fail=1; }
printf 'suppress = (\n  { code = "redundant-open.churn"; }\n);\n' > "$TMP/bad.supp"
status 1 "--suppress without a reason" an --suppress "$TMP/bad.supp"
grep -qx "dio: $TMP/bad.supp:2: every suppression needs a reason = \"...\";" "$TMP/err" ||
	{ echo "FAIL: a suppression without a reason: no one line with its line number"; cat "$TMP/err"; fail=1; }

# a baseline that had the finding: unchanged, the gate stays open; one that
# had another: the finding is new (exit 3), the other is absent
mkbase() {	# FINGERPRINT > SARIF
	printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"dio"}},"results":[{"ruleId":"redundant-open.churn","level":"warning","message":{"text":"old"},"partialFingerprints":{"dio/v1":"%s"}}]}]}\n' "$1"
}
mkbase "${fp1%% *}" > "$TMP/same.sarif"
status 0 "--baseline with the finding" an --fail-on warning --srcroot "$TMP/run1" --baseline "$TMP/same.sarif"
grep -q "^dio: \[WARNING, unchanged\] redundant-open.churn: " "$TMP/out" ||
	{ echo "FAIL: the finding is not marked unchanged"; fail=1; }
mkbase 0123456789abcdef > "$TMP/other.sarif"
status 3 "--baseline without it" an --fail-on warning --srcroot "$TMP/run1" --baseline "$TMP/other.sarif"
grep -q "^dio: \[WARNING, new\] redundant-open.churn: " "$TMP/out" &&
	grep -q "^dio: \[WARNING, fixed\] redundant-open.churn: old$" "$TMP/out" &&
	grep -qx "dio: 1 finding: 1 new, 0 unchanged; 1 in the baseline only (fixed)" "$TMP/err" ||
	{ echo "FAIL: new and absent findings not shown:"; grep -h '^dio:' "$TMP/out" "$TMP/err"; fail=1; }
printf '{"runs":' > "$TMP/broken.sarif"
status 1 "--baseline broken" an --baseline "$TMP/broken.sarif"
grep -q "^dio: $TMP/broken.sarif: not valid JSON (line 1: " "$TMP/err" ||
	{ echo "FAIL: a broken baseline: no one-line reason"; cat "$TMP/err"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: --fail-on, --suppress, --baseline and fingerprints"
exit $fail
