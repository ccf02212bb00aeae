#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The reuse-offset analyzer on tests/workloads/follower, on a journaled ext4
# that hands a freed inode number out again at once: the buggy follower's
# finding carries the offset and the bytes lost that the workload measured,
# also when it resumes through a second fd after reading the first line
# through another, and when it saved an offset below where it got (the last
# line boundary); the fixed follower gets none; the same for a copytruncate
# rotation, where a follower that notices, closes the log and reads it again
# from 0 through a new descriptor loses nothing; a follower that reads exactly
# what it is told is there, at its old offset, in a log that grew past it, is
# found with its count, kept descriptor or reopened; a shipper that reads
# through a pool of threads with pread, at the offset it saved by name in a
# registry, is found in a log renamed away and created again, or truncated;
# and the findings of a recorded trace analyzed offline are the ones dio made
# inline.
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
	run_dio trace -q --no-summary --sink "json:file=$TMP/$name.json" --analyzer reuse-offset \
		-- "$WL/follower" "$mode" "$MNT" "$@" > "$TMP/$name.numbers"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $name: dio exited with $RC"
		fail=1
		return 1
	fi
	read -r _ READER _ WRITER _ INO _ OFF _ _ _ LOST < "$TMP/$name.numbers"
	echo "$name: the follower saved offset $OFF and lost $LOST bytes (reader $READER," \
		"writer $WRITER, inode $INO)"
}

# findings NAME: "code pid count file_tag path" and the title, one finding a line;
# a finding that is not an error of one process is marked so
findings() {
	jq -r 'select(.type == "finding" and .analyzer == "reuse-offset") |
		(if .severity != "error" or .processes != 1 then
			"[\(.severity) \(.processes)] " else "" end) +
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

# stale NAME MODE BYTES WANT: the follower in MODE (a recreating one) with BYTES
# written to the new log loses WANT bytes at offset 2600, and dio says so
stale() {
	run "$1" "$2" 100 "$3" || return
	[ "$LOST" -eq "$4" ] && [ "$OFF" -eq 2600 ] ||
		{ echo "FAIL: $1: the workload lost $LOST bytes at $OFF, not $4 at 2600"; fail=1; }
	expect "$1" reuse-offset.stale-offset "pid $READER (follower) resumed the new \
$MNT/app.log at offset $OFF, which it never read up to: $LOST bytes pid $WRITER (logwriter) \
wrote below it were never read"
}

# the DIO paper's case: the new file is shorter than the saved offset
stale buggy buggy 1000 1000
# longer than the saved offset: what is below it is lost, the rest is read
stale buggy-long buggy 4000 2600
# the first line read through another fd does not count for the resumed one
stale two-fds two-fds 1000 1000
stale two-fds-long two-fds 4000 2600
# the offset saved is the last line boundary, 13 bytes below where it got
stale line-boundary line-boundary 1000 1000
stale line-boundary-long line-boundary 4000 2600
run fixed fixed 100 1000 && none fixed

if run truncate truncate 100 1000; then
	expect truncate reuse-offset.read-past-end "pid $READER (follower) kept its offset $OFF \
while $MNT/app.log was truncated: $LOST bytes pid $WRITER (logwriter) wrote below it were \
never read"
fi
run truncate-fixed truncate-fixed 100 1000 && none truncate-fixed
run truncate-reopen truncate-reopen 100 1000 && none truncate-reopen

# the log truncated and grown to 4000 bytes before the follower looks: it reads
# exactly the bytes above its offset, none of them past the end
grown() {
	run "$1" "$1" 100 4000 || return
	[ "$LOST" -eq 2600 ] && [ "$OFF" -eq 2600 ] ||
		{ echo "FAIL: $1: the workload lost $LOST bytes at $OFF, not 2600 at 2600"; fail=1; }
	if [ "$1" = grown-reopen ]; then
		expect "$1" reuse-offset.stale-offset "pid $READER (follower) resumed the \
truncated $MNT/app.log at offset $OFF, which it never read up to: $LOST bytes pid $WRITER \
(logwriter) wrote below it were never read"
	else
		expect "$1" reuse-offset.read-past-end "pid $READER (follower) kept its offset \
$OFF while $MNT/app.log was truncated: $LOST bytes pid $WRITER (logwriter) wrote below it \
were never read"
	fi
}
grown grown
grown grown-peek
grown grown-reopen
run grown-fixed grown-fixed 100 4000 && none grown-fixed

# ship MODE: the shipper in MODE under dio; sets READER (its second run) WRITER INO OFF LOST
ship() {
	rm -f "$MNT/app.log" "$MNT/app.log.1" "$MNT/registry"
	run_dio trace -q --no-summary --sink "json:file=$TMP/ship-$1.json" --analyzer reuse-offset \
		-- "$WL/shipper" "$1" "$MNT" > "$TMP/ship-$1.numbers"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: ship-$1: dio exited with $RC"
		fail=1
		return 1
	fi
	read -r _ _ READER _ WRITER _ INO _ OFF _ _ _ LOST < "$TMP/ship-$1.numbers"
	echo "ship-$1: the second run resumed at $OFF and lost $LOST bytes (pid $READER," \
		"writer $WRITER, inode $INO)"
}
for mode in rename truncate; do
	ship $mode || continue
	[ "$LOST" -eq 2600 ] && [ "$OFF" -eq 2600 ] ||
		{ echo "FAIL: ship-$mode: lost $LOST bytes at $OFF, not 2600 at 2600"; fail=1; }
	how=renamed
	[ $mode = truncate ] && how=truncated
	expect ship-$mode reuse-offset.stale-offset "pid $READER (shipper) resumed the $how \
$MNT/app.log at offset $OFF, which it never read up to: $LOST bytes pid $WRITER (logwriter) \
wrote below it were never read"
done
ship fixed && none ship-fixed

# inline == offline: the findings made while recording are the ones dio analyze makes
for mode in buggy two-fds; do
	rm -f "$MNT/app.log"
	inline_is_offline reuse-offset 1 "$WL/follower" "$mode" "$MNT" || fail=1
done
exit $fail
