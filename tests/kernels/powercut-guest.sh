#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# powercut-guest.sh OUTDIR ROUND: one boot of powercut.sh, in the guest. The
# disk /dev/vda holds an ext4 file system mounted noauto_da_alloc (ext4's
# heuristic for files renamed over others is off, as on XFS) and commit=1
# (the journal commits a rename within a second). In ROUND > 0 the mount
# replays the journal of the power cut that ended the boot before, and what
# the two files hold is written to OUTDIR/powercut.log:
#   new    the version the program wrote before the cut
#   old    the version before it (the rename did not reach the disk: fine)
#   empty  a file of 0 bytes, lost   gone  no file   torn  anything else
# Then, unless ROUND is the last (powercut.sh's), each program saves a new
# version of its file under dio trace with the durability analyzer (its
# findings in OUTDIR/dio.ROUND.json): GNU sed -i, which renames an unsynced
# file over the old one, and rsync --fsync, which fsyncs it before the rename.
# Writeback is held back (dirty pages expire after 60 s), the old versions
# are synced first, and OUTDIR/ready tells the host to cut the power.
set -u
out=$1 round=$2 last=${3:-}
mnt=/run/powercut
log=$out/powercut.log
mkdir -p "$mnt"
mount -t ext4 -o noauto_da_alloc,commit=1 /dev/vda "$mnt" ||
	{ echo "FAIL: cannot mount /dev/vda"; exit 1; }

# state FILE VERSION: new, old, empty, gone or torn
state() {
	if [ ! -e "$1" ]; then
		echo gone
	elif [ ! -s "$1" ]; then
		echo empty
	elif cmp -s "$1" "$mnt/v/$2"; then
		echo new
	elif cmp -s "$1" "$mnt/v/$(($2 - 1))"; then
		echo old
	else
		echo torn
	fi
}

if [ "$round" -gt 0 ]; then
	echo "round $round: sed-i $(state "$mnt/sed/settings.conf" "$round")" \
		"rsync-fsync $(state "$mnt/rsync/settings.conf" "$round")" >> "$log"
fi
[ -n "$last" ] && { umount "$mnt"; exit 0; }

# version N of the file (and, to compare, N+1) on the disk for good
next=$((round + 1))
mkdir -p "$mnt/v" "$mnt/sed" "$mnt/rsync" "$mnt/src"
for v in "$round" "$next"; do
	for i in $(seq 1 64); do echo "version=$v line $i of the settings"; done > "$mnt/v/$v"
done
cp "$mnt/v/$round" "$mnt/sed/settings.conf"
cp "$mnt/v/$round" "$mnt/rsync/settings.conf"
cp "$mnt/v/$next" "$mnt/src/settings.conf"
touch -d '1 hour ago' "$mnt/rsync/settings.conf"
sync
echo 6000 > /proc/sys/vm/dirty_expire_centisecs
echo 6000 > /proc/sys/vm/dirty_writeback_centisecs

"$DIO" trace -q --no-summary --analyzer durability --sink "json:file=$out/dio.$round.json" \
	-- sh -c "sed -i 's/^version=$round /version=$next /' '$mnt/sed/settings.conf' &&
		rsync --fsync '$mnt/src/settings.conf' '$mnt/rsync/settings.conf'" \
	> "$out/dio.$round.out" 2>&1 || echo "dio trace exited with $? in round $round" >> "$log"
touch "$out/ready"
# the host cuts the power within seconds; should it not, say so
sleep 120
echo "FAIL: round $round: the power was not cut"
exit 1
