#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names a traced program chooses reach no terminal raw. tests/workloads/hostile
# names its thread "ESC ]0;x BEL \n ESC [2J" (an OSC title, a newline, a
# clear-screen) and churns two files named "a ESC [31mred \n x" and
# "b ESC ]0;t BEL". Every text dio prints for a person shows them as dio dump
# does, \33]0;x\7\n\33[2J: the console's findings (title, message with the
# churn's "Files:" list, process, file, calls) and the --suppress reason
# (from a file that may not be the user's), the summary's file table, the
# latency analyzer's run-queue table, dio top's COMMAND and PATH columns. Not
# one ESC or BEL byte comes out.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
mkdir "$TMP/d"
COMM='\33]0;x\7\n\33[2J'
A="$TMP/d/a"'\33[31mred\nx'
B="$TMP/d/b"'\33]0;t\7'
# awk reads them from the environment: -v would turn their \33 into ESC
export COMM A B

# raw ESC (033) and BEL (007) bytes in FILE
raw() {
	tr -cd '\033\007' < "$1" | wc -c
}

expect() {	# what FILE
	if ! grep -qxF -- "$1" "$2"; then
		printf "FAIL: no line '%s' in %s:\n" "$1" "$2"
		cat -v "$2" | head -40
		fail=1
	fi
}

printf 'suppress = ( { code = "redundant-open.churn"; reason = "known \033[8mhidden"; } );\n' \
	> "$TMP/supp"
run_dio trace -o "$TMP/out" --runq-min 0 --analyzer redundant-open --analyzer latency \
	--analyzer summary --suppress "$TMP/supp" -- "$WL/hostile" "$TMP/d" 50 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace exited $RC: $(cat -v "$TMP/err")"; fail=1; }
for f in out err; do
	n=$(raw "$TMP/$f")
	[ "$n" -eq 0 ] || { echo "FAIL: $n raw ESC or BEL bytes in dio trace's $f"; fail=1; }
done
pid=$(sed -n 's/^    process: \([0-9]*\)\/.*/\1/p' "$TMP/out" | head -1)
[ -n "$pid" ] || { echo "FAIL: no finding with a process:"; cat -v "$TMP/out" | head; exit 1; }
title=$(grep '^dio: \[WARNING, suppressed\] redundant-open.churn: ' "$TMP/out")
# the file with the most first; both have 50 windows, so either may be
case $title in
"dio: [WARNING, suppressed] redundant-open.churn: $A and 1 other file opened and closed 100 times in "*)
	first=$A ;;
"dio: [WARNING, suppressed] redundant-open.churn: $B and 1 other file opened and closed 100 times in "*)
	first=$B ;;
*)	echo "FAIL: the churn's title: $(printf '%s' "$title" | cat -v)"; fail=1 ;;
esac
expect '    suppressed: known \33[8mhidden' "$TMP/out"
expect "    process: $pid/$pid $COMM" "$TMP/out"
grep -q "^    file: $(printf '%s' "$first" | sed 's/[][\\.]/\\&/g') (tag [0-9:|]*)\$" "$TMP/out" ||
	{ echo "FAIL: no escaped file: line"; grep '^    file:' "$TMP/out" | cat -v; fail=1; }
grep -qF -e "Files: $A (50), $B (50)" -e "Files: $B (50), $A (50)" "$TMP/out" ||
	{ echo "FAIL: the churn's Files: list:"; grep -F 'Files:' "$TMP/out" | cat -v; fail=1; }
grep -qF "[$pid/$pid $COMM] openat(AT_FDCWD, \"a\\33[31mred\\nx\", " "$TMP/out" ||
	{ echo "FAIL: the excerpt's calls are not as dump writes them"; fail=1; }
# the summary's file table: 150 calls (open, write, close) on each file
for f in "$A" "$B"; do
	n=$(P=$f awk 'substr($0, length($0) - length(ENVIRON["P"]) + 1) == ENVIRON["P"] { print $3 }' \
		"$TMP/out")
	[ "$n" = 150 ] || { printf "FAIL: summary: calls on %s: '%s', expected 150\n" "$f" "$n"; fail=1; }
done
# the run-queue table, on standard error: the workload's thread, by its escaped name
n=$(awk -v id="$pid/$pid" '$1 == id && $NF == ENVIRON["COMM"]' "$TMP/err" | wc -l)
[ "$n" -eq 1 ] || { printf 'FAIL: %s run-queue rows of %s named %s\n' "$n" "$pid/$pid" "$COMM"; grep -A3 '^run-queue' "$TMP/err" | cat -v; fail=1; }

# dio top: COMMAND of the process and of the thread, PATH of both files
run_dio top -b -S -d 0.3 -- "$WL/hostile" "$TMP/d" 300 > "$TMP/top" 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio top exited $RC: $(cat -v "$TMP/err")"; fail=1; }
n=$(raw "$TMP/top")
[ "$n" -eq 0 ] || { echo "FAIL: $n raw ESC or BEL bytes in dio top's output"; fail=1; }
awk '/^dio top - /{ buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }' "$TMP/top" \
	> "$TMP/last"
# the workload's process has the most calls (a sanitizer's tracer, its clone, fewer)
tpid=$(awk '/^    PID COMMAND/ { s = 1; next } /^$/ { s = 0 } s && $2 == ENVIRON["COMM"] { print $1 }' \
	"$TMP/last" | head -1)
[ -n "$tpid" ] || { printf 'FAIL: no process row named %s\n' "$COMM"; cat -v "$TMP/last"; fail=1; }
n=$(awk -v t="$tpid" '/^    TID /{ s = 1; next } /^$/ { s = 0 }
	s && $1 == t && $2 == t && $3 == ENVIRON["COMM"]' "$TMP/last" | wc -l)
[ "$n" -eq 1 ] || { printf 'FAIL: no thread row %s named %s\n' "$tpid" "$COMM"; cat -v "$TMP/last"; fail=1; }
for f in "$A" "$B"; do
	n=$(P=$f awk -v t="$tpid" '$NF == ENVIRON["P"] && $(NF - 2) == t { print $1 }' "$TMP/last")
	[ "$n" = 900 ] || { printf "FAIL: top: calls on %s: '%s', expected 900\n" "$f" "$n"; cat -v "$TMP/last"; fail=1; }
done
exit $fail
