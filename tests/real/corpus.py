# SPDX-License-Identifier: GPL-2.0-or-later
"""The checks of a real-program case, on the findings of `dio analyze
--analyzer all` (the json sink's file) and, where the case ran strace too,
on the numbers strace saw (stracelog.py).

    c = Case("sqlite3-autocommit")          # $TMP/sqlite3-autocommit.json
    log = c.strace()                        # $TMP/strace/sqlite3-autocommit.log
    c.expect("redundant-open.create-unlink", pid, count, path)
    c.allow("errors.burst", "why this finding is right too")
    c.done()                                # the other checks, the table, the exit

A bug case names each finding it must have (code, process, count and, when
the group has one file, its path). Every other WARNING or ERROR finding fails
the case unless the case allows its code and says why; a correct counterpart
allows none. In every case: at most one finding per code and process (dio
groups a process's files under one finding), at most 25 findings in all.
"""
import json
import os
import sys

# the severity each code must have
SEVERITY = {
    "redundant-open.churn": "warning",
    "redundant-open.create-unlink": "warning",
    "redundant-open.duplicate-read": "warning",
    "reuse-offset.stale-offset": "error",
    "reuse-offset.read-past-end": "warning",
    "contention.background-io": "warning",
}
MAX_FINDINGS = 25


class Case:
    def __init__(self, name, tmp=None):
        self.name = name
        self.tmp = tmp or os.environ["TMP"]
        self.findings = []
        with open(os.path.join(self.tmp, name + ".json"), errors="surrogateescape") as f:
            for line in f:
                if '"type":"finding"' in line:
                    self.findings.append(json.loads(line))
        self.expected = []
        self.allowed = {}
        self.failures = []

    def strace(self):
        """The strace log recorded with the case (lib.sh: STRACE=1 record ...)."""
        import stracelog
        return stracelog.Log(os.path.join(self.tmp, "strace", self.name + ".log"))

    def fail(self, msg):
        self.failures.append(msg)

    def expect(self, code, pid, count, path=None):
        """One finding of code for process pid, with this count (and path)."""
        self.expected.append((code, pid))
        got = [f for f in self.findings if f["code"] == code and f["pid"] == pid]
        want = f"{code} pid {pid} count {count}" + (f" path {path}" if path else "")
        if not got:
            others = [f"pid {f['pid']} count {f.get('count')}" for f in self.findings
                      if f["code"] == code]
            self.fail(f"missing: {want}" + (f" (dio has it for {', '.join(others)})"
                                            if others else ""))
            return
        f = got[0]
        if f.get("count") != count:
            self.fail(f"{code} pid {pid}: count {f.get('count')}, expected {count}")
        if path is not None and f.get("path") != path:
            self.fail(f"{code} pid {pid}: path {f.get('path')!r}, expected {path!r}")
        sev = SEVERITY.get(code)
        if sev and f["severity"] != sev:
            self.fail(f"{code} pid {pid}: severity {f['severity']}, expected {sev}")

    def allow(self, code, why):
        """WARNING or ERROR findings of code are right too in this case: why."""
        self.allowed[code] = why

    def done(self):
        """Print the findings, make the checks every case makes, and exit."""
        print(f"{self.name}: {len(self.findings)} findings")
        for f in self.findings:
            print(f"  {f['severity']:7} {f['code']} pid {f['pid']} ({f.get('comm')})"
                  f" count {f.get('count')} {f.get('path') or ''}")
            print(f"          {f['title']}")
        for f in self.findings:
            if f["severity"] not in ("warning", "error"):
                continue
            if (f["code"], f["pid"]) in self.expected or f["code"] in self.allowed:
                continue
            self.fail(f"unexpected {f['severity']} {f['code']} pid {f['pid']} ({f.get('comm')})"
                      f" {f.get('path') or ''}: {f['title']}")
        seen = {}
        for f in self.findings:
            k = (f["code"], f["pid"])
            seen[k] = seen.get(k, 0) + 1
        for (code, pid), n in sorted(seen.items()):
            if n > 1:
                self.fail(f"{n} findings {code} for pid {pid}: expected at most one per code"
                          " and process")
        if len(self.findings) > MAX_FINDINGS:
            self.fail(f"{len(self.findings)} findings, more than {MAX_FINDINGS}")
        for code, why in self.allowed.items():
            print(f"  allowed: {code}: {why}")
        for m in self.failures:
            print(f"FAIL: {self.name}: {m}")
        if not self.failures:
            print(f"ok: {self.name}")
        sys.exit(1 if self.failures else 0)
