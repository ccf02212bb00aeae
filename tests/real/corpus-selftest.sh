#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# corpus.py's own checks, on findings written here (no dio, no root): the
# families rule of the second round's cases (Case.families) and the finding
# expected for the work of several processes (Case.expect_across), each
# verdict asserted, passing and failing.
TMP=$(mktemp -d /tmp/dio-corpus-selftest.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT
PYTHONPATH=$top_srcdir/tests/real PYTHONDONTWRITEBYTECODE=1 TMP=$TMP python3 - << 'PY'
import json, os, subprocess, sys

tmp = os.environ["TMP"]
failed = []


def finding(code, pid, sev="warning", count=1, path=None, title="t"):
    return {"type": "finding", "code": code, "pid": pid, "comm": "prog", "severity": sev,
            "count": count, "path": path, "title": title}


def verdict(name, findings, script):
    """Exit status of a case named name, judged by script, on findings."""
    with open(os.path.join(tmp, name + ".json"), "w") as f:
        for o in findings:
            f.write(json.dumps(o, separators=(",", ":")) + "\n")
    code = f"import corpus\nc = corpus.Case({name!r})\n{script}\nc.done()\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, TMP=tmp))
    return r.returncode


def want(label, got, expected):
    print(f"{'ok' if got == expected else 'FAIL'}: {label}: exit {got}, expected {expected}")
    if got != expected:
        failed.append(label)


fam = "c.families()"
want("families: machine findings alone pass",
     verdict("a", [finding("latency.runq-delay", 1), finding("access-pattern.reread", 2)], fam), 0)
want("families: an INFO errors.* finding fails a correct program",
     verdict("b", [finding("errors.burst", 1, sev="info")], fam), 1)
want("families: an INFO redundant-open.* finding fails it",
     verdict("c", [finding("redundant-open.sync-reopen", 1, sev="info")], fam), 1)
want("families: a reuse-offset.* finding fails it",
     verdict("d", [finding("reuse-offset.stale-offset", 1, sev="error")], fam), 1)
want("families: 15 findings pass",
     verdict("e", [finding("latency.runq-delay", p, sev="info") for p in range(15)], fam), 0)
want("families: 16 findings fail",
     verdict("f", [finding("latency.runq-delay", p, sev="info") for p in range(16)], fam), 1)
want("families: findings dio left out count",
     verdict("g", [finding("latency.runq-delay", 1, sev="info"),
                   finding("dio.findings-left-out", 0, count=14)], fam), 1)
want("families: an allowed code in a bug case passes",
     verdict("h", [finding("errors.burst", 1)], fam + "\nc.allow('errors.burst', 'why')"), 0)

j = "/m/app.db-journal"
across = fam + f"\nc.expect_across('redundant-open.create-unlink', {{10, 11, 12}}, 40, {j!r})"
good = "app.db-journal created, synced and deleted 40 times by 40 processes in 182.4 ms"
want("across: one finding, its count, path and time cost, passes",
     verdict("i", [finding("redundant-open.create-unlink", 10, count=40, path=j, title=good)],
             across), 0)
want("across: missing fails", verdict("j", [], across), 1)
want("across: no time cost fails",
     verdict("k", [finding("redundant-open.create-unlink", 10, count=40, path=j,
                           title="created and deleted 40 times")], across), 1)
want("across: another count fails",
     verdict("l", [finding("redundant-open.create-unlink", 10, count=1, path=j, title=good)],
             across), 1)
want("across: one finding per process fails",
     verdict("m", [finding("redundant-open.create-unlink", p, count=40, path=j, title=good)
                   for p in (10, 11)], across), 1)
want("across: a process that did none of the work fails",
     verdict("n", [finding("redundant-open.create-unlink", 99, count=40, path=j, title=good)],
             across), 1)
sys.exit(1 if failed else 0)
PY
