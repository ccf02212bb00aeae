#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record, dump, analyze, info: a recorded run of the basic workload dumps
# to exactly the lines the workload knows it caused (every field, as the live
# trace test checks them); analyze prints what the recording printed inline;
# a file cut short still dumps every record before the cut and says so;
# reading needs no privilege; bad
# files (also one the user may not read) give one-line errors and a non-zero exit.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

mkdir "$MNT/wd"
run_dio record -o "$TMP/t.dio" -- "$WL/basic" "$MNT/wd" 9> "$TMP/expect" > "$TMP/rec.out" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC:"; cat "$TMP/rec.out"; fail=1; }
# the console shows the summary only, no call
if grep -qE '^\[[0-9]+/[0-9]+ [^]]*\] [a-z0-9_]+\(' "$TMP/rec.out"; then
	echo "FAIL: dio record printed calls on the console"
	fail=1
fi
"$DIO" dump "$TMP/t.dio" > "$TMP/dump" 2> "$TMP/dump.err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: dio dump exited with $rc:"; cat "$TMP/dump.err"; fail=1; }
[ -s "$TMP/dump.err" ] && { echo "FAIL: dio dump of an intact file complained:"; cat "$TMP/dump.err"; fail=1; }
expect_lines "$TMP/expect" "$TMP/dump" "dio dump output" || fail=1

# round trip: what dio record --print showed live is what dio dump prints from the file
run_dio record -o "$TMP/p.dio" --print --no-summary --sink console:output="$TMP/live" \
	-- "$WL/basic" "$MNT/wd" 9> /dev/null > /dev/null 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record --print exited with $RC"; fail=1; }
"$DIO" dump "$TMP/p.dio" > "$TMP/p.dump"
grep -qE "$(printf '%s' '^\[[0-9]+/[0-9]+ [^]]*\] [a-z0-9_]+\(')" "$TMP/live" ||
	{ echo "FAIL: dio record --print printed no call"; fail=1; }
cmp -s "$TMP/live" "$TMP/p.dump" ||
	{ echo "FAIL: dio dump differs from what dio record --print showed (-live +dump):"; diff "$TMP/live" "$TMP/p.dump" | head; fail=1; }

# dio analyze: the findings and summary the recording run printed, byte for byte
"$DIO" analyze "$TMP/t.dio" > "$TMP/an" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: dio analyze exited with $rc:"; cat "$TMP/an"; fail=1; }
grep -q '^100.00 ' "$TMP/an" || { echo "FAIL: dio analyze printed no summary:"; cat "$TMP/an"; fail=1; }
if ! cmp -s "$TMP/rec.out" "$TMP/an"; then
	echo "FAIL: dio analyze differs from what dio record printed inline (-inline +offline):"
	diff "$TMP/rec.out" "$TMP/an" | head -20
	fail=1
fi
"$DIO" analyze "$TMP/t.dio" --bogus > "$TMP/an.bad" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -qx "dio: unknown option '--bogus'; see 'dio analyze --help'" "$TMP/an.bad" ||
	{ echo "FAIL: dio analyze --bogus: exit $rc:"; cat "$TMP/an.bad"; fail=1; }

# dio info: the counts are those of the dump
"$DIO" info "$TMP/t.dio" > "$TMP/info" 2>&1 || { echo "FAIL: dio info failed:"; cat "$TMP/info"; fail=1; }
ncalls=$(grep -cE '^\[[0-9]+/[0-9]+ [^]]*\] [a-z0-9_]+\(' "$TMP/dump")
if ! grep -q "^records: [0-9]* (syscall $ncalls, " "$TMP/info"; then
	echo "FAIL: dio info does not count the $ncalls calls of the dump:"
	cat "$TMP/info"
	fail=1
fi
for k in "kernel=$(uname -r)" "host=$(uname -n)" "mode=detailed" "blocks: 1 intact, 0 damaged; complete" \
	"lost_ringbuf=0" "dropped_records=0"; do
	grep -qxF "$k" "$TMP/info" || { echo "FAIL: dio info lacks '$k'"; fail=1; }
done
# the recording dio's pid, so that a replay knows which waits dio itself caused
grep -qE '^dio_pid=[1-9][0-9]*$' "$TMP/info" || { echo "FAIL: dio info lacks dio_pid"; fail=1; }
# a URL's password on the command line stays out of the file and its reports
run_dio record -q -o "$TMP/pw.dio" --sink "json:file=$TMP/pw.json" -- \
	sh -c ':' http://dio:s3cret@db.example:8123/ > /dev/null 2>&1
