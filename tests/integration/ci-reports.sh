#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report sinks, on a workload whose findings are known: the README's demo
# (redundant-open.churn, reuse-offset.read-past-end) and two cat calls that the
# test module ruled reports (ruled.touch per file, ruled.thread about no file,
# ruled.quiet never, ruled.odd with markup and control bytes), each run in a
# directory of its own given as --srcroot.
# - Every SARIF log is valid under the official SARIF 2.1.0 schema (and a
#   broken one is not, so the check is seen to work), and holds what GitHub
#   code scanning needs: $schema, rules with help, one location per result,
#   partialFingerprints.
# - Two runs of the workload give the same fingerprints, and so does dio
#   analyze of the first run's recording.
# - The JUnit report is valid under junit-10.xsd (xmllint) and parses with
#   xml.etree: a suite per analyzer of the rules, a passing case per rule that
#   found nothing, failures with the title.
# - --baseline with the first log: unchanged; a changed workload: new and
#   absent, and exit status 3 for the new one (--fail-on warning); --suppress:
#   SARIF suppressions and JUnit skipped, and status 0.
# - A report that cannot be written (a full disk) makes dio exit non-zero.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3	# Debian's, which python3-jsonschema installs into
SCHEMA=${SARIF_SCHEMA:-$top_srcdir/../shared/schemas/sarif-schema-2.1.0.json}
if [ ! -r "$SCHEMA" ]; then
	echo "SKIP: no SARIF 2.1.0 schema at $SCHEMA (set SARIF_SCHEMA to the file)"
	exit 77
fi
if ! $PY -c 'import jsonschema' 2> /dev/null; then
	echo "FAIL: $PY cannot import jsonschema: apt-get install python3-jsonschema (install-deps.sh)"
	exit 1
fi
mod=$top_builddir/tests/unit/modules/.libs/ruled.so
[ -f "$mod" ] || { echo "FAIL: no test module at $mod (make check builds it)"; exit 1; }
fail=0

# dio with the analyzers of the test in a fresh $TMP/NAME as --srcroot; the files
# the two cat calls read are the remaining arguments. Reports: $TMP/NAME.sarif,
# .xml; what dio printed: $TMP/NAME.err
workload() {
	wl_name=$1
	wl_cmd=$2
	shift 2
	wl_d=$TMP/$wl_name
	mkdir "$wl_d"
	for f in a b c; do
		echo "$f" > "$wl_d/$f.txt"
	done
	run_dio $wl_cmd --no-summary --srcroot "$wl_d" --analyzer redundant-open \
		--analyzer reuse-offset --analyzer "$mod:match=.txt,odd=true" \
		--sink "sarif:file=$TMP/$wl_name.sarif" --sink "junit:file=$TMP/$wl_name.xml" \
		"$@" > /dev/null 2> "$TMP/$wl_name.err"
}

# the cat calls of the workload: FILE1 and FILE2, then FILE1 again
cats() {
	echo "\"$WL/demo\" \"\$1/demo\"; cat \"\$1/$1\" \"\$1/$2\" > /dev/null; cat \"\$1/$1\" > /dev/null"
}

# status NAME WANT: dio exited with WANT
status() {
	[ "$RC" -eq "$2" ] && return 0
	echo "FAIL: $1: dio exited with $RC, expected $2:"
	cat "$TMP/$1.err"
	fail=1
}

# 1: recorded, with the json sink too (the calls ruled.touch counts); 2: the same
# with the first log as baseline
workload one "record -o $TMP/one/t.dio" --sink "json:file=$TMP/one.json" -- \
	sh -c "$(cats a.txt b.txt)" sh "$TMP/one"
status one 0
workload two trace --baseline "$TMP/one.sarif" --fail-on warning -- \
	sh -c "$(cats a.txt b.txt)" sh "$TMP/two"
status two 0
# 3: c.txt instead of b.txt: c.txt is new, b.txt absent; once more with absent=false
workload three trace --baseline "$TMP/one.sarif" --fail-on warning \
	--sink "sarif:file=$TMP/three-gh.sarif,absent=false" -- \
	sh -c "$(cats a.txt c.txt)" sh "$TMP/three"
