#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# logrotate (packages logrotate, gzip), correct: 20 logs of an application
# rotated as Debian's configurations do (daily, rotate 4, compress,
# delaycompress, create, missingok, notifempty, a sharedscripts
# postrotate), three times in a row as three days would: each rotation
# renames the logs, the one before is compressed with gzip, new empty logs
# are created, and the state file is written (to a temporary file, renamed)
# once per run. No finding of the families errors, redundant-open or
# reuse-offset, at most 15 findings. The ground truth is the files left:
# for each log, the new one, .1 and .2.gz, .3.gz, each holding the day it
# was written on.
. "$top_srcdir/tests/real/lib.sh"
need logrotate:logrotate gzip:gzip
mount_ext4
mkdir "$MNT/log"
cat > "$TMP/logrotate.conf" << EOF
$MNT/log/*.log {
	daily
	rotate 4
	compress
	delaycompress
	create 0640 root root
	missingok
	notifempty
	sharedscripts
	postrotate
		echo rotated >> $TMP/postrotate.out
	endscript
}
EOF
cat > "$TMP/scenario.sh" << 'SH'
set -e
for day in 1 2 3 4; do
	for i in $(seq 20); do seq 1 2000 | sed "s/^/day $day app$i line /" >> "$1/log/app$i.log"; done
	[ $day -lt 4 ] || break
	logrotate -f -s "$2/logrotate.state" "$2/logrotate.conf"
done
SH
record logrotate-compress sh "$TMP/scenario.sh" "$MNT" "$TMP"
check "$MNT/log" "$TMP/postrotate.out" << 'PY'
import gzip, os, sys, corpus
d, post = sys.argv[1:3]
c = corpus.Case("logrotate-compress")
c.families()
bad = []
for i in range(1, 21):
    days = {f"app{i}.log": open(f"{d}/app{i}.log").read(),
            f"app{i}.log.1": open(f"{d}/app{i}.log.1").read(),
            f"app{i}.log.2.gz": gzip.open(f"{d}/app{i}.log.2.gz", "rt").read(),
            f"app{i}.log.3.gz": gzip.open(f"{d}/app{i}.log.3.gz", "rt").read()}
    for (name, text), day in zip(days.items(), (4, 3, 2, 1)):
        if text.count("\n") != 2000 or not text.startswith(f"day {day} app{i} "):
            bad.append(name)
runs = open(post).read().split()
print(f"logrotate: {len(os.listdir(d))} files; {len(runs)} postrotate runs; wrong: {bad[:5]}")
if bad or len(os.listdir(d)) != 80 or len(runs) != 3:
    c.fail("logrotate: expected each log with its .1, .2.gz and .3.gz of the days before")
c.done()
PY
