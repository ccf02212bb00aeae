#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A file deleted and created again under the same name gets the same inode
# number on a journaled ext4 (tests/workloads/reuse.c): dio's file tags must
# tell the two files apart by their generation, and the path of each tag is
# sent once.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

run_dio trace --no-summary --sink console:paths=true -o "$TMP/out" -- \
	"$WL/reuse" "$MNT" 9> "$TMP/expect" > "$TMP/numbers"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; cat "$TMP/numbers"; exit 1; }
read -r ino g1 g2 < "$TMP/numbers"
expect_lines "$TMP/expect" "$TMP/out" || fail=1

# the same, read back from what dio printed for the two writes
tag_of() {
	awk -v file="<$MNT/log>, " -v ret=", $1) = $1 {off=0 type=reg tag=" '
	index($0, " reuse] write(") && index($0, file) && index($0, ret) {
		t = $0
		sub(/.* tag=/, "", t)
		sub(/}$/, "", t)
		print t
	}' "$TMP/out"
}
t1=$(tag_of 100)
t2=$(tag_of 50)
ino1=$(echo "$t1" | cut -d'|' -f2)
ino2=$(echo "$t2" | cut -d'|' -f2)
gen1=$(echo "$t1" | cut -d'|' -f3)
gen2=$(echo "$t2" | cut -d'|' -f3)
if [ -z "$t1" ] || [ -z "$t2" ]; then
	echo "FAIL: dio printed no tag for one of the writes ('$t1', '$t2')"
	fail=1
elif [ "$ino1" != "$ino2" ] || [ "$ino1" != "$ino" ]; then
	echo "FAIL: the writes' inode numbers are $ino1 and $ino2; the file system said $ino"
	fail=1
elif [ "$gen1" = "$gen2" ]; then
	echo "FAIL: the two files have the same tag $t1: dio cannot tell them apart"
	fail=1
elif [ "$gen1" != "$g1" ] || [ "$gen2" != "$g2" ]; then
	echo "FAIL: generations $gen1 and $gen2 in dio's output, $g1 and $g2 from FS_IOC_GETVERSION"
	fail=1
fi

# one path record per tag of the file
for g in "$g1" "$g2"; do
	n=$(grep -c "\] path [0-9]*:[0-9]*|$ino|$g reg \"$MNT/log\"$" "$TMP/out")
	if [ "$n" -ne 1 ]; then
		echo "FAIL: $n path records for tag $ino|$g, expected 1:"
		grep "\] path " "$TMP/out"
		fail=1
	fi
done
exit $fail
