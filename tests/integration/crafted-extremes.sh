#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Records that pass the host's check but hold the extreme values a crafted
# file can: an offset a byte short of the largest one with a read of 4 KiB
# past it, times at 0 and at the top of the clock in one trace, a call that
# lasted 2^64-1 ns, a negative offset. Every command that reads a trace
# (dump, dump --format json, info, analyze with every analyzer into every
# file sink, report, diff) reads it without undefined behaviour (the
# sanitizer build halts on any: UBSAN_OPTIONS=halt_on_error=1) and exits 0.
# No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0

$PY - "$top_srcdir/tests/integration" "$top_srcdir/tests/fuzz/corpus/demo.dio" \
	"$TMP/x.dio" << 'PY' || { echo "FAIL: cannot write the trace file"; exit 1; }
import struct, sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import read_trace, SYSCALL
from tracefile_writer import write_trace

meta, records = read_trace(sys.argv[2])
last = max(struct.unpack_from("<Q", r, 8)[0] for r in records)
PID, COMM = 4242, b"crafted"
SF_FILE, SF_OFFSET, FT_REG = 0x01, 0x02, 8
I64_MAX, U64_MAX = 2**63 - 1, 2**64 - 1

def call(ts, nr, ret, offset, fd=3, dur=1000, ino=77):
    return SYSCALL.pack(1, SYSCALL.size, 0, ts, PID, PID, dur, ret, fd, 0, 4096, offset & U64_MAX, 0, 0,
                        COMM, ino, 0x800001, 1, offset, nr, FT_REG, SF_FILE | SF_OFFSET, 0, 0,
                        fd, 5)

extremes = [
    # read(3) at the largest offset but one, returning 4 KiB: its end is past INT64_MAX
    call(last + 1000, 0, 4096, I64_MAX - 1),
    # pwrite64 at the largest offset, then pread64 at a negative one
    call(last + 2000, 18, 4096, I64_MAX),
    call(last + 3000, 17, 4096, -4096),
    # a call that lasted 2^64-1 ns
    call(last + 4000, 0, 10, 0, dur=U64_MAX),
    # times at the bottom and the top of the clock
    call(1, 0, 10, 0),
    call(U64_MAX - 1, 0, 10, 4096),
    call(U64_MAX, 1, 10, I64_MAX - 5),
]
write_trace(sys.argv[3], meta, records + extremes)
PY

# run WHAT ARGS...: dio ARGS exits 0 (UBSan halts it with another status)
run() {
	what=$1
	shift
	"$DIO" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ $rc -ne 0 ] || grep -q "runtime error" "$TMP/err"; then
		echo "FAIL: $what exited with $rc:"
		grep -m 5 "runtime error\|dio:" "$TMP/err"
		fail=1
	fi
}

run "dump" dump "$TMP/x.dio" -tt -T
run "dump --format json" dump "$TMP/x.dio" --format json
run "info" info "$TMP/x.dio"
run "analyze" analyze "$TMP/x.dio" --analyzer all --sink console --sink "json:file=$TMP/a.json" \
	--sink "sarif:file=$TMP/a.sarif" --sink "junit:file=$TMP/a.xml" \
	--sink "html:file=$TMP/a.html"
run "report" report "$TMP/x.dio" -o "$TMP/r.html"
run "diff" diff "$top_srcdir/tests/fuzz/corpus/demo.dio" "$TMP/x.dio"
[ $fail -eq 0 ] && echo "ok: extreme values read without undefined behaviour"
exit $fail
