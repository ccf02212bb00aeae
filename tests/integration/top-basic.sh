#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio top against a workload whose calls are known (tests/workloads/topload.c):
# two threads make N preads of B bytes on one file, the main thread N pwrites
# of 4*B bytes on another and 3 failing preads. The last frame, shown after
# the command exited, holds every call (-S: totals); without -S the frames'
# figures add up to the same; dio top exits with the command's status; the
# rows sort by calls, bytes or time; -n stops after that many frames.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0
N=3000
B=512

# the last frame of a batch output
last_frame() {
	awk '/^dio top - /{ buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }' "$1"
}

# field SECTION KEYCOL KEY COL FILE: column COL of the row whose column KEYCOL is
# KEY in section procs, threads or files of FILE; rows of every frame, summed
field() {
	awk -v sec="$1" -v kc="$2" -v key="$3" -v col="$4" '
	/^dio top - / { s = "" }
	/^    PID COMMAND/ { s = "procs"; next }
	/^    TID / { s = "threads"; next }
	/^     CALLS / { s = "files"; next }
	/^$/ { next }
	s == sec && $kc == key { sum += $col; found = 1 }
	END { if (found) print sum; else print "none" }' "$5"
}

check() {	# what got expected
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: $2, expected $3"
		fail=1
	fi
}

# -S: totals since the start; the command's status is dio top's
run_dio top -b -S -d 0.4 -e trace=pread64,pwrite64 -- "$WL/topload" "$MNT" $N $B 3 \
	9> "$TMP/ids" > "$TMP/out" 2> "$TMP/err"
check "exit status with the command's 3" "$RC" 3
[ -s "$TMP/err" ] && { echo "FAIL: stderr: $(cat "$TMP/err")"; fail=1; }
frames=$(grep -c '^dio top - ' "$TMP/out")
[ "$frames" -ge 3 ] || { echo "FAIL: $frames frames, the workload lasts more than a second"; fail=1; }
last_frame "$TMP/out" > "$TMP/last"
main=$(awk '$1 == "main" { print $2 }' "$TMP/ids")
for r in top-r1 top-r2; do
	tid=$(awk -v n=$r '$1 == "reader" && $3 == n { print $2 }' "$TMP/ids")
	check "$r ($tid) calls" "$(field threads 1 "$tid" 4 "$TMP/last")" $N
	check "$r ($tid) bytes read" "$(field threads 1 "$tid" 6 "$TMP/last")" $((N * B))
	check "$r ($tid) bytes written" "$(field threads 1 "$tid" 7 "$TMP/last")" 0
	check "$r ($tid) process" "$(field threads 1 "$tid" 2 "$TMP/last")" "$main"
	name=$(awk -v t="$tid" '/^    TID /{ s = 1; next } s && $1 == t { print $3 }' "$TMP/last")
	check "thread $tid's name" "$name" "$r"
done
check "main thread errors" "$(field threads 1 "$main" 5 "$TMP/last")" 3
check "main thread bytes written" "$(field threads 1 "$main" 7 "$TMP/last")" $((4 * N * B))
check "data calls" "$(field files 8 "$MNT/data" 1 "$TMP/last")" $((2 * N))
check "data bytes read" "$(field files 8 "$MNT/data" 3 "$TMP/last")" $((2 * N * B))
check "data bytes written" "$(field files 8 "$MNT/data" 4 "$TMP/last")" 0
check "out calls" "$(field files 8 "$MNT/out" 1 "$TMP/last")" $N
check "out bytes written" "$(field files 8 "$MNT/out" 4 "$TMP/last")" $((4 * N * B))
check "out's process" "$(field files 8 "$MNT/out" 6 "$TMP/last")" "$main"
check "out's type" "$(awk -v p="$MNT/out" '/^     CALLS /{ s = 1; next } s && $8 == p { print $7 }' "$TMP/last")" reg
# the process: its threads' calls added up (the loader's preads of libc too)
libc=$(field threads 1 "$main" 4 "$TMP/last")
check "process calls" "$(field procs 1 "$main" 3 "$TMP/last")" $((2 * N + libc))
check "process bytes written" "$(field procs 1 "$main" 6 "$TMP/last")" $((4 * N * B))
check "lost" "$(sed -n 's/^dio top - .* lost \([0-9]*\)$/\1/p' "$TMP/last")" 0
# sorted by calls, data (2N calls, 2NB bytes) comes before out (N calls, 4NB bytes)
first=$(awk '/^     CALLS /{ s = 1; next } s && NF { print $8; exit }' "$TMP/last")
check "first file by calls" "$first" "$MNT/data"

