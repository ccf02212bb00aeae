#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio diff on tests/workloads/appender recorded "before" (one open and one
# fsync for 200 lines) and "after" (an open, an fsync and a close per line):
# the text and the JSON name the fsync count (1 -> 200, 200.00x), the opens
# of the log and redundant-open.churn as new, the largest change first;
# --fail-on-regress 50 and --fail-on warning exit 3 and say why in one line
# each; the other way round the finding is fixed; a trace against itself
# shows no change and exits 0 whatever the thresholds; bad input gets one
# line and status 2 or 1, and -o never overwrites a trace being read.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0
B=$TMP/before.dio
A=$TMP/after.dio

for v in before after; do
	rm -rf "$MNT/w" && mkdir "$MNT/w"
	run_dio record -o "$TMP/$v.dio" -- "$WL/appender" "$v" "$MNT/w" 2> "$TMP/$v.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio record ... appender $v exited with $RC:"; \
		cat "$TMP/$v.err"; exit 1; }
done

# has FILE ERE...: every ERE matches a whole line of FILE
has() {
	h_file=$1
	shift
	for h_re; do
		grep -Eqx -- "$h_re" "$h_file" && continue
		echo "FAIL: no line of $h_file matches '$h_re'; it holds:"
		cat "$h_file"
		fail=1
		return 1
	done
}

# stderr holds nothing but counted losses, which are the machine's (block
# completions the kernel did not run dio's program for), not the diff's
quiet() { ! grep -Ev '^dio: warning: [0-9]+ .* lost' "$1" | grep -q .; }

# text: the regression by name, the finding as new; no threshold, so status 0
run_dio diff "$B" "$A" --srcroot "$MNT" --analyzer redundant-open > "$TMP/diff.txt" 2> "$TMP/diff.err"
[ "$RC" -eq 0 ] && quiet "$TMP/diff.err" ||
	{ echo "FAIL: dio diff exited with $RC:"; cat "$TMP/diff.err"; fail=1; }
has "$TMP/diff.txt" \
	"A: $B: [0-9]+ calls in [0-9.]+ s, 0 distinct findings" \
	"B: $A: [0-9]+ calls in [0-9.]+ s, 1 distinct finding" \
	'  fsyncs +1 +200 +200\.00x' \
	'  fsync +calls +1 +200 +200\.00x' \
	'  openat +calls +([0-9]+) +([0-9]+) +[0-9.]+x' \
	'  w/log +fsyncs +1 +200 +200\.00x' \
	'  w/log +opens +1 +200 +200\.00x' \
	'findings: 1 new, 0 fixed, 0 unchanged' \
	"  new +warning redundant-open\.churn w/log \[appender\]: $MNT/w/log opened and closed 200 times in .*"
# the largest change first: fsync's calls head the system calls
first=$(sed -n '/^per system call:$/{n;n;p;q}' "$TMP/diff.txt")
echo "$first" | grep -Eqx '  fsync +calls +1 +200 +200\.00x' ||
	{ echo "FAIL: the first system call row is '$first', expected fsync's calls"; fail=1; }
# equal bytes written are no change, and are not shown
grep -q ' written ' "$TMP/diff.txt" && { echo "FAIL: an unchanged count is shown"; fail=1; }

# JSON, every analyzer, --fail-on-regress 50: status 3, each regression on stderr
run_dio diff "$B" "$A" --srcroot "$MNT" --format json -o "$TMP/diff.json" \
	--fail-on-regress 50 > "$TMP/json.out" 2> "$TMP/json.err"
[ "$RC" -eq 3 ] || { echo "FAIL: --fail-on-regress 50 exited with $RC, expected 3"; fail=1; }
[ ! -s "$TMP/json.out" ] || { echo "FAIL: -o FILE, yet dio diff wrote to stdout"; fail=1; }
[ "$(stat -c %a "$TMP/diff.json")" = 600 ] || { echo "FAIL: -o FILE is not mode 0600"; fail=1; }
has "$TMP/json.err" \
	'dio: diff: syscall fsync: calls 1 -> 200 \(200\.00x\), worse by more than 50%' \
	'dio: diff: file w/log: calls [0-9]+ -> [0-9]+ \([0-9.]+x\), worse by more than 50%' \
	'dio: diff: in all: calls [0-9]+ -> [0-9]+ \([0-9.]+x\), worse by more than 50%'
