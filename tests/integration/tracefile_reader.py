#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A reader of dio trace files of its own, and the proof that dio's JSON loses nothing.

The reader is written from docs/trace-format.md and include/dio/event.h alone,
not from engine/tracefile.c, so that it checks the documents as much as the
files: it refuses anything they do not allow (a CRC that does not match, a
block that does not inflate to its length, a record whose size is not what its
fields add up to, an index that does not list the blocks as they are) instead
of skipping it as dio's own reader does with a damaged file.

    tracefile_reader.py TRACE JSON [--rel-base first|any]

pairs each record of TRACE with the JSON object that dio wrote for it (dio
dump --format json, or the json sink of the run that recorded TRACE) and
checks that the object carries every field of the record with the same value,
and that every key of the object comes from the record. Prints "ok: ..." or
one FAIL line per difference (exit 1).

--rel-base: rel_ns counts from the first record (first: dio dump), or from a
moment before it that the file does not hold (any: the live sink, which counts
from its own start); with any, the checker only asks that it is the same for
every record.
"""
import argparse
import errno
import json
import struct
import subprocess
import sys
import zlib

# ---- the file (docs/trace-format.md) -------------------------------------------

FILE_HDR = struct.Struct("<8sII")		# magic, version, hdr_size
# magic kind raw_len comp_len nrec crc, first_ts last_ts, flags hdr_crc
BLOCK_HDR = struct.Struct("<6I2Q2I")
INDEX_ENT = struct.Struct("<3Q2I")		# offset, first_ts, last_ts, nrec, flags
TRAILER = struct.Struct("<Q8s")			# index_offset, magic
BLOCK_MAGIC = 0x4B4C4244
RAW_MAX = 4 << 20
KIND_META, KIND_RECORDS, KIND_INDEX = 1, 2, 3
BF_CODEC, CODEC_ZLIB, CODEC_ZSTD, CODEC_NONE, BF_PACKED = 0xF00, 0, 0x100, 0x200, 0x1000


class TraceError(Exception):
    """The file is not what docs/trace-format.md says it is."""


def parse_meta(text, where):
    meta = {}
    for line in text.decode("utf-8", "surrogateescape").split("\n"):
        if not line:
            continue
        key, eq, value = line.partition("=")
        if not eq:
            raise TraceError(f"{where}: metadata line without '=': {line!r}")
        meta[key] = value
    return meta


def read_trace(path):
    """(metadata dict, [record bytes]) of a whole, intact trace file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < FILE_HDR.size:
        raise TraceError("shorter than the file header")
    magic, version, hdr_size = FILE_HDR.unpack_from(data)
    if magic != b"DIOTRACE" or version not in (1, 2) or hdr_size < FILE_HDR.size:
        raise TraceError(f"header: magic {magic!r}, version {version}, hdr_size {hdr_size}")
    pos, meta, records, blocks, index = hdr_size, None, [], [], None
    while index is None:
        if pos + BLOCK_HDR.size > len(data):
            raise TraceError(f"offset {pos}: the file ends before index and trailer")
        (bmagic, kind, raw_len, comp_len, nrec, crc, first_ts, last_ts, flags,
         hdr_crc) = BLOCK_HDR.unpack_from(data, pos)
        where = f"block at {pos}"
        if bmagic != BLOCK_MAGIC or hdr_crc != zlib.crc32(data[pos:pos + 44]):
            raise TraceError(f"{where}: bad magic {bmagic:#x} or header CRC")
        if kind not in (KIND_META, KIND_RECORDS, KIND_INDEX) or raw_len > RAW_MAX:
            raise TraceError(f"{where}: kind {kind}, raw_len {raw_len}")
        payload = data[pos + BLOCK_HDR.size:pos + BLOCK_HDR.size + comp_len]
        if len(payload) != comp_len or zlib.crc32(payload) != crc:
            raise TraceError(f"{where}: payload cut short or its CRC differs")
        raw = decompress(payload, flags if version >= 2 else 0, where)
        if len(raw) != raw_len:
            raise TraceError(f"{where}: decompresses to {len(raw)} bytes, not {raw_len}")
        if version >= 2 and flags & BF_PACKED:
            if kind != KIND_RECORDS:
                raise TraceError(f"{where}: a packed block of kind {kind}")
            raw = unpack(raw, where)
        if meta is None and kind != KIND_META:
            raise TraceError(f"{where}: the first block is not the metadata")
        if kind == KIND_META:
            if nrec or first_ts or last_ts:
                raise TraceError(f"{where}: metadata with nrec {nrec}, times {first_ts} {last_ts}")
            more = parse_meta(raw, where)
            meta = more if meta is None else {**meta, **more}
        elif kind == KIND_RECORDS:
            recs = split_records(raw, where)
            ts = [struct.unpack_from("<Q", r, 8)[0] for r in recs]
            if len(recs) != nrec or not recs or (min(ts), max(ts)) != (first_ts, last_ts):
                raise TraceError(f"{where}: header says {nrec} records from {first_ts} to "
                                 f"{last_ts}, it holds {len(recs)}")
            records += recs
            blocks.append((pos, first_ts, last_ts, nrec, flags))
        else:
            if raw_len % INDEX_ENT.size or nrec != raw_len // INDEX_ENT.size or first_ts or last_ts:
                raise TraceError(f"{where}: index of {raw_len} bytes, nrec {nrec}")
            index = (pos, [INDEX_ENT.unpack_from(raw, i)
                           for i in range(0, raw_len, INDEX_ENT.size)])
        pos += BLOCK_HDR.size + comp_len
    # the index lists every records block, as its header says (flags included)
    if index[1] != blocks:
        raise TraceError(f"the index {index[1]} does not list the record blocks {blocks}")
    if len(data) - pos != TRAILER.size:
        raise TraceError(f"{len(data) - pos} bytes after the index, not the "
                         f"{TRAILER.size}-byte trailer")
    index_offset, tmagic = TRAILER.unpack_from(data, pos)
    if tmagic != b"DIOINDEX" or index_offset != index[0]:
        raise TraceError(f"trailer: magic {tmagic!r}, index_offset {index_offset} "
                         f"(the index is at {index[0]})")
    return meta, records


