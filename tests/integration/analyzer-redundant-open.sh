#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The redundant-open analyzer on tests/workloads/logger: a log opened and closed
# for every line, and a shell's `>> log` redirections (churn, through dup2 and
# open file descriptions), a file opened again only to fsync it (sync-reopen),
# lseeks to the offset the fd is at (seek), a journal made and deleted per
# transaction (create-unlink), a configuration read whole five times
# (duplicate-read), each with the numbers the workload printed; their fixed
# versions give no finding; and the findings of a recorded trace analyzed
# offline are those dio found live, for one process and for several that end
# one after the other. The workload's patterns are small: the rules are
# checked without the floors of what a finding must cost (min_share,
# min_cost_rate); with the defaults, the ones that cost next to nothing (five
# reads of a small config file) are left out, and the costly ones (a reopen per
# line) stay. The journal's directory, opened to sync it, is no churn.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# run MODE: the workload under dio trace with the analyzer; json in $TMP/MODE.json,
# what the workload printed in $TMP/MODE.out
NOFLOORS=min_share=0,min_cost_rate=0
# run MODE [defaults]: with the low floors, or the defaults
run() {
	rm -rf "$MNT/w" && mkdir "$MNT/w"
	if [ -n "$2" ]; then an=redundant-open; else an=redundant-open:$NOFLOORS; fi
	run_dio trace -q --no-summary --analyzer "$an" \
		--sink "json:file=$TMP/$1.json" -- "$WL/logger" "$1" "$MNT/w" \
		> "$TMP/$1.out" 2> "$TMP/$1.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio trace ... logger $1 exited with $RC"; \
		cat "$TMP/$1.err"; fail=1; }
}

# check JSON OUT: the findings in JSON are exactly those the workload's OUT lines ask for
check() {
	python3 - "$@" << 'PY'
import json, re, sys

path, out = sys.argv[1:3]
found = [json.loads(l) for l in open(path)]
found = [o for o in found if o["type"] == "finding" and o["analyzer"] == "redundant-open"]
want = {}
for line in open(out):
    pid, rest = line.split(" ", 1)
    kv = dict(re.findall(r"(\w+)=(\S+(?: \S+)*?)(?= \w+=|$)", rest.strip()))
    kv["pid"] = int(pid)
    for k, code in (("windows", "churn"), ("seeks", "seek"), ("reopens", "sync-reopen"),
                    ("cycles", "create-unlink"), ("reads", "duplicate-read")):
        if k in kv and int(kv[k]):
            want["redundant-open." + code] = kv
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

def calls_of(excerpt):
    return [re.sub(r"^\S+ \[\d+/\d+ [^]]*\] ", "", l).split("(")[0] for l in excerpt.splitlines()]

def per(n, one, many):
    return f"{n} {one if int(n) == 1 else many}"

# the finding counts n and its title is head (or starts with head and ends with tail)
def titled(o, n, head, tail=None):
    t = o["title"]
    if o["count"] != n or (t != head if tail is None else
                           not (t.startswith(head) and t.endswith(tail))):
        fail(f"{o['code']}: count {o['count']}, title {t!r}; expected {n}, "
             f"{head!r}{'' if tail is None else ' ... ' + repr(tail)}")

codes = [o["code"] for o in found]
if sorted(codes) != sorted(want):
    fail(f"findings {codes} in {path}, expected {sorted(want)}")
for o in found:
    kv = want.get(o["code"])
    if not kv:
        continue
    if o["pid"] != kv["pid"] or o["path"] != kv["path"]:
        fail(f"{o['code']}: pid {o['pid']} path {o['path']!r}, expected {kv['pid']} {kv['path']!r}")
    if o["code"] == "redundant-open.churn":
        n = int(kv["windows"])
        span = o["span_ns"]
        rate = round(n * 1e9 / span)
        head = f"{kv['path']} opened and closed {n} times in "
        tail = f" ({rate}/s), {kv['bytes']} bytes per open: {kv['sequence']}"
        titled(o, n, head, tail)
        calls = calls_of(o["excerpt"])
        if " ".join(calls) != kv.get("excerpt", kv["sequence"]):
            fail(f"churn: the excerpt's calls are {calls}, expected {kv.get('excerpt', kv['sequence'])}")
        if not o["comm"].startswith("logger") or o["severity"] != "warning":
            fail(f"churn: comm {o['comm']!r} severity {o['severity']!r}")
    elif o["code"] == "redundant-open.seek":
        n = int(kv["seeks"])
        title = (f"{n} lseek calls set the offset the fd already had, before a read or write: "
                 f"{kv['path']}")
        titled(o, n, title)
        if "lseek(" not in o["excerpt"] or "write(" not in o["excerpt"]:
            fail(f"seek: excerpt {o['excerpt']!r}")
    elif o["code"] == "redundant-open.create-unlink":
        n = int(kv["cycles"])
        head = f"{kv['path']} created and deleted {n} times in "
        tail = (f"; per cycle {per(kv['syncs'], 'fsync or fdatasync', 'fsyncs or fdatasyncs')}, "
                f"{per(kv['opens'], 'open', 'opens')}, {per(kv['closes'], 'close', 'closes')}, "
                f"1 unlink, {per(kv['dirsyncs'], 'directory sync', 'directory syncs')}")
        titled(o, n, head, tail)
        calls = calls_of(o["excerpt"])
        if calls[:1] != ["openat"] or calls[-1:] != ["unlink"] or "pwrite64" in calls:
            fail(f"create-unlink: the excerpt's calls are {calls}")
        if o["severity"] != "warning":
            fail(f"create-unlink: severity {o['severity']!r}")
    elif o["code"] == "redundant-open.duplicate-read":
        n = int(kv["reads"])
        title = (f"{kv['path']} read whole {n} times while unchanged, "
                 f"{int(kv['bytes']) * (n - 1)} bytes read again")
        titled(o, n, title)
        calls = calls_of(o["excerpt"])
        if calls != ["openat", "fstat", "read", "read", "close"]:
            fail(f"duplicate-read: the excerpt's calls are {calls}")
    else:
        n = int(kv["reopens"])
        title = f"{n} times a file already open was opened again only to fsync it: {kv['path']}"
        titled(o, n, title)
        if o["comm"] != kv["thread"] or f"in threads: {kv['thread']}." not in o["message"]:
            fail(f"sync-reopen: comm {o['comm']!r}, message {o['message']!r}")
        calls = calls_of(o["excerpt"])
        if calls != ["openat", "fsync", "close"]:
            fail(f"sync-reopen: the excerpt's calls are {calls}")
if not bad:
    print(f"ok: {path}: {', '.join(codes) or 'no finding'}, as the workload says")
sys.exit(bad)
PY
}

