#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record --rotate-every: a new file each period, even while the program
# is idle, each complete and readable on its own (the paths of the files in
# use carried over); with --rotate N only the last N stay, and they hold the
# latest calls; --rotate without a size or a period is refused.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

mkdir "$TMP/parts"
# 8 numbered writes half a second apart through one fd opened at the start,
# then a second without a call: about 7 periods of 0.7 s, the last 4 kept
run_dio record -o "$TMP/parts/r.dio" --rotate-every 0.7 --rotate 4 -- \
	sh -c 'exec 3> "$1"; for i in 1 2 3 4 5 6 7 8; do echo "n$i" >&3; sleep 0.5; done; sleep 1' \
	sh "$MNT/log" > "$TMP/rec.out" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record --rotate-every exited with $RC:"; cat "$TMP/rec.out"; fail=1; }
[ "$(ls "$TMP/parts")" = "$(printf 'r.dio\nr.dio.1\nr.dio.2\nr.dio.3')" ] ||
	{ echo "FAIL: --rotate 4 left these files:"; ls -l "$TMP/parts"; fail=1; }
last=
for f in "$TMP"/parts/r.dio*; do
	[ "$(stat -c %a "$f")" = 600 ] || { echo "FAIL: $f is mode $(stat -c %a "$f")"; fail=1; }
	"$DIO" info "$f" > "$TMP/info" 2>&1
	grep -qx "blocks: [0-9]* intact, 0 damaged; complete" "$TMP/info" ||
		{ echo "FAIL: $f is not complete:"; tail -5 "$TMP/info"; fail=1; }
	grep -q "^parts=" "$TMP/info" && last=$f
done
# the last part says how many there were: the 5 s run took at least 6 periods
n=
[ -n "$last" ] && n=$("$DIO" info "$last" | sed -n 's/^parts=//p')
[ -n "$n" ] && [ "$n" -ge 6 ] && [ "$n" -le 12 ] ||
	{ echo "FAIL: the last part says parts=$n for a 5 s run in periods of 0.7 s"; fail=1; }
# the kept parts hold the latest writes (sh writes through fd 1 after a dup2;
# the 8th of 3 bytes is at offset 21), each with the file's path
for f in "$TMP"/parts/r.dio*; do "$DIO" dump "$f" -e trace=write; done > "$TMP/writes"
grep -q "write(1<$MNT/log>, 0x[0-9a-f]*, 3) = 3 {off=21 " "$TMP/writes" ||
	{ echo "FAIL: the kept parts miss the last write:"; grep "write(" "$TMP/writes"; fail=1; }
grep -q "write(1<$MNT/log>, 0x[0-9a-f]*, 3) = 3 {off=0 " "$TMP/writes" &&
	{ echo "FAIL: the first write is still kept after $n parts with --rotate 4"; fail=1; }
grep -q "write(1, " "$TMP/writes" &&
	{ echo "FAIL: a part does not know the path of fd 1:"; grep "write(1, " "$TMP/writes"; fail=1; }

"$DIO" record -o "$TMP/x.dio" --rotate 2 -- true > /dev/null 2> "$TMP/bad.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$TMP/bad.err")" -eq 1 ] &&
	grep -q "rotate N needs --max-size SIZE or --rotate-every SECONDS" "$TMP/bad.err" ||
	{ echo "FAIL: --rotate alone: exit $rc:"; cat "$TMP/bad.err"; fail=1; }
"$DIO" record -o "$TMP/x.dio" --rotate-every 0 -- true > /dev/null 2> "$TMP/bad.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "rotate-every: '0' is not a number of seconds greater than 0" "$TMP/bad.err" ||
	{ echo "FAIL: --rotate-every 0: exit $rc:"; cat "$TMP/bad.err"; fail=1; }
exit $fail
