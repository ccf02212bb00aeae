#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What dio's host keeps per file: a process makes and deletes N files, each
# a new file tag, under dio trace (console to /dev/null, summary on). For
# each dio given: the peak RSS, the time, and the paths it says it forgot.
# dio trace -a on a busy machine meets files the same way, without end.
#
# usage: sudo bench/tagtab.sh [-n FILES] [-t TAG_TABLE] DIO [DIO ...]
#   e.g. sudo bench/tagtab.sh -n 400000 /path/to/old/dio ./dio
set -euo pipefail

n=400000 tags=65536
while getopts "n:t:" opt; do
	case $opt in
	n) n=$OPTARG ;;
	t) tags=$OPTARG ;;
	*) echo "usage: $0 [-n FILES] [-t TAG_TABLE] DIO [DIO ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n FILES] [-t TAG_TABLE] DIO [DIO ...]" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
need_root
work=$(mktemp -d /dev/shm/dio-bench-tagtab.XXXXXX)
trap 'rm -rf "$work"' EXIT

printf '%-28s %9s %9s %12s %16s\n' "dio" "files" "seconds" "peak RSS MB" "paths forgotten"
for dio in "$@"; do
	dio=$(realpath "$dio")
	need_dio
	/usr/bin/time -f "%e %M" -o "$work/time" "$dio" trace --tag-table "$tags" -o /dev/null -- \
		python3 -c "
import os
os.chdir('$work')
for i in range($n):
    open('f%d' % i, 'w').close()
    os.unlink('f%d' % i)
" 2> "$work/err" || bench_die "$dio trace failed: $(cat "$work/err")"
	read -r secs rss < <(tail -1 "$work/time")
	forgot=$(sed -n 's/^dio: warning: \([0-9]*\) paths forgotten.*/\1/p' "$work/err")
	printf '%-28s %9s %9s %12d %16s\n' "$(basename "$(dirname "$dio")")/dio" "$n" "$secs" \
		"$((rss / 1024))" "${forgot:--}"
done
printf '\nreproduce: sudo %s -n %s -t %s %s\n' "$0" "$n" "$tags" "$*"
