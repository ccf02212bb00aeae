#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# redis-server with a log file (package redis-server), bug: Redis 7.0 opens
# its log file, seeks to its end, fstats it, writes one line and closes it,
# for every line it logs (serverLogRaw; the DIO paper's section II, Redis PR
# 10531). At loglevel verbose it logs every connection and
# every disconnection: redis-benchmark -k 0 connects anew for each of its 200
# requests, so Redis opens its log about 400 times. dio must report
# redundant-open.churn for redis-server on its log, count = the opens of the
# log by redis-server in strace's log (at least 400 of them with at most one
# write, closed again: checked).
. "$top_srcdir/tests/real/lib.sh"
need redis-server:redis-server redis-benchmark:redis-tools strace:strace
mount_ext4
redis_verbose_log redis-log-per-line
check "$MNT/redis.log" << 'PY'
import sys, corpus
path = sys.argv[1]
c = corpus.Case("redis-log-per-line")
c.families()
log = c.strace()
pid = log.pid("redis-server")
opens = log.opened(pid, path)
lines = open(path).read().count("\n")
one = [d for d in opens if len(d.writes) <= 1 and d.end is not None]
print(f"strace: redis-server (pid {pid}) opened {path} {len(opens)} times,"
      f" {len(one)} times for at most one line; the log has {lines} lines")
if len(one) < 400:
    c.fail("strace: expected redis-server to open its log for each line, 400 times or more")
c.expect("redundant-open.churn", pid, len(opens), path)
c.done()
PY
