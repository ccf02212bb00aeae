#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --stats: the figures agree with a workload whose calls are known (dd: one
# read and one write per block), with each other and with the trace file;
# the kernel's BPF statistics are on during the session only, whichever way
# dio turned them on; --bench-floor keeps the programs attached and running
# but sends nothing.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
N=20000
SYSCTL=/proc/sys/kernel/bpf_stats_enabled
old=$(cat $SYSCTL)
dd_cmd="dd if=/dev/zero of=$TMP/out bs=4k count=$N status=none"

# col FILE LABEL count|total|each: a column of the --stats row LABEL, empty
# when there is no such row. Rows are "  %-28s %12s %12s %10s  note".
col() {
	awk -v l="$2" -v c="$3" '
		BEGIN { pos["count"] = 32; len["count"] = 12; pos["total"] = 45; len["total"] = 12
			pos["each"] = 58; len["each"] = 10 }
		substr($0, 1, 2) == "  " {
			name = substr($0, 3, 28); sub(/ +$/, "", name)
			if (name != l) next
			v = substr($0, pos[c], len[c]); gsub(/ /, "", v); print v; exit
		}' "$1"
}

# check WHAT CONDITION: a failure names WHAT and shows the table
check() {
	if ! eval "$2"; then
		echo "FAIL: $1 ($2)"
		sed -n '/--stats/,$p' "$3"
		fail=1
	fi
}

# at_least FILE LABEL COLUMN MIN
at_least() {
	v=$(col "$1" "$2" "$3")
	check "$2: $3 '$v' is not at least $4" "[ -n '$v' ] && [ '$v' != - ] && awk 'BEGIN { exit !($v >= $4) }'" "$1"
}

# consistent FILE: what holds for any run
consistent() {
	rec=$(col "$1" "ring records" count)
	check "the consumer's count is not the ring's" "[ '$(col "$1" consumer count)' = '$rec' ]" "$1"
	check "wakeups are not between 1 and the records" \
		"[ '$(col "$1" wakeups count)' -ge 1 ] && [ '$(col "$1" wakeups count)' -le '$rec' ]" "$1"
	at_least "$1" "ring bytes" count "$rec"
	at_least "$1" consumer each 1
	at_least "$1" probes each 1
	# the total of the drops is the sum of its reasons
	sum=$(awk '/^  dropped [a-z_]+ / { s += $3 } END { print s + 0 }' "$1")
	check "dropped is not the sum of its reasons ($sum)" "[ '$(col "$1" dropped count)' = '$sum' ]" "$1"
	check "kernel.bpf_stats_enabled is $(cat $SYSCTL) after dio, was $old" "[ '$(cat $SYSCTL)' = '$old' ]" "$1"
}

# --- dio trace, raw syscall tracepoints (all storage calls)
run_dio trace -q --no-summary --stats -- $dd_cmd 2> "$TMP/t.err"
check "dio trace --stats exited with $RC" "[ $RC -eq 0 ]" "$TMP/t.err"
consistent "$TMP/t.err"
at_least "$TMP/t.err" "ring records" count $((2 * N))
at_least "$TMP/t.err" "probe dio_raw_exit" count $((2 * N))
at_least "$TMP/t.err" "probe dio_raw_exit" each 1
at_least "$TMP/t.err" "probe dio_raw_enter" count $((2 * N))
at_least "$TMP/t.err" "probe dio_raw_enter" each 1
at_least "$TMP/t.err" probes count $((4 * N))

# --- per-syscall tracepoints: only write is traced, and its programs run once a call
run_dio trace -q --no-summary --stats -e trace=write -- $dd_cmd 2> "$TMP/w.err"
consistent "$TMP/w.err"
at_least "$TMP/w.err" "probe dio_sys_exit" count $N
at_least "$TMP/w.err" "probe dio_sys_exit" each 1
at_least "$TMP/w.err" "ring records" count $N
v=$(col "$TMP/w.err" "probe dio_sys_exit" count)
check "dio_sys_exit ran $v times for about $N writes" "[ '$v' -lt $((N + 1000)) ]" "$TMP/w.err"

# --- dio record: the writer's rows agree with the file it wrote
run_dio record --stats -o "$TMP/r.dio" -- $dd_cmd 2> "$TMP/r.err"
check "dio record --stats exited with $RC" "[ $RC -eq 0 ]" "$TMP/r.err"
consistent "$TMP/r.err"
at_least "$TMP/r.err" "ring records" count $((2 * N))
kept=$("$DIO" info "$TMP/r.dio" | sed -n 's/^records: \([0-9]*\) .*/\1/p')
check "writer busy counts $(col "$TMP/r.err" "writer busy" count) records, dio info $kept" \
	"[ '$(col "$TMP/r.err" "writer busy" count)' = '$kept' ]" "$TMP/r.err"
check "compression names $(col "$TMP/r.err" compression count) bytes, the file has $(stat -c %s "$TMP/r.dio")" \
	"[ '$(col "$TMP/r.err" compression count)' = '$(stat -c %s "$TMP/r.dio")' ]" "$TMP/r.err"
at_least "$TMP/r.err" compression each 2
at_least "$TMP/r.err" "writer busy" each 1

# --- the sysctl way: on while dio runs, back to the old value after
if [ "$old" = 0 ]; then
	DIO_STATS_SYSCTL=1 run_dio trace -q --no-summary --stats \
		-- sh -c "cat $SYSCTL > $TMP/during; $dd_cmd" 2> "$TMP/s.err"
	check "kernel.bpf_stats_enabled was '$(cat "$TMP/during")' during the session, not 1" \
		"[ '$(cat "$TMP/during")' = 1 ]" "$TMP/s.err"
	consistent "$TMP/s.err"
	at_least "$TMP/s.err" "probe dio_raw_exit" count $((2 * N))
else
	echo "note: kernel.bpf_stats_enabled is $old already: the sysctl way is not checked"
fi

# --- the floor: the programs run, nothing reaches the ring
run_dio trace -q --no-summary --stats --bench-floor -- $dd_cmd 2> "$TMP/f.err"
check "dio trace --bench-floor exited with $RC" "[ $RC -eq 0 ]" "$TMP/f.err"
check "the floor sent records" "[ '$(col "$TMP/f.err" "ring records" count)' = 0 ]" "$TMP/f.err"
at_least "$TMP/f.err" "probe dio_raw_exit" count $((2 * N))
check "kernel.bpf_stats_enabled is $(cat $SYSCTL) after dio, was $old" "[ '$(cat $SYSCTL)' = '$old' ]" "$TMP/f.err"
# a floor program costs less than the full one did
full=$(col "$TMP/t.err" "probe dio_raw_exit" each)
floor=$(col "$TMP/f.err" "probe dio_raw_exit" each)
check "the floor's exit program ($floor ns) is not cheaper than the full one ($full ns)" \
	"[ '$floor' -lt '$full' ]" "$TMP/f.err"

# --- without --stats there is no table
run_dio trace -q --no-summary -- $dd_cmd 2> "$TMP/n.err"
check "a table without --stats" "! grep -q -- --stats '$TMP/n.err'" "$TMP/n.err"

[ $fail -eq 0 ] && echo "PASS: --stats figures agree with the workload, the file and each other"
exit $fail
