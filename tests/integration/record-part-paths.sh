#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio record --max-size starts each part with the path records of the files
# used last, as many as the host's tag table keeps (twice --tag-table), not
# of every file the session met. A shell makes 20 000 files under
# --tag-table 1024 and --max-size 64k: each part's leading path records
# name at most 2048 files of the parts before (the last part exactly 2048),
# the last part read alone names the last file, and the paths not repeated
# are counted the same in the exit warning, in --stats and in the last
# part's metadata (dio info), which also says how many tags the kernel's
# table (--tag-table 1024) forgot.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3
fail=0
N=20000
mkdir "$TMP/d"

run_dio record --tag-table 1024 --max-size 64k --stats -o "$TMP/r.dio" -- \
	sh -c "cd '$TMP/d' && i=0; while [ \$i -lt $N ]; do : > f\$i; i=\$((i + 1)); done" \
	2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited $RC:"; cat "$TMP/err"; exit 1; }
parts=$(ls "$TMP"/r.dio* | wc -l)
[ "$parts" -ge 3 ] || { echo "FAIL: $parts parts, want 3 or more"; exit 1; }
last="$TMP/r.dio.$((parts - 1))"
i=0
while [ $i -lt "$parts" ]; do
	f="$TMP/r.dio"
	[ $i -eq 0 ] || f="$TMP/r.dio.$i"
	"$DIO" dump --format json "$f" > "$TMP/part$i.json" 2> "$TMP/dump-err" ||
		{ echo "FAIL: dio dump $f:"; cat "$TMP/dump-err"; exit 1; }
	i=$((i + 1))
done
$PY - "$TMP" "$parts" "$TMP/d/f$((N - 1))" << 'PY' || fail=1
import json, sys
tmp, parts, last_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
seen, bad = set(), []
for k in range(parts):
    recs = [json.loads(l) for l in open("%s/part%d.json" % (tmp, k))]
    lead = 0
    while lead < len(recs) and recs[lead]["type"] == "path":
        lead += 1
    repeated = sum(1 for r in recs[:lead] if r["file_tag"] in seen)
    if k and repeated > 2048:
        bad.append("part %d starts with %d paths of files met before, want 2048 at most" %
                   (k, repeated))
    if k == parts - 1 and repeated != 2048:
        bad.append("the last part starts with %d paths of files met before, want 2048" % repeated)
    seen.update(r["file_tag"] for r in recs if "file_tag" in r)
if not any(r.get("syscall") == "openat" and r.get("path") == last_file for r in recs):
    bad.append("the last part read alone does not name %s in its openat" % last_file)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
n=$(sed -n 's/^dio: warning: \([0-9]*\) paths not repeated at the start of a --max-size part: .*/\1/p' \
	"$TMP/err")
paths_forgotten "paths not repeated" "$n" || fail=1
grep -q "^  dropped part_paths_evicted  *$n  *paths not repeated" "$TMP/err" ||
	{ echo "FAIL: --stats does not count $n paths not repeated:"; cat "$TMP/err"; fail=1; }
"$DIO" info "$last" | grep -qx "part_paths_evicted=$n" ||
	{ echo "FAIL: dio info $last does not say part_paths_evicted=$n:"; "$DIO" info "$last"; fail=1; }
k=$("$DIO" info "$last" | sed -n 's/^kernel_paths_evicted=//p')
kernel_forgot "dio info $last: kernel_paths_evicted" "$k" || fail=1
exit $fail
