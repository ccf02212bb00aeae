#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Content signatures: what a reader got has the hash of what a writer wrote,
# computed in the kernel or in dio (FNV-1a 64), and --capture-data keeps bytes.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf

printf 'hello\n' > "$TMP/h"
# FNV-1a 64 of "hello\n"
want=a9bc80cca21f28b3
for mode in kernel user; do
	run_dio trace --no-summary --hash $mode --capture-data 16 -e trace=read,write -o "$TMP/out" -- \
		dd if="$TMP/h" of="$TMP/copy" status=none
	[ "$RC" -eq 0 ] || { echo "FAIL: dio --hash $mode exited with $RC"; exit 1; }
	grep -q "read([0-9]*<$TMP/h>, 0x[0-9a-f]*, [0-9]*) = 6 {off=0 type=reg tag=[0-9:|]* hash=$want/6 data=\"hello\\\\n\"}" "$TMP/out" ||
		{ echo "FAIL: --hash $mode: read line"; grep "$TMP/h" "$TMP/out"; exit 1; }
	grep -q "write([0-9]*<$TMP/copy>, 0x[0-9a-f]*, 6) = 6 {off=0 type=reg tag=[0-9:|]* hash=$want/6 data=\"hello\\\\n\"}" "$TMP/out" ||
		{ echo "FAIL: --hash $mode: write line"; grep "$TMP/copy" "$TMP/out"; exit 1; }
done
# --hash-bytes limits what is hashed; without --capture-data no bytes are kept
run_dio trace --no-summary --hash kernel --hash-bytes 2 -e trace=read -o "$TMP/out" -- dd if="$TMP/h" of=/dev/null status=none
grep -q "read([0-9]*<$TMP/h>, 0x[0-9a-f]*, [0-9]*) = 6 {off=0 type=reg tag=[0-9:|]* hash=[0-9a-f]*/2}" "$TMP/out" ||
	{ echo "FAIL: --hash-bytes 2"; grep "$TMP/h" "$TMP/out"; exit 1; }
echo ok
