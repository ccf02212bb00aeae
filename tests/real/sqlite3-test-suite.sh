#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sqlite3 run 40 times (package sqlite3), bug: a test suite's way of filling
# a database, one sqlite3 process per INSERT. Each process runs one
# transaction in the default rollback-journal mode: it creates app.db-journal,
# writes the old pages into it, fdatasyncs it and the directory, updates the
# database and deletes the journal. 40 processes, so no process repeats
# anything; the cost is the journal's 40 create-sync-delete cycles, paid
# because the statements are not run in one transaction (or one process).
# dio must report one finding, redundant-open.create-unlink on
# app.db-journal with count 40 (the journal's creations by the sqlite3
# processes, each deleted by the process that made it, from strace), naming
# the time those cycles took, for the work of the 40 processes together (not
# 40 findings).
. "$top_srcdir/tests/real/lib.sh"
need sqlite3:sqlite3 strace:strace
mount_ext4
cd "$MNT" || exit 1
sqlite3 app.db 'CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT);'
cat > "$TMP/suite.sh" << 'SH'
i=1
while [ $i -le 40 ]; do
	sqlite3 app.db "INSERT INTO log(msg) VALUES('test $i');" || exit 1
	i=$((i + 1))
done
SH
STRACE=1 record sqlite3-test-suite sh "$TMP/suite.sh"
rows=$(sqlite3 app.db 'SELECT count(*) FROM log')
[ "$rows" = 40 ] || { echo "FAIL: the table has $rows rows, not 40"; exit 1; }
check "$MNT" << 'PY'
import sys, corpus
mnt = sys.argv[1]
journal = mnt + "/app.db-journal"
c = corpus.Case("sqlite3-test-suite")
c.families()
log = c.strace()
sq = log.pids("sqlite3")
cycles = 0
for p in sq:
    made = [d for d in log.opened(p, journal) if "O_CREAT" in d.open.args and d.writes and d.syncs]
    if len(made) == 1 and len(log.removals(p, journal)) == 1:
        cycles += 1
print(f"strace: {len(sq)} sqlite3 processes; {cycles} of them created, wrote, synced and"
      f" deleted {journal} once")
if len(sq) != 40 or cycles != 40:
    c.fail("strace: expected 40 processes, each one journal cycle")
c.expect_across("redundant-open.create-unlink", set(sq) | set(log.pids("sh")), cycles, journal)
c.done()
PY
