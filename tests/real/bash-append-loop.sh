#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bash, bug: a loop that appends each line with `echo ... >> file`. echo is a
# builtin, so bash itself opens the file for every line (onto fd 3, dup2 to
# fd 1, close 3), writes one line and closes it again (the dup2 that puts
# the saved stdout back). dio must report one redundant-open.churn for the
# bash process with as many open-close cycles as strace sees it open the file.
. "$top_srcdir/tests/real/lib.sh"
need bash:bash strace:strace
mount_ext4
cd "$MNT" || exit 1
STRACE=1 record bash-append-loop \
	bash -c 'for i in $(seq 200); do echo "line $i" >> app.log; done'
check "$MNT/app.log" << 'PY'
import sys, corpus
path = sys.argv[1]
c = corpus.Case("bash-append-loop")
log = c.strace()
bash = log.pid("bash")
cycles = log.opened(bash, path)
# each: one write of one line, ended within the process
bad = [d for d in cycles if len(d.writes) != 1 or d.end is None]
if len(cycles) != 200 or bad:
    c.fail(f"strace: bash opened {path} {len(cycles)} times, {len(bad)} not one write each")
c.expect("redundant-open.churn", bash, len(cycles), path)
c.done()
PY
