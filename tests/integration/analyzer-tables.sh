#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An analyzer whose table is too small for the trace says so: a shell appends
# a line to each of 5 000 files in turn, six rounds, so each file is opened
# and closed six times with a few bytes each (churn), but the (process, path)
# table holds 2 048 pairs and pushes each file out before it comes back. With
# the defaults that is a redundant-open.table-full warning naming max_files
# and a size to try, and --fail-on warning fails; with that size the churn
# itself is found and the tables are not reported. A correct program that
# touches 20 000 files once each fills the tables too, but nothing comes back:
# no table-full finding.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

mkdir "$TMP/rr" "$TMP/once"
cat > "$TMP/rr.sh" << 'EOF'
cd "$1" || exit 1
for r in 1 2 3 4 5 6; do
	i=0
	while [ $i -lt 5000 ]; do
		echo "line $r" >> f$i
		i=$((i + 1))
	done
done
EOF
cat > "$TMP/once.sh" << 'EOF'
cd "$1" || exit 1
i=0
while [ $i -lt 20000 ]; do
	echo "line" > f$i
	i=$((i + 1))
done
EOF
run_dio record -q -o "$TMP/rr.dio" -- sh "$TMP/rr.sh" "$TMP/rr" > "$TMP/rr.err" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record of the round-robin exited with $RC"; cat "$TMP/rr.err"; exit 1; }
run_dio record -q -o "$TMP/once.dio" -- sh "$TMP/once.sh" "$TMP/once" > "$TMP/once.err" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record of the files written once exited with $RC"; cat "$TMP/once.err"; exit 1; }

# findings TRACE ANALYZER-ARGS...: "code count title" of each finding, in $TMP/f
findings() {
	trace=$1
	shift
	"$DIO" analyze "$trace" --no-summary "$@" --sink "json:file=$TMP/f.json" > /dev/null 2> "$TMP/an.err"
	RC=$?
	jq -r 'select(.type == "finding") | "\(.code) \(.count) \(.title)"' "$TMP/f.json" > "$TMP/f"
}

findings "$TMP/rr.dio" --analyzer redundant-open --fail-on warning
[ "$RC" -eq 3 ] || { echo "FAIL: --fail-on warning passed a round-robin the table could not hold (exit $RC)"; fail=1; }
line=$(grep '^redundant-open.table-full ' "$TMP/f")
n=${line#redundant-open.table-full }
n=${n%% *}
# the first round's files are new; about the five rounds after come back (each file
# written in a round after the first, less the 2 048 still in the table)
if [ -z "$line" ] || [ "$n" -lt 20000 ] || [ "$n" -gt 25000 ]; then
	echo "FAIL: no redundant-open.table-full with about 25 000 returns:"; cat "$TMP/f"; fail=1
fi
echo "$line" | grep -q "(process, path) pairs came back after they were pushed out (max_files=2048)" ||
	{ echo "FAIL: the finding does not name the table and its option: $line"; fail=1; }
jq -r 'select(.code == "redundant-open.table-full") | .message' "$TMP/f.json" |
	grep -q -- "--analyzer redundant-open:max_files=32768" ||
	{ echo "FAIL: the finding does not say what to raise it to"; fail=1; }
grep -q '^redundant-open.churn ' "$TMP/f" && { echo "FAIL: churn found through a table too small"; fail=1; }

findings "$TMP/rr.dio" --analyzer redundant-open:max_files=32768 --fail-on warning
grep -q '^redundant-open.churn 30000 ' "$TMP/f" ||
	{ echo "FAIL: with max_files=32768, no churn of 30 000 opens:"; cat "$TMP/f"; fail=1; }
grep -q 'table-full' "$TMP/f" && { echo "FAIL: a table large enough is reported full"; fail=1; }

# files touched once: every table fills, nothing comes back, nothing to say
findings "$TMP/once.dio" --analyzer all
grep 'table-full' "$TMP/f" && { echo "FAIL: a table-full finding for files touched once"; fail=1; }
[ $fail -eq 0 ] && echo "ok: a table too small is reported, a full one of fresh keys is not"
exit $fail
