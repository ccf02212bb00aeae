#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The access-pattern analyzer on tests/workloads/pattern: the poor pattern
# (small, random, misaligned reads and pages read again) gets one finding of
# each kind whose counts are the ones the workload counted; the good pattern
# (large reads in order) gets none; small reads spread over 300 files are one
# finding for the process that names the file with the most; and the findings
# of a recorded trace analyzed offline are the ones dio made inline.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# run NAME MODE: the workload under dio, the json output in $TMP/NAME.json;
# sets PID REQ SMALL RND MIS BYTES REREAD from what the workload counted
run() {
	run_dio trace --no-summary --sink "json:file=$TMP/$1.json" --analyzer access-pattern -- \
		"$WL/pattern" "$2" "$MNT" > "$TMP/$1.numbers"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $1: dio exited with $RC"
		fail=1
		return 1
	fi
	read -r _ PID _ REQ _ SMALL _ RND _ MIS _ BYTES _ REREAD < "$TMP/$1.numbers"
	echo "$1: $(cat "$TMP/$1.numbers")"
}

# findings NAME: "code pid count path" and the title, one finding a line
findings() {
	jq -r 'select(.type == "finding" and .analyzer == "access-pattern") |
		"\(.code) \(.pid) \(.count) \(.path)\t\(.title)"' "$TMP/$1.json"
}

# expect CODE COUNT TITLE: that finding of the workload's process on its file
expect() {
	want="access-pattern.$1 $PID $2 $MNT/data	$3"
	if ! findings buggy | grep -qxF -- "$want"; then
		echo "FAIL: no finding"
		echo "  $want"
		echo "among:"
		findings buggy | sed 's/^/  /'
		fail=1
	fi
}

pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'
}

if run buggy buggy; then
	n=$(findings buggy | grep -c .)
	[ "$n" -eq 4 ] || { echo "FAIL: $n findings, expected 4:"; findings buggy; fail=1; }
	who="pid $PID (pattern)"
	expect small-requests "$SMALL" "$who made $SMALL of its $REQ requests to $MNT/data smaller \
than 4096 bytes ($(pct "$SMALL" "$REQ")): $SMALL reads, 0 writes"
	expect random "$RND" "$who made $RND of its $REQ requests to $MNT/data at random \
offsets ($(pct "$RND" "$REQ")): $RND reads, 0 writes"
	expect misaligned "$MIS" "$who made $MIS of its $REQ requests to $MNT/data of 4096 bytes \
or more not aligned to 4096 bytes ($(pct "$MIS" "$REQ"))"
	expect reread "$REREAD" "$who read $REREAD of the $BYTES bytes it read from $MNT/data more \
than once ($(pct "$REREAD" "$BYTES"))"
fi

if run fixed fixed; then
	if [ -n "$(findings fixed)" ]; then
		echo "FAIL: the good pattern got findings:"
		findings fixed | sed 's/^/  /'
		fail=1
	fi
fi

# 300 files: one finding, the sum of the small reads, the file with the most as its evidence
if run many many; then
	n=$(findings many | grep -c .)
	want="access-pattern.small-requests $PID $SMALL $MNT/m000"
	title="pid $PID (pattern) made $SMALL of its [0-9]* requests smaller than 4096 bytes \
([0-9.]*%) on 300 files, most on $MNT/m000: $SMALL reads, 0 writes"
	if [ "$n" -ne 1 ] || ! findings many | grep -q "^$want	$title\$"; then
		echo "FAIL: want one finding '$want	$title', got $n:"
		findings many | sed 's/^/  /'
		fail=1
	fi
fi

# inline == offline: the findings made while recording are the ones dio analyze makes
inline_is_offline access-pattern 4 "$WL/pattern" buggy "$MNT" || fail=1
exit $fail
