#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ClickHouse schema (version 2, docs/clickhouse.md) as its users expect it:
#  - every table has `time`, a DateTime the server computes from ts (its
#    seconds); calls have `errno`, the name of the errno a call failed
#    with ("" for a call that did not fail); findings have severity_level,
#    1 2 3 for info warning error, so that max() sorts them;
#  - the tables dio makes are ordered by the hour first (across hosts);
#  - tables an earlier dio made (schema 1: no sessions.info; schema 2 before
#    time and errno), some columns pre-created as LowCardinality(String),
#    are written to: dio adds the missing columns (said, once), keeps their
#    rows (whose time the server computes too), records version 2, and a
#    session stored there reads back as its recording (dio dump --from);
#    MATERIALIZED or ALIAS columns of the user's own after dio's are kept;
#  - a database of a newer schema version, ttl_days on 18.16 (TTL came
#    with 19.6) and a bad ttl_days: a one-line reason and exit status 1.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/clickhouse/lib.sh"
need_root_bpf
ch_start
fail=0
SPOOL=$TMP/spool
SINK="clickhouse:url=$U,spool=$SPOOL"
# check WHAT GOT WANT
check() {
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: got '$2', want '$3'"
		fail=1
	fi
}

# ---- the tables as this dio makes them ----
run_dio record -q --no-summary -o "$TMP/a.dio" --sink "$SINK" --analyzer all -- sh -c \
	"cat '$TMP/missing' 2> /dev/null; \"$WL/demo\" '$TMP/demo'"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record with the clickhouse sink exited with $RC"; exit 1; }
SA=$(session_of "$TMP/a.dio")
check "the recording stored" "$(stored dio "$SA")" "$(counts "$TMP/a.dio")"
for t in calls paths procs block runq findings sessions; do
	check "$t.time" "$(q "SELECT type FROM system.columns WHERE database = 'dio' AND table = '$t' AND name = 'time'")
$(q "SELECT countIf(toUInt64(time) != intDiv(ts, 1000000000)) FROM dio.$t WHERE session = '$SA'")" "DateTime
0"
done
# the failed openat of the missing file, named; no name where a call did not fail
check "errno of the missing file's openat" \
	"$(q "SELECT ret, errno FROM dio.calls WHERE session = '$SA' AND syscall = 'openat' AND (str0 = '$TMP/missing' OR str1 = '$TMP/missing')")" \
	"-2	ENOENT"
check "calls with an errno and a ret that is no error" \
	"$(q "SELECT countIf(errno != ''), countIf(errno = '') FROM dio.calls WHERE session = '$SA' AND (ret >= 0 OR ret < -4095)")" \
	"0	$(q "SELECT countIf(ret >= 0 OR ret < -4095) FROM dio.calls WHERE session = '$SA'")"
run_dio analyze --no-summary "$TMP/a.dio" --analyzer all --sink "json:file=$TMP/f.json" > /dev/null 2>&1
jq -r 'select(.type == "finding") | .severity + "\t" + ({"info": "1", "warning": "2", "error": "3"}[.severity])' \
	"$TMP/f.json" | sort > "$TMP/sev.want"
q "SELECT severity, severity_level FROM dio.findings WHERE session = '$SA'" | sort > "$TMP/sev.got"
if ! cmp -s "$TMP/sev.want" "$TMP/sev.got" || [ ! -s "$TMP/sev.got" ]; then
	echo "FAIL: the findings' severity_level:"
	diff "$TMP/sev.want" "$TMP/sev.got"
	fail=1
fi
check "error sorts above warning" \
	"$(q "SELECT max(severity_level), argMax(severity, severity_level) FROM (SELECT 'warning' AS severity, toUInt8(2) AS severity_level UNION ALL SELECT severity, severity_level FROM dio.findings WHERE severity = 'error' UNION ALL SELECT 'error', toUInt8(3))")" \
	"3	error"
check "the calls' sort key" "$(q "SELECT sorting_key FROM system.tables WHERE database = 'dio' AND name = 'calls'")" \
	"toStartOfHour(time), host, session, pid, ts"
check "the version recorded" "$(q "SELECT groupArray(version) FROM dio.schema")" "[2]"

# ---- tables an earlier dio made, tuned with LowCardinality ----
LC="?allow_experimental_low_cardinality_type=1"
old() {
	out=$(curl -sS --data-binary "$1" "$U/$LC")
	[ -z "$out" ] || { echo "FAIL: $1: $out"; fail=1; }
}
x "CREATE DATABASE old"
x "CREATE TABLE old.schema (version UInt32) ENGINE = TinyLog"
x "INSERT INTO old.schema VALUES (1)"
COMMON="host LowCardinality(String), boot_id String, session String, batch UInt64, seq UInt64, rec UInt64, ts UInt64"
PART="PARTITION BY toYYYYMMDD(toDateTime(intDiv(ts, 1000000000)))"
old "CREATE TABLE old.calls ($COMMON, cpu UInt32, pid UInt32, tid UInt32, comm LowCardinality(String),
	syscall LowCardinality(String), nr UInt16, arg0 UInt64, arg1 UInt64, arg2 UInt64, arg3 UInt64,
	arg4 UInt64, arg5 UInt64, ret Int64, duration UInt64, fd Int32, flags UInt8, ftype UInt8, dev UInt32,
	ino UInt64, gen UInt32, offset Int64, ofd UInt32, strs UInt8, str0 String, str1 String)
	ENGINE = MergeTree $PART ORDER BY (host, session, pid, ts)"
