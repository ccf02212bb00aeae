#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Baselines judge patterns, not thresholds; one fingerprint is one finding.
# Crafted traces of a log daemon, "logd", that opens, writes and closes its
# log for every line (churn) beside reads of its data file:
#   base   200 lines, 100 reads: churn is 46 % of its time on storage (a
#          warning); its SARIF log is the baseline
#   busy   the same 200 lines among 5000 reads: 2.5 %, under min_share, but
#          the pattern is all there: unchanged, not fixed; --fail-on warning
#          passes (it is in the baseline)
#   less   50 lines among 5000 reads: under half the baseline's count: fixed
#          (the baseline's finding is reported absent)
#   twins  two programs whose names differ by a digit, worker1 and worker2,
#          each with the same churn: the same fingerprint (digits are N), so
#          one finding whose count adds both, and says it stands for two
# No BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
PY=/usr/bin/python3
fail=0

$PY - "$top_srcdir/tests/integration" "$TMP" << 'PY' || { echo "FAIL: cannot write the traces"; exit 1; }
import struct, sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import SYSCALL, PATH
from tracefile_writer import write_trace

US = 1000
T0 = 7000 * 10**9
SF_FILE, SF_OFFSET, FT_REG = 0x01, 0x02, 8
LOG, DATA = (1001, 0x800001, 1), (1002, 0x800001, 1)
meta = {"format": "dio-trace", "dio_version": "test", "host": "crafted", "boot_id": "b",
        "realtime_offset_ns": "1700000000000000000", "mode": "detailed", "hash": "off",
        "capture_bytes": "0", "session_id": "0123456789abcdef0123456789abcdef",
        "options": "record -o t.dio -- logd"}

def call(ts, pid, comm, nr, fd, tag, ret, dur, off=None, a2=0):
    flags = SF_FILE | (SF_OFFSET if off is not None else 0)
    return SYSCALL.pack(1, SYSCALL.size, 0, ts, pid, pid, dur, ret, fd, 0, a2, 0, 0, 0,
                        comm, tag[0], tag[1], tag[2], off or 0, nr, FT_REG, flags, 0, 0, fd, 0)

def path(ts, pid, tag, name):
    b = name.encode() + b"\0"
    return PATH.pack(2, PATH.size + len(b), 0, ts, tag[0], tag[1], tag[2], len(b), 0, FT_REG,
                     pid) + b

def logd(pid, comm, lines, reads, t0):
    recs = [path(t0, pid, LOG, "/srv/app.log"), path(t0, pid, DATA, "/srv/data")]
    ts = t0 + US
    for i in range(lines):
        recs.append(call(ts, pid, comm, 257, 3, LOG, 3, 10 * US, a2=0o2101))
        recs.append(call(ts + 20 * US, pid, comm, 1, 3, LOG, 64, 5 * US, off=64 * i))
        recs.append(call(ts + 40 * US, pid, comm, 3, 3, LOG, 0, 3 * US))
        ts += 1000 * US
    for i in range(reads):
        recs.append(call(ts, pid, comm, 17, 4, DATA, 4096, 20 * US, off=4096 * i))
        ts += 30 * US
    return recs

for name, recs in (("base", logd(700, b"logd", 200, 100, T0)),
                   ("busy", logd(700, b"logd", 200, 5000, T0)),
                   ("less", logd(700, b"logd", 50, 5000, T0)),
                   ("twins", logd(710, b"worker1", 200, 100, T0) +
                    logd(720, b"worker2", 100, 100, T0 + 10**9))):
    recs.sort(key=lambda r: struct.unpack_from("<Q", r, 8)[0])
    write_trace(f"{sys.argv[2]}/{name}.dio", meta, recs)
PY

# an TRACE ARGS...: dio analyze of TRACE with redundant-open into $TMP/TRACE.json
an() {
	t=$1
	shift
	"$DIO" analyze "$TMP/$t.dio" --no-summary --analyzer redundant-open \
		--sink "json:file=$TMP/$t.json" "$@" > "$TMP/$t.out" 2>&1
	RC=$?
}
# churn TRACE: "state count" of each churn finding of TRACE's json
churn() {
	jq -r 'select(.type == "finding" and .code == "redundant-open.churn") |
		"\(.baseline // "none") \(.count)"' "$TMP/$1.json" | sort | tr '\n' ' '
}

an base --sink "sarif:file=$TMP/base.sarif"
[ "$(churn base)" = "none 200 " ] || { echo "FAIL: base: churn findings '$(churn base)'"; fail=1; }

an busy --baseline "$TMP/base.sarif" --fail-on warning
[ "$RC" -eq 0 ] || { echo "FAIL: busy: --fail-on warning exited with $RC"; cat "$TMP/busy.out"; fail=1; }
[ "$(churn busy)" = "unchanged 200 " ] ||
	{ echo "FAIL: busy: churn under the share but all there is not unchanged: '$(churn busy)'"; fail=1; }
# and without the baseline it is no finding at all
an busy
[ "$(churn busy)" = "" ] || { echo "FAIL: busy without a baseline: '$(churn busy)'"; fail=1; }

an less --baseline "$TMP/base.sarif"
[ "$(churn less)" = "absent 200 " ] ||
	{ echo "FAIL: less: a quarter of the churn is not fixed: '$(churn less)'"; fail=1; }

an twins --sink "sarif:file=$TMP/twins.sarif"
[ "$(churn twins)" = "none 300 " ] ||
	{ echo "FAIL: twins: one fingerprint is not one finding: '$(churn twins)'"; fail=1; }
jq -r 'select(.type == "finding") | .message' "$TMP/twins.json" |
	grep -q "2 results of this run had this fingerprint" ||
	{ echo "FAIL: twins: the finding does not say it stands for two"; fail=1; }
# the SARIF log holds no two results with one fingerprint
dups=$(jq -r '.runs[0].results[].partialFingerprints["dio/v1"]' "$TMP/twins.sarif" | sort | uniq -d)
[ -z "$dups" ] || { echo "FAIL: twins: SARIF results share fingerprints: $dups"; fail=1; }
[ $fail -eq 0 ] && echo "ok: baselines judge patterns; one fingerprint, one finding"
exit $fail
