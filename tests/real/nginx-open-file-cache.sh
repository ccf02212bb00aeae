#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx, correct: nginx-no-file-cache.sh with open_file_cache on: the worker
# opens index.html once and sends it from the cached descriptor for every
# request. No WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need nginx:nginx-light strace:strace python3:python3
mount_ext4
nginx_serve nginx-open-file-cache on
check "$MNT/www/index.html" << 'PY'
import sys, corpus
page = sys.argv[1]
c = corpus.Case("nginx-open-file-cache")
log = c.strace()
opens = [d for p in log.pids("nginx") for d in log.opened(p, page)]
print(f"strace: nginx opened {page} {len(opens)} times")
if len(opens) != 1:
    c.fail("strace: expected the page opened once")
c.forbid("redundant-open.churn", "redundant-open.duplicate-read")
c.done()
PY
