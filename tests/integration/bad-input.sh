#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input gets one clear line and a non-zero status, at once: a FIFO (or
# another file that is not regular) given as a trace file or a config file is
# refused before anything reads from it, instead of hanging until a writer
# comes. Options of another command and values out of range are refused, and
# output that could not be written makes the status 1. No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
fail=0
mkfifo "$TMP/fifo" || { echo "FAIL: mkfifo"; exit 1; }

refuse() {	# WANT_STATUS LINE ARGS...: dio ARGS exits WANT_STATUS within 10 s, saying LINE
	want=$1 line=$2
	shift 2
	timeout 10 "$DIO" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" -eq 124 ]; then
		echo "FAIL: dio $*: still waiting after 10 s"
		fail=1
	elif [ "$rc" -ne "$want" ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
		! grep -qxF "$line" "$TMP/err"; then
		echo "FAIL: dio $*: status $rc (expected $want), stderr (expected '$line'):"
		cat "$TMP/err"
		fail=1
	fi
}
trace_msg="dio: $TMP/fifo: not a regular file (a trace file is one dio record wrote)"
refuse 1 "$trace_msg" info "$TMP/fifo"
refuse 1 "$trace_msg" dump "$TMP/fifo"
refuse 1 "$trace_msg" analyze "$TMP/fifo"
conf_msg="dio: $TMP/fifo: not a regular file (give a config file, see dio.conf.example)"
refuse 2 "$conf_msg" trace -C "$TMP/fifo" -- true
refuse 2 "$conf_msg" analyze "$TMP/fifo" -C "$TMP/fifo"

# a metadata bomb: the demo trace with its metadata block repeated 20000 times
# (5 MB): reading stays linear and the metadata kept is capped (64 KiB)
python3 - "$top_srcdir/tests/fuzz/corpus/demo.dio" "$TMP/bomb.dio" << 'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
magic, kind, raw, comp = struct.unpack_from('<IIII', d, 16)
assert kind == 1, 'the first block of a trace file is its metadata'
meta = d[16:16 + 48 + comp]
open(sys.argv[2], 'wb').write(d[:16] + meta * 20001 + d[16 + 48 + comp:])
PY
timeout 10 "$DIO" info "$TMP/bomb.dio" > "$TMP/out" 2> "$TMP/err"
rc=$?
size=$(wc -c < "$TMP/out")
if [ "$rc" -ne 1 ] || [ "$size" -gt 200000 ] || ! grep -q "damaged" "$TMP/err"; then
	echo "FAIL: dio info of a metadata bomb: status $rc (expected 1: damaged), $size bytes out (at most 200000)"
	head -c 300 "$TMP/err"
	fail=1
fi

# a config group for a module that does not exist is a typo, said with its line;
# one for a module that exists but is not loaded is kept quietly
demo=$top_srcdir/tests/fuzz/corpus/demo.dio
printf 'quiet = true;\nanalyzer: {\n  sumary: { top = 3; };\n};\n' > "$TMP/typo.conf"
refuse 1 "dio: $TMP/typo.conf:3: analyzer: { sumary: ... }: no analyzer named 'sumary' (see 'dio list analyzers')" \
	analyze "$demo" -C "$TMP/typo.conf"
printf 'analyzer: {\n  contention: { window_ms = 200; };\n};\n' > "$TMP/other.conf"
"$DIO" analyze "$demo" -C "$TMP/other.conf" > /dev/null 2>&1 ||
	{ echo "FAIL: a group for an analyzer not loaded this time was refused"; fail=1; }
# a module named in a config file's list: an error found when it is loaded
# names the file and line, not --analyzer
printf 'quiet = true;\n\nanalyzers = ["summary",\n  "nosuch"];\n' > "$TMP/list.conf"
refuse 1 "dio: $TMP/list.conf:4: no analyzer named 'nosuch'; see 'dio list analyzers' (or give a path to a .so)" \
	analyze "$demo" -C "$TMP/list.conf"
printf 'sinks = "nosink";\n' > "$TMP/sinks.conf"
refuse 1 "dio: $TMP/sinks.conf:1: no sink named 'nosink'; see 'dio list sinks' (or give a path to a .so)" \
	analyze "$demo" -C "$TMP/sinks.conf"
printf 'analyzers = ["summary:top=x"];\n' > "$TMP/opt.conf"
refuse 1 "dio: $TMP/opt.conf:1: analyzers: summary: analyzer summary: top: 'x' is not an integer" \
	analyze "$demo" -C "$TMP/opt.conf"
# two sinks of one kind: both write
"$DIO" analyze "$demo" --sink "json:file=$TMP/a.json" --sink "json:file=$TMP/b.json" > /dev/null 2>&1
[ -s "$TMP/a.json" ] && cmp -s "$TMP/a.json" "$TMP/b.json" ||
	{ echo "FAIL: the second --sink json was dropped"; fail=1; }

# options of dio record given to dio trace, values out of range
refuse 2 "dio: --level is an option of dio record: dio trace writes no trace file" trace --level 3 -- true
refuse 2 "dio: --max-size is an option of dio record: dio trace writes no trace file" trace --max-size 1G -- true
refuse 2 "dio: --rotate is an option of dio record: dio trace writes no trace file" trace --rotate 2 -- true
refuse 2 "dio: --flush-ms is an option of dio record: dio trace writes no trace file" trace --flush-ms 100 -- true
refuse 2 "dio: --duration: '1e23' is out of range (use more than 0 and at most 1e9 seconds)" trace -d 1e23 -- true
refuse 2 "dio: --until inf: give seconds after the trace's start, e.g. --until 1.5" dump "$demo" --until inf
refuse 2 "dio: --since nan: give seconds after the trace's start, e.g. --since 1.5" dump "$demo" --since nan
refuse 2 "dio: --until 2e10: give seconds after the trace's start, e.g. --until 1.5" dump "$demo" --until 2e10
refuse 2 "dio: --until 20000000000: out of range (at most 1e9 seconds)" dump "$demo" --until 20000000000

# output that cannot be written is a failure, not a success with a cut table
if [ -w /dev/full ]; then
	for args in "list analyzers" "list rules" "list syscalls" "info $demo" "dump $demo" "analyze $demo --analyzer all"; do
		# shellcheck disable=SC2086
		"$DIO" $args > /dev/full 2> "$TMP/err"
		rc=$?
		if [ "$rc" -ne 1 ] || ! grep -q "^dio: .*: No space left on device$" "$TMP/err"; then
			echo "FAIL: dio $args > /dev/full: status $rc (expected 1), stderr:"
			cat "$TMP/err"
			fail=1
		fi
	done
fi
exit $fail
