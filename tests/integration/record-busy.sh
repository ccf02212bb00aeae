#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record keeps every call of a program with many more runnable threads
# than CPUs (bench/manyio: 32, then 64 threads, each on 4 files of its own),
# with the default options: the recording holds exactly the calls manyio
# makes and dropped none; --stats says the ring reader and the writer ran
# with raised weight, and how many records the writer wrote below --level,
# the same count the trace file's metadata keeps. Whether the writer had to
# lower its level depends on this machine's speed: the count is checked
# against the file, not against a figure. The scheduler shares the CPUs with
# whatever else runs: a thread count gets a second run when the first lost
# records (main loses about 60 % of them, every run).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mio=$top_builddir/bench/manyio
[ -x "$mio" ] || { echo "FAIL: $mio was not built"; exit 1; }
fail=0
CALLS=1000000
FILES=4

# col FILE LABEL: the count column of the --stats row LABEL ("  %-28s %12s ...")
col() {
	awk -v l="$2" 'substr($0, 1, 2) == "  " {
			name = substr($0, 3, 28); sub(/ +$/, "", name)
			if (name == l) { v = substr($0, 32, 12); gsub(/ /, "", v); print v; exit }
		}' "$1"
}
# the note of the --stats row LABEL
note() { awk -v l="$2" 'substr($0, 1, 2) == "  " && substr($0, 3, 28) ~ "^" l " *$" {
		print substr($0, 70); exit }' "$1"; }

# busy THREADS: record manyio and check; 0 when all holds
busy() {
	threads=$1 fail=0
	rm -rf "$TMP/data" "$TMP/busy.dio"
	mkdir "$TMP/data"
	DIO_TIMEOUT=120 run_dio record --no-summary --stats -o "$TMP/busy.dio" -- \
		"$mio" "$TMP/data" $threads $FILES $CALLS > /dev/null 2> "$TMP/err"
	# 4 would say the recording is incomplete: only a block request the kernel
	# never completed in dio's sight may make it so here (checked below)
	if [ "$RC" -ne 0 ] && [ "$RC" -ne 4 ]; then
		echo "FAIL: $threads threads: dio record exited with $RC:"; cat "$TMP/err"; return 1
	fi
	"$DIO" info "$TMP/busy.dio" > "$TMP/info" 2>&1
	for key in dropped_records lost_ringbuf lost_inflight lost_other; do
		grep -qx "$key=0" "$TMP/info" ||
			{ echo "FAIL: $threads threads: the recording says $(grep "^$key=" "$TMP/info")"; fail=1; }
	done
	for row in "dropped dropped_records" "dropped lost_ringbuf"; do
		[ -z "$(col "$TMP/err" "$row")" ] ||
			{ echo "FAIL: $threads threads: --stats has a row '$row'"; sed -n '/--stats/,$p' "$TMP/err"; fail=1; }
	done

	# every call manyio makes: per thread CALLS/threads/2 pwrite64 and as many
	# pread64, an fdatasync every 512 of those pairs, and open and close of its files
	per=$((CALLS / threads))
	pairs=$(((per + 1) / 2))
	syncs=$(((per + 1) / 1024))
	"$DIO" analyze "$TMP/busy.dio" --path "$TMP/data" > "$TMP/sum" 2> "$TMP/err2" ||
		{ echo "FAIL: dio analyze exited with $?:"; cat "$TMP/err2"; fail=1; }
	for want in "pwrite64 $((pairs * threads))" "pread64 $((pairs * threads))" \
		"fdatasync $((syncs * threads))" "openat $((FILES * threads))" "close $((FILES * threads))"; do
		call=${want% *}
		n=$(awk -v c="$call" '$NF == c && $5 ~ /^[0-9]+$/ { print $5; exit }' "$TMP/sum")
		[ "$n" = "${want#* }" ] ||
			{ echo "FAIL: $threads threads: $n $call calls recorded, manyio made ${want#* }:"; cat "$TMP/sum"; fail=1; }
	done

	# the weight dio gave its threads (as root it may lower a nice value)
	sched=$(note "$TMP/err" scheduling)
	[ "$sched" = "consumer at nice -20, writer at nice -20" ] ||
		{ echo "FAIL: $threads threads: --stats scheduling says '$sched'"; sed -n '/--stats/,$p' "$TMP/err"; fail=1; }
	# what the writer's pace did: --stats and the metadata agree
	lowered=$(col "$TMP/err" "writer below --level")
	meta=$(sed -n 's/^writer_lowered=//p' "$TMP/info")
	lowest=$(sed -n 's/^writer_lowest_level=//p' "$TMP/info")
	pace=$(note "$TMP/err" "writer below --level")
	[ -n "$lowered" ] && [ "$lowered" = "$meta" ] ||
		{ echo "FAIL: $threads threads: --stats says $lowered records below --level, the file $meta"; fail=1; }
	case $lowered:$lowest in
	0:1) want="records written below the level asked for: none, it kept up" ;;
	*:0) want="records written below --level 1: [1-9][0-9]* steps down, to packing only at the lowest, [0-9]* back up" ;;
	*) want="(a count and a lowest level that go together)" ;;
	esac
	echo "$pace" | grep -qx "$want" ||
		{ echo "FAIL: $threads threads: $lowered records below --level, lowest $lowest, and --stats says '$pace'"; fail=1; }
	echo "$threads threads: $(col "$TMP/err" "ring records") records, $lowered below --level 1"
	return $fail
}

status=0
for t in 32 64; do
	busy $t > "$TMP/out.$t" 2>&1 || { echo "($t threads: a second run)"; busy $t > "$TMP/out.$t" 2>&1; } ||
		status=1
	cat "$TMP/out.$t"
done
exit $status
