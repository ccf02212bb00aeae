#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A bounded libFuzzer run of the trace file reader (tests/fuzz/fuzz_tracefile.c),
# started from real traces in tests/fuzz/corpus. DIO_FUZZ_SECONDS sets the
# length (default 20). A crash leaves its input in the build tree's
# tests/fuzz/crash-* and fails the test.
fz="$top_builddir/tests/fuzz/fuzz_tracefile"
[ -x "$fz" ] || { echo "FAIL: $fz was not built"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work" /tmp/dio-fuzz.*' EXIT
# the checked-in seeds stay as they are: the fuzzer adds to a copy
cp "$top_srcdir"/tests/fuzz/corpus/* "$work/"
# (-error_exitcode: libFuzzer's own, 77, is automake's SKIP: a crash must fail)
"$fz" -max_total_time="${DIO_FUZZ_SECONDS:-20}" -timeout=5 -rss_limit_mb=1024 -error_exitcode=1 \
	-artifact_prefix="$top_builddir/tests/fuzz/" "$work" > "$work/log" 2>&1
rc=$?
tail -n 30 "$work/log"
[ "$rc" -eq 0 ] || echo "FAIL: the fuzzer found an input that breaks the reader (exit $rc)"
exit $rc
