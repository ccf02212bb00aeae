#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bash, correct: the counterpart of bash-append-loop.sh. The loop's output is
# redirected once, `{ for ...; done; } >> file`: one open, 200 writes through
# it, one close. No WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need bash:bash strace:strace
mount_ext4
cd "$MNT" || exit 1
STRACE=1 record bash-append-block \
	bash -c '{ for i in $(seq 200); do echo "line $i"; done; } >> app.log'
check "$MNT/app.log" << 'PY'
import sys, corpus
path = sys.argv[1]
c = corpus.Case("bash-append-block")
log = c.strace()
d = log.opened(log.pid("bash"), path)
if len(d) != 1 or len(d[0].writes) != 200:
    c.fail(f"strace: bash opened {path} {len(d)} times, expected once with 200 writes")
c.forbid("redundant-open.churn")
# no save of a file here that a power cut could empty or cut short
c.forbid(*corpus.DURABILITY)
c.done()
PY
