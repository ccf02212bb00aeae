#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio report's views over time: the timeline (a lane per thread, named as it was
# then, block and run-queue lanes, the slowest calls), offsets over time per
# file and process, and the I/O rate per thread group. For the demo, a thread
# that renames itself (tests/workloads/threads) and a key-value store with
# background compaction threads (tests/workloads/kvstore), every series in the
# page must equal what tests/report/model.py works out anew from the same
# records (the json sink's), bucket by bucket. In headless Chromium, a click on
# a finding selects its span in the timeline, zooms to it and shows its file
# in the offset view; the zoom buttons, a drag and a hover (over a stretch of
# time zoomed in to, which names the thread and its calls there) do what they say.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
PY=/usr/bin/python3
BROWSER=$top_srcdir/tests/report/browser.py
MODEL=$top_srcdir/tests/report/model.py
fail=0

# report NAME [MODEL OPTIONS] -- CMD...: record CMD, write its page and its
# records as JSON, and check the page's series against the records
report() {
	name=$1
	shift
	opts=
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	run_dio record -q -o "$TMP/$name.dio" -- "$@" > /dev/null 2> "$TMP/$name.rec"
	[ "$RC" -eq 0 ] || { echo "FAIL: $name: dio record exited with $RC:"; cat "$TMP/$name.rec"; fail=1; return 1; }
	run_dio report "$TMP/$name.dio" -o "$TMP/$name.html" 2> "$TMP/$name.err"
	[ "$RC" -eq 0 ] || { echo "FAIL: $name: dio report exited with $RC:"; cat "$TMP/$name.err"; fail=1; return 1; }
	run_dio dump "$TMP/$name.dio" --sink "json:file=$TMP/$name.json" > /dev/null 2>&1
	[ "$RC" -eq 0 ] || { echo "FAIL: $name: dio dump to json exited with $RC"; fail=1; return 1; }
	printf "%s: " "$name"
	# shellcheck disable=SC2086
	$PY "$MODEL" "$TMP/$name.html" "$TMP/$name.json" $opts || { fail=1; return 1; }
}

# field NAME EXPR: a value of the page's data, by a Python expression on d
field() {
	$PY -c 'import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r"<script id=\"dio-data\" type=\"application/json\">(.*?)</script>", page, re.S).group(1))
print(eval(sys.argv[2]))' "$TMP/$1.html" "$2"
}

report demo --expect-lane-names -- "$WL/demo" "$TMP/demo"

# a thread that renames itself between two calls: its lane has both names, with
# the time of the first call under the new one
mkdir -p "$TMP/threads"
if report threads --expect-lane-names -- "$WL/threads" "$TMP/threads" 9> /dev/null; then
	n=$(field threads 'max(len(l["names"]) for l in d["timeline"]["lanes"])')
	[ "$n" -ge 2 ] || { echo "FAIL: threads: no lane has the thread's two names"; fail=1; }
fi

# background and foreground thread groups: the compaction threads are one
# background group, the clients one foreground group
if [ "$(stat -f -c %T /var/tmp)" != tmpfs ]; then
	DATA=$(mktemp -d /var/tmp/dio-report.XXXXXX) || exit 1
	if report kv -- "$WL/kvstore" "$DATA" throttled 9> /dev/null; then
		g=$(field kv '" ".join(sorted("%s:%s:%d" % (g["name"], g["background"], g["threads"]) for g in d["rates"]["groups"] if g["name"] in ("rocksdb:low", "client")))')
		[ "$g" = "client:False:2 rocksdb:low:True:4" ] ||
			{ echo "FAIL: kv: groups $g, expected client (2 threads, foreground) and rocksdb:low (4, background)"; fail=1; }
	fi
	rm -rf "$DATA"
else
	echo "kv: skipped: /var/tmp is a tmpfs (the workload needs a disk)"
fi

# in Chromium: the views drawn, a finding's click, the zoom, a drag and a hover
f=$(field demo '[i for i, f in enumerate(d["findings"]) if f["code"] == "redundant-open.churn"][0]')
first=$(field demo "d['findings'][$f]['first']")
last=$(field demo "d['findings'][$f]['last']")
lanes=$(field demo '1 + len(d["timeline"]["lanes"]) + (d["timeline"]["others"]["threads"] > 0) + len(d["timeline"]["devices"]) + (d["timeline"]["runq"]["waits"] > 0)')
series=$(field demo 'len([o for o in d["offsets"]["offsets"] if o["path"].endswith("/app.log")])')
T="document.getElementById('timeline').dataset"
width="(Number($T.view1) - Number($T.view0))"
$PY "$BROWSER" check "$TMP/demo.html" --viewport 1300x1400 \
	--expect-js "document.body.dataset.ready=1" \
	--expect-js "$T.lanes=$lanes" \
	--expect-js "$T.view0=0" \
	--expect-js "Number($T.view1)=$(field demo 'd["duration_ns"]')" \
	--expect-js "document.getElementById('rates').dataset.max > 0=true" \
	--click "#findings-table tr.finding[data-index='$f']" \
	--expect-js "$T.sel0=$first" \
	--expect-js "$T.sel1=$last" \
	--expect-js "Number($T.view0) < $first && Number($T.view1) > $last=true" \
	--expect-js "document.getElementById('offsets-file').value.endsWith('/app.log')=true" \
	--expect-js "document.getElementById('offsets').dataset.series=$series" \
	--expect-js "window.w0 = $width; 1=1" \
	--click "#zoom-in" \
	--expect-js "Math.abs($width - window.w0 / 2) <= 1=true" \
	--expect-js "(() => { const c = document.getElementById('timeline-canvas'), r = c.getBoundingClientRect(),
		v0 = Number($T.view0), per = $width / (r.width - 190), y = r.top + 40;
		c.dispatchEvent(new MouseEvent('mousedown', { clientX: r.left + 600, clientY: y, bubbles: true }));
		c.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + 700, clientY: y, bubbles: true }));
		window.dispatchEvent(new MouseEvent('mouseup', { clientX: r.left + 700, clientY: y }));
		return Math.abs(Number($T.view0) - (v0 - 100 * per)) <= per; })()=true" \
	--click "#zoom-reset" \
	--expect-js "$T.view0=0" \
	--expect-js "(() => { const c = document.getElementById('timeline-canvas'), r = c.getBoundingClientRect();
		const cell = D.timeline.lanes[0].cells.reduce((a, b) => b[2] > a[2] ? b : a);
		const mid = D.timeline.origin + (cell[0] + 0.5) * D.timeline.width;
		setView(mid - 10 * D.timeline.width, mid + 10 * D.timeline.width);
		const x = 190 + (mid - Number($T.view0)) / $width * (r.width - 190);
		c.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + x, clientY: r.top + 24 + 20 + 10, bubbles: true }));
		const tip = document.querySelector('#timeline .tip');
		return !tip.hidden && tip.textContent.startsWith(D.timeline.lanes[0].names.at(-1)[1]) &&
			tip.textContent.includes(cell[1] + ' calls'); })()=true" \
	> "$TMP/b.out" 2>&1
rc=$?
[ "$rc" -eq 77 ] && { cat "$TMP/b.out"; echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }
[ "$rc" -eq 0 ] || { echo "FAIL: the demo's views in Chromium:"; cat "$TMP/b.out"; fail=1; }
[ "$fail" -eq 0 ] && echo "ok: the views in Chromium"
exit $fail
