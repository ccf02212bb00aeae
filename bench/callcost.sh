#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of one traced system call: bench/callcost (lseek + read of 4 KiB on
# tmpfs in a tight loop) untraced, under dio in raw and detailed mode, and under
# strace. The workload runs on CPU 0 and dio's consumer on CPU 1, rounds
# alternate between the setups, and each cell is the best of its rounds: far
# steadier than fio's IOPS for comparing two builds of the probes.
#
# With -b OTHER, another build of dio (its tree's dio) runs detailed too, in
# the same alternating rounds: how much a change to the probes costs.
#
# usage: sudo bench/callcost.sh [-r ROUNDS] [-x] [-b OTHER_DIO] [DIO]   (-x: leave strace out)
set -euo pipefail

rounds=3 with_strace=1 other=
while getopts "r:xb:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	x) with_strace=0 ;;
	b) other=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-x] [-b OTHER_DIO] [DIO]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=${1:-./dio}
here=$(cd "$(dirname "$0")" && pwd)
prog=$here/callcost

[ "$(id -u)" -eq 0 ] || { echo "callcost.sh: run as root (dio needs BPF)" >&2; exit 1; }
[ -x "$dio" ] || { echo "callcost.sh: $dio not found: build dio first or pass its path" >&2; exit 1; }
[ -x "$prog" ] || { echo "callcost.sh: $prog not found: run make first" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "callcost.sh: needs 2 CPUs (workload and consumer apart)" >&2; exit 1; }
[ "$with_strace" = 0 ] || command -v strace >/dev/null ||
	{ echo "callcost.sh: install strace or pass -x" >&2; exit 1; }

file=/dev/shm/dio-callcost.$$
run() { "$@" taskset -c 0 "$prog" "$file" 20 100000; }
# strace is ~500 times slower: fewer, shorter rounds keep it to seconds
run_short() { "$@" taskset -c 0 "$prog" "$file" 2 5000; }
best() { [ -z "$1" ] && echo "$2" || echo "$1 $2" | awk '{ print ($1 < $2) ? $1 : $2 }'; }

[ -z "$other" ] || [ -x "$other" ] || { echo "callcost.sh: -b $other: not an executable" >&2; exit 1; }
setups=(vanilla raw detailed)
[ -n "$other" ] && setups+=(other)
[ "$with_strace" = 1 ] && setups+=(strace)
declare -A ns
for ((i = 0; i < rounds; i++)); do
	for s in "${setups[@]}"; do
		case $s in
		vanilla) t=$(run) ;;
		raw) t=$(run taskset -c 1 "$dio" trace -q --no-summary --mode raw --) ;;
		detailed) t=$(run taskset -c 1 "$dio" trace -q --no-summary --) ;;
		other) t=$(run taskset -c 1 "$other" trace -q --no-summary --) ;;
		strace) t=$(run_short taskset -c 1 strace -f -o /dev/null) ;;
		esac
		ns[$s]=$(best "${ns[$s]:-}" "$t")
	done
done

printf '%-10s %12s %14s\n' setup "ns/call" "added ns/call"
for s in "${setups[@]}"; do
	printf '%-10s %12.1f %14.1f\n' "$s" "${ns[$s]}" "$(echo "${ns[$s]} - ${ns[vanilla]}" | bc -l)"
done
printf '\nreproduce: sudo %s -r %s%s%s %s\n' "$0" "$rounds" "$([ "$with_strace" = 0 ] && echo ' -x')" \
	"${other:+ -b $other}" "$dio"
