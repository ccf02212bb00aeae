#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The errors analyzer on tests/workloads/errstorm: 500 stats of a missing file
# and 300 reads of an empty non-blocking pipe in one process give one finding
# for the program, with the sum, the errnos, paths, rates and cost of both;
# checking once gives none; 200 writes to a full file system and 150 stats of
# a closed fd give one error (the writes lost data), not two findings; four
# processes polling a missing file give one finding that counts them. What a
# build, a loader or a package tool asks (readlink EINVAL, a header looked for
# in the wrong -I dirs, mkdir -p EEXIST, an optional file, check-then-create,
# an xattr not set, lseek of a pipe) and a server reading its keep-alive
# connections until EAGAIN are answers, not failures: no finding, nor for a
# real make -j2 of a small C project with gcc. The findings of a recorded
# trace analyzed offline are those dio found live.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# check JSON OUT: one finding for the program (errstorm) when OUT has lines, with their numbers
check() {
	python3 - "$@" << 'PY'
import json, re, sys

path, out = sys.argv[1:3]
found = [json.loads(l) for l in open(path)]
found = [o for o in found if o["type"] == "finding" and o["analyzer"] == "errors"]
lines = [l.split() for l in open(out)]
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

# what a group is about: the path argument of stat, quoted; else a file or an fd
def shown(call, what):
    return f'"{what}"' if call == "stat" else what

# the ways of the program: the same call, errno and file or path in any process
ways, pids = {}, set()
for pid, call, n, err, what, sev in lines:
    what = what.replace("fd:", "fd ")
    pids.add(int(pid))
    w = ways.setdefault((call, err, what, sev), [0, 0])
    w[0] += int(n)
    w[1] = max(w[1], int(n))
if len(found) != (1 if ways else 0):
    fail(f"{len(found)} findings in {path}, expected {1 if ways else 0}: "
         f"{[o['title'] for o in found]}")
for o in (found[:1] if ways else []):
    total = sum(w[0] for w in ways.values())
    # the worst: an error before a warning, then the most failures
    (call, err, what, sev), (n, most_one) = sorted(
        ways.items(), key=lambda w: (w[0][3] != "error", -w[1][0]))[0]
    procs = f" in {len(pids)} processes" if len(pids) > 1 else ""
    share = r" \(([0-9]+/s, )?[0-9.]+ % of the program's system-call time\)"
    if len(ways) == 1:
        want = re.escape(f"{n} {call} calls failed with {err}{procs} in ") + r"[0-9.]+ [mu]?s" + \
            share + re.escape(f": {shown(call, what)}")
    else:
        most = "most" if len({w[3] for w in ways}) == 1 else "worst"
        want = re.escape(f"{total} calls failed in {len(ways)} ways{procs} in ") + \
            r"[0-9.]+ [mu]?s" + share + re.escape(f", {most} {n} {call} calls with {err} on "
                                                  f"{shown(call, what)}")
        for (c, e, w, s), (k, _) in ways.items():
            line = f"  {k} {c} calls with {e} on {shown(c, w)}"
            line += " (data likely lost): " if s == "error" else ": "
            if line not in o["message"]:
                fail(f"no {line!r} in the message {o['message']!r}")
    if len(pids) == 1 and len(ways) == 1:
        rate = round(n * 1e9 / o["span_ns"])
        if f"({rate}/s, " not in o["title"]:
            fail(f"no rate {rate}/s in {o['title']!r}")
    if (o["code"] != "errors.burst" or o["count"] != total or o["pid"] not in pids
            or o.get("processes") != len(pids) or not re.fullmatch(want, o["title"])):
        fail(f"{o['code']} pid {o['pid']} count {o['count']} processes {o.get('processes')} "
             f"title {o['title']!r}; expected pid in {pids}, count {total}, processes "
             f"{len(pids)}, title {want}")
    if not o.get("cost_ns") or "The failing calls took " not in o["message"]:
        fail(f"no cost: cost_ns {o.get('cost_ns')}, message {o['message']!r}")
    want_sev = "error" if any(w[3] == "error" for w in ways) else "warning"
    want_path = None if what.startswith("fd ") else what
    if o.get("path") != want_path or o["severity"] != want_sev or o["comm"] != "errstorm":
        fail(f"{call}: path {o.get('path')!r} severity {o['severity']} comm {o['comm']!r}; "
             f"expected {want_path!r} {want_sev}")
    # the first calls of the worst way's burst in its process with the most
    ex = o["excerpt"].splitlines()
    if len(ex) != 9 or ex[-1] != f"... {most_one - 8} more" or not all(
            re.search(rf"\] {call}\(.*\) = -1 {err} ", l) for l in ex[:8]):
        fail(f"{call}: excerpt {o['excerpt']!r}")
if not bad:
    print(f"ok: {path}: {len(found)} findings, as the workload says")
sys.exit(bad)
PY
}

for mode in storm calm lost procs search serve; do
	run_dio trace -q --no-summary --analyzer errors --sink "json:file=$TMP/$mode.json" \
		-- "$WL/errstorm" "$mode" "$MNT" > "$TMP/$mode.out" 2> "$TMP/$mode.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio trace ... errstorm $mode exited with $RC"; \
		cat "$TMP/$mode.err"; fail=1; }
	check "$TMP/$mode.json" "$TMP/$mode.out" || fail=1
done

# a parallel build of a small C project: its compilers' answers are no failures
proj=$MNT/proj
mkdir -p "$proj/include"
echo '#define ONE 1' > "$proj/include/one.h"
for i in 1 2 3 4 5 6; do
	printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n#include "one.h"\nint f%d(void) { char b[8]; snprintf(b, sizeof(b), "%%d", ONE); return (int)strlen(b); }\n' \
		"$i" > "$proj/f$i.c"
done
printf 'int f1(void);\nint main(void) { return f1() - 1; }\n' > "$proj/main.c"
printf 'OBJS = main.o f1.o f2.o f3.o f4.o f5.o f6.o\napp: $(OBJS)\n\t$(CC) -o $@ $(OBJS) -lm\n%%.o: %%.c\n\t$(CC) -O2 -Iinclude -c -o $@ $<\n' \
	> "$proj/Makefile"
run_dio trace -q --no-summary --analyzer errors --sink "json:file=$TMP/build.json" \
	-- make -s -C "$proj" -j2 > "$TMP/build.out" 2>&1
if [ "$RC" -ne 0 ] || ! "$proj/app"; then
	echo "FAIL: make -j2 under dio exited with $RC, or the program it built failed:"
	cat "$TMP/build.out"
	fail=1
fi
: > "$TMP/build.none"
check "$TMP/build.json" "$TMP/build.none" || fail=1

inline_is_offline errors 1 "$WL/errstorm" storm "$MNT" || fail=1
check "$TMP/inline.json" "$TMP/inline.out" || fail=1
exit $fail
