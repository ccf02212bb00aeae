#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio top names files as dio trace does: a pipe, whose path walk ends at "/"
# on the kernel's internal mount, is pipe:[INODE], as /proc/PID/fd names it.
# A shell writes 200 lines into a pipe (echo is a builtin: one write each)
# after noting the pipe's name from /proc; in the last frame (-S) the pipe's
# row has that name, type fifo and the 200 writes, and no row is named "/".
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
N=200

check() {	# what got expected
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: $2, expected $3"
		fail=1
	fi
}

cat > "$TMP/writer.sh" <<'SCRIPT'
name=$(readlink "/proc/$$/fd/1")
echo "$name" > "$1"
i=0
while [ $i -lt "$2" ]; do
	echo x
	i=$((i + 1))
done
SCRIPT
run_dio top -b -S -d 0.3 -e trace=write -- \
	sh -c 'sh "$1" "$2" "$3" | cat > /dev/null' sh "$TMP/writer.sh" "$TMP/name" $N \
	> "$TMP/out" 2> "$TMP/err"
check "exit status" "$RC" 0
[ -s "$TMP/err" ] && { echo "FAIL: stderr: $(cat "$TMP/err")"; fail=1; }
name=$(cat "$TMP/name")
case $name in
pipe:\[[0-9]*\]) ;;
*) echo "FAIL: the writer's stdout is '$name', not a pipe"; exit 1 ;;
esac
# the files of the last frame: CALLS ... PID TYPE PATH
awk '/^dio top - /{ s = 0; buf = "" } /^     CALLS /{ s = 1; next } s && NF { buf = buf $0 "\n" }
	END { printf "%s", buf }' "$TMP/out" > "$TMP/files"
check "the pipe's writes" "$(awk -v p="$name" '$8 == p { print $1 }' "$TMP/files")" $N
check "the pipe's type" "$(awk -v p="$name" '$8 == p { print $7 }' "$TMP/files")" fifo
check "rows named /" "$(awk '$8 == "/" { n++ } END { print n + 0 }' "$TMP/files")" 0
[ "$fail" = 0 ] || cat "$TMP/files"
exit $fail
