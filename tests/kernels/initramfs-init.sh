#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the initramfs boot.sh builds: load the modules the 9p root needs,
# mount the host's / and switch_root into it. switch_root, not chroot: dio
# resolves paths from the root of the mount tree, so under a chroot every path
# would gain the initramfs's prefix. The rest (mounts the tests need, running
# the command) is guest-init.sh, after the switch.
#
# Every step says "dio-boot: ..." on the console: boot.sh reads from those lines
# how far the guest got when there is no exit status.
/bin/busybox mkdir -p /proc /sys /dev /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
. /etc/dio-boot.conf

say() {
	echo "dio-boot: $*" > /dev/console
}
# The host tells a failed set-up from a crash by this line; power off rather than
# exit, which would panic and bury it under a backtrace.
fail() {
	say "FAIL: $*"
	poweroff -f
}

say "init started on $(uname -r)"
while read -r m; do
	insmod "/modules/$m" || fail "module ${m%.ko} failed to load"
done < /modules/order
say "modules loaded"

mkdir -p /newroot
# cache=loose: the host's tree does not change under a test, and without a page
# cache every exec and library load goes to the host over 9p.
mount -t 9p -o "ro,trans=virtio,version=9p2000.L,msize=$MSIZE,cache=loose" rootfs /newroot ||
	fail "cannot mount the host's / (9p tag rootfs)"
# guest-init.sh and a busybox it can count on must outlive the initramfs, which
# switch_root empties; the host's / is read-only, /run becomes a tmpfs anyway.
mount -t tmpfs -o mode=0755 tmpfs /newroot/run || fail "cannot mount a tmpfs on /run"
mkdir /newroot/run/dio-boot
cp /bin/busybox /guest-init.sh /etc/dio-boot.conf /newroot/run/dio-boot/ ||
	fail "cannot copy the second stage to /run/dio-boot"
umount /dev /sys /proc
exec switch_root /newroot /run/dio-boot/busybox sh /run/dio-boot/guest-init.sh
