#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The access-pattern analyzer on tests/workloads/pattern: the poor pattern
# (small, random, misaligned reads and pages read again) gets one finding of
# each kind whose counts are the ones the workload counted, when the floors of
# what a pattern must cost are off; with the defaults, its small reads are
# found when they took a tenth of its run (they take about a seventh; on a
# machine whose CPUs are busy the run grows and they may not), and its random
# and misaligned reads, which the page cache serves as fast as reads in order,
# are not, nor its re-reads (a twentieth of its run). The
# good pattern (large reads in order) gets none; small reads spread over 300
# files are one finding for the process that names the file with the most,
# and two processes of the program are one finding with their sums; the
# findings of a recorded trace analyzed offline are the ones dio made inline.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# The workload is synthetic and short: its random and misaligned reads are
# served from the page cache (its file is sparse) and cost what reads in order
# cost, its re-reads a few ms. With no floors of cost, every pattern that is
# there is found.
NOFLOORS=min_share=0,min_cost_rate=0

# run NAME MODE [defaults]: the workload under dio with no floors of cost (or
# the default ones), the json output in $TMP/NAME.json; sets PID REQ SMALL
# RND MIS BYTES REREAD from what the workload counted
run() {
	if [ -n "$3" ]; then an=access-pattern; else an=access-pattern:$NOFLOORS; fi
	run_dio trace -q --no-summary --sink "json:file=$TMP/$1.json" --analyzer "$an" -- \
		"$WL/pattern" "$2" "$MNT" > "$TMP/$1.numbers"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $1: dio exited with $RC"
		fail=1
		return 1
	fi
	read -r _ PID _ REQ _ SMALL _ RND _ MIS _ BYTES _ REREAD < "$TMP/$1.numbers"
	echo "$1: $(cat "$TMP/$1.numbers")"
}

# findings NAME: "code pid count path processes" and the title, one finding a line
findings() {
	jq -r 'select(.type == "finding" and .analyzer == "access-pattern") |
		"\(.code) \(.pid) \(.count) \(.path) \(.processes)\t\(.title)"' "$TMP/$1.json"
}

# expect CODE COUNT TITLE [NAME]: that finding of the workload's process on its file
expect() {
	want="access-pattern.$1 $PID $2 $MNT/data 1	$3"
	if ! findings "${4:-buggy}" | grep -qxF -- "$want"; then
		echo "FAIL: no finding"
		echo "  $want"
		echo "among:"
		findings "${4:-buggy}" | sed 's/^/  /'
		fail=1
	fi
}

pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'
}

# cost NAME CODE: the finding's cost_ns, and whether its message states it
cost() {
	jq -r --arg c "access-pattern.$2" 'select(.type == "finding" and .code == $c) |
		"\(.cost_ns // 0) \(.message | test("of the [0-9.]+ [mu]?s the process spent in calls on storage but syncs, [0-9.]+ ms a second of its run outside syncs"))"' \
		"$TMP/$1.json"
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
	# the time of the small reads and of the re-reads is their cost, stated
	for code in small-requests reread; do
		set -- $(cost buggy $code)
		if [ "${1:-0}" -le 0 ] || [ "$2" != true ]; then
			echo "FAIL: buggy: $code states no cost: ${1:-none} ${2:-}"
			fail=1
		fi
	done
fi

# rates NAME: for the workload's small requests on $MNT/data, then for its
# re-reads: ms a second of its run outside syncs (its first record to the end
# of its last) that they took, and their percent of its time in calls on
# storage (regular files, directories, block devices, paths; syncs aside),
# from the calls the json sink wrote. Requests as the analyzer takes them
# (reads and writes that moved bytes at a known offset; small: asked for fewer
# than 4096 bytes); the re-reads are the preads of the second and third pass,
# each all in a page the first pass read.
rates() {
	python3 - "$TMP/$1.json" "$PID" "$MNT/data" << 'PY'
import json, sys
calls = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "syscall"
         and r["pid"] == int(sys.argv[2])]
syncs = ("fsync", "fdatasync", "sync_file_range")
sync = sum(r.get("duration_ns", 0) for r in calls if r["syscall"] in syncs)
storage = sum(r.get("duration_ns", 0) for r in calls if r["syscall"] not in syncs and
              (r.get("file_type") in ("reg", "dir", "blk") or
               ("file_type" not in r and r.get("strings"))))
run = max(r["ts_ns"] + r.get("duration_ns", 0) for r in calls) - min(r["ts_ns"] for r in calls)
small = sorted((r for r in calls if r.get("path") == sys.argv[3] and "offset" in r
                and r["ret"] > 0 and r["syscall"] in ("read", "pread64", "write", "pwrite64")
                and r["args"][2] < 4096), key=lambda r: r["ts_ns"])
for ns in (sum(r["duration_ns"] for r in small), sum(r["duration_ns"] for r in small[2048:])):
    print("%.1f %.1f" % (ns / 1e6 / ((run - sync) / 1e9), 100.0 * ns / storage), end=" ")
PY
}