"$DIO" info "$TMP/pw.dio" > "$TMP/pw.info" 2>&1
"$DIO" analyze "$TMP/pw.dio" --analyzer all --sink "sarif:file=$TMP/pw.sarif" > /dev/null 2>&1
grep -q 'http://dio:\*\*\*@db.example:8123/' "$TMP/pw.info" ||
	{ echo "FAIL: dio info does not show the URL with its password starred"; fail=1; }
if grep -l s3cret "$TMP/pw.dio" "$TMP/pw.info" "$TMP/pw.sarif"; then
	echo "FAIL: the password is kept in the files above"; fail=1
fi
# per process: the workload with as many records as the dump has call lines for it
pid=$(sed -n 's/^\[\([0-9]*\)\/[0-9]* basic\] .*/\1/p' "$TMP/dump" | head -1)
n=$(calls "$pid" "$TMP/dump" | wc -l)
grep -qE "^  $pid +basic +$n\$" "$TMP/info" ||
	{ echo "FAIL: dio info does not count $n records for process $pid (basic):"; sed -n '/^processes:/,$p' "$TMP/info"; fail=1; }
nwrites=$(grep -cE '\] (write|pwrite64)\(' "$TMP/dump")
grep -qE "^  (write|pwrite64) +[0-9]+$" "$TMP/info" ||
	{ echo "FAIL: dio info has no per-syscall counts ($nwrites writes in the dump)"; fail=1; }

# filters: the dump's own lines, selected
callre='^\[[0-9]+/[0-9]+ [^]]*\] [a-z0-9_]+\('
filt() {	# filt NAME WANT-FILE dump-options...: the filtered dump must equal WANT-FILE
	name=$1 want=$2
	shift 2
	# block requests and run-queue waits are not calls: trace-block.sh checks their filters
	"$DIO" dump "$TMP/t.dio" "$@" > "$TMP/f.raw" 2> "$TMP/f.err"
	rc=$?
	grep -v '^\[[^]]*\] --- ' "$TMP/f.raw" > "$TMP/f.out"
	if [ "$rc" -ne 0 ] || ! cmp -s "$want" "$TMP/f.out" || [ ! -s "$want" ]; then
		echo "FAIL: dio dump $* ($name): exit $rc, -expected +printed:"
		diff "$want" "$TMP/f.out" | head -10
		cat "$TMP/f.err"
		fail=1
	fi
}
child=$(sed -n 's/^\[\([0-9]*\)\/[0-9]* [^]]*\] +++ exited with .*/\1/p' "$TMP/dump" | head -1)
grep "^\[$child/" "$TMP/dump" | grep -v '^\[[^]]*\] --- ' > "$TMP/want.pid"
filt "--pid of the first process to exit" "$TMP/want.pid" --pid "$child"
# -e trace=: the selected calls alone, as strace prints them (no process, block or
# run-queue line); a sink option brings the process lines back, trace=%all all lines
grep -E '\] (write|pwrite64)\(' "$TMP/dump" > "$TMP/want.sc"
"$DIO" dump "$TMP/t.dio" -e trace=write,pwrite64 > "$TMP/sc.out" 2>&1
cmp -s "$TMP/want.sc" "$TMP/sc.out" && [ -s "$TMP/want.sc" ] ||
	{ echo "FAIL: dio dump -e trace=write,pwrite64: -the calls +printed:"; diff "$TMP/want.sc" "$TMP/sc.out" | head; fail=1; }
grep -E '\] (write|pwrite64)\(|\] \+\+\+ ' "$TMP/dump" > "$TMP/want.sc"
filt "-e trace=write,pwrite64, proc=true" "$TMP/want.sc" -e trace=write,pwrite64 \
	--sink console:proc=true,output=-
"$DIO" dump "$TMP/t.dio" -e trace=%all > "$TMP/all.out" 2>&1
cmp -s "$TMP/dump" "$TMP/all.out" ||
	{ echo "FAIL: dio dump -e trace=%all differs from the whole dump:"; diff "$TMP/dump" "$TMP/all.out" | head; fail=1; }
# calls that name the directory, and calls without an fd on a file known to be in it (munmap)
grep -E "$callre" "$TMP/dump" | awk -v d="$MNT/wd" '
	{ tag = ""; if (match($0, / tag=[^ }]*/)) tag = substr($0, RSTART, RLENGTH) }
	index($0, d) { if (tag != "") in_dir[tag] = 1; print; next }
	tag != "" && (tag in in_dir) { print }' > "$TMP/want.path0"
"$DIO" dump "$TMP/t.dio" --path "$MNT/wd" | grep -E "$callre" > "$TMP/got.path"
if ! cmp -s "$TMP/want.path0" "$TMP/got.path"; then
	echo "FAIL: dio dump --path $MNT/wd: -lines naming the directory +printed:"
	diff "$TMP/want.path0" "$TMP/got.path" | head -10
	fail=1
