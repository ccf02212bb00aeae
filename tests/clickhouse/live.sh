#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --report-every into ClickHouse: a finding judged while the traced program
# still runs is a row of dio.findings then, not at the end; its update at the
# end is one more row with the same fingerprint and the final count, and the
# documented query (docs/clickhouse.md: argMax(..., seq) by session and
# fingerprint) gives the finding once, as it stands. tests/workloads/errstorm
# live makes 500 failing stats, waits for DIR/seen (made here only once the
# row is in the table), then 300 more: it prints "seen" only if the row came
# while it ran.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/clickhouse/lib.sh"
need_root_bpf
ch_start
fail=0
mkdir "$TMP/d"

watch() {
	i=0
	while [ $i -lt 200 ]; do
		n=$(q "SELECT count() FROM live.findings WHERE code = 'errors.burst'" 2> /dev/null)
		if [ "${n:-0}" -ge 1 ] 2> /dev/null; then
			q "SELECT count, fingerprint FROM live.findings WHERE code = 'errors.burst'" \
				> "$TMP/mid.tsv"
			touch "$TMP/d/seen"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
}
watch &
WATCH=$!
run_dio trace -q --no-summary --analyzer errors --report-every 1 \
	--sink "clickhouse:url=$U,database=live,flush_ms=200" \
	-- "$WL/errstorm" live "$TMP/d" > "$TMP/out" 2> "$TMP/err"
wait $WATCH
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC:"; cat "$TMP/err"; fail=1; }
[ "$(head -n 1 "$TMP/out")" = "seen" ] ||
	{ echo "FAIL: the finding's row did not come while the workload ran:"; cat "$TMP/out"; fail=1; }
[ "$(cut -f1 "$TMP/mid.tsv" 2> /dev/null)" = 500 ] ||
	{ echo "FAIL: while it ran, the table held: $(cat "$TMP/mid.tsv" 2> /dev/null)"; fail=1; }
fp=$(cut -f2 "$TMP/mid.tsv" 2> /dev/null)
# at the end: the row of the run and one update row, same fingerprint, ordered by seq
got=$(q "SELECT count, fingerprint FROM live.findings WHERE code = 'errors.burst' ORDER BY seq" |
	tr '\t\n' ' ,')
[ "$got" = "500 $fp,800 $fp," ] ||
	{ echo "FAIL: the findings rows are '$got', want 500 then 800 with fingerprint $fp"; fail=1; }
# the documented query: the finding once, as it stands
got=$(q "SELECT fingerprint, argMax(count, seq) AS count FROM live.findings
	WHERE code = 'errors.burst' GROUP BY host, session, fingerprint" | tr '\t' ' ')
[ "$got" = "$fp 800" ] ||
	{ echo "FAIL: by (session, fingerprint) with argMax: '$got', want '$fp 800'"; fail=1; }
[ $fail -eq 0 ] && echo "ok: the finding reached ClickHouse while the program ran, then its update"
exit $fail