def decompress(payload, flags, where):
    codec = flags & BF_CODEC
    if codec == CODEC_ZLIB:
        return zlib.decompress(payload)
    if codec == CODEC_NONE:
        return payload
    if codec == CODEC_ZSTD:
        # the zstd tool of the zstd package: Python 3.11 has no zstd of its own
        out = subprocess.run(["zstd", "-d", "-q", "-c"], input=payload, capture_output=True)
        if out.returncode:
            raise TraceError(f"{where}: zstd: {out.stderr.decode().strip()}")
        return out.stdout
    raise TraceError(f"{where}: codec {codec >> 8}")


# ---- packed records blocks (docs/trace-format.md, "Packed records") ---------------

STRUCT_WORDS = {1: 16, 2: 3, 3: 11, 4: 6, 5: 10, 6: 9, 7: 6}	# words after the header
M64 = (1 << 64) - 1


def unpack(raw, where):
    """The records of a packed block, back to back, as the writer was given them."""
    pos, out, ts, cpu, tid = 0, bytearray(), 0, 0, 0
    refs = {}

    def varint():
        nonlocal pos
        v = 0
        for shift in range(0, 70, 7):
            if shift >= 70 or pos >= len(raw):
                break
            b = raw[pos]
            pos += 1
            v |= (b & 0x7F) << shift
            if not b & 0x80:
                if v > M64:
                    break
                return v
        raise TraceError(f"{where}: a varint runs past the block or 10 bytes")

    def signed():
        v = varint()
        return (v >> 1) ^ -(v & 1)

    while pos < len(raw):
        op = raw[pos]
        pos += 1
        if op == 0:
            size = varint()
            if size < HDR.size or pos + size > len(raw):
                raise TraceError(f"{where}: a literal record of {size} bytes")
            out += raw[pos:pos + size]
            ts = struct.unpack_from("<Q", raw, pos + 8)[0]
            pos += size
            continue
        typ = op >> 4 & 7
        if not op & 0x80 or typ not in STRUCT_WORDS:
            raise TraceError(f"{where}: opcode {op:#x}")
        n = STRUCT_WORDS[typ]
        if op & 1:
            cpu = varint()
        ts = (ts + signed()) & M64
        key = ("type", typ)
        if typ == EV_SYSCALL:
            tid = (tid + signed()) & 0xFFFFFFFF
            nr = varint()
            key = ("call", ((tid * 2654435761) & 0xFFFFFFFF ^ (nr * 40503) & 0xFFFFFFFF) >> 7 & 1023)
        tail = varint() if op & 8 else 0
        offsel = op >> 1 & 3
        if offsel > 2 or (offsel and typ != EV_SYSCALL) or pos + 2 > len(raw):
            raise TraceError(f"{where}: opcode {op:#x} at the block's end")
        mask = raw[pos] | raw[pos + 1] << 8
        pos += 2
        if mask >> n:
            raise TraceError(f"{where}: mask {mask:#x} past the {n} words of type {typ}")
        ref = refs.get(key, [0] * 16)
        words = []
        for i in range(n):
            base = ref[i]
            if typ == EV_SYSCALL and i == 13:
                if offsel:
                    words.append(None)
                    continue
                ret = ref[2] - (1 << 64) if ref[2] >> 63 else ref[2]
                base = (ref[13] + max(ret, 0)) & M64
            words.append((base + signed()) & M64 if mask >> i & 1 else base)
        if offsel:
            words[13] = words[6] if offsel == 1 else words[2]
        refs[key] = words + [0] * (16 - n)
        size = HDR.size + 8 * n + tail
        if size > 65535 or pos + tail > len(raw) or len(out) + size > RAW_MAX:
            raise TraceError(f"{where}: a packed record of {size} bytes")
        out += HDR.pack(typ, size, cpu, ts) + struct.pack(f"<{n}Q", *words) + raw[pos:pos + tail]
        pos += tail
    return bytes(out)


