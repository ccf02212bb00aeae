#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cmake and ninja (packages cmake, ninja-build, gcc), correct: the program of
# make-j2-gcc configured with cmake (which tries the compiler out first, in
# scratch builds of its own) and built with ninja -j2. Build systems stat,
# look up and compile; none of it is a defect: no finding of the families
# errors, redundant-open or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need cmake:cmake ninja:ninja-build gcc:gcc strace:strace
mount_ext4
c_project "$TMP/src"
build() {
	rm -rf "$MNT/build"
	"$@" sh -c 'cmake -S "$0" -B "$1" -G Ninja > /dev/null && ninja -C "$1" -j2' "$TMP/src" "$MNT/build"
}
# the facts from a build under strace; the recorded build runs without it
build ground cmake-ninja
build record cmake-ninja
[ "$("$MNT/build/app")" = "sum 136" ] || { echo "FAIL: the program built does not print sum 136"; exit 1; }
check "$TMP/src" "$MNT/build" << 'PY'
import sys, corpus
src, build = sys.argv[1:3]
c = corpus.Case("cmake-ninja")
c.families()
log = c.strace()
sources = {f"{src}/main.c"} | {f"{src}/m{i}.c" for i in range(1, 17)}
compiled = [d.path for p in log.pids("cc1") for d in log.descriptions
            if d.tgid == p and d.path in sources]
objs = {d.path for d in log.descriptions if d.path and d.path.startswith(build + "/CMakeFiles/app.dir/")
        and d.path.endswith(".o") and d.writes}
print(f"strace: {len(log.pids('cc1'))} cc1 processes (cmake's compiler checks among them),"
      f" {len(compiled)} of them on the 17 sources, {len(objs)} objects written")
if sorted(compiled) != sorted(sources) or len(objs) != 17:
    c.fail("strace: expected each source compiled once into its object")
c.done()
PY
