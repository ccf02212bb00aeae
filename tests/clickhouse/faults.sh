#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The clickhouse sink, dio push and dio analyze --from against a server that
# misbehaves: a fault-injecting proxy (faultproxy.py) in front of the real
# server (server.sh), and trace files that lie. Each case stores every row
# exactly once or says, in one line, what went wrong, and exits non-zero:
#  - a reply with a number no batch can have: refused, no crash;
#  - an INSERT stored, then answered 502: looked up, not stored again;
#  - an INSERT stored, then cut off without an answer: not re-sent by
#    libcurl, looked up, stored once;
#  - INSERTs refused (500) for longer than the first retries: the batches
#    wait and go in when the server takes them, none lost;
#  - refused or unanswered past drain_s: the batches wait in the spool, and
#    a new push of the file meets them there and stores each row once;
#  - two pushes of one file at once: each row once;
#  - a spool that cannot be written: the errno and the path named;
#  - a session id that is a path, or a string of quotes: refused before it
#    names a file or enters SQL;
#  - a spool under a symbolic link, and a password in the URL: refused,
#    and not echoed;
#  - a session's rows that stop coming: dio analyze --from gives up after
#    timeout_s, having passed on the rows that came;
#  - sessions.ts of a pushed recording: the recording's time, not the push's.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/clickhouse/lib.sh"
need_root_bpf
ch_start
ch_proxy
fail=0
SPOOL=$TMP/spool

# rule JSON: a rule of the proxy (faultproxy.py); clear: none
rule() {
	curl -sS -d "$1" "$P/_proxy/rule" || { echo "FAIL: the proxy took no rule"; fail=1; }
}
clear() {
	curl -sS -X POST "$P/_proxy/clear"
}
# push DB ERRFILE [sink options]: dio push of c.dio through the proxy into DB
push() {
	db=$1 err=$2
	shift 2
	opts=$(printf ",%s" "$@")
	[ $# -gt 0 ] || opts=
	run_dio push "$TMP/c.dio" --to "$P,database=$db,spool=$SPOOL,batch_rows=200$opts" 2> "$err"
	return $RC
}
# once DB WHAT: the tables of DB hold the recording, every row once
once() {
	got=$(stored "$1")
	n=$(twice "$1")
	echo "$2: stored $got (the recording: $WANT), $n twice"
	[ "$got" = "$WANT" ] && [ "$n" = 0 ] || { echo "FAIL: $2: not every row once"; fail=1; }
}
spooled() {
	find "$SPOOL" -name '*.spool' | wc -l
}
crashed() {
	grep -q -e "Sanitizer" -e "runtime error" "$1"
}

run_dio record -q --no-summary -o "$TMP/c.dio" -- "$WL/demo" "$TMP/demo" > /dev/null 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC"; exit 1; }
WANT=$(counts "$TMP/c.dio")
S=$(session_of "$TMP/c.dio")

# ---- a number no batch can have, or no number, in the answer to the look-up of a push ----
for body in '18446744073709551600\n' '12\nnot a number\n'; do
	rule "{\"match\": \"SELECT DISTINCT batch\", \"action\": \"reply\", \"body\": \"$body\"}"
	push huge "$TMP/huge.err"
	clear
	printf '%s\n' "a reply of $body: exit $RC: $(head -c 300 "$TMP/huge.err")"
	if [ "$RC" -eq 0 ] || [ "$RC" -gt 125 ] || crashed "$TMP/huge.err" ||
	   ! grep -q "with something that is not a list of batch numbers" "$TMP/huge.err"; then
		printf '%s\n' "FAIL: a reply of $body was not refused in one line"
		fail=1
	fi
done

# the look-up of a batch that may be stored, answered with counts no batch has
rule '{"match": "INSERT INTO `fcount`.`calls`", "action": "502", "count": 1}'
rule '{"match": "SELECT count\\(\\), min\\(seq\\)", "action": "reply", "body": "18446744073709551615\t0\t18446744073709551615\n"}'
push fcount "$TMP/count.err"
clear
echo "a look-up answered with huge counts: exit $RC: $(grep -m1 "in part" "$TMP/count.err")"
[ "$RC" -ne 0 ] && [ "$RC" -le 125 ] && ! crashed "$TMP/count.err" &&
	grep -q "is there in part, and not as its first rows" "$TMP/count.err" ||
	{ echo "FAIL: a look-up answered with huge counts:"; cat "$TMP/count.err"; fail=1; }

# ---- stored, then answered 502 by a proxy: four times over ----
rule '{"match": "INSERT INTO `f502`.`calls`", "action": "502", "count": 4}'
push f502 "$TMP/502.err"
clear
[ "$RC" -eq 0 ] || { echo "FAIL: the push past the 502s exited with $RC:"; cat "$TMP/502.err"; fail=1; }
once f502 "stored, then 502"
grep -q "batches were stored already" "$TMP/502.err" ||
	{ echo "FAIL: dio did not say it found the batch stored:"; cat "$TMP/502.err"; fail=1; }

# ---- stored, then cut off without an answer, on a connection used before ----
rule '{"match": "INSERT INTO `fcut`.`calls`", "action": "cut", "count": 1}'
push fcut "$TMP/cut.err"
clear
[ "$RC" -eq 0 ] || { echo "FAIL: the push past the cut exited with $RC:"; cat "$TMP/cut.err"; fail=1; }
once fcut "stored, then cut"
[ "$(curl -sS "$P/_proxy/log" | grep -c 'INSERT INTO `fcut`.`calls`')" -eq "$(( ($(echo "$WANT" | cut -d' ' -f1) + 199) / 200 ))" ] ||
	{ echo "FAIL: an INSERT was sent again after it was cut off:"; curl -sS "$P/_proxy/log" | grep fcut.*calls; fail=1; }

# ---- refused for longer than the first tries (0.25 + 0.5 + 1 s) ----
rule '{"match": "INSERT INTO `f500`.* RowBinary", "action": "500", "seconds": 4}'
push f500 "$TMP/500.err" drain_s=60
clear
[ "$RC" -eq 0 ] || { echo "FAIL: the push past 4 s of 500s exited with $RC:"; cat "$TMP/500.err"; fail=1; }
once f500 "500 for 4 s"
grep -q "lost" "$TMP/500.err" && { echo "FAIL: rows said lost:"; cat "$TMP/500.err"; fail=1; }
grep -q "refused by the test proxy" "$TMP/500.err" ||
	{ echo "FAIL: dio did not say what the server answered:"; cat "$TMP/500.err"; fail=1; }
[ "$(spooled)" -eq 0 ] || { echo "FAIL: batches left in the spool"; fail=1; }

# ---- refused past drain_s: the spool keeps them; a new push meets them ----
for how in 500 close; do
	rule "{\"match\": \"INSERT INTO \`fmeet$how\`.* RowBinary\", \"action\": \"$how\"}"
	push "fmeet$how" "$TMP/meet1.err" drain_s=1
	clear
	n=$(spooled)
	echo "$how past drain_s: exit $RC, $n batches in the spool"
	if [ "$RC" -eq 0 ] || [ "$n" -eq 0 ] || grep -q "lost" "$TMP/meet1.err" ||
	   ! grep -q "wait in the spool" "$TMP/meet1.err"; then
		echo "FAIL: $how past drain_s: the batches are not kept in the spool:"
		cat "$TMP/meet1.err"
		fail=1
	fi
	push "fmeet$how" "$TMP/meet2.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: the push after it exited with $RC:"; cat "$TMP/meet2.err"; fail=1; }
	once "fmeet$how" "the spool's batches and a new push ($how)"
	[ "$(spooled)" -eq 0 ] || { echo "FAIL: batches left in the spool"; fail=1; }
