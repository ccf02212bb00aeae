#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Seeking by time in a trace file: records bench/callcost (lseek + read on
# tmpfs, millions of calls in a few seconds) with dio record, then times
# dio dump over the whole trace and over short windows at its start, middle
# and end. Blocks outside a window are skipped through the index without being
# inflated, so a window costs what it holds, not what the file holds.
# With a second build OTHER, both dump the same whole trace in alternating
# rounds (best of 5 each): a change to the reader, measured side by side.
#
# usage: sudo bench/seek.sh [DIO [OTHER]]
set -euo pipefail

dio=${1:-./dio}
other=${2:-}
. "$(dirname "$0")/lib.sh"
need_root
need_dio
need_callcost

tmp=$(mktemp -d /dev/shm/dio-seek.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$dio" record -q --no-summary -o "$tmp/t.dio" -- taskset -c 0 "$prog" "$tmp/file" 20 100000 \
	> /dev/null 2>&1
span=$("$dio" info "$tmp/t.dio" | awk '/^time span:/ { print $3 }')
size=$(stat -c %s "$tmp/t.dio")

printf 'trace: %s records, %.1f MB, %.2f s\n\n' \
	"$("$dio" info "$tmp/t.dio" | awk '/^records:/ { print $2 }')" \
	"$(echo "$size / 1000000" | bc -l)" "$span"
printf '%-28s %12s %10s %10s\n' "dio dump" records seconds "max RSS MB"
window() {
	local label=$1 t rss lines
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$dio" dump "$tmp/t.dio" "$@" -o "$tmp/out"
	read -r t rss < "$tmp/time"
	lines=$(wc -l < "$tmp/out")
	printf '%-28s %12s %10s %10.1f\n' "$label" "$lines" "$t" "$(echo "$rss / 1024" | bc -l)"
}
w=$(echo "$span / 20" | bc -l)
window "whole trace"
window "first 5 %" --until "$w"
window "5 % in the middle" --since "$(echo "$span / 2" | bc -l)" \
	--until "$(echo "$span / 2 + $w" | bc -l)"
window "last 5 %" --since "$(echo "$span - $w" | bc -l)"
if [ -n "$other" ]; then
	[ -x "$other" ] || bench_die "$other not found"
	best_a= best_b= rss_a= rss_b=
	for _ in 1 2 3 4 5; do
		for b in a b; do
			bin=$dio
			[ $b = b ] && bin=$other
			/usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" dump "$tmp/t.dio" -o "$tmp/out"
			read -r t rss < "$tmp/time"
			if [ $b = a ]; then best_a=$(best "$best_a" "$t"); rss_a=$rss
			else best_b=$(best "$best_b" "$t"); rss_b=$rss; fi
		done
	done
	printf '\n%-40s %10s %10s\n' "whole trace, best of 5 alternating" seconds "max RSS MB"
	printf '%-40s %10s %10.1f\n' "$dio" "$best_a" "$(echo "$rss_a / 1024" | bc -l)"
	printf '%-40s %10s %10.1f\n' "$other" "$best_b" "$(echo "$rss_b / 1024" | bc -l)"
fi
printf '\nreproduce: sudo %s %s%s\n' "$0" "$dio" "${other:+ $other}"
