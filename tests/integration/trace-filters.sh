#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio's filters on a workload whose calls are known and classed
# (tests/workloads/filters.c: K under KEEP, D under DROP, P pipe, S socket,
# A anon inode; d data calls, m the others): --path keeps exactly the calls
# on files under the prefix, --exclude-path, --only-files, -e trace=%data and
# --syscalls with '!', --comm, -p attaching to a running process, -a with
# --tid.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0
KEEP=$MNT/keep
DROP=$MNT/drop
mkdir "$KEEP" "$DROP" "$MNT/keepnot"

# run_filters OUT EXPECT DIO-OPTIONS...: the workload under dio, on KEEP and $DROPDIR
DROPDIR=$DROP
run_filters() {
	out=$1
	exp=$2
	shift 2
	run_dio trace --no-summary "$@" -o "$out" -- "$WL/filters" "$KEEP" "$DROPDIR" 9> "$exp"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio $* exited with $RC"; fail=1; }
}

# class RE EXPECT: the expected lines of the classes matching RE, without the class
class() {
	sed -n "s/^\($1\) //p" "$2"
}

# pid_of EXPECT: the workload's pid
pid_of() {
	sed -n '1s/^[A-Z][dm] \[\([0-9]*\)\/.*/\1/p' "$1"
}

# exactly WANT OUT EXPECT WHAT: the calls of EXPECT's process in OUT are exactly WANT
exactly() {
	calls "$(pid_of "$3")" "$2" > "$TMP/got"
	if ! diff -u "$1" "$TMP/got" > "$TMP/diff"; then
		echo "FAIL: $4: dio printed other calls than exactly these (-expected +printed):"
		cat "$TMP/diff"
		fail=1
	fi
}

# --path: the calls on files under KEEP by fd, by path, by a name relative to a
# directory fd, and nothing else
run_filters "$TMP/out" "$TMP/exp" --path "$KEEP"
class 'K[dm]' "$TMP/exp" > "$TMP/want"
exactly "$TMP/want" "$TMP/out" "$TMP/exp" "--path $KEEP"

# a prefix matches whole path components: $MNT/keepnot is not under $MNT/keep
DROPDIR=$MNT/keepnot
run_filters "$TMP/out" "$TMP/exp" --path "$KEEP"
class 'K[dm]' "$TMP/exp" > "$TMP/want"
exactly "$TMP/want" "$TMP/out" "$TMP/exp" "--path $KEEP with a sibling $MNT/keepnot"
DROPDIR=$DROP

# --exclude-path: everything but the calls under DROP
run_filters "$TMP/out" "$TMP/exp" --exclude-path "$DROP"
class '[KPSA][dm]' "$TMP/exp" > "$TMP/want"
expect_lines "$TMP/want" "$TMP/out" "--exclude-path output" || fail=1
if calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep -q "$DROP"; then
	echo "FAIL: --exclude-path $DROP let calls under it through:"
	calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep "$DROP"
	fail=1
fi

# --only-files: the files, none of the pipe, socket and eventfd calls
run_filters "$TMP/out" "$TMP/exp" --only-files
class '[KD][dm]' "$TMP/exp" > "$TMP/want"
expect_lines "$TMP/want" "$TMP/out" "--only-files output" || fail=1
if calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep -q '<pipe:\|<socket:\|<anon_inode:'; then
	echo "FAIL: --only-files let calls on pipes, sockets or anon inodes through:"
	calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep '<pipe:\|<socket:\|<anon_inode:'
	fail=1
fi

# -e trace=%data: every data call, and only data calls (the class as dio lists it)
data=$("$DIO" list syscalls | awk '$3 == "%data" { printf "%s%s", sep, $1; sep = "|" }')
[ -n "$data" ] || { echo "FAIL: 'dio list syscalls' shows no %data call"; fail=1; }
run_filters "$TMP/out" "$TMP/exp" -e trace=%data
class '[KDPSA]d' "$TMP/exp" > "$TMP/want"
expect_lines "$TMP/want" "$TMP/out" "-e trace=%data output" || fail=1
if calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep -vqE "^[^]]*\] ($data)\("; then
	echo "FAIL: -e trace=%data let other calls through:"
	calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep -vE "^[^]]*\] ($data)\(" | head -5
	fail=1
fi

