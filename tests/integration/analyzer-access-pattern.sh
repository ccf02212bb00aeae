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

# small_time NAME: the share of the workload's span, from its first request on
# $MNT/data to the end of its last, spent in its small ones, from the calls the
# json sink wrote (requests as the analyzer takes them: reads and writes that
# moved bytes at a known offset; small: asked for fewer than 4096 bytes)
small_time() {
	python3 - "$TMP/$1.json" "$PID" "$MNT/data" << 'PY'
import json, sys
reqs = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "syscall"
        and r["pid"] == int(sys.argv[2]) and r.get("path") == sys.argv[3] and "offset" in r
        and r["ret"] > 0 and r["syscall"] in ("read", "pread64", "write", "pwrite64")]
span = max(r["ts_ns"] + r["duration_ns"] for r in reqs) - min(r["ts_ns"] for r in reqs)
small = sum(r["duration_ns"] for r in reqs if r["args"][2] < 4096)
print("%.4f" % (small / span))
PY
}

if run buggy buggy; then
	# Small requests make a finding when they are most of the requests and took at
	# least 10 % of the span (small_time). The workload's small reads come from the
	# page cache and take about half of it; on a machine whose CPUs are busy with
	# other work, the workload also waits for a CPU between its calls and the share
	# can fall below 10 %: the finding is then rightly not made.
	share=$(small_time buggy)
	want=4
	awk -v s="$share" 'BEGIN { exit !(s < 0.1) }' && want=3
	echo "buggy: the small requests took $share of the span: $want findings due"
	n=$(findings buggy | grep -c .)
	[ "$n" -eq "$want" ] || { echo "FAIL: $n findings, expected $want:"; findings buggy; fail=1; }
	who="pid $PID (pattern)"
	[ "$want" -eq 3 ] || expect small-requests "$SMALL" "$who made $SMALL of its $REQ requests to $MNT/data smaller \
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
# (3 at least: the small requests' finding depends on the time they took, as above)
inline_is_offline access-pattern 3 "$WL/pattern" buggy "$MNT" || fail=1
exit $fail
