#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# boot.sh --kernel KDIR --out OUTDIR [--timeout SECS] [--keep PATH]... [--env NAME]...
#         [--disk IMAGE [--cut-after NAME SECS]] -- CMD [ARGS]
#
# Run CMD as root on another kernel, with the host's own files: qemu (TCG: nested
# KVM hangs at boot here) boots KDIR (an entry of fetch.sh's cache) with the
# host's / shared read-only over 9p as its root and OUTDIR shared read-write at
# OUTDIR's own path, so CMD's paths are the host's. CMD's output and exit status
# land in OUTDIR/output and OUTDIR/status, the console in OUTDIR/console.log.
#
# Exits with CMD's status, or says in one line what went wrong and exits with
#   124  the timeout hit (default 600 s for boot and CMD together)
#   125  the VM did not boot (the kernel never ran the initramfs)
#   123  the guest set-up failed: a module did not load, or a mount
#   122  the guest kernel crashed (panic, oops, lockup) or stopped while CMD ran
#     2  usage or host-side errors
#
# In the guest, /tmp, /var/tmp, /run and /dev/shm are empty tmpfs; --keep PATH
# binds the host's PATH back (read-only) when it lies under one of them, e.g. a
# build tree in /tmp. CMD gets PATH, HOME=/root, the working directory and the
# variables dio's tests read (DIO*, top_builddir, top_srcdir, srcdir, LANG,
# LC_*, TZ, the sanitizers' *SAN_OPTIONS), plus each --env NAME.
#
# --disk IMAGE: a raw image the guest sees as /dev/vda (virtio), with qemu's
# cache=none: qemu writes what the guest's block layer submits straight into
# IMAGE (O_DIRECT), keeps nothing of its own, and the guest's page cache is
# the only place unwritten data lives. --cut-after NAME SECS cuts the power:
# SECS seconds after CMD creates OUTDIR/NAME, qemu is killed with SIGKILL, so
# the guest neither shuts down nor syncs; boot.sh then says "power cut" and
# exits 0 (CMD's exit status is never written). IMAGE holds what a disk
# without a volatile write cache would hold after a power cut.
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/common.sh"

usage() {
	sed -n '3,4s/^# /usage: /p' "$0" | sed '2s/^usage:/      /' >&2
	exit 2
}

