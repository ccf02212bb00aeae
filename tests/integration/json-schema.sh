#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every line dio's JSON export writes is valid under docs/json-schema.json, the
# machine-readable docs/json-schema.md: from dio dump --format json of a
# recorded trace, from the json sink of dio record and of dio trace (gzip), in
# raw mode, and a finding. The workloads between them make every key of every
# record type appear at least once, and the rare values too (every file type,
# deleted, renamed and truncated paths, unreadable strings, registered files,
# SQPOLL, an exec from a thread, a child killed by a signal, block requests of
# kernel threads and of calls, a flush, preempted and woken waits): a key dio
# writes but the schema does not know fails, and so does a key the schema knows
# but no workload makes any more. A line with an unknown key must fail, so the
# check is seen to work.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3	# Debian's, which python3-jsonschema installs into (not a pyenv python3)
if ! $PY -c 'import jsonschema' 2> /dev/null; then
	echo "FAIL: $PY cannot import jsonschema: apt-get install python3-jsonschema (install-deps.sh)"
	exit 1
fi
mount_ext4
fail=0
dev=$(findmnt -no SOURCE "$MNT")

# fresh DIR for a workload
wd() {
	rm -rf "$MNT/wd"
	mkdir "$MNT/wd"
}

# ran NAME: dio's exit status was 0, else say so
ran() {
	[ "$RC" -eq 0 ] || { echo "FAIL: $1: dio exited with $RC:"; tail -5 "$TMP/$1.out"; fail=1; }
}

wd
run_dio record -o "$TMP/edges.dio" --hash kernel --capture-data 64 \
	--sink "json:file=$TMP/edges.live.json" -- "$WL/edges" "$MNT/wd" "$dev" > "$TMP/edges.out" 2>&1
ran edges
"$DIO" dump --format json "$TMP/edges.dio" > "$TMP/edges.json" 2> "$TMP/dump.out"
RC=$?
ran dump
wd
run_dio trace --no-summary --sink "json:file=$TMP/uring.json.gz" -- "$WL/uring" "$MNT/wd" \
	9> /dev/null > "$TMP/uring.out" 2>&1
ran uring
wd
run_dio trace --no-summary --hash user --capture-data 8 --sink "json:file=$TMP/threads.json" \
	-- "$WL/threads" "$MNT/wd" 9> /dev/null > "$TMP/threads.out" 2>&1
ran threads
wd
run_dio trace --no-summary --mode raw --sink "json:file=$TMP/raw.json" -- "$WL/basic" "$MNT/wd" \
	9> /dev/null > "$TMP/raw.out" 2>&1
ran raw
# O_DIRECT calls on the CPU blockq's hog keeps busy: requests and waits, in calls and not
wd
run_dio trace --no-summary --runq-min 1 --sink "json:file=$TMP/blockq.json" -- \
	sh -c '"$1/blockq" hog & taskset -c 0 "$1/blockq" direct "$2"; wait' sh "$WL" "$MNT/wd" \
	9> /dev/null > "$TMP/blockq.out" 2>&1
ran blockq
# a ring buffer far too small for a burst of calls: the lost events are a finding
run_dio trace --ring-size 64k --drain-ms 1000 --wakeup-at 100 --sink "json:file=$TMP/lost.json" \
	-- dd if=/dev/zero of="$MNT/big" bs=1 count=20000 status=none > "$TMP/lost.out" 2>&1
ran lost

# an object with a key the schema does not list must fail: the check can fail
head -1 "$TMP/edges.json" | sed 's/^{/{"undocumented":1,/' > "$TMP/bad.json"
if $PY - "$top_srcdir/docs/json-schema.json" "$TMP/bad.json" > "$TMP/bad.out" 2>&1 << 'PY'
import json, sys
import jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
sys.exit(0 if v.is_valid(json.loads(open(sys.argv[2]).readline())) else 1)
PY
then
	echo "FAIL: the schema accepts an object with an undocumented key: $(cat "$TMP/bad.json")"
	fail=1
fi

