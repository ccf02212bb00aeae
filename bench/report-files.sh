#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What dio report costs on a trace of many files: N fstat records, each on a
# new inode (a crafted trace, compressed to little), as a program that makes
# and deletes files without end leaves; with -k threads, each by a new
# thread on one file, as a machine that starts threads without end leaves.
# For each dio given: the seconds, the peak RSS and the page's size. No BPF
# needed.
#
# usage: bench/report-files.sh [-n RECORDS] [-k files|threads] DIO [DIO ...]
#   e.g. bench/report-files.sh -n 5800000 /path/to/old/dio ./dio
set -euo pipefail

n=5800000 kind=files
usage() { echo "usage: $0 [-n RECORDS] [-k files|threads] DIO [DIO ...]" >&2; exit 2; }
while getopts "n:k:" opt; do
	case $opt in
	n) n=$OPTARG ;;
	k) kind=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $kind in files|threads) ;; *) usage ;; esac
. "$(dirname "$0")/lib.sh"
top=$(dirname "$here")
work=$(mktemp -d /var/tmp/dio-bench-report-files.XXXXXX)
trap 'rm -rf "$work"' EXIT

# written block by block: the records of a block at a time in memory
python3 - "$top/tests/integration" "$work/many.dio" "$n" "$kind" << 'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import FILE_HDR, INDEX_ENT, TRAILER, KIND_INDEX, KIND_META, \
    KIND_RECORDS, RAW_MAX, SYSCALL
from tracefile_writer import block, BF_VALID

n, threads = int(sys.argv[3]), sys.argv[4] == "threads"
per = RAW_MAX // SYSCALL.size
with open(sys.argv[2], "wb") as f:
    out = FILE_HDR.pack(b"DIOTRACE", 1, FILE_HDR.size) + block(KIND_META, b"command=many\n")
    f.write(out)
    off, index = len(out), b""
    for start in range(0, n, per):
        end = min(n, start + per)
        raw = b"".join(SYSCALL.pack(1, SYSCALL.size, 0, 1000000 + 10 * i, 4242,
                                    100000 + i if threads else 4242, 1000, 0, 3, 0, 0, 0, 0,
                                    0, b"many", 1 if threads else i + 1, 1, 0, 0, 5, 8, 1, 0,
                                    0, 3, 0) for i in range(start, end))
        b = block(KIND_RECORDS, raw, end - start, 1000000 + 10 * start,
                  1000000 + 10 * (end - 1), BF_VALID)
        index += INDEX_ENT.pack(off, 1000000 + 10 * start, 1000000 + 10 * (end - 1),
                                end - start, BF_VALID)
        f.write(b)
        off += len(b)
    f.write(block(KIND_INDEX, index, len(index) // INDEX_ENT.size))
    f.write(TRAILER.pack(off, b"DIOINDEX"))
PY

printf 'trace: %s records by as many %s, %s bytes\n\n' "$n" \
	"$([ "$kind" = threads ] && echo "threads on one file" || echo "files")" \
	"$(stat -c %s "$work/many.dio")"
printf '%-28s %9s %12s %14s %s\n' "dio" "seconds" "peak RSS MB" "page bytes" "exit"
for dio in "$@"; do
	dio=$(realpath "$dio")
	need_dio
	rc=0
	/usr/bin/time -f "%e %M" -o "$work/time" "$dio" report "$work/many.dio" \
		-o "$work/page.html" > /dev/null 2> "$work/err" || rc=$?
	read -r secs rss < <(tail -1 "$work/time")
	printf '%-28s %9s %12d %14s %s\n' "$(basename "$(dirname "$dio")")/dio" "$secs" \
		"$((rss / 1024))" "$(stat -c %s "$work/page.html" 2> /dev/null || echo -)" "$rc"
	rm -f "$work/page.html"
done
printf '\nreproduce: %s -n %s -k %s %s\n' "$0" "$n" "$kind" "$*"
