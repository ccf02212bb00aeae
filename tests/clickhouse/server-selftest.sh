#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# server.sh, the private ClickHouse server of the ClickHouse tests: it starts, takes a table
# and rows over HTTP, dies by SIGKILL, comes back on the same port with the rows, and
# stops, leaving no process behind. Tests that stop a server mid-run count on exactly this.
# SKIP (77) only when clickhouse-server is not installed.
: "${top_srcdir:=.}"
S="$top_srcdir/tests/clickhouse/server.sh"
TMP=$(mktemp -d /tmp/dio-clickhouse-test.XXXXXX) || exit 1
# as root the server runs as the user clickhouse, which must pass through to $TMP/ch
chmod 711 "$TMP"
# whatever happens, no server outlives the test
trap '"$S" kill "$TMP/ch" > /dev/null 2>&1; rm -rf "$TMP"' EXIT

why=$("$S" check)
rc=$?
[ $rc -eq 77 ] && { echo "SKIP: $why"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: server.sh check exited $rc: $why"; exit 1; }

fail() {
	echo "FAIL: $*"
	for f in "$TMP/ch/log/error.log" "$TMP/ch/log/stdout.log"; do
		[ -s "$f" ] && { echo "--- last lines of $f:"; tail -n 15 "$f"; }
	done
	exit 1
}

# ended PID: PID is gone, or a zombie (an init that does not reap leaves those)
ended() {
	! grep -q '^[0-9]* (.*) [^Z]' "/proc/$1/stat" 2> /dev/null
}

# q SQL [BODY]: SQL over HTTP (the body, if any, is POSTed); the answer on stdout
q() {
	if [ $# -gt 1 ]; then
		printf '%s' "$2" | curl -sS --fail-with-body --max-time 20 --data-binary @- \
			"$URL/?query=$(printf '%s' "$1" | sed 's/ /+/g')"
	else
		curl -sS --fail-with-body --max-time 20 --data-binary "$1" "$URL/"
	fi
}

URL=$("$S" start "$TMP/ch") || fail "server.sh start failed"
case $URL in
http://127.0.0.1:[0-9]*) ;;
*) fail "server.sh start printed '$URL', not http://127.0.0.1:PORT" ;;
esac
pid=$(cat "$TMP/ch/pid") && ! ended "$pid" || fail "no live pid in $TMP/ch/pid"
[ "$(q 'SELECT 1')" = 1 ] || fail "SELECT 1 does not answer 1"

# the server listens on its HTTP port and on nothing else (no native TCP, no interserver)
inodes=$(ls -l /proc/"$pid"/fd 2> /dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p')
listen=$(for i in $inodes; do
	awk -v i="$i" '$4 == "0A" && $10 == i { print $2 }' /proc/net/tcp /proc/net/tcp6
done)
[ "$listen" = "$(printf '0100007F:%04X' "${URL##*:}")" ] ||
	fail "the server listens on [$listen], expected only 127.0.0.1:${URL##*:}"

q 'CREATE TABLE t (ts UInt64, name String) ENGINE = MergeTree ORDER BY ts' ||
	fail "CREATE TABLE failed"
q 'INSERT INTO t FORMAT TabSeparated' "$(printf '1\tone\n2\ttwo\n3\tthree\n')" ||
	fail "INSERT failed"
[ "$(q 'SELECT count() FROM t')" = 3 ] || fail "3 rows inserted, $(q 'SELECT count() FROM t') counted"

"$S" kill "$TMP/ch" || fail "server.sh kill failed"
ended "$pid" || fail "pid $pid lives on after server.sh kill"
[ ! -e "$TMP/ch/pid" ] || fail "server.sh kill left $TMP/ch/pid"
curl -s --max-time 2 "$URL/" > /dev/null && fail "something still answers on $URL after the kill"

URL2=$("$S" restart "$TMP/ch") || fail "server.sh restart failed"
[ "$URL2" = "$URL" ] || fail "restarted on $URL2, not on $URL"
got=$(q 'SELECT ts, name FROM t ORDER BY ts FORMAT TabSeparated')
[ "$got" = "$(printf '1\tone\n2\ttwo\n3\tthree')" ] ||
	fail "after the kill and restart the table holds: $got"

# a second server on the same DIR, or on a port that is taken, fails at once with a reason
"$S" start "$TMP/ch" > /dev/null 2> "$TMP/again.err" && fail "a second start on the same DIR succeeded"
grep -q 'already runs' "$TMP/again.err" || fail "a second start said: $(cat "$TMP/again.err")"
"$S" start "$TMP/other" "${URL##*:}" > /dev/null 2> "$TMP/taken.err" &&
	fail "a server started on the taken port ${URL##*:}"
grep -q "port ${URL##*:} is taken" "$TMP/taken.err" || fail "start on a taken port said: $(cat "$TMP/taken.err")"
[ ! -e "$TMP/other/pid" ] || fail "the failed start left $TMP/other/pid"

pid=$(cat "$TMP/ch/pid")
"$S" stop "$TMP/ch" || fail "server.sh stop failed"
ended "$pid" || fail "pid $pid lives on after server.sh stop"
[ ! -e "$TMP/ch/pid" ] || fail "server.sh stop left $TMP/ch/pid"
"$S" stop "$TMP/ch" || fail "server.sh stop of a stopped server failed"
echo "PASS: start, insert, kill, restart with the rows, stop"
exit 0
