#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# RocksDB's db_bench (package rocksdb-tools), the heavy database. Its
# foreground thread writes at a fixed rate (benchmark_write_rate_limit, 8 MiB/s):
# first 600000 keys in order (fillseq: only flushes, since compactions of
# keys in order are trivial moves without I/O), then the same keys at random
# (overwrite). Then compactions of level 0 into level 1 (level 1 may grow to
# 256 MiB, so there are no others) read and rewrite the SST files in a
# background thread (rocksdb:low; rocksdb:high flushes), and RocksDB slows
# its writer down to 1 MiB/s whenever level 0 holds two files, that is
# whenever such a compaction is due (level0_slowdown_writes_trigger,
# delayed_write_rate): the foreground's appends to the write-ahead log thin
# out while a compaction runs, the write stall SILK and the DIO paper measured.
# Each compaction rewrites level 1, which the 600000 keys make 140 MB: with
# half as many, when the machine had little else to do, the compactions were
# short, overwrite ran at 6.9 MB/s against fillseq's 8, and the few stalled
# windows could not be told from the flushes (with 600000, overwrite runs at
# 3 to 5 MB/s).
# RocksDB's own LOG says how often it stalled the writer ("Stalling writes
# because we have 2 level-0 files"): at least once, or the case made nothing
# to find. dio must report contention.background-io for db_bench, comparing
# the windows with 1 background thread busy (the one compaction) and with
# none, with its cost, among at most 10 findings.
. "$top_srcdir/tests/real/lib.sh"
need db_bench:rocksdb-tools
mkdir "$TMP/db"
DIO_LIMIT=180 record rocksdb-db-bench sh -c 'echo $$ > "$0/db_bench.pid"; exec "$@"' "$TMP" \
	db_bench --benchmarks=fillseq,overwrite --num=600000 --value_size=200 \
	--db="$TMP/db" --compression_type=none --benchmark_write_rate_limit=8388608 \
	--write_buffer_size=2097152 --target_file_size_base=2097152 \
	--max_bytes_for_level_base=268435456 --max_background_jobs=4 --subcompactions=2 \
	--level0_file_num_compaction_trigger=2 --level0_slowdown_writes_trigger=2 \
	--level0_stop_writes_trigger=4 --delayed_write_rate=1048576
grep -E '^(fillseq|overwrite) ' "$TMP/rocksdb-db-bench.out"
check "$(cat "$TMP/db_bench.pid")" "$(grep -c 'Stalling writes because' "$TMP/db/LOG")" << 'PY'
import re, sys, corpus
pid, stalls = int(sys.argv[1]), int(sys.argv[2])
c = corpus.Case("rocksdb-db-bench")
print(f"rocksdb-db-bench: RocksDB's LOG: writes stalled {stalls} times")
if not stalls:
    c.fail("RocksDB never stalled the writer: the run had no contention to find")
c.expect("contention.background-io", pid, None)
for f in c.findings:
    if f["code"] != "contention.background-io" or f["pid"] != pid:
        continue
    # the stalls come while the one compaction of level 0 runs
    if not re.search(r" while 1(-[0-9]+)? background threads? did I/O, against none$",
                     f["title"]):
        c.fail(f"contention.background-io: not 1 busy against none: {f['title']}")
    if not f.get("cost_ns") or f.get("processes") != 1:
        c.fail(f"contention.background-io: cost {f.get('cost_ns')} ns, processes"
               f" {f.get('processes')}: expected a cost, and 1 process")
    print(f"rocksdb-db-bench: dio: {f['title']}; cost {f.get('cost_ns', 0) / 1e9:.2f} s")
c.allow("access-pattern.small-requests", "with one writer RocksDB appends each key to its"
        " write-ahead log with a write() of about 230 bytes, and compactions read the SST"
        " files in data blocks of just under 4 KiB")
c.done(most=10)
PY
