#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# python3 -m compileall (package python3), correct: the byte-compilation that
# Debian's python packages run when they are installed, here of a copy of
# four packages of Python's standard library (email, json, http, logging),
# with two worker processes. Each module is read once and its .pyc written
# once, under a temporary name renamed into place (importlib's atomic
# write). No finding of the families errors, redundant-open or
# reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need python3:python3 strace:strace
mount_ext4
lib=$(python3 -c 'import email, os; print(os.path.dirname(os.path.dirname(email.__file__)))')
mkdir "$MNT/src"
for p in email json http logging; do
	cp -r "$lib/$p" "$MNT/src/"
done
find "$MNT/src" -name __pycache__ -prune -exec rm -rf {} +
STRACE=1 record python-compileall python3 -m compileall -q -j2 "$MNT/src"
check "$MNT/src" << 'PY'
import os, sys, corpus
src = sys.argv[1]
c = corpus.Case("python-compileall")
c.families()
log = c.strace()
modules = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".py")]
pycs = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".pyc")]
reads = {}
for d in log.descriptions:
    if d.path in modules and d.reads:
        reads[d.path] = reads.get(d.path, 0) + 1
written = [d for d in log.descriptions if d.path and ".pyc." in d.path and d.writes]
print(f"strace: {len(modules)} modules, {len(pycs)} .pyc files made; {len(written)} written"
      f" under a temporary name; modules opened for reading: {sorted(set(reads.values()))} times each")
if len(pycs) != len(modules) or len(written) != len(modules):
    c.fail("strace: expected one .pyc written per module")
c.done()
PY
