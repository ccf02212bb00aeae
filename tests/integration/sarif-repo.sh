#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SARIF as GitHub reads it when dio runs inside a git work tree without
# --srcroot: URIs relative to the repository's top (what `git rev-parse
# --show-toplevel` prints, there and in a linked work tree), with a region;
# a file outside the repository, the program and a trace file outside it are
# no physical location (a logical one names the file). Outside any work tree,
# and with --srcroot, the old rules hold. Every log is valid SARIF 2.1.0.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3
SCHEMA=${SARIF_SCHEMA:-$top_srcdir/../shared/schemas/sarif-schema-2.1.0.json}
[ -r "$SCHEMA" ] || { echo "SKIP: no SARIF 2.1.0 schema (set SARIF_SCHEMA to the file)"; exit 77; }
$PY -c 'import jsonschema' 2> /dev/null ||
	{ echo "FAIL: $PY cannot import jsonschema: apt-get install python3-jsonschema"; exit 1; }
[ -x /usr/bin/git ] || { echo "FAIL: /usr/bin/git missing: apt-get install git (install-deps.sh)"; exit 1; }
mod=$top_builddir/tests/unit/modules/.libs/ruled.so
[ -f "$mod" ] || { echo "FAIL: no test module at $mod (make check builds it)"; exit 1; }
fail=0

# git as the test's own tool, with no user's or system's configuration
git() {
	env -i PATH=/usr/bin:/bin HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t \
		GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t /usr/bin/git "$@"
}
repo=$TMP/repo
mkdir -p "$repo/sub/data" "$TMP/outside" "$TMP/plain"
git init -q "$repo" && git -C "$repo" commit -q --allow-empty -m init &&
	git -C "$repo" worktree add -q "$TMP/linked" > /dev/null 2>&1 ||
	{ echo "FAIL: git could not make the test repository"; exit 1; }
mkdir -p "$TMP/linked/data"
for d in "$repo/sub/data" "$TMP/outside" "$TMP/linked/data" "$TMP/plain"; do
	echo x > "$d/a.txt"
done

# NAME DIR DATA ARGS...: dio trace in DIR, cat of DATA/a.txt and the outside file
traced() {
	name=$1
	dir=$2
	data=$3
	shift 3
	( cd "$dir" && run_dio trace -q --no-summary --analyzer "$mod:match=a.txt" \
		--sink "sarif:file=$TMP/$name.sarif" "$@" -- \
		sh -c "cat '$data/a.txt' '$TMP/outside/a.txt' > /dev/null" > /dev/null 2> "$TMP/$name.err"
	  exit $RC ) || { echo "FAIL: $name: dio exited $?:"; cat "$TMP/$name.err"; fail=1; }
}
traced repo "$repo/sub" "$repo/sub/data"
traced linked "$TMP/linked/data" "$TMP/linked/data"
traced plain "$TMP/plain" "$TMP/plain"
traced given "$repo/sub" "$repo/sub/data" --srcroot "$repo/sub"
# a recording inside the repository, analyzed there: the finding about no file is on it
( cd "$repo" && run_dio record -q --no-summary -o "$repo/run.dio" -- \
	sh -c "cat '$repo/sub/data/a.txt' > /dev/null" > /dev/null 2> "$TMP/rec.err" &&
  run_dio analyze run.dio -q --no-summary --analyzer "$mod:match=a.txt" \
	--sink "sarif:file=$TMP/analyzed.sarif" > /dev/null 2>> "$TMP/rec.err"; exit $RC ) ||
	{ echo "FAIL: record and analyze in the repository:"; cat "$TMP/rec.err"; fail=1; }

TMP=$TMP SCHEMA=$SCHEMA REPO_TOP=$(git -C "$repo/sub" rev-parse --show-toplevel) \
LINKED_TOP=$(git -C "$TMP/linked/data" rev-parse --show-toplevel) $PY - << 'PY' || fail=1
import json, os, sys
import jsonschema

TMP = os.environ["TMP"]
schema = json.load(open(os.environ["SCHEMA"]))
validator = jsonschema.validators.validator_for(schema)(schema)
bad = 0

def check(cond, msg):
    global bad
    if not cond:
        print("FAIL: " + msg)
        bad = 1

def load(name):
    log = json.load(open(f"{TMP}/{name}.sarif"))
    for e in list(validator.iter_errors(log))[:5]:
        check(False, f"{name}.sarif: {e.message} at {list(e.absolute_path)}")
    return log["runs"][0]

def uris(run):
    """every artifact URI of the results, with its base"""
    out = []
    for r in run["results"]:
        for loc in r["locations"]:
            a = loc.get("physicalLocation", {}).get("artifactLocation")
            if a:
                out.append((r["ruleId"], a["uri"], a.get("uriBaseId"),
                            loc["physicalLocation"].get("region")))
    return sorted(out)

def resources(run):
    return sorted((r["ruleId"], l["fullyQualifiedName"]) for r in run["results"]
                  for loc in r["locations"] for l in loc.get("logicalLocations", [])
                  if l["kind"] == "resource")

line1 = {"startLine": 1}
for name, top, rel in (("repo", os.environ["REPO_TOP"], "sub/data/a.txt"),
                       ("linked", os.environ["LINKED_TOP"], "data/a.txt")):
    run = load(name)
    check(run["originalUriBaseIds"]["SRCROOT"]["uri"] == f"file://{top}/",
          f"{name}: SRCROOT {run.get('originalUriBaseIds')}, git says {top}")
    # the outside file and the program (sh) are no physical location: one URI in all
    check(uris(run) == [("ruled.touch", rel, "SRCROOT", line1)], f"{name}: URIs {uris(run)}")
    check(resources(run) == [("ruled.touch", f"{TMP}/outside/a.txt")],
          f"{name}: logical files {resources(run)}")
    th = [r for r in run["results"] if r["ruleId"] == "ruled.thread"]
    check(len(th) == 1 and [l["kind"] for l in th[0]["locations"][0]["logicalLocations"]] ==
          ["process", "thread"] and "physicalLocation" not in th[0]["locations"][0],
          f"{name}: the finding about no file: {th}")

# no work tree: no root, absolute file URIs as before
run = load("plain")
check("originalUriBaseIds" not in run, f"plain: {run.get('originalUriBaseIds')}")
check([u[1] for u in uris(run) if u[0] == "ruled.touch"] ==
      [f"file://{TMP}/outside/a.txt", f"file://{TMP}/plain/a.txt"], f"plain: URIs {uris(run)}")
# --srcroot given: it wins over the work tree's top
run = load("given")
check(run["originalUriBaseIds"]["SRCROOT"]["uri"] == f"file://{TMP}/repo/sub/" and
      uris(run) == [("ruled.touch", "data/a.txt", "SRCROOT", line1)], f"given: {uris(run)}")
# the recording lies in the repository: the finding about no file is on it
run = load("analyzed")
check(("ruled.thread", "run.dio", "SRCROOT", line1) in uris(run), f"analyzed: {uris(run)}")
sys.exit(bad)
PY
[ $fail -eq 0 ] && echo "PASS: SARIF URIs relative to the work tree's top, nothing outside it physical"
exit $fail
