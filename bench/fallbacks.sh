#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the fallbacks for older kernels cost, measured on this kernel by forcing
# them (DIO_DISABLE_FEATURES): ns per traced call of bench/callcost (lseek +
# read of 4 KiB on tmpfs, workload on CPU 0, dio on CPU 1) with direct field
# loads and with bpf_probe_read_kernel per field (field-loads, what 6.1 gets),
# and µs per short-lived process (fork, exec of /bin/true, exit) with
# sched_process_exit's group_dead argument and with the live-thread count
# (exit-group, what 6.1 and 6.12 get). Rounds alternate between the setups;
# each cell is the best of its rounds.
#
# usage: sudo bench/fallbacks.sh [-r ROUNDS] [DIO]
set -euo pipefail

rounds=5
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
need_two_cpus

file=/dev/shm/dio-fallbacks.$$
trap 'rm -f "$file"' EXIT
calls() { "$@" taskset -c 0 "$prog" "$file" 20 100000; }
# µs per process: 500 fork+exec+exit of /bin/true from one shell
spawn() {
	"$@" taskset -c 0 bash -c 's=$(date +%s%N); for ((i = 0; i < 500; i++)); do /bin/true; done;
		echo $((($(date +%s%N) - s) / 500000))'
}

setups=(vanilla native field-loads exit-group)
declare -A ns us
for ((i = 0; i < rounds; i++)); do
	for s in "${setups[@]}"; do
		if [ "$s" = vanilla ]; then
			t=$(calls) u=$(spawn)
		else
			# native: nothing turned off; else the feature named by the setup
			dis=$s
			[ "$s" = native ] && dis=
			t=$(calls env DIO_DISABLE_FEATURES="$dis" taskset -c 1 "$dio" trace -q --no-summary --)
			u=$(spawn env DIO_DISABLE_FEATURES="$dis" taskset -c 1 "$dio" trace -q --no-summary --)
		fi
		ns[$s]=$(best "${ns[$s]:-}" "$t")
		us[$s]=$(best "${us[$s]:-}" "$u")
	done
done

printf 'kernel %s, best of %s alternating rounds\n' "$(uname -r)" "$rounds"
printf '%-12s %10s %12s %14s %14s\n' setup "ns/call" "vs native" "us/process" "vs native"
for s in "${setups[@]}"; do
	printf '%-12s %10.1f %+12.1f %14d %+14d\n' "$s" "${ns[$s]}" \
		"$(echo "${ns[$s]} - ${ns[native]}" | bc -l)" "${us[$s]}" "$((us[$s] - us[native]))"
done
printf '\nreproduce: sudo %s -r %s %s\n' "$0" "$rounds" "$dio"
