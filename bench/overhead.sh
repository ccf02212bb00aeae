#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Overhead of tracing a syscall-heavy workload: fio 4 KiB random read/write,
# sync engine, on tmpfs, with 1 and 2 jobs. Each round runs vanilla fio and
# then fio under every configuration, so drift on the machine hits all alike;
# the table gives each configuration's median IOPS as a ratio to vanilla's.
#
# Rows (names for -o and -x):
#   floor     dio --bench-floor: dio's programs attached, each returning at once
#   bt-empty  bpftrace, empty programs on the raw syscall tracepoints
#   bt-count  bpftrace, per-tid counts in the kernel, fio's processes only
#   bt-hist   bpftrace, every call of fio's processes timed into an in-kernel histogram
#   bt-print  bpftrace, one line per call of fio's processes, to a file
#   perf      perf trace of the storage calls fio makes, to a file
#   raw       dio trace --mode raw -q
#   detailed  dio trace -q
#   console   dio trace, every call printed to a file (-c FILE)
#   record    dio record, with the records dropped (median of the rounds)
#   top       dio top -b, counting in kernel maps, a frame a second to /dev/null
#   strace    strace -f, 1 job only and 2 s at most (it is ~100 times slower)
set -euo pipefail

ALL_ROWS="floor bt-empty bt-count bt-hist bt-print raw detailed console record top perf strace"
usage="usage: sudo $0 [-r ROUNDS] [-s SECONDS] [-j JOBS,...] [-o ROWS] [-x ROWS] [-c FILE] [DIO]
  -r ROUNDS   alternating rounds (default 3)
  -s SECONDS  length of each fio run (default 5)
  -j JOBS     fio job counts, one column each (default 1,2)
  -o ROWS     only these rows, comma-separated: ${ALL_ROWS// /,}
  -x ROWS     leave these rows out
  -c FILE     where the console row prints the calls (default: a file in a
              temporary directory); a regular file is removed after each run
  DIO         the dio binary (default ./dio, the build tree)"
rounds=3 secs=5 jobs_list=1,2 only= without= console_file=
while getopts "r:s:j:o:x:c:h" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	s) secs=$OPTARG ;;
	j) jobs_list=$OPTARG ;;
	o) only=$OPTARG ;;
	x) without=$OPTARG ;;
	c) console_file=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=${1:-./dio}
. "$(dirname "$0")/lib.sh"

