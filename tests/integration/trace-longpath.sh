#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Paths the kernel walk cannot give whole are marked where they were cut, on
# the console and in what modules get: a file 70 directories deep (past the
# walk limit) shows ".../d/d/f" (its start is missing), one under 5 000 bytes
# of directory names (past DIO_PATH_MAX) shows "/tmp/.../xxx..." (its end is).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

command -v python3 > /dev/null || { echo "SKIP: python3 not installed"; exit 77; }
long=$(printf '%0250d' 0)
script='
import os, sys
def down(top, name, n, file):
    os.chdir(top)
    for _ in range(n):
        os.mkdir(name)
        os.chdir(name)
    fd = os.open(file, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"x\n")
    os.close(fd)
down(sys.argv[1], "d", 70, "f")
down(sys.argv[1], sys.argv[2], 20, "g")
'
"$DIO" trace --no-summary -e trace=write -- python3 -c "$script" "$TMP" "$long" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio trace exited $?:"; cut -c1-300 "$TMP/out"; exit 1; }
grep -q '^\[[0-9/]* python3\] write([0-9]*<\.\.\./d/[d/]*/f>, ' "$TMP/out" ||
	{ echo "FAIL: the deep file's path is not marked as cut at its start:"; grep 'write(' "$TMP/out"; fail=1; }
grep -q "^\[[0-9/]* python3\] write([0-9]*<$TMP/$long/[0-9/]*\.\.\.>, " "$TMP/out" ||
	{ echo "FAIL: the long file's path is not marked as cut at its end:"; grep 'write(' "$TMP/out" | cut -c1-200; fail=1; }
# a path the walk gave whole is never marked
grep 'python3\] write(' "$TMP/out" | grep -v '<\.\.\./\|\.\.\.>' | grep -q . &&
	{ echo "FAIL: a write of these files has an unmarked path"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: paths cut at their start and at their end are marked"
exit $fail