# --syscalls with a class minus a call: the writes only
run_filters "$TMP/out" "$TMP/exp" --syscalls '%data,!read'
class '[KDPSA]d' "$TMP/exp" | grep '\] write(' > "$TMP/want"
expect_lines "$TMP/want" "$TMP/out" "--syscalls %data,!read output" || fail=1
if calls "$(pid_of "$TMP/exp")" "$TMP/out" | grep -q '\] read('; then
	echo "FAIL: --syscalls '%data,!read' let read calls through"
	fail=1
fi

# --comm: only the threads named filters, not the shell or the cat before the exec
run_dio trace --no-summary --comm filters -o "$TMP/out" -- \
	sh -c 'cat "$1/x" > /dev/null 2>&1; exec "$0" "$1" "$2"' "$WL/filters" "$KEEP" "$DROP" \
	9> "$TMP/exp"
[ "$RC" -eq 0 ] || { echo "FAIL: dio --comm exited with $RC"; fail=1; }
class '[KDPSA][dm]' "$TMP/exp" > "$TMP/want"
expect_lines "$TMP/want" "$TMP/out" "--comm output" || fail=1
grep -E '^\[[0-9]+/[0-9]+ [^]]*\] [a-z0-9_]+\(' "$TMP/out" |
	grep -v '^\[[0-9]*/[0-9]* filters\] ' > "$TMP/others"
if [ -s "$TMP/others" ]; then
	echo "FAIL: --comm filters let other threads through:"
	head -5 "$TMP/others"
	fail=1
fi

# -p: attach to a running process; dio stops, with status 0, when it is gone
bg "$WL/filters" "$KEEP" "$DROP" loop 9> "$TMP/exp"
wl=$BG
bg timeout -s INT -k 5 30 "$DIO" trace --no-summary -p "$wl" -o "$TMP/out"
dio=$BG
i=0
while ! grep -q "^\[$wl/$wl filters\] write(" "$TMP/out" 2> /dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM "$wl"
wait "$wl"
i=0
while kill -0 "$dio" 2> /dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$dio" 2> /dev/null; then
	echo "FAIL: dio -p $wl still runs 10 s after the process exited"
	fail=1
else
	wait "$dio"
	RC=$?
	[ "$RC" -eq 0 ] || { echo "FAIL: dio -p exited with $RC"; fail=1; }
fi
class '[KDPSA][dm]' "$TMP/exp" > "$TMP/want"
expect_lines "$TMP/want" "$TMP/out" "-p output" || fail=1
# only the process and its descendants
foreign "$TMP/out" "$wl" > "$TMP/others"
if [ -s "$TMP/others" ]; then
	echo "FAIL: dio -p $wl traced processes that do not descend from it:"
	head -5 "$TMP/others"
	fail=1
fi

# -a: the whole system (narrowed here with --path); --tid: one thread only
# (the shell appends for up to 10 s, longer than both runs; cleanup stops it)
bg sh -c 'i=0; while [ $i -lt 200 ]; do echo x >> "$0/all"; sleep 0.05; i=$((i+1)); done' "$KEEP"
sh=$BG
run_dio trace -a --no-summary -d 1 --path "$KEEP/all" -o "$TMP/out"
[ "$RC" -eq 0 ] || { echo "FAIL: dio -a exited with $RC"; fail=1; }
open="openat(AT_FDCWD, \"$KEEP/all\", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3<$KEEP/all> {type=reg"
if ! grep -qF "[$sh/$sh sh] $open tag=" "$TMP/out"; then
	echo "FAIL: dio -a did not see the background shell's open of $KEEP/all:"
	head -5 "$TMP/out"
	fail=1
fi
run_dio trace -a --tid "$sh" --no-summary -d 1 -o "$TMP/out"
[ "$RC" -eq 0 ] || { echo "FAIL: dio -a --tid exited with $RC"; fail=1; }
if grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -vq "^\[$sh/$sh "; then
	echo "FAIL: --tid $sh let other threads through:"
	grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -v "^\[$sh/$sh " | head -5
	fail=1
fi
grep -q "^\[$sh/$sh sh\] write(1<$KEEP/all>, 0x[0-9a-f]*, 2) = 2 {off=[0-9]* type=reg tag=" \
	"$TMP/out" ||
	{ echo "FAIL: --tid $sh lost the thread's writes:"; head -5 "$TMP/out"; fail=1; }
exit $fail