grep -v '^dio: diff: .*: .* -> .* (.*), worse by more than 50%$' "$TMP/json.err" > "$TMP/other.err"
quiet "$TMP/other.err" || { echo "FAIL: other lines on stderr:"; cat "$TMP/other.err"; fail=1; }
python3 - "$TMP/diff.json" << 'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: {got!r}, expected {exp!r}")
want("type", d["type"], "diff")
want("fail_on_regress", d["fail_on_regress"], 50)
want("min_calls", d["min_calls"], 100)
sc = {r["name"]: r for r in d["syscalls"]}
want("first syscall row", d["syscalls"][0]["name"], "fsync")
want("fsync calls", (sc["fsync"]["a"]["calls"], sc["fsync"]["b"]["calls"]), (1, 200))
want("fsync ratio", sc["fsync"]["ratio"]["calls"], 200)
want("fsync p50 of 1 call", sc["fsync"]["a"]["p50_ns"] > 0, True)
files = {r["path"]: r for r in d["files"]}
log = files.get("w/log")
if not log:
    bad.append(f"no w/log row in {sorted(files)}")
else:
    for k in ("opens", "fsyncs"):
        want(f"w/log {k}", (log["a"][k], log["b"][k], log["ratio"][k]), (1, 200, 200))
    want("w/log bytes", (log["a"]["bytes_written"], log["b"]["bytes_written"]), (12800, 12800))
    want("w/log calls", (log["a"]["calls"], log["b"]["calls"]), (203, 800))
want("total fsyncs", (d["total"]["a"]["fsyncs"], d["total"]["b"]["fsyncs"]), (1, 200))
new = [f for f in d["findings"] if f["state"] == "new" and f["code"] == "redundant-open.churn"]
if len(new) != 1:
    bad.append(f"findings {d['findings']}: expected redundant-open.churn as new, once")
else:
    f = new[0]
    want("churn", (f["subject"], f["comm"], f["severity"], f["analyzer"], f["count_a"], f["count_b"]),
         ("w/log", "appender", "warning", "redundant-open", 0, 1))
    want("fingerprint", len(f["fingerprint"]), 16)
reg = {(r["table"], r["name"], r["metric"]) for r in d["regressions"]}
for r in (("syscall", "fsync", "calls"), ("syscall", "openat", "calls"), ("file", "w/log", "calls")):
    if r not in reg:
        bad.append(f"{r} not among the regressions {sorted(reg)}")
want("failed", d["failed"], True)
for b in bad:
    print("FAIL: diff.json: " + b)
if not bad:
    print("ok: diff.json names the fsync and open counts, the churn finding and the regressions")
sys.exit(1 if bad else 0)
PY

# a new finding at --fail-on's level fails alone; the other way round it is fixed
run_dio diff "$B" "$A" --analyzer redundant-open --fail-on warning > "$TMP/fo.txt" 2> "$TMP/fo.err"
[ "$RC" -eq 3 ] || { echo "FAIL: --fail-on warning with a new warning exited with $RC"; fail=1; }
has "$TMP/fo.err" "dio: diff: new finding redundant-open.churn \(warning, --fail-on warning\): $MNT/w/log opened and closed 200 times .*"
run_dio diff "$A" "$B" --analyzer redundant-open --fail-on info --srcroot "$MNT" > "$TMP/rev.txt" 2> "$TMP/rev.err"
[ "$RC" -eq 0 ] || { echo "FAIL: a fixed finding made --fail-on info exit $RC"; cat "$TMP/rev.err"; fail=1; }
has "$TMP/rev.txt" 'findings: 0 new, 1 fixed, 0 unchanged' \
	'  fixed +warning redundant-open\.churn w/log \[appender\]: .*' \
	'  fsync +calls +200 +1 +0\.005x'

# a trace against itself: no change at all, whatever the thresholds
run_dio diff "$A" "$A" --fail-on-regress 0 --min-calls 0 --fail-on info > "$TMP/self.txt" 2> "$TMP/self.err"
[ "$RC" -eq 0 ] && quiet "$TMP/self.err" ||
	{ echo "FAIL: a trace against itself exited with $RC:"; cat "$TMP/self.err"; fail=1; }
[ "$(grep -cx '  no change' "$TMP/self.txt")" -eq 3 ] ||
	{ echo "FAIL: a trace against itself:"; cat "$TMP/self.txt"; fail=1; }
