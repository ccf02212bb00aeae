#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command, as a user runs it: every analyzer over the
# bundled demo. It must print the two findings the README promises and no
# other warning or error about the program, and exit 0. Run on each kernel of the matrix too, so the promise holds on Debian
# 12's 6.1 and the 6.12 LTS.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

run_dio trace -q --analyzer all -- "$WL/demo" "$TMP/demo" > "$TMP/out" 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: the README's demo command exited with $RC:"; cat "$TMP/err"; fail=1; }
for code in redundant-open.churn reuse-offset.read-past-end; do
	grep -q "^dio: \[[A-Z]*\] $code: " "$TMP/out" "$TMP/err" ||
		{ echo "FAIL: the demo did not report $code"; fail=1; }
done
# and no other warning or error about the program (the machine's, latency and
# lost events, may come on a loaded machine): the README says two findings
others=$(cat "$TMP/out" "$TMP/err" | sed -n 's/^dio: \[\(WARNING\|ERROR\)\] \([a-z.-]*\): .*/\2/p' |
	grep -v -e '^latency\.' -e '^summary\.' -e '^redundant-open\.churn$' -e '^reuse-offset\.read-past-end$' |
	sort -u | tr '\n' ' ')
[ -z "$others" ] || { echo "FAIL: the demo reported more than the README says: $others"; fail=1; }
[ $fail -eq 0 ] || { echo "what it printed:"; cat "$TMP/out" "$TMP/err" | head -40; }
[ $fail -eq 0 ] && echo "ok: the README's demo reports redundant-open.churn and reuse-offset.read-past-end"
exit $fail
