#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record keeps every call of a flood: bench/callcost makes 4 000 000 lseek
# and read calls as fast as the CPU allows (about a million a second traced)
# and says how many it made; the recording holds exactly that many, dropped
# and lost nothing, and says so in its metadata.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
cc=$top_builddir/bench/callcost
[ -x "$cc" ] || { echo "FAIL: $cc was not built"; exit 1; }
fail=0

# the workload on one CPU, dio free to use the other as a user would run it
cpus=$(nproc)
pin=
[ "$cpus" -ge 2 ] && pin="taskset -c 0"
run_dio record -q --no-summary -o "$TMP/flood.dio" -- $pin "$cc" "$TMP/file" 20 100000 \
	> /dev/null 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC:"; cat "$TMP/err"; exit 1; }
made=$(sed -n 's/^callcost: 256 pwrite64, \([0-9]*\) lseek, \([0-9]*\) read calls on .*/\1 \2/p' "$TMP/err")
[ "$made" = "2000000 2000000" ] || { echo "FAIL: callcost did not say what it made:"; cat "$TMP/err"; exit 1; }
grep -E "lost|dropped" "$TMP/err" && { echo "FAIL: dio record lost or dropped records"; fail=1; }

"$DIO" info "$TMP/flood.dio" > "$TMP/info" 2>&1
for key in dropped_records lost_ringbuf lost_inflight lost_other; do
	grep -qx "$key=0" "$TMP/info" || { echo "FAIL: the recording says $(grep "^$key=" "$TMP/info")"; fail=1; }
done
# counted from the file: every lseek and read on callcost's file
"$DIO" analyze "$TMP/flood.dio" --path "$TMP/file" -e trace=lseek,read > "$TMP/sum" 2> "$TMP/err2" ||
	{ echo "FAIL: dio analyze exited with $?:"; cat "$TMP/err2"; fail=1; }
for call in lseek read; do
	n=$(awk -v c="$call" '$NF == c && $5 ~ /^[0-9]+$/ { print $5; exit }' "$TMP/sum")
	[ "$n" = 2000000 ] || { echo "FAIL: the recording holds $n of callcost's 2000000 $call calls:"; cat "$TMP/sum"; fail=1; }
done
span=$(sed -n 's/^time span: \([0-9.]*\) s$/\1/p' "$TMP/info")
echo "4000000 calls recorded in ${span:-?} s; $(grep '^bytes per record' "$TMP/info")"
exit $fail