for mode in reopen reseek fsync-reopen keep fsync-same shell journal config; do
	run "$mode"
	check "$TMP/$mode.json" "$TMP/$mode.out" || fail=1
done

# with the floors: a reopen per line and a journal per transaction cost, five
# reads of a config file and a directory synced per transaction next to nothing
for mode in reopen journal config; do
	run "$mode" defaults
	codes=$(jq -r 'select(.type == "finding") | .code' "$TMP/$mode.json" | sort | tr '\n' ' ')
	case $mode in
	reopen) want="redundant-open.churn " ;;
	journal) want="redundant-open.create-unlink " ;;
	config) want="" ;;
	esac
	[ "$codes" = "$want" ] ||
		{ echo "FAIL: $mode with the floors: findings '$codes', expected '$want'"; fail=1; }
done

# inline == offline, on one process with three findings
rm -rf "$MNT/w" && mkdir "$MNT/w"
IO_OPTS=$NOFLOORS inline_is_offline redundant-open 3 "$WL/logger" all "$MNT/w" || fail=1
check "$TMP/inline.json" "$TMP/inline.out" || fail=1

# ... and on three programs (the workload under three names: the processes of
# one program are one finding a code), reported when the trace ends
rm -rf "$MNT/w" && mkdir "$MNT/w" "$TMP/bin"
for m in shell reseek config; do
	cp "$WL/logger" "$TMP/bin/logger-$m"
done
IO_OPTS=$NOFLOORS inline_is_offline redundant-open 3 sh -c "'$TMP/bin/logger-shell' shell '$MNT/w' && \
	'$TMP/bin/logger-reseek' reseek '$MNT/w' && '$TMP/bin/logger-config' config '$MNT/w'" ||
	fail=1
check "$TMP/inline.json" "$TMP/inline.out" || fail=1
exit $fail
