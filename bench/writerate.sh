#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The records a second dio record's writer keeps, apart from the probes'
# cost: a recording of a workload is replayed into the trace file writer at
# rising rates (bench/writerate); each line says what was offered, kept and
# dropped, the bytes a record on disk and the writer's CPU time a record.
#
# usage: bench/writerate.sh [-s SECONDS] [-l LEVEL] TRACE [MRATE ...]
#   TRACE: a dio record file (e.g. of fio or bench/callcost); rates in
#   millions of records a second (default 1 2 3 4 6 8)
set -euo pipefail

secs=3 level=1
while getopts "s:l:" opt; do
	case $opt in
	s) secs=$OPTARG ;;
	l) level=$OPTARG ;;
	*) echo "usage: $0 [-s SECONDS] [-l LEVEL] TRACE [MRATE ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-s SECONDS] [-l LEVEL] TRACE [MRATE ...]" >&2; exit 2; }
trace=$1
shift
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(1 2 3 4 6 8)
. "$(dirname "$0")/lib.sh"
wr=$here/writerate
[ -x "$wr" ] || bench_die "$wr not found: run make first"
[ -r "$trace" ] || bench_die "$trace: no such trace file"
out=$(mktemp /tmp/dio-writerate.XXXXXX)
trap 'rm -f "$out"' EXIT

printf '%8s %8s %10s %8s %8s\n' "offered" "kept" "dropped" "B/rec" "ns/rec"
printf '%8s %8s %10s %8s %8s\n' "M/s" "M/s" "" "on disk" "writer"
for r in "${rates[@]}"; do
	"$wr" "$trace" "$out" "$r" "$secs" "$level"
done
printf '\nreproduce: %s -s %s -l %s %s %s\n' "$0" "$secs" "$level" "$trace" "${rates[*]}"
