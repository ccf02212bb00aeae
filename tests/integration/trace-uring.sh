#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Asynchronous I/O (tests/workloads/uring.c): each io_uring request shows as
# its own line (opcode, file, offset, length, result), next to the
# io_uring_enter calls that carried it; libaio's io_submit and io_getevents
# are traced; --no-iouring drops the per-request lines only. A selection of
# calls (-e trace=) shows the requests only when it takes io_uring_enter in.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

run_dio trace --no-summary -o "$TMP/out" -- "$WL/uring" "$MNT" 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; fail=1; }
expect_lines "$TMP/expect" "$TMP/out" || fail=1

run_dio trace --no-summary --no-iouring -o "$TMP/out2" -- "$WL/uring" "$MNT" 9> "$TMP/expect2"
[ "$RC" -eq 0 ] || { echo "FAIL: dio --no-iouring exited with $RC"; fail=1; }
if grep -q '\] io_uring [A-Z]' "$TMP/out2"; then
	echo "FAIL: --no-iouring still printed io_uring requests:"
	grep '\] io_uring [A-Z]' "$TMP/out2"
	fail=1
fi
grep -q '\] io_uring_enter(' "$TMP/out2" ||
	{ echo "FAIL: --no-iouring also dropped the io_uring_enter calls"; fail=1; }
grep -v '\] io_uring [A-Z]' "$TMP/expect2" > "$TMP/expect2.sys"
expect_lines "$TMP/expect2.sys" "$TMP/out2" "--no-iouring output" || fail=1

run_dio trace --no-summary -e trace=openat -o "$TMP/out3" -- "$WL/uring" "$MNT" 9> /dev/null
[ "$RC" -eq 0 ] || { echo "FAIL: dio -e trace=openat exited with $RC"; fail=1; }
grep -q '\] openat(' "$TMP/out3" || { echo "FAIL: -e trace=openat printed no openat"; fail=1; }
if grep -v '\] openat(' "$TMP/out3" | grep -q '^\['; then
	echo "FAIL: -e trace=openat printed other lines:"
	grep -v '\] openat(' "$TMP/out3" | grep '^\[' | head -5
	fail=1
fi
run_dio trace --no-summary -e trace=%async -o "$TMP/out4" -- "$WL/uring" "$MNT" 9> /dev/null
[ "$RC" -eq 0 ] || { echo "FAIL: dio -e trace=%async exited with $RC"; fail=1; }
grep -q '\] io_uring [A-Z]' "$TMP/out4" ||
	{ echo "FAIL: -e trace=%async (io_uring_enter in) printed no io_uring request"; fail=1; }
exit $fail
