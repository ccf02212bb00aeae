#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Block requests and run-queue waits. O_DIRECT writes and reads of known
# blocks on the ext4 image must each show as a request of the workload's
# thread, on the image's device, at the sector FIEMAP gave, of the size
# written, inside the call that caused it. A thread that shares a CPU with a
# busy one must show run-queue waits behind it.
# --no-block, --no-runq and --runq-min turn them off; a recording dumps them
# as they were shown live.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# check_requests OUT EXPECT: every expected request, exactly once per line of EXPECT
check_requests() {
	while read -r op who dev sector bytes sys; do
		n=$(grep -cE "^\[$who blockq\] --- block $op[A-Z]* $dev sector=$sector bytes=$bytes latency=[0-9.]+( queue=[0-9.]+)? sys=$sys ---$" "$1")
		if [ "$n" -ne 1 ]; then
			echo "FAIL: want one request '$op $dev sector=$sector bytes=$bytes' of $who in $sys, got $n; the workload's requests:"
			grep "^\[$who blockq\] --- block " "$1" | head -20
			fail=1
			return
		fi
	done < "$2"
}

run_dio trace -o "$TMP/out" -- "$WL/blockq" direct "$MNT" 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace exited with $RC"; cat "$TMP/out" | tail; fail=1; }
[ "$(wc -l < "$TMP/expect")" -eq 16 ] || { echo "FAIL: the workload did not finish"; fail=1; }
check_requests "$TMP/out" "$TMP/expect"

# the same recorded: dump shows what --print showed live, block lines included
run_dio record -o "$TMP/t.dio" --print --no-summary --sink console:output="$TMP/live" \
	-- "$WL/blockq" direct "$MNT" 9> "$TMP/expect2" > /dev/null 2>&1
"$DIO" dump "$TMP/t.dio" > "$TMP/dump"
check_requests "$TMP/dump" "$TMP/expect2"
cmp -s "$TMP/live" "$TMP/dump" ||
	{ echo "FAIL: dio dump differs from dio record --print (-live +dump):"; diff "$TMP/live" "$TMP/dump" | head; fail=1; }
"$DIO" info "$TMP/t.dio" | grep -qE "^records: .* block ([1-9][0-9]*)," ||
	{ echo "FAIL: dio info counts no block records"; "$DIO" info "$TMP/t.dio" | grep records; fail=1; }

# dump --pid keeps the workload's requests and drops the kernel threads'
who=$(head -1 "$TMP/expect2" | cut -d' ' -f2)
"$DIO" dump "$TMP/t.dio" --pid "${who%/*}" > "$TMP/pid"
grep -q -- "--- block " "$TMP/pid" && ! grep -- "--- block " "$TMP/pid" | grep -vq "^\[$who blockq\]" ||
	{ echo "FAIL: dio dump --pid ${who%/*}: not exactly the workload's requests:"; grep -- "--- block " "$TMP/pid" | head; fail=1; }

run_dio trace --no-block -o "$TMP/out" -- "$WL/blockq" direct "$MNT" 9> /dev/null
grep -q "\] --- block " "$TMP/out" && { echo "FAIL: --no-block still shows requests"; fail=1; }

# run-queue waits: the worker behind the hog, on CPU 0 where both are pinned
run_dio trace -o "$TMP/out" -- "$WL/blockq" hog 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace exited with $RC"; fail=1; }
worker=$(sed -n 's/ worker$//p' "$TMP/expect")
hog=$(sed -n 's/ hog$//p' "$TMP/expect")
n=$(grep -cE "^\[$worker worker\] --- runq (woken|preempted) cpu=0 wait=[0-9.]+ prev=$hog \"hog\"( sys=[a-z_0-9]+)? ---$" "$TMP/out")
# 100 rounds of 4 ms computing behind a busy thread: preempted in nearly each
if [ "$n" -lt 50 ]; then
	echo "FAIL: $n run-queue waits of the worker ($worker) behind the hog ($hog); want 50 or more:"
	grep -- "--- runq " "$TMP/out" | head
	fail=1
fi
# every wait shown is at least --runq-min (10 us by default)
awk '/\] --- runq / { w = $0; sub(/.* wait=/, "", w); sub(/ .*/, "", w)
	if (w + 0 < 0.000010) { print "FAIL: a wait under 10 us: " $0; bad = 1 } } END { exit bad }' "$TMP/out" || fail=1
run_dio trace --runq-min 1000000 -o "$TMP/out" -- "$WL/blockq" hog 9> /dev/null
grep -q "\] --- runq " "$TMP/out" && { echo "FAIL: --runq-min 1000000 still shows waits under a second"; fail=1; }
run_dio trace --no-runq -o "$TMP/out" -- "$WL/blockq" hog 9> /dev/null
grep -q "\] --- runq " "$TMP/out" && { echo "FAIL: --no-runq still shows waits"; fail=1; }
exit $fail
