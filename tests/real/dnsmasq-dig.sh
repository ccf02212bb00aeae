#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dnsmasq under dig (packages dnsmasq-base, bind9-dnsutils), correct: a DNS
# server on 127.0.0.1 that answers from a hosts file of 500 names (read once
# at start), with every query logged to a file (--log-queries,
# --log-facility: dnsmasq keeps the log open and writes a line per event),
# asked 1000 questions by dig in batch mode (-f), each name twice, so that
# half the answers come from its cache. No finding of the families errors,
# redundant-open or reuse-offset, at most 15 findings. The ground truth is
# dig's answers (each name's address) and the log's lines.
. "$top_srcdir/tests/real/lib.sh"
need dnsmasq:dnsmasq-base dig:bind9-dnsutils
mount_ext4
: > "$TMP/queries"
for i in $(seq 500); do
	echo "10.1.$((i / 250)).$((i % 250 + 1)) host$i.corpus.test" >> "$MNT/hosts"
	echo "host$i.corpus.test" >> "$TMP/queries"
done
cat "$TMP/queries" "$TMP/queries" > "$TMP/queries2"
port=$(free_port)
serve dnsmasq-dig dnsmasq -k -C /dev/null -u root --port="$port" --listen-address=127.0.0.1 \
	--bind-interfaces --no-resolv --no-hosts --addn-hosts="$MNT/hosts" --log-queries \
	--log-facility="$MNT/dnsmasq.log" --pid-file="$TMP/dnsmasq.pid2"
wait_for 20 sh -c "dig +short +tries=1 +time=1 -p $port @127.0.0.1 host1.corpus.test | grep -q 10.1.0.2"
dig +short +tries=2 +time=2 -p "$port" @127.0.0.1 -f "$TMP/queries2" > "$TMP/answers" 2>&1 ||
	{ echo "FAIL: dig"; tail "$TMP/answers"; exit 1; }
unserve TERM
check "$MNT/hosts" "$TMP/answers" "$MNT/dnsmasq.log" << 'PY'
import sys, corpus
hosts, answers, qlog = sys.argv[1:4]
c = corpus.Case("dnsmasq-dig")
c.families()
want = [l.split()[0] for l in open(hosts)] * 2
got = open(answers).read().split()
queried = sum(1 for l in open(qlog) if " query[A] host" in l)
print(f"dig: {len(got)} answers, {sum(a == b for a, b in zip(got, want))} right;"
      f" dnsmasq logged {queried} queries")
if got != want or queried != 1001:
    c.fail("expected the 1000 answers of the hosts file and 1001 queries logged")
c.done()
PY
