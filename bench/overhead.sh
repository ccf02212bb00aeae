#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Overhead of tracing a syscall-heavy workload: fio 4 KiB random read/write with
# the sync engine on tmpfs, one job. Runs alternate vanilla / dio / strace -f so
# drift on the machine hits all three alike. Prints IOPS as a ratio to vanilla
# and the events dio lost.
#
# usage: sudo bench/overhead.sh [-r RUNS] [-s SECONDS] [-m detailed|raw] [-x] [DIO]
#   -x: leave strace out.  DIO defaults to ./dio (the build tree).
set -euo pipefail

runs=3 secs=10 mode=detailed with_strace=1
while getopts "r:s:m:x" opt; do
	case $opt in
	r) runs=$OPTARG ;;
	s) secs=$OPTARG ;;
	m) mode=$OPTARG ;;
	x) with_strace=0 ;;
	*) echo "usage: $0 [-r RUNS] [-s SECONDS] [-m detailed|raw] [-x] [DIO]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=${1:-./dio}
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || bench_die "install fio (apt-get install fio)"
need_dio

file=/dev/shm/dio-bench.$$
tmp=$(mktemp -d)
trap 'rm -rf "$file" "$tmp"' EXIT
fio_cmd=(fio --name=bench --filename="$file" --size=256M --rw=randrw --bs=4k --ioengine=sync
	--numjobs=1 --time_based --runtime="$secs" --minimal)

# read + write IOPS from fio's terse output (fields 8 and 49)
iops() { awk -F';' '{ printf "%d\n", $8 + $49 }' "$1"; }

"${fio_cmd[@]}" --runtime=2 >/dev/null	# lay the file out, warm the page cache

declare -a v d s lost
for ((i = 0; i < runs; i++)); do
	"${fio_cmd[@]}" >"$tmp/v" 2>/dev/null
	v[i]=$(iops "$tmp/v")
	"$dio" trace --mode "$mode" -o /dev/null -- "${fio_cmd[@]}" >"$tmp/d" 2>"$tmp/d.err"
	d[i]=$(iops "$tmp/d")
	lost[i]=$(sed -n 's/^dio: warning: \([0-9]*\) events lost.*/\1/p' "$tmp/d.err")
	lost[i]=${lost[i]:-0}
	if [ "$with_strace" = 1 ]; then
		strace -f -o /dev/null "${fio_cmd[@]}" >"$tmp/s" 2>/dev/null
		s[i]=$(iops "$tmp/s")
	fi
done

printf '%-4s %12s %12s %8s %10s' run vanilla dio dio/van lost
[ "$with_strace" = 1 ] && printf ' %12s %8s' strace st/van
printf '\n'
sum_d=0 sum_s=0 sum_v=0 sum_l=0
for ((i = 0; i < runs; i++)); do
	printf '%-4s %12d %12d %8.3f %10d' $((i + 1)) "${v[i]}" "${d[i]}" \
		"$(echo "${d[i]} / ${v[i]}" | bc -l)" "${lost[i]}"
	[ "$with_strace" = 1 ] && printf ' %12d %8.3f' "${s[i]}" "$(echo "${s[i]} / ${v[i]}" | bc -l)"
	printf '\n'
	sum_v=$((sum_v + v[i])) sum_d=$((sum_d + d[i])) sum_l=$((sum_l + lost[i]))
	[ "$with_strace" = 1 ] && sum_s=$((sum_s + s[i]))
done
printf '%-4s %12d %12d %8.3f %10d' mean $((sum_v / runs)) $((sum_d / runs)) \
	"$(echo "$sum_d / $sum_v" | bc -l)" "$sum_l"
[ "$with_strace" = 1 ] && printf ' %12d %8.3f' $((sum_s / runs)) "$(echo "$sum_s / $sum_v" | bc -l)"
printf '\n\nreproduce: sudo %s -r %s -s %s -m %s %s\n' "$0" "$runs" "$secs" "$mode" "$dio"
