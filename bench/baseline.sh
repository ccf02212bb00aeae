#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What --baseline costs: dio analyze of a small trace (one finding) against
# SARIF logs of N results, each of its own fingerprint and shaped as dio
# writes them (so all but one are absent from the run), and against a log
# that is one array of zeros. For each dio given: the seconds and the peak
# RSS, with the log's size. A run that takes longer than LIMIT seconds is
# stopped and said so.
#
# usage: bench/baseline.sh [-l LIMIT] [-n "N N ..."] [-z MB] DIO [DIO ...]
#   e.g. bench/baseline.sh /path/to/old/dio ./dio
set -euo pipefail

limit=150 sizes="10000 20000 40000 100000" zeros=60
while getopts "l:n:z:" opt; do
	case $opt in
	l) limit=$OPTARG ;;
	n) sizes=$OPTARG ;;
	z) zeros=$OPTARG ;;
	*) echo "usage: $0 [-l LIMIT] [-n \"N N ...\"] [-z MB] DIO [DIO ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-l LIMIT] [-n \"N N ...\"] [-z MB] DIO [DIO ...]" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
top=$(dirname "$here")
trace=$top/tests/fuzz/corpus/demo.dio
[ -r "$trace" ] || bench_die "$trace not found"
work=$(mktemp -d /var/tmp/dio-bench-baseline.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 - "$work" "$zeros" $sizes << 'PY'
import json, sys
work, zeros, sizes = sys.argv[1], int(sys.argv[2]), [int(n) for n in sys.argv[3:]]
def result(i):
    fp = "%016x" % (0x9e3779b97f4a7c15 * (i + 1) % (1 << 64))
    path = "/srv/app/data/file-%d.log" % i
    return {"ruleId": "redundant-open.churn", "ruleIndex": 9, "level": "warning",
            "message": {"text": path + " opened and closed 201 times in 230.3 ms (873/s), "
                        "18.4 bytes per open: openat write close"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file://" + path}},
                           "logicalLocations": [{"name": "app", "fullyQualifiedName": "pid 16800",
                                                 "kind": "process"}]}],
            "partialFingerprints": {"dio/v1": fp, "primaryLocationLineHash": fp + ":1"},
            "suppressions": [],
            "properties": {"analyzer": "redundant-open", "subject": path, "process": "app",
                           "pid": 16800, "tid": 16800, "path": path, "count": 201,
                           "message": "Process 16800 (app) opened " + path + " and closed it "
                           "again 201 times with fewer than 65536 bytes."}}
for n in sizes:
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "dio"}},
                                        "results": [result(i) for i in range(n)]}]}
    with open("%s/r%d.sarif" % (work, n), "w") as f:
        json.dump(log, f)
with open("%s/zeros.sarif" % work, "w") as f:
    f.write('{"version": "2.1.0", "runs": [], "zeros": [0')
    f.write(",0" * (zeros * 1000000 // 2))
    f.write("]}")
PY

printf '%-28s %-16s %9s %9s %12s %s\n' "dio" "baseline" "MB" "seconds" "peak RSS MB" "exit"
for dio in "$@"; do
	dio=$(realpath "$dio")
	need_dio
	for f in $(for n in $sizes; do echo "r$n"; done) zeros; do
		rc=0
		/usr/bin/time -f "%e %M" -o "$work/time" timeout -s KILL "$limit" "$dio" analyze \
			"$trace" --baseline "$work/$f.sarif" --sink json:file=/dev/null \
			> /dev/null 2> "$work/err" || rc=$?
		read -r secs rss < <(tail -1 "$work/time")
		# stopped: its peak so far is not what it would have taken
		[ "$rc" -eq 137 ] && secs=">$limit" rss=-1024
		case $f in
		r*) name="${f#r} results" ;;
		*) name="zeros" ;;
		esac
		printf '%-28s %-16s %9.1f %9s %12s %s\n' "$(basename "$(dirname "$dio")")/dio" "$name" \
			"$(echo "$(stat -c %s "$work/$f.sarif") / 1000000" | bc -l)" "$secs" \
			"$([ "$rss" -lt 0 ] && echo - || echo $((rss / 1024)))" "$rc"
	done
done
printf '\nreproduce: %s -l %s -n "%s" -z %s %s\n' "$0" "$limit" "$sizes" "$zeros" "$*"
