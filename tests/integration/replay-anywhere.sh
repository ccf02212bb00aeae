#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every output of a replayed trace depends on the trace alone, not on the
# machine that replays it. Each trace is replayed in three made-up machines:
#   A  booted 20 s ago (a time namespace sets its CLOCK_MONOTONIC below every
#      time in the trace), host name "fresh", TZ=UTC, LC_ALL=C, every CPU;
#   B  up for 12 days, host name "long-running-host", TZ=UTC, LC_ALL=C.UTF-8,
#      one CPU;
#   C  as B, in TZ=Asia/Kolkata (UTC+5:30).
# dump (text and json), info, diff and analyze with every analyzer into the
# console, json, sarif, junit and html sinks must give the same bytes in A (run
# twice, a second apart) and B; the files (json, sarif, junit, html) also in C:
# only the console's times of day may follow the local time zone, as strace's
# -t does. The fixture tests/fixtures/v1.dio needs no BPF; a recording of the
# demo and errstorm workloads made here does (skipped without root and BTF).
. "$top_srcdir/tests/integration/lib.sh"
fx=$(cd "$top_srcdir/tests/fixtures" && pwd)
DIO=$(cd "$(dirname "$DIO")" && pwd)/$(basename "$DIO")
fail=0

if ! unshare --time --uts --fork true 2> /dev/null; then
	echo "SKIP: cannot make a time and UTS namespace (unshare --time --uts needs root and" \
		"CONFIG_TIME_NS)"
	exit 77
fi
up=$(cut -d. -f1 /proc/uptime)

# env NAME CMD ARGS...: CMD in the made-up machine NAME
env_run() {
	name=$1
	shift
	case $name in
	A) unshare --time --monotonic=$((20 - up)) --boottime=$((20 - up)) --uts --fork \
		sh -c 'hostname fresh && TZ=UTC LC_ALL=C exec "$@"' sh "$@" ;;
	B) unshare --time --monotonic=1000000 --boottime=1000000 --uts --fork \
		sh -c 'hostname long-running-host && TZ=UTC LC_ALL=C.UTF-8 exec taskset -c 0 "$@"' \
		sh "$@" ;;
	C) unshare --time --monotonic=1000000 --boottime=1000000 --uts --fork \
		sh -c 'hostname long-running-host && TZ=Asia/Kolkata LC_ALL=C.UTF-8 exec taskset -c 0 "$@"' \
		sh "$@" ;;
	esac
}

# the clock in A really is below the trace's times, as on a machine just booted
a_up=$(env_run A cut -d. -f1 /proc/uptime)
[ "$a_up" -lt 60 ] || { echo "FAIL: the time namespace did not set the uptime (it is $a_up s)"; exit 1; }

# sh -c "$OUTPUTS" sh TRACE DIR NAME: every output of a replay of TRACE into DIR/NAME
# (in a directory of the same name each time, as the command lines are in the reports)
OUTPUTS='mkdir -p "$2/out" && cd "$2/out" || exit 1
"$DIO" dump "$1" > dump.txt 2>&1
"$DIO" dump "$1" --format json > dump.json 2>&1
"$DIO" info "$1" > info.txt 2>&1
"$DIO" diff "$1" "$1" > diff.txt 2>&1
"$DIO" analyze "$1" --analyzer all --sink console --sink json:file=a.json \
	--sink json:file=b.json --sink sarif:file=a.sarif --sink junit:file=a.xml > analyze.txt 2>&1
"$DIO" report "$1" -o report.html > report.txt 2>&1
cd .. && mv out "$3"'
export DIO

# same TRACE WHAT A B FILES...: the FILES of two replays are equal
same() {
	for f in $5; do
		cmp -s "$3/$f" "$4/$f" && continue
		echo "FAIL: $1: $f differs between machine $2:"
		diff "$3/$f" "$4/$f" | cut -c1-300 | head -8
		fail=1
	done
}

ALL="dump.txt dump.json info.txt diff.txt analyze.txt a.json b.json a.sarif a.xml report.html
	report.txt"
FILES="dump.json a.json b.json a.sarif a.xml report.html"

check() {
	for e in A B C; do
		env_run $e sh -c "$OUTPUTS" sh "$2" "$TMP" "$1.$e"
	done
	sleep 1
	env_run A sh -c "$OUTPUTS" sh "$2" "$TMP" "$1.A2"
	same "$1" "A run twice" "$TMP/$1.A" "$TMP/$1.A2" "$ALL"
	same "$1" "A and B" "$TMP/$1.A" "$TMP/$1.B" "$ALL"
	same "$1" "B and C" "$TMP/$1.B" "$TMP/$1.C" "$FILES"
	cmp -s "$TMP/$1.A/a.json" "$TMP/$1.A/b.json" ||
		{ echo "FAIL: $1: two json sinks of one replay differ"; fail=1; }
	# rel_ns counts from the trace's first record
	first=$(head -n 1 "$TMP/$1.A/dump.json" | jq -r .rel_ns)
	[ "$first" = 0 ] || { echo "FAIL: $1: the first record's rel_ns is $first, not 0"; fail=1; }
}

check v1 "$fx/v1.dio"

if [ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	need_root_bpf
	mkdir "$TMP/wd"
	"$DIO" record -q -o "$TMP/run.dio" -- sh -c "'$WL/demo' '$TMP/wd' && '$WL/errstorm' storm '$TMP/wd'" \
		> "$TMP/rec.out" 2>&1 || { echo "FAIL: dio record exited with $?:"; cat "$TMP/rec.out"; exit 1; }
	check run "$TMP/run.dio"
	grep -q '"type":"finding"' "$TMP/run.A/a.json" ||
		{ echo "FAIL: the recording gave no finding to compare"; fail=1; }
else
	echo "the recording part needs root and BTF: only the fixture was replayed"
fi
[ $fail -eq 0 ] && echo "ok: every output the same in every machine"
exit $fail
