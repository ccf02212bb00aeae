#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fsync-eio-guest.sh OUTDIR: fsync-eio.sh's boot, in the guest. /dev/vda
# becomes a device-mapper device (dm-linear, or dm-flakey with error_writes:
# every write fails with EIO, reads still work) that holds an ext4 file
# system. Under dio trace with the durability analyzer:
#   healthy  multilog (daemontools) logs 64 lines, then sees the end of its
#            input: it fsyncs its current file and marks it complete (0744)
#   eio      the same, but the device fails writes from the moment multilog
#            has written the lines until it has reported the failed fsync:
#            multilog pauses 5 s and tries again (as its manual says), and
#            that fsync succeeds on the healthy device
#   dd       dd conv=fsync writes a file while the device fails writes: its
#            fsync fails and dd stops with the error
# The eio run is recorded (OUTDIR/eio.dio) and its findings come from dio
# analyze of the recording (fsync-eio.sh analyzes it again on the host).
# Each run's findings go to OUTDIR/dio.RUN.json (written to the guest's /tmp
# first: a write to the 9p share can fail with EINTR when the traced program
# ends, and dio's json sink does not retry it), the program's stderr to
# OUTDIR/RUN.err; OUTDIR/fsync-eio.log gets, after the file system was
# mounted again (nothing of the page cache left), what each file holds:
#   RUN rc N mode M bytes B holds intact|zeros|torn
set -u
out=$1
mnt=/run/fsync-eio
tmp=/tmp/fsync-eio
log=$out/fsync-eio.log
dm=dioflaky
rm -f "$log"

fail() {
	echo "FAIL: $*"
	exit 1
}

command -v dmsetup > /dev/null || fail "no dmsetup (package dmsetup)"
command -v multilog > /dev/null || fail "no multilog (package daemontools)"
sectors=$(blockdev --getsz /dev/vda) || fail "no disk /dev/vda"
linear="0 $sectors linear /dev/vda 0"
# up 0 s, down 1 s: always down; error_writes fails writes, not reads
failing="0 $sectors flakey /dev/vda 0 0 1 1 error_writes"

# table TABLE: the device's table replaced. --nolockfs: suspending would
# otherwise freeze the file system, which writes out the dirty pages first.
# No udev runs in the guest: --noudevsync, and the node made by mknodes.
table() {
	dmsetup suspend --nolockfs --noudevsync "$dm" &&
		dmsetup load "$dm" --table "$1" &&
		dmsetup resume --noudevsync "$dm" || fail "cannot load the table $1"
}

dmsetup create --noudevsync "$dm" --table "$linear" || fail "dmsetup create $dm"
dmsetup mknodes "$dm"
mkfs.ext4 -q -F "/dev/mapper/$dm" || fail "mkfs.ext4 /dev/mapper/$dm"
mkdir -p "$mnt" "$tmp"
# commit=60: no periodic journal commit while the device fails writes (a
# failed journal write would abort the journal and make the file system
# read-only: the error would no longer be the data's alone)
mount -t ext4 -o commit=60 "/dev/mapper/$dm" "$mnt" || fail "cannot mount /dev/mapper/$dm"
mkdir -p "$mnt/healthy" "$mnt/eio"
for i in $(seq 1 64); do
	echo "multilog line $i: the data a log writer promises to keep"
done > "$out/lines"
bytes=$(wc -c < "$out/lines")
sync
# writeback held back: the data reaches the disk at multilog's fsync only
echo 6000 > /proc/sys/vm/dirty_expire_centisecs
echo 6000 > /proc/sys/vm/dirty_writeback_centisecs

# wait_for SECS CMD...: CMD polled until it succeeds, for at most SECS
wait_for() {
	t=$(($1 * 10))
	shift
	while ! "$@"; do
		t=$((t - 1))
		[ "$t" -gt 0 ] || return 1
		sleep 0.1
	done
}
size_is() {
	[ "$(stat -c %s "$1" 2> /dev/null)" = "$2" ]
}

# multilog_run RUN DIO-ARGS...: multilog under dio DIO-ARGS; the lines are
# fed, and the input ends when OUTDIR/RUN.eof appears
multilog_run() {
	r=$1
	shift
	rm -f "$out/$r.eof"
	"$DIO" "$@" -- sh -c "{ cat '$out/lines'; while [ ! -e '$out/$r.eof' ]; do sleep 0.1; done; } |
			multilog '$mnt/$r' 2> '$out/$r.err'; echo \$? > '$out/$r.rc'" \
		> "$out/dio.$r.out" 2>&1 &
	dio=$!
	wait_for 120 size_is "$mnt/$r/current" "$bytes" ||
		fail "$r: multilog did not write its $bytes bytes"
}

# healthy: the end of the input, the fsync, the mode 0744
multilog_run healthy trace -q --no-summary --analyzer durability \
	--sink "json:file=$tmp/dio.healthy.json"
touch "$out/healthy.eof"
wait "$dio" || echo "dio trace exited with $? in the healthy run" >> "$log"

# eio: the lines in the page cache, then the device fails every write
multilog_run eio record -q -o "$tmp/eio.dio"
table "$failing"
touch "$out/eio.eof"
wait_for 60 grep -q 'unable to write' "$out/eio.err" ||
	fail "eio: multilog reported no failed write to disk"
# multilog pauses 5 s before it tries again: the device is healthy by then
table "$linear"
wait "$dio" || echo "dio record exited with $? in the eio run" >> "$log"
"$DIO" analyze "$tmp/eio.dio" -q --no-summary --analyzer durability \
	--sink "json:file=$tmp/dio.eio.json" > "$out/dio.eio.analyze" 2>&1 ||
	echo "dio analyze exited with $? in the eio run" >> "$log"

# dd: the same failing device under a program that stops at the error
table "$failing"
"$DIO" trace -q --no-summary --analyzer durability --sink "json:file=$tmp/dio.dd.json" \
	-- sh -c "dd if='$out/lines' of='$mnt/dd.out' bs=512 conv=fsync 2> '$out/dd.err';
		echo \$? > '$out/dd.rc'" > "$out/dio.dd.out" 2>&1 ||
	echo "dio trace exited with $? in the dd run" >> "$log"
table "$linear"

cp "$tmp"/dio.*.json "$tmp/eio.dio" "$out/"

# holds FILE: intact, zeros (all NUL bytes: the data never reached the disk) or torn
holds() {
	if cmp -s "$1" "$out/lines"; then
		echo intact
	elif [ -s "$1" ] && [ -z "$(tr -d '\000' < "$1" | head -c 1)" ]; then
		echo zeros
	else
		echo torn
	fi
}

# what the disk holds, not the page cache
umount "$mnt" || fail "cannot unmount $mnt"
mount -t ext4 "/dev/mapper/$dm" "$mnt" || fail "cannot mount /dev/mapper/$dm again"
for r in healthy eio; do
	f=$mnt/$r/current
	echo "$r rc $(cat "$out/$r.rc" 2> /dev/null || echo none) mode $(stat -c %a "$f")" \
		"bytes $(stat -c %s "$f") holds $(holds "$f")" >> "$log"
done
f=$mnt/dd.out
echo "dd rc $(cat "$out/dd.rc" 2> /dev/null || echo none) mode $(stat -c %a "$f")" \
	"bytes $(stat -c %s "$f") holds $(holds "$f")" >> "$log"
umount "$mnt"
dmsetup remove "$dm"
exit 0
