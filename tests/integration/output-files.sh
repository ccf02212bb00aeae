#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files dio writes hold the paths (and with --capture-data the bytes) of every
# file it traced: each one is created 0600 whatever the umask, an existing
# file it overwrites becomes 0600, and a symbolic link planted at the path
# is refused with one line rather than followed (root writing through a link
# in /tmp could overwrite any file). A closed standard fd does not make the
# trace file fd 2. The trace file dio dump or analyze reads is never their output.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
umask 022

mode() { stat -c %a "$1"; }
check_mode() {	# WHAT FILE
	[ -f "$2" ] && [ "$(mode "$2")" = 600 ] ||
		{ echo "FAIL: $1: $2 has mode $(mode "$2" 2> /dev/null), expected 600"; fail=1; }
}

"$DIO" record -q -o "$TMP/t.dio" --hash user --capture-data 16 -- cat /etc/hostname > /dev/null 2>&1 ||
	{ echo "FAIL: dio record"; exit 1; }
check_mode "record -o" "$TMP/t.dio"
"$DIO" trace -q -o "$TMP/console.txt" --sink console --sink "json:file=$TMP/t.json" \
	--analyzer "summary:output=$TMP/summary.txt" \
	--analyzer "latency:output=$TMP/latency.txt" -- true 2> /dev/null ||
	{ echo "FAIL: dio trace with outputs"; fail=1; }
"$DIO" trace -q --sink "json:file=$TMP/t.json.gz" -- true 2> /dev/null ||
	{ echo "FAIL: dio trace with a gzip json sink"; fail=1; }
check_mode "console -o" "$TMP/console.txt"
check_mode "json sink" "$TMP/t.json"
check_mode "json sink, gzip" "$TMP/t.json.gz"
check_mode "summary:output=" "$TMP/summary.txt"
check_mode "latency:output=" "$TMP/latency.txt"
"$DIO" dump "$TMP/t.dio" -o "$TMP/dump.txt" 2> /dev/null || { echo "FAIL: dio dump -o"; fail=1; }
check_mode "dump -o" "$TMP/dump.txt"

# an existing file that others could read is private once dio wrote it
printf 'old\n' > "$TMP/old.json"
chmod 644 "$TMP/old.json"
"$DIO" analyze "$TMP/t.dio" --sink "json:file=$TMP/old.json" > /dev/null 2>&1 ||
	{ echo "FAIL: analyze into an existing file"; fail=1; }
check_mode "an existing 0644 file overwritten" "$TMP/old.json"

# a symbolic link at the output path: refused, and what it points to is untouched
printf 'secret\n' > "$TMP/victim"
chmod 600 "$TMP/victim"
ln -s "$TMP/victim" "$TMP/link"
refused() {	# WHAT CMD...: exits non-zero, says why in a line naming the link
	what=$1
	shift
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ] || ! grep -q "'*$TMP/link'*.*symbolic link, which dio does not write through" "$TMP/err"; then
		echo "FAIL: $what through a symbolic link: status $rc, stderr:"
		cat "$TMP/err"
		fail=1
	fi
	[ "$(cat "$TMP/victim")" = secret ] || { echo "FAIL: $what wrote through the link"; fail=1; }
	[ -L "$TMP/link" ] || { echo "FAIL: $what replaced the link"; fail=1; }
}
refused "record -o" "$DIO" record -q -o "$TMP/link" -- true
refused "json sink" "$DIO" trace -q --sink "json:file=$TMP/link" -- true
refused "console -o" "$DIO" trace -o "$TMP/link" -- true
refused "dump -o" "$DIO" dump "$TMP/t.dio" -o "$TMP/link"
refused "summary:output=" "$DIO" analyze "$TMP/t.dio" --analyzer "summary:output=$TMP/link"
# with standard error closed, the trace file must not become fd 2 and take the summary
"$DIO" record -o "$TMP/closed.dio" -- true 2>&-
rc=$?
if [ "$rc" -ne 0 ] || grep -q "calls" "$TMP/closed.dio" || ! "$DIO" info "$TMP/closed.dio" > /dev/null 2>&1; then
	echo "FAIL: record with stderr closed: status $rc, and the trace file is damaged or holds the summary"
	fail=1
fi
# names and arguments a traced program chose reach the terminal escaped (dio info as dump)
esc=$(printf '\033')
"$DIO" record -q -o "$TMP/esc.dio" -- sh -c 'printf "n\033[31m" > /proc/self/comm; cat /etc/hostname' \
	"a${esc}]0;title" > /dev/null 2>&1 || { echo "FAIL: record for the escapes"; fail=1; }
