#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fetch.sh CACHEDIR: put into CACHEDIR the kernels dio's users run that the host
# does not: Debian 12's stock 6.1 and its 6.12 LTS, the newest build of each.
# Only what boot.sh needs is kept (vmlinuz and a few modules, ~15 MB a kernel
# instead of ~500 MB), so CI can cache the directory; a kernel already there is
# not downloaded again, and an older build of the same series is dropped.
#
# DIO_KERNEL_PACKAGES="linux-image-..." fetches exactly those packages instead,
# e.g. to reproduce a failure on an older build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -eq 1 ] && [ "${1#-}" = "$1" ] || { echo "usage: $prog CACHEDIR" >&2; exit 2; }
cache=$1

# Newest of each series. The signed package: -unsigned is the same kernel,
# -dbg has no modules, -rt and -cloud are other configurations.
SERIES=(
	'^linux-image-6\.1\.0-[0-9]+-amd64$'
	'^linux-image-6\.12\.[0-9]+\+deb12-amd64$'
)
# The 9p root needs virtio_pci, 9pnet_virtio and 9p; the integration tests mount
# an ext4 image with mount -o loop. Their dependencies (virtio_ring, netfs,
# fscache on 6.1, jbd2, mbcache, crc16) follow from modinfo. crc32c_generic is
# named because ext4 and jbd2 ask for it only by a soft dependency on the alias
# crypto-crc32c, which needs the modules.alias Debian does not ship; without it
# ext4 refuses the metadata_csum image mkfs.ext4 makes. What a kernel has built
# in (6.12: virtio_pci, fscache) is skipped. virtio_blk: the disk image of the
# power-cut test (powercut.sh); dm_flakey (and dm_mod under it): the failing
# disk of the fsync error test (fsync-eio.sh). A cached kernel fetched for
# another list is fetched again.
WANT="virtio_pci 9pnet_virtio 9p loop crc32c_generic ext4 virtio_blk dm_flakey"

need apt-get apt
need dpkg-deb dpkg
need modinfo kmod
need xz xz-utils

mkdir -p "$cache"
cache=$(cd "$cache" && pwd -P)

# newest PATTERN: the newest package whose name matches PATTERN
newest() {
	apt-cache search --names-only "$1" | awk '{ print $1 }' | grep -E "$1" | sort -V | tail -n 1
}

# The load order of $WANT for the kernel tree at $1 (lib/modules/RELEASE),
# dependencies first, one file name per line, into $2. Modules are indexed by
# name with '-' read as '_', as the kernel does.
declare -A path builtin seen
module_order() {
	local tree=$1 f n
	path=()
	builtin=()
	seen=()
	while IFS= read -r f; do
		n=${f##*/}
		n=${n%%.ko*}
		path[${n//-/_}]=$f
	done < <(find "$tree/kernel" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst')
	if [ -f "$tree/modules.builtin" ]; then
		while IFS= read -r f; do
			n=${f##*/}
			n=${n%.ko}
			builtin[${n//-/_}]=1
		done < "$tree/modules.builtin"
	fi
	for n in $WANT; do
		visit "$n" "$2" "$n" || return 1
	done
}

# visit NAME OUT CHAIN: NAME's dependencies, then NAME; CHAIN names who wanted it
visit() {
	local n=${1//-/_} f d
	[ -z "${seen[$n]:-}" ] || return 0
	seen[$n]=1
	if [ -n "${builtin[$n]:-}" ]; then
		return 0
	fi
	f=${path[$n]:-}
	if [ -z "$f" ]; then
		echo "$prog: module $n ($3) is neither in the package nor built in" >&2
		return 1
	fi
	# the soft pre-dependencies that name a module (not an alias) must load first too
	for d in $(modinfo -F depends "$f" | tr ',' ' ') \
		$(modinfo -F softdep "$f" | sed -n 's/^pre: *//p' | sed 's/ post:.*//'); do
		if [ -n "${path[${d//-/_}]:-}" ] || [ -n "${builtin[${d//-/_}]:-}" ]; then
			visit "$d" "$2" "$3 -> $d" || return 1
		fi
	done
	# busybox insmod in the initramfs takes only uncompressed modules
	case $f in
	*.xz) xz -dc "$f" > "$2/modules/$n.ko" ;;
	*.zst) need zstd zstd && zstd -qdc "$f" > "$2/modules/$n.ko" ;;
	*) cp "$f" "$2/modules/$n.ko" ;;
	esac || return 1
	echo "$n.ko" >> "$2/modules/order"
}

# fetch PACKAGE: CACHEDIR/PACKAGE, unless it is already complete
fetch() {
	local pkg=$1 dir=$cache/$1 tmp deb tree rel
	if [ -f "$dir/complete" ] && [ "$(cat "$dir/want" 2> /dev/null)" = "$WANT" ]; then
		echo "$prog: $pkg: in the cache"
		return 0
	fi
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	# apt's sandbox user _apt cannot write into a private (0700) directory
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User="$(id -un)" "$pkg" > /dev/null) ||
		{ rm -rf "$tmp"; echo "$prog: apt-get download $pkg failed" >&2; return 1; }
	deb=$(echo "$tmp"/*.deb)
	dpkg-deb -x "$deb" "$tmp/x"
	tree=$(echo "$tmp"/x/lib/modules/*)
	rel=${tree##*/}
	mkdir -p "$tmp/k/modules"
	cp "$tmp/x/boot/vmlinuz-$rel" "$tmp/k/vmlinuz"
	# the configuration answers "has this kernel got X?" when a test fails there
	cp "$tmp/x/boot/config-$rel" "$tmp/k/config"
	echo "$rel" > "$tmp/k/release"
	dpkg-deb -f "$deb" Package Version > "$tmp/k/package"
	module_order "$tree" "$tmp/k" || { rm -rf "$tmp"; return 1; }
	echo "$WANT" > "$tmp/k/want"
	touch "$tmp/k/complete"
	rm -rf "$dir"
	mv "$tmp/k" "$dir"
	rm -rf "$tmp"
	echo "$prog: $pkg: $rel, modules $(tr '\n' ' ' < "$dir/modules/order")"
}

status=0
if [ -n "${DIO_KERNEL_PACKAGES:-}" ]; then
	for pkg in $DIO_KERNEL_PACKAGES; do
		fetch "$pkg" || status=1
	done
	exit $status
fi
for re in "${SERIES[@]}"; do
	pkg=$(newest "$re")
	if [ -z "$pkg" ]; then
		echo "$prog: no package matches $re: run apt-get update (Debian 12's main and security suites)" >&2
		status=1
		continue
	fi
	fetch "$pkg" || { status=1; continue; }
	# an older build of the series would only cost CI time and cache space
	for old in "$cache"/*/complete; do
		old=${old%/complete}
		old=${old##*/}
		if [ "$old" != "$pkg" ] && echo "$old" | grep -Eq "$re"; then
			echo "$prog: dropping $old, superseded by $pkg"
			rm -rf "${cache:?}/$old"
		fi
	done
done
exit $status
