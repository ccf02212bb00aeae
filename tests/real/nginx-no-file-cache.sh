#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx, bug: serving the same small static file 200 times without
# open_file_cache (nginx's default): for every request the worker opens the
# file, fstats it, sends it with sendfile and closes it again. nginx's
# documentation offers open_file_cache to keep descriptors of frequently
# used files open. dio must report one redundant-open.churn for the worker
# process on index.html, one cycle per request: the opens strace sees.
. "$top_srcdir/tests/real/lib.sh"
need nginx:nginx-light strace:strace python3:python3
mount_ext4
nginx_serve nginx-no-file-cache off
check "$MNT/www/index.html" << 'PY'
import sys, corpus
page = sys.argv[1]
c = corpus.Case("nginx-no-file-cache")
log = c.strace()
workers = [p for p in log.pids("nginx") if log.opened(p, page)]
if len(workers) != 1:
    c.fail(f"strace: {len(workers)} nginx processes opened {page}, expected the one worker")
worker = workers[0]
cycles = log.opened(worker, page)
bad = [d for d in cycles if d.end is None or d.reads or d.writes]
print(f"strace: the worker (pid {worker}) opened {page} {len(cycles)} times,"
      f" {len(cycles) - len(bad)} times to send it and close it")
if len(cycles) != 200 or bad:
    c.fail("strace: expected one open, sendfile and close per request")
c.expect("redundant-open.churn", worker, len(cycles), page)
c.done()
PY
