#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# redis-server (package redis-server), bug: a server whose logging fails.
# Its log file is on a file system that is full. Redis opens the log for
# each line (redis-log-per-line), and each write of a line fails with
# ENOSPC; Redis ignores the error (serverLogRaw does not look at what
# fprintf and fflush return) and goes on serving: at loglevel verbose, 200
# connections of redis-benchmark -k 0 log about 400 lines, none of which
# reaches the file. dio must report errors.burst for redis-server, count =
# its failed writes to the log (from strace), path the log; and, since each
# line is its own open, redundant-open.churn on the log with the opens
# strace counts.
. "$top_srcdir/tests/real/lib.sh"
need redis-server:redis-server redis-benchmark:redis-tools strace:strace
mount_ext4
: > "$MNT/redis.log"
fill_fs
redis_verbose_log redis-log-enospc
check "$MNT/redis.log" << 'PY'
import os, sys, corpus, stracelog
path = sys.argv[1]
c = corpus.Case("redis-log-enospc")
c.families()
log = c.strace()
pid = log.pid("redis-server")
opens = log.opened(pid, path)
failed = [x for x in log.calls if x.name in stracelog.WRITES and x.fdpath == path
          and x.ret == -1 and log.tgid.get(x.pid) == pid]
print(f"strace: redis-server (pid {pid}) opened its log {len(opens)} times; {len(failed)}"
      f" writes to it failed; the log holds {os.path.getsize(path)} bytes")
if len(failed) < 400 or os.path.getsize(path) != 0:
    c.fail("expected 400 failed writes of the log or more, and nothing in it")
c.expect("errors.burst", pid, len(failed), path)
c.expect("redundant-open.churn", pid, len(opens), path)
c.done()
PY
