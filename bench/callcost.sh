#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of one traced system call: bench/callcost (lseek + read of 4 KiB on
# tmpfs in a tight loop) untraced, under dio in raw and detailed mode, and under
# strace. The workload runs on CPU 0 and dio's consumer on CPU 1, rounds
# alternate between the setups, and each cell is the best of its rounds: far
# steadier than fio's IOPS for comparing two builds of the probes.
#
# With -b OTHER, another build of dio (its tree's dio) runs detailed too, in
# the same alternating rounds: how much a change to the probes costs. With
# -c 'ARGS', the detailed runs are dio ARGS instead of dio trace -q
# --no-summary (e.g. -c 'record -o /dev/shm/x.dio --max-size 1G'), and the
# consumer thread's CPU time per record (--stats) is printed too: how much a
# change to what the host does per record costs.
#
# usage: sudo bench/callcost.sh [-r ROUNDS] [-x] [-b OTHER_DIO] [-c 'ARGS'] [DIO]
#        (-x: leave strace out)
set -euo pipefail

rounds=3 with_strace=1 other= args="trace -q --no-summary"
while getopts "r:xb:c:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	x) with_strace=0 ;;
	b) other=$OPTARG ;;
	c) args=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-x] [-b OTHER_DIO] [-c 'ARGS'] [DIO]" >&2; exit 2 ;;
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
stats=/dev/shm/dio-callcost-stats.$$
trap 'rm -f "$stats"' EXIT
run() { "$@" taskset -c 0 "$prog" "$file" 20 100000; }
# the consumer thread's CPU ns per record in the --stats of the last run
consumer() { awk '$1 == "consumer" { print $4 }' "$stats"; }
# strace is ~500 times slower: fewer, shorter rounds keep it to seconds
run_short() { "$@" taskset -c 0 "$prog" "$file" 2 5000; }

[ -z "$other" ] || [ -x "$other" ] || bench_die "-b $other: not an executable"
setups=(vanilla raw detailed)
[ -n "$other" ] && setups+=(other)
[ "$with_strace" = 1 ] && setups+=(strace)
declare -A ns cons
for ((i = 0; i < rounds; i++)); do
	for s in "${setups[@]}"; do
		# $args unquoted: the words of -c
		# shellcheck disable=SC2086
		case $s in
		vanilla) t=$(run) ;;
		raw) t=$(run taskset -c 1 "$dio" trace -q --no-summary --mode raw --) ;;
		detailed) t=$(run taskset -c 1 "$dio" $args --stats -- 2> "$stats") ;;
		other) t=$(run taskset -c 1 "$other" $args --stats -- 2> "$stats") ;;
		strace) t=$(run_short taskset -c 1 strace -f -o /dev/null) ;;
		esac
		ns[$s]=$(best "${ns[$s]:-}" "$t")
		case $s in detailed|other) cons[$s]=$(best "${cons[$s]:-}" "$(consumer)") ;; esac
	done
done

printf 'dio %s\n%-10s %12s %14s %16s\n' "$args" setup "ns/call" "added ns/call" \
	"consumer ns/rec"
for s in "${setups[@]}"; do
	printf '%-10s %12.1f %14.1f %16s\n' "$s" "${ns[$s]}" \
		"$(echo "${ns[$s]} - ${ns[vanilla]}" | bc -l)" "${cons[$s]:--}"
done
printf "\nreproduce: sudo %s -r %s%s%s -c '%s' %s\n" "$0" "$rounds" \
	"$([ "$with_strace" = 0 ] && echo ' -x')" "${other:+ -b $other}" "$args" "$dio"