# due NAME CODE RATE SHARE: a finding of CODE in NAME when RATE ms a second and
# SHARE % pass the default floors (100, 10), none when they do not; near the
# floor (5 ms a second either side, where the two counts may differ), either
due() {
	if findings "$1" | grep -q "^access-pattern.$2 "; then
		awk -v r="$3" -v s="$4" 'BEGIN { exit !(r >= 95 && s >= 10) }' && return
		echo "FAIL: $1: $2 found at $3 ms a second, $4% of the time on storage"
	else
		awk -v r="$3" -v s="$4" 'BEGIN { exit !(r < 105 || s < 10) }' && return
		echo "FAIL: $1: $2 not found at $3 ms a second, $4% of the time on storage"
	fi
	fail=1
}

# the defaults: the small reads and the re-reads are found when they cost a
# tenth of the run (100 ms a second) and of the time on storage; the random
# and misaligned reads cost nothing over reads in order and never are
if run buggy-defaults buggy defaults; then
	set -- $(rates buggy-defaults)
	echo "buggy-defaults: small requests $1 ms a second, $2% of the time on storage;" \
		"re-reads $3 ms a second, $4%"
	due buggy-defaults small-requests "$1" "$2"
	due buggy-defaults reread "$3" "$4"
	if findings buggy-defaults | grep -q "^access-pattern.\(random\|misaligned\) "; then
		echo "FAIL: random or misaligned reads that cost nothing were found:"
		findings buggy-defaults | sed 's/^/  /'
		fail=1
	fi
	! findings buggy-defaults | grep -q "^access-pattern.small-requests " ||
		expect small-requests "$SMALL" "pid $PID (pattern) made $SMALL of its $REQ requests \
to $MNT/data smaller than 4096 bytes ($(pct "$SMALL" "$REQ")): $SMALL reads, 0 writes" buggy-defaults
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
	want="access-pattern.small-requests $PID $SMALL $MNT/m000 1"
	title="pid $PID (pattern) made $SMALL of its [0-9]* requests smaller than 4096 bytes \
([0-9.]*%) on 300 files, most on $MNT/m000: $SMALL reads, 0 writes"
	if [ "$n" -ne 1 ] || ! findings many | grep -q "^$want	$title\$"; then
		echo "FAIL: want one finding '$want	$title', got $n:"
		findings many | sed 's/^/  /'
		fail=1
	fi
fi

# two processes of the program, on 300 files each: one finding, the sums of
# both, the number of processes, the one with the most small reads as its pid
mkdir -p "$MNT/a" "$MNT/b"
run_dio trace -q --no-summary --sink "json:file=$TMP/two.json" --analyzer "access-pattern:$NOFLOORS" -- \
	sh -c "'$WL/pattern' many '$MNT/a' && '$WL/pattern' many '$MNT/b'" > "$TMP/two.numbers"
if [ "$RC" -ne 0 ]; then
	echo "FAIL: two: dio exited with $RC"
	fail=1
else
	read -r _ PA _ _ _ SA _ < "$TMP/two.numbers"
	read -r _ PB _ _ _ SB _ << EOF
$(sed -n 2p "$TMP/two.numbers")
EOF
	echo "two: $(tr '\n' ' ' < "$TMP/two.numbers")"
	n=$(findings two | grep -c .)
	want="access-pattern.small-requests $PA $((SA + SB)) $MNT/a/m000 2"
	title="program pattern: 2 processes made $((SA + SB)) of their [0-9]* requests smaller \
than 4096 bytes ([0-9.]*%) on 600 files, most on $MNT/a/m000: $((SA + SB)) reads, 0 writes"
	if [ "$n" -ne 1 ] || ! findings two | grep -q "^$want	$title\$" ||
	   ! jq -r 'select(.type == "finding") | .message' "$TMP/two.json" |
		grep -q "Processes with the most: $PA ($SA requests, [0-9.]* [mu]*s), $PB ($SB requests"; then
		echo "FAIL: want one finding '$want	$title' naming $PA and $PB, got $n:"
		findings two | sed 's/^/  /'
		fail=1
	fi
fi

# inline == offline: the findings made while recording are the ones dio analyze makes
IO_OPTS=$NOFLOORS inline_is_offline access-pattern 4 "$WL/pattern" buggy "$MNT" || fail=1
exit $fail
