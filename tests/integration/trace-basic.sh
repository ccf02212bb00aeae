#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every call of a known workload, with every field: arguments, return values,
# offsets (O_APPEND included), paths (after rename, through dup2, F_DUPFD, a
# forked child's inherited fd), thread names, file types and tags.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf

mkdir "$TMP/wd"
run_dio trace --no-summary -o "$TMP/out" -- "$WL/basic" "$TMP/wd" "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; exit 1; }
expect_lines "$TMP/expect" "$TMP/out" || exit 1

# the same through the raw syscall tracepoints and through per-syscall ones
run_dio trace --attach syscall --no-summary -e trace=openat,write,pwrite64,lseek,read,close,pread64 \
	-o "$TMP/out2" -- "$WL/basic" "$TMP/wd" "$TMP/expect2"
[ "$RC" -eq 0 ] || { echo "FAIL: dio --attach syscall exited with $RC"; exit 1; }
grep -E '\] (openat|write|pwrite64|lseek|read|close|pread64)\(' "$TMP/expect2" > "$TMP/expect2.sel"
expect_lines "$TMP/expect2.sel" "$TMP/out2" || exit 1
# nothing else was traced
if grep -E '\] [a-z0-9_]+\(' "$TMP/out2" | grep -vE '\] (openat|write|pwrite64|lseek|read|close|pread64)\(' | grep -q .; then
	echo "FAIL: calls outside the selection were traced:"
	grep -E '\] [a-z0-9_]+\(' "$TMP/out2" | grep -vE '\] (openat|write|pwrite64|lseek|read|close|pread64)\(' | head
	exit 1
fi

# --mode raw: the calls without enrichment (no paths, offsets, types or tags)
run_dio trace --mode raw --no-summary -o "$TMP/out3" -- "$WL/basic" "$TMP/wd" "$TMP/expect3"
[ "$RC" -eq 0 ] || { echo "FAIL: dio --mode raw exited with $RC"; exit 1; }
sed -e 's/ {[^}]*}$//' -e 's/\([0-9]\)<[^>]*>/\1/g' "$TMP/expect3" > "$TMP/expect3.raw"
expect_lines "$TMP/expect3.raw" "$TMP/out3" || exit 1
if grep -E '\] [a-z0-9_]+\(' "$TMP/out3" | grep -q ' {\|[0-9]</'; then
	echo "FAIL: --mode raw printed enrichment:"
	grep ' {\|[0-9]</' "$TMP/out3" | head -3
	exit 1
fi
