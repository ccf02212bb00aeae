# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the ClickHouse tests, after tests/integration/lib.sh:
#   ch_start           a private server (server.sh) for this test, stopped at its end:
#                      $U is its URL; SKIP (77) where clickhouse-server is not installed
#                      or dio was built without the clickhouse module (no libcurl)
#   ch_proxy           faultproxy.py in front of it, stopped at the end too: $P is its URL
#   q SQL              the server's answer, tab-separated
#   x SQL              a statement that answers nothing (or the test fails)
#   counts FILE        "calls paths procs block runq" of a recording, as dio info counts them
#   session_of FILE    a recording's session_id
#   stored DB [SESS]   the same counts in database DB's tables (of session SESS)
#   twice DB [SESS]    rows stored twice there (a session's seq seen twice), in every table
#   doc_queries INFO   the queries of docs/clickhouse.md fenced as ```INFO, one a line
SERVER=$top_srcdir/tests/clickhouse/server.sh
PROXY_PID=

ch_stop() {
	[ -z "$PROXY_PID" ] || kill "$PROXY_PID" 2> /dev/null
	sh "$SERVER" stop "$CH/srv" > /dev/null 2>&1
	rm -rf "$CH"
}

ch_start() {
	[ "$DIO_CLICKHOUSE" != no ] ||
		{ echo "SKIP: dio was built without the clickhouse module (no libcurl, or --without-libcurl)"; exit 77; }
	why=$(sh "$SERVER" check) || { echo "SKIP: $why"; exit 77; }
	# the server's directory must be reachable by the user it runs as
	CH=$(mktemp -d /tmp/dio-ch.XXXXXX) || exit 1
	chmod 755 "$CH"
	trap 'ch_stop; cleanup' EXIT
	U=$(sh "$SERVER" start "$CH/srv" 2> "$TMP/start.err") ||
		{ echo "FAIL: no server:"; cat "$TMP/start.err"; exit 1; }
}

ch_proxy() {
	python3 "$top_srcdir/tests/clickhouse/faultproxy.py" "$U" "$TMP/proxy.port" 2> "$TMP/proxy.err" &
	PROXY_PID=$!
	i=0
	while [ ! -s "$TMP/proxy.port" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$TMP/proxy.port" ] || { echo "FAIL: the proxy did not start:"; cat "$TMP/proxy.err"; exit 1; }
	P=http://127.0.0.1:$(cat "$TMP/proxy.port")
}

q() {
	curl -sS --data-binary "$1 FORMAT TabSeparated" "$U/"
}
x() {
	out=$(curl -sS --data-binary "$1" "$U/")
	[ -z "$out" ] || { echo "FAIL: $1: $out"; fail=1; }
}

counts() {
	"$DIO" info "$1" | sed -n 's/^records: [0-9]* (syscall \([0-9]*\), path \([0-9]*\), io_uring [0-9]*, process \([0-9]*\), block \([0-9]*\), runq \([0-9]*\)).*/\1 \2 \3 \4 \5/p'
}

session_of() {
	"$DIO" info "$1" | sed -n 's/^session_id=//p'
}

stored() {
	for t in calls paths procs block runq; do
		q "SELECT count() FROM $1.$t${2:+ WHERE session = '$2'}"
	done | tr '\n' ' ' | sed 's/ $//'
	echo
}
twice() {
	for t in calls paths procs block runq findings sessions; do
		q "SELECT count() - uniqExact(session, seq) FROM $1.$t${2:+ WHERE session = '$2'}"
	done | awk '{ n += $1 } END { print n + 0 }'
}

doc_queries() {
	awk -v fence="\`\`\`$1" '$0 == fence { s = 1; sql = ""; next }
		/^```$/ && s { print sql; s = 0; next } s { sql = sql " " $0 }' \
		"$top_srcdir/docs/clickhouse.md"
}
