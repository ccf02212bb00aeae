# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the host side of the kernel matrix (fetch.sh, boot.sh, matrix.sh).
# CI starts from a bare machine and make check-kernels may be its first user of
# qemu: a missing tool is installed here rather than failing half way through.

# Debian keeps modinfo and switch_root's friends in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
# Results, initramfs and downloads are nobody else's business.
umask 077
prog=${0##*/}

die() {
	echo "$prog: $*" >&2
	exit 2
}

# apt_install PACKAGE...: packages are installed only when missing, as root
apt_install() {
	[ "$(id -u)" -eq 0 ] || die "missing $*: run 'apt-get install $*' as root (or install-deps.sh)"
	echo "$prog: installing $*" >&2
	# a fresh machine may not have read the package lists yet
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" > /dev/null ||
		{ apt-get update -q > /dev/null &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" > /dev/null; } ||
		die "cannot install $*"
}

# need COMMAND PACKAGE
need() {
	command -v "$1" > /dev/null 2>&1 || apt_install "$2"
	command -v "$1" > /dev/null 2>&1 || die "$2 is installed but $1 is still not found"
}

# The initramfs runs busybox before any file system is mounted: only the
# static build works there, and Debian's plain busybox package is not.
need_static_busybox() {
	dpkg-query -W -f '${Status}\n' busybox-static 2> /dev/null | grep -q ' installed$' ||
		apt_install busybox-static
	[ -x /bin/busybox ] || die "busybox-static is installed but /bin/busybox is not there"
}
