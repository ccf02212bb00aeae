#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every field of every call of a workload whose calls are known exactly
# (tests/workloads/basic.c): arguments, return values, offsets (O_APPEND and
# EOF included), paths (after a rename, through dup2 and F_DUPFD), file types
# and tags. A full run attaches to the two raw syscall tracepoints; a
# selection of calls goes through per-syscall tracepoints; --mode raw prints
# the same calls without enrichment.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

mkdir "$MNT/wd"
run_dio trace --no-summary -o "$TMP/out" -- "$WL/basic" "$MNT/wd" 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; fail=1; }
expect_lines "$TMP/expect" "$TMP/out" || fail=1

# a selection of calls through their own tracepoints: the same lines, nothing else
sel='openat|write|pwrite64|lseek|read|close|newfstatat|dup2|fcntl'
run_dio trace --attach syscall --no-summary -e trace=$(echo "$sel" | tr '|' ,) \
	-o "$TMP/out2" -- "$WL/basic" "$MNT/wd" 9> "$TMP/expect2"
[ "$RC" -eq 0 ] || { echo "FAIL: dio --attach syscall exited with $RC"; fail=1; }
grep -E "\] ($sel)\(" "$TMP/expect2" > "$TMP/expect2.sel"
expect_lines "$TMP/expect2.sel" "$TMP/out2" "--attach syscall output" || fail=1
if grep -E '\] [a-z0-9_]+\(' "$TMP/out2" | grep -vE "\] ($sel)\(" | grep -q .; then
	echo "FAIL: -e trace=$sel traced calls outside the selection:"
	grep -E '\] [a-z0-9_]+\(' "$TMP/out2" | grep -vE "\] ($sel)\(" | head -5
	fail=1
fi

# --mode raw: the same calls without enrichment (no fd paths, no {off= type= tag=})
run_dio trace --mode raw --no-summary -o "$TMP/out3" -- "$WL/basic" "$MNT/wd" 9> "$TMP/expect3"
[ "$RC" -eq 0 ] || { echo "FAIL: dio --mode raw exited with $RC"; fail=1; }
sed -e 's/ {[^}]*}$//' -e 's/\([0-9]\)<[^>]*>/\1/g' "$TMP/expect3" > "$TMP/expect3.raw"
expect_lines "$TMP/expect3.raw" "$TMP/out3" "--mode raw output" || fail=1
if grep -E '\] [a-z0-9_]+\(' "$TMP/out3" | grep -q ' {\|[0-9]</'; then
	echo "FAIL: --mode raw printed enrichment:"
	grep -E '\] [a-z0-9_]+\(' "$TMP/out3" | grep ' {\|[0-9]</' | head -3
	fail=1
fi
# a file whose read does not move its position (/proc/kmsg: the kernel log's
# own cursor) gets no offset, never a negative one; a message written to
# /dev/kmsg first gives the read something to return (it takes it from
# syslog(2)'s reader only: dmesg and /dev/kmsg keep it)
if [ -w /dev/kmsg ] && [ -r /proc/kmsg ]; then
	echo "<6>dio: trace-basic checks the offset of /proc/kmsg" > /dev/kmsg
	run_dio trace --no-summary -e trace=read -o "$TMP/kmsg" \
		-- dd if=/proc/kmsg of=/dev/null iflag=nonblock bs=64k count=1 status=none
	line=$(grep '\] read(0</proc/kmsg>, ' "$TMP/kmsg")
	case $line in
	*") = "[1-9]*" {type=reg tag="*) ;;
	*) echo "FAIL: the read of /proc/kmsg is not shown without an offset: $line"; fail=1 ;;
	esac
fi
exit $fail
