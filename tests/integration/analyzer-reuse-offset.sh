#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The reuse-offset analyzer on tests/workloads/follower, on a journaled ext4
# that hands a freed inode number out again at once: the buggy follower's
# finding carries the offset and the bytes lost that the workload measured,
# the fixed follower gets none; the same for a copytruncate rotation; and the
# finding of a recorded trace analyzed offline is the one dio made inline.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# run NAME MODE [LINES BYTES]: the workload under dio, the json output in
# $TMP/NAME.json; sets READER WRITER INO OFF LOST from what the workload printed
run() {
	name=$1
	mode=$2
	shift 2
	rm -f "$MNT/app.log"
	run_dio trace --no-summary --sink "json:file=$TMP/$name.json" --analyzer reuse-offset \
		-- "$WL/follower" "$mode" "$MNT" "$@" > "$TMP/$name.numbers"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $name: dio exited with $RC"
		fail=1
		return 1
	fi
	read -r _ READER _ WRITER _ INO _ OFF _ _ _ LOST < "$TMP/$name.numbers"
	echo "$name: the follower reached offset $OFF and lost $LOST bytes (reader $READER," \
		"writer $WRITER, inode $INO)"
}

# findings NAME: "code pid count file_tag path" and the title, one finding a line
findings() {
	jq -r 'select(.type == "finding" and .analyzer == "reuse-offset") |
		"\(.code) \(.pid) \(.count) \(.file_tag) \(.path)\t\(.title)"' "$TMP/$1.json"
}

# expect NAME CODE TITLE: exactly one finding, CODE by the reader, on inode INO of
# app.log, with LOST bytes as its count and TITLE as its title
expect() {
	got=$(findings "$1")
	n=$(printf '%s' "$got" | grep -c .)
	want="$2 $READER $LOST 7:[0-9]*|$INO|[0-9]* $MNT/app.log	$3"
	if [ "$n" -ne 1 ] || ! printf '%s\n' "$got" | grep -qx -- "$want"; then
		echo "FAIL: $1: expected one finding like"
		echo "  $want"
		echo "got $n:"
		printf '%s\n' "$got" | sed 's/^/  /'
		fail=1
	fi
}

none() {
	got=$(findings "$1")
	if [ -n "$got" ]; then
		echo "FAIL: $1: the fixed follower got findings:"
		printf '%s\n' "$got" | sed 's/^/  /'
		fail=1
	fi
}

# the DIO paper's case: the new file is shorter than the saved offset
if run buggy buggy 100 1000; then
	[ "$LOST" -eq 1000 ] && [ "$OFF" -eq 2600 ] ||
		{ echo "FAIL: the workload lost $LOST bytes at $OFF, not 1000 at 2600"; fail=1; }
	expect buggy reuse-offset.stale-offset "pid $READER (follower) resumed the new \
$MNT/app.log at its old offset $OFF: $LOST bytes pid $WRITER (logwriter) wrote below it were \
never read"
fi
# longer than the saved offset: what is below it is lost, the rest is read
if run buggy-long buggy 100 4000; then
	[ "$LOST" -eq 2600 ] || { echo "FAIL: the workload lost $LOST bytes, not 2600"; fail=1; }
	expect buggy-long reuse-offset.stale-offset "pid $READER (follower) resumed the new \
$MNT/app.log at its old offset $OFF: $LOST bytes pid $WRITER (logwriter) wrote below it were \
never read"
fi
run fixed fixed 100 1000 && none fixed

if run truncate truncate 100 1000; then
	expect truncate reuse-offset.read-past-end "pid $READER (follower) waits at offset $OFF \
of $MNT/app.log, past its end at 1000: $LOST bytes pid $WRITER (logwriter) wrote below it were \
never read"
fi
run truncate-fixed truncate-fixed 100 1000 && none truncate-fixed

# inline == offline: the findings made while recording are the ones dio analyze makes
rm -f "$MNT/app.log"
inline_is_offline reuse-offset 1 "$WL/follower" buggy "$MNT" || fail=1
exit $fail
