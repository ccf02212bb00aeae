#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio list rules: one line per rule, "code severity title", for every analyzer
# dio lists and for dio itself; codes unique and named after their analyzer;
# each analyzer's README names exactly the codes it declares (the README is
# what a rule's text comes from). No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
fail=0

"$DIO" list rules > "$TMP/rules" 2> "$TMP/err"
rc=$?
if [ "$rc" -ne 0 ] || [ -s "$TMP/err" ] || [ ! -s "$TMP/rules" ]; then
	echo "FAIL: dio list rules: status $rc, stderr:"
	cat "$TMP/err"
	fail=1
fi
"$DIO" list analyzers 2> /dev/null | sed -n 's/^\([^ ][^ ]*\) .*/\1/p' > "$TMP/analyzers"

# CODE (padded to 32) SEVERITY (padded to 7), two spaces, TITLE
bad=$(grep -Ev '^[a-z0-9_-]+\.[a-z0-9._-]+ +(info   |warning|error  )  [^ ].*$' "$TMP/rules")
if [ -n "$bad" ]; then
	echo "FAIL: lines that are not 'code severity title':"
	echo "$bad"
	fail=1
fi
cut -d' ' -f1 "$TMP/rules" > "$TMP/codes"
dups=$(sort "$TMP/codes" | uniq -d)
if [ -n "$dups" ]; then
	echo "FAIL: codes listed twice: $dups"
	fail=1
fi
while read -r code; do
	if ! grep -qxF "${code%%.*}" "$TMP/analyzers" && [ "${code%%.*}" != dio ]; then
		echo "FAIL: $code belongs to no analyzer dio lists"
		fail=1
	fi
done < "$TMP/codes"
if [ "$(tail -n 1 "$TMP/codes")" != dio.findings-left-out ]; then
	echo "FAIL: dio's own rule is not listed last:"
	tail -n 3 "$TMP/rules"
	fail=1
fi
want="redundant-open.churn             warning  A file opened and closed again and again, with little I/O each time"
if ! grep -qxF "$want" "$TMP/rules"; then
	echo "FAIL: no line '$want'"
	fail=1
fi

# every built-in analyzer: its README's codes are the ones it declares
for readme in "$top_srcdir"/analyzers/*/README.md; do
	name=$(basename "$(dirname "$readme")")
	grep -o "\`$name\.[a-z0-9._-]*\`" "$readme" | tr -d '`' | sort -u > "$TMP/readme.codes"
	grep "^$name\." "$TMP/codes" | sort > "$TMP/listed.codes"
	if [ ! -s "$TMP/listed.codes" ] || ! cmp -s "$TMP/readme.codes" "$TMP/listed.codes"; then
		echo "FAIL: $name: the codes its README names (<) are not those it declares (>):"
		diff "$TMP/readme.codes" "$TMP/listed.codes"
		fail=1
	fi
done
exit $fail
