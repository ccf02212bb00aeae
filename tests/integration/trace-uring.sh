#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# io_uring requests show one by one (opcode, file, offset, length, result),
# and libaio's io_submit is traced.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4

run_dio trace --no-summary -o "$TMP/out" -- "$WL/uring" "$MNT" "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; exit 1; }
expect_lines "$TMP/expect" "$TMP/out" || exit 1
run_dio trace --no-summary --no-iouring -o "$TMP/out2" -- "$WL/uring" "$MNT" "$TMP/expect2"
if grep -q "io_uring WRITE\|io_uring READ" "$TMP/out2"; then
	echo "FAIL: --no-iouring still traced io_uring requests"
	exit 1
fi