# frames show what grew since the one before: added up, every call once
run_dio top -b -d 0.3 --sort bytes --path "$MNT" -- "$WL/topload" "$MNT" $N $B 9> "$TMP/ids" \
	> "$TMP/out"
check "exit status" "$RC" 0
main=$(awk '$1 == "main" { print $2 }' "$TMP/ids")
frames=$(awk '/^     CALLS /{ s = 1; next } /^dio top - /{ s = 0 } s && $8 == p { n++ } END { print n + 0 }' \
	p="$MNT/data" "$TMP/out")
[ "$frames" -ge 2 ] || { echo "FAIL: data's calls in $frames frames: the workload pauses a second"; fail=1; }
for r in top-r1 top-r2; do
	tid=$(awk -v n=$r '$1 == "reader" && $3 == n { print $2 }' "$TMP/ids")
	check "$r ($tid) calls over all frames" "$(field threads 1 "$tid" 4 "$TMP/out")" $N
	check "$r ($tid) bytes over all frames" "$(field threads 1 "$tid" 6 "$TMP/out")" $((N * B))
done
# --path: the failing preads on fd -1 are on no file under it, the loader's on libc
# neither; the main thread's opens, ftruncate and closes are
check "main thread calls under --path" "$(field threads 1 "$main" 4 "$TMP/out")" $((N + 5))
check "main thread errors under --path" "$(field threads 1 "$main" 5 "$TMP/out")" 0
check "data calls over all frames" "$(field files 8 "$MNT/data" 1 "$TMP/out")" $((2 * N + 3))
check "out bytes over all frames" "$(field files 8 "$MNT/out" 4 "$TMP/out")" $((4 * N * B))
last_frame "$TMP/out" > "$TMP/last"
# --sort bytes: within each frame, the file with more bytes first
bad=$(awk '/^dio top - /{ s = 0; prev = -1 } /^     CALLS /{ s = 1; next }
	s && NF { b = $3 + $4; if (prev >= 0 && b > prev) print "frame " n ": " $0; prev = b }
	/^dio top - /{ n++ }' "$TMP/out")
[ -z "$bad" ] || { echo "FAIL: --sort bytes: rows out of order: $bad"; fail=1; }

# --stats: the programs ran for every call, yet no call came through the ring
run_dio top -b -S --stats -d 0.4 -e trace=pread64,pwrite64 -- "$WL/topload" "$MNT" $N $B 3 \
	9> /dev/null > /dev/null 2> "$TMP/serr"
check "--stats exit status" "$RC" 3
exits=$(awk '$1 == "probe" && $2 ~ /^dio_(raw|sys)_exit$/ { n += $3 } END { print n + 0 }' "$TMP/serr")
ring=$(awk '$1 == "ring" && $2 == "records" { print $3 }' "$TMP/serr")
[ "$exits" -ge $((3 * N)) ] ||
	{ echo "FAIL: --stats: $exits runs of the exit program for $((3 * N)) calls:"; cat "$TMP/serr"; fail=1; }
[ -n "$ring" ] && [ "$ring" -lt "$N" ] ||
	{ echo "FAIL: --stats: '$ring' records through the ring for $((3 * N)) counted calls:"; cat "$TMP/serr"; fail=1; }

# -n: that many frames, then exit 0 with nothing traced gone
run_dio top -b -n 2 -d 0.2 -a > "$TMP/out"
check "-n 2 exit status" "$RC" 0
check "-n 2 frames" "$(grep -c '^dio top - ' "$TMP/out")" 2
exit $fail
