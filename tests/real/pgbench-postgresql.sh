#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# PostgreSQL under pgbench (package postgresql), correct: a private server
# (initdb in the test's directory, a Unix socket there, no TCP) with its
# defaults (fsync on, synchronous commit), pgbench -i -s 2 loading 200000
# accounts, then pgbench's TPC-B-like transactions from 4 clients for 8 s.
# Every commit writes and fsyncs the WAL; the checkpointer, the background
# writer and the WAL writer write the data files beside the backends. That is
# how a database keeps its data: no finding of the families errors,
# redundant-open or reuse-offset, at most 15 findings. The ground truth is
# pgbench's own report (transactions, none failed) and the table it filled.
. "$top_srcdir/tests/real/lib.sh"
# Debian keeps the server's programs in its versioned directory
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
PATH=${pgbin:+$pgbin:}$PATH
need initdb:postgresql postgres:postgresql pgbench:postgresql-client psql:postgresql-client
chmod 711 "$TMP"
mkdir "$TMP/pg" "$TMP/pgsock"
chown postgres:postgres "$TMP/pg" "$TMP/pgsock"
as_pg() {
	setpriv --reuid=postgres --regid=postgres --init-groups "$@"
}
as_pg initdb -D "$TMP/pg" -A trust -U postgres > "$TMP/initdb.out" 2>&1 ||
	{ echo "FAIL: initdb"; cat "$TMP/initdb.out"; exit 1; }
serve pgbench-postgresql setpriv --reuid=postgres --regid=postgres --init-groups \
	postgres -D "$TMP/pg" -k "$TMP/pgsock" -c listen_addresses= -c max_wal_size=64MB
wait_for 30 pg_isready -q -h "$TMP/pgsock" -U postgres
pgbench -h "$TMP/pgsock" -U postgres -i -s 2 -q postgres > "$TMP/pgbench-init.out" 2>&1 &&
	pgbench -h "$TMP/pgsock" -U postgres -c 4 -j 2 -T 8 postgres > "$TMP/pgbench.out" 2>&1 ||
	{ echo "FAIL: pgbench"; cat "$TMP/pgbench-init.out" "$TMP/pgbench.out"; exit 1; }
history=$(psql -h "$TMP/pgsock" -U postgres -Atc 'SELECT count(*) FROM pgbench_history' postgres)
# a fast shutdown: the backends end, the checkpointer writes a last checkpoint
unserve INT
grep -E '^(number of (transactions actually processed|failed transactions)|tps)' "$TMP/pgbench.out"
check "$TMP/pgbench.out" "$history" << 'PY'
import re, sys, corpus
out, history = open(sys.argv[1]).read(), int(sys.argv[2])
c = corpus.Case("pgbench-postgresql")
c.families()
done = int(re.search(r"number of transactions actually processed: (\d+)", out).group(1))
failed = re.search(r"number of failed transactions: (\d+)", out)
print(f"pgbench: {done} transactions, {failed.group(1) if failed else 0} failed;"
      f" pgbench_history holds {history} rows")
if done < 100 or history != done or (failed and int(failed.group(1))):
    c.fail("pgbench: expected at least 100 transactions, each in pgbench_history, none failed")
c.done()
PY