usage_die() { echo "$bench: $*" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage_die "-r $rounds: give a whole number of rounds, 1 or more"
[[ $secs =~ ^[1-9][0-9]*$ ]] || usage_die "-s $secs: give a whole number of seconds, 1 or more"
[[ $jobs_list =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
	usage_die "-j $jobs_list: give job counts separated by commas, e.g. -j 1,2"
for name in ${only//,/ } ${without//,/ }; do
	[[ " $ALL_ROWS " == *" $name "* ]] ||
		usage_die "unknown row '$name': the rows are ${ALL_ROWS// /,}"
done
rows=
for name in $ALL_ROWS; do
	[ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || continue
	[[ ",$without," == *",$name,"* ]] && continue
	rows="$rows $name"
done
read -r -a jobs <<< "${jobs_list//,/ }"

need_root
command -v fio >/dev/null || bench_die "install fio (apt-get install fio)"
need_dio
if [[ $rows == *bt-* ]] && ! command -v bpftrace >/dev/null; then
	bench_die "install bpftrace (apt-get install bpftrace), or leave its rows out with -x bt-empty,bt-count,bt-hist,bt-print"
fi
if [[ " $rows " == *" perf "* ]] && ! command -v perf >/dev/null; then
	bench_die "install perf (apt-get install linux-perf), or leave its row out with -x perf"
fi
if [[ $rows == *strace* ]] && ! command -v strace >/dev/null; then
	bench_die "install strace (apt-get install strace), or leave its row out with -x strace"
fi

file=/dev/shm/dio-bench.$$
tmp=$(mktemp -d)
trap 'rm -rf "$file" "$tmp"' EXIT
[ -n "$console_file" ] || console_file=$tmp/console.out

# fio.sh JOBS SECONDS OUT: the workload, as one command (bpftrace -c takes no
# shell quoting); it ends in exec, so the command's pid is fio's own
cat > "$tmp/fio.sh" <<EOF
#!/bin/sh
exec fio --name=bench --filename=$file --size=256M --rw=randrw --bs=4k --ioengine=sync \\
	--numjobs="\$1" --group_reporting --time_based --runtime="\$2" --minimal --output="\$3"
EOF
chmod +x "$tmp/fio.sh"

# read + write IOPS from fio's terse output (fields 8 and 49)
iops() { awk -F';' 'NF > 49 { printf "%d\n", $8 + $49; exit }' "$1"; }

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (!NR) exit 1
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# records dio record lost: the writer's drops and the ring's
rec_dropped() {
	"$dio" info "$1" | awk -F= '$1 == "dropped_records" || $1 == "lost_ringbuf" { n += $2 }
		END { print n + 0 }'
}

bt_empty='tracepoint:raw_syscalls:sys_enter,tracepoint:raw_syscalls:sys_exit {}'
# fio's own process (cpid: fio.sh execs it) and the job processes it forks
bt_count='tracepoint:raw_syscalls:sys_enter,tracepoint:raw_syscalls:sys_exit
	/pid == cpid || curtask->real_parent->tgid == cpid/ { @[tid] = count(); }'

# the time of every call, as a tool that measures latency does it
bt_hist='tracepoint:raw_syscalls:sys_enter /pid == cpid || curtask->real_parent->tgid == cpid/ {
		@s[tid] = nsecs; }
	tracepoint:raw_syscalls:sys_exit /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }'
# a line per call, as a tracer that prints does
bt_print='tracepoint:raw_syscalls:sys_exit /pid == cpid || curtask->real_parent->tgid == cpid/ {
		printf("%d %s %d %d\n", tid, comm, args->id, args->ret); }'
# the calls fio's sync engine makes on its file
perf_calls=read,write,pread64,pwrite64,lseek,openat,close,fsync,fdatasync

# run ROW JOBS OUT: fio under ROW, its terse output in OUT; prints nothing
run() {
	local row=$1 j=$2 out=$3 s=$secs wl=("$tmp/fio.sh" "$2" "$secs" "$3")

	case $row in
	vanilla) "${wl[@]}" ;;
	floor) "$dio" trace --bench-floor -q --no-summary -- "${wl[@]}" 2>"$tmp/err" ;;
	# bpftrace -c runs ELF files only: the script through sh
	bt-empty) bpftrace -e "$bt_empty" -c "/bin/sh ${wl[*]}" >"$tmp/bt" 2>&1 ;;
	bt-count) bpftrace -e "$bt_count" -c "/bin/sh ${wl[*]}" >"$tmp/bt" 2>&1 ;;
	bt-hist) bpftrace -e "$bt_hist" -c "/bin/sh ${wl[*]}" >"$tmp/bt" 2>&1 ;;
	bt-print)
		bpftrace -o "$tmp/bt.lines" -e "$bt_print" -c "/bin/sh ${wl[*]}" >"$tmp/bt" 2>&1
		rm -f "$tmp/bt.lines" ;;
	raw) "$dio" trace --mode raw -q -- "${wl[@]}" 2>"$tmp/err" ;;
	detailed) "$dio" trace -q -- "${wl[@]}" 2>"$tmp/err" ;;
	console)
		"$dio" trace -o "$console_file" -- "${wl[@]}" 2>"$tmp/err"
		# a regular file only: -c /dev/null must stay
		if [ -f "$console_file" ]; then rm -f "$console_file"; fi ;;
	record)
		"$dio" record -o "$tmp/r.dio" -- "${wl[@]}" 2>"$tmp/err"
		rec_dropped "$tmp/r.dio" >>"$tmp/dropped.$j"
		rm -f "$tmp/r.dio"* ;;
	top) "$dio" top -b -d 1 -- "${wl[@]}" >/dev/null 2>"$tmp/err" ;;
	perf)
		perf trace -e "$perf_calls" -o "$tmp/perf.out" -- "${wl[@]}" 2>"$tmp/err"
		rm -f "$tmp/perf.out" ;;
	strace)
		[ "$s" -le 2 ] || s=2
		strace -f -o /dev/null "$tmp/fio.sh" "$j" "$s" "$out" ;;
	esac
}

