#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The correct counterpart of rocksdb-db-bench.sh: the same db_bench, the same
# writer at 8 MiB/s, the same compactions of level 0 (two files trigger one),
# but RocksDB's own level-0 limits (it slows writes down at 20 files, stops
# them at 36), which one compaction at a time keeps far below: the writer is
# never held back, and its appends to the write-ahead log go on at the same
# rate whether a compaction runs or not. RocksDB's LOG must show no stall;
# dio must make no contention finding of any kind (the compactions and
# flushes are busy as often as in the bug case: there is something to judge,
# and it is fine).
. "$top_srcdir/tests/real/lib.sh"
need db_bench:rocksdb-tools
mkdir "$TMP/db"
DIO_LIMIT=180 record rocksdb-db-bench-steady sh -c 'echo $$ > "$0/db_bench.pid"; exec "$@"' \
	"$TMP" db_bench --benchmarks=fillseq,overwrite --num=600000 --value_size=200 \
	--db="$TMP/db" --compression_type=none --benchmark_write_rate_limit=8388608 \
	--write_buffer_size=2097152 --target_file_size_base=2097152 \
	--max_bytes_for_level_base=268435456 --max_background_jobs=4 --subcompactions=2 \
	--level0_file_num_compaction_trigger=2
grep -E '^(fillseq|overwrite) ' "$TMP/rocksdb-db-bench-steady.out"
check "$(cat "$TMP/db_bench.pid")" "$(grep -c 'Stalling writes because' "$TMP/db/LOG")" << 'PY'
import sys, corpus
pid, stalls = int(sys.argv[1]), int(sys.argv[2])
c = corpus.Case("rocksdb-db-bench-steady")
print(f"rocksdb-db-bench-steady: RocksDB's LOG: writes stalled {stalls} times")
if stalls:
    c.fail(f"RocksDB stalled the writer {stalls} times: the counterpart is not steady")
c.forbid("contention.background-io", "contention.not-judged")
# not about contention: the same program's own habits, as in the bug case
c.allow("access-pattern.small-requests", "with one writer RocksDB appends each key to its"
        " write-ahead log with a write() of about 230 bytes, and compactions read the SST"
        " files in data blocks of just under 4 KiB")
c.done(most=10)
PY
