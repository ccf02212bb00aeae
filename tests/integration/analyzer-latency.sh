#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The latency analyzer on real requests and waits. Direct I/O on the ext4 image:
# with a threshold every request passes, the one finding for slow requests
# counts the workload's reads on the image's device in its row, and names the
# slowest request of the row with the most exactly as the console showed it, in
# the workload's call or from the kernel thread that wrote it; with the default
# threshold, none. A worker sharing a CPU with a busy thread gets its waits
# counted in the finding of its process; made a real-time thread (the fix), it
# is not in it, even on a busy machine. What dio analyze finds in a recording is
# what the recording found inline.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# findings CODE OUT: the "dio: [SEV] CODE: title" lines of OUT
findings() {
	grep "^dio: \[[A-Z]*\] $1: " "$2"
}

run_dio trace -o "$TMP/out" --analyzer latency:block_slow_ms=0.000001 \
	-- "$WL/blockq" direct "$MNT" 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace exited with $RC"; fail=1; }
dev=$(head -1 "$TMP/expect" | cut -d' ' -f3)
who=$(head -1 "$TMP/expect" | cut -d' ' -f2)
# requests DEV RWBS: "latency sector bytes" of those the console printed, slowest last
# (to the microsecond: the analyzer's slowest, by nanoseconds, is one of them)
requests() {
	grep -E "^\[[^]]*\] --- block $2 $1 " "$TMP/out" |
		sed -n 's/.* sector=\([0-9]*\) bytes=\([0-9]*\) latency=\([0-9.]*\).*/\3 \1 \2/p' |
		sort -n
}
requests "$dev" 'R[A-Z]*' > "$TMP/reads"
nreads=$(wc -l < "$TMP/reads")
[ "$nreads" -ge 8 ] || { echo "FAIL: $nreads reads on $dev, the workload made 8"; fail=1; }
# one finding for every row; the image's reads are counted in theirs
n=$(findings latency.slow-block-requests "$TMP/out" | grep -c .)
[ "$n" -eq 1 ] || { echo "FAIL: $n slow-block-requests findings, want one:"; \
	findings latency.slow-block-requests "$TMP/out"; fail=1; }
if ! grep -qF "  $dev read: $nreads of $nreads requests " "$TMP/out" &&
	! grep -qF "$nreads of $nreads read requests on device $dev took" "$TMP/out"; then
	echo "FAIL: the finding does not count the $nreads reads on $dev:"
	sed -n '/latency.slow-block-requests/,/^    Every call/p' "$TMP/out"
	fail=1
fi
# its evidence: the slowest request of the row with the most, as the console showed it
set -- $(sed -n 's/^ *[0-9]* of [0-9]* \([a-z]*\) requests on device \([0-9:]*\) took .*/\1 \2/p' \
	"$TMP/out")
case "$1" in
read) rwbs='R[A-Z]*' ;;
write) rwbs='F?W[A-Z]*' ;;
*) rwbs=none; echo "FAIL: the row with the most is '$1 $2', not the workload's reads or writes"; fail=1 ;;
esac
requests "$2" "$rwbs" > "$TMP/row"
top=$(tail -1 "$TMP/row" | cut -d' ' -f1)
want_ms=$(echo "${top:-0} * 1000" | bc -l | xargs printf '%.3f')
named=0
while read -r lat sector bytes; do
	[ "$lat" = "$top" ] || continue
	# by the workload in its call, or by a kernel thread (the journal's
	# writes on the image can be the slowest of the row on a busy machine)
	msg="The slowest, $want_ms ms for $bytes bytes at sector $sector, was submitted by"
	grep -qF "$msg blockq (${who}) in " "$TMP/out" && named=1
	grep -qE "$(echo "$msg" | sed 's/[.]/[.]/g') kernel thread [^ ]+ \([0-9]+\): " "$TMP/out" && named=1
done < "$TMP/row"
if [ "$named" != 1 ]; then
	echo "FAIL: the finding does not name one of the slowest $1 requests on $2 ($top s) as the console showed them:"
	grep "The slowest" "$TMP/out"
	fail=1
fi

run_dio trace -o "$TMP/out" --analyzer latency -- "$WL/blockq" direct "$MNT" 9> /dev/null
findings latency.slow-block-requests "$TMP/out" | grep -F " on $dev " &&
	{ echo "FAIL: requests on the idle image reached 50 ms"; fail=1; }