old "CREATE TABLE old.findings ($COMMON, ts_last UInt64, analyzer String, code String,
	severity LowCardinality(String), title String, message String, pid UInt32, tid UInt32, comm String,
	path String, count UInt64, excerpt String, fingerprint String)
	ENGINE = MergeTree $PART ORDER BY (host, session, code, ts)"
old "CREATE TABLE old.sessions ($COMMON, complete UInt8, origin String, command String, version String,
	realtime_offset Int64, rows UInt64, lost UInt64) ENGINE = MergeTree $PART ORDER BY (host, session, ts)"
x "INSERT INTO old.sessions (host, session, ts, complete, origin) VALUES ('old-host', 'old', 1700000000000000000, 1, 'live')"
x "INSERT INTO old.findings (host, session, ts, code, severity) VALUES ('old-host', 'old', 1700000000000000000, 'x.y', 'warning')"
run_dio record -q --no-summary -o "$TMP/b.dio" --sink "$SINK,database=old" --analyzer all -- \
	"$WL/demo" "$TMP/demo-b" 2> "$TMP/b.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record into the earlier tables exited with $RC:"; cat "$TMP/b.err"; fail=1; }
SB=$(session_of "$TMP/b.dio")
grep "added the columns" "$TMP/b.err" | sed 's/.*table `old`.`\([a-z]*\)`.*the columns \([a-z_, ]*\) (.*/\1: \2/' \
	> "$TMP/added"
printf 'calls: errno, time\nfindings: time, severity_level\nsessions: info, time\n' > "$TMP/added.want"
cmp -s "$TMP/added" "$TMP/added.want" || { echo "FAIL: the columns added:"; cat "$TMP/b.err"; fail=1; }
check "the rows stored in the earlier tables" "$(stored old "$SB")" "$(counts "$TMP/b.dio")"
check "an earlier row's time" "$(q "SELECT toUInt32(time) FROM old.sessions WHERE session = 'old'")" 1700000000
check "an earlier finding's severity_level" \
	"$(q "SELECT severity_level FROM old.findings WHERE session = 'old'")" 2
check "the LowCardinality columns kept" \
	"$(q "SELECT type FROM system.columns WHERE database = 'old' AND table = 'calls' AND name IN ('host', 'syscall')")" \
	"LowCardinality(String)
LowCardinality(String)"
check "the version recorded" "$(q "SELECT max(version) FROM old.schema")" 2
check "the migrated calls' sort key (kept: it cannot change)" \
	"$(q "SELECT sorting_key FROM system.tables WHERE database = 'old' AND name = 'calls'")" \
	"host, session, pid, ts"
"$DIO" dump -ttt -T "$TMP/b.dio" > "$TMP/file.dump" 2>&1
"$DIO" dump -ttt -T --from "clickhouse:url=$U,database=old,session=$SB" > "$TMP/from.dump" 2>&1
if ! cmp -s "$TMP/file.dump" "$TMP/from.dump" || [ "$(grep -c . "$TMP/file.dump")" -lt 100 ]; then
	echo "FAIL: dio dump --from the earlier tables differs from the file's:"
	diff "$TMP/file.dump" "$TMP/from.dump" | head -6
	fail=1
fi
# a second session finds them as this dio makes them, with a column of the
# user's own after dio's (an INSERT does not fill it): nothing more to say
x "ALTER TABLE old.calls ADD COLUMN duration_us Float64 ALIAS duration / 1000"
run_dio trace -q --no-summary --sink "$SINK,database=old" -- true 2> "$TMP/c.err"
[ "$RC" -eq 0 ] && [ ! -s "$TMP/c.err" ] || { echo "FAIL: a second session (exit $RC):"; cat "$TMP/c.err"; fail=1; }

# ---- refused ----
# expect_error WHAT LINE -- ARGS: dio exits 1 and says LINE, and only it
expect_error() {
	what=$1 line=$2
	shift 3
	run_dio "$@" > /dev/null 2> "$TMP/bad.err"
	if [ "$RC" -ne 1 ] || [ "$(cat "$TMP/bad.err")" != "$line" ]; then
		echo "FAIL: $what: exit $RC, said:"
		cat "$TMP/bad.err"
		echo "wanted: $line"
		fail=1
	fi
}
x "CREATE DATABASE newer"
x "CREATE TABLE newer.schema (version UInt32) ENGINE = TinyLog"
x "INSERT INTO newer.schema VALUES (3)"
expect_error "a newer schema" "dio: clickhouse: database newer holds dio tables of schema version 3; this dio writes version 2: use another database= or table_prefix=, or a newer dio" -- \
	trace -q --sink "$SINK,database=newer" -- true
version=$(q "SELECT version()" | cut -d. -f1,2)
case $version in
18.*|19.[0-5])
	expect_error "ttl_days on $version" "dio: clickhouse: ttl_days needs ClickHouse 19.6 or newer (TTL); $U is $version: leave ttl_days out and drop old days with ALTER TABLE ... DROP PARTITION (docs/clickhouse.md)" -- \
		trace -q --sink "$SINK,database=ttl,ttl_days=30" -- true
	check "tables made by a refused ttl_days" "$(q "SELECT count() FROM system.tables WHERE database = 'ttl'")" 0
	;;
*)
	run_dio trace -q --no-summary --sink "$SINK,database=ttl,ttl_days=30" -- true
	check "ttl_days=30 on $version" "$RC $(q "SELECT countIf(engine_full LIKE '%TTL time + toIntervalDay(30)%') FROM system.tables WHERE database = 'ttl' AND name != 'schema'")" "0 7"
	;;
esac
expect_error "a negative ttl_days" "dio: clickhouse: ttl_days=-1: days a row is kept, 1 to 36500 (0: for ever)" -- \
	trace -q --sink "$SINK,ttl_days=-1" -- true
exit $fail
