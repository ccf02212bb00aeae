#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The clickhouse sink against one local server (tests/clickhouse/server.sh):
#  1. dio trace of fio (4 KiB random read/write, sync engine, tmpfs) with the
#     sink, beside dio trace of the same fio writing nowhere (-q): fio's IOPS,
#     the records dio lost, the rows the sink stored against the calls dio
#     saw, and how long after fio ended the last rows were stored;
#  2. dio push of that session's recording into another database: the rows a
#     second one server stores when the sink sends as fast as it can;
#  3. the bytes a row takes on the server's disk, per table (system.parts);
#  4. the insert formats: the pushed calls as RowBinary (what the sink sends)
#     and as JSONEachRow, their sizes raw and gzipped, and the server's time to
#     insert each gzipped body, best of 3 alternating rounds;
#  5. dio analyze --from of the pushed session (the summary analyzer): its
#     time and its largest resident size, which streaming keeps to a few MiB
#     whatever the session's rows.
#
# usage: bench/clickhouse.sh [-s SECONDS] [DIO]
set -euo pipefail

secs=10
while getopts "s:" opt; do
	case $opt in
	s) secs=$OPTARG ;;
	*) echo "usage: $0 [-s SECONDS] [DIO]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dio=$(realpath "${1:-./dio}")
. "$(dirname "$0")/lib.sh"
need_root
need_dio
top=$(dirname "$here")
server=$top/tests/clickhouse/server.sh
sh "$server" check > /dev/null || bench_die "no clickhouse-server: apt-get install clickhouse-server"
command -v fio > /dev/null || bench_die "no fio: apt-get install fio"
export DIO_ANALYZER_PATH=${DIO_ANALYZER_PATH:-$top/analyzers} DIO_SINK_PATH=${DIO_SINK_PATH:-$top/sinks}
work=$(mktemp -d /tmp/dio-bench-ch.XXXXXX)
chmod 755 "$work"
file=$(mktemp /dev/shm/dio-bench-ch.XXXXXX)
trap 'sh "$server" stop "$work/srv" > /dev/null 2>&1; rm -rf "$work" "$file"' EXIT
url=$(sh "$server" start "$work/srv" 2> /dev/null)
q() { curl -sS --data-binary "$1 FORMAT TabSeparated" "$url/"; }

fio_cmd=(fio --name=bench "--filename=$file" --size=256M --rw=randrw --bs=4k --ioengine=sync
	--time_based "--runtime=$secs" --minimal)
iops() { awk -F';' 'NF > 49 { printf "%d\n", $8 + $49; exit }' "$1"; }
lost() { grep -o '[0-9]* events lost\|[0-9]* records lost' "$1" | awk '{ n += $1 } END { print n + 0 }'; }

# the same fio under dio writing nowhere, for the IOPS beside
"$dio" trace -q --no-summary -- "${fio_cmd[@]}" --output="$work/plain.fio" > /dev/null 2> "$work/plain.err"
# with the sink, recording too (the same records, for the push below)
start=$(date +%s.%N)
"$dio" record -q --no-summary -o "$work/fio.dio" --level 0 \
	--sink "clickhouse:url=$url,spool=$work/spool" -- "${fio_cmd[@]}" --output="$work/ch.fio" \
	> /dev/null 2> "$work/ch.err"
end=$(date +%s.%N)
session=$("$dio" info "$work/fio.dio" | sed -n 's/^session_id=//p')
calls=$("$dio" info "$work/fio.dio" | sed -n 's/^records: [0-9]* (syscall \([0-9]*\),.*/\1/p')
stored=$(q "SELECT count() FROM dio.calls WHERE session = '$session'")
last=$(q "SELECT max(ts) FROM dio.sessions WHERE session = '$session'")
drain=$(awk -v e="$end" -v s="$start" -v r="$secs" 'BEGIN { printf "%.1f", e - s - r }')

pstart=$(date +%s.%N)
"$dio" push "$work/fio.dio" --to "$url,database=pushed,spool=$work/spool" --analyzer summary \
	> /dev/null 2> "$work/push.err"
pend=$(date +%s.%N)
prows=$(q "SELECT sum(rows) FROM system.parts WHERE database = 'pushed' AND active")

printf '%-44s %s\n' "fio IOPS, dio trace -q" "$(iops "$work/plain.fio") ($(lost "$work/plain.err") records lost)"
printf '%-44s %s\n' "fio IOPS, dio record --sink clickhouse" "$(iops "$work/ch.fio") ($(lost "$work/ch.err") records lost)"
printf '%-44s %s\n' "calls dio saw / rows the sink stored" "$calls / $stored"
printf '%-44s %s\n' "dio's run beyond fio's (drain, start, end)" "$drain s"
printf '%-44s %s\n' "dio push: rows stored a second" \
	"$(awk -v n="$prows" -v s="$pstart" -v e="$pend" 'BEGIN { printf "%.0f (%d rows in %.1f s)", n / (e - s), n, e - s }')"
printf '\nbytes a row on the server'"'"'s disk:\n'
q "SELECT table, sum(rows), sum(bytes_on_disk), round(sum(bytes_on_disk) / sum(rows), 1)
   FROM system.parts WHERE database = 'dio' AND active GROUP BY table ORDER BY table" |
	awk -F'\t' 'BEGIN { printf "%-10s %10s %12s %8s\n", "table", "rows", "bytes", "B/row" }
		{ printf "%-10s %10s %12s %8s\n", $1, $2, $3, $4 }'
[ -n "$last" ] || echo "(the session's end row is missing: see $work/ch.err)"

curl -sS --data-binary "SELECT * FROM pushed.calls FORMAT RowBinary" "$url/" > "$work/rows.RowBinary"
curl -sS --data-binary "SELECT * FROM pushed.calls FORMAT JSONEachRow" \
	"$url/?output_format_json_quote_64bit_integers=0" > "$work/rows.JSONEachRow"
declare -A best
for f in RowBinary JSONEachRow; do
	gzip -1 -c "$work/rows.$f" > "$work/rows.$f.gz"
	q "CREATE TABLE pushed.calls_$f AS pushed.calls" > /dev/null
done
for round in 1 2 3; do
	for f in RowBinary JSONEachRow; do
		s=$(date +%s.%N)
		curl -sS -H "Content-Encoding: gzip" --data-binary "@$work/rows.$f.gz" \
			"$url/?query=INSERT+INTO+pushed.calls_$f+FORMAT+$f"
		t=$(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
		best[$f]=$(best "${best[$f]:-}" "$t")
	done
done
printf '\n%-12s %12s %12s %10s\n' "format" "bytes" "gzip -1" "insert s"
for f in RowBinary JSONEachRow; do
	printf '%-12s %12s %12s %10s\n' "$f" "$(stat -c %s "$work/rows.$f")" "$(stat -c %s "$work/rows.$f.gz")" "${best[$f]}"
done
# 5. --from: the rows streamed back; the peak memory of the whole dio process
python3 - "$dio" "$url" "$session" << 'PY'
import resource, subprocess, sys, time
dio, url, session = sys.argv[1:]
t = time.monotonic()
r = subprocess.run([dio, "analyze", "--no-summary", "--analyzer", "summary", "--from",
                    f"clickhouse:url={url},database=pushed,session={session}"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"\n{'dio analyze --from (pushed session)':<44} {time.monotonic() - t:.1f} s, "
      f"max RSS {rss:.0f} MiB (exit {r.returncode})")
PY
printf '\nreproduce: sudo %s -s %s %s\n' "$0" "$secs" "$dio"
