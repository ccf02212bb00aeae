#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Records that lie, in a trace file whose CRCs and sizes are all right: a
# string that runs past its record, one without its NUL, an unreadable string
# with bytes, a content tail longer than the record, a FIFO's path without its
# NUL, a process event and a file type that do not exist, a block record cut
# short. dio's reader hands them on; the host's check must stop each one
# before the filter, the sinks and the analyzers: dio dump, dump --format
# json, dump --path and analyze give exactly what they give for the trace
# without them, say how many were left out and why, and exit 1 as for a
# damaged file; dio info counts them apart. No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0

# the demo trace written again as it is, and with the crafted records after its own
$PY - "$top_srcdir/tests/integration" "$top_srcdir/tests/fuzz/corpus/demo.dio" \
	"$TMP/copy.dio" "$TMP/crafted.dio" << 'PY' || { echo "FAIL: cannot write the trace files"; exit 1; }
import struct, sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import read_trace, SYSCALL, PATH
from tracefile_writer import write_trace

meta, records = read_trace(sys.argv[2])
ts = max(struct.unpack_from("<Q", r, 8)[0] for r in records) + 1000
PID, COMM = 4242, b"crafted"
SF_FILE, SF_HASH, SF_STR0_FAULT = 0x01, 0x40, 0x10
FT_FIFO, FT_REG = 1, 8

def syscall(nr, tail, flags=0, ftype=0, str_len=(0, 0), size=None):
    n = SYSCALL.size + len(tail) if size is None else size
    return SYSCALL.pack(1, n, 0, ts, PID, PID, 1000, 0, *([0] * 6), COMM, 0, 0, 0, 0, nr,
                        ftype, flags, str_len[0], str_len[1], -1, 0) + tail

crafted = [
    # openat whose string of 7 bytes is not in the record at all
    syscall(257, b"", str_len=(7, 0)),
    # openat("/tmp/abc" without its NUL)
    syscall(257, b"/tmp/abc", str_len=(8, 0)),
    # rename(NULL, "cd") whose unreadable first string still has bytes
    syscall(82, b"ab\0cd\0", flags=SF_STR0_FAULT, str_len=(3, 3)),
    # read with 100 bytes of content in a record that holds 5
    syscall(0, struct.pack("<QII", 0, 5, 100) + b"hello", flags=SF_HASH),
    # the path of a FIFO without its NUL
    PATH.pack(2, PATH.size + 4, 0, ts, 99, 0, 0, 4, 0, FT_FIFO, PID) + b"/abc",
    # a process event that does not exist
    struct.pack("<HHIQIIIIiHH16sII", 4, 64, 0, ts, PID, PID, 0, 0, 0, 9, 0, COMM, 0, 0),
    # a call on a file of no known type
    syscall(3, b"", flags=SF_FILE, ftype=3),
    # a block request one byte short
    struct.pack("<HHIQ", 5, 95, 0, ts) + bytes(79),
]
write_trace(sys.argv[3], meta, records)
write_trace(sys.argv[4], meta, records + crafted)
PY

# same ARGS...: dio ARGS on the crafted file gives the output it gives on the copy
same() {
	"$DIO" "$@" "$TMP/copy.dio" > "$TMP/want" 2> "$TMP/want.err"
	want_rc=$?
	"$DIO" "$@" "$TMP/crafted.dio" > "$TMP/got" 2> "$TMP/err"
	rc=$?
	if [ "$want_rc" -ne 0 ] || [ -s "$TMP/want.err" ]; then
		echo "FAIL: dio $* on the demo trace written again: status $want_rc:"
		cat "$TMP/want.err"
		fail=1
	fi
	if ! cmp -s "$TMP/want" "$TMP/got"; then
		echo "FAIL: dio $*: the crafted records changed the output:"
		diff "$TMP/want" "$TMP/got" | head -20
		fail=1
	fi
	left_out "$@"
}

# left_out ARGS...: status 1, and stderr says 8 records were left out, and nothing else about them
left_out() {
	if [ "$rc" -ne 1 ]; then
		echo "FAIL: dio $*: status $rc, want 1 (records left out are damage)"
		fail=1
	fi
	if ! grep -qxF "dio: warning: 8 malformed records were left out, counted as lost (the first, of type 1: a string argument runs past the record's end)" "$TMP/err"; then
		echo "FAIL: dio $*: the records left out are not said:"
		cat "$TMP/err"
		fail=1
	fi
	if grep -q "cannot \(format\|read\) a record\|crafted" "$TMP/err" "$TMP/got"; then
		echo "FAIL: dio $*: a crafted record went past the check:"
		grep "cannot \(format\|read\) a record\|crafted" "$TMP/err" "$TMP/got" | head -5
		fail=1
	fi
}

same dump
same dump -T -ttt
same dump --format json
# the filter sees checked records only: a string that is not there is matched with nothing
same dump --path /tmp
same dump --comm crafted
"$DIO" analyze "$TMP/crafted.dio" --analyzer all > "$TMP/got" 2> "$TMP/err"
rc=$?
left_out analyze --analyzer all
"$DIO" info "$TMP/crafted.dio" > "$TMP/got" 2> "$TMP/err"
rc=$?
if [ "$rc" -ne 1 ] || ! grep -qxF "malformed records: 8 (dio dump and dio analyze leave them out)" "$TMP/got" ||
	! grep -qxF "dio: warning: $TMP/crafted.dio: 8 malformed records, which dio dump and dio analyze leave out" "$TMP/err"; then
	echo "FAIL: dio info: status $rc (want 1), does not count the malformed records apart:"
	cat "$TMP/got" "$TMP/err"
	fail=1
fi
exit $fail
