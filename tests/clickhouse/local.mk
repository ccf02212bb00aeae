# SPDX-License-Identifier: GPL-2.0-or-later
# ClickHouse tests: server.sh runs a private clickhouse-server (Debian's package) in a
# directory of its own, HTTP on 127.0.0.1 only, for tests to start, kill and restart.
# server-selftest.sh proves it does. SKIP (77) only where clickhouse-server is not installed.
# sink.sh: the clickhouse sink and dio push against it (rows equal to the recording's, a
# second host, the documented queries, push twice, the server killed mid-session).
# faults.sh: the same through faultproxy.py, a proxy that fails on purpose (stored then 502,
# stored then cut off, 500s, numbers no batch has, rows that stop coming), two pushes at
# once, a full spool, and trace files whose session id is not one.
# schema.sh: the schema as its users expect it (time, errno, severity_level, sort keys), tables an
# earlier dio made or pre-created with LowCardinality brought to it, ttl_days where TTL is not.
# dashboard.sh: the fleet dashboard's queries of docs/clickhouse.md, as written, against two
# hosts' pushed recordings: each answer equal to what the recordings hold.
# away.sh: the server down when dio trace and dio push start: they spool and deliver once it is
# up; a spool that fills meanwhile counts its losses.
# live.sh: --report-every: a finding is a row while the program runs, its update one more row.
CLICKHOUSE_TESTS = tests/clickhouse/server-selftest.sh tests/clickhouse/sink.sh \
	tests/clickhouse/away.sh tests/clickhouse/schema.sh \
	tests/clickhouse/dashboard.sh tests/clickhouse/live.sh \
	tests/clickhouse/faults.sh
TESTS += $(CLICKHOUSE_TESTS)
EXTRA_DIST += $(CLICKHOUSE_TESTS) tests/clickhouse/server.sh tests/clickhouse/faultproxy.py \
	tests/clickhouse/lib.sh