# strace: one job only
wanted() { [ "$1" != strace ] || [ "$2" = 1 ]; }

"$tmp/fio.sh" 1 2 /dev/null	# lay the file out, warm the page cache

for ((r = 1; r <= rounds; r++)); do
	for j in "${jobs[@]}"; do
		for row in vanilla $rows; do
			wanted "$row" "$j" || continue
			printf '%s: round %d/%d, %d job(s), %s\n' "$bench" "$r" "$rounds" "$j" "$row" >&2
			if ! run "$row" "$j" "$tmp/out" || ! n=$(iops "$tmp/out") || [ -z "$n" ]; then
				echo "$bench: $row with $j job(s) gave no fio result; its output:" >&2
				cat "$tmp/err" "$tmp/bt" 2>/dev/null | tail -5 >&2
				exit 1
			fi
			echo "$n" >>"$tmp/iops.$row.$j"
			rm -f "$tmp/out"
		done
	done
done

label() {
	case $1 in
	vanilla) echo "vanilla fio, median IOPS" ;;
	floor) echo "dio --bench-floor: dio's programs, returning at once" ;;
	bt-empty) echo "bpftrace, empty programs on the raw syscall tracepoints" ;;
	bt-count) echo "bpftrace, per-tid counts in the kernel" ;;
	bt-hist) echo "bpftrace, every call timed into an in-kernel histogram" ;;
	bt-print) echo "bpftrace, one line per call (to a file)" ;;
	perf) echo "perf trace of the storage calls (to a file)" ;;
	raw) echo "dio --mode raw -q" ;;
	detailed) echo "dio detailed -q" ;;
	console) echo "dio detailed, console printed to a file" ;;
	record) echo "dio record (records dropped)" ;;
	top) echo "dio top -b (counts in kernel maps)" ;;
	strace) echo "strace -f" ;;
	esac
}

printf '\n| configuration |'
for j in "${jobs[@]}"; do printf ' %s job%s |' "$j" "$([ "$j" = 1 ] || echo s)"; done
printf '\n|---|'
for j in "${jobs[@]}"; do printf -- '---|'; done
printf '\n'
for row in vanilla $rows; do
	printf '| %s |' "$(label "$row")"
	for j in "${jobs[@]}"; do
		if ! wanted "$row" "$j"; then
			printf '  |'
			continue
		fi
		m=$(median <"$tmp/iops.$row.$j")
		if [ "$row" = vanilla ]; then
			printf ' %s |' "$m"
			continue
		fi
		v=$(median <"$tmp/iops.vanilla.$j")
		printf ' %.3f' "$(echo "$m / $v" | bc -l)"
		[ "$row" != record ] || printf ' (%s dropped)' "$(median <"$tmp/dropped.$j")"
		printf ' |'
	done
	printf '\n'
done
printf '\n%s %s, %d alternating round(s) of %d s, median IOPS as a ratio to vanilla\n' \
	"fio 4 KiB randrw, sync engine, tmpfs;" "dio: $dio" "$rounds" "$secs"
repro="sudo $0 -r $rounds -s $secs -j $jobs_list"
[ -z "$only" ] || repro="$repro -o $only"
[ -z "$without" ] || repro="$repro -x $without"
printf 'reproduce: %s %s\n' "$repro" "$dio"
