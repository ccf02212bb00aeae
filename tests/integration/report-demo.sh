#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio report: one self-contained HTML page of a recording. The demo workload
# is recorded and reported; the figures in the page equal dio info's (records,
# span, calls by system call, processes) and the findings are dio analyze's.
# In headless Chromium (tests/report/browser.py) the page loads with no error
# and no request to anywhere, shows those figures, and a click on a finding
# selects its time span and its file; its screenshot is not blank. A flood of
# 2 million calls gives a page under 10 MB that loads without errors too, whose
# buckets grew to hold its span and whose timeline zooms with the wheel.
# A journal created and deleted 40 times and 100 sockets are a row each in
# the page and in the summary, "... (40 files)" and "sockets (100)"; the
# page's files table shows 25 rows, and the others on a click.
# --report on dio trace writes the same page at the end of a live session.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3
BROWSER=$top_srcdir/tests/report/browser.py
fail=0

run_dio record -q -o "$TMP/demo.dio" -- "$WL/demo" "$TMP/demo" > /dev/null 2> "$TMP/rec.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record of the demo exited with $RC:"; cat "$TMP/rec.err"; exit 1; }
run_dio report "$TMP/demo.dio" -o "$TMP/demo.html" > "$TMP/rep.out" 2> "$TMP/rep.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio report exited with $RC:"; cat "$TMP/rep.err"; exit 1; }
# one line on stderr: the analyzers' tables are in the page, not on the terminal
[ "$(cat "$TMP/rep.err")" = "dio: wrote $TMP/demo.html" ] || { echo "FAIL: dio report printed other than what it wrote:"; cat "$TMP/rep.err"; fail=1; }
[ -s "$TMP/rep.out" ] && { echo "FAIL: dio report printed on stdout:"; head -5 "$TMP/rep.out"; fail=1; }
[ "$(stat -c %a "$TMP/demo.html")" = 600 ] || { echo "FAIL: the page is not private (mode $(stat -c %a "$TMP/demo.html"))"; fail=1; }
"$DIO" info "$TMP/demo.dio" > "$TMP/info" 2>&1
"$DIO" analyze "$TMP/demo.dio" --analyzer all --sink json:file="$TMP/findings.json" > /dev/null 2>&1

# the page's figures against dio info's and dio analyze's
$PY - "$TMP/demo.html" "$TMP/info" "$TMP/findings.json" << 'PY' || fail=1
import json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page, re.S)
d = json.loads(m.group(1))
info = open(sys.argv[2]).read()
bad = []
recs = int(re.search(r"^records: (\d+) \(syscall (\d+)", info, re.M).group(1))
calls = int(re.search(r"^records: \d+ \(syscall (\d+)", info, re.M).group(1))
span = float(re.search(r"^time span: ([\d.]+) s", info, re.M).group(1))
procs = int(re.search(r"^processes: (\d+)", info, re.M).group(1))
mix = dict((n, int(c)) for n, c in re.findall(r"^  (\w+) +(\d+)$", info.split("syscalls:")[1].split("processes:")[0], re.M))
if d["records"] != recs: bad.append(f"records {d['records']}, dio info {recs}")
if d["calls"] != calls: bad.append(f"calls {d['calls']}, dio info {calls}")
if abs(d["duration_ns"] / 1e9 - span) > 1e-6: bad.append(f"span {d['duration_ns']} ns, dio info {span} s")
if len({t["pid"] for t in d["threads"]}) != procs: bad.append(f"processes, dio info {procs}")
if {s["name"]: s["calls"] for s in d["syscalls"]} != mix: bad.append(f"syscall mix {d['syscalls']}, dio info {mix}")
if sum(f["calls"] for f in d["files"]) > d["calls"]: bad.append("files hold more calls than the trace")
app = [f for f in d["files"] if f["path"].endswith("/app.log")]
if not app or app[0]["written"] != 3690: bad.append(f"app.log's bytes written: {app}")
want = sorted(r["code"] for r in map(json.loads, open(sys.argv[3])) if r.get("type") == "finding")
got = sorted(f["code"] for f in d["findings"])
if got != want or "redundant-open.churn" not in got: bad.append(f"findings {got}, dio analyze {want}")
# nothing to fetch: no src or href to anywhere, no stylesheet, no url() or @import
for m in re.finditer(r"""\b(src|href)\s*=|<link\b|url\(|@import""", page):
    bad.append(f"the page refers to something else: {page[m.start():m.start() + 60]!r}")
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# in a real browser: no errors, no requests, the figures shown, a click selects
calls=$(sed -n 's/^records: [0-9]* (syscall \([0-9]*\),.*/\1/p' "$TMP/info")
# the screenshot stays in the build tree (in a VPATH build its folder is not there yet)
mkdir -p "$top_builddir/tests/report" || fail=1
$PY "$BROWSER" check "$TMP/demo.html" --viewport 1300x1500 \
	--expect-js "document.body.dataset.ready=1" \
	--expect-js "Number(document.querySelector('[data-card=calls] b').textContent.replace(/,/g, ''))=$calls" \
	--expect-js "document.querySelectorAll('#findings-table tr.finding').length>0=true" \
	--click "#findings-table tr.finding[data-code='redundant-open.churn']" \
	--expect-js "document.body.dataset.selectedSpan !== undefined=true" \
	--expect-js "document.querySelector('#files tr.sel').dataset.path.endsWith('/app.log')=true" \
	--expect-js "window.scrollTo(0, 0); 1=1" \
	--screenshot "$top_builddir/tests/report/demo-report.png" > "$TMP/b.out" 2>&1
