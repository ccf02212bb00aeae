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
. "$(dirname "$0")/lib.sh"
need_root
need_dio
need_callcost
need_two_cpus
[ "$with_strace" = 0 ] || command -v strace >/dev/null || bench_die "install strace or pass -x"

file=/dev/shm/dio-callcost.$$
run() { "$@" taskset -c 0 "$prog" "$file" 20 100000; }
# strace is ~500 times slower: fewer, shorter rounds keep it to seconds
run_short() { "$@" taskset -c 0 "$prog" "$file" 2 5000; }

[ -z "$other" ] || [ -x "$other" ] || bench_die "-b $other: not an executable"
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
