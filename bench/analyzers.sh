#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What each analyzer costs: records a trace of bench/callcost (lseek + read on
# tmpfs, five million calls) plus a few seconds of the demo workload, then
# times dio analyze over it with no analyzer and with each one alone (best of
# ROUNDS), and prints the time each adds per record and the peak memory.
#
# usage: sudo bench/analyzers.sh [-r ROUNDS] [DIO]
set -euo pipefail

rounds=3
while getopts "r:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [DIO]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=${1:-./dio}
. "$(dirname "$0")/lib.sh"
need_root
need_dio
need_callcost

tmp=$(mktemp -d /dev/shm/dio-analyzers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
demo=$(dirname "$here")/tests/workloads/demo
"$dio" record -q --no-summary -o "$tmp/t.dio" -- sh -c \
	"'$here/callcost' '$tmp/f' 25 100000; [ ! -x '$demo' ] || '$demo' '$tmp/demo' 2000" \
	> /dev/null 2>&1
records=$("$dio" info "$tmp/t.dio" | awk '/^records:/ { print $2 }')

# run ANALYZER...: best wall time and its peak RSS of dio analyze
run() {
	local best= rss= t m
	for ((i = 0; i < rounds; i++)); do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$dio" analyze "$tmp/t.dio" -q --no-summary \
			"$@" > /dev/null 2>&1 || true
		read -r t m < "$tmp/time"
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t rss=$m
		fi
	done
	echo "$best $rss"
}

read -r base base_rss <<< "$(run)"
printf 'trace: %s records\n\n' "$records"
printf '%-16s %10s %14s %12s\n' analyzer seconds "ns/record" "peak MB"
printf '%-16s %10s %14s %12.1f\n' "(none)" "$base" "-" "$(echo "$base_rss / 1024" | bc -l)"
for a in $("$dio" list analyzers | awk '/^[a-z]/ { print $1 }'); do
	read -r t rss <<< "$(run --analyzer "$a")"
	printf '%-16s %10s %14.0f %12.1f\n' "$a" "$t" \
		"$(echo "($t - $base) * 1000000000 / $records" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
done
printf '\nreproduce: sudo %s -r %s %s\n' "$0" "$rounds" "$dio"
