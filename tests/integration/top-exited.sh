#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio top keeps rows of exited threads up to 4096: past that, those that
# counted least are added up into one row, "(N exited)", so that memory does
# not grow with the threads a machine starts and -S still shows every total.
# tests/workloads/topthreads starts 10 000 threads one after another, each
# making one pread64. In the last frame (-S), the thread rows number at most
# 4096, the row of the exited and the worker rows hold the 10 000 calls
# between them, the process's row too, and --stats counts the rows added up.
# Then the threads rename themselves before they end, under --comm worker:
# their exits are not traced, and dio top sweeps the threads gone from the
# machine (at most 256 live rows unswept), with the same totals.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
T=10000

# the last frame of a batch output
last_frame() {
	awk '/^dio top - /{ buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }' "$1"
}

# check OUT ERR MAX_ROWS WHAT: the thread rows of OUT's last frame and their sums
check() {
	out=$1 err=$2 max=$3 what=$4
	last_frame "$out" > "$TMP/last"
	awk '/^    TID /{ s = 1; next } /^$/{ s = 0 } s' "$TMP/last" > "$TMP/threads"
	rows=$(grep -vc ' - (' "$TMP/threads")
	folded=$(sed -n 's/^ *- *- (\([0-9]*\) exited) .*/\1/p' "$TMP/threads")
	folded_calls=$(sed -n 's/^ *- *- ([0-9]* exited) *\([0-9]*\) .*/\1/p' "$TMP/threads")
	workers=$(awk '$3 == "worker" { n++ } END { print n + 0 }' "$TMP/threads")
	worker_calls=$(awk '$3 == "worker" { c += $4 } END { print c + 0 }' "$TMP/threads")
	: "${folded:=0}" "${folded_calls:=0}"
	[ "$rows" -le "$max" ] || { echo "FAIL: $what: $rows thread rows, want $max at most"; fail=1; }
	[ "$folded" -ge $((T - max)) ] ||
		{ echo "FAIL: $what: $folded rows of exited threads added up, want $((T - max)) or more"; fail=1; }
	[ $((folded_calls + worker_calls)) -eq $T ] ||
		{ echo "FAIL: $what: $folded_calls calls added up, $worker_calls in worker rows, want $T"; fail=1; }
	[ "$workers" -eq $((T - folded_calls)) ] ||
		{ echo "FAIL: $what: $workers worker rows of one call each, want $((T - folded_calls))"; fail=1; }
	grep -q "^  dropped top_rows_folded  *$folded  *rows of exited threads" "$err" ||
		{ echo "FAIL: $what: --stats does not count $folded rows added up:"; cat "$err"; fail=1; }
}

run_dio top -b -S -d 0.2 --stats -e trace=pread64 -- "$WL/topthreads" "$TMP" $T \
	> "$TMP/out" 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio top exited $RC:"; cat "$TMP/err"; exit 1; }
check "$TMP/out" "$TMP/err" 4096 "exits traced"
pid=$(awk '/^    PID /{ s = 1; next } s && $2 == "topthreads" { print $1; exit }' "$TMP/last")
calls=$(awk -v p="$pid" '/^    PID /{ s = 1; next } /^$/{ s = 0 } s && $1 == p { print $3 }' "$TMP/last")
own=$(awk -v p="$pid" '$2 == p { c += $4 } END { print c + 0 }' "$TMP/threads")
[ "$calls" -eq $((own + folded_calls)) ] ||
	{ echo "FAIL: process $pid: $calls calls, its rows $own and the exited $folded_calls"; fail=1; }

run_dio top -b -S -d 0.2 --stats --comm worker -e trace=pread64 -- \
	"$WL/topthreads" "$TMP" $T renamed > "$TMP/out2" 2> "$TMP/err2"
[ "$RC" -eq 0 ] || { echo "FAIL: dio top --comm exited $RC:"; cat "$TMP/err2"; exit 1; }
check "$TMP/out2" "$TMP/err2" $((4096 + 256)) "exits not traced"
exit $fail
