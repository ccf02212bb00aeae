# SPDX-License-Identifier: GPL-2.0-or-later
"""The checks of a real-program case, on the findings of `dio analyze
--analyzer all` (the json sink's file) and, where the case ran strace too,
on the numbers strace saw (stracelog.py).

    c = Case("sqlite3-autocommit")          # $TMP/sqlite3-autocommit.json
    log = c.strace()                        # $TMP/strace/sqlite3-autocommit.log
    c.expect("redundant-open.create-unlink", pid, count, path)
    c.allow("errors.burst", "why this finding is right too")
    c.forbid("reuse-offset.stale-offset")   # not even as INFO
    c.done()                                # the other checks, the table, the exit

A bug case names each finding it must have (code, process, count and, when
the group has one file, its path). Every other WARNING or ERROR finding fails
the case unless the case allows its code and says why; a correct counterpart
allows none, and forbids its bug case's codes at any severity. In every case:
at most one finding per code and process (dio groups a process's files under
one finding), at most 25 findings in all. Findings about strace itself, where
a case runs it, are shown and not judged; the latency analyzer's, which
measure the machine rather than the program, are never unexpected but count
towards those two limits.

The cases added in the corpus's second round (README.md) are judged by what a
correct tool should say of a real program (`c.families()`): a correct program
gets no finding of the families errors, redundant-open and reuse-offset, at
any severity, and at most 15 findings in all; a bug case gets the findings it
expects, no other finding of those families unless it allows the code and
says why, and at most 15 findings. Findings of the other families
(access-pattern, contention, summary, latency) are shown and counted, not
judged by their code.
"""
import json
import os
import sys

# the severity each code must have: error for likely data loss, warning for a
# measured cost (docs/diagnosis.md)
SEVERITY = {
    "redundant-open.churn": "warning",
    "redundant-open.create-unlink": "warning",
    "redundant-open.duplicate-read": "warning",
    "reuse-offset.stale-offset": "error",
    "reuse-offset.read-past-end": "error",
    "contention.background-io": "warning",
    "durability.unsynced-replace": "warning",
    "durability.truncate-rewrite": "warning",
    "durability.fsync-error": "error",
    "durability.short-write": "error",
}
# what a power cut could lose: the codes a program that saves its files right never gets
DURABILITY = ("durability.unsynced-replace", "durability.truncate-rewrite",
              "durability.fsync-error", "durability.short-write")
MAX_FINDINGS = 25
# the families a correct program never earns, and the limit on findings, in
# the cases judged with Case.families()
FAMILIES = ("errors.", "redundant-open.", "reuse-offset.")
FAMILY_MAX_FINDINGS = 15
# a duration as a title or message states one ("1.2 ms", "340 us", "2 s")
DURATION = r"\d+(?:\.\d+)? ?(?:ns|us|µs|ms|s)\b"
# findings about the machine, not the program: how long a thread waited for a
# CPU and a request for the disk depends on what else runs there (CI machines
# and developers' are shared). No case expects or forbids them.
MACHINE = {
    "latency.runq-delay": "a thread waited for a CPU: the machine's load",
    "latency.slow-block-requests": "the disk was slow: the machine's load",
    # counted since the in-flight tables stopped evicting silently: on a busy
    # machine the kernel skips dio's program for some block completions
    # (lost_block_unseen); a case whose numbers a loss changes fails on those
    "summary.lost-events": "records dio lost, each counted with its reason: the machine's load",
}


