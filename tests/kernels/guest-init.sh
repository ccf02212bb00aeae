#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# PID 1 after switch_root: / is the host's / over 9p, read-only. Mount what a
# test expects of a Debian host, put the writable share at OUTDIR's own path,
# run OUTDIR/cmd.sh (written by boot.sh) and power off. Runs under the busybox
# copied to /run/dio-boot, so that it does not depend on the host's tools.
bb=/run/dio-boot/busybox
. /run/dio-boot/dio-boot.conf
# what lands in OUTDIR is the host user's alone, as with boot.sh's own files
umask 077

say() {
	echo "dio-boot: $*" > /dev/console
}
fail() {
	say "FAIL: $*"
	$bb sync
	$bb poweroff -f
}
# mnt TYPE DIR [OPTIONS]
mnt() {
	$bb mkdir -p "$2"
	$bb mount -t "$1" ${3:+-o "$3"} "$1" "$2" || fail "cannot mount $1 on $2"
}

mnt proc /proc
mnt sysfs /sys
mnt devtmpfs /dev
mnt devpts /dev/pts gid=5,mode=620,ptmxmode=666
mnt tmpfs /dev/shm mode=1777,nosuid,nodev
say "switched root"

# The 9p root alone, without what is mounted on it below: kept paths hidden
# by the tmpfs mounts are bound back from here.
$bb mkdir -p /run/dio-boot/host
$bb mount --bind / /run/dio-boot/host || fail "cannot bind / to /run/dio-boot/host"

# Tests write into /tmp and /var/tmp; /run is a tmpfs already (initramfs-init.sh).
mnt tmpfs /tmp mode=1777,nosuid,nodev
mnt tmpfs /var/tmp mode=1777,nosuid,nodev
# A test finds cgroup v2 through /proc/self/mounts. Mounted where Debian 12
# (pure v2, the CI machine) has it; a hybrid host's /sys/fs/cgroup/unified
# would need a tmpfs of controller directories no test reads.
mnt cgroup2 /sys/fs/cgroup nsdelegate
mnt tracefs /sys/kernel/tracing
mnt debugfs /sys/kernel/debug
mnt bpf /sys/fs/bpf mode=0700

# KEEP: host paths under the tmpfs mounts above (a build tree in /tmp) that the
# command needs to see, read-only as everything else of the host
echo "$KEEP" | while IFS= read -r p; do
	case $p in
	/tmp/* | /var/tmp/* | /run/* | /dev/shm/*)
		[ -d "/run/dio-boot/host$p" ] || fail "kept path $p is no directory on the host"
		$bb mkdir -p "$p"
		$bb mount --bind "/run/dio-boot/host$p" "$p" || fail "cannot bind $p"
		;;
	esac
done

$bb mkdir -p "$OUTDIR"
$bb mount -t 9p -o "trans=virtio,version=9p2000.L,msize=$MSIZE,cache=mmap" outdir "$OUTDIR" ||
	fail "cannot mount the writable share (9p tag outdir) on $OUTDIR"
[ -f "$OUTDIR/cmd.sh" ] || fail "no $OUTDIR/cmd.sh: the share is not OUTDIR"

# up is the time from the kernel's start to the command, for boot.sh's report
read -r up _ < /proc/uptime
echo "up=$up" > "$OUTDIR/times"
say "running the command (up $up s)"
/bin/sh "$OUTDIR/cmd.sh" < /dev/null > "$OUTDIR/output" 2>&1
rc=$?
read -r end _ < /proc/uptime
echo "end=$end" >> "$OUTDIR/times"
# the status last: its presence tells boot.sh the command ran to its end
echo "$rc" > "$OUTDIR/status"
say "the command exited with $rc"
$bb sync
$bb umount "$OUTDIR"
$bb poweroff -f