def split_records(raw, where):
    recs, off = [], 0
    while off < len(raw):
        if off + HDR.size > len(raw):
            raise TraceError(f"{where}: a record header cut at the block's end")
        size = struct.unpack_from("<H", raw, off + 2)[0]
        if size < HDR.size or off + size > len(raw):
            raise TraceError(f"{where}: record at {off} of size {size}")
        recs.append(raw[off:off + size])
        off += size
    return recs


# ---- the records (include/dio/event.h) -----------------------------------------

HDR = struct.Struct("<HHIQ")			# type, size, cpu, ts
TAG = "QII"					# ino, dev, gen
SYSCALL = struct.Struct("<" + HDR.format[1:] + "IIQq6Q16s" + TAG + "qHBBHHiI")
CONTENT = struct.Struct("<QII")			# hash, hashed_len, data_len
PATH = struct.Struct("<" + HDR.format[1:] + TAG + "HBBI")
IOURING = struct.Struct("<" + HDR.format[1:] + "IIQqQQ16s" + TAG + "IiBBB5s")
PROC = struct.Struct("<" + HDR.format[1:] + "IIIIiHH16sII")
BLOCK = struct.Struct("<" + HDR.format[1:] + "IIQQQQ16sIIiHBB8s")
RUNQ = struct.Struct("<" + HDR.format[1:] + "IIQQ16sII16sHB5s")
assert (HDR.size, SYSCALL.size, CONTENT.size, PATH.size, IOURING.size, PROC.size, BLOCK.size,
        RUNQ.size) == (16, 144, 16, 40, 104, 64, 96, 88), "event.h's _Static_assert sizes"

EV_SYSCALL, EV_PATH, EV_IOURING, EV_PROC, EV_BLOCK, EV_RUNQ = 1, 2, 3, 4, 5, 6
SF_FILE, SF_OFFSET, SF_STR0_TRUNC, SF_STR1_TRUNC = 0x01, 0x02, 0x04, 0x08
SF_STR0_FAULT, SF_STR1_FAULT, SF_HASH = 0x10, 0x20, 0x40
PF_TRUNC, PF_DELETED, PF_RENAMED, PF_TRUNC_HEAD, PF_TRUNC_TAIL = 0x01, 0x02, 0x04, 0x08, 0x10
IF_FILE, IF_FIXED, IF_SQPOLL = 0x01, 0x02, 0x04
PROC_KINDS = {1: "fork", 2: "exec", 3: "exit", 4: "rename"}
PROCF_GROUP_DEAD, PROCF_THREAD = 0x01, 0x02
BF_KTHREAD, BF_SYSCALL, BF_QUEUED = 0x01, 0x02, 0x04
RF_PREEMPTED, RF_SYSCALL = 0x01, 0x02
FTYPES = {1: "fifo", 2: "chr", 4: "dir", 6: "blk", 8: "reg", 10: "lnk", 12: "sock", 15: "anon"}
PATH_MAX = 4096


