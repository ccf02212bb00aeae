#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make -j2 with gcc (packages make, gcc), correct: a parallel build of a small
# C program of 17 source files, as every C project builds. Each compiler
# driver resolves its paths (readlink on each component, EINVAL for those
# that are no symlink: that is how it learns they are not one), each link
# reads libc.so, a linker script, twice (ld opens it as an object, finds
# text, and reads it again as a script), and two compilers at a time share
# the machine's two CPUs. None of that is a defect: no finding of the
# families errors, redundant-open or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need make:make gcc:gcc strace:strace
mount_ext4
c_project "$MNT/proj"
cd "$MNT/proj" || exit 1
# the facts from a build under strace; the recorded build runs without it,
# at full speed, as a developer's does
ground make-j2-gcc make -j2
make clean > /dev/null || exit 1
record make-j2-gcc make -j2
[ "$(./app)" = "sum 136" ] || { echo "FAIL: the program built does not print sum 136"; exit 1; }
check "$MNT/proj" << 'PY'
import sys, corpus
proj = sys.argv[1]
c = corpus.Case("make-j2-gcc")
c.families()
log = c.strace()
cc1 = log.pids("cc1")
sources = {f"{proj}/main.c"} | {f"{proj}/m{i}.c" for i in range(1, 17)}
compiled = {d.path for p in cc1 for d in log.descriptions if d.tgid == p and d.path in sources}
einval = [x for x in log.calls if x.name == "readlink" and x.ret == -1]
scripts = [d for d in log.descriptions if d.path and d.path.endswith("/libc.so") and d.reads]
print(f"strace: {len(cc1)} cc1 processes compiled {len(compiled)} of the 17 sources;"
      f" {len(log.pids('ld'))} ld; {len(einval)} failed readlink calls;"
      f" the linker script libc.so opened and read {len(scripts)} times")
if len(cc1) != 17 or compiled != sources:
    c.fail("strace: expected one cc1 per source file, 17 in all")
c.done()
PY
