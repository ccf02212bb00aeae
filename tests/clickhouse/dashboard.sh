#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet dashboard's queries of docs/clickhouse.md ("```sql dashboard"),
# run as written after two hosts' recordings are pushed, each answer equal
# to what the recordings hold (their json dumps, counted here):
#  - calls and errors per minute per host: the recordings' calls and failed
#    calls (an errno) in each minute of each host;
#  - the slowest files: the calls on each file (by its latest path) of each
#    host, the most time first;
#  - fsyncs per minute per process: each process's fsync, fdatasync,
#    sync_file_range, syncfs and msync calls in each minute;
#  - findings across hosts: each code's worst severity, the hosts that
#    show it and how often, as dio analyze finds them in the recordings.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/clickhouse/lib.sh"
need_root_bpf
ch_start
fail=0
SPOOL=$TMP/spool
WORK="mkdir -p '$TMP/w' && \"$WL/basic\" '$TMP/w' 9> /dev/null && \"$WL/demo\" '$TMP/demo'"

run_dio record -q --no-summary -o "$TMP/a.dio" -- sh -c "$WORK"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC"; exit 1; }
unshare -u sh -c "hostname dio-host-b && exec \"$DIO\" record -q --no-summary -o \"$TMP/b.dio\" \
	-- sh -c \"rm -rf '$TMP/w' '$TMP/demo'; $(printf '%s' "$WORK" | sed 's/"/\\"/g')\"" > /dev/null 2>&1 ||
	{ echo "FAIL: the session on host dio-host-b failed"; exit 1; }
for f in a b; do
	run_dio push "$TMP/$f.dio" --to "$U,spool=$SPOOL" 2> "$TMP/push.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio push $f.dio exited with $RC:"; cat "$TMP/push.err"; exit 1; }
	"$DIO" dump "$TMP/$f.dio" --sink "json:file=$TMP/$f.json" > /dev/null 2>&1
	"$DIO" analyze --no-summary --analyzer all "$TMP/$f.dio" --sink "json:file=$TMP/$f.findings" > /dev/null 2>&1
	"$DIO" info "$TMP/$f.dio" | sed -n 's/^host=//p' > "$TMP/$f.host"
done
[ "$(cat "$TMP/b.host")" = dio-host-b ] || { echo "FAIL: the second recording is not of dio-host-b"; exit 1; }

# what the answers must be, from the recordings (ns since 1970 need 61 bits: Python, not jq)
python3 - "$TMP" > "$TMP/want" << 'EOF'
import json, sys
from collections import defaultdict
tmp = sys.argv[1]
per_min = defaultdict(lambda: [0, 0])
files = defaultdict(lambda: [0, 0])
fsyncs = defaultdict(lambda: [None, 0])
findings = defaultdict(lambda: [0, "", set(), 0])
levels = {"info": 1, "warning": 2, "error": 3}
for f in "ab":
    host = open(f"{tmp}/{f}.host").read().strip()
    recs = [json.loads(line) for line in open(f"{tmp}/{f}.json")]
    paths = {}
    for r in sorted((r for r in recs if r["type"] == "path"), key=lambda r: r["ts_ns"]):
        paths[r["file_tag"]] = r["path"]
    for r in recs:
        if r["type"] != "syscall":
            continue
        minute = r["ts_ns"] // 60000000000
        per_min[(minute, host)][0] += 1
        per_min[(minute, host)][1] += "errno" in r
        if r.get("file_tag") in paths:
            files[(host, paths[r["file_tag"]])][0] += 1
            files[(host, paths[r["file_tag"]])][1] += r["duration_ns"]
        if r["syscall"] in ("fsync", "fdatasync", "sync_file_range", "syncfs", "msync"):
            k = (minute, host, r["pid"])
            fsyncs[k][0] = fsyncs[k][0] or r["comm"]
            fsyncs[k][1] += 1
    for line in open(f"{tmp}/{f}.findings"):
        r = json.loads(line)
        if r["type"] != "finding":
            continue
        v = findings[r["code"]]
        if levels[r["severity"]] > v[0]:
            v[0], v[1] = levels[r["severity"]], r["severity"]
        v[2].add(host)
        v[3] += 1
print("query 1")
for (m, host), (n, e) in sorted(per_min.items()):
    print(host, n, e, sep="\t")
print("query 2")
top = sorted(files.items(), key=lambda kv: (-kv[1][1], kv[0]))[:20]
for (host, path), (n, ns) in top:
    print(host, path, n, ns, sep="\t")
print("query 3")
for (m, host, pid), (comm, n) in sorted(fsyncs.items()):
    print(host, pid, comm, n, sep="\t")
print("query 4")
for code, (lv, sev, hosts, n) in sorted(findings.items(),
                                        key=lambda kv: (-kv[1][0], -len(kv[1][2]), -kv[1][3], kv[0])):
    print(code, lv, sev, len(hosts), n, " ".join(sorted(hosts)), sep="\t")
EOF

# the documented queries, as written; the minute (shown in the server's time zone) left out
doc_queries "sql dashboard" > "$TMP/queries"
[ "$(grep -c . "$TMP/queries")" -eq 4 ] || { echo "FAIL: docs/clickhouse.md has not the 4 dashboard queries"; fail=1; }
i=0
while read -r sql; do
	i=$((i + 1))
	echo "query $i"
	case $i in
	1|3) q "$sql" | cut -f2- ;;
	*) q "$sql" ;;
	esac
done < "$TMP/queries" > "$TMP/got" 2>&1
for i in 1 2 3 4; do
	n=$(sed -n "/^query $i$/,/^query/p" "$TMP/got" | grep -vc '^query')
	echo "query $i: $n rows"
	[ "$n" -gt 0 ] || { echo "FAIL: query $i answered nothing"; fail=1; }
done
[ "$(grep -c '^dio-host-b	' "$TMP/got")" -ge 3 ] ||
	{ echo "FAIL: the answers do not name host dio-host-b"; fail=1; }
if ! cmp -s "$TMP/want" "$TMP/got"; then
	echo "FAIL: the dashboard's answers differ from the recordings':"
	diff "$TMP/want" "$TMP/got" | head -20
	fail=1
fi
exit $fail
