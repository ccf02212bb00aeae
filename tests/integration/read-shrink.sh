#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A trace file cut short while dio reads it (another dio record rotating it,
# a clumsy truncate): dump ends where the file now ends and says so; it never
# dies of SIGBUS, which a mapping of the file gives on pages past the new end.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf

# ~1 600 000 records packed but not compressed: a file of tens of MiB, read in pieces
run_dio record --level 0 -o "$TMP/t.dio" -- "$top_builddir/bench/callcost" "$TMP/file" 16 50000 \
	> "$TMP/rec.out" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC:"; cat "$TMP/rec.out"; exit 1; }
size=$(stat -c %s "$TMP/t.dio")
[ "$size" -ge 16000000 ] || { echo "FAIL: want a trace of 16 MB or more, got $size bytes"; exit 1; }

# dump blocks on a full pipe nobody reads; then the file shrinks to 1 MiB under it
mkfifo "$TMP/pipe"
"$DIO" dump "$TMP/t.dio" > "$TMP/pipe" 2> "$TMP/err" &
pid=$!
exec 3< "$TMP/pipe"
sleep 1
truncate -s 1M "$TMP/t.dio"
lines=$(wc -l <&3)
exec 3<&-
wait $pid
rc=$?
if [ "$rc" -gt 128 ]; then
	echo "FAIL: dio dump died of signal $((rc - 128)) when the file shrank under it:"
	cat "$TMP/err"
	exit 1
fi
grep -q "t.dio: cut short while dio read it: recovered [0-9]* records" "$TMP/err" || {
	echo "FAIL: dio dump did not say the file was cut short while it read it (exit $rc):"
	cat "$TMP/err"
	exit 1
}
[ "$rc" -ne 0 ] || { echo "FAIL: dio dump of a file cut short exited 0"; exit 1; }
[ "$lines" -gt 1000 ] || { echo "FAIL: dio dump printed only $lines lines before the cut"; exit 1; }
echo "PASS: cut short under dump: exit $rc, $lines lines, then: $(cat "$TMP/err")"
