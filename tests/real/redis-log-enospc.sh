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
# fill the file system, the blocks kept for root too: redis runs as root here
dd if=/dev/zero of="$MNT/fill" bs=1M 2> /dev/null
i=0
while echo "a line to fill the last blocks" >> "$MNT/fill2" 2> /dev/null && [ $i -lt 100000 ]; do
	i=$((i + 1))
done
mkdir "$TMP/redis"
STRACE=1 serve redis-log-enospc redis-server --port 0 --unixsocket "$TMP/redis.sock" \
	--dir "$TMP/redis" --save "" --logfile "$MNT/redis.log" --loglevel verbose
wait_for 20 test -S "$TMP/redis.sock"
redis-benchmark -s "$TMP/redis.sock" -n 200 -c 1 -k 0 -t ping_inline -q \
	> "$TMP/bench.out" 2>&1 || { echo "FAIL: redis-benchmark"; cat "$TMP/bench.out"; exit 1; }
unserve TERM
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
