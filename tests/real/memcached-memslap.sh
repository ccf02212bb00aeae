#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# memcached under memslap (packages memcached, libmemcached-tools), correct:
# a cache server on 127.0.0.1 (no UDP) loaded with 10000 keys and read back
# by 4 memslap threads, sets then gets. memcached keeps everything in
# memory: it touches no file while it serves; its worker threads read each
# socket until EAGAIN, by design of its event loop. No finding of the
# families errors, redundant-open or reuse-offset, at most 15 findings. The
# ground truth is memcached's own statistics (the sets and gets it served).
. "$top_srcdir/tests/real/lib.sh"
need memcached:memcached memcslap:libmemcached-tools python3:python3
port=$(free_port)
serve memcached-memslap memcached -U 0 -l 127.0.0.1 -p "$port" -u root -t 2 -m 64
stats() {
	python3 - "$port" << 'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"stats\r\n")
data = b""
while not data.endswith(b"END\r\n"):
    data += s.recv(65536)
print(" ".join(l.split()[1] + "=" + l.split()[2] for l in data.decode().splitlines()
               if l.startswith("STAT cmd_") or l.startswith("STAT get_hits")))
PY
}
wait_for 20 stats > /dev/null 2>&1
for t in set get; do
	memcslap -s "127.0.0.1:$port" -c 4 -e 10000 -t $t > "$TMP/memslap-$t.out" 2>&1 ||
		{ echo "FAIL: memslap -t $t"; cat "$TMP/memslap-$t.out"; exit 1; }
done
st=$(stats)
unserve TERM
echo "memcached: $st"
check "$st" << 'PY'
import sys, corpus
st = dict(kv.split("=") for kv in sys.argv[1].split())
c = corpus.Case("memcached-memslap")
c.families()
if int(st["cmd_set"]) < 10000 or int(st["cmd_get"]) < 10000 or int(st["get_hits"]) < 10000:
    c.fail(f"memcached: expected 10000 sets and 10000 hits or more: {st}")
c.done()
PY
