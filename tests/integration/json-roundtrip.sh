#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record now, analyze later, in JSON, without losing anything: for each
# workload, dio record writes a trace file and, through the json sink of the
# same run, the live JSON; dio dump --format json writes it again from the
# file. tracefile_reader.py, a reader of the trace format of its own (written
# from docs/trace-format.md and include/dio/event.h), pairs each record of the
# file with its JSON object and checks that every field of the record is in
# the object with the same value, and that nothing in the object comes from
# anywhere else. Block requests and run-queue waits come from blockq: its
# O_DIRECT calls on the CPU its hog keeps busy (requests and waits in a call,
# the journal's requests), and O_DIRECT writes that a loop device on a full
# tmpfs fails with ENOSPC. Then the checks themselves: a changed JSON field and
# a damaged trace file must both fail.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3
READER=$top_srcdir/tests/integration/tracefile_reader.py
mount_ext4
fail=0
dev=$(findmnt -no SOURCE "$MNT")

# roundtrip NAME RECORD-OPTIONS... -- WORKLOAD ARGS...
roundtrip() {
	name=$1
	shift
	rm -rf "$MNT/wd"
	mkdir "$MNT/wd"
	run_dio record -o "$TMP/$name.dio" --sink "json:file=$TMP/$name.live.json" "$@" \
		9> /dev/null > "$TMP/$name.out" 2>&1
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $name: dio record exited with $RC:"
		tail -5 "$TMP/$name.out"
		fail=1
		return
	fi
	if ! "$DIO" dump --format json "$TMP/$name.dio" > "$TMP/$name.json" 2> "$TMP/$name.err" ||
		[ -s "$TMP/$name.err" ]; then
		echo "FAIL: $name: dio dump --format json failed or complained:"
		cat "$TMP/$name.err"
		fail=1
	fi
	$PY "$READER" "$TMP/$name.dio" "$TMP/$name.json" || fail=1
	# the live sink counts rel_ns from its own start, before the first record
	$PY "$READER" --rel-base any "$TMP/$name.dio" "$TMP/$name.live.json" || fail=1
}

roundtrip edges --hash kernel --capture-data 64 -- "$WL/edges" "$MNT/wd" "$dev"
roundtrip basic --hash user --capture-data 8 -- "$WL/basic" "$MNT/wd"
roundtrip threads -- "$WL/threads" "$MNT/wd"
roundtrip reuse -- "$WL/reuse" "$MNT/wd"
roundtrip uring --hash kernel -- "$WL/uring" "$MNT/wd"
roundtrip raw --mode raw -- "$WL/basic" "$MNT/wd"
# --runq-min 1: on a busy CPU nearly every wakeup waits that long
roundtrip blockq --runq-min 1 -- \
	sh -c '"$1/blockq" hog & taskset -c 0 "$1/blockq" direct "$2"; wait' sh "$WL" "$MNT/wd"

# A request that fails: the first 256 KiB fill the tmpfs under the loop device,
# the loop driver completes the next write with ENOSPC, and dd must fail.
full=
unmount_small() {
	[ -z "$full" ] || losetup -d "$full"
	! mountpoint -q "$TMP/small" || umount "$TMP/small" || umount -l "$TMP/small"
	cleanup
}
trap unmount_small EXIT
mkdir "$TMP/small"
if ! mount -t tmpfs -o size=256k dio-small "$TMP/small" || ! truncate -s 4M "$TMP/small/img" ||
	! full=$(losetup -f --show "$TMP/small/img"); then
	echo "FAIL: cannot make a loop device on a small tmpfs"
	exit 1
fi
roundtrip enospc -- sh -c '! dd if=/dev/zero of="$1" bs=64k count=16 oflag=direct 2> /dev/null' \
	sh "$full"
re='"type":"block",[^}]*"comm":"dd","rwbs":"W[A-Z]*",[^}]*"errno":"ENOSPC",[^}]*"syscall":"write"'
grep -q "$re" "$TMP/enospc.json" ||
	{ echo "FAIL: no request of dd's writes failed with ENOSPC in enospc.json"; fail=1; }

# must_fail WHAT TRACE JSON: the reader must find the difference
must_fail() {
	if $PY "$READER" "$2" "$3" > "$TMP/neg.out" 2>&1; then
		echo "FAIL: the round-trip check does not see $1"
		fail=1
	elif ! grep -q '^FAIL: ' "$TMP/neg.out"; then
		echo "FAIL: the round-trip check failed on $1 without saying why:"
		cat "$TMP/neg.out"
		fail=1
	fi
}
sed '0,/"renamed":true/s//"renamed":false/' "$TMP/edges.json" > "$TMP/neg.json"
must_fail "a renamed path that says it was not" "$TMP/edges.dio" "$TMP/neg.json"
sed '0,/"cpu":[0-9]*,/s///' "$TMP/edges.json" > "$TMP/neg.json"
must_fail "an object without cpu" "$TMP/edges.dio" "$TMP/neg.json"
sed '0,/"old_tid":[0-9]*/s//"old_tid":0/' "$TMP/edges.json" > "$TMP/neg.json"
must_fail "an exec with another old tid" "$TMP/edges.dio" "$TMP/neg.json"
sed '0,/"strings":\[null,"b"\]/s//"strings":["b"]/' "$TMP/edges.json" > "$TMP/neg.json"
must_fail "a lost unreadable string" "$TMP/edges.dio" "$TMP/neg.json"
sed '0,/"kthread":true/s//"kthread":false/' "$TMP/blockq.json" > "$TMP/neg.json"
must_fail "a kernel thread's request said to be the process's" "$TMP/blockq.dio" "$TMP/neg.json"
sed '0,/"queued":true,"queue_ns":[0-9]*/s//"queued":true/' "$TMP/blockq.json" > "$TMP/neg.json"
must_fail "a request without its time in the scheduler" "$TMP/blockq.dio" "$TMP/neg.json"
sed '0,/"sys_ts_ns":/s//&1/' "$TMP/blockq.json" > "$TMP/neg.json"
must_fail "a request or wait in a call entered at another time" "$TMP/blockq.dio" "$TMP/neg.json"
sed '0,/"prev_comm":"hog"/s//"prev_comm":"worker"/' "$TMP/blockq.json" > "$TMP/neg.json"
must_fail "a wait behind another thread" "$TMP/blockq.dio" "$TMP/neg.json"
sed '0,/"preempted":true/s//"preempted":false/' "$TMP/blockq.json" > "$TMP/neg.json"
must_fail "a preempted thread said to be woken" "$TMP/blockq.dio" "$TMP/neg.json"
sed '0,/"error":-28,"errno":"ENOSPC"/s//"error":0/' "$TMP/enospc.json" > "$TMP/neg.json"
must_fail "a failed request that says it did not fail" "$TMP/enospc.dio" "$TMP/neg.json"
sed '$d' "$TMP/edges.json" > "$TMP/neg.json"
must_fail "a missing last object" "$TMP/edges.dio" "$TMP/neg.json"
# one byte of the first block's payload flipped: its CRC no longer matches
cp "$TMP/edges.dio" "$TMP/neg.dio"
printf '\377' | dd of="$TMP/neg.dio" bs=1 seek=70 conv=notrunc status=none
must_fail "a damaged trace file" "$TMP/neg.dio" "$TMP/edges.json"
exit $fail
