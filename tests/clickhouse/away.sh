#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A sink that outlives the database: the server is down when dio starts.
#  - dio record --sink clickhouse traces anyway, says the server does not
#    answer and that rows wait in the spool; the server started later gets
#    every row once (calls paths procs block runq equal to the recording's,
#    its findings dio analyze's), the tables made then, the spool empty;
#  - dio push starts too and delivers when the server comes back; a push
#    that ends before it does exits non-zero with the rows in the spool, and
#    the next push sends them once; a push of a session stored whole sends
#    nothing;
#  - a spool that fills while the server is away: the rows that fit neither
#    the spool nor memory (memory_max) are counted as lost, said with the
#    reason, exit 1, and the session's end row is not stored, so that a push
#    again sends the rest, and the spool's batches, once.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/clickhouse/lib.sh"
need_root_bpf
ch_start
fail=0
SPOOL=$TMP/spool
SINK="clickhouse:url=$U,spool=$SPOOL"
down() {
	sh "$SERVER" stop "$CH/srv" > /dev/null 2>&1 || { echo "FAIL: the server did not stop"; exit 1; }
	! curl -s "$U/" > /dev/null 2>&1 || { echo "FAIL: the server still answers"; exit 1; }
}
up() {
	sh "$SERVER" restart "$CH/srv" > /dev/null || { echo "FAIL: the server did not start again"; exit 1; }
}
spooled() {
	find "$SPOOL" -name '*.spool' 2> /dev/null | wc -l
}

# ---- live: down at the start, up a while later ----
down
run_dio record -q --no-summary -o "$TMP/a.dio" --sink "$SINK,flush_ms=200,drain_s=90" \
	--analyzer all -- sh -c '"$1" "$2"; i=0; while [ $i -lt 40 ]; do echo $i >> "$2/x"; \
	i=$((i + 1)); sleep 0.1; done' sh "$WL/demo" "$TMP/demo" > /dev/null 2> "$TMP/a.err" &
rec=$!
sleep 2
n=$(spooled)
up
wait $rec
rc=$?
SA=$(session_of "$TMP/a.dio")
want=$(counts "$TMP/a.dio")
got=$(stored dio "$SA")
echo "live, server down at the start: $n batches spooled meanwhile; the recording: $want; stored: $got"
[ $rc -eq 0 ] || { echo "FAIL: dio record exited with $rc:"; cat "$TMP/a.err"; fail=1; }
grep -q "^dio: clickhouse: ClickHouse at $U does not answer (.*): rows wait in the spool $SPOOL until it does$" \
	"$TMP/a.err" || { echo "FAIL: dio did not say the server was away:"; cat "$TMP/a.err"; fail=1; }
grep -q "answers again" "$TMP/a.err" || { echo "FAIL: dio did not say the server answered again"; fail=1; }
[ "$n" -gt 0 ] || { echo "FAIL: nothing went to the spool while the server was away"; fail=1; }
[ "$want" = "$got" ] || { echo "FAIL: the tables do not hold the recording's records"; fail=1; }
[ "$(twice dio "$SA")" = 0 ] || { echo "FAIL: rows stored twice"; fail=1; }
[ "$(spooled)" -eq 0 ] || { echo "FAIL: batches left in the spool"; fail=1; }
run_dio analyze --no-summary "$TMP/a.dio" --analyzer all --sink "json:file=$TMP/f.json" > /dev/null 2>&1
jq -r 'select(.type == "finding") | .code' "$TMP/f.json" | sort > "$TMP/codes.want"
q "SELECT code FROM dio.findings WHERE session = '$SA'" | sort > "$TMP/codes.got"
cmp -s "$TMP/codes.want" "$TMP/codes.got" && grep -q redundant-open.churn "$TMP/codes.got" ||
	{ echo "FAIL: findings $(tr '\n' ' ' < "$TMP/codes.got"), dio analyze's $(tr '\n' ' ' < "$TMP/codes.want")"; fail=1; }
[ "$(q "SELECT max(complete) FROM dio.sessions WHERE session = '$SA'")" = 1 ] ||
	{ echo "FAIL: the session's end row is missing"; fail=1; }

