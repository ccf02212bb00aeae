#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio report keeps a row for the 10 000 files that cost most and adds the
# rest up in one: a trace of 30 000 files, one fstat each, the call on file i
# taking 1000 + i ns. The page lists exactly files 20 000 to 29 999 (their
# figures as they were), says 20 000 more files in its "files_other" row,
# and the rows and that one add up to every call. No BPF needed.
# Files are rows by path: a journal created, written, closed and deleted 40
# times (40 inodes, one path), 100 sockets and 3 pipes are three rows in the
# page and in the summary ("/srv/db/journal (40 files)", "sockets (100)",
# "pipes (3)"), files_by=tag gives a row per file again, and another
# files_by is refused.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0
N=30000

$PY - "$top_srcdir/tests/integration" "$TMP/many.dio" $N << 'PY' || { echo "FAIL: cannot write the trace"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import SYSCALL
from tracefile_writer import write_trace

n = int(sys.argv[3])
SF_FILE, FT_REG, NR_FSTAT = 0x01, 8, 5
records = [SYSCALL.pack(1, SYSCALL.size, 0, 1000000 + 10 * i, 4242, 4242, 1000 + i, 0,
                        3, 0, 0, 0, 0, 0, b"many", i + 1, 1, 0, 0, NR_FSTAT, FT_REG, SF_FILE,
                        0, 0, 3, 0) for i in range(n)]
write_trace(sys.argv[2], {"version": "0.1.0", "command": "many"}, records)
PY

"$DIO" report "$TMP/many.dio" -o "$TMP/many.html" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio report exited $?:"; cat "$TMP/out"; exit 1; }
$PY - "$TMP/many.html" $N << 'PY' || fail=1
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page,
                         re.S).group(1))
n = int(sys.argv[2])
bad = []
rows = d["files"]
if len(rows) != 10000:
    bad.append("%d file rows, want 10000" % len(rows))
want = {"%d" % (i + 1): 1000 + i for i in range(n - 10000, n)}
got = {r["tag"].split("|")[1]: r["ns"] for r in rows}
if got != want:
    missing = sorted(set(want) - set(got), key=int)[:3]
    bad.append("the rows are not files %d..%d with their time; missing e.g. %s" %
               (n - 10000, n - 1, missing))
if any(r["calls"] != 1 or r["pid"] != 4242 or r["type"] != "reg" for r in rows):
    bad.append("a row's calls, pid or type is wrong")
other = d["files_other"]
want_other = {"files": n - 10000, "calls": n - 10000, "errors": 0, "read": 0, "written": 0,
              "ns": sum(1000 + i for i in range(n - 10000))}
if other != want_other:
    bad.append("files_other %s, want %s" % (other, want_other))
if sum(r["calls"] for r in rows) + other["calls"] != d["calls"] or d["calls"] != n:
    bad.append("the rows and files_other do not add up to the %d calls" % d["calls"])
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# by path: 40 journals (open, write 100 bytes, close: 1, 2 and 1 us), 100 sockets
# (write 10 bytes and close: 0.5 us each), 3 pipes (read 1 byte: 0.1 us), /srv/db/data
$PY - "$top_srcdir/tests/integration" "$TMP/kinds.dio" << 'PY' || { echo "FAIL: cannot write the trace"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import PATH, SYSCALL
from tracefile_writer import write_trace

FT_FIFO, FT_REG, FT_SOCK, SF_FILE = 1, 8, 12, 0x01
DISK, SOCKFS, PIPEFS = 0x800001, 8, 13
recs, ts = [], 1000000

def path(tag, name, ftype):
    b = name.encode() + b"\0"
    return PATH.pack(2, PATH.size + len(b), 0, ts, tag[0], tag[1], tag[2], len(b), 0, ftype,
                     4242) + b

def call(nr, tag, ftype, ret, dur):
    global ts
    ts += 10000
    return SYSCALL.pack(1, SYSCALL.size, 0, ts, 4242, 4242, dur, ret, 3, 0, 0, 0, 0, 0, b"db",
                        tag[0], tag[1], tag[2], 0, nr, ftype, SF_FILE, 0, 0, 3, 0)

for i in range(40):
    tag = (5000 + i, DISK, 1)
    recs += [path(tag, "/srv/db/journal", FT_REG), call(257, tag, FT_REG, 3, 1000),
             call(1, tag, FT_REG, 100, 2000), call(3, tag, FT_REG, 0, 1000)]
for i in range(100):
    tag = (7000 + i, SOCKFS, 0)
    recs += [path(tag, "/", FT_SOCK), call(1, tag, FT_SOCK, 10, 500), call(3, tag, FT_SOCK, 0, 500)]
for i in range(3):
    tag = (9000 + i, PIPEFS, 0)
    recs += [path(tag, "/", FT_FIFO), call(0, tag, FT_FIFO, 1, 100)]
tag = (6000, DISK, 1)
recs += [path(tag, "/srv/db/data", FT_REG), call(17, tag, FT_REG, 4096, 30000)]
write_trace(sys.argv[2], {"version": "0.1.0", "command": "db"}, recs)
PY
"$DIO" report "$TMP/kinds.dio" -o "$TMP/kinds.html" > "$TMP/out" 2>&1 ||
	{ echo "FAIL: dio report exited $?:"; cat "$TMP/out"; exit 1; }
"$DIO" analyze "$TMP/kinds.dio" --sink html:file="$TMP/tags.html",files_by=tag > "$TMP/sum" 2>&1 ||
	{ echo "FAIL: dio analyze exited $?:"; cat "$TMP/sum"; exit 1; }
"$DIO" analyze "$TMP/kinds.dio" --analyzer summary:files_by=tag > "$TMP/sumtag" 2>&1 ||
	{ echo "FAIL: dio analyze with summary:files_by=tag exited $?:"; cat "$TMP/sumtag"; exit 1; }
$PY - "$TMP/kinds.html" "$TMP/tags.html" << 'PY' || fail=1
import json, re, sys

def data(path):
    page = open(path, encoding="utf-8").read()
    return json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>',
                                page, re.S).group(1))

