#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The host's table of file paths is bounded: twice --tag-table. A shell makes
# 20 000 files (": > fN"), each a new tag, under --tag-table 1024: dio keeps
# 2048 paths, forgets the others and says how many, the same number in its
# exit warning, in --stats and under the summary's tables; the files in use
# keep their paths (the last file's openat names it). The kernel's own table,
# --tag-table entries, forgets the tags past 1024 (a file among them used
# again would have its path sent again): said in --stats and by the summary.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
N=20000
mkdir "$TMP/d"

run_dio trace --tag-table 1024 --stats -o "$TMP/out" -- \
	sh -c "cd '$TMP/d' && i=0; while [ \$i -lt $N ]; do : > f\$i; i=\$((i + 1)); done" \
	2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace exited $RC:"; cat "$TMP/err"; exit 1; }
n=$(sed -n 's/^dio: warning: \([0-9]*\) paths forgotten: the host.s tag table (twice --tag-table) was full; .*/\1/p' "$TMP/err")
paths_forgotten "paths forgotten" "$n" || fail=1
grep -q "^  dropped paths_evicted  *$n  *paths forgotten" "$TMP/err" ||
	{ echo "FAIL: --stats does not count $n paths forgotten:"; cat "$TMP/err"; fail=1; }
grep -qxF "dio: warning: $n file paths forgotten (the host's tag table, twice --tag-table, was full)" \
	"$TMP/out" || { echo "FAIL: the summary does not say $n paths forgotten"; tail -5 "$TMP/out"; fail=1; }
k=$(sed -n 's/^  dropped kernel_paths_evicted  *\([0-9]*\)  *paths the kernel forgot it had sent, .*/\1/p' \
	"$TMP/err")
kernel_forgot "kernel_paths_evicted in --stats" "$k" || fail=1
grep -qxF "dio: note: $k file paths forgotten by the kernel, at least (its tag table, --tag-table, was full): sent again if their file is used again" \
	"$TMP/out" || { echo "FAIL: the summary does not say the kernel forgot $k paths"; tail -5 "$TMP/out"; fail=1; }
last=$((N - 1))
grep -q "openat(AT_FDCWD, \"f$last\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3<$TMP/d/f$last> " "$TMP/out" ||
	{ echo "FAIL: the last file's openat does not name it:"; grep "f$last" "$TMP/out"; fail=1; }
exit $fail
