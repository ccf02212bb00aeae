#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The clickhouse sink and dio push against a real ClickHouse server (Debian's
# clickhouse-server, started as a child process by server.sh):
#  - a live session's rows equal its recording's records, table by table and
#    field by field (times, threads, calls, results, durations, offsets,
#    paths), and its findings are dio analyze's;
#  - a session traced on a second "host" (a UTS namespace with another host
#    name) and a pushed recording can be asked together with the queries of
#    docs/clickhouse.md, each of which must run and answer for both hosts;
#  - dio analyze --from the stored session finds what dio analyze of the file
#    finds, and dio dump --from prints what dio dump of the file prints;
#  - a recording cut in parts, each pushed (twice), is one session;
#  - dio push twice stores once, and a push onto a batch the server kept in
#    part sends only the rest;
#  - the server killed mid-session and started again: nothing lost, nothing
#    twice, the spool empty at the end;
#  - bad input: no url, tables of another shape: a one-line reason and a
#    non-zero exit (a server that does not answer is away.sh's).
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/clickhouse/lib.sh"
need_root_bpf
ch_start
fail=0
SPOOL=$TMP/spool
SINK="clickhouse:url=$U,spool=$SPOOL"

# ---- a live session, against its recording ----
run_dio record -q --no-summary -o "$TMP/a.dio" --sink "$SINK" --analyzer all -- "$WL/demo" "$TMP/demo"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record with the clickhouse sink exited with $RC"; exit 1; }
SA=$(session_of "$TMP/a.dio")
want=$(counts "$TMP/a.dio")
got=$(stored dio "$SA")
echo "live: the recording's records (calls paths procs block runq): $want; stored: $got"
[ "$want" = "$got" ] || { echo "FAIL: the tables do not hold the recording's records"; fail=1; }
[ "$(twice dio "$SA")" = 0 ] || { echo "FAIL: rows stored twice"; fail=1; }
# field by field: the json sink's view of the same records
run_dio dump "$TMP/a.dio" --sink "json:file=$TMP/a.json" > /dev/null 2>&1
# (in Python: jq reads numbers as doubles, and ns since 1970 need 61 bits)
python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "syscall":
        print(*(r["ts_ns"], r["tid"], r["syscall"], r["ret"], r["duration_ns"],
                r.get("offset", 0), r.get("file_tag", "0|0|0")), sep="\t")' "$TMP/a.json" |
	sort > "$TMP/calls.want"
q "SELECT ts, tid, syscall, ret, duration, if(bitAnd(flags, 2), offset, 0),
	if(bitAnd(flags, 1), concat(toString(intDiv(dev, 1048576)), ':', toString(modulo(dev, 1048576)), '|', toString(ino), '|', toString(gen)), '0|0|0')
	FROM dio.calls WHERE session = '$SA'" | sort > "$TMP/calls.got"
if ! cmp -s "$TMP/calls.want" "$TMP/calls.got"; then
	echo "FAIL: the calls' fields differ from the recording's:"
	diff "$TMP/calls.want" "$TMP/calls.got" | head -5
	fail=1
fi
jq -r 'select(.type == "path") | [.file_tag, .path] | @tsv' "$TMP/a.json" | sort > "$TMP/paths.want"
q "SELECT concat(toString(intDiv(dev, 1048576)), ':', toString(modulo(dev, 1048576)), '|', toString(ino), '|', toString(gen)), path
	FROM dio.paths WHERE session = '$SA'" | sort > "$TMP/paths.got"
cmp -s "$TMP/paths.want" "$TMP/paths.got" || { echo "FAIL: the paths differ:"; diff "$TMP/paths.want" "$TMP/paths.got" | head -5; fail=1; }
run_dio analyze --no-summary "$TMP/a.dio" --analyzer all --sink "json:file=$TMP/f.json" > /dev/null 2>&1
jq -r 'select(.type == "finding") | .code' "$TMP/f.json" | sort > "$TMP/codes.want"
q "SELECT code FROM dio.findings WHERE session = '$SA'" | sort > "$TMP/codes.got"
if ! cmp -s "$TMP/codes.want" "$TMP/codes.got" || ! grep -q redundant-open.churn "$TMP/codes.got"; then
	echo "FAIL: findings $(tr '\n' ' ' < "$TMP/codes.got"), dio analyze's $(tr '\n' ' ' < "$TMP/codes.want")"
	fail=1