done

# ---- two pushes of one file at once (INSERTs slowed: both look up before either stores) ----
rule '{"match": "INSERT INTO `fconc`.* RowBinary", "action": "delay", "delay": 0.3}'
push fconc "$TMP/conc1.err" &
p1=$!
push fconc "$TMP/conc2.err"
rc2=$?
wait $p1
rc1=$?
clear
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] ||
	{ echo "FAIL: concurrent pushes exited with $rc1 and $rc2:"; cat "$TMP/conc1.err" "$TMP/conc2.err"; fail=1; }
once fconc "two pushes at once"

# ---- a spool that cannot take a batch: the errno and the path ----
mkdir "$TMP/small"
mount -t tmpfs -o size=12k tmpfs "$TMP/small" || { echo "FAIL: cannot mount a tmpfs"; exit 1; }
MNT=$TMP/small
rule '{"match": "INSERT INTO `ffull`.* RowBinary", "action": "500"}'
run_dio push "$TMP/c.dio" --to "$P,database=ffull,spool=$TMP/small/spool,batch_rows=50,drain_s=1" 2> "$TMP/full.err"
clear
echo "a full spool: exit $RC: $(grep -m1 "spool" "$TMP/full.err")"
[ "$RC" -ne 0 ] && grep -q "$TMP/small/spool.*No space left on device" "$TMP/full.err" ||
	{ echo "FAIL: a full spool was not named with its errno:"; cat "$TMP/full.err"; fail=1; }

