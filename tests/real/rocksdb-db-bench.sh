#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# RocksDB's db_bench (package rocksdb-tools), the heavy database. Its
# foreground thread writes at a fixed rate (benchmark_write_rate_limit, 8 MiB/s):
# first 300000 keys in order (fillseq: only flushes, since compactions of
# keys in order are trivial moves without I/O), then the same keys at random
# (overwrite). Then compactions of level 0 into level 1 (level 1 may grow to
# 256 MiB, so there are no others) read and rewrite the SST files in two or
# three background threads (rocksdb:low, with subcompactions, and
# rocksdb:high, flushing), and RocksDB slows its writer down to 1 MiB/s
# whenever level 0 holds two files, that is whenever such a compaction is due
# (level0_slowdown_writes_trigger, delayed_write_rate): the foreground's
# appends to the write-ahead log thin out while the compactions run, the
# interference SILK and the DIO paper measured. dio must report
# contention.background-io for db_bench among at most 10 findings.
. "$top_srcdir/tests/real/lib.sh"
need db_bench:rocksdb-tools
mkdir "$TMP/db"
DIO_LIMIT=180 record rocksdb-db-bench sh -c 'echo $$ > "$0/db_bench.pid"; exec "$@"' "$TMP" \
	db_bench --benchmarks=fillseq,overwrite --num=300000 --value_size=200 \
	--db="$TMP/db" --compression_type=none --benchmark_write_rate_limit=8388608 \
	--write_buffer_size=2097152 --target_file_size_base=2097152 \
	--max_bytes_for_level_base=268435456 --max_background_jobs=4 --subcompactions=2 \
	--level0_file_num_compaction_trigger=2 --level0_slowdown_writes_trigger=2 \
	--level0_stop_writes_trigger=4 --delayed_write_rate=1048576
grep -E '^(fillseq|overwrite) ' "$TMP/rocksdb-db-bench.out"
check "$(cat "$TMP/db_bench.pid")" << 'PY'
import sys, corpus
pid = int(sys.argv[1])
c = corpus.Case("rocksdb-db-bench")
c.expect("contention.background-io", pid, None)
c.allow("redundant-open.churn", "RocksDB calls std::thread::hardware_concurrency() twice for"
        " every new memtable, and glibc answers it by opening and reading"
        " /sys/devices/system/cpu/online each time")
c.allow("access-pattern.small-requests", "with one writer RocksDB appends each key to its"
        " write-ahead log with a write() of about 230 bytes, and compactions read the SST"
        " files in data blocks of just under 4 KiB")
c.done(most=10)
PY