# each type's struct and its fields' names, in event.h's order
PARSE = {
    EV_SYSCALL: (SYSCALL, "type size cpu ts pid tid duration ret a0 a1 a2 a3 a4 a5 comm "
                          "ino dev gen offset nr ftype flags str_len0 str_len1 fd ofd"),
    EV_PATH: (PATH, "type size cpu ts ino dev gen len flags ftype pid"),
    EV_IOURING: (IOURING, "type size cpu ts pid tid duration res offset user_data comm "
                          "ino dev gen len fd opcode ftype flags pad"),
    EV_PROC: (PROC, "type size cpu ts pid tid other_pid other_tid exit_code kind flags comm "
                    "mnt_ns pad"),
    EV_BLOCK: (BLOCK, "type size cpu ts pid tid duration queue_ns sector sys_ts comm dev bytes "
                      "error nr flags pad rwbs"),
    EV_RUNQ: (RUNQ, "type size cpu ts pid tid delay sys_ts comm prev_pid prev_tid prev_comm nr "
                    "flags pad"),
}


def parse(rec):
    """The record's fields by event.h's names; args, tag and strings as lists and bytes."""
    typ = struct.unpack_from("<H", rec)[0]
    if typ not in PARSE:
        raise TraceError(f"record type {typ}")
    st, names = PARSE[typ]
    if len(rec) < st.size:
        raise TraceError(f"record of type {typ} has {len(rec)} bytes, fewer than {st.size}")
    r = dict(zip(names.split(), st.unpack_from(rec)))
    r["tag"] = (r.pop("dev"), r.pop("ino"), r.pop("gen")) if "ino" in r else None
    tail = rec[st.size:]
    if typ == EV_SYSCALL:
        r["args"] = [r.pop(f"a{i}") for i in range(6)]
        lens = [r.pop("str_len0"), r.pop("str_len1")]
        r["strings"] = [tail[:lens[0]], tail[lens[0]:lens[0] + lens[1]]]
        tail = tail[lens[0] + lens[1]:]
        r["content"] = None
        if r["flags"] & SF_HASH:
            if len(tail) < CONTENT.size:
                raise TraceError("syscall record: DIO_SF_HASH without its content tail")
            h, hashed_len, data_len = CONTENT.unpack_from(tail)
            r["content"] = (h, hashed_len, tail[CONTENT.size:CONTENT.size + data_len])
            tail = tail[CONTENT.size + data_len:]
        if any(len(s) != n for s, n in zip(r["strings"], lens)) or \
                (r["content"] and len(r["content"][2]) != data_len):
            raise TraceError("syscall record shorter than its str_len and data_len")
    elif typ == EV_PATH:
        r["path"], tail = tail[:r["len"]], tail[r["len"]:]
        if len(r["path"]) != r["len"] or not r["path"].endswith(b"\0"):
            raise TraceError(f"path record: {r['len']} bytes of path, NUL at the end, "
                             f"not {r['path']!r}")
    # hdr.size covers the whole record and nothing more
    if tail:
        raise TraceError(f"record of type {typ}: {len(tail)} bytes past its fields")
    return r


# ---- the check: every field of a record is in its JSON object ------------------

def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def text(b):
    """A JSON string as the bytes it stands for (docs/json-schema.md: surrogateescape)."""
    return b.encode("utf-8", "surrogateescape")


def tag_text(tag):
    dev, ino, gen = tag
    return f"{dev >> 20}:{dev & 0xFFFFF}|{ino}|{gen}"


def ftype_name(ftype):
    # "-" stands for DIO_FT_NONE only: any other type without a name would be lost
    return FTYPES.get(ftype, "-" if ftype == 0 else f"type {ftype}")


def proc_fd_name(ftype, ino, path):
    """The name dio gives a file on an internal mount (as /proc/PID/fd shows it)."""
    if ftype == 1 and path == b"/":
        return f"pipe:[{ino}]".encode()
    if ftype == 12:
        return f"socket:[{ino}]".encode()
    if ftype == 15 and path.startswith(b"/") and b"/" not in path[1:]:
        return b"anon_inode:" + path[1:]
    return path


