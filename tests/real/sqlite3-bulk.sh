#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sqlite3 (package sqlite3), correct, a heavy workload: 100000 rows inserted
# in one transaction (a recursive CTE), an index built on them, an UPDATE of
# a tenth of them, a DELETE of another tenth, VACUUM (which rebuilds the
# whole database into a temporary file and copies it back) and an integrity
# check, all in one process with the default rollback journal. Each
# statement is one transaction: a handful of journals in all, not one per
# row. No finding of the families errors, redundant-open or reuse-offset,
# at most 15 findings. The ground truth is SQLite's own answers (the rows
# left, integrity_check's "ok").
. "$top_srcdir/tests/real/lib.sh"
need sqlite3:sqlite3 strace:strace
mount_ext4
cat > "$TMP/bulk.sql" << 'SQL'
CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
INSERT INTO t(k, v) SELECT (i * 7919) % 100000, printf('value %08d %s', i, hex(randomblob(16))) FROM n;
CREATE INDEX t_k ON t(k);
UPDATE t SET v = v || ' updated' WHERE id % 10 = 0;
DELETE FROM t WHERE id % 10 = 1;
VACUUM;
SELECT count(*) FROM t;
PRAGMA integrity_check;
SQL
STRACE=1 record sqlite3-bulk sqlite3 "$MNT/app.db" < "$TMP/bulk.sql"
check "$MNT" "$TMP/sqlite3-bulk.out" << 'PY'
import sys, corpus
mnt, out = sys.argv[1], open(sys.argv[2]).read().split()
journal = mnt + "/app.db-journal"
c = corpus.Case("sqlite3-bulk")
c.families()
log = c.strace()
sq = log.pid("sqlite3")
journals = [d for d in log.opened(sq, journal) if "O_CREAT" in d.open.args]
print(f"sqlite3: {out}; strace: {len(journals)} journals created for 6 statements")
if out != ["90000", "ok"] or len(journals) > 6:
    c.fail("sqlite3: expected 90000 rows, integrity ok, at most one journal per statement")
c.done()
PY