status three 3
grep -q '^dio: 1 new finding at warning or above (--fail-on warning): exit status 3$' \
	"$TMP/three.err" || { echo "FAIL: three: no line for the new finding:"; \
	cat "$TMP/three.err"; fail=1; }
# 4: the new one suppressed
cat > "$TMP/supp.conf" <<'EOF'
suppress = ( { code = "ruled.touch"; path = "*/c.txt"; reason = "c.txt is <read> on purpose"; } );
EOF
workload four trace --baseline "$TMP/one.sarif" --fail-on warning --suppress "$TMP/supp.conf" \
	-- sh -c "$(cats a.txt c.txt)" sh "$TMP/four"
status four 0
# the recording of 1, analyzed: its srcroot holds the trace file
mkdir "$TMP/offline"
run_dio analyze "$TMP/one/t.dio" --no-summary --srcroot "$TMP/one" --analyzer redundant-open \
	--analyzer reuse-offset --analyzer "$mod:match=.txt,odd=true" \
	--sink "sarif:file=$TMP/offline.sarif" --sink "junit:file=$TMP/offline.xml" \
	> /dev/null 2> "$TMP/offline.err"
status offline 0

# a full disk: said, and a non-zero status
for sink in sarif junit; do
	run_dio analyze "$TMP/one/t.dio" --no-summary --analyzer reuse-offset \
		--sink "$sink:file=/dev/full" > /dev/null 2> "$TMP/full.err"
	if [ "$RC" -ne 1 ] ||
	   ! grep -qx "dio: $sink: cannot write '/dev/full': No space left on device" "$TMP/full.err"; then
		echo "FAIL: $sink to /dev/full: status $RC, said:"
		cat "$TMP/full.err"
		fail=1
	fi
done

# every JUnit report is valid under junit-10.xsd, Jenkins' xUnit plugin's (the copy kept
# in tests/fixtures, and the shared one when it is there); one with skipped on
# <testsuites> is not, so the check is seen to work
command -v xmllint > /dev/null ||
	{ echo "FAIL: xmllint not installed: apt-get install libxml2-utils (install-deps.sh)"; exit 1; }
for xsd in "$top_srcdir/tests/fixtures/junit-10.xsd" "$top_srcdir/../shared/schemas/junit-10.xsd"; do
	[ -r "$xsd" ] || continue
	for n in one two three four offline; do
		xmllint --noout --schema "$xsd" "$TMP/$n.xml" > /dev/null 2> "$TMP/xsd.err" ||
			{ echo "FAIL: $n.xml is not valid under $xsd:"; cat "$TMP/xsd.err"; fail=1; }
	done
	sed 's/<testsuites /<testsuites skipped="0" /' "$TMP/one.xml" > "$TMP/bad.xml"
	! xmllint --noout --schema "$xsd" "$TMP/bad.xml" > /dev/null 2>&1 ||
		{ echo "FAIL: $xsd took skipped on <testsuites>"; fail=1; }
done

SCHEMA=$SCHEMA TMP=$TMP DIO=$DIO $PY - << 'PY' || fail=1
import json, os, re, socket, subprocess, sys
import xml.etree.ElementTree as ET
import jsonschema

TMP = os.environ["TMP"]
bad = 0

def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

def check(cond, msg):
    if not cond:
        fail(msg)
    return cond

schema = json.load(open(os.environ["SCHEMA"]))
# the schema is draft 4 ("$schema": ".../draft-04/schema#"): its own validator class
validator = jsonschema.validators.validator_for(schema)(
    schema, format_checker=jsonschema.FormatChecker())
check(isinstance(validator, jsonschema.Draft4Validator), "the SARIF schema is not draft 4")

def load(name):
    log = json.load(open(f"{TMP}/{name}.sarif"))
    errs = list(validator.iter_errors(log))
    for e in errs[:5]:
        fail(f"{name}.sarif: {e.message} at {list(e.absolute_path)}")
    return log

logs = {n: load(n) for n in ("one", "two", "three", "three-gh", "four", "offline")}
broken = json.loads(json.dumps(logs["one"]))
broken["runs"][0]["results"][0]["level"] = "fatal"
check(not validator.is_valid(broken), "a result with level 'fatal' passed the schema check")

