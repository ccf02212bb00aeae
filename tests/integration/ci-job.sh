#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A CI job, played whole (docs/ci.md). The job's test script runs the demo,
# whose log churn is known and accepted, and the appender: "before" writes
# its log through one fd, "after" (today's build) opens, writes, fsyncs and
# closes it per line. Yesterday's run left a SARIF log: it is today's
# baseline. Today only the new finding fails the job (exit 3), the old one is
# unchanged; the JUnit report says which is which; dio diff names the fsync
# regression; a suppression with its reason lets the job pass, and the
# reports carry the reason. Then docs/ci.md's GitHub and GitLab jobs, run as
# written there: without and with a baseline, with no and an empty .dio.supp.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3	# Debian's, which python3-yaml and python3-jsonschema install into
[ -x $PY ] || { echo "FAIL: no $PY: apt-get install python3 (install-deps.sh)"; exit 1; }
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
$PY - "$TMP/today.sarif" "$TMP/today.xml" << 'PY' || fail=1
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
$PY - "$TMP/supp.sarif" "$TMP/supp.xml" << 'PY' || fail=1
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

# docs/ci.md's workflows, as they are written there: the run: steps of the GitHub job
# and the script: of the GitLab job, each run as the CI system runs it (bash -e), in a
# git repository whose ./run-tests is the demo. The runner's dio and sudo are the
# PATH's: dio this build, sudo a pass-through (the test is root, as the runner's sudo is).
$PY -c 'import yaml' 2> /dev/null ||
	{ echo "FAIL: $PY cannot import yaml: apt-get install python3-yaml (install-deps.sh)"; exit 1; }
command -v xmllint > /dev/null ||
	{ echo "FAIL: xmllint not installed: apt-get install libxml2-utils (install-deps.sh)"; exit 1; }
[ -x /usr/bin/git ] || { echo "FAIL: /usr/bin/git missing: apt-get install git"; exit 1; }
ws=$TMP/ws
mkdir -p "$ws" "$TMP/bin"
env -i PATH=/usr/bin:/bin HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 /usr/bin/git init -q "$ws" ||
	{ echo "FAIL: git init"; exit 1; }
printf '#!/bin/sh\nexec "%s" "$@"\n' "$DIO" > "$TMP/bin/dio"
printf '#!/bin/sh\nexec "$@"\n' > "$TMP/bin/sudo"
printf '#!/bin/sh\nmkdir -p testdata && exec "%s" testdata\n' "$WL/demo" > "$ws/run-tests"
printf 'all:\n\t@true\n' > "$ws/Makefile"
chmod +x "$TMP/bin/dio" "$TMP/bin/sudo" "$ws/run-tests"
$PY - "$top_srcdir/docs/ci.md" "$TMP" << 'PY' || { echo "FAIL: docs/ci.md's workflows do not read"; exit 1; }
import re, sys, yaml

text = open(sys.argv[1]).read()
gh, gl = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]
runs = [st["run"] for st in gh["jobs"]["io-check"]["steps"] if "run" in st]
open(f"{sys.argv[2]}/github.sh", "w").write("".join(f"bash -e << 'STEP' || exit $?\n{r}\nSTEP\n"
                                                   for r in runs))
open(f"{sys.argv[2]}/gitlab.sh", "w").write("\n".join(gl["io-check"]["script"]) + "\n")
PY
# JOB WANT: the job in the workspace exits WANT; its reports are valid and relative
ci() {
	rm -f "$ws/run.dio" "$ws/dio.sarif" "$ws/dio.xml"
	( cd "$ws" && PATH=$TMP/bin:$PATH bash -e "$TMP/$1.sh" ) > "$TMP/$1.out" 2>&1
	rc=$?
	[ $rc -eq "$2" ] || { echo "FAIL: the $1 job exited $rc, expected $2:"; cat "$TMP/$1.out"; fail=1; }
	xmllint --noout --schema "$top_srcdir/tests/fixtures/junit-10.xsd" "$ws/dio.xml" \
		> /dev/null 2> "$TMP/xsd.err" ||
		{ echo "FAIL: the $1 job's dio.xml is not valid under junit-10.xsd:"; cat "$TMP/xsd.err"; fail=1; }
	SCHEMA=$SCHEMA WS=$ws WANT=$2 $PY - "$ws/dio.sarif" "$ws/dio.xml" << 'PY' || { echo "  ($1 job)"; fail=1; }
import json, os, sys
import xml.etree.ElementTree as ET

log = json.load(open(sys.argv[1]))
if os.environ["SCHEMA"]:
    import jsonschema
    schema = json.load(open(os.environ["SCHEMA"]))
    errs = list(jsonschema.validators.validator_for(schema)(schema).iter_errors(log))
    if errs:
        sys.exit(f"FAIL: dio.sarif: {errs[0].message}")
run = log["runs"][0]
if run["originalUriBaseIds"]["SRCROOT"]["uri"] != f"file://{os.environ['WS']}/":
    sys.exit(f"FAIL: SRCROOT {run['originalUriBaseIds']} is not the repository")
phys = [l["physicalLocation"] for r in run["results"] for l in r["locations"]
        if "physicalLocation" in l]
if any(p["artifactLocation"]["uri"].startswith("file:") or
       p["artifactLocation"].get("uriBaseId") != "SRCROOT" or p["region"] != {"startLine": 1}
       for p in phys):
    sys.exit(f"FAIL: URIs not relative to the repository: {phys}")
churn = [r for r in run["results"] if r["ruleId"] == "redundant-open.churn"]
if [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in churn] != \
        ["testdata/app.log"]:
    sys.exit(f"FAIL: redundant-open.churn at {[r['locations'] for r in churn]}")
fails = [c.get("name") for c in ET.parse(sys.argv[2]).getroot().iter("testcase")
         if c.find("failure") is not None]
if (os.environ["WANT"] == "3") != ("redundant-open.churn testdata/app.log" in fails):
    sys.exit(f"FAIL: JUnit failures {fails} for exit status {os.environ['WANT']}")
PY
}
SCHEMA=${SARIF_SCHEMA:-$top_srcdir/../shared/schemas/sarif-schema-2.1.0.json}
[ -r "$SCHEMA" ] && $PY -c 'import jsonschema' 2> /dev/null || SCHEMA=
# the first run: no baseline, no .dio.supp: the demo's findings are new, the job fails
ci github 3
# the next: the last run's log as the baseline (download-artifact), an empty .dio.supp
mkdir -p "$ws/baseline"
cp "$ws/dio.sarif" "$ws/baseline/dio.sarif"
: > "$ws/.dio.supp"
ci github 0
ci gitlab 0
rm -r "$ws/baseline" "$ws/.dio.supp"
ci gitlab 3

[ $fail -eq 0 ] && echo "PASS: the CI job: baseline, new finding, diff, suppression; docs/ci.md's workflows"
exit $fail
