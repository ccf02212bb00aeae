#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ClickHouse reply fuzzer (tests/fuzz/fuzz_chreply.c): libFuzzer started from
# real answers in tests/fuzz/chreply, DIO_FUZZ_RUNS (default 300000) inputs with
# the seed DIO_FUZZ_SEED (default 1), so that every run tries the same inputs.
# A crash, a sanitizer report or a broken promise leaves its input in the build
# tree's tests/fuzz/crash-* and fails the test.
fz="$top_builddir/tests/fuzz/fuzz_chreply"
[ "$DIO_CLICKHOUSE" != no ] ||
	{ echo "SKIP: dio was built without the clickhouse module (no libcurl, or --without-libcurl)"; exit 77; }
[ -x "$fz" ] || { echo "FAIL: $fz was not built"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# the checked-in seeds stay as they are: the fuzzer adds to a copy
cp "$top_srcdir"/tests/fuzz/chreply/* "$work/"
# (-error_exitcode: libFuzzer's own, 77, is automake's SKIP)
"$fz" -runs="${DIO_FUZZ_RUNS:-300000}" -seed="${DIO_FUZZ_SEED:-1}" -timeout=5 -error_exitcode=1 \
	-rss_limit_mb=1024 -max_len=16384 -artifact_prefix="$top_builddir/tests/fuzz/" "$work" \
	> "$work/log" 2>&1
rc=$?
tail -n 30 "$work/log"
[ "$rc" -eq 0 ] || echo "FAIL: the fuzzer found an answer that breaks dio (exit $rc)"
exit $rc