version = subprocess.run([os.environ["DIO"], "--version"], capture_output=True,
                         text=True).stdout.split()[1]
ODD_TITLE = 'odd <b>&amp;" \x01\x1b[31m\\xff caf\u00e9 \ufffe'

def results(log, rule=None):
    return [r for r in log["runs"][0]["results"] if rule is None or r["ruleId"] == rule]

def uri(r):
    """the physical location's URI@base, or "-" for a result with none"""
    a = r["locations"][0].get("physicalLocation", {}).get("artifactLocation")
    return a["uri"] + ("@" + a["uriBaseId"] if "uriBaseId" in a else "") if a else "-"

# what GitHub code scanning and the spec ask of every log
for name, log in logs.items():
    check(log["$schema"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
          "schemas/sarif-schema-2.1.0.json" and log["version"] == "2.1.0",
          f"{name}: $schema or version")
    run = log["runs"][0]
    drv = run["tool"]["driver"]
    check(drv["name"] == "dio" and drv["version"] == version and drv["informationUri"],
          f"{name}: driver {drv['name']} {drv.get('version')}")
    ids = [r["id"] for r in drv["rules"]]
    check(len(ids) == len(set(ids)), f"{name}: rule ids repeat: {ids}")
    for r in drv["rules"]:
        for k in ("shortDescription", "fullDescription", "help"):
            t = r[k]["text"]
            check(t and (k == "help" or len(t) <= 1024), f"{name}: rule {r['id']}: {k} {t!r}")
        check(r["defaultConfiguration"]["level"] in ("note", "warning", "error"),
              f"{name}: rule {r['id']}: level")
    inv = run["invocations"][0]
    check(inv["executionSuccessful"] is True and " --srcroot " in inv["commandLine"] and
          inv["machine"] == socket.gethostname() and inv["startTimeUtc"] <= inv["endTimeUtc"],
          f"{name}: invocation {inv}")
    d = {"offline": "one", "three-gh": "three"}.get(name, name)
    check(run["originalUriBaseIds"]["SRCROOT"]["uri"] == f"file://{TMP}/{d}/",
          f"{name}: SRCROOT {run['originalUriBaseIds']}")
    seen = {}
    for r in results(log):
        check(drv["rules"][r["ruleIndex"]]["id"] == r["ruleId"], f"{name}: ruleIndex of {r['ruleId']}")
        # one location: a file below --srcroot is a physical one, on its first line
        loc = r["locations"]
        phys = loc[0].get("physicalLocation", {})
        check(len(loc) == 1 and (not phys or (phys["artifactLocation"]["uriBaseId"] == "SRCROOT"
              and phys["region"] == {"startLine": 1} and
              not phys["artifactLocation"]["uri"].startswith("file:"))),
              f"{name}: {r['ruleId']}: locations {loc}")
        fp = r["partialFingerprints"]["dio/v1"]
        seen[fp] = seen.get(fp, 0) + 1
        check(re.fullmatch("[0-9a-f]{16}", fp) and
              r["partialFingerprints"]["primaryLocationLineHash"] == f"{fp}:{seen[fp]}",
              f"{name}: {r['ruleId']}: fingerprints {r['partialFingerprints']}")
        check(r["message"]["text"], f"{name}: {r['ruleId']}: no message text")
        check(isinstance(r["suppressions"], list), f"{name}: {r['ruleId']}: suppressions")

# run one, field by field
one = logs["one"]
rules = {r["id"]: r for r in one["runs"][0]["tool"]["driver"]["rules"]}
check(rules["ruled.touch"]["shortDescription"]["text"] == "A file the test names was used" and
      rules["ruled.touch"]["help"]["text"] ==
      "Nothing to fix: the test module reports what it was told to." and
      [rules[c]["defaultConfiguration"]["level"] for c in ("ruled.touch", "ruled.thread",
       "ruled.quiet", "ruled.odd")] == ["warning", "note", "error", "error"] and
      "does not describe it to dio" in rules["ruled.odd"]["help"]["text"],
      f"one: the ruled rules: {[rules[c] for c in rules if c.startswith('ruled.')]}")
check("dio.findings-left-out" in rules and not results(one, "ruled.quiet"), "one: quiet rules")
calls = {}
for line in open(f"{TMP}/one.json"):
    o = json.loads(line)
    if o["type"] == "syscall" and o.get("path", "").endswith(".txt"):
        calls[o["path"]] = calls.get(o["path"], 0) + 1
touch = {uri(r): r for r in results(one, "ruled.touch")}
check(sorted(touch) == ["a.txt@SRCROOT", "b.txt@SRCROOT"], f"one: ruled.touch at {sorted(touch)}")
for f, r in touch.items():
    p = r["properties"]
    path = f"{TMP}/one/{f.split('@')[0]}"
    check(p["analyzer"] == "ruled" and p["subject"] == f.split("@")[0] and p["process"] == "cat"
          and p["path"] == path and p["count"] == calls.get(path) and
          r["message"]["text"] == f"{path} used in {calls.get(path)} calls" and
          r["level"] == "warning" and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z",
          p["firstTimeUtc"]) and p["message"] == "The test asked for it." and
          p["excerpt"] == "one\ntwo" and "baselineState" not in r and r["suppressions"] == [],
          f"one: ruled.touch {f}: {r}")
    ll = r["locations"][0]["logicalLocations"]
    check([l["kind"] for l in ll] == ["process", "thread"] and ll[0]["name"] == "cat" and
          ll[1]["fullyQualifiedName"] == f"pid {p['pid']}/tid {p['tid']} cat",
          f"one: ruled.touch {f}: logical locations {ll}")
