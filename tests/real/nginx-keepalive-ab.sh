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
n=$TMP/nginx
mkdir -p "$MNT/www" "$n/logs" "$n/tmp"
head -c 4000 /usr/share/common-licenses/GPL-2 > "$MNT/www/index.html"
port=$(free_port)
cat > "$n/nginx.conf" << EOF
worker_processes 1;
user root;
daemon off;
pid $n/nginx.pid;
error_log $n/logs/error.log;
events { worker_connections 64; }
http {
	sendfile on;
	tcp_nopush on;
	keepalive_timeout 65;
	keepalive_requests 100000;
	open_file_cache max=64 inactive=60s;
	open_file_cache_valid 60s;
	access_log $n/logs/access.log;
	client_body_temp_path $n/tmp/body;
	proxy_temp_path $n/tmp/proxy;
	fastcgi_temp_path $n/tmp/fastcgi;
	uwsgi_temp_path $n/tmp/uwsgi;
	scgi_temp_path $n/tmp/scgi;
	server {
		listen 127.0.0.1:$port;
		root $MNT/www;
	}
}
EOF
serve nginx-keepalive-ab nginx -p "$n" -c "$n/nginx.conf" -e "$n/logs/error.log"
wait_for 20 test -s "$n/nginx.pid"
ab -q -k -n 20000 -c 8 "http://127.0.0.1:$port/index.html" > "$TMP/ab.out" 2>&1 ||
	{ echo "FAIL: wrk"; cat "$TMP/ab.out"; exit 1; }
# a graceful stop: the worker finishes its connections and exits
unserve QUIT
grep -E '^(Complete|Failed|Non-2xx|Keep-Alive|Requests per)' "$TMP/ab.out"
check "$TMP/ab.out" "$n/logs/access.log" << 'PY'
import re, sys, corpus
out, access = open(sys.argv[1]).read(), sys.argv[2]
c = corpus.Case("nginx-keepalive-ab")
c.families()
num = lambda k: int(m.group(1)) if (m := re.search(k + r":\s+(\d+)", out)) else 0
lines = sum(1 for l in open(access) if '"GET /index.html HTTP/1.0" 200 ' in l)
print(f"ab: {num('Complete requests')} complete, {num('Failed requests')} failed,"
      f" {num('Non-2xx responses')} non-2xx, {num('Keep-Alive requests')} kept alive;"
      f" the access log has {lines} lines of 200 answers")
if num("Complete requests") != 20000 or num("Failed requests") or num("Non-2xx responses") \
        or num("Keep-Alive requests") < 19000 or lines != 20000:
    c.fail("ab: expected 20000 keep-alive requests answered 200, none failed, all logged")
c.done()
PY
