#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sqlite3, correct: the 200 autocommit INSERTs of sqlite3-autocommit.sh in
# write-ahead-log mode (PRAGMA journal_mode=WAL). Each commit appends to
# db-wal, which stays open, and syncs it: no file is created and deleted per
# transaction, no directory synced. No WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need sqlite3:sqlite3 strace:strace
mount_ext4
sqlite_inserts sqlite3-wal wal
check "$MNT" << 'PY'
import sys, corpus
mnt = sys.argv[1]
c = corpus.Case("sqlite3-wal")
log = c.strace()
sq = log.pid("sqlite3")
wal = log.opened(sq, mnt + "/app.db-wal")
syncs = sum(len(d.syncs) for d in wal)
print(f"strace: sqlite3 opened app.db-wal {len(wal)} times, synced it {syncs} times")
if len(wal) != 1 or syncs < 200:
    c.fail("strace: expected db-wal opened once and synced for each commit")
c.forbid("redundant-open.create-unlink", "redundant-open.churn",
         "reuse-offset.stale-offset", "reuse-offset.read-past-end")
# no save of a file here that a power cut could empty or cut short
c.forbid(*corpus.DURABILITY)
c.done()
PY
