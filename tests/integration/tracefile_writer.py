#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write dio trace files whose framing is intact, from records of any content.

Tests use it to put crafted records where only the host's own check of each
record can stop them: the CRCs, sizes and index are right, as dio record
writes them (docs/trace-format.md), so dio's reader hands every record on.

    from tracefile_writer import write_trace
    write_trace(path, meta, records)

meta is the metadata as a dict; records are bytes objects, written in
records blocks of up to RAW_MAX bytes each.
"""
import struct
import zlib

from tracefile_reader import BLOCK_HDR, BLOCK_MAGIC, FILE_HDR, INDEX_ENT, TRAILER, \
    KIND_INDEX, KIND_META, KIND_RECORDS, RAW_MAX

BF_STATE, BF_VALID = 0x1, 0x80000000
DIO_EV_PATH, DIO_EV_PROC = 2, 4


def block(kind, raw, nrec=0, first_ts=0, last_ts=0, flags=0):
    payload = zlib.compress(raw)
    hdr = struct.pack("<6I2QI", BLOCK_MAGIC, kind, len(raw), len(payload), nrec,
                      zlib.crc32(payload), first_ts, last_ts, flags)
    assert len(hdr) + 4 == BLOCK_HDR.size
    return hdr + struct.pack("<I", zlib.crc32(hdr)) + payload


def write_trace(path, meta, records):
    text = "".join(f"{k}={v}\n" for k, v in meta.items()).encode()
    out = FILE_HDR.pack(b"DIOTRACE", 1, FILE_HDR.size) + block(KIND_META, text)
    index = b""
    start = 0
    while start < len(records):
        end, size = start, 0
        while end < len(records) and size + len(records[end]) <= RAW_MAX:
            size += len(records[end])
            end += 1
        part = records[start:end]
        ts = [struct.unpack_from("<Q", r, 8)[0] for r in part]
        types = {struct.unpack_from("<H", r, 0)[0] for r in part}
        flags = BF_VALID | (BF_STATE if types & {DIO_EV_PATH, DIO_EV_PROC} else 0)
        index += INDEX_ENT.pack(len(out), min(ts), max(ts), len(part), flags)
        out += block(KIND_RECORDS, b"".join(part), len(part), min(ts), max(ts), flags)
        start = end
    index_offset = len(out)
    out += block(KIND_INDEX, index, len(index) // INDEX_ENT.size)
    out += TRAILER.pack(index_offset, b"DIOINDEX")
    with open(path, "wb") as f:
        f.write(out)