rc=$?
[ "$rc" -eq 77 ] && { cat "$TMP/b.out"; echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }
[ "$rc" -eq 0 ] || { echo "FAIL: the demo's page in Chromium:"; cat "$TMP/b.out"; fail=1; }

# files by path: a journal created and deleted 40 times and 100 sockets are
# one row each, in the page (its data and its table) and in the summary; with
# 30 more files the table shows 25 rows and one that shows the others
cat > "$TMP/kinds.py" << 'PY'
import os, socket, sys
d = sys.argv[1]
for i in range(40):
    fd = os.open(d + "/journal", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, b"x" * 100)
    os.close(fd)
    os.unlink(d + "/journal")
socks = []
for i in range(50):
    a, b = socket.socketpair()
    os.write(a.fileno(), b"ping")
    os.read(b.fileno(), 4)
    socks += [a, b]
for s in socks:
    s.close()
for i in range(30):
    open("%s/f%d" % (d, i), "w").close()
PY
mkdir "$TMP/kinds"
run_dio record -q -o "$TMP/kinds.dio" -- $PY "$TMP/kinds.py" "$TMP/kinds" > /dev/null 2> "$TMP/kinds.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record of 40 journals and 100 sockets exited $RC:"; cat "$TMP/kinds.err"; fail=1; }
run_dio report "$TMP/kinds.dio" -o "$TMP/kinds.html" 2> "$TMP/kinds.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio report of 40 journals and 100 sockets exited $RC:"; cat "$TMP/kinds.err"; fail=1; }
$PY - "$TMP/kinds.html" "$TMP/kinds/journal" << 'PY' || fail=1
import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page, re.S).group(1))
bad = []
journal = [(f["files"], f["calls"], f["written"]) for f in d["files"] if f["path"] == sys.argv[2]]
if journal != [(40, 120, 4000)]: bad.append(f"journal rows (files, calls, written): {journal}, want [(40, 120, 4000)]")
socks = [(f["files"], f["calls"], f["read"], f["written"], f["type"]) for f in d["files"] if f["kind"] == "sockets"]
if socks != [(100, 200, 200, 200, "sock")]: bad.append(f"sockets rows (files, calls, read, written, type): {socks}")
if any(f["path"].startswith("socket:[") for f in d["files"]): bad.append("a socket has a row of its own")
for b in bad: print("FAIL: the page of 40 journals and 100 sockets: " + b)
sys.exit(1 if bad else 0)
PY
$PY "$BROWSER" check "$TMP/kinds.html" --expect-js "document.body.dataset.ready=1" \
	--expect-js "document.querySelectorAll('#files tbody tr:not(.more)').length=25" \
	--expect-js "document.querySelector('#files tr.more').textContent === '\u2026 and ' + (D.files.length + (D.files_other.files ? 1 : 0) - 25) + ' more paths (show all)'=true" \
	--click "#files tr.more" \
	--expect-js "document.querySelectorAll('#files tbody tr').length === D.files.length + (D.files_other.files ? 1 : 0)=true" \
	--expect-js "document.querySelector('#files tr[data-kind=sockets] td').textContent === 'sockets (100)'=true" \
	--expect-js "document.querySelector('#files tr[data-path=\"$TMP/kinds/journal\"] td').textContent === '$TMP/kinds/journal (40 files)'=true" \
	> "$TMP/b3.out" 2>&1 || { echo "FAIL: the page of 40 journals and 100 sockets in Chromium:"; cat "$TMP/b3.out"; fail=1; }
