#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --cgroup with -a: dio traces the tasks in a cgroup v2 directory and in the
# ones below it, and no other. Three copies of tests/workloads/filters loop at
# once, each on its own directories: one in the test's cgroup, one in a child
# cgroup of it, one outside; the first two must show every call of a round, the
# third nothing at all. A path that is no cgroup v2 directory is a one-line
# error that names it and says where cgroup v2 is mounted.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
make_cgroup
mount_ext4
fail=0
mkdir "$CG/sub"
for w in in sub out; do
	mkdir "$MNT/$w" "$MNT/$w/keep" "$MNT/$w/drop"
done

# loop W PROCS: a looping filters on $MNT/W, moved first into the cgroup whose
# cgroup.procs is PROCS (none: it stays where the test is); sets BG. It is the
# shell's pid that moves, and exec keeps it: every call of the workload is made
# inside the cgroup.
loop() {
	bg sh -c '[ -z "$0" ] || echo $$ > "$0" || exit 99; exec "$@"' "$2" \
		"$WL/filters" "$MNT/$1/keep" "$MNT/$1/drop" loop 9> "$TMP/exp.$1"
}

# -d bounds the run; the test stops dio with SIGINT, as a user would, once the
# workloads are done
bg timeout -s INT -k 5 30 "$DIO" trace -a --cgroup "$CG" -d 20 --no-summary -o "$TMP/out" \
	2> "$TMP/err"
dio=$BG
loop in "$CG/cgroup.procs"
win=$BG
loop sub "$CG/sub/cgroup.procs"
wsub=$BG
loop out ""
wout=$BG

# dio is tracing once the first two show a write; then every round of all
# three runs under the trace, and the rounds the workloads record (their last)
# come after this point
i=0
while ! { grep -q "^\[$win/$win filters\] write(" "$TMP/out" &&
	grep -q "^\[$wsub/$wsub filters\] write(" "$TMP/out"; } 2> /dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 100 ] || { echo "FAIL: dio showed no write of the cgroup's workloads within 10 s"; fail=1; }
# ten rounds (20 ms each) of the outside workload while dio traces; the last,
# whose lines it records, is one of them
sleep 0.2
for w in $win $wsub $wout; do
	kill -TERM "$w"
	wait "$w"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "FAIL: workload $w exited with $rc"; fail=1; }
done
kill -INT "$dio"
wait "$dio"
RC=$?
[ "$RC" -eq 0 ] || { echo "FAIL: dio -a --cgroup exited with $RC:"; cat "$TMP/err"; fail=1; }

# the cgroup and the one below it: every call of the last round, with its fds,
# paths, return values and file tags
for w in in sub; do
	sed 's/^[A-Z][dm] //' "$TMP/exp.$w" > "$TMP/want"
	expect_lines "$TMP/want" "$TMP/out" "--cgroup output, workload in $w" || fail=1
done
# outside: not one call or process record ("+++ exited ...") of its process,
# nor any call on its files
grep -E '^\[[0-9]+/[0-9]+ [^]]*\] ([a-z0-9_]+\(|\+\+\+ )' "$TMP/out" > "$TMP/calls"
if grep -q "^\[$wout/" "$TMP/calls"; then
	echo "FAIL: --cgroup $CG let calls of the process $wout outside it through:"
	grep "^\[$wout/" "$TMP/calls" | head -5
	fail=1
fi
if grep -qF "$MNT/out/" "$TMP/calls"; then
	echo "FAIL: --cgroup $CG let calls on the outside workload's files through:"
	grep -F "$MNT/out/" "$TMP/calls" | head -5
	fail=1
fi
if [ ! -s "$TMP/exp.out" ]; then
	echo "FAIL: the outside workload recorded no round: it did not run while dio traced"
	fail=1
fi
# nothing but the two workloads (and what they fork): no other task is in the cgroup
foreign "$TMP/out" "$win" "$wsub" > "$TMP/others"
if [ -s "$TMP/others" ]; then
	echo "FAIL: --cgroup $CG traced tasks that were never in it:"
	head -5 "$TMP/others"
	fail=1
fi

# cgerr PATH REASON: dio refuses PATH with one line naming it, and a non-zero exit
cgerr() {
	"$DIO" trace -a --cgroup "$1" -d 1 --no-summary -o "$TMP/out" > "$TMP/err" 2>&1
	rc=$?
	want="dio: --cgroup $1: $2 (give a directory under $CGROOT, where cgroup v2 is mounted, e.g. $CGROOT/system.slice/redis.service)"
	if [ "$rc" -eq 0 ]; then
		echo "FAIL: dio --cgroup $1 exited with 0"
		fail=1
	fi
	if [ "$(cat "$TMP/err")" != "$want" ]; then
		echo "FAIL: dio --cgroup $1 printed other than this one line (-expected +printed):"
		echo "$want" | diff -u - "$TMP/err"
		fail=1
	fi
}
cgerr "$CG/none" "No such file or directory"
cgerr "$CG/cgroup.procs" "Not a directory"
cgerr "$MNT/in" "not a cgroup v2 directory"
exit $fail
