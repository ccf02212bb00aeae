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
shell_loop bash-append-loop bash
check "$MNT/app.log" << 'PY'
import sys, corpus
c = corpus.Case("bash-append-loop")
pid, n = corpus.appends(c, c.strace(), "bash", sys.argv[1])
c.expect("redundant-open.churn", pid, n, sys.argv[1])
c.done()
PY