# ---- push: down at the start, up a while later ----
run_dio record -q --no-summary -o "$TMP/c.dio" -- "$WL/demo" "$TMP/demo-c"
SC=$(session_of "$TMP/c.dio")
down
run_dio push "$TMP/c.dio" --to "$U,spool=$SPOOL,drain_s=90" > /dev/null 2> "$TMP/c.err" &
push=$!
sleep 2
up
wait $push
rc=$?
got=$(stored dio "$SC")
echo "push, server down at the start: exit $rc; the recording: $(counts "$TMP/c.dio"); stored: $got"
[ $rc -eq 0 ] && [ "$got" = "$(counts "$TMP/c.dio")" ] && [ "$(twice dio "$SC")" = 0 ] ||
	{ echo "FAIL: the push did not deliver once when the server came back:"; cat "$TMP/c.err"; fail=1; }
run_dio push "$TMP/c.dio" --to "$U,spool=$SPOOL" > /dev/null 2> "$TMP/c2.err"
[ "$RC" -eq 0 ] && grep -q "already in ClickHouse at .*, nothing sent" "$TMP/c2.err" && [ "$(stored dio "$SC")" = "$got" ] ||
	{ echo "FAIL: a second push (exit $RC) sent again:"; cat "$TMP/c2.err"; fail=1; }

# ---- push: down all along, then a push again once it is up ----
run_dio record -q --no-summary -o "$TMP/d.dio" -- "$WL/demo" "$TMP/demo-d"
SD=$(session_of "$TMP/d.dio")
down
run_dio push "$TMP/d.dio" --to "$U,spool=$SPOOL,drain_s=1" > /dev/null 2> "$TMP/d.err"
n=$(spooled)
echo "push, server down all along: exit $RC, $n batches in the spool"
[ "$RC" -ne 0 ] && [ "$n" -gt 0 ] && grep -q "wait in the spool $SPOOL for the next dio" "$TMP/d.err" ||
	{ echo "FAIL: the push did not keep its rows in the spool:"; cat "$TMP/d.err"; fail=1; }
up
run_dio push "$TMP/d.dio" --to "$U,spool=$SPOOL" > /dev/null 2> "$TMP/d2.err"
[ "$RC" -eq 0 ] && [ "$(stored dio "$SD")" = "$(counts "$TMP/d.dio")" ] && [ "$(twice dio "$SD")" = 0 ] &&
	[ "$(spooled)" -eq 0 ] ||
	{ echo "FAIL: the next push did not send the spool's batches once (exit $RC):"; cat "$TMP/d2.err"; fail=1; }

# ---- a spool that fills while the server is away: losses counted and said ----
run_dio record -q --no-summary --level 0 -o "$TMP/e.dio" -- \
	"$top_builddir/bench/callcost" "$TMP/cc" 1 20000 > /dev/null 2>&1
SE=$(session_of "$TMP/e.dio")
down
run_dio push "$TMP/e.dio" --to "$U,spool=$TMP/espool,spool_max=64k,memory_max=64k,drain_s=0,batch_rows=50" \
	> /dev/null 2> "$TMP/e.err"
up
lost=$(sed -n 's/^dio: clickhouse: warning: \([0-9]*\) rows lost: the spool .* was full (spool_max=65536)$/\1/p' \
	"$TMP/e.err")
left=$(sed -n 's/.* did not take \([0-9]*\) rows in 0 s: .*/\1/p' "$TMP/e.err")
echo "a full spool while away: exit $RC, $lost rows lost, $left left in the spool"
if [ "$RC" -ne 1 ] || [ -z "$lost" ] || [ "$lost" -eq 0 ] || [ -z "$left" ] || [ "$left" -eq 0 ] ||
   ! grep -q "the spool $TMP/espool holds spool_max=65536 bytes" "$TMP/e.err" ||
   [ "$(q "SELECT count() FROM dio.sessions WHERE session = '$SE' AND complete = 1")" != 0 ]; then
	echo "FAIL: a spool full while the server was away: exit $RC:"
	cat "$TMP/e.err"
	fail=1
fi
# what was lost is sent by a push again (cut as the first push cut it); the spool's batches once
run_dio push "$TMP/e.dio" --to "$U,spool=$TMP/espool,batch_rows=50" > /dev/null 2> "$TMP/e2.err"
[ "$RC" -eq 0 ] && [ "$(stored dio "$SE")" = "$(counts "$TMP/e.dio")" ] && [ "$(twice dio "$SE")" = 0 ] ||
	{ echo "FAIL: the push after the losses (exit $RC) did not complete the session once:"
	  cat "$TMP/e2.err"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: the sink and dio push start without the server and deliver once"
exit $fail