has "$TMP/self.txt" 'findings: 0 new, 0 fixed, [1-9][0-9]* unchanged'
run_dio diff "$A" "$A" --format json --fail-on-regress 0 --min-calls 0 > "$TMP/self.json"
python3 - "$TMP/self.json" << 'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = [d["total"]] + d["syscalls"] + d["files"]
odd = [(r["name"] if "name" in r else r["path"], k, v) for r in rows
       for k, v in r["ratio"].items() if v not in (1, None)]
odd += [(r.get("name", r.get("path")), "a != b") for r in rows if r["a"] != r["b"]]
if odd or d["regressions"] or d["failed"] or any(f["state"] != "unchanged" for f in d["findings"]):
    print(f"FAIL: a trace against itself: {odd[:5]}, regressions {d['regressions']}, failed {d['failed']}")
    sys.exit(1)
print(f"ok: a trace against itself: {len(rows)} rows, every ratio 1")
PY

# a path wider than a terminal: cut in the middle to the name column's width, the
# columns after it in line; --format json names it whole
rel=$(printf 'a%.0s' $(seq 120))/$(printf 'b%.0s' $(seq 100))/log
for v in before after; do
	rm -rf "$MNT/w" "$MNT/a"* && mkdir -p "$MNT/${rel%/log}"
	run_dio record -q --no-summary -o "$TMP/long-$v.dio" -- "$WL/appender" "$v" "$MNT/${rel%/log}" \
		> /dev/null 2>&1 || { echo "FAIL: dio record ... appender $v in a long directory exited with $RC"; fail=1; }
done
"$DIO" diff "$TMP/long-before.dio" "$TMP/long-after.dio" --srcroot "$MNT" --analyzer redundant-open \
	> "$TMP/long.txt" 2>&1
sed -n '/^per file (paths relative to --srcroot):$/,/^$/p' "$TMP/long.txt" | sed '1,2d;/^$/d' > "$TMP/long.rows"
cut40="$(printf '%s' "$rel" | cut -c1-18)\.\.\.$(printf '%s' "$rel" | rev | cut -c1-19 | rev)"
has "$TMP/long.rows" "  $cut40 fsyncs +1 +200 +200\.00x" "  $cut40 opens +1 +200 +200\.00x"
[ -s "$TMP/long.rows" ] && [ "$(awk '{ print length($0) }' "$TMP/long.rows" | sort -u | wc -l)" -eq 1 ] ||
	{ echo "FAIL: the rows of the file table differ in width:"; cat "$TMP/long.txt"; fail=1; }
"$DIO" diff "$TMP/long-before.dio" "$TMP/long-after.dio" --srcroot "$MNT" --analyzer redundant-open \
	--format json > "$TMP/long.json" 2> /dev/null
grep -qF "{\"path\":\"$rel\"," "$TMP/long.json" ||
	{ echo "FAIL: dio diff --format json does not name $rel whole"; fail=1; }

# bad input: one line, status 2 (usage) or 1 (a file)
bad() {	# WANT_STATUS ARGS...
	b_want=$1
	shift
	"$DIO" diff "$@" > "$TMP/bad.out" 2> "$TMP/bad.err"
	b_rc=$?
	if [ "$b_rc" -ne "$b_want" ] || [ "$(wc -l < "$TMP/bad.err")" -ne 1 ] || [ -s "$TMP/bad.out" ]; then
		echo "FAIL: dio diff $*: status $b_rc (expected $b_want), stderr:"
		cat "$TMP/bad.err"
		fail=1
	fi
}
bad 2 "$B"
bad 2 "$B" "$A" --fail-on-regress lots
bad 2 "$B" "$A" --format yaml
bad 1 "$B" "$TMP/missing.dio"
printf 'not a trace' > "$TMP/junk.dio"
bad 1 "$TMP/junk.dio" "$A"
bad 1 "$B" "$A" --analyzer no-such-analyzer
cp "$B" "$TMP/keep.dio"
bad 1 "$B" "$A" -o "$B"
grep -q 'it is the trace file being read' "$TMP/bad.err" ||
	{ echo "FAIL: -o onto a trace: $(cat "$TMP/bad.err")"; fail=1; }
bad 1 "$B" "$A" -o "$A"
cmp -s "$B" "$TMP/keep.dio" || { echo "FAIL: -o onto the trace read changed it"; fail=1; }
exit $fail
