#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Trace files of format version 1 (zlib blocks, records as they are), written
# by dio before version 2, still read: tests/fixtures/v1.dio is one, a dd of 50
# writes of 512 bytes, and tests/fixtures/v1.dump what dio dump printed for it
# when it was written. Today's dio prints the same, byte for byte, and the
# trace format's own reader (tracefile_reader.py) reads all its records. No
# BPF needed.
. "$top_srcdir/tests/integration/lib.sh"
fx=$top_srcdir/tests/fixtures
fail=0

"$DIO" dump "$fx/v1.dio" > "$TMP/v1.dump" 2> "$TMP/err" ||
	{ echo "FAIL: dio dump of the version 1 file exited with $?:"; cat "$TMP/err"; exit 1; }
cmp -s "$TMP/v1.dump" "$fx/v1.dump" ||
	{ echo "FAIL: dio dump of the version 1 file changed:"; diff "$fx/v1.dump" "$TMP/v1.dump" | head -20; fail=1; }
[ "$(grep -c 'write(1</tmp/diofx/out>, 0x[0-9a-f]*, 512) = 512 ' "$TMP/v1.dump")" -eq 50 ] ||
	{ echo "FAIL: the dump lacks dd's 50 writes"; fail=1; }
"$DIO" info "$fx/v1.dio" > "$TMP/info" 2>&1
grep -qx "blocks: [0-9]* intact, 0 damaged; complete" "$TMP/info" ||
	{ echo "FAIL: dio info of the version 1 file:"; cat "$TMP/info"; fail=1; }

# the format's own reader, written from docs/trace-format.md, reads it as version 1
/usr/bin/python3 - "$top_srcdir/tests/integration" "$fx/v1.dio" << 'PY' || fail=1
import struct, sys
sys.path.insert(0, sys.argv[1])
from tracefile_reader import read_trace
meta, recs = read_trace(sys.argv[2])
with open(sys.argv[2], "rb") as f:
    version = struct.unpack_from("<I", f.read(12), 8)[0]
if version != 1 or len(recs) != 228:
    print(f"FAIL: the fixture: version {version}, {len(recs)} records, want 1 and 228")
    sys.exit(1)
PY
exit $fail