class Case:
    def __init__(self, name, tmp=None):
        self.name = name
        self.tmp = tmp or os.environ["TMP"]
        self.findings = []
        # strace's own calls (the -y lookups of /proc/PID/fd) are no part of
        # the case: their findings are only shown
        self.strace_own = []
        with open(os.path.join(self.tmp, name + ".json"), errors="surrogateescape") as js:
            for line in js:
                if '"type":"finding"' in line:
                    o = json.loads(line)
                    (self.strace_own if o.get("comm") == "strace" else self.findings).append(o)
        self.expected = []
        self.allowed = {}
        self.forbidden = set()
        self.failures = []
        self.by_family = False

    def strace(self):
        """The strace log recorded with the case (lib.sh: STRACE=1 record ...)."""
        import stracelog
        return stracelog.Log(os.path.join(self.tmp, "strace", self.name + ".log"))

    def fail(self, msg):
        self.failures.append(msg)

    def expect(self, code, pid, count, path=None):
        """One finding of code for process pid, with this count (None: any)
        and path."""
        self.expected.append((code, pid))
        got = [f for f in self.findings if f["code"] == code and f["pid"] == pid]
        want = f"{code} pid {pid}" + (f" count {count}" if count is not None else "") + \
            (f" path {path}" if path else "")
        if not got:
            others = [f"pid {f['pid']} count {f.get('count')}" for f in self.findings
                      if f["code"] == code]
            self.fail(f"missing: {want}" + (f" (dio has it for {', '.join(others)})"
                                            if others else ""))
            return
        f = got[0]
        if count is not None and f.get("count") != count:
            self.fail(f"{code} pid {pid}: count {f.get('count')}, expected {count}")
        if path is not None and f.get("path") != path:
            self.fail(f"{code} pid {pid}: path {f.get('path')!r}, expected {path!r}")
        sev = SEVERITY.get(code)
        if sev and f["severity"] != sev:
            self.fail(f"{code} pid {pid}: severity {f['severity']}, expected {sev}")

    def maybe(self, code, pid, count, path=None, why=""):
        """A finding of code for process pid is right but not required (why);
        if dio makes it, it has this count and path."""
        if any(f["code"] == code and f["pid"] == pid for f in self.findings):
            self.expect(code, pid, count, path)
        else:
            self.expected.append((code, pid))
            print(f"  optional, not made: {code} pid {pid} count {count}: {why}")

    def families(self):
        """Judge this case by the families rule (module doc): a finding of
        errors.*, redundant-open.* or reuse-offset.* that the case neither
        expects nor allows fails it, whatever its severity; others are
        shown and counted."""
        self.by_family = True

    def expect_across(self, code, pids, count, path):
        """One finding of code with this count and path for work that
        several processes did (pids: those processes and the one that
        started them): a single finding, not one per process, which states
        what the work cost in time (a duration in its title or message)."""
        import re
        got = [f for f in self.findings if f["code"] == code and f.get("path") == path]
        if not got:
            self.fail(f"missing: one {code} count {count} path {path} for the"
                      f" {len(pids)} processes")
            return
        if len(got) > 1:
            self.fail(f"{len(got)} findings {code} on {path}: expected one for all the"
                      " processes")
        f = got[0]
        self.expected.extend((code, g["pid"]) for g in got)
        if f["pid"] not in pids:
            self.fail(f"{code} on {path}: pid {f['pid']} is none of the processes that did"
                      " the work")
        if f.get("count") != count:
            self.fail(f"{code} on {path}: count {f.get('count')}, expected {count}")
        text = f.get("title", "") + " " + f.get("message", "")
        if not re.search(DURATION, text):
            self.fail(f"{code} on {path}: no time cost stated: {f['title'][:200]!r}")
        sev = SEVERITY.get(code)
        if sev and f["severity"] != sev:
            self.fail(f"{code} on {path}: severity {f['severity']}, expected {sev}")

    def durability(self, log, pid):
        """The durability analyzer against strace, for process pid: each
        rename of a file it wrote over an existing one with bytes no fsync or
        fdatasync made durable (unsynced-replace: count the bytes, path the
        first target), each file read, then opened O_TRUNC, written and closed
        with no sync (truncate-rewrite: count the bytes read); where strace saw
        none, the code is forbidden, and so are failed syncs and short writes
        (strace saw none in the corpus)."""
        for code, got in (("durability.unsynced-replace", log.unsynced_replaces(pid)),
                          ("durability.truncate-rewrite", log.truncated_rewrites(pid))):
            print(f"strace: {code.split('.')[1]} by pid {pid}: {got or 'none'}")
            if got:
                self.expect(code, pid, sum(n for _, n in got), got[0][0])
            else:
                self.forbid(code)
        self.forbid("durability.fsync-error", "durability.short-write")

    def forbid(self, *codes):
        """No finding of these codes at all, whatever its severity: a correct
        counterpart must not get its bug case's codes, even as INFO."""
        self.forbidden.update(codes)

    def allow(self, code, why):
        """WARNING or ERROR findings of code are right too in this case: why."""
        self.allowed[code] = why

    def done(self, most=None):
        """Print the findings, make the checks every case makes (no more than
        most findings: 25, or 15 in a case judged by families), and exit."""
        if most is None:
            most = FAMILY_MAX_FINDINGS if self.by_family else MAX_FINDINGS
        print(f"{self.name}: {len(self.findings)} findings")
        for f in self.findings[:MAX_FINDINGS]:
            print(f"  {f['severity']:7} {f['code']} pid {f['pid']} ({f.get('comm')})"
                  f" count {f.get('count')} {f.get('path') or ''}")
            print(f"          {f['title'][:300]}")
        if len(self.findings) > MAX_FINDINGS:
            print(f"  ... {len(self.findings) - MAX_FINDINGS} more")
        for f in self.strace_own:
            print(f"  (strace's own: {f['severity']} {f['code']} {f['title'][:200]})")
        unexpected = {}
        for f in self.findings:
            if f["code"] in self.forbidden:
                why = "forbidden"
            elif self.by_family:
                if not f["code"].startswith(FAMILIES) or f["code"] in self.allowed \
                        or (f["code"], f["pid"]) in self.expected:
                    continue
                why = "unexpected"
            elif f["severity"] not in ("warning", "error") or f["code"] in MACHINE \
                    or (f["code"], f["pid"]) in self.expected or f["code"] in self.allowed:
                continue
            else:
                why = "unexpected"
            k = (why, f["severity"], f["code"], f["pid"], f.get("comm"), f.get("path") or "")
            unexpected.setdefault(k, []).append(f)
        for (why, sev, code, pid, comm, path), fs in unexpected.items():
            n = f" ({len(fs)} findings)" if len(fs) > 1 else ""
            self.fail(f"{why} {sev} {code} pid {pid} ({comm}) {path}{n}:"
                      f" {fs[0]['title'][:200]}")
        seen = {}
        for f in self.findings:
            k = (f["code"], f["pid"])
            seen[k] = seen.get(k, 0) + 1
        for (code, pid), n in sorted(seen.items()):
            if n > 1:
                self.fail(f"{n} findings {code} for pid {pid}: expected at most one per code"
                          " and process")
        # findings dio made but did not show (its --max-findings) count too
        hidden = sum(f.get("count") or 0 for f in self.findings
                     if f["code"] == "dio.findings-left-out")
        if len(self.findings) + hidden > most:
            shown = f" ({hidden} of them not shown)" if hidden else ""
            self.fail(f"{len(self.findings) + hidden} findings{shown}, more than {most}")
        for code, why in self.allowed.items():
            print(f"  allowed: {code}: {why}")
        for m in self.failures:
            print(f"FAIL: {self.name}: {m}")
        if not self.failures:
            print(f"ok: {self.name}")
        sys.exit(1 if self.failures else 0)


