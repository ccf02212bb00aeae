#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each installed header (include/dio/*.h) compiles on its own, first in a file,
# as a module's author would include it: with gcc and clang, -Wall -Wextra
# -pedantic -Werror, in each C standard of $STDS (default: c11 gnu11 c17).
# sdk-headers-c99.sh runs it for c99.
: "${top_srcdir:=.}"
: "${STDS:=c11 gnu11 c17}"
CC=${CC:-cc}
TMP=$(mktemp -d /tmp/dio-headers.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT

compilers=$CC
if command -v "${CLANG:-clang}" > /dev/null; then
	compilers="$compilers ${CLANG:-clang}"
fi
headers=$(cd "$top_srcdir/include" && ls dio/*.h)
[ -n "$headers" ] || { echo "FAIL: no headers in $top_srcdir/include/dio"; exit 1; }
fail=0
n=0
for h in $headers; do
	printf '#include <%s>\nint dio_header_test;\n' "$h" > "$TMP/t.c"
	for std in $STDS; do
		for cc in $compilers; do
			if ! $cc -std="$std" -Wall -Wextra -pedantic -Werror -I"$top_srcdir/include" \
				-c "$TMP/t.c" -o "$TMP/t.o" > "$TMP/err" 2>&1; then
				echo "FAIL: <$h> alone with $cc -std=$std -Wall -Wextra -pedantic:"
				head -n 20 "$TMP/err"
				fail=1
			fi
			n=$((n + 1))
		done
	done
done
[ $fail -ne 0 ] || echo "ok: $n compilations of $(echo $headers | wc -w) headers: $STDS with $compilers"
exit $fail