$PY - "$top_srcdir/docs/json-schema.json" "$TMP/edges.json" "$TMP/edges.live.json" \
	"$TMP/uring.json.gz" "$TMP/threads.json" "$TMP/raw.json" "$TMP/blockq.json" "$TMP/lost.json" \
	<< 'PY' || fail=1
import gzip, json, re, sys
import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad, seen, objs = 0, {}, []
for path in sys.argv[2:]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
        lines = f.readlines()
    if not lines:
        print(f"FAIL: {path} is empty")
        bad += 1
    for n, line in enumerate(lines, 1):
        o = json.loads(line)
        objs.append(o)
        seen.setdefault(o.get("type"), set()).update(o)
        for e in sorted(v.iter_errors(o), key=str)[:3]:
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"FAIL: {path}:{n}: {where or 'object'}: {e.message}\n  {line[:300]}")
            bad += 1

# every key the schema allows was written at least once (findings: only the
# lost-events one is made here, which has no file, time or excerpt; a failed
# block request needs a device that fails: json-roundtrip.sh makes one, and
# test_json.c pins the line)
unmade = {"block": {"errno"}}
for t in ("syscall", "io_uring", "proc", "block", "runq", "path"):
    missing = set(schema["$defs"][t]["properties"]) - seen.get(t, set()) - unmade.get(t, set())
    if missing:
        print(f"FAIL: no {t} object has {sorted(missing)}: does dio still write them?")
        bad += 1

def some(what, pred):
    global bad
    if not any(pred(o) for o in objs):
        print(f"FAIL: no object has {what}")
        bad += 1

for ft in schema["$defs"]["file_type"]["enum"]:
    if ft != "-":
        some(f"file_type {ft}", lambda o: o.get("file_type") == ft)
for flag in ("truncated", "deleted", "renamed"):
    some(f"a {flag} path", lambda o: o["type"] == "path" and o[flag])
for flag in ("fixed", "sqpoll"):
    some(f"a {flag} io_uring request", lambda o: o["type"] == "io_uring" and o[flag])
some("an io_uring request with the file position (-1)", lambda o: o.get("offset") == -1)
some("an unreadable first string before a readable one", lambda o: o.get("strings") == [None, "b"])
some("a cut string", lambda o: o.get("strings_truncated"))
some("captured data", lambda o: "data" in o)
some("a syscall without arguments", lambda o: o.get("args") == [])
some("an exec by a thread that is not the leader",
     lambda o: o.get("kind") == "exec" and o["old_tid"] != o["tid"])
some("a new thread", lambda o: o.get("thread") is True)
some("a new process", lambda o: o.get("thread") is False)
some("a child killed by SIGKILL", lambda o: o.get("signal") == 9)
some("a thread rename", lambda o: o.get("kind") == "rename")
some("a finding", lambda o: o["type"] == "finding")
some("a kernel thread's request", lambda o: o.get("kthread") is True)
some("a process's request", lambda o: o.get("kthread") is False)
some("a request through the scheduler", lambda o: o.get("queued") is True)
some("a request issued at once", lambda o: o.get("queued") is False)
some("a request in a call", lambda o: o["type"] == "block" and "syscall" in o)
# a flush (F, after the F of a preflush) has no position: sector 0, as docs/json-schema.md says
flushes = [o for o in objs if o["type"] == "block" and re.fullmatch("F?F[ASM]*", o["rwbs"])]
if not flushes or any(o["sector"] for o in flushes):
    print(f"FAIL: want flushes, all at sector 0: {flushes[:3]}")
    bad += 1
for flag in (True, False):
    some(f"a wait with preempted {flag}", lambda o: o.get("preempted") is flag)
some("a wait in a call", lambda o: o["type"] == "runq" and "syscall" in o)
some("a wait in no call", lambda o: o["type"] == "runq" and "syscall" not in o)
some("a write without its fd's file (raw mode)", lambda o: o["type"] == "syscall"
     and o["syscall"] == "write" and o["fd"] == -1)
if not bad:
    print(f"ok: {len(objs)} objects of {len(sys.argv) - 2} files valid; every key and rare "
          "value seen")
sys.exit(1 if bad else 0)
PY
exit $fail
