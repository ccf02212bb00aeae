#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lighttpd under ab -k (packages lighttpd, apache2-utils), correct: lighttpd
# serves a static page on 127.0.0.1 to ApacheBench's 20000 keep-alive
# requests from 8 connections, its access log on (mod_accesslog, which
# buffers lines and writes them in batches). lighttpd caches the page's
# stat and keeps no descriptor open; its sockets are non-blocking and read
# until EAGAIN, by design. No finding of the families errors, redundant-open
# or reuse-offset, at most 15 findings. The ground truth is ab's report
# (complete, no failed or non-2xx requests, nearly all kept alive) and the
# access log's lines (one more: the request that saw the server up).
. "$top_srcdir/tests/real/lib.sh"
need lighttpd:lighttpd ab:apache2-utils
mount_ext4
mkdir -p "$MNT/www" "$TMP/lighttpd"
head -c 4000 /usr/share/common-licenses/GPL-2 > "$MNT/www/index.html"
port=$(free_port)
cat > "$TMP/lighttpd/lighttpd.conf" << EOF
server.document-root = "$MNT/www"
server.bind = "127.0.0.1"
server.port = $port
server.modules = ( "mod_accesslog" )
accesslog.filename = "$TMP/lighttpd/access.log"
server.errorlog = "$TMP/lighttpd/error.log"
index-file.names = ( "index.html" )
mimetype.assign = ( ".html" => "text/html" )
EOF
serve lighttpd-ab lighttpd -D -f "$TMP/lighttpd/lighttpd.conf"
wait_for 20 sh -c "ab -q -n 1 http://127.0.0.1:$port/index.html > /dev/null 2>&1"
ab -q -k -n 20000 -c 8 "http://127.0.0.1:$port/index.html" > "$TMP/ab.out" 2>&1 ||
	{ echo "FAIL: ab"; cat "$TMP/ab.out"; exit 1; }
unserve TERM
grep -E '^(Complete|Failed|Non-2xx|Keep-Alive|Requests per)' "$TMP/ab.out"
check "$TMP/ab.out" "$TMP/lighttpd/access.log" << 'PY'
import sys, corpus
c = corpus.Case("lighttpd-ab")
c.families()
corpus.ab_report(c, sys.argv[1], sys.argv[2], 20000, 20001)
c.done()
PY
