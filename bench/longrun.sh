#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What dio's host keeps over a long dio trace -a: bench/shortprocs starts
# RATE short processes a second for SECONDS, each making FILES new files and
# a thread that reads them (every file a new tag, every process a new pid
# and two new tids), while each dio given traces the whole machine. Every
# INTERVAL seconds the dio's resident memory is sampled; at the end its peak
# (VmHWM) and what its exit warnings and --stats say it forgot or swept.
#
# Modes (-m, any of):
#   trace   dio trace -a -q -o /dev/null            (the summary on, as a user runs it)
#   record  dio record -a -o DIR/r.dio --max-size 8M --rotate 2  (a part every minute or so)
#   all     dio trace -a -q -o /dev/null --analyzer all --report DIR/page.html
#   renamed dio trace -a -q -o /dev/null --comm shortprocs --analyzer redundant-open,
#           the processes renaming themselves before they exit: dio never sees
#           their exits (the table of open files it follows for that analyzer)
#   top     dio top -a -b -S -d 5 > /dev/null      (rows of every thread and process)
#
# usage: sudo bench/longrun.sh [-d SECONDS] [-r RATE] [-f FILES] [-i INTERVAL] [-m MODES]
#                              DIO [DIO ...]
#   e.g. sudo bench/longrun.sh -d 150 -m "trace record" /path/to/old/dio ./dio
set -euo pipefail

secs=120 rate=110 files=20 every=10 modes="trace record"
usage() {
	echo "usage: $0 [-d SECONDS] [-r RATE] [-f FILES] [-i INTERVAL] [-m MODES] DIO [DIO ...]" >&2
	exit 2
}
while getopts "d:r:f:i:m:" opt; do
	case $opt in
	d) secs=$OPTARG ;;
	r) rate=$OPTARG ;;
	f) files=$OPTARG ;;
	i) every=$OPTARG ;;
	m) modes=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
. "$(dirname "$0")/lib.sh"
need_root
workload=$here/shortprocs
[ -x "$workload" ] || bench_die "$workload not found: run make first"
for m in $modes; do
	case $m in
	trace|record|all|renamed|top) ;;
	*) bench_die "-m: no mode '$m' (trace, record, all, renamed, top)" ;;
	esac
done
work=$(mktemp -d /var/tmp/dio-bench-longrun.XXXXXX)
files_dir=$(mktemp -d /dev/shm/dio-bench-longrun.XXXXXX)
dio_pid=
trap '[ -z "$dio_pid" ] || kill -INT "$dio_pid" 2> /dev/null; rm -rf "$work" "$files_dir"' EXIT
# one dio at a time on this machine: the integration tests take the same lock, per session
exec 8> /tmp/dio-integration.lock

# what --stats says the host's tables forgot, added up or swept
counts="paths_evicted part_paths_evicted ofd_procs_evicted ofd_procs_swept top_rows_folded"
rss_mb() { awk -v k="$1:" '$1 == k { printf "%d", $2 / 1024 }' "/proc/$2/status"; }

# run MODE DIO: one session; prints "t rss" lines, then "peak", "procs" and what it forgot
run() {
	local mode=$1 dio=$2 t=0 wl renamed=
	local -a args
	case $mode in
	trace) args=(trace -a -q -o /dev/null) ;;
	record) args=(record -a -o "$work/r.dio" --max-size 8M --rotate 2) ;;
	all) args=(trace -a -q -o /dev/null --analyzer all --report "$work/page.html") ;;
	renamed) args=(trace -a -q -o /dev/null --comm shortprocs --analyzer redundant-open)
		renamed=1 ;;
	top) args=(top -a -b -S -d 5) ;;
	esac
	flock 8
	"$dio" "${args[@]}" --stats > /dev/null 2> "$work/err" &
	dio_pid=$!
	# attached when its programs run: a second or two
	sleep 3
	kill -0 "$dio_pid" 2> /dev/null || bench_die "$dio ${args[*]} failed: $(cat "$work/err")"
	"$workload" "$files_dir" "$secs" "$rate" "$files" ${renamed:+renamed} > "$work/wl" &
	wl=$!
	while kill -0 "$wl" 2> /dev/null; do
		sleep "$every"
		t=$((t + every))
		echo "$t $(rss_mb VmRSS "$dio_pid")"
	done
	wait "$wl" || bench_die "the workload failed: $(cat "$work/wl")"
	echo "peak $(rss_mb VmHWM "$dio_pid")"
	kill -INT "$dio_pid"
	wait "$dio_pid" || true
	flock -u 8
	dio_pid=
	echo "procs $(awk '{ print $1 }' "$work/wl")"
	for key in $counts; do
		echo "$key $(awk -v k="$key" '$1 == "dropped" && $2 == k { print $3 }' "$work/err")"
	done
	rm -f "$work"/r.dio*
}

for mode in $modes; do
	declare -A col=()
	names=()
	for dio in "$@"; do
		dio=$(realpath "$dio")
		need_dio
		name="$(basename "$(dirname "$dio")")/dio"
		names+=("$name")
		while read -r k v; do
			col[$name.$k]=$v
		done < <(run "$mode" "$dio")
	done
	printf '\n%s: RSS in MB every %s s, %s short processes a second, %s new files each\n' \
		"$mode" "$every" "$rate" "$files"
	printf '%-22s' "seconds"
	for n in "${names[@]}"; do printf ' %18s' "$n"; done
	echo
	for ((t = every; t <= secs + every; t += every)); do
		[ -n "${col[${names[0]}.$t]:-}" ] || continue
		printf '%-22s' "$t"
		for n in "${names[@]}"; do printf ' %18s' "${col[$n.$t]:--}"; done
		echo
	done
	for k in peak procs $counts; do
		printf '%-22s' "$k"
		for n in "${names[@]}"; do printf ' %18s' "${col[$n.$k]:--}"; done
		echo
	done
	unset col
done
printf '\nreproduce: sudo %s -d %s -r %s -f %s -i %s -m "%s" %s\n' "$0" "$secs" "$rate" "$files" \
	"$every" "$modes" "$*"
