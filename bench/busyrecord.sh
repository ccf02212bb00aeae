#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record of a program with more runnable threads than CPUs: bench/manyio's
# T threads, each on F files of its own, N calls between them, recorded with
# the default options, for each dio given, in alternating rounds. For each
# dio and thread count the table gives the medians of: the records lost
# (writer drops and ring losses together; the most of any round too) and
# their share of the calls, the
# records the writer wrote below --level (writer_lowered, from dio's that
# say it), the writer's wait for a CPU, and the run's wall time.
#
# usage: sudo bench/busyrecord.sh [-r ROUNDS] [-t THREADS,...] [-f FILES] [-n CALLS]
#                                 [-d DIR] [DIO ...]
#   DIR: where manyio's files and the trace go (default a directory in /dev/shm,
#   so that no disk takes part)
set -euo pipefail

rounds=3 threads_list=32,64 files=4 calls=2000000 dir=/dev/shm
usage="usage: sudo $0 [-r ROUNDS] [-t THREADS,...] [-f FILES] [-n CALLS] [-d DIR] [DIO ...]"
while getopts "r:t:f:n:d:h" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	t) threads_list=$OPTARG ;;
	f) files=$OPTARG ;;
	n) calls=$OPTARG ;;
	d) dir=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- ./dio
. "$(dirname "$0")/lib.sh"
usage_die() { echo "$bench: $*" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage_die "-r $rounds: give a whole number of rounds, 1 or more"
[[ $threads_list =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
	usage_die "-t $threads_list: give thread counts separated by commas, e.g. -t 32,64"
[[ $files =~ ^[1-9][0-9]*$ ]] || usage_die "-f $files: give a whole number of files, 1 or more"
[[ $calls =~ ^[1-9][0-9]*$ ]] || usage_die "-n $calls: give a whole number of calls"
read -r -a threads <<< "${threads_list//,/ }"
need_root
for dio in "$@"; do
	[ -x "$dio" ] || bench_die "$dio not found: build dio first or pass its path"
done
[ -x "$here/manyio" ] || bench_die "$here/manyio not found: run make first"
work=$(mktemp -d "$dir/dio-busyrecord.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/data"

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (!NR) exit 1
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# KEY's value in dio info's output, "-" when the recording does not say it
meta() { awk -F= -v k="$1" '$1 == k { v = $2 } END { print (v == "") ? "-" : v }' "$work/info"; }

for ((r = 1; r <= rounds; r++)); do
	for t in "${threads[@]}"; do
		for ((d = 1; d <= $#; d++)); do
			dio=${!d}
			printf '%s: round %d/%d, %d threads, %s\n' "$bench" "$r" "$rounds" "$t" "$dio" >&2
			rm -f "$work/data/"* "$work/t.dio"
			s0=$(date +%s.%N)
			# exit status 4: the recording is incomplete, which is what is measured
			"$dio" record -q --no-summary -o "$work/t.dio" -- \
				"$here/manyio" "$work/data" "$t" "$files" "$calls" > /dev/null 2> "$work/err" ||
				[ $? -eq 4 ] || { cat "$work/err" >&2; bench_die "$dio record failed"; }
			s1=$(date +%s.%N)
			"$dio" info "$work/t.dio" > "$work/info" 2>&1
			lost=$(awk -F= '$1 == "dropped_records" || $1 == "lost_ringbuf" { n += $2 }
				END { print n + 0 }' "$work/info")
			key=$d.$t
			echo "$lost" >> "$work/lost.$key"
			# a round that lost records says where: the rings (the reader fell
			# behind) or the writer (its blocks were all taken)
			[ "$lost" = 0 ] || printf '%s: round %d, %d threads, %s: %s lost (ring %s, writer %s)\n' \
				"$bench" "$r" "$t" "$dio" "$lost" "$(meta lost_ringbuf)" \
				"$(meta dropped_records)" >&2
			meta writer_lowered >> "$work/lowered.$key"
			meta writer_runq_ms >> "$work/runq.$key"
			echo "$s1 - $s0" | bc -l >> "$work/secs.$key"
		done
	done
done

printf '\n| dio | threads | records lost (most in a round) | share of the calls | written below --level | writer waiting for a CPU, ms | seconds |\n'
printf '|---|---|---|---|---|---|---|\n'
for ((d = 1; d <= $#; d++)); do
	for t in "${threads[@]}"; do
		key=$d.$t
		lost=$(median < "$work/lost.$key")
		lowered=-
		grep -qv -- - "$work/lowered.$key" && lowered=$(grep -v -- - "$work/lowered.$key" | median)
		most=$(sort -n "$work/lost.$key" | tail -1)
		printf '| %s | %s | %s (%s) | %.1f %% | %s | %s | %.2f |\n' "${!d}" "$t" "$lost" "$most" \
			"$(echo "100 * $lost / $calls" | bc -l)" "$lowered" \
			"$(median < "$work/runq.$key")" "$(median < "$work/secs.$key")"
	done
done
printf '\nbench/manyio, %s calls, %s files a thread, on %s; %s alternating round(s), medians; %s CPUs\n' \
	"$calls" "$files" "$dir" "$rounds" "$(nproc)"
printf 'reproduce: sudo %s -r %s -t %s -f %s -n %s -d %s %s\n' "$0" "$rounds" "$threads_list" \
	"$files" "$calls" "$dir" "$*"