# ---- session ids that are not ids: a path, quotes ----
mkdir "$TMP/x"
for bad in "/../../../..$TMP/x/pwn" "'''''''''''''''''''''''''''''''''''''''"; do
	rm -rf "$TMP/x"/*
	python3 - "$top_srcdir/tests/integration" "$TMP/c.dio" "$TMP/bad.dio" "$bad" << 'PY' ||
import sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import read_trace
from tracefile_writer import write_trace
meta, records = read_trace(sys.argv[2])
meta["session_id"] = sys.argv[4]
write_trace(sys.argv[3], meta, records)
PY
		{ echo "FAIL: cannot write the trace with a forged session id"; fail=1; }
	rule '{"match": "INSERT INTO .* RowBinary", "action": "500"}'
	run_dio push "$TMP/bad.dio" --to "$P,database=fbad,spool=$SPOOL,drain_s=1" 2> "$TMP/bad.err"
	clear
	if [ "$RC" -eq 0 ] || [ "$RC" -gt 125 ] || crashed "$TMP/bad.err" ||
	   ! grep -q "session_id of the recording is not a session id" "$TMP/bad.err" ||
	   [ -n "$(ls "$TMP/x")" ]; then
		echo "FAIL: session_id=$bad: exit $RC, $TMP/x holds '$(ls "$TMP/x")':"
		cat "$TMP/bad.err"
		fail=1
	fi
done

# ---- a spool under a symbolic link; a password in the URL ----
mkdir "$TMP/real"
ln -s "$TMP/real" "$TMP/link"
run_dio push "$TMP/c.dio" --to "$P,database=flink,spool=$TMP/link/spool" 2> "$TMP/link.err"
[ "$RC" -ne 0 ] && grep -q "$TMP/link is a symbolic link" "$TMP/link.err" && [ ! -e "$TMP/real/spool" ] ||
	{ echo "FAIL: a spool under a symbolic link: exit $RC:"; cat "$TMP/link.err"; fail=1; }
run_dio push "$TMP/c.dio" --to "http://dio:s3cr3t@127.0.0.1:1,spool=$TMP/pwspool,drain_s=1" \
	2> "$TMP/pw.err"
[ "$RC" -ne 0 ] && grep -q "http://127.0.0.1:1" "$TMP/pw.err" && ! grep -q s3cr3t "$TMP/pw.err" ||
	{ echo "FAIL: a password in the URL: exit $RC:"; cat "$TMP/pw.err"; fail=1; }
run_dio analyze --from "clickhouse:url=http://dio:s3cr3t@127.0.0.1:1,session=$S" 2> "$TMP/pw.err"
[ "$RC" -ne 0 ] && ! grep -q s3cr3t "$TMP/pw.err" ||
	{ echo "FAIL: --from with a password in the URL: exit $RC:"; cat "$TMP/pw.err"; fail=1; }

# ---- sessions.ts of a push: the recording's first and last record ----
push fts "$TMP/ts.err"
first=$(q "SELECT ts FROM (SELECT rec, ts FROM fts.calls UNION ALL SELECT rec, ts FROM fts.paths
	UNION ALL SELECT rec, ts FROM fts.procs UNION ALL SELECT rec, ts FROM fts.block
	UNION ALL SELECT rec, ts FROM fts.runq) ORDER BY rec LIMIT 1")
last=$(q "SELECT max(ts) FROM (SELECT ts FROM fts.calls UNION ALL SELECT ts FROM fts.paths
	UNION ALL SELECT ts FROM fts.procs UNION ALL SELECT ts FROM fts.block UNION ALL SELECT ts FROM fts.runq)")
got=$(q "SELECT ts FROM fts.sessions ORDER BY complete" | tr '\n' ' ')
echo "sessions.ts of a push: $got (first record $first, last $last)"
[ "$got" = "$first $last " ] || { echo "FAIL: sessions.ts is not the recording's time"; fail=1; }

# ---- dio dump --from: rows that stop coming ----
"$DIO" dump "$TMP/c.dio" > "$TMP/file.dump" 2>&1
push dio "$TMP/dio.err"
rule '{"match": "FROM `dio`.`calls` WHERE", "action": "stall", "bytes": 20000, "delay": 60}'
start=$(date +%s)
timeout 30 "$DIO" dump --from "clickhouse:url=$P,session=$S,timeout_s=2" > "$TMP/from.dump" 2> "$TMP/from.err"
rc=$?
took=$(($(date +%s) - start))
clear
n=$(grep -c . "$TMP/from.dump")
echo "rows that stop coming: exit $rc after $took s, $n of $(grep -c . "$TMP/file.dump") lines: $(head -c 200 "$TMP/from.err")"
if [ "$rc" -ne 1 ] || [ "$took" -gt 10 ] || ! grep -q "sent nothing for 2 s" "$TMP/from.err"; then
	echo "FAIL: dio dump --from did not give up after timeout_s"
	fail=1
fi
# streamed: what came before the stall was dumped, as the file's dump has it
if [ "$n" -lt 10 ] || ! head -n "$n" "$TMP/file.dump" | cmp -s - "$TMP/from.dump"; then
	echo "FAIL: the records before the stall were not passed on as the file's:"
	diff "$TMP/file.dump" "$TMP/from.dump" | head -5
	fail=1
fi
exit $fail