def appends(c, log, prog, path):
    """The open-close cycles in which process prog (the only one that ran
    it) wrote one line to path: as many as it opened it, or a failure."""
    pid = log.pid(prog)
    cycles = log.opened(pid, path)
    bad = [d for d in cycles if len(d.writes) != 1 or d.end is None]
    print(f"strace: {prog} (pid {pid}) opened {path} {len(cycles)} times, "
          f"{len(cycles) - len(bad)} times to write one line and close it")
    if not cycles or bad:
        c.fail(f"strace: {prog} did not write one line per open of {path}")
    return pid, len(cycles)


def resumed(c, log, pid, path, cut):
    """Where process pid went on reading path after the call cut (the file
    was cut or replaced there): (the bytes written to path after cut, the
    offset of pid's first read after cut that got bytes, the bytes below
    that offset that its reading position never read, that read's call).
    Fails the case and ends it when pid read nothing after cut."""
    import stracelog
    new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
    reads = sorted((r.seq, o, d, r) for d in log.opened(pid, path) for o, n, r in d.reads
                   if r.seq > cut.seq and n > 0)
    if not reads:
        c.fail(f"strace: pid {pid} read nothing of {path} after {cut.name}")
        c.done()
    _, at, pos, call = reads[0]
    return new, at, log.unread([pos], 0, min(at, new), after=cut.seq), call


def ab_report(c, out, access, requests, logged):
    """ApacheBench's report (the file out) of a keep-alive run: requests
    complete, none failed nor answered other than 2xx, at least 95 % kept
    alive, and logged lines in the server's access log (the file access)
    for GET /index.html answered 200; a failure of c otherwise."""
    import re
    text = open(out).read()

    def num(key):
        m = re.search(key + r":\s+(\d+)", text)
        return int(m.group(1)) if m else 0

    lines = sum(1 for l in open(access) if '"GET /index.html HTTP/1.0" 200 ' in l)
    print(f"ab: {num('Complete requests')} complete, {num('Failed requests')} failed,"
          f" {num('Non-2xx responses')} non-2xx, {num('Keep-Alive requests')} kept alive;"
          f" the access log has {lines} lines of 200 answers")
    if num("Complete requests") != requests or num("Failed requests") \
            or num("Non-2xx responses") or num("Keep-Alive requests") < requests * 0.95 \
            or lines != logged:
        c.fail(f"ab: expected {requests} keep-alive requests answered 200, none failed,"
               f" {logged} lines logged")


def whole_reads(log, pid, at_least=2):
    """{path: times} of the files process pid opened and read whole (from
    offset 0 to the end) at least at_least times, while no process wrote to
    them."""
    written = {d.path for d in log.descriptions if d.writes}
    times = {}
    for d in log.descriptions:
        if d.tgid == pid and d.whole() and d.path not in written:
            times[d.path] = times.get(d.path, 0) + 1
    return {p: n for p, n in times.items() if n >= at_least}
