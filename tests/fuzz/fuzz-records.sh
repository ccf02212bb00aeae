#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The record fuzzer (tests/fuzz/fuzz_records.c) over the records of real traces
# in tests/fuzz/records (made with record-seeds.py), then DIO_FUZZ_RUNS (default
# 600) inputs made from them with the seed DIO_FUZZ_SEED (default 1): the same
# inputs at every run. Any sanitizer report fails the test and leaves its input
# in the build tree's tests/fuzz/crash-records-*.
fz="$top_builddir/tests/fuzz/fuzz_records"
[ -x "$fz" ] || { echo "FAIL: $fz was not built"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# the first report ends the run, UBSan's too
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}abort_on_error=0
UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS
"$fz" -runs="${DIO_FUZZ_RUNS:-600}" -seed="${DIO_FUZZ_SEED:-1}" \
	-artifact_prefix="$top_builddir/tests/fuzz/" "$top_srcdir"/tests/fuzz/records/*.rec \
	> "$work/log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	# the report, not the modules' complaints about the records before it
	grep -n -m1 -E "^(==[0-9]+==ERROR|.*runtime error:)" "$work/log"
	tail -n 40 "$work/log"
	echo "FAIL: the record fuzzer found an input that breaks dio (exit $rc)"
fi
tail -n 1 "$work/log"
exit $rc
