#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# browser.py, the driver of dio report's browser tests, against the pages in fixtures/: it
# must pass the good page, and fail each bad one with a line that says why. A report test
# that passes means something only if the driver can fail. SKIP (77) only when no
# chromium is installed.
: "${top_srcdir:=.}"
B="$top_srcdir/tests/report/browser.py"
F="$top_srcdir/tests/report/fixtures"
TMP=$(mktemp -d /tmp/dio-browser-test.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT
fail=0

python3 "$B" probe > "$TMP/probe" 2>&1
rc=$?
cat "$TMP/probe"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "FAIL: chromium is installed but did not start (status $rc)"; exit 1; }

# run NAME STATUS ARGS...: browser.py check ARGS must exit with STATUS; its output in NAME.out
run() {
	name=$1 want=$2
	shift 2
	python3 "$B" check "$@" > "$TMP/$name.out" 2>&1
	got=$?
	if [ $got -ne "$want" ]; then
		echo "FAIL: $name: browser.py exited $got, expected $want; it printed:"
		sed 's/^/  /' "$TMP/$name.out"
		fail=1
	fi
}

# says NAME COUNT [TEXT]: NAME's output has exactly COUNT FAIL lines, one of them containing TEXT
says() {
	n=$(grep -c '^FAIL: ' "$TMP/$1.out")
	if [ "$n" -ne "$2" ] || { [ -n "$3" ] && ! grep -qF -- "$3" "$TMP/$1.out"; }; then
		echo "FAIL: $1: expected $2 failure line(s), one with: $3; it printed:"
		sed 's/^/  /' "$TMP/$1.out"
		fail=1
	fi
}

value='document.querySelector("#value").textContent'

# the good page: the value before, a real click (ev.isTrusted), the value after, a drawn canvas
run good 0 "$F/good.html" --expect-js "$value=before" --click '#go' --expect-js "$value=after" \
	--expect-js 'document.title=good' --expect-js '[1, 2].length=2' \
	--expect-js 'Promise.resolve("later")=later' \
	--viewport 800x600 --screenshot "$TMP/good.png"
says good 0 ''
size=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[1]); import browser
print("%dx%d" % browser.png_pixels(open(sys.argv[2], "rb").read())[:2])' \
	"$top_srcdir/tests/report" "$TMP/good.png" 2>&1)
[ "$size" = 800x600 ] || { echo "FAIL: good: the screenshot is not an 800x600 PNG: $size"; fail=1; }

# the same page where the expectations are wrong: each one is said
run good-wrong 1 "$F/good.html" --click '#go' --expect-js "$value=before" --expect-js '1=true'
says good-wrong 2 "expect-js: $value is \"after\", expected before"
says good-wrong 2 'expect-js: 1 is 1, expected true'

# an element that is not there, an expression that throws
run good-missing 1 "$F/good.html" --click '#nothing' --expect-js 'nosuch.x=1'
says good-missing 2 'click: cannot click #nothing: no element matches'
says good-missing 2 'expect-js: nosuch.x threw ReferenceError: nosuch is not defined'

run throws 1 "$F/throws.html"
says throws 1 "uncaught exception at file://"
says throws 1 "throws.html:8: TypeError: Cannot read properties of undefined (reading 'points')"

# console.error fails; the console.log beside it does not
run console-error 1 "$F/console-error.html"
says console-error 1 'console.error: fixture: no data for the timeline'

# a page with nothing on it loads cleanly; only its screenshot fails
run blank-load 0 "$F/blank.html"
says blank-load 0 ''
run blank 1 "$F/blank.html" --screenshot "$TMP/blank.png"
says blank 1 "screenshot $TMP/blank.png is blank: 0.00% of its pixels differ"

# a request to the network is a failure of its own, besides the error of its failed load
run network 1 "$F/network.html"
says network 2 'network request (a report must be self-contained): http://127.0.0.1:9/chart.js'

# a page that never finishes loading: a failure within the timeout, and no browser left
mkdir "$TMP/hang-profile"
start=$(date +%s)
TMPDIR="$TMP/hang-profile" run hang 1 "$F/hang.html" --timeout 5
took=$(($(date +%s) - start))
says hang 1 'no load event from file://'
[ $took -le 20 ] || { echo "FAIL: hang: the driver took $took s to give up after 5 s"; fail=1; }
for cmdline in /proc/[0-9]*/cmdline; do
	if tr '\0' ' ' < "$cmdline" 2>/dev/null | grep -qF "$TMP/hang-profile/"; then
		echo "FAIL: hang: a browser process outlived the driver: ${cmdline%/cmdline}"
		fail=1
	fi
done
[ -z "$(ls -A "$TMP/hang-profile")" ] ||
	{ echo "FAIL: hang: the browser's profile directory was left behind"; fail=1; }

# no chromium on PATH: SKIP, not a failure (the interpreter by its path: PATH is emptied)
py=$(python3 -c 'import sys; print(sys.executable)')
env -u CHROMIUM PATH=/nonexistent "$py" "$B" check "$F/good.html" > "$TMP/none.out" 2>&1
rc=$?
[ $rc -eq 77 ] || { echo "FAIL: without chromium browser.py exited $rc, not 77:"; cat "$TMP/none.out"; fail=1; }

[ $fail -eq 0 ] && echo "ok: browser.py passes the good page and fails each bad one"
exit $fail