"$DIO" analyze "$TMP/kinds.dio" --analyzer summary:top=1000 > "$TMP/kinds.sum" 2>&1
J=$TMP/kinds/journal awk 'NF < 3 { next } $NF == "files)" && $(NF - 2) == ENVIRON["J"] && $(NF - 1) == "(40" { j = $3 }
	$(NF - 1) == "sockets" && $NF == "(100)" { s = $3 } END { exit !(j == 120 && s == 200) }' "$TMP/kinds.sum" ||
	{ echo "FAIL: the summary of 40 journals and 100 sockets:"; cat "$TMP/kinds.sum"; fail=1; }

# a flood of calls: the page holds figures, not records
run_dio record -q --no-summary -o "$TMP/big.dio" -- "$top_builddir/bench/callcost" "$TMP/f" 10 100000 \
	> /dev/null 2>&1
run_dio report "$TMP/big.dio" -o "$TMP/big.html" 2> "$TMP/big.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio report of 2 M calls exited with $RC:"; cat "$TMP/big.err"; fail=1; }
size=$(stat -c %s "$TMP/big.html")
[ "$size" -lt 10000000 ] || { echo "FAIL: the page of 2 M calls weighs $size bytes"; fail=1; }
# its series over time: buckets grown to hold the span, lanes that add up to the calls
$PY - "$TMP/big.html" << 'PY' || fail=1
import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page, re.S).group(1))
t = d["timeline"]
bad = []
if not 0 < t["buckets"] <= 1024: bad.append(f"{t['buckets']} buckets")
# grown until the span fits, and no further: once doubled, more than half are in use
if t["width"] * t["buckets"] < d["duration_ns"] - t["origin"] or (t["width"] > 1000 and t["buckets"] <= 512):
    bad.append(f"{t['buckets']} buckets of {t['width']} ns for a span of {d['duration_ns']} ns")
lanes = sum(l["calls"] for l in t["lanes"]) + t["others"]["calls"]
cells = sum(c[1] for l in t["lanes"] + [t["others"]] for c in l["cells"])
if lanes != d["calls"] or cells != d["calls"]: bad.append(f"lanes hold {lanes} calls, cells {cells}, of {d['calls']}")
if sum(g["calls"] for g in d["rates"]["groups"]) + d["rates"]["ungrouped_calls"] > d["calls"]: bad.append("groups hold more calls than the trace")
for b in bad: print("FAIL: the page of 2 M calls: " + b)
sys.exit(1 if bad else 0)
PY
$PY "$BROWSER" check "$TMP/big.html" --expect-js "document.body.dataset.ready=1" \
	--expect-js "document.querySelectorAll('#mix-table tbody tr').length>1=true" \
	--expect-js "Number(document.getElementById('timeline').dataset.lanes)>=2=true" \
	--expect-js "(() => { const c = document.getElementById('timeline-canvas'), r = c.getBoundingClientRect(),
		T = document.getElementById('timeline').dataset, w = Number(T.view1) - Number(T.view0);
		c.dispatchEvent(new WheelEvent('wheel', { clientX: r.left + 190 + (r.width - 190) / 2, clientY: r.top + 40,
			deltaY: -100, bubbles: true, cancelable: true }));
		return Math.abs((Number(T.view1) - Number(T.view0)) - 0.8 * w) <= 1; })()=true" > "$TMP/b2.out" 2>&1 ||
	{ echo "FAIL: the page of 2 M calls in Chromium:"; cat "$TMP/b2.out"; fail=1; }

# --report at the end of a live session
run_dio trace -q --analyzer all --report "$TMP/live.html" -- "$WL/demo" "$TMP/demo2" > /dev/null 2>&1
[ -s "$TMP/live.html" ] && grep -q '"code":"redundant-open.churn"' "$TMP/live.html" ||
	{ echo "FAIL: dio trace --report wrote no page with the demo's finding"; fail=1; }
exit $fail
