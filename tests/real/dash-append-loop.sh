#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dash (Debian's /bin/sh), bug: the loop of bash-append-loop.sh in the shell
# that runs Debian's maintainer and init scripts. Its redirection for a builtin
# differs from bash's (fcntl F_DUPFD saves fd 1 and closes it, dup2 puts the
# file there, a second dup2 restores it), the pattern is the same: one
# redundant-open.churn for the dash process, one cycle per open strace sees.
. "$top_srcdir/tests/real/lib.sh"
need dash:dash strace:strace
mount_ext4
shell_loop dash-append-loop dash
check "$MNT/app.log" << 'PY'
import sys, corpus
c = corpus.Case("dash-append-loop")
pid, n = corpus.appends(c, c.strace(), "dash", sys.argv[1])
c.expect("redundant-open.churn", pid, n, sys.argv[1])
c.done()
PY