# the program dio traced lies outside --srcroot: no physical location, only the process
th = results(one, "ruled.thread")
check(len(th) == 1 and "physicalLocation" not in th[0]["locations"][0] and
      th[0]["level"] == "note" and "message" not in th[0]["locations"][0] and
      [l["kind"] for l in th[0]["locations"][0]["logicalLocations"]] == ["process", "thread"] and
      th[0]["properties"]["process"] == "sh", f"one: ruled.thread {th}")
odd = results(one, "ruled.odd")
check(len(odd) == 1 and odd[0]["message"]["text"] == ODD_TITLE and
      odd[0]["properties"]["message"] == "tab\there\r\nline two ]]>" and
      odd[0]["locations"][0]["logicalLocations"][0]["name"] == "odd\x7f", f"one: ruled.odd {odd}")
for code in ("redundant-open.churn", "reuse-offset.read-past-end"):
    check([uri(r) for r in results(one, code)] == ["demo/app.log@SRCROOT"],
          f"one: {code} at {[uri(r) for r in results(one, code)]}")

# the same fingerprints in every run of the same workload, live and offline
def fps(log, with_uri=True):
    return sorted((r["ruleId"], r["partialFingerprints"]["dio/v1"]) +
                  ((uri(r),) if with_uri else ()) for r in results(log))
check(fps(one) == fps(logs["two"]), f"two runs, other fingerprints:\n {fps(one)}\n {fps(logs['two'])}")
check(fps(one, False) == fps(logs["offline"], False), "dio analyze gives other fingerprints")
off = results(logs["offline"], "ruled.thread")
check(uri(off[0]) == "t.dio@SRCROOT" and off[0]["locations"][0]["message"]["text"] ==
      "No file: the trace file that holds the calls.", f"offline: ruled.thread {off}")

# baselines and suppressions
def states(log):
    return sorted((r["ruleId"], uri(r), r.get("baselineState")) for r in results(log))
check({s for _, _, s in states(logs["two"])} == {"unchanged"}, f"two: {states(logs['two'])}")
st3 = states(logs["three"])
want = [("ruled.touch", "a.txt@SRCROOT", "unchanged"), ("ruled.touch", "b.txt@SRCROOT", "absent"),
        ("ruled.touch", "c.txt@SRCROOT", "new")]
check([s for s in st3 if s[0] == "ruled.touch"] == want and
      all(s[2] == "unchanged" for s in st3 if s[0] != "ruled.touch"), f"three: {st3}")
check(states(logs["three-gh"]) == [s for s in st3 if s[2] != "absent"],
      f"three, absent=false: {states(logs['three-gh'])}")
for r in results(logs["four"]):
    want = ([{"kind": "external", "status": "accepted", "justification": "c.txt is <read> on purpose"}]
            if uri(r) == "c.txt@SRCROOT" else [])
    check(r["suppressions"] == want, f"four: {uri(r)}: suppressions {r['suppressions']}")

