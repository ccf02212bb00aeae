#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What a dio report page's series over time must hold, worked out anew from the records.

    model.py PAGE.html RECORDS.json [--expect-lane-names]

RECORDS.json is the same trace through the json sink (`dio dump FILE --sink json:file=...`),
one record a line. From it this works out, independently of the html sink's C code, the
bucket width (1 us doubled until the last call, request or wait ends within 1024 buckets of
the first record), and per bucket: each thread's calls and time in calls (split across the
buckets a call spans) with the class that took the most time, each thread group's calls and
bytes, each device's requests, time in flight and bytes, the run-queue waits, the offsets
each process read and wrote in each file, and the slowest calls. Every series the page
shows must equal it exactly; the threads and files the page leaves out must be the ones
ranked below those it shows. Prints one line per difference; exit 1 if there is any.
"""

import collections
import json
import re
import sys

BUCKETS = 1024
SPANS = 400
CLASSES = ["data", "sync", "meta", "dir", "xattr", "async", "other"]
# the calls whose positive result counts bytes read or written (dio_syscall_info.io)
READS = {"read", "pread64", "readv", "preadv", "preadv2"}
WRITES = {"write", "pwrite64", "writev", "pwritev", "pwritev2"}
BACKGROUND = "rocksdb:low,rocksdb:high,rocksdb:bottom,compact,flush,bg".split(",")
SUBSCRIBED = {"syscall", "path", "iouring", "proc", "block", "runq"}


def page_data(path):
    page = open(path, encoding="utf-8").read()
    m = re.search(r'<script id="dio-data" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def thread_group(comm):
    """dio_thread_group: the name without its trailing number and the separator before it."""
    comm = comm[:15]
    n = len(comm.rstrip("0123456789"))
    if n < len(comm) and n and comm[n - 1] in ":-_. ":
        n -= 1
    return comm[:n] if n else comm


def is_error(ret):
    return -4095 <= ret < 0


class Model:
    def __init__(self, records, classes):
        self.recs = [r for r in records if r["type"] in SUBSCRIBED]
        self.t0 = self.recs[0]["ts_ns"]
        self.first = min(r["ts_ns"] for r in self.recs)
        ends = [r["ts_ns"] + r["duration_ns"] for r in self.recs
                if r["type"] in ("syscall", "block", "runq")]
        self.width = 1000
        while ends and max(max(e - self.t0, 0) // self.width for e in ends) >= BUCKETS:
            self.width *= 2
        self.classes = classes
        self.calls = [r for r in self.recs if r["type"] == "syscall"]

    def at(self, ts):
        return max(ts - self.t0, 0) // self.width

    def spread(self, ts, dur):
        """(bucket, ns of [ts, ts + dur) in it) for each bucket the span touches"""
        for b in range(self.at(ts), self.at(ts + dur) + 1):
            lo = self.t0 + b * self.width
            s, e = max(ts, lo), min(ts + dur, lo + self.width)
            yield b, max(e - s, 0)

    def lanes(self):
        """per tid: calls, ns, names in order, cells {b: [calls, ns per class]}"""
        out = {}
        for r in self.calls:
            ln = out.setdefault(r["tid"], {"pid": r["pid"], "calls": 0, "ns": 0, "names": [],
                                           "cells": collections.defaultdict(lambda: [0] + [0] * 7)})
            if not ln["names"] or ln["names"][-1][1] != r["comm"]:
                entry = [r["ts_ns"] - self.first, r["comm"]]
                if len(ln["names"]) < 4:
                    ln["names"].append(entry)
                else:
                    ln["names"][-1] = entry
            ln["pid"] = r["pid"]
            ln["calls"] += 1
            ln["ns"] += r["duration_ns"]
            cls = CLASSES.index(self.classes[r["syscall"]])
            ln["cells"][self.at(r["ts_ns"])][0] += 1
            for b, ns in self.spread(r["ts_ns"], r["duration_ns"]):
                ln["cells"][b][1 + cls] += ns
        return out

    @staticmethod
    def lane_cells(cells):
        rows = []
        for b in sorted(cells):
            c = cells[b]
            ns = sum(c[1:])
            if not ns and not c[0]:
                continue
            top = 0
            for k in range(7):
                if c[1 + k] > c[1 + top]:
                    top = k
            rows.append([b, c[0], ns, top])
        return rows

    def groups(self):
        out = {}
        for r in self.calls:
            g = out.setdefault((r["pid"], thread_group(r["comm"])),
                               {"calls": 0, "read": 0, "written": 0, "cells": {}})
            rb = r["ret"] if r["ret"] > 0 and r["syscall"] in READS else 0
            wb = r["ret"] if r["ret"] > 0 and r["syscall"] in WRITES else 0
            g["calls"] += 1
            g["read"] += rb
            g["written"] += wb
            c = g["cells"].setdefault(self.at(r["ts_ns"]), [0, 0, 0])
            c[0] += 1
            c[1] += rb
            c[2] += wb
        return out

    def devices(self):
        out = {}
        for r in self.recs:
            if r["type"] != "block":
                continue
            d = out.setdefault(r["dev"], {"requests": 0, "cells": {}})
            op = r["rwbs"][1:] if r["rwbs"][:1] == "F" and r["rwbs"][1:2] in ("R", "W") else r["rwbs"]
            d["requests"] += 1
            c = d["cells"].setdefault(self.at(r["ts_ns"]), [0, 0, 0, 0])
            c[0] += 1
            c[2] += r["bytes"] if op[:1] == "R" else 0
            c[3] += r["bytes"] if op[:1] == "W" else 0
            for b, ns in self.spread(r["ts_ns"], r["duration_ns"]):
                d["cells"].setdefault(b, [0, 0, 0, 0])[1] += ns
        return out

    def runq(self):
        cells = {}
        n = 0
        for r in self.recs:
            if r["type"] != "runq":
                continue
            n += 1
            cells.setdefault(self.at(r["ts_ns"]), [0, 0])[0] += 1
            for b, ns in self.spread(r["ts_ns"], r["duration_ns"]):
                cells.setdefault(b, [0, 0])[1] += ns
        return n, cells

    def offsets(self):
        out = {}
        for r in self.calls:
            if "offset" not in r or "file_tag" not in r or is_error(r["ret"]):
                continue
            if r["syscall"] not in READS | WRITES:
                continue
            op = "write" if r["syscall"] in WRITES else "read"
            s = out.setdefault((r["file_tag"], r["pid"], op), {"calls": 0, "cells": {}})
            s["calls"] += 1
            c = s["cells"].get(self.at(r["ts_ns"]))
            end = r["offset"] + max(r["ret"], 0)
            if c is None:
                c = s["cells"][self.at(r["ts_ns"])] = [r["offset"], end, 0, 0]
            c[0] = min(c[0], r["offset"])
            c[1] = max(c[1], end)
            c[2] += 1
            c[3] += op == "read" and r["ret"] == 0
        return out


def check(d, records, lane_names):
    bad = []
    t = d["timeline"]
    classes = {s["name"]: s["class"] for s in d["syscalls"]}
    m = Model(records, classes)
    if t["width"] != m.width:
        bad.append(f"bucket width {t['width']} ns, expected {m.width}")
        return bad
    if t["origin"] != m.t0 - m.first:
        bad.append(f"origin {t['origin']}, expected {m.t0 - m.first}")
    if t["buckets"] > BUCKETS:
        bad.append(f"{t['buckets']} buckets, at most {BUCKETS}")

    lanes = m.lanes()
    shown = {ln["tid"]: ln for ln in t["lanes"]}
    others = {"calls": 0, "ns": 0, "cells": collections.defaultdict(lambda: [0] + [0] * 7)}
    for tid, ln in lanes.items():
        if tid not in shown:
            others["calls"] += ln["calls"]
            others["ns"] += ln["ns"]
            for b, c in ln["cells"].items():
                for k in range(8):
                    others["cells"][b][k] += c[k]
            continue
        got = shown[tid]
        want = Model.lane_cells(ln["cells"])
        if got["cells"] != want:
            bad.append(f"thread {tid}: cells differ, first {got['cells'][:3]} against {want[:3]}")
        if (got["calls"], got["ns"], got["pid"]) != (ln["calls"], ln["ns"], ln["pid"]):
            bad.append(f"thread {tid}: {got['calls']} calls {got['ns']} ns, expected {ln['calls']} {ln['ns']}")
        if lane_names and got["names"] != ln["names"]:
            bad.append(f"thread {tid}: names {got['names']}, expected {ln['names']}")
        if got["group"] != thread_group(ln["names"][-1][1]):
            bad.append(f"thread {tid}: group {got['group']!r}")
    if set(shown) - set(lanes):
        bad.append(f"lanes of threads with no calls: {set(shown) - set(lanes)}")
    if len(shown) < min(len(lanes), 40):
        bad.append(f"{len(shown)} lanes for {len(lanes)} threads")
    # the threads left out are no busier than the least busy shown (findings' threads aside)
    named = {f["tid"] for f in d["findings"]}
    least = min((lanes[tid]["ns"] for tid in shown if tid not in named), default=0)
    for tid, ln in lanes.items():
        if tid not in shown and ln["ns"] > least:
            bad.append(f"thread {tid} ({ln['ns']} ns in calls) left out for a quieter one")
    o = t["others"]
    if (o["calls"], o["ns"]) != (others["calls"], others["ns"]) or \
            o["cells"] != Model.lane_cells(others["cells"]):
        bad.append(f"other threads: {o['calls']} calls {o['ns']} ns, expected {others['calls']} {others['ns']}")
    if sum(ln["calls"] for ln in t["lanes"]) + o["calls"] != d["calls"]:
        bad.append("the lanes do not add up to the calls")

    groups = m.groups()
    for g in d["rates"]["groups"]:
        w = groups.get((g["pid"], g["name"]))
        if not w:
            bad.append(f"group {g['name']} of {g['pid']} has no calls")
            continue
        cells = [[b] + c for b, c in sorted(w["cells"].items())]
        if (g["calls"], g["read"], g["written"]) != (w["calls"], w["read"], w["written"]) or g["cells"] != cells:
            bad.append(f"group {g['name']}: {g['calls']} calls {g['read']} read {g['written']} written, "
                       f"expected {w['calls']} {w['read']} {w['written']} (or its cells differ)")
        if g["background"] != any(g["name"].lower().startswith(p) for p in BACKGROUND):
            bad.append(f"group {g['name']}: background {g['background']}")
    if len(d["rates"]["groups"]) != min(len(groups), 12):
        bad.append(f"{len(d['rates']['groups'])} groups shown of {len(groups)}")

    devs = m.devices()
    got = {x["dev"]: x for x in t["devices"]}
    if set(got) != set(devs):
        bad.append(f"devices {sorted(got)}, expected {sorted(devs)}")
    for dev, w in devs.items():
        g = got.get(dev)
        cells = [[b] + c for b, c in sorted(w["cells"].items()) if c[0] or c[1]]
        if g and (g["requests"] != w["requests"] or g["cells"] != cells):
            bad.append(f"device {dev}: {g['requests']} requests, expected {w['requests']} (or its cells differ)")
    n, cells = m.runq()
    if t["runq"]["waits"] != n or t["runq"]["cells"] != [[b] + c for b, c in sorted(cells.items()) if c[0] or c[1]]:
        bad.append(f"run-queue waits: {t['runq']['waits']}, expected {n} (or the cells differ)")

    offs = m.offsets()
    for s in d["offsets"]["offsets"]:
        w = offs.get((s["tag"], s["pid"], s["op"]))
        cells = w and [[b] + c for b, c in sorted(w["cells"].items())]
        if not w or s["calls"] != w["calls"] or s["cells"] != cells:
            bad.append(f"offsets of {s['path']} {s['pid']} {s['op']}: {s['calls']} calls, expected "
                       f"{w and w['calls']} (or the cells differ: {s['cells'][:3]} against {cells and cells[:3]})")
    if d["offsets"]["offset_series"] != len(offs):
        bad.append(f"{d['offsets']['offset_series']} offset series, expected {len(offs)}")

    want = sorted((r["duration_ns"] for r in m.calls), reverse=True)[:SPANS]
    got = sorted((s[1] for s in t["spans"]), reverse=True)
    if got != want:
        bad.append(f"slowest calls {got[:5]}..., expected {want[:5]}...")
    for s in t["spans"]:
        if not any(r["ts_ns"] - m.first == s[0] and r["tid"] == s[2] and r["syscall"] == s[3]
                   for r in m.calls if r["duration_ns"] == s[1]):
            bad.append(f"slowest call {s} is no call of the trace")
            break
    return bad


def main():
    d = page_data(sys.argv[1])
    records = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
    bad = check(d, records, "--expect-lane-names" in sys.argv[3:])
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        t = d["timeline"]
        print(f"ok: {len(t['lanes'])} lanes, {len(d['rates']['groups'])} groups, {len(t['devices'])} devices, "
              f"{len(d['offsets']['offsets'])} offset series, {len(t['spans'])} slowest calls, "
              f"buckets of {t['width']} ns: as worked out from the records")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
