#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the durability analyzer costs on the calls it works hardest on: records
# a program that saves a file N times the unsafe way (a temporary file opened,
# written, closed and renamed over the target, on a disk file system: every
# save is judged and reported into its finding), then times dio analyze over
# the trace with no analyzer and with durability alone (best of ROUNDS), and
# prints the time it adds per record and the peak memory.
#
# usage: sudo bench/durability.sh [-r ROUNDS] [-n SAVES] [-d DIR] [DIO]
#   DIR: where the saves go, on a disk file system (default: a new directory in /var/tmp)
set -euo pipefail

rounds=3 saves=20000 dir=
while getopts "r:n:d:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	n) saves=$OPTARG ;;
	d) dir=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-n SAVES] [-d DIR] [DIO]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=${1:-./dio}
. "$(dirname "$0")/lib.sh"
need_root
need_dio

tmp=$(mktemp -d "${dir:-/var/tmp}/dio-durability.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo settings > "$tmp/settings.conf"
"$dio" record -q --no-summary -o "$tmp/t.dio" -- python3 -c '
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
data = b"x" * 4096
for i in range(n):
    with open(d + "/settings.conf", "rb") as f:
        f.read()
    with open(d + "/settings.conf.tmp", "wb") as f:
        f.write(data)
    os.rename(d + "/settings.conf.tmp", d + "/settings.conf")
' "$tmp" "$saves" > /dev/null 2>&1
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
read -r t rss <<< "$(run --analyzer durability)"
printf 'trace: %s records, %s saves\n\n' "$records" "$saves"
printf '%-16s %10s %14s %12s\n' analyzer seconds "ns/record" "peak MB"
printf '%-16s %10s %14s %12.1f\n' "(none)" "$base" "-" "$(echo "$base_rss / 1024" | bc -l)"
printf '%-16s %10s %14.0f %12.1f\n' durability "$t" \
	"$(echo "($t - $base) * 1000000000 / $records" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
"$dio" analyze "$tmp/t.dio" -q --no-summary --analyzer durability 2>&1 | grep '^dio: \[' || true
printf '\nreproduce: sudo %s -r %s -n %s %s\n' "$0" "$rounds" "$saves" "$dio"
