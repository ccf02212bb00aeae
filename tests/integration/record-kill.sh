#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record killed with SIGKILL (the OOM killer, a crash) loses at most
# about --flush-ms (1 s) of records: a slow workload's calls reach the file
# although no 1 MiB block ever filled, and the file reads back (cut short).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

"$DIO" record -q -o "$TMP/k.dio" -- sh -c \
	'for i in $(seq 100); do cat /etc/hostname > /dev/null; sleep 0.1; done' 2> /dev/null &
dio=$!
BG_PIDS="$BG_PIDS $dio"
sleep 4
kill -9 "$dio"
wait "$dio" 2> /dev/null
pkill -f 'seq 100' 2> /dev/null
"$DIO" dump "$TMP/k.dio" > "$TMP/dump" 2> "$TMP/err"
n=$(grep -c 'openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3</etc/hostname>' "$TMP/dump")
# 4 s of one open each 0.1 s, flushed each second: at least the first 2 s are in
if [ "$n" -lt 15 ]; then
	echo "FAIL: $n opens of /etc/hostname survived the kill (expected at least 15 of ~40):"
	cat "$TMP/err"
	fail=1
fi
grep -q "cut short" "$TMP/err" || { echo "FAIL: the reader did not say the file was cut short:"; cat "$TMP/err"; fail=1; }

# a full file system: the blocks written before stay, and dio says how many records they hold
mount_ext4
dd if=/dev/zero of="$MNT/fill" bs=1k count=$(($(df -k "$MNT" | awk 'NR == 2 { print $4 }') - 40)) \
	2> /dev/null
# --level 0: a compressor squeezes these alike calls into the 40 KiB left
"$DIO" record -q --level 0 -o "$MNT/t.dio" -- sh -c 'for i in $(seq 30); do cat /etc/hostname > /dev/null; sleep 0.05; done;
	dd if=/dev/zero of=/dev/null bs=512 count=200000 2> /dev/null' > /dev/null 2> "$TMP/err"
rc=$?
said=$(sed -n 's/.*: No space left on device; it holds the \([0-9]*\) records written before, readable with dio dump$/\1/p' "$TMP/err")
got=$("$DIO" info "$MNT/t.dio" 2> /dev/null | sed -n 's/^records: \([0-9]*\) .*/\1/p')
if [ "$rc" -ne 1 ] || [ -z "$said" ] || [ "$said" != "$got" ] || [ "$got" -lt 1000 ]; then
	echo "FAIL: recording onto a full disk: status $rc, said '$said' records, the file holds '$got':"
	cat "$TMP/err"
	fail=1
fi
grep -q "fell behind" "$TMP/err" && { echo "FAIL: a full disk blamed on a slow writer"; fail=1; }

# the interval is an option, checked
"$DIO" record -o "$TMP/x.dio" --flush-ms 5 -- true 2> "$TMP/err"
rc=$?
[ "$rc" -eq 2 ] && grep -qxF "dio: --flush-ms: '5' is out of range (use 10 to 3600000 milliseconds)" "$TMP/err" ||
	{ echo "FAIL: --flush-ms 5: status $rc, stderr:"; cat "$TMP/err"; fail=1; }
exit $fail
