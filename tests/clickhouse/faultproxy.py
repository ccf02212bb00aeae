#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An HTTP proxy in front of ClickHouse that fails on purpose, for the tests.

    faultproxy.py UPSTREAM PORTFILE

listens on 127.0.0.1 (a free port, written to PORTFILE once it listens) and
passes each request to UPSTREAM (http://127.0.0.1:PORT of the test server),
keeping the client's connection alive as ClickHouse does, unless a rule says
otherwise. Rules are set by the test over the proxy's own paths, which are
never passed on:

    POST /_proxy/rule   a JSON object: {"match": REGEX, "action": ACTION, ...}
    POST /_proxy/clear  no rules
    GET  /_proxy/log    one line a request: "ACTION<TAB>its query's first 80 characters"

A rule applies to a request whose query (the URL's query= or, without one,
the body) REGEX is found in; the first rule that applies is used, "count"
times (default: always), for "seconds" from when it was set (default: until
cleared). ACTION is one of

    forward   as without a rule (what the log says of a request no rule took)
    502       pass the request on, then answer 502 whatever the server said:
              a proxy that lost the answer of a request the server carried out
    cut       pass the request on, then close the connection without a word
    close     close the connection without a word; the server sees nothing
    500       answer 500 with a ClickHouse-like exception; the server sees nothing
    reply     answer 200 with "body"; the server sees nothing
    delay     wait "delay" seconds, then pass the request on
    stall     pass the request on, send the answer's headers and its first
              "bytes" bytes, then nothing more for "delay" seconds

Only the standard library: the tests need nothing that install-deps.sh does
not already install.
"""
import http.client
import http.server
import json
import os
import re
import socketserver
import sys
import threading
import time
import urllib.parse

LOCK = threading.Lock()
RULES = []
LOG = []
UPSTREAM = None


def take_rule(query):
    """The rule for a request with this query, counted as used; None if none."""
    now = time.monotonic()
    with LOCK:
        for r in RULES:
            if r.get("until") is not None and now > r["until"]:
                continue
            if r.get("count") is not None and r["count"] <= 0:
                continue
            if re.search(r["match"], query):
                if r.get("count") is not None:
                    r["count"] -= 1
                return r
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def answer(self, code, body, ctype="text/plain; charset=UTF-8", extra=None):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or []):
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def control(self, body):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/_proxy/rule":
            r = json.loads(body)
            if r.get("seconds") is not None:
                r["until"] = time.monotonic() + float(r["seconds"])
            with LOCK:
                RULES.append(r)
        elif path == "/_proxy/clear":
            with LOCK:
                RULES.clear()
        elif path == "/_proxy/log":
            with LOCK:
                text = "".join(f"{a}\t{q}\n" for a, q in LOG)
            self.answer(200, text.encode())
            return
        else:
            self.answer(404, b"no such proxy path\n")
            return
        self.answer(200, b"")

    def upstream(self, body):
        """(status, content type, other headers, body) of the request passed on."""
        conn = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=120)
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in ("host", "connection", "expect", "keep-alive")}
        headers["Content-Length"] = str(len(body))
        conn.request(self.command, self.path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        ctype = resp.getheader("Content-Type", "text/plain")
        keep = [(k, v) for k, v in resp.getheaders() if k.lower().startswith("x-clickhouse")]
        conn.close()
        return resp.status, ctype, keep, data

    def do_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        if self.path.startswith("/_proxy/"):
            self.control(body)
            return
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("query")
        query = q[0] if q else body.decode("utf-8", "replace")
        rule = take_rule(query)
        action = rule["action"] if rule else "forward"
        with LOCK:
            LOG.append((action, " ".join(query.split())[:80]))
        if action == "close":
            self.close_connection = True
            return
        if action == "500":
            self.answer(500, b"Code: 999, e.displayText() = DB::Exception: refused by the "
                             b"test proxy\n")
            return
        if action == "reply":
            self.answer(200, rule["body"].encode())
            return
        if action == "delay":
            time.sleep(float(rule["delay"]))
        status, ctype, headers, data = self.upstream(body)
        if action == "502":
            self.answer(502, b"proxy: bad gateway\n")
        elif action == "cut":
            self.close_connection = True
        elif action == "stall":
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:int(rule["bytes"])])
            self.wfile.flush()
            time.sleep(float(rule["delay"]))
            self.close_connection = True
        else:
            self.answer(status, data, ctype, headers)

    do_GET = do_any
    do_POST = do_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    global UPSTREAM
    if len(sys.argv) != 3:
        sys.exit("usage: faultproxy.py UPSTREAM PORTFILE")
    UPSTREAM = urllib.parse.urlsplit(sys.argv[1])
    srv = Server(("127.0.0.1", 0), Handler)
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(f"{srv.server_address[1]}\n")
    # renamed into place: whoever waits for the file reads the whole port
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    srv.serve_forever()


if __name__ == "__main__":
    main()