ANY = object()	# Check.key: any value, only present


class Check:
    def __init__(self, meta, rel_base):
        self.offset = int(meta["realtime_offset_ns"])
        self.user_hash = meta.get("hash") == "user"
        self.rel_base = rel_base	# "first" or "any"; becomes a number at the first record
        self.paths = {}			# tag -> the name dio knows it by, from the path records
        self.names = {}			# nr -> the name the JSON gives that system call
        self.calls = set()		# (tid, entry ts, nr) of each syscall record
        self.in_calls = []		# (where, tid, sys_ts, nr) of requests and waits in a call
        self.errors = []
        self.where = ""
        self.obj = None
        self.used = set()

    def fail(self, msg):
        self.errors.append(f"FAIL: {self.where}: {msg}")

    def key(self, k, want=ANY, present=True):
        """The object's k is want (ANY: is there; present=False: is not); returns its value."""
        self.used.add(k)
        if not present:
            if k in self.obj:
                self.fail(f"{k} is {self.obj[k]!r}, the record has none")
            return None
        if k not in self.obj:
            self.fail(f"no {k}" + ("" if want is ANY else f", the record has {want!r}"))
            return None
        if want is not ANY and self.obj[k] != want:
            self.fail(f"{k} is {self.obj[k]!r}, the record has {want!r}")
        return self.obj[k]

    def zero(self, r, *names):
        """Fields the JSON leaves out for this record: they must hold nothing."""
        for n in names:
            if r[n] not in (0, None, (0, 0, 0)):
                self.fail(f"the record's {n} is {r[n]!r}, which the JSON does not carry")

    def flags(self, fl, keys, other=0):
        """Each of keys is true when its bit is set; a bit neither names nor other would be lost."""
        known = other
        for k, bit in keys.items():
            self.key(k, bool(fl & bit))
            known |= bit
        if fl & ~known:
            self.fail(f"flags {fl:#x} has bits the JSON does not carry")

    def name(self, k, raw):
        """k is the NUL-terminated bytes raw: nothing after the NUL, nothing lost before it."""
        v = self.key(k, ANY)
        if isinstance(v, str) and text(v) + b"\0" != raw:
            self.fail(f"{k} {v!r} is not the record's {raw!r}")

    def head(self, r, typ, tid):
        self.key("type", typ)
        self.key("ts_ns", r["ts"] + self.offset)
        if self.rel_base == "first":
            self.rel_base = r["ts"]
        if self.rel_base == "any" and isinstance(self.obj.get("rel_ns"), int):
            self.rel_base = r["ts"] - self.obj["rel_ns"]
        self.key("rel_ns", ANY if self.rel_base == "any" else r["ts"] - self.rel_base)
        self.key("pid", r["pid"])
        self.key("tid", tid)
        self.key("cpu", r["cpu"])

    def fixed(self, k, raw):
        """k is the C string in the fixed-size field raw (a thread name, rwbs): what follows
        its NUL is not part of it, and with no NUL all of raw is."""
        self.name(k, raw.split(b"\0")[0] + b"\0")

    def comm(self, r):
        self.fixed("comm", r["comm"])

    def errno_of(self, v):
        """errno names v when v is -1..-4095, and is not there otherwise."""
        if -4095 <= v <= -1:
            name = self.key("errno", ANY)
            if name and getattr(errno, name, None) != -v and name != f"ERRNO_{-v}":
                self.fail(f"errno {name} for {v}")
        else:
            self.key("errno", present=False)

    def ret(self, ret):
        self.key("ret", ret)
        self.errno_of(ret)

    def optional(self, r, k, has):
        """The object's k is the record's when has (its flag) is set; else it is not there
        and the record's holds nothing."""
        if has:
            self.key(k, r[k])
        else:
            self.zero(r, k)
            self.key(k, present=False)

    def sysname(self, nr):
        """The syscall's name: one name for each nr, whatever object gives it."""
        v = self.key("syscall", ANY)
        if self.names.setdefault(nr, v) != v:
            self.fail(f"syscall {v!r} for nr {nr}, {self.names[nr]!r} elsewhere")
        return v

    def file(self, r, has):
        """file_tag, file_type and the path dio knows for the tag, or none of them."""
        if not has:
            self.zero(r, "tag", "ftype")
            for k in ("file_tag", "file_type", "path"):
                self.key(k, present=False)
            return
        self.key("file_tag", tag_text(r["tag"]))
        self.key("file_type", ftype_name(r["ftype"]))
        # derived from the path records before this one, as dio names them
        known = self.paths.get(r["tag"])
        if known is None:
            self.key("path", present=False)
        else:
            v = self.key("path", ANY)
            if isinstance(v, str) and text(v) != known:
                self.fail(f"path {v!r}, the path records say {known!r}")

    def syscall(self, r):
        self.head(r, "syscall", r["tid"])
        self.comm(r)
        self.key("nr", r["nr"])
        args = self.key("args", ANY) or []
        # decoded names what args holds (flags, modes): nothing of its own to compare
        decoded = self.key("decoded", present="decoded" in self.obj)
        sname = self.sysname(r["nr"])
        self.calls.add((r["tid"], r["ts"], r["nr"]))
        # registers past the call's arity are not arguments: the kernel never reads them,
        # so JSON has as many as the call takes (all six for a call dio does not know)
        if decoded is None and (len(args) != 6 or sname != f"syscall_{r['nr']}"):
            self.fail(f"a call without decoded args must be syscall_{r['nr']} with 6 args")
        if decoded is not None and len(decoded) != len(args):
            self.fail(f"{len(args)} args, {len(decoded)} decoded")
        if args != r["args"][:len(args)]:
            self.fail(f"args {args} are not the record's {r['args'][:len(args)]}")
        self.ret(r["ret"])
        self.key("duration_ns", r["duration"])
        self.key("fd", r["fd"])
        fl = r["flags"]
        # each bit is checked where its fields are
        self.flags(fl, {}, SF_FILE | SF_OFFSET | SF_STR0_TRUNC | SF_STR1_TRUNC | SF_STR0_FAULT |
                   SF_STR1_FAULT | SF_HASH)
        self.file(r, fl & SF_FILE)
        self.optional(r, "offset", fl & SF_OFFSET)
        # the open file description: with a file, when known
        self.optional(r, "ofd", fl & SF_FILE and r["ofd"])
        self.strings(r)
        self.content(r)

    def strings(self, r):
        fl, strs = r["flags"], r["strings"]
        fault = [bool(fl & SF_STR0_FAULT), bool(fl & SF_STR1_FAULT)]
        cut = [bool(fl & SF_STR0_TRUNC), bool(fl & SF_STR1_TRUNC)]
        n = 2 if strs[1] or fault[1] else 1 if strs[0] or fault[0] else 0
        got = self.key("strings", ANY, present=n > 0)
        if n and isinstance(got, list):
            if len(got) != n:
                self.fail(f"{len(got)} strings, the record has {n}")
            for i, v in enumerate(got[:n]):
                if fault[i] or not strs[i]:
                    if v is not None or strs[i]:
                        self.fail(f"string {i}: {v!r}; unreadable ({fault[i]}), bytes {strs[i]!r}")
                elif v is None or text(v) + b"\0" != strs[i]:
                    self.fail(f"string {i}: {v!r} is not the record's {strs[i]!r}")
        # which string was cut is in its length: the kernel cuts at 4096 bytes, NUL included
        for i in range(2):
            if cut[i] != (len(strs[i]) == PATH_MAX):
                self.fail(f"string {i} of {len(strs[i])} bytes, cut flag {cut[i]}")
        self.key("strings_truncated", True, present=any(cut))

    def content(self, r):
        c = r["content"]
        self.key("hash", present=c is not None)
        self.key("hashed_len", present=c is not None)
        self.key("data", present=c is not None and "data" in self.obj)
        if c is None:
            return
        h, hashed_len, data = c
        if self.user_hash:
            # --hash user: the kernel sent the bytes, dio hashes them (trace-format.md)
            if h != 0 or len(data) < hashed_len:
                self.fail(f"hash=user record with hash {h:#x}, {len(data)} of {hashed_len} bytes")
            h = fnv1a64(data[:hashed_len])
        self.key("hash", f"{h:016x}")
        self.key("hashed_len", hashed_len)
        got = self.obj.get("data")
        if self.user_hash:
            # the bytes past --capture-data are the hash's input, not captured data; which
            # part was captured the file does not say (dio dump writes none of it)
            if got is not None and text(got) != data[:len(text(got))]:
                self.fail(f"data {got!r} is not the start of the record's {data!r}")
        elif data:
            if got is None or text(got) != data:
                self.fail(f"data {got!r} is not the record's {data!r}")
        elif got is not None:
            self.fail(f"data {got!r}, the record has none")

    def path(self, r):
        # a path record has no thread of its own: tid is the pid of the caller
        self.head(r, "path", r["pid"])
        self.key("file_tag", tag_text(r["tag"]))
        self.key("file_type", ftype_name(r["ftype"]))
        self.name("path", r["path"])
        fl = r["flags"]
        self.flags(fl, {"truncated": PF_TRUNC, "deleted": PF_DELETED,
                        "renamed": PF_RENAMED}, PF_TRUNC_HEAD | PF_TRUNC_TAIL)
        # a cut path: which part, in the record and in the name dio gives it
        head = bool(fl & PF_TRUNC_HEAD)
        tail = bool(fl & PF_TRUNC_TAIL) or not head
        cut = "both" if head and tail else "start" if head else "end"
        self.key("cut", cut, present=bool(fl & PF_TRUNC))
        name = proc_fd_name(r["ftype"], r["tag"][1], r["path"][:-1])
        if fl & PF_TRUNC:
            name = (b"..." if head else b"") + r["path"][:-1] + (b"..." if tail else b"")
        self.paths[r["tag"]] = name

    def iouring(self, r):
        self.head(r, "io_uring", r["tid"])
        self.comm(r)
        self.key("opcode", r["opcode"])
        self.key("op", ANY)
        self.key("fd", r["fd"])
        fl = r["flags"]
        self.flags(fl, {"fixed": IF_FIXED, "sqpoll": IF_SQPOLL}, IF_FILE)
        # the u64 offset as signed: all ones (the file position) reads -1
        off = self.key("offset", ANY)
        if isinstance(off, int) and off % (1 << 64) != r["offset"]:
            self.fail(f"offset {off} is not the record's {r['offset']}")
        self.key("len", r["len"])
        self.key("user_data", r["user_data"])
        self.ret(r["res"])
        self.key("duration_ns", r["duration"])
        self.file(r, fl & IF_FILE)
        if r["pad"] != b"\0" * 5:
            self.fail(f"pad {r['pad']!r}")

    def proc(self, r):
        self.head(r, "proc", r["tid"])
        self.comm(r)
        self.key("mnt_ns", r["mnt_ns"])
        if r["pad"]:
            self.fail(f"pad {r['pad']!r}")
        kind = PROC_KINDS.get(r["kind"])
        self.key("kind", kind)
        fl = r["flags"]
        if kind == "fork":
            self.key("child_pid", r["other_pid"])
            self.key("child_tid", r["other_tid"])
            self.flags(fl, {"thread": PROCF_THREAD})
            self.zero(r, "exit_code")
        elif kind == "exec":
            self.key("old_tid", r["other_tid"])
            self.zero(r, "other_pid", "exit_code")
            self.flags(fl, {})
        elif kind == "exit":
            code = r["exit_code"]
            self.key("exit_code", code)
            self.flags(fl, {"group_dead": PROCF_GROUP_DEAD})
            # derived from exit_code, as wait(2)'s macros do
            killed = code & 0x7F
            self.key("signal", killed, present=bool(killed))
            self.key("core_dumped", bool(code & 0x80), present=bool(killed))
            self.key("exit_status", (code >> 8) & 0xFF, present=not killed)
            self.zero(r, "other_pid", "other_tid")
        else:
            self.zero(r, "other_pid", "other_tid", "exit_code")
            self.flags(fl, {})

    def in_call(self, r, has):
        """syscall, nr and sys_ts_ns of the call the thread was in, or none of them."""
        if has:
            self.sysname(r["nr"])
            self.key("nr", r["nr"])
            self.key("sys_ts_ns", r["sys_ts"] + self.offset)
            self.in_calls.append((self.where, r["tid"], r["sys_ts"], r["nr"]))
            return
        self.zero(r, "nr", "sys_ts")
        for k in ("syscall", "nr", "sys_ts_ns"):
            self.key(k, present=False)

    def block(self, r):
        self.head(r, "block", r["tid"])
        self.comm(r)
        self.fixed("rwbs", r["rwbs"])
        self.key("dev", f"{r['dev'] >> 20}:{r['dev'] & 0xFFFFF}")
        self.key("sector", r["sector"])
        self.key("bytes", r["bytes"])
        self.key("error", r["error"])
        self.errno_of(r["error"])
        self.key("duration_ns", r["duration"])
        fl = r["flags"]
        self.flags(fl, {"queued": BF_QUEUED, "kthread": BF_KTHREAD}, BF_SYSCALL)
        self.optional(r, "queue_ns", fl & BF_QUEUED)
        self.in_call(r, fl & BF_SYSCALL)
        self.zero(r, "pad")

    def runq(self, r):
        self.head(r, "runq", r["tid"])
        self.comm(r)
        fl = r["flags"]
        self.flags(fl, {"preempted": RF_PREEMPTED}, RF_SYSCALL)
        self.key("duration_ns", r["delay"])
        self.key("prev_pid", r["prev_pid"])
        self.key("prev_tid", r["prev_tid"])
        self.fixed("prev_comm", r["prev_comm"])
        self.in_call(r, fl & RF_SYSCALL)
        if r["pad"] != b"\0" * 5:
            self.fail(f"pad {r['pad']!r}")

    def calls_found(self):
        """The call a request or a wait was in is a syscall record of the trace, the one
        sys_ts_ns finds (docs/json-schema.md): the tests trace without filters or losses,
        but for anonymous mmap and munmap, which dio never records."""
        for self.where, tid, ts, nr in self.in_calls:
            # mmap of anonymous memory and munmap of it are not storage calls: dio
            # leaves them out by design, and a wait or request may come during one
            if nr in (9, 11):
                continue
            if (tid, ts, nr) not in self.calls:
                self.fail(f"no syscall record of thread {tid} entered at {ts} with nr {nr}")

    def pair(self, n, rec, obj):
        self.where = f"record {n}"
        self.obj, self.used = obj, set()
        r = parse(rec)
        if r["size"] != len(rec):
            self.fail(f"hdr.size {r['size']} of a {len(rec)}-byte record")
        {EV_SYSCALL: self.syscall, EV_PATH: self.path, EV_IOURING: self.iouring,
         EV_PROC: self.proc, EV_BLOCK: self.block, EV_RUNQ: self.runq}[r["type"]](r)
        # and nothing in the object that the record did not give
        for k in sorted(set(obj) - self.used):
            self.fail(f"{k} ({obj[k]!r}) comes from nowhere in the record")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("json")
    ap.add_argument("--rel-base", choices=("first", "any"), default="first")
    a = ap.parse_args()
    try:
        meta, recs = read_trace(a.trace)
        for k in ("format", "realtime_offset_ns", "mode", "hash"):
            if k not in meta:
                raise TraceError(f"metadata without {k}")
    except (TraceError, OSError, zlib.error) as e:
        print(f"FAIL: {a.trace}: {e}")
        return 1
    with open(a.json, encoding="utf-8", errors="surrogateescape") as f:
        objs = [json.loads(line) for line in f]
    objs = [o for o in objs if o.get("type") != "finding"]
    unknown = sorted({struct.unpack_from("<H", r)[0] for r in recs} - set(PARSE))
    if unknown:
        print(f"FAIL: {a.trace} holds records of type {unknown} (include/dio/event.h) that "
              f"this reader, and maybe the json sink and docs/json-schema.*, do not know yet")
        return 1
    if len(objs) != len(recs):
        print(f"FAIL: {a.trace} holds {len(recs)} records, {a.json} {len(objs)} objects")
        return 1
    c = Check(meta, a.rel_base)
    for n, (rec, obj) in enumerate(zip(recs, objs)):
        try:
            c.pair(n, rec, obj)
        except TraceError as e:
            c.fail(str(e))
    c.calls_found()
    for e in c.errors[:20]:
        print(e)
    if len(c.errors) > 20:
        print(f"... {len(c.errors) - 20} more")
    if c.errors:
        return 1
    print(f"ok: {a.json}: all {len(recs)} records of {a.trace}, every field")
    return 0


if __name__ == "__main__":
    sys.exit(main())
