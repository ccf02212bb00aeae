#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The latency analyzer on real requests and waits. Direct I/O on the ext4
# image: with a threshold every request passes, the finding for reads on the
# image's device counts the workload's reads and names the slowest exactly as
# the console showed it, in pread64 of the workload's file; with the default
# threshold, none. A worker sharing a CPU with a busy thread gets a run-queue
# finding; made a real-time thread (the fix), it gets none, even on a busy
# machine. What dio analyze finds in a recording is what
# the recording found inline.
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
# the slowest read requests on the image's device, as the console printed them
# (to the microsecond: the analyzer's slowest, by nanoseconds, is one of them)
grep -E "^\[[^]]*\] --- block R[A-Z]* $dev " "$TMP/out" |
	sed -n 's/.* sector=\([0-9]*\) bytes=\([0-9]*\) latency=\([0-9.]*\).*/\3 \1 \2/p' |
	sort -n > "$TMP/reads"
nreads=$(wc -l < "$TMP/reads")
top=$(tail -1 "$TMP/reads" | cut -d' ' -f1)
want_ms=$(echo "$top * 1000" | bc -l | xargs printf '%.3f')
title="$nreads read requests on $dev took 1e-06 ms or more"
if ! findings latency.slow-block-requests "$TMP/out" | grep -qF "$title"; then
	echo "FAIL: no finding '$title':"
	findings latency.slow-block-requests "$TMP/out"
	fail=1
fi
named=0
while read -r lat sector bytes; do
	[ "$lat" = "$top" ] || continue
	msg="The slowest, $want_ms ms for $bytes bytes at sector $sector, was submitted by blockq (${who}) in "
	grep -qF "$msg" "$TMP/out" && named=1
done < "$TMP/reads"
if [ "$named" != 1 ]; then
	echo "FAIL: the finding does not name one of the slowest reads ($top s) as the console showed them:"
	grep "The slowest" "$TMP/out"
	fail=1
fi
[ "$nreads" -ge 8 ] || { echo "FAIL: $nreads reads on $dev, the workload made 8"; fail=1; }

run_dio trace -o "$TMP/out" --analyzer latency -- "$WL/blockq" direct "$MNT" 9> /dev/null
findings latency.slow-block-requests "$TMP/out" | grep -F " on $dev " &&
	{ echo "FAIL: requests on the idle image reached 50 ms"; fail=1; }

# run-queue: 100 rounds of 4 ms computing behind a busy thread, then as a real-time thread
run_dio trace -o "$TMP/out" --analyzer latency:runq_slow_ms=2 -- "$WL/blockq" hog 9> "$TMP/expect"
worker=$(sed -n 's/ worker$//p' "$TMP/expect")
n=$(findings latency.runq-delay "$TMP/out" |
	sed -n "s|.*thread worker ($worker) waited 2 ms or more for a CPU \([0-9]*\) times.*|\1|p")
[ "${n:-0}" -ge 20 ] || { echo "FAIL: worker $worker: want a runq-delay finding of 20 waits or more, got '${n}':"; findings latency.runq-delay "$TMP/out"; fail=1; }
run_dio trace -o "$TMP/out" --analyzer latency:runq_slow_ms=2 -- "$WL/blockq" rt 9> "$TMP/expect"
worker=$(sed -n 's/ worker$//p' "$TMP/expect")
[ -n "$worker" ] || { echo "FAIL: blockq rt did not run"; fail=1; }
findings latency.runq-delay "$TMP/out" | grep -F "($worker)" &&
	{ echo "FAIL: the real-time worker got a run-queue finding"; fail=1; }

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
