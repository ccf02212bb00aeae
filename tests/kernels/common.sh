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

# build_env: the variables make check sets (tests/local.mk's
# AM_TESTS_ENVIRONMENT), from the tree this script is in when run by hand;
# needs $here, this script's directory
build_env() {
	: "${top_srcdir:=$(cd "$here/../.." && pwd -P)}"
	: "${top_builddir:=$top_srcdir}"
	: "${DIO:=$top_builddir/dio}"
	: "${DIO_ANALYZER_PATH:=$top_builddir/analyzers}"
	: "${DIO_SINK_PATH:=$top_builddir/sinks}"
	export top_srcdir top_builddir DIO DIO_ANALYZER_PATH DIO_SINK_PATH
	cache=${DIO_KERNEL_CACHE:-$top_builddir/tests/kernels/cache}
}

# find_kernels: $kernels, the directories of DIO_KERNELS (names of entries of
# $cache, or kernel directories) or else of every kernel fetch.sh put in $cache
find_kernels() {
	local k c
	kernels=
	if [ -n "${DIO_KERNELS:-}" ]; then
		for k in $DIO_KERNELS; do
			[ -d "$k" ] || k=$cache/$k
			[ -f "$k/complete" ] || die "DIO_KERNELS: $k is no kernel fetched by fetch.sh"
			kernels+=" $k"
		done
	else
		for c in "$cache"/*/complete; do
			[ -f "$c" ] && kernels+=" ${c%/complete}"
		done
	fi
	[ -n "$kernels" ] || die "no kernel in $cache: run tests/kernels/fetch.sh $cache first"
}

# out_and_keep NAME: $base, where a test of its own (powercut.sh) puts its
# logs (DIO_KERNEL_OUT/NAME, or a new directory), and $keep, boot.sh's --keep
# of the source and build trees
out_and_keep() {
	local p
	base=${DIO_KERNEL_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/dio-$1.XXXXXX")}/$1
	mkdir -p "$base"
	keep=()
	for p in "$top_srcdir" "$top_builddir"; do
		keep+=(--keep "$(cd "$p" && pwd -P)")
	done
}
