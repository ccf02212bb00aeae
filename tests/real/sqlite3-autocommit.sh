#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sqlite3, bug: 200 INSERTs, each its own transaction (autocommit), in the
# default rollback-journal mode (journal_mode=DELETE). For every transaction
# SQLite creates db-journal, writes the old pages into it, fdatasyncs it,
# opens the directory only to fdatasync it (so the new journal's name is on
# disk), updates the database and deletes the journal again: the SQLite FAQ's
# "INSERT is really slow - I can only do few dozen INSERTs per second".
# dio must report, for the sqlite3 process, redundant-open.create-unlink on
# db-journal with as many cycles as strace sees; it may also report the
# directory's open-fsync-close cycles as redundant-open.churn on the
# directory, and then with as many cycles as strace sees. SQLite also reads past the end of the journal it has
# just written (an 8-byte read at the next sector boundary, to see whether a
# journal header follows): its own bytes, no data loss, so no reuse-offset
# finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need sqlite3:sqlite3 strace:strace
mount_ext4
sqlite_inserts sqlite3-autocommit autocommit
check "$MNT" << 'PY'
import sys, corpus
mnt = sys.argv[1]
journal = mnt + "/app.db-journal"
c = corpus.Case("sqlite3-autocommit")
log = c.strace()
sq = log.pid("sqlite3")
created = [d for d in log.opened(sq, journal) if "O_CREAT" in d.open.args]
unlinks = log.removals(sq, journal)
synced = [d for d in created if d.syncs and d.writes]
dirsyncs = [d for d in log.opened(sq, mnt) if d.syncs and not d.reads and not d.writes and d.end]
print(f"strace: sqlite3 created {journal} {len(created)} times ({len(synced)} written and"
      f" synced), unlinked it {len(unlinks)} times; opened {mnt} {len(dirsyncs)} times to sync it")
if not (len(created) == len(unlinks) == len(synced) == len(dirsyncs) == 201):
    c.fail("strace: expected 201 transactions (CREATE TABLE and 200 INSERTs), each one cycle")
c.expect("redundant-open.create-unlink", sq, len(unlinks), journal)
# the directory's syncs belong to the journal's cycles (the create-unlink finding counts
# them); SQLite's stat of a hot journal or WAL before each transaction, failing with
# ENOENT, is how it asks whether there is one: no churn, no errors.burst
c.forbid("reuse-offset.stale-offset", "reuse-offset.read-past-end", "redundant-open.churn",
         "errors.burst")
c.done()
PY