# JUnit
def junit(name, log):
    root = ET.parse(f"{TMP}/{name}.xml").getroot()
    check(root.tag == "testsuites", f"{name}.xml: root {root.tag}")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    analyzers = {r["properties"]["analyzer"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
    check(set(suites) == analyzers, f"{name}.xml: suites {sorted(suites)}, analyzers {sorted(analyzers)}")
    cases = {}
    for sname, s in suites.items():
        cs = s.findall("testcase")
        n = {k: sum(1 for c in cs if c.find(k) is not None) for k in ("failure", "skipped")}
        check(s.get("tests") == str(len(cs)) and s.get("failures") == str(n["failure"]) and
              s.get("skipped") == str(n["skipped"]) and s.get("errors") == "0" and
              re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", s.get("timestamp")) and
              s.get("hostname") == socket.gethostname() and float(s.get("time")) >= 0,
              f"{name}.xml: suite {sname}: {s.attrib}")
        for c in cs:
            check(c.get("classname") == sname and (sname, c.get("name")) not in cases and
                  not re.search(r"\d", c.get("name")), f"{name}.xml: case {c.attrib}")
            cases[sname, c.get("name")] = c
    return cases

def passing(c):
    return c is not None and c.find("failure") is None and c.find("skipped") is None

j1 = junit("one", one)
for case in (("ruled", "ruled.quiet"), ("dio", "dio.findings-left-out")):
    check(passing(j1.get(case)) and len(j1[case]) == 0, f"one.xml: {case} is not a passing case")
for f in ("a.txt", "b.txt"):
    c = j1.get(("ruled", f"ruled.touch {f}"))
    fl = c.find("failure") if c is not None else None
    path = f"{TMP}/one/{f}"
    check(fl is not None and fl.get("type") == "ruled.touch" and
          fl.get("message") == f"{path} used in {calls.get(path)} calls" and
          f"\nfile: {path}\n" in fl.text and f"\ncount: {calls.get(path)}\n" in fl.text and
          "\nstate: warning\n" in fl.text, f"one.xml: ruled.touch {f}")
c = j1.get(("ruled", "ruled.thread process sh"))
check(passing(c) and "state: info, below the warning level that fails" in
      c.find("system-out").text, "one.xml: ruled.thread process sh")
c = j1.get(("ruled", "ruled.odd process odd\x7f"))
check(c is not None and c.find("failure").get("message") ==
      'odd <b>&amp;" \\x01\\x1b[31m\\xff caf\u00e9 \\xef\\xbf\\xbe', "one.xml: ruled.odd")
for case in (("redundant-open", "redundant-open.churn demo/app.log"),
             ("reuse-offset", "reuse-offset.read-past-end demo/app.log")):
    check(j1.get(case) is not None and j1[case].find("failure") is not None,
          f"one.xml: {case} did not fail")
j2 = junit("two", logs["two"])
check(set(j1) == set(j2), f"two.xml: other cases: {set(j1) ^ set(j2)}")
check(all(passing(c) for c in j2.values()) and
      "state: unchanged" in j2["ruled", "ruled.touch a.txt"].find("system-out").text,
      "two.xml: a case failed against the baseline")
j3 = junit("three", logs["three"])
check(j3["ruled", "ruled.touch c.txt"].find("failure") is not None and
      passing(j3["ruled", "ruled.touch a.txt"]) and passing(j3["ruled", "ruled.touch b.txt"]) and
      "state: fixed" in j3["ruled", "ruled.touch b.txt"].find("system-out").text,
      "three.xml: c.txt must fail, a.txt and b.txt pass")
j4 = junit("four", logs["four"])
sk = j4["ruled", "ruled.touch c.txt"].find("skipped")
check(sk is not None and sk.get("message") == "suppressed: c.txt is <read> on purpose" and
      not any(c.find("failure") is not None for c in j4.values()), "four.xml: c.txt not skipped")
junit("offline", logs["offline"])
sys.exit(bad)
PY
[ $fail -eq 0 ] && echo "ok: SARIF valid and stable, JUnit as GitLab reads it, baselines, suppressions"
exit $fail
