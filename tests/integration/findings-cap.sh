#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --max-findings N: at most N findings of one code, then one finding that
# says how many were left out, with the highest severity among them; 0 shows
# all. The same inline and from a recording, and from the config file.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
mkdir "$TMP/d"

# three programs (errstorm under three names, not told apart by digits alone:
# a fingerprint reads them as N), each with a burst of failed stat calls: three
# errors.burst findings (the errors analyzer makes one a program)
for i in a b c; do
	cp "$WL/errstorm" "$TMP/errstorm-$i" || exit 1
done
run_dio record -q -o "$TMP/t.dio" --max-findings 2 --analyzer errors --no-summary -- \
	sh -c "for i in a b c; do $TMP/errstorm-\$i storm $TMP/d > /dev/null; done" 2> "$TMP/inline"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC:"; cat "$TMP/inline"; exit 1; }
titles() {
	grep '^dio: \[' "$1" | sed 's/\(errors.burst: \).* calls failed .*/\1/'
}
titles "$TMP/inline" > "$TMP/got"
n_shown=$(grep -c '^dio: \[WARNING\] errors.burst: $' "$TMP/got")
n_more=$(grep -c '^dio: \[WARNING\] dio.findings-left-out: [0-9]* more errors.burst findings were not shown (--max-findings 2)$' "$TMP/got")
n_all=$(wc -l < "$TMP/got")
if [ "$n_shown" -ne 2 ] || [ "$n_more" -ne 1 ] || [ "$n_all" -ne 3 ]; then
	echo "FAIL: with --max-findings 2, expected 2 errors.burst findings and one left-out note, got:"
	cat "$TMP/got"
	fail=1
fi
# the note counts what was cut: every burst beyond the first two
left=$(sed -n 's/.*dio.findings-left-out: \([0-9]*\) more.*/\1/p' "$TMP/inline")
"$DIO" analyze "$TMP/t.dio" --analyzer errors --no-summary --max-findings 0 > "$TMP/all" 2>&1
total=$(grep -c '^dio: \[WARNING\] errors.burst:' "$TMP/all")
[ "$total" -ge 3 ] && [ "$((total - 2))" = "$left" ] ||
	{ echo "FAIL: --max-findings 0 shows $total bursts; the note said $left more than 2"; fail=1; }
grep -q 'dio.findings-left-out' "$TMP/all" && { echo "FAIL: a left-out note with --max-findings 0"; fail=1; }

# offline, the same cap gives the same lines
"$DIO" analyze "$TMP/t.dio" --analyzer errors --no-summary --max-findings 2 > "$TMP/offline" 2>&1
titles "$TMP/offline" > "$TMP/got2"
cmp -s "$TMP/got" "$TMP/got2" || { echo "FAIL: inline and offline differ:"; diff "$TMP/got" "$TMP/got2"; fail=1; }

# the closing count of --suppress states what was printed: all, or the cap's cut too
printf 'suppress = ( );\n' > "$TMP/none.supp"
"$DIO" analyze "$TMP/t.dio" --analyzer errors --no-summary --max-findings 0 --suppress "$TMP/none.supp" \
	> "$TMP/supp0" 2>&1
"$DIO" analyze "$TMP/t.dio" --analyzer errors --no-summary --max-findings 2 --suppress "$TMP/none.supp" \
	> "$TMP/supp2" 2>&1
[ "$(grep '^dio: [0-9]* finding' "$TMP/supp0")" = "dio: $total findings: 0 suppressed" ] ||
	{ echo "FAIL: the count after $total findings printed:"; cat "$TMP/supp0"; fail=1; }
[ "$(grep '^dio: [0-9]* finding' "$TMP/supp2")" = \
  "dio: $total findings ($((total - 2)) not shown: --max-findings 2): 0 suppressed" ] ||
	{ echo "FAIL: the count after 2 of $total findings printed:"; cat "$TMP/supp2"; fail=1; }

# from the config file
printf 'max_findings = 1;\n' > "$TMP/dio.conf"
"$DIO" analyze "$TMP/t.dio" -C "$TMP/dio.conf" --analyzer errors --no-summary > "$TMP/conf" 2>&1
[ "$(grep -c '^dio: \[WARNING\] errors.burst:' "$TMP/conf")" -eq 1 ] &&
	grep -q 'more errors.burst findings were not shown (--max-findings 1)$' "$TMP/conf" ||
	{ echo "FAIL: max_findings = 1 in the config file:"; cat "$TMP/conf"; fail=1; }

# a bad value: one line, status 2
"$DIO" analyze "$TMP/t.dio" --max-findings lots 2> "$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	grep -qx "dio: --max-findings: 'lots' is not a number (use a whole number from 0 (no limit) to 1000000)" "$TMP/err" ||
	{ echo "FAIL: --max-findings lots: status $rc, stderr:"; cat "$TMP/err"; fail=1; }
exit $fail