fi
[ "$(q "SELECT max(complete), any(origin) FROM dio.sessions WHERE session = '$SA'")" = "1	live" ] ||
	{ echo "FAIL: the session's end row is missing"; fail=1; }

# ---- another host, and a pushed recording ----
unshare -u sh -c "hostname dio-host-b && exec \"$DIO\" record -q --no-summary -o \"$TMP/b.dio\" \
	--sink \"$SINK\" --analyzer all -- \"$WL/demo\" \"$TMP/demo-b\"" > /dev/null 2>&1 ||
	{ echo "FAIL: the session on host dio-host-b failed"; fail=1; }
[ "$(q "SELECT DISTINCT host FROM dio.calls WHERE session = '$(session_of "$TMP/b.dio")'")" = dio-host-b ] ||
	{ echo "FAIL: the second session's rows do not name host dio-host-b"; fail=1; }
run_dio record -q --no-summary -o "$TMP/c.dio" -- "$WL/demo" "$TMP/demo-c"
SC=$(session_of "$TMP/c.dio")
for n in 1 2; do
	run_dio push "$TMP/c.dio" --to "$U,spool=$SPOOL" 2> "$TMP/push$n.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio push ($n) exited with $RC:"; cat "$TMP/push$n.err"; fail=1; }
	got=$(stored dio "$SC")
	echo "push $n: stored $got (the recording: $(counts "$TMP/c.dio"))"
	[ "$got" = "$(counts "$TMP/c.dio")" ] || { echo "FAIL: push $n: the tables do not hold the recording"; fail=1; }
done
# each push says in one line what it sent: the second, only that it sent nothing
grep -Eqx "dio: clickhouse: $TMP/c.dio: pushed to $U \(database dio, session $SC\): [1-9][0-9]* rows sent" \
	"$TMP/push1.err" && [ "$(wc -l < "$TMP/push1.err")" -eq 1 ] ||
	{ echo "FAIL: the first push did not say in one line what it sent:"; cat "$TMP/push1.err"; fail=1; }
[ "$(cat "$TMP/push2.err")" = "dio: clickhouse: $TMP/c.dio: already in ClickHouse at $U (database dio, session $SC), nothing sent" ] ||
	{ echo "FAIL: the second push did not say, alone, that it sent nothing:"; cat "$TMP/push2.err"; fail=1; }
[ "$(twice dio "$SC")" = 0 ] || { echo "FAIL: a push stored rows twice"; fail=1; }
# its findings once each: those of dio analyze of the file (which the demo's
# timing decides; a loaded machine may leave its churn under the floors)
run_dio analyze --no-summary "$TMP/c.dio" --analyzer all --sink "json:file=$TMP/c.json" > /dev/null 2>&1
jq -r 'select(.type == "finding") | .code' "$TMP/c.json" | sort > "$TMP/c.codes"
q "SELECT code FROM dio.findings WHERE session = '$SC'" | sort > "$TMP/pushed.codes"
[ -s "$TMP/c.codes" ] && cmp -s "$TMP/c.codes" "$TMP/pushed.codes" ||
	{ echo "FAIL: the pushed recording's findings are not stored once: stored" \
		"$(tr '\n' ' ' < "$TMP/pushed.codes"), dio analyze's $(tr '\n' ' ' < "$TMP/c.codes")"; fail=1; }

# dio analyze and dio dump --from the stored session: what they give of the file
run_dio analyze --no-summary --from "clickhouse:url=$U,session=$SC" --analyzer all \
	--sink "json:file=$TMP/from.json" > /dev/null 2> "$TMP/from.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio analyze --from exited with $RC:"; cat "$TMP/from.err"; fail=1; }
