#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A deleted and re-created file that gets the same inode number has a new
# file tag generation, and its path is sent again.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4

run_dio trace --no-summary --sink console:paths=true -o "$TMP/out" -- \
	"$WL/reuse" "$MNT" "$TMP/expect" > "$TMP/truth"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; exit 1; }
read -r ino g1 g2 < "$TMP/truth"
[ "$g1" != "$g2" ] || { echo "FAIL: the workload saw the same generation twice ($g1)"; exit 1; }
expect_lines "$TMP/expect" "$TMP/out" || exit 1
# one path record per generation
n=$(grep -c "path [0-9]*:[0-9]*|$ino|\($g1\|$g2\) reg \"$MNT/log\"" "$TMP/out")
[ "$n" -eq 2 ] || { echo "FAIL: expected 2 path records for inode $ino, found $n"; grep "path " "$TMP/out"; exit 1; }