fi
"$DIO" dump "$TMP/t.dio" --since 3600 > "$TMP/f.out"
[ -s "$TMP/f.out" ] && { echo "FAIL: dio dump --since 3600 printed records of a short trace"; head -3 "$TMP/f.out"; fail=1; }
"$DIO" dump "$TMP/t.dio" --until 0 | grep -E "$callre" > "$TMP/f.out"
[ "$(wc -l < "$TMP/f.out")" -le 1 ] ||
	{ echo "FAIL: dio dump --until 0 printed more than the first call"; fail=1; }

# --format json: one object per record, the same calls as the text dump
"$DIO" dump "$TMP/t.dio" --format json > "$TMP/dump.json" 2> "$TMP/json.err" ||
	{ echo "FAIL: dio dump --format json failed:"; cat "$TMP/json.err"; fail=1; }
ncalls=$(grep -cE "$callre" "$TMP/dump")
python3 - "$TMP/dump.json" "$ncalls" "$MNT/wd/a" <<'PY' || fail=1
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
calls = [o for o in objs if o["type"] == "syscall"]
if len(calls) != int(sys.argv[2]):
    sys.exit("FAIL: dump --format json has %d syscall objects, the text dump %s calls"
             % (len(calls), sys.argv[2]))
opens = [o for o in calls if o["syscall"] == "openat" and o.get("path") == sys.argv[3]]
if not opens or opens[0]["ret"] != opens[0]["fd"] or "O_CREAT" not in opens[0]["decoded"][2]:
    sys.exit("FAIL: dump --format json: no exact openat of %s: %s" % (sys.argv[3], opens[:1]))
PY

# cut inside the trailer: every record is there, and the damage is reported
cp "$TMP/t.dio" "$TMP/cut.dio"
truncate -s -5 "$TMP/cut.dio"
"$DIO" dump "$TMP/cut.dio" > "$TMP/dump2" 2> "$TMP/dump2.err"
rc=$?
[ "$rc" -ne 0 ] || { echo "FAIL: dio dump of a file cut short exited 0"; fail=1; }
cmp -s "$TMP/dump" "$TMP/dump2" || { echo "FAIL: dio dump of the cut file lost records"; fail=1; }
grep -q "^dio: warning: $TMP/cut.dio: cut short: recovered [0-9]* records in 1 blocks" "$TMP/dump2.err" ||
	{ echo "FAIL: no recovery report for the cut file:"; cat "$TMP/dump2.err"; fail=1; }

# --max-size: parts that each read on their own and together hold every call
mkdir "$TMP/parts"
# --level 0: packed but not compressed, so that 30000 writes fill several parts
run_dio record -o "$TMP/parts/r.dio" --level 0 --max-size 64k -- \
	dd if=/dev/zero of="$MNT/big" bs=512 count=30000 status=none > /dev/null 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record --max-size exited with $RC"; fail=1; }
nparts=$(ls "$TMP/parts" | wc -l)
[ "$nparts" -ge 3 ] || { echo "FAIL: --max-size 64k made $nparts files of 30000 writes"; fail=1; }
writes=0
for f in "$TMP"/parts/r.dio*; do
	"$DIO" info "$f" | grep -qx "blocks: [0-9]* intact, 0 damaged; complete" ||
		{ echo "FAIL: $f is not complete:"; "$DIO" info "$f" | tail -5; fail=1; }
	"$DIO" dump "$f" -e trace=write > "$TMP/part.out"
	# each part knows the path of dd's fd 1: the path records were carried over
	n=$(grep -c "write(1<$MNT/big>, " "$TMP/part.out")
	[ "$n" -gt 0 ] || { echo "FAIL: $f has no write with the file's path"; fail=1; }
	writes=$((writes + n))
done
[ "$writes" -eq 30000 ] || { echo "FAIL: the parts hold $writes of dd's 30000 writes"; fail=1; }
"$DIO" info "$TMP/parts/r.dio.$((nparts - 1))" | grep -qx "parts=$nparts" ||
	{ echo "FAIL: the last part does not say parts=$nparts"; fail=1; }
# --rotate 2: the names come round again, only two files stay
rm -rf "$TMP/parts" && mkdir "$TMP/parts"
run_dio record -o "$TMP/parts/r.dio" --level 0 --max-size 64k --rotate 2 -- \
	dd if=/dev/zero of="$MNT/big" bs=512 count=30000 status=none > /dev/null 2>&1
[ "$(ls "$TMP/parts")" = "$(printf 'r.dio\nr.dio.1')" ] ||
	{ echo "FAIL: --rotate 2 left these files:"; ls "$TMP/parts"; fail=1; }
