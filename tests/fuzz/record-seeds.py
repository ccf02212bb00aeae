#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seeds for the record fuzzer (fuzz_records.c) from a real trace file.

    record-seeds.py TRACE OUT

writes the records of TRACE, back to back as a ring buffer delivers them (no
file framing, no CRC), keeping every path and process record (they name the
files and threads the others refer to) and the first two records of each
shape: type, system call, flags, file type, which strings it has. Records of
one shape differ in values only, which the fuzzer varies anyway; the shapes
keep the seed small and still reach every decoder.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from tracefile_reader import read_trace  # noqa: E402

DIO_EV_SYSCALL, DIO_EV_PATH, DIO_EV_PROC = 1, 2, 4
PER_SHAPE = 2


def shape(rec):
    rtype = struct.unpack_from("<H", rec, 0)[0]
    if rtype == DIO_EV_SYSCALL:
        nr, ftype, flags, s0, s1 = struct.unpack_from("<HBBHH", rec, 120)
        return (rtype, nr, ftype, flags, s0 > 0, s1 > 0)
    if rtype == DIO_EV_PATH or rtype == DIO_EV_PROC:
        return None
    return (rtype, len(rec), rec[-8:-5] if rtype == 5 else b"")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    _, records = read_trace(sys.argv[1])
    seen, out = {}, []
    for rec in records:
        key = shape(rec)
        if key is not None:
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > PER_SHAPE:
                continue
        out.append(rec)
    with open(sys.argv[2], "wb") as f:
        f.write(b"".join(out))
    print(f"{sys.argv[2]}: {len(out)} of {len(records)} records, {sum(map(len, out))} bytes")


if __name__ == "__main__":
    main()
