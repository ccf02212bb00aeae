#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# redis-server under redis-benchmark (packages redis-server, redis-tools),
# correct: a private server on a Unix socket, its data in the test's
# directory, with the append-only file on (appendfsync everysec, Redis's
# recommended durability: a background thread fsyncs the AOF once a second)
# and its log on standard output, as under systemd. redis-benchmark sends
# 100000 SETs, GETs, INCRs and LPUSHes from 20 clients; SHUTDOWN saves an RDB
# snapshot. Appending every write to the AOF is the design: no finding of
# the families errors, redundant-open or reuse-offset, at most 15 findings.
# The ground truth is redis's own: the keys and list it holds, and INFO's
# persistence status.
. "$top_srcdir/tests/real/lib.sh"
need redis-server:redis-server redis-benchmark:redis-tools redis-cli:redis-tools
mkdir "$TMP/redis"
serve redis-benchmark redis-server --port 0 --unixsocket "$TMP/redis.sock" \
	--dir "$TMP/redis" --appendonly yes --appendfsync everysec --save 3600 1
wait_for 20 test -S "$TMP/redis.sock"
redis-benchmark -s "$TMP/redis.sock" -n 100000 -c 20 -r 10000 -t set,get,incr,lpush -q \
	> "$TMP/bench.out" 2>&1 || { echo "FAIL: redis-benchmark"; cat "$TMP/bench.out"; exit 1; }
cli() {
	redis-cli -s "$TMP/redis.sock" "$@"
}
keys=$(cli DBSIZE)
list=$(cli LLEN mylist)
aof=$(cli INFO persistence | tr -d '\r' | grep -E '^aof_(enabled|last_write_status):')
cli SHUTDOWN > /dev/null 2>&1
wait "$SERVE_REC" || exit 1
tr '\r' '\n' < "$TMP/bench.out" | grep 'requests per second'
check "$keys" "$list" "$aof" "$TMP/redis" << 'PY'
import os, sys, corpus
keys, lst, aof, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(), sys.argv[4]
c = corpus.Case("redis-benchmark")
c.families()
print(f"redis: {keys} keys, mylist of {lst} elements, {' '.join(aof)};"
      f" files: {sorted(os.listdir(d))}")
if keys < 1000 or lst != 100000 or "aof_enabled:1" not in aof \
        or "aof_last_write_status:ok" not in aof or "dump.rdb" not in os.listdir(d):
    c.fail("redis: expected the keys, 100000 LPUSHes, an AOF written without error and an RDB")
c.done()
PY