run_dio analyze --no-summary "$TMP/c.dio" --analyzer all --sink "json:file=$TMP/file.json" > /dev/null 2>&1
for f in from file; do
	jq -c 'select(.type == "finding") | del(.rel_ns)' "$TMP/$f.json" > "$TMP/$f.findings"
done
echo "analyze --from: $(grep -c . "$TMP/from.findings") findings, of the file: $(grep -c . "$TMP/file.findings")"
if ! cmp -s "$TMP/from.findings" "$TMP/file.findings" || [ ! -s "$TMP/file.findings" ]; then
	echo "FAIL: dio analyze --from clickhouse differs from dio analyze of the file:"
	diff "$TMP/file.findings" "$TMP/from.findings" | head -6
	fail=1
fi
"$DIO" dump -ttt -T "$TMP/c.dio" > "$TMP/file.dump" 2> "$TMP/file.dump.err"
cat "$TMP/file.dump.err" >> "$TMP/file.dump"
"$DIO" dump -ttt -T --from "clickhouse:url=$U,session=$SC" > "$TMP/from.dump" 2> "$TMP/from.dump.err"
# the records on standard output, as dio dump of the file writes them
[ "$(grep -c . "$TMP/from.dump")" -gt 100 ] && grep -q '\] openat(' "$TMP/from.dump" &&
	! grep -q '\] openat(' "$TMP/from.dump.err" ||
	{ echo "FAIL: dio dump --from does not write the records to stdout"; fail=1; }
cat "$TMP/from.dump.err" >> "$TMP/from.dump"
cmp -s "$TMP/file.dump" "$TMP/from.dump" ||
	{ echo "FAIL: dio dump --from clickhouse differs from the file's:"; diff "$TMP/file.dump" "$TMP/from.dump" | head -6; fail=1; }
# the losses by reason are in the session's row (its info), their sum in lost;
# dio's pid (its threads' waits are not the program's) and the file systems too
info=$(q "SELECT info FROM dio.sessions WHERE session = '$SC' AND complete = 1")
for k in dio_pid:tracer_pid fstypes:fstypes lost_block_unseen:lost_block_unseen \
	lost_blkdevs:lost_blkdevs kernel_paths_evicted:kernel_paths_evicted; do
	v=$("$DIO" info "$TMP/c.dio" 2>/dev/null | sed -n "s/^${k%%:*}=//p")
	case "$info" in
	*"${k#*:}=$v\\n"*) ;;
	*) echo "FAIL: the session's info has no ${k#*:}=$v: $info"; fail=1 ;;
	esac
done
lost_file=$("$DIO" info "$TMP/c.dio" 2>/dev/null | awk -F= '/^(lost_[a-z_]+|dropped_records)=/ && $1 != "lost_pathtab" && $1 != "lost_blkdevs" { n += $2 } END { print n + 0 }')
lost_got=$(q "SELECT max(lost) FROM dio.sessions WHERE session = '$SC' AND complete = 1")
[ "$lost_file" = "$lost_got" ] ||
	{ echo "FAIL: the stored session counts $lost_got lost records, the recording $lost_file"; fail=1; }
expect_from_error() {
	run_dio analyze --from "$1" > /dev/null 2> "$TMP/bad.err"
	[ "$RC" -ne 0 ] && grep -q "$2" "$TMP/bad.err" || { echo "FAIL: --from $1: exit $RC:"; cat "$TMP/bad.err"; fail=1; }
}
expect_from_error "clickhouse:url=$U,session=0123abc" "no session 0123abc"
expect_from_error "clickhouse:url=$U" "give url= and session="

# a recording cut in parts by --max-size: each part pushed, twice, is the part of
# one session it was, and the session read back is the parts one after another
run_dio record -q --no-summary --level 0 --max-size 100K -o "$TMP/m.dio" -- \
	"$top_builddir/bench/callcost" "$TMP/cc" 1 20000 > /dev/null 2>&1
