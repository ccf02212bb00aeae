#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx under wrk (packages nginx-light, wrk), correct: one worker serves a
# static page on 127.0.0.1 with keep-alive (Debian's defaults: sendfile,
# keepalive_timeout) and open_file_cache, its access log written line by
# line, to wrk's 8 connections for 4 s. The worker's sockets are non-blocking:
# it reads each connection until read() fails with EAGAIN, which is how an
# event loop learns a socket is drained, by design. No finding of the
# families errors, redundant-open or reuse-offset, at most 15 findings. The
# ground truth is wrk's own report (requests, no errors, no non-2xx) and the
# access log's lines.
. "$top_srcdir/tests/real/lib.sh"
need nginx:nginx-light wrk:wrk
mount_ext4
nginx_keepalive nginx-keepalive-wrk
wrk -t 2 -c 8 -d 4s "http://127.0.0.1:$PORT/index.html" > "$TMP/wrk.out" 2>&1 ||
	{ echo "FAIL: wrk"; cat "$TMP/wrk.out"; exit 1; }
# a graceful stop: the worker finishes its connections and exits
unserve QUIT
cat "$TMP/wrk.out"
check "$TMP/wrk.out" "$NGINX/logs/access.log" << 'PY'
import re, sys, corpus
out, access = open(sys.argv[1]).read(), sys.argv[2]
c = corpus.Case("nginx-keepalive-wrk")
c.families()
requests = int(re.search(r"(\d+) requests in", out).group(1))
lines = sum(1 for l in open(access) if '"GET /index.html HTTP/1.1" 200 ' in l)
print(f"wrk: {requests} requests, errors: {'Socket errors' in out or 'Non-2xx' in out};"
      f" the access log has {lines} lines of 200 answers")
if requests < 1000 or "Non-2xx" in out or "Socket errors" in out or lines < requests:
    c.fail("wrk: expected 1000 requests or more, all answered 200 and logged")
c.done()
PY
