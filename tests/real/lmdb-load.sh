#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# LMDB's tools (package lmdb-utils), correct: mdb_load loads 50000 key-value
# pairs into a new environment (one write transaction, its pages written
# and the meta page synced at commit), mdb_stat reads its statistics and
# mdb_dump dumps it again; the dump equals the input (checked). LMDB maps
# the file and reads through the map: few system calls, none repeated. No
# finding of the families errors, redundant-open or reuse-offset, at most 15
# findings.
. "$top_srcdir/tests/real/lib.sh"
need mdb_load:lmdb-utils python3:python3
mount_ext4
python3 - "$TMP/in.dump" << 'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("VERSION=3\nformat=print\ntype=btree\nmapsize=33554432\nHEADER=END\n")
    for i in range(50000):
        f.write(f" key{i:06d}\n value {i} {'x' * (i % 50)}\n")
    f.write("DATA=END\n")
PY
cat > "$TMP/scenario.sh" << 'SH'
set -e
mdb_load -f "$2/in.dump" "$1/db"
mdb_stat "$1/db" > "$2/stat.out"
mdb_dump -p "$1/db" > "$2/out.dump"
SH
mkdir "$MNT/db"
record lmdb-load sh "$TMP/scenario.sh" "$MNT" "$TMP"
check "$TMP" << 'PY'
import sys, corpus
t = sys.argv[1]
c = corpus.Case("lmdb-load")
c.families()
data = lambda p: [l for l in open(p) if l.startswith(" ")]
entries = [l for l in open(f"{t}/stat.out") if "Entries:" in l]
same = data(f"{t}/in.dump") == data(f"{t}/out.dump")
print(f"lmdb: {entries[0].strip() if entries else 'no entries line'}; the dump equals the input: {same}")
if not same or not entries or entries[0].split()[-1] != "50000":
    c.fail("lmdb: expected 50000 entries dumped as they were loaded")
c.done()
PY
