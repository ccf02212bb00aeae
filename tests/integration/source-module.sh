#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio dump/analyze --from SCHEME:... read through the module of that scheme
# (tests/unit/modules/fakesrc.c): its records, its clock and losses, its
# error after the records it gave (exit 1); a scheme no module offers, and
# clickhouse: in a dio built without libcurl, refused in one line that names
# the module, without the URL's password; a trace file whose name looks like
# a scheme read as the file. No BPF: replays only.
. "$top_srcdir/tests/integration/lib.sh"
fx=$(cd "$top_srcdir/tests/fixtures" && pwd)
DIO=$(cd "$(dirname "$DIO")" && pwd)/$(basename "$DIO")
MODS=$(cd "$top_builddir/tests/unit/modules/.libs" && pwd)
fail=0

# the records, timed with the source's clock offset, and the loss it keeps
DIO_SINK_PATH=$MODS "$DIO" dump -ttt --from fakesrc:n=2 > "$TMP/out" 2> "$TMP/err"
rc=$?
printf '%s\n' '1700000001.000000 [100/100 fake0] +++ exec "fake0" +++' \
	'1700000002.000000 [101/101 fake1] +++ exec "fake1" +++' > "$TMP/want"
[ $rc -eq 0 ] || { echo "FAIL: dump --from fakesrc: exit $rc"; cat "$TMP/err"; fail=1; }
cmp -s "$TMP/out" "$TMP/want" || { echo "FAIL: dump --from fakesrc:"; diff "$TMP/want" "$TMP/out"; fail=1; }
grep -q '^dio: warning: 7 records lost: the ring buffer was full' "$TMP/err" ||
	{ echo "FAIL: the source's loss was not reported:"; cat "$TMP/err"; fail=1; }

# an error after two records: both shown, the error said, exit 1
DIO_SINK_PATH=$MODS "$DIO" dump -ttt --from fakesrc:n=2,fail=1 > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: a failing source: exit $rc, not 1"; fail=1; }
cmp -s "$TMP/out" "$TMP/want" || { echo "FAIL: the records before the error:"; cat "$TMP/out"; fail=1; }
grep -qx 'dio: fakesrc: the store went away after 2 records' "$TMP/err" ||
	{ echo "FAIL: the source's error was not said:"; cat "$TMP/err"; fail=1; }

# no module of that scheme: one line naming it, no password
"$DIO" analyze --from "nosuch:url=http://dio:s3cret@db:8123,session=x" > "$TMP/out" 2> "$TMP/err"
rc=$?
printf '%s\n' "dio: nosuch:url=http://dio:***@db:8123,session=x: no such trace file, and this dio has no module 'nosuch' to read nosuch: sources (dio list sinks shows the modules it has)" > "$TMP/want"
[ $rc -eq 1 ] || { echo "FAIL: no module: exit $rc, not 1"; fail=1; }
cmp -s "$TMP/err" "$TMP/want" || { echo "FAIL: no module:"; diff "$TMP/want" "$TMP/err"; fail=1; }

# clickhouse: read by the clickhouse module, or, built without it, refused naming it
"$DIO" analyze --from "clickhouse:url=http://dio:s3cret@127.0.0.1:1,session=x" > "$TMP/out" 2> "$TMP/err"
rc=$?
if [ "$DIO_CLICKHOUSE" = no ]; then
	printf '%s\n' "dio: clickhouse:url=http://dio:***@127.0.0.1:1,session=x: no such trace file, and this dio has no module 'clickhouse' to read clickhouse: sources (dio list sinks shows the modules it has)" > "$TMP/want"
	"$DIO" push "$fx/v1.dio" --to http://127.0.0.1:1 > /dev/null 2> "$TMP/push.err"
	prc=$?
	[ $prc -ne 0 ] && grep -qx "dio: no sink named 'clickhouse'; see 'dio list sinks' (or give a path to a .so)" \
		"$TMP/push.err" || { echo "FAIL: dio push without the module (exit $prc):"; cat "$TMP/push.err"; fail=1; }
else
	printf '%s\n' "dio: http://127.0.0.1:1: Couldn't connect to server" > "$TMP/want"
fi
[ $rc -eq 1 ] || { echo "FAIL: clickhouse: exit $rc, not 1"; fail=1; }
cmp -s "$TMP/err" "$TMP/want" || { echo "FAIL: clickhouse: (module built: ${DIO_CLICKHOUSE:-yes})"; diff "$TMP/want" "$TMP/err"; fail=1; }

# a trace file named like a source is the file
cp "$fx/v1.dio" "$TMP/run:1.dio"
(cd "$TMP" && "$DIO" dump run:1.dio) > "$TMP/out" 2> "$TMP/err" ||
	{ echo "FAIL: dump run:1.dio:"; cat "$TMP/err"; fail=1; }
"$DIO" dump "$fx/v1.dio" > "$TMP/want" 2> /dev/null
cmp -s "$TMP/out" "$TMP/want" || { echo "FAIL: run:1.dio was not read as the trace file"; fail=1; }

[ $fail -eq 0 ] && echo "ok: sources by scheme: records, clock, losses, errors, a missing module"
exit $fail