"$DIO" info "$TMP/esc.dio" > "$TMP/info" 2>&1
if grep -q "$esc" "$TMP/info" || ! grep -qF 'a\33]0;title' "$TMP/info" ||
	! grep -qF 'n\33[31m' "$TMP/info"; then
	echo "FAIL: dio info printed control characters raw (or lost them):"
	cat -v "$TMP/info"
	fail=1
fi
# the output is the trace file being read: refused in one line, and the trace stays whole
cp "$TMP/t.dio" "$TMP/same.dio"
sum=$(cksum < "$TMP/same.dio")
for args in "dump $TMP/same.dio -o $TMP/same.dio" "dump $TMP/same.dio --format json -o $TMP/same.dio" \
	"analyze $TMP/same.dio --sink json:file=$TMP/same.dio"; do
	# shellcheck disable=SC2086
	"$DIO" $args > /dev/null 2> "$TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
		! grep -q "'$TMP/same.dio': it is the trace file being read: write to another file$" "$TMP/err"; then
		echo "FAIL: dio $args: status $rc, stderr:"
		cat "$TMP/err"
		fail=1
	fi
	[ "$(cksum < "$TMP/same.dio")" = "$sum" ] || { echo "FAIL: dio $args changed its input"; fail=1; }
done
# -o FILE holds everything the console would print, the summary's tables
# last (strace -c -o FILE); summary:output= still sends them elsewhere
"$DIO" analyze "$TMP/t.dio" -o "$TMP/an.txt" > "$TMP/an.out" 2> "$TMP/an.err" ||
	{ echo "FAIL: dio analyze -o"; fail=1; }
grep -q '^% time .* syscall$' "$TMP/an.txt" && [ ! -s "$TMP/an.err" ] && [ ! -s "$TMP/an.out" ] || {
	echo "FAIL: dio analyze -o FILE: the summary is not in FILE alone; stderr:"
	cat "$TMP/an.err"
	fail=1
}
"$DIO" trace -o "$TMP/tr.txt" -- cat /etc/hostname > /dev/null 2>&1 || { echo "FAIL: dio trace -o"; fail=1; }
exited=$(grep -n '+++ exited with 0 +++' "$TMP/tr.txt" | cut -d: -f1)
table=$(grep -n '^% time .* syscall$' "$TMP/tr.txt" | cut -d: -f1)
[ -n "$exited" ] && [ -n "$table" ] && [ "$exited" -lt "$table" ] ||
	{ echo "FAIL: dio trace -o FILE: want the events, then the summary (lines '$exited', '$table')"; fail=1; }
"$DIO" analyze "$TMP/t.dio" -o "$TMP/an2.txt" --analyzer "summary:output=$TMP/sum2.txt" 2> /dev/null
grep -q '^% time' "$TMP/sum2.txt" && ! grep -q '^% time' "$TMP/an2.txt" ||
	{ echo "FAIL: summary:output= did not win over -o"; fail=1; }
check_mode "summary through -o" "$TMP/an.txt"
# without -o, the console's own output= names the file (the command's
# standard output is only its default)
"$DIO" dump "$TMP/t.dio" --sink "console:output=$TMP/dump.txt" > "$TMP/dump.out" 2> /dev/null ||
	{ echo "FAIL: dio dump --sink console:output="; fail=1; }
grep -q 'openat(' "$TMP/dump.txt" && [ ! -s "$TMP/dump.out" ] ||
	{ echo "FAIL: dio dump --sink console:output=FILE: the calls are not in FILE alone"; fail=1; }
"$DIO" analyze "$TMP/t.dio" --no-summary --sink "console:output=$TMP/an3.txt,events=true" \
	> "$TMP/an3.out" 2> /dev/null || { echo "FAIL: dio analyze --sink console:output="; fail=1; }
grep -q 'openat(' "$TMP/an3.txt" && [ ! -s "$TMP/an3.out" ] ||
	{ echo "FAIL: dio analyze --sink console:output=FILE: the calls are not in FILE alone"; fail=1; }
check_mode "console:output=" "$TMP/dump.txt"

# standard output and devices still work
"$DIO" dump "$TMP/t.dio" -o /dev/null || { echo "FAIL: dump -o /dev/null"; fail=1; }
[ "$(mode /dev/null)" = 666 ] || { echo "FAIL: /dev/null's mode changed"; fail=1; }
exit $fail
