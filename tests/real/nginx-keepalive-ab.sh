#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx under ab -k (packages nginx-light, apache2-utils), correct:
# nginx-keepalive-wrk with ApacheBench as the client: 20000 keep-alive
# requests (HTTP/1.0 with Connection: keep-alive) from 8 connections. The
# worker reads each socket until read() fails with EAGAIN, by design of its
# event loop. No finding of the families errors, redundant-open or
# reuse-offset, at most 15 findings. The ground truth is ab's report
# (complete, no failed or non-2xx requests, nearly all kept alive) and the
# access log's lines.
. "$top_srcdir/tests/real/lib.sh"
need nginx:nginx-light ab:apache2-utils
mount_ext4
nginx_keepalive nginx-keepalive-ab
ab -q -k -n 20000 -c 8 "http://127.0.0.1:$PORT/index.html" > "$TMP/ab.out" 2>&1 ||
	{ echo "FAIL: wrk"; cat "$TMP/ab.out"; exit 1; }
# a graceful stop: the worker finishes its connections and exits
unserve QUIT
grep -E '^(Complete|Failed|Non-2xx|Keep-Alive|Requests per)' "$TMP/ab.out"
check "$TMP/ab.out" "$NGINX/logs/access.log" << 'PY'
import sys, corpus
c = corpus.Case("nginx-keepalive-ab")
c.families()
corpus.ab_report(c, sys.argv[1], sys.argv[2], 20000, 20000)
c.done()
PY