bad = []
rows = data(sys.argv[1])["files"]
want = [
    {"path": "/srv/db/journal", "kind": "", "files": 40, "tag": "", "type": "reg",
     "pid": 4242, "calls": 120, "errors": 0, "read": 0, "written": 4000, "ns": 160000},
    {"path": "", "kind": "sockets", "files": 100, "tag": "", "type": "sock", "pid": 4242,
     "calls": 200, "errors": 0, "read": 0, "written": 1000, "ns": 100000},
    {"path": "/srv/db/data", "kind": "", "files": 1, "tag": "8:1|6000|1", "type": "reg",
     "pid": 4242, "calls": 1, "errors": 0, "read": 4096, "written": 0, "ns": 30000},
    {"path": "", "kind": "pipes", "files": 3, "tag": "", "type": "fifo", "pid": 4242,
     "calls": 3, "errors": 0, "read": 3, "written": 0, "ns": 300},
]
if sorted(rows, key=lambda r: -r["ns"]) != want:
    bad.append("the page's file rows by path are\n  %s\nwant\n  %s" %
               ("\n  ".join(map(str, rows)), "\n  ".join(map(str, want))))
rows = data(sys.argv[2])["files"]
paths = sorted(r["path"] for r in rows)
want = ["/srv/db/data"] + ["/srv/db/journal"] * 40 + ["pipe:[%d]" % (9000 + i) for i in range(3)] + \
    ["socket:[%d]" % (7000 + i) for i in range(100)]
if paths != sorted(want) or any(r["files"] != 1 or r["kind"] != "" for r in rows):
    bad.append("files_by=tag: not a row per file: %s" % paths[:5])
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
# the summary: the same rows, most time first
sed -n '/^% time .* file$/,/ total$/p' "$TMP/sum" > "$TMP/rows"
cat > "$TMP/want" << 'EOF'
% time     seconds     calls    errors         read      written file
------ ----------- --------- --------- ------------ ------------ ----------------
 55.12    0.000160       120         0            0         4000 /srv/db/journal (40 files)
 34.45    0.000100       200         0            0         1000 sockets (100)
 10.33    0.000030         1         0         4096            0 /srv/db/data
  0.10    0.000000         3         0            3            0 pipes (3)
------ ----------- --------- --------- ------------ ------------ ----------------
100.00    0.000290       324         0         4099         5000 total
EOF
diff -u "$TMP/want" "$TMP/rows" || { echo "FAIL: the summary's files by path (above)"; fail=1; }
# files_by=tag: 100 socket rows would be past top, so the table shows 10 and the rest
grep -q ' /srv/db/journal$' "$TMP/sumtag" && ! grep -q 'sockets (\|(40 files)' "$TMP/sumtag" &&
	grep -q ' (134 more files)$' "$TMP/sumtag" ||
	{ echo "FAIL: summary:files_by=tag is not a row per file:"; cat "$TMP/sumtag"; fail=1; }
# a files_by that is neither: refused before anything is written
"$DIO" analyze "$TMP/kinds.dio" --no-summary --sink html:file="$TMP/bad.html",files_by=inode \
	> "$TMP/bad" 2>&1 && { echo "FAIL: html:files_by=inode was accepted"; fail=1; }
[ "$(cat "$TMP/bad")" = "dio: html: files_by: 'inode' is not path or tag" ] && [ ! -e "$TMP/bad.html" ] ||
	{ echo "FAIL: html:files_by=inode: a page, or not the error expected:"; cat "$TMP/bad"; fail=1; }
exit $fail