kdir='' out='' timeout=600 keep='' envs='' disk='' cut='' cut_secs=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kdir=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--keep) keep+="${2:?}"$'\n'; shift 2 ;;
	--env) envs+=" ${2:?}"; shift 2 ;;
	--disk) disk=${2:?}; shift 2 ;;
	--cut-after) cut=${2:?}; cut_secs=${3:?}; shift 3 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ -n "$kdir" ] && [ -n "$out" ] && [ $# -gt 0 ] || usage
case $timeout in '' | *[!0-9]*) die "--timeout $timeout: not a number of seconds" ;; esac
case $cut_secs in '' | *[!0-9]*) die "--cut-after $cut $cut_secs: not a number of seconds" ;; esac
[ -z "$cut" ] || [ -n "$disk" ] || die "--cut-after needs --disk: a cut without a disk proves nothing"
case $cut in */* | .*) die "--cut-after $cut: a plain file name in OUTDIR, please" ;; esac
[ -z "$disk" ] || [ -f "$disk" ] || die "--disk $disk: no such image file"
[ -f "$kdir/complete" ] || die "$kdir: not a kernel fetched by fetch.sh (no 'complete' in it)"
kdir=$(cd "$kdir" && pwd -P)
release=$(cat "$kdir/release")

need qemu-system-x86_64 qemu-system-x86
need timeout coreutils
need_static_busybox

mkdir -p "$out"
# the guest mounts the share at this path: no symlink may stand in it
out=$(cd "$out" && pwd -P)
case $out in *$'\n'*) die "--out: a path with a newline cannot be shared" ;; esac
rm -f "$out/status" "$out/output" "$out/times" "$out/console.log"
[ -z "$cut" ] || rm -f "$out/$cut" "$out/power-cut"
drive=()
[ -z "$disk" ] || drive=(-drive "file=${disk//,/,,},format=raw,if=virtio,cache=none,aio=threads")

# sq STRING: STRING quoted for sh
sq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# cmd.sh: the environment, directory and command, as a host user could run it too
{
	echo "# written by boot.sh for $release"
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root"
	names=$(compgen -e | grep -E '^(DIO.*|top_builddir|top_srcdir|srcdir|LANG|LC_.*|TZ|[A-Z]*SAN_OPTIONS)$' || true)
	for n in $names $envs; do
		case $n in
		*=*) echo "export ${n%%=*}=$(sq "${n#*=}")" ;;
		*) [ -z "${!n+set}" ] || echo "export $n=$(sq "${!n}")" ;;
		esac
	done
	echo "cd $(sq "$PWD") 2> /dev/null || cd /"
	printf 'exec'
	for a; do
		printf ' %s' "$(sq "$a")"
	done
	echo
} > "$out/cmd.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dio-boot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/bin" "$tmp/root/etc" "$tmp/root/modules"
cp /bin/busybox "$tmp/root/bin/"
cp "$here/initramfs-init.sh" "$tmp/root/init"
cp "$here/guest-init.sh" "$tmp/root/"
chmod 0755 "$tmp/root/init"
cp "$kdir"/modules/*.ko "$kdir/modules/order" "$tmp/root/modules/"
# 256 KiB 9p messages: the 8 KiB default of 6.1 makes every read a round trip
{
	echo "MSIZE=262144"
	echo "OUTDIR=$(sq "$out")"
	echo "KEEP=$(sq "$keep")"
} > "$tmp/root/etc/dio-boot.conf"
(cd "$tmp/root" && find . | busybox cpio -o -H newc -R 0:0 --quiet > "$tmp/initramfs") ||
	die "cannot build the initramfs"

# qemu reads ',' in an option value as the next option unless doubled
qout=${out//,/,,}
# A guest that locks up, oopses or blocks a task for two minutes panics, and
# with panic=-1 and -no-reboot that ends qemu: a dead guest costs seconds, not
# the timeout. oops=panic also keeps a damaged kernel from running more tests.
# thread=single: with one host thread per vCPU (qemu 7.2's default), a CPU runs
# stale code while the other patches it; turning tracepoints on and off while
# processes fork (what dio does) crashed 6.12 (Oops: int3) and locked up 6.1
# within a minute, without dio as well. One thread for both vCPUs did not.
start=$(date +%s.%N)
timeout -k 5 "$timeout" qemu-system-x86_64 -accel tcg,thread=single -cpu max -m 2048 -smp 2 \
	-nographic -no-reboot -nic none \
	-kernel "$kdir/vmlinuz" -initrd "$tmp/initramfs" \
	-append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 rdinit=/init" \
	-fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=r,mount_tag=rootfs \
	-fsdev "local,id=o,path=$qout,security_model=none,multidevs=remap" \
	-device virtio-9p-pci,fsdev=o,mount_tag=outdir "${drive[@]}" \
	< /dev/null > "$out/console.log" 2>&1 &
qpid=$!
# the power cut: SIGKILL to qemu itself (timeout's child), not a shutdown
if [ -n "$cut" ]; then
	(
		while kill -0 "$qpid" 2> /dev/null; do
			if [ -f "$out/$cut" ]; then
				sleep "$cut_secs"
				qemu=$(ps -o pid= --ppid "$qpid" | tr -d ' ')
				[ -n "$qemu" ] && kill -KILL "$qemu" && touch "$out/power-cut"
				exit 0
			fi
			sleep 0.2
		done
	) &
	cutter=$!
fi
# timeout runs in a process group of its own: a Ctrl-C or kill of this script
# would not reach qemu
walltime() {
	wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	echo "wall=$wall" >> "$out/times"
}
trap 'kill "$qpid" 2> /dev/null; wait "$qpid"; walltime; exit 143' TERM INT HUP
qrc=0
wait "$qpid" || qrc=$?
trap - TERM INT HUP
walltime
if [ -n "$cut" ]; then
	kill "$cutter" 2> /dev/null || true
	wait "$cutter" 2> /dev/null || true
	if [ -f "$out/power-cut" ]; then
		echo "$prog: $release: power cut $cut_secs s after $cut ($wall s in all)" >&2
		exit 0
	fi
fi

# the last "dio-boot:" line tells how far the guest got
stage=$(grep -a '^dio-boot: ' "$out/console.log" | tail -n 1 | tr -d '\r' || true)
# what brought the kernel down: the first report of a bug, else the panic's own line
crash=$(grep -a -m 1 -E 'BUG:|Oops:|general protection fault|blocked for more than|Kernel panic' \
	"$out/console.log" | sed 's/^\[[ 0-9.]*\] //' | tr -d '\r' || true)
if [ -f "$out/status" ]; then
	[ -f "$out/output" ] && cat "$out/output"
	rc=$(cat "$out/status")
	up='' end=''
	[ -f "$out/times" ] && . "$out/times"
	echo "$prog: $release: up in ${up:-?} s, the command exited with $rc after" \
		"$(awk -v u="${up:-0}" -v e="${end:-0}" 'BEGIN { printf "%.1f", e - u }') s, $wall s in all" >&2
	exit "$rc"
fi
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "$prog: $release: the timeout hit: no exit status after $timeout s (last:" \
		"${stage:-the kernel never ran the initramfs}); see $out/console.log" >&2
	exit 124
fi
case $stage in
"dio-boot: FAIL: "*)
	echo "$prog: $release: the guest set-up failed: ${stage#dio-boot: FAIL: } ($wall s); see $out/console.log" >&2
	exit 123
	;;
"")
	# the last line, without the terminal escapes of the firmware
	last=$(sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1b.//g; s/[^[:print:]]//g' "$out/console.log" |
		grep -v '^ *$' | tail -n 1)
	echo "$prog: $release: the VM did not boot (qemu exited with $qrc after $wall s;" \
		"${crash:-last console line: ${last:-none}}); see $out/console.log" >&2
	exit 125
	;;
esac
if [ -n "$crash" ]; then
	echo "$prog: $release: the guest kernel crashed: $crash (after $wall s; last: $stage);" \
		"see $out/console.log" >&2
else
	echo "$prog: $release: the guest stopped without an exit status (qemu exited with $qrc" \
		"after $wall s; last: $stage); see $out/console.log" >&2
fi
exit 122
