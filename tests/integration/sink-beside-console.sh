#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --sink adds a sink beside the console: the findings (and live, the calls)
# still reach the terminal and the added sink has them too; -q (or the
# config's quiet = true) with --sink asks for the named sinks alone; a console
# named in --sink is the only one; --format json keeps standard output JSON.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
mkdir "$TMP/run"

run_dio record -q --no-summary -o "$TMP/t.dio" -- "$WL/demo" "$TMP/run" > /dev/null 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited $RC"; exit 1; }
TITLE='^dio: \[WARNING\] redundant-open\.churn: '
an() {	# NAME ARGS...: dio analyze of the demo's recording, its terminal in NAME.out
	name=$1
	shift
	"$DIO" analyze "$TMP/t.dio" --no-summary --analyzer redundant-open "$@" > "$TMP/$name.out" 2>&1
}
in_json() {	# FILE: the churn findings the json sink wrote
	grep -c '"type":"finding".*"code":"redundant-open.churn"' "$1"
}

an plain
an beside --sink "json:file=$TMP/beside.json"
[ "$(grep -c "$TITLE" "$TMP/plain.out")" -eq 1 ] ||
	{ echo "FAIL: no churn finding on the console without --sink:"; cat "$TMP/plain.out"; fail=1; }
cmp -s "$TMP/plain.out" "$TMP/beside.out" ||
	{ echo "FAIL: --sink json changed the console (-without +with):"; diff "$TMP/plain.out" "$TMP/beside.out"; fail=1; }
[ "$(in_json "$TMP/beside.json")" -eq 1 ] || { echo "FAIL: the json sink beside the console lacks the finding"; fail=1; }

# -q: the named sinks alone, on the command line or from the config file
an quiet -q --sink "json:file=$TMP/quiet.json"
[ -s "$TMP/quiet.out" ] && { echo "FAIL: -q --sink json still printed:"; cat "$TMP/quiet.out"; fail=1; }
[ "$(in_json "$TMP/quiet.json")" -eq 1 ] || { echo "FAIL: -q --sink json: the file lacks the finding"; fail=1; }
printf 'quiet = true;\nsinks = [ "json:file=%s" ];\n' "$TMP/conf.json" > "$TMP/dio.conf"
an conf -C "$TMP/dio.conf"
[ -s "$TMP/conf.out" ] && { echo "FAIL: quiet = true with the config's sinks still printed:"; cat "$TMP/conf.out"; fail=1; }
[ "$(in_json "$TMP/conf.json")" -eq 1 ] || { echo "FAIL: the config's json sink lacks the finding"; fail=1; }

# the console named: that one alone, with its options
an named --sink console:details=false --sink "json:file=$TMP/named.json"
[ "$(grep -c "$TITLE" "$TMP/named.out")" -eq 1 ] ||
	{ echo "FAIL: the named console is not the only one:"; cat "$TMP/named.out"; fail=1; }

# --format json: standard output is the json sink's alone
"$DIO" analyze "$TMP/t.dio" --no-summary --analyzer redundant-open --format json > "$TMP/fj.out" 2> /dev/null
python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/fj.out" &&
	[ "$(in_json "$TMP/fj.out")" -eq 1 ] || { echo "FAIL: --format json: standard output is not the findings' JSON"; fail=1; }

# live: the calls still print beside the sink
run_dio trace --no-summary --sink "json:file=$TMP/live.json" -- sh -c "echo x > \"$TMP/live.out\"" \
	> "$TMP/live.txt" 2>&1
grep -q "^\[[0-9]*/[0-9]* sh\] openat(AT_FDCWD, \"$TMP/live.out\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3" "$TMP/live.txt" &&
	grep -q "\"path\":\"$TMP/live.out\"" "$TMP/live.json" ||
	{ echo "FAIL: dio trace --sink json: the open is not on the console and in the file:"; cat "$TMP/live.txt"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: --sink adds beside the console; -q asks for the named sinks alone"
exit $fail