# (40 000 calls are 2 blocks of 1 MiB and more: cut whether or not the writer thread
# keeps up with the burst)
parts=$(ls "$TMP"/m.dio* 2> /dev/null | sort -V)
[ "$(echo "$parts" | grep -c .)" -ge 2 ] || { echo "FAIL: the recording was not cut in parts"; fail=1; }
SM=$(session_of "$TMP/m.dio")
for n in 1 2; do
	# shellcheck disable=SC2086 # the parts' names are mktemp's
	run_dio push $parts --to "$U,spool=$SPOOL" > /dev/null 2> "$TMP/pushm.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio push of the parts ($n) exited with $RC:"; cat "$TMP/pushm.err"; fail=1; }
done
want=$(for p in $parts; do counts "$p"; done |
	awk '{ for (i = 1; i <= NF; i++) n[i] += $i } END { print n[1], n[2], n[3], n[4], n[5] }')
got=$(stored dio "$SM")
echo "parts: $(echo $parts | wc -w) recordings hold $want; stored $got"
[ "$want" = "$got" ] && [ "$(twice dio "$SM")" = 0 ] || { echo "FAIL: the parts are not stored once each"; fail=1; }
for p in $parts; do "$DIO" dump "$p"; done > "$TMP/parts.dump" 2>&1
"$DIO" dump --from "clickhouse:url=$U,session=$SM" > "$TMP/partsfrom.dump" 2>&1
# each part's dump warns of its own losses, the session's of all of them at once
lost_re='^dio: warning: [0-9]+ .* lost'
sed -i -E "/$lost_re/d" "$TMP/parts.dump" "$TMP/partsfrom.dump"
cmp -s "$TMP/parts.dump" "$TMP/partsfrom.dump" ||
	{ echo "FAIL: dio dump --from of the parts' session is not the parts' dumps:"; diff "$TMP/parts.dump" "$TMP/partsfrom.dump" | head -4; fail=1; }

# a batch the server kept in part (a body cut at a row's end and closed cleanly
# keeps the rows before the cut): a copy of the tables holding the first 300 of
# the pushed calls only; pushing there again sends the rest, and nothing twice
x "CREATE DATABASE part"
for t in schema calls paths procs block runq findings sessions; do
	x "CREATE TABLE part.$t AS dio.$t"
done
x "INSERT INTO part.schema SELECT * FROM dio.schema"
x "INSERT INTO part.calls SELECT * FROM dio.calls WHERE session = '$SC' AND batch = 0 AND seq < 300"
[ "$(q "SELECT count() FROM part.calls")" = 300 ] || { echo "FAIL: the part-stored batch was not made"; fail=1; }
run_dio push "$TMP/c.dio" --to "$U,database=part,spool=$SPOOL" 2> "$TMP/push3.err"
got=$(stored part)
echo "push onto a batch stored in part: $got"
if [ "$RC" -ne 0 ] || [ "$got" != "$(counts "$TMP/c.dio")" ] ||
   [ "$(twice part)" != 0 ] || ! grep -q "1 of them in part" "$TMP/push3.err"; then
	echo "FAIL: the push onto the part-stored batch (exit $RC):"
	cat "$TMP/push3.err"
	fail=1
fi

# the documented queries, as written, over all three sessions
awk '/^```sql$/ { s = 1; sql = ""; next } /^```$/ && s { print sql; s = 0; next } s { sql = sql " " $0 }' \
	"$top_srcdir/docs/clickhouse.md" > "$TMP/queries"
[ "$(grep -c . "$TMP/queries")" -eq 4 ] || { echo "FAIL: docs/clickhouse.md has not the 4 queries"; fail=1; }
i=0
while read -r sql; do
	i=$((i + 1))
	sql=$(printf "%s" "$sql" | sed -e "s|'/var/log/app.log'|'$TMP/demo-c/app.log'|" \
		-e "s|'reuse-offset.read-past-end'|'redundant-open.churn'|")
	if ! q "$sql" > "$TMP/query$i" 2>&1 || grep -q "Exception" "$TMP/query$i"; then
		echo "FAIL: query $i of docs/clickhouse.md failed:"
		head -3 "$TMP/query$i"
		fail=1
	fi
