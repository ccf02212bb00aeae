# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the integration tests (sourced). They need root and a BTF kernel:
# without them they exit 77 (automake's SKIP) and say why.

: "${DIO:=$top_builddir/dio}"
WL=$top_builddir/tests/workloads

need_root_bpf() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: needs root (BPF); run 'sudo make check'"
		exit 77
	fi
	if [ ! -r /sys/kernel/btf/vmlinux ]; then
		echo "SKIP: the kernel has no BTF (/sys/kernel/btf/vmlinux)"
		exit 77
	fi
	# one BPF test at a time: checks of what is loaded must not see another test's dio
	exec 8> /tmp/dio-integration.lock
	flock 8
}

TMP=$(mktemp -d /tmp/dio-test.XXXXXX)
MNT=
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# A journaled ext4 image on a loop device: it hands a freed inode number out
# again at once (tmpfs never does), and it has inode generations.
mount_ext4() {
	truncate -s 64M "$TMP/img"
	mkfs.ext4 -q -F -O has_journal "$TMP/img" || { echo "FAIL: mkfs.ext4"; exit 1; }
	MNT=$TMP/mnt
	mkdir -p "$MNT"
	mount -o loop "$TMP/img" "$MNT" || { echo "FAIL: cannot mount an ext4 image"; exit 1; }
}

# expect_lines EXPECTED ACTUAL: each expected line must appear in ACTUAL, in
# order among the lines of the same [pid/tid thread; other lines may come between.
expect_lines() {
	awk -v expfile="$1" '
	function key(l) { return substr(l, 1, index(l, " ")) }
	BEGIN {
		while ((getline l < expfile) > 0) {
			k = key(l); n[k]++; want[k, n[k]] = l; total++
		}
		for (k in n) pos[k] = 1
	}
	{
		k = key($0)
		if ((k in pos) && pos[k] <= n[k] && $0 == want[k, pos[k]]) { pos[k]++; found++ }
		seen[k, ++cnt[k]] = $0
	}
	END {
		bad = 0
		for (k in n) {
			if (pos[k] > n[k]) continue
			bad = 1
			printf "FAIL: expected line %d of %s not found in order:\n  %s\n", pos[k], k, want[k, pos[k]]
			printf "lines of %s in the output:\n", k
			for (i = 1; i <= cnt[k] && i <= 200; i++) printf "  %s\n", seen[k, i]
		}
		if (!bad) printf "ok: %d expected lines found\n", total
		exit bad
	}' "$2"
}

# dio's exit within a deadline; sets RC
run_dio() {
	timeout 120 "$DIO" "$@"
	RC=$?
}
