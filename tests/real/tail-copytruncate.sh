#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tail -F (coreutils), correct: it follows a log that logrotate rotates with
# copytruncate while the application goes on writing. When tail sees the file
# shrink below the offset it read to ("file truncated") it starts again at
# 0, so it delivers every line. No WARNING or ERROR finding may come of it,
# and dio report's offset view shows no read past the end of the cut file.
. "$top_srcdir/tests/real/lib.sh"
need tail:coreutils logrotate:logrotate strace:strace
mount_ext4
copytruncate tail-copytruncate "tail -F -n +1 app.log > $TMP/delivered.log"
[ "$(wc -l < "$TMP/delivered.log")" -eq 140 ] || { echo "FAIL: tail lost lines"; exit 1; }
# dio report's offset view: after the cut tail reads again, never past the end
offsets_view tail-copytruncate "$MNT/app.log"
grep -q " tail stale=0 after=[1-9]" "$TMP/tail-copytruncate.offsets" ||
	{ echo "FAIL: the report's offset view does not show tail reading the cut file from its start"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("tail-copytruncate")
c.forbid("reuse-offset.stale-offset", "reuse-offset.read-past-end")
c.done()
PY