# run-queue: 100 rounds of 4 ms computing behind a busy thread, then as a real-time thread
run_dio trace -o "$TMP/out" --analyzer latency:runq_slow_ms=2 -- "$WL/blockq" hog 9> "$TMP/expect"
worker=$(sed -n 's/ worker$//p' "$TMP/expect")
# the worker's waits: the title when it is the process's only thread that waited, else its
# line; when the finding is the program's (another process named blockq waited
# too: see below), the run-queue table's row of the worker, its waits of 2 ms or more
n=$(sed -n "s|.*latency.runq-delay: thread worker ($worker) waited 2 ms or more for a CPU \([0-9]*\) times.*|\1|p
	s|^ *worker ($worker): \([0-9]*\) times, .*|\1|p" "$TMP/out" | head -1)
if [ -z "$n" ] && grep -q "latency.runq-delay: program blockq: [0-9]* processes .*, most ${worker%%/*} " "$TMP/out"; then
	n=$(awk -v w="$worker" '/^run-queue waits .* >= 2 ms thread$/ { t = 1; next }
		t && $1 == w { print $7; exit }' "$TMP/out")
fi
[ "${n:-0}" -ge 20 ] || { echo "FAIL: worker $worker: want a runq-delay finding of 20 waits or more, got '${n}':"; sed -n '/latency.runq-delay/,/^    Its calls/p' "$TMP/out"; fail=1; }
# one finding for the workload's process, however many of its threads waited.
# Other processes of the program join it (the finding is then the program's):
# a workload built with the address sanitizer clones LeakSanitizer's tracer (a
# process of its own, also named blockq) at exit, and on a busy machine that
# one can wait 2 ms too.
pid=${worker%%/*}
n=$(findings latency.runq-delay "$TMP/out" | grep -c -E "\(${pid}[/)]|: program blockq: .*, most ${pid} ")
[ "$n" -eq 1 ] || { echo "FAIL: $n runq-delay findings for process $pid:"; findings latency.runq-delay "$TMP/out"; fail=1; }
run_dio trace -o "$TMP/out" --analyzer latency:runq_slow_ms=2 -- "$WL/blockq" rt 9> "$TMP/expect"
worker=$(sed -n 's/ worker$//p' "$TMP/expect")
hog=$(sed -n 's/ hog$//p' "$TMP/expect")
[ -n "$worker" ] && [ -n "$hog" ] || { echo "FAIL: blockq rt did not run"; fail=1; }
if grep -F "worker ($worker)" "$TMP/out"; then
	# on a loaded machine a real-time thread can still wait behind kernel threads or other
	# real-time ones: a failure only if one of its slow waits was behind the hog
	behind=$(grep -F "[$worker worker] --- runq " "$TMP/out" | grep -F " prev=$hog " |
		sed -n 's/.* wait=\([0-9.]*\) .*/\1/p' | awk '$1 >= 0.002' | wc -l)
	if [ "$behind" -ne 0 ]; then
		echo "FAIL: the real-time worker waited 2 ms or more behind the hog $behind times"
		fail=1
	else
		echo "note: the real-time worker waited 2 ms or more, but not behind the hog:"
		grep -F "[$worker worker] --- runq " "$TMP/out" | grep -v " wait=0.00[01]"
	fi
fi

# inline == offline: the same findings from the recording as during it
run_dio record -o "$TMP/t.dio" --analyzer latency:block_slow_ms=0.000001,runq_slow_ms=2 \
	--sink json:file="$TMP/inline.json" -- "$WL/blockq" hog 9> /dev/null > /dev/null 2>&1
"$DIO" analyze "$TMP/t.dio" --analyzer latency:block_slow_ms=0.000001,runq_slow_ms=2 \
	--sink json:file="$TMP/offline.json" > /dev/null 2>&1
python3 - "$TMP/inline.json" "$TMP/offline.json" << 'PY' || fail=1
import json, sys
# rel_ns counts from the session's start, which a replay knows only as its
# first record: the one field allowed to differ
def findings(p):
    return [{k: v for k, v in o.items() if k != "rel_ns"} for o in map(json.loads, open(p))
            if o["type"] == "finding" and o.get("analyzer") == "latency"]
inline, offline = findings(sys.argv[1]), findings(sys.argv[2])
if not inline:
    sys.exit("FAIL: the recording found nothing inline; the comparison would prove nothing")
if inline != offline:
    print(f"FAIL: {len(inline)} latency findings inline, {len(offline)} offline, or they differ:")
    for a, b in zip(inline, offline):
        if a != b:
            print(f"  inline  {a}\n  offline {b}")
            break
    sys.exit(1)
PY
exit $fail