"$DIO" record -o "$TMP/x.dio" --rotate 2 -- true > /dev/null 2> "$TMP/bad.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "rotate N needs --max-size SIZE" "$TMP/bad.err" ||
	{ echo "FAIL: --rotate without --max-size: exit $rc:"; cat "$TMP/bad.err"; fail=1; }

# bad input: one line, non-zero exit
bad() {	# bad FILE WANT
	"$DIO" dump "$1" > "$TMP/bad.out" 2> "$TMP/bad.err"
	rc=$?
	if [ "$rc" -eq 0 ] || [ "$(wc -l < "$TMP/bad.err")" -ne 1 ] || ! grep -qF "$2" "$TMP/bad.err"; then
		echo "FAIL: dio dump $1: exit $rc, wanted one line with '$2':"
		cat "$TMP/bad.err"
		fail=1
	fi
}
: > "$TMP/empty.dio"
bad "$TMP/empty.dio" "empty file"
bad "$TMP" "is a directory, not a trace file"
printf 'this is not a trace file at all' > "$TMP/text.dio"
bad "$TMP/text.dio" "not a dio trace file (wrong magic)"
bad "$TMP/none.dio" "No such file or directory"
# --hash user --capture-data: the dump keeps the captured bytes the live session showed
run_dio record -o "$TMP/h.dio" --print --no-summary --hash user --capture-data 8 \
	--sink console:output="$TMP/hlive" -- "$WL/basic" "$MNT/wd" 9> /dev/null > /dev/null 2>&1
"$DIO" dump "$TMP/h.dio" > "$TMP/h.dump"
grep -q ' data="' "$TMP/hlive" && cmp -s "$TMP/hlive" "$TMP/h.dump" ||
	{ echo "FAIL: dump of a --hash user --capture-data 8 recording differs from the live lines:"; diff "$TMP/hlive" "$TMP/h.dump" | head -4; fail=1; }

# losses: what the recording lost, dio analyze reports as the recording did
run_dio record -o "$TMP/l.dio" --ring-size 64k --drain-ms 1000 --wakeup-at 100 \
	-- "$top_builddir/bench/callcost" "$TMP/cc" 1 100000 > "$TMP/l.rec" 2>&1
"$DIO" analyze "$TMP/l.dio" > "$TMP/l.an" 2>&1
lost=$(grep "summary.lost-events" "$TMP/l.rec")
[ -n "$lost" ] || { echo "FAIL: a 64k ring lost nothing: the loss check proves nothing"; fail=1; }
grep -qxF "$lost" "$TMP/l.an" ||
	{ echo "FAIL: dio analyze does not report the recording's losses '$lost':"; grep lost "$TMP/l.an"; fail=1; }
# -C after the trace file is read too
printf 'bogus_key = 1;\n' > "$TMP/bad.conf"
"$DIO" analyze "$TMP/t.dio" -C "$TMP/bad.conf" > /dev/null 2> "$TMP/c.err" &&
	{ echo "FAIL: dio analyze FILE -C BADCONF succeeded"; fail=1; }
grep -q "bad.conf:1: unknown key 'bogus_key'" "$TMP/c.err" ||
	{ echo "FAIL: dio analyze FILE -C BADCONF did not read it:"; cat "$TMP/c.err"; fail=1; }

# no privilege needed to read a trace (root without any capability here, so the
# build tree stays reachable); a trace the user may not read is a one-line error
nocap="setpriv --bounding-set=-all --inh-caps=-all"
$nocap "$DIO" analyze "$TMP/t.dio" > "$TMP/an.nocap" 2>&1
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$TMP/an" "$TMP/an.nocap" ||
	{ echo "FAIL: dio analyze without capabilities: exit $rc, output differs:"; diff "$TMP/an" "$TMP/an.nocap" | head; fail=1; }
cp "$TMP/t.dio" "$TMP/locked.dio"
chmod 000 "$TMP/locked.dio"
for cmd in dump analyze info; do
	$nocap "$DIO" $cmd "$TMP/locked.dio" > "$TMP/bad.out" 2> "$TMP/bad.err"
	rc=$?
	if [ "$rc" -eq 0 ] || [ "$(wc -l < "$TMP/bad.err")" -ne 1 ] ||
	   ! grep -qF "$TMP/locked.dio: Permission denied" "$TMP/bad.err"; then
		echo "FAIL: dio $cmd of an unreadable file: exit $rc, wanted one line 'Permission denied':"
		cat "$TMP/bad.err"
		fail=1
	fi
done

"$DIO" record -- true > "$TMP/bad.out" 2> "$TMP/bad.err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "name the trace file with -o FILE" "$TMP/bad.err"; then
	echo "FAIL: dio record without -o: exit $rc:"
	cat "$TMP/bad.err"
	fail=1
fi
exit $fail
