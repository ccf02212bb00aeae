#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sqlite3, correct: the INSERTs of sqlite3-autocommit.sh in one transaction
# (BEGIN ... COMMIT), as the SQLite FAQ advises. One journal is created,
# synced and deleted, and the directory synced once. SQLite still reads past
# the end of the journal it wrote (8 bytes at the next sector boundary): its
# own bytes, not data loss. No WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need sqlite3:sqlite3 strace:strace
mount_ext4
sqlite_inserts sqlite3-transaction transaction
check "$MNT" << 'PY'
import sys, corpus
mnt = sys.argv[1]
journal = mnt + "/app.db-journal"
c = corpus.Case("sqlite3-transaction")
log = c.strace()
sq = log.pid("sqlite3")
unlinks = log.removals(sq, journal)
past = [(o, n) for d in log.opened(sq, journal) for o, n, _ in d.reads if n == 0]
print(f"strace: sqlite3 deleted {journal} {len(unlinks)} times; reads past its end: {past}")
if len(unlinks) != 2 or not past:
    c.fail("strace: expected two journals (CREATE TABLE, the transaction), read past their end")
c.forbid("redundant-open.create-unlink", "redundant-open.churn",
         "reuse-offset.stale-offset", "reuse-offset.read-past-end")
# no save of a file here that a power cut could empty or cut short
c.forbid(*corpus.DURABILITY)
c.done()
PY