done < "$TMP/queries"
hosts=$(cut -f1 "$TMP/query1" | sort -u | tr '\n' ' ')
echo "query 1 (slowest files) names hosts: $hosts"
[ "$(cut -f1 "$TMP/query1" | sort -u | wc -l)" -eq 2 ] || { echo "FAIL: the slowest files are not of both hosts"; fail=1; }
[ "$(cut -f1 "$TMP/query3" | sort -u | wc -l)" -eq 2 ] || { echo "FAIL: the finding is not shown on both hosts"; fail=1; }
[ "$(cut -f1 "$TMP/query4" | sort -u)" = "$SC" ] && [ "$(grep -c . "$TMP/query4")" -gt 100 ] ||
	{ echo "FAIL: the offsets of the pushed recording's app.log are not there"; fail=1; }

# ---- the server killed mid-session, then started again ----
run_dio record -q --no-summary -o "$TMP/k.dio" --sink "$SINK,flush_ms=200,drain_s=90" -- \
	sh -c 'i=0; while [ $i -lt 60 ]; do echo $i >> "$1"; i=$((i + 1)); sleep 0.1; done' sh "$TMP/k.log" \
	> /dev/null 2> "$TMP/k.err" &
rec=$!
sleep 1.5
sh "$SERVER" kill "$CH/srv" || fail=1
sleep 2
n=$(find "$SPOOL" -name '*.spool' | wc -l)
sh "$SERVER" restart "$CH/srv" > /dev/null || { echo "FAIL: the server did not start again"; fail=1; }
wait $rec || { echo "FAIL: dio record exited with $? after the server came back:"; cat "$TMP/k.err"; fail=1; }
SK=$(session_of "$TMP/k.dio")
want=$(counts "$TMP/k.dio")
got=$(stored dio "$SK")
echo "killed: $n batches were in the spool while the server was away; the recording: $want; stored: $got"
[ "$n" -gt 0 ] || { echo "FAIL: nothing went to the spool while the server was away"; fail=1; }
[ "$want" = "$got" ] || { echo "FAIL: rows lost or added across the restart"; cat "$TMP/k.err"; fail=1; }
[ "$(twice dio "$SK")" = 0 ] || { echo "FAIL: rows stored twice across the restart"; fail=1; }
[ -z "$(find "$SPOOL" -name '*.spool')" ] || { echo "FAIL: batches left in the spool"; fail=1; }
grep -q "answers again" "$TMP/k.err" || { echo "FAIL: dio did not say the server answered again"; fail=1; }

# ---- bad input ----
# expect_error WHAT PATTERN -- ARGS: dio exits non-zero with one line matching PATTERN
expect_error() {
	what=$1 pat=$2
	shift 3
	run_dio "$@" > /dev/null 2> "$TMP/bad.err"
	if [ "$RC" -eq 0 ] || ! grep -q "$pat" "$TMP/bad.err"; then
		echo "FAIL: $what: exit $RC, said:"
		cat "$TMP/bad.err"
		fail=1
	fi
}
expect_error "no url" "give the server's HTTP interface" -- trace -q --sink clickhouse -- true
x "CREATE DATABASE other"
x "CREATE TABLE other.calls (x UInt8) ENGINE = MergeTree ORDER BY x"
expect_error "a table of another shape" "is not as this dio makes it" -- \
	trace -q --sink "clickhouse:url=$U,database=other,spool=$SPOOL" -- true
ln -s "$TMP" "$TMP/link"
expect_error "a spool through a symbolic link" "symbolic link" -- \
	trace -q --sink "clickhouse:url=$U,spool=$TMP/link" -- true
expect_error "push without --to" "give the recordings and the server" -- push "$TMP/c.dio"
exit $fail
