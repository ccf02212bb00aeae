#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What dio report costs and what its page weighs when every series is full:
# bench/manyio's threads (a quarter of them background "compact-N") on files
# of their own, recorded until the trace holds about CALLS calls; then dio
# report's time and peak memory, the page's size, and the time headless
# Chromium takes from opening the page to its load event (best of 3).
#
# The recording uses --level LEVEL (default 0, packed but not compressed: the
# writer then keeps up with more threads on few CPUs; what is measured is the
# report of the records kept).
#
# usage: bench/report.sh [-t THREADS] [-f FILES] [-l LEVEL] [DIO] [CALLS]
set -euo pipefail

threads=16 files=16 level=0
while getopts "t:f:l:" opt; do
	case $opt in
	t) threads=$OPTARG ;;
	f) files=$OPTARG ;;
	l) level=$OPTARG ;;
	*) echo "usage: $0 [-t THREADS] [-f FILES] [-l LEVEL] [DIO] [CALLS]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=$(realpath "${1:-./dio}")
calls=${2:-10000000}
. "$(dirname "$0")/lib.sh"
need_root
need_dio
top=$(dirname "$here")
[ -x "$here/manyio" ] || bench_die "$here/manyio not found: run make first"
command -v chromium > /dev/null || bench_die "no chromium: apt-get install chromium"
export DIO_ANALYZER_PATH=${DIO_ANALYZER_PATH:-$top/analyzers} DIO_SINK_PATH=${DIO_SINK_PATH:-$top/sinks}
work=$(mktemp -d /var/tmp/dio-bench-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/data"

"$dio" record -q --no-summary --level "$level" -o "$work/m.dio" -- "$here/manyio" "$work/data" "$threads" "$files" "$calls" \
	> /dev/null 2> "$work/rec.err" || { cat "$work/rec.err" >&2; bench_die "dio record failed"; }
rm -rf "$work/data"
"$dio" info "$work/m.dio" > "$work/info" 2>&1
records=$(sed -n 's/^records: \([0-9]*\) .*/\1/p' "$work/info")
dropped=$(sed -n 's/^dropped_records=//p' "$work/info")
/usr/bin/time -f "%e %M" -o "$work/time" "$dio" report "$work/m.dio" -o "$work/m.html" 2> /dev/null
read -r secs rss < "$work/time"
page=$(stat -c %s "$work/m.html")
load=$(python3 - "$work/m.html" "$top/tests/report" << 'PY'
import sys, time
sys.path.insert(0, sys.argv[2])
import browser
best = None
with browser.Browser() as b:
    for _ in range(3):
        t = time.time()
        b.open("file://" + sys.argv[1])
        ready = b.evaluate("document.body.dataset.ready")
        d = time.time() - t
        if ready != "1":
            sys.exit("the page did not finish its script")
        best = d if best is None else min(best, d)
print("%.2f" % best)
PY
)
printf '%-34s %s\n' "trace" "$records records ($dropped dropped), $(stat -c %s "$work/m.dio") bytes, $threads threads x $files files"
printf '%-34s %s\n' "dio report" "$secs s, $((rss / 1024)) MB peak RSS"
printf '%-34s %s\n' "page" "$page bytes"
printf '%-34s %s\n' "Chromium: open to load (best of 3)" "$load s"
printf '\nreproduce: sudo %s -t %s -f %s -l %s %s %s\n' "$0" "$threads" "$files" "$level" "$dio" "$calls"
