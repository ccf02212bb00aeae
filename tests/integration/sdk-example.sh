#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The SDK as a module's author uses it. dio is installed into a staging
# directory (make install DESTDIR=), and docs/examples/fsync-rename is built
# there with its own Makefile and nothing but pkg-config's flags for the staged
# dio.pc. Loaded by path, it reports each file that tests/workloads/saverename
# renames before syncing it, with the workload's numbers, and nothing for the
# safe mode; dio analyze of a recording gives the same findings as the
# recording run; installed into pkg-config's analyzerdir it is found by name.
# A module built for another ABI version is refused with one line saying what
# to do.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
for tool in "$CC" "$PKG_CONFIG" make python3; do
	if ! command -v "$tool" > /dev/null; then
		echo "FAIL: $tool not found: ./install-deps.sh installs what the tests need"
		exit 1
	fi
done
mount_ext4
fail=0

# ---- make install into a staging directory ---------------------------------
# MAKEFLAGS: this runs under make check, whose jobserver is not ours to use
STAGE=$TMP/stage
if ! MAKEFLAGS= MFLAGS= make -C "$top_builddir" install DESTDIR="$STAGE" \
	> "$TMP/install.log" 2>&1; then
	echo "FAIL: make install DESTDIR=$STAGE:"
	tail -n 20 "$TMP/install.log"
	exit 1
fi
pc=$(find "$STAGE" -path '*/pkgconfig/dio.pc')
if [ -z "$pc" ]; then
	echo "FAIL: make install put no pkgconfig/dio.pc under $STAGE"
	exit 1
fi
# the staged dio.pc and no other; its paths, which name the final prefix, inside $STAGE
PKG_CONFIG_LIBDIR=${pc%/dio.pc}
PKG_CONFIG_SYSROOT_DIR=$STAGE
PKG_CONFIG_PATH=
export PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH
cflags=$("$PKG_CONFIG" --cflags dio)
libs=$("$PKG_CONFIG" --libs dio)
adir=$("$PKG_CONFIG" --variable=analyzerdir dio)
incdir=${cflags#-I}
incdir=${incdir%% *}
case $cflags in
-I"$STAGE"/*) ;;
*) echo "FAIL: pkg-config --cflags dio is '$cflags', not -I$STAGE/..."; exit 1 ;;
esac
for h in event plugin analyzer sink source hist; do
	if ! cmp -s "$incdir/dio/$h.h" "$top_srcdir/include/dio/$h.h"; then
		echo "FAIL: $incdir/dio/$h.h is missing or differs from include/dio/$h.h"
		fail=1
	fi
done
if [ -n "$(echo $libs)" ]; then
	echo "FAIL: pkg-config --libs dio is '$libs': a module links no dio library"
	fail=1
fi
case $adir in
"$STAGE"/*/dio/analyzers) ;;
*) echo "FAIL: pkg-config --variable=analyzerdir dio is '$adir'"; fail=1 ;;
esac

# ---- build the example out of the tree (srcdir is read-only under distcheck) --
EX=$TMP/fsync-rename
cp -R "$top_srcdir/docs/examples/fsync-rename" "$EX" && chmod -R u+w "$EX" || exit 1
rm -f "$EX/fsync_rename.so"
if ! MAKEFLAGS= MFLAGS= make -C "$EX" CC="$CC" > "$TMP/build.log" 2>&1; then
	echo "FAIL: the example does not build against the installed headers:"
	cat "$TMP/build.log"
	exit 1
fi
if grep -q 'warning:' "$TMP/build.log"; then
	echo "FAIL: the example builds with warnings:"
	cat "$TMP/build.log"
	fail=1
fi
syms=$(nm -D --defined-only "$EX/fsync_rename.so" | awk '$2 ~ /^[A-Z]$/ { print $3 }')
if [ "$syms" != dio_analyzer ]; then
	echo "FAIL: the module exports '$(echo $syms)', expected dio_analyzer alone"
	fail=1
fi

# check JSON EXPECT [safe]: the fsync_rename findings of JSON are what the
# workload's "unsynced PID WRITES BYTES TMP TARGET" lines of EXPECT call for,
# in order: one no-fsync finding per target, the repeats in one "more" finding
check() {
	python3 - "$@" << 'PY'
import json, sys

path, expect = sys.argv[1:3]
safe = len(sys.argv) > 3
lines = [l.split() for l in open(expect)]
if not lines or lines[-1] != ["renames", "4"]:
    sys.exit(f"FAIL: {expect} does not end with 'renames 4': did the workload run to its end?")
got = [o for o in map(json.loads, open(path))
       if o["type"] == "finding" and o.get("analyzer") == "fsync_rename"]
want, seen, repeats = [], set(), 0
for l in lines:
    if l[0] != "unsynced":
        continue
    pid, writes, nbytes, tmp, target = int(l[1]), int(l[2]), int(l[3]), l[4], l[5]
    if target in seen:
        repeats += 1
        continue
    seen.add(target)
    plural = lambda n, w: f"{n} {w}" + ("" if n == 1 else "s")
    want.append({
        "severity": "warning", "code": "fsync_rename.no-fsync", "pid": pid, "tid": pid,
        "comm": "saverename", "path": tmp, "count": writes,
        "title": f"renamed to {target} without fsync: {plural(nbytes, 'byte')} in "
                 f"{plural(writes, 'write')} not synced"})
if repeats:
    want.append({"severity": "info", "code": "fsync_rename.more", "count": repeats})
if safe and want:
    sys.exit(f"FAIL: the safe mode's {expect} lists unsynced renames")
bad = 0
if len(got) != len(want):
    print(f"FAIL: {path}: {len(got)} fsync_rename findings, expected {len(want)}:")
    for o in got:
        print(f"  got: {o['code']}: {o.get('title')}")
    for w in want:
        print(f"  expected: {w['code']}: {w.get('title', '')}")
    sys.exit(1)
for o, w in zip(got, want):
    for k, v in w.items():
        if o.get(k) != v:
            print(f"FAIL: {path}: {w['code']} {w.get('path', '')}: {k} is {o.get(k)!r}, "
                  f"expected {v!r}")
            bad = 1
    if w["code"] == "fsync_rename.no-fsync":
        # the tag of the file, and the time from its first unsynced write to the rename
        if not o.get("file_tag") or not o.get("span_ns", 0) > 0 or "rename" not in o["excerpt"]:
            print(f"FAIL: {path}: {w['path']}: file_tag, span_ns or excerpt missing: {o}")
            bad = 1
if not bad:
    print(f"ok: {path}: {len(got)} fsync_rename findings as the workload expects")
sys.exit(bad)
PY
}

# ---- dio trace --analyzer ./fsync_rename.so ----------------------------------
for mode in unsafe safe; do
	mkdir "$MNT/$mode"
	run_dio trace --no-summary --sink json:file="$TMP/$mode.json" \
		--analyzer "$EX/fsync_rename.so" -- "$WL/saverename" "$mode" "$MNT/$mode" \
		> "$TMP/$mode.expect" 2> "$TMP/$mode.err"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: dio trace of saverename $mode exited $RC:"
		cat "$TMP/$mode.err"
		fail=1
		continue
	fi
	if [ $mode = safe ]; then
		check "$TMP/$mode.json" "$TMP/$mode.expect" safe || fail=1
	else
		check "$TMP/$mode.json" "$TMP/$mode.expect" || fail=1
	fi
done

# ---- inline (dio record) == offline (dio analyze) ----------------------------
# Every field but rel_ns must match: times are CLOCK_MONOTONIC turned into wall
# time with the offset the recording stored, and the paths come from the
# recorded path records. rel_ns counts from the session's start, which for a
# replay is the trace's first record (docs/json-schema.md): it differs.
mkdir "$MNT/rec"
run_dio record -o "$TMP/t.dio" --no-summary --sink json:file="$TMP/inline.json" \
	--analyzer "$EX/fsync_rename.so" -- "$WL/saverename" unsafe "$MNT/rec" \
	> "$TMP/rec.expect" 2> "$TMP/rec.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited $RC:"; cat "$TMP/rec.err"; exit 1; }
check "$TMP/inline.json" "$TMP/rec.expect" || fail=1
run_dio analyze "$TMP/t.dio" --no-summary --sink json:file="$TMP/offline.json" \
	--analyzer "$EX/fsync_rename.so" 2> "$TMP/analyze.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio analyze exited $RC:"; cat "$TMP/analyze.err"; exit 1; }
# findings FILE: its finding objects without rel_ns
findings() {
	grep '"type":"finding"' "$1" | sed 's/,"rel_ns":-\{0,1\}[0-9]*//'
}
findings "$TMP/inline.json" > "$TMP/inline.findings"
findings "$TMP/offline.json" > "$TMP/offline.findings"
if ! cmp -s "$TMP/inline.findings" "$TMP/offline.findings"; then
	echo "FAIL: dio analyze gives other findings than dio record did:"
	diff "$TMP/inline.findings" "$TMP/offline.findings" | head -n 20
	fail=1
else
	echo "ok: dio analyze: the $(wc -l < "$TMP/offline.findings") findings of the recording run"
fi

# ---- make install into the analyzer directory: found by name -----------------
if ! MAKEFLAGS= MFLAGS= make -C "$EX" install > "$TMP/exinstall.log" 2>&1 ||
	[ ! -f "$adir/fsync_rename.so" ]; then
	echo "FAIL: make install of the example did not put fsync_rename.so into $adir:"
	cat "$TMP/exinstall.log"
	fail=1
fi
DIO_ANALYZER_PATH=$adir "$DIO" list analyzers > "$TMP/list" 2>&1
if ! grep -q '^fsync_rename  *files renamed' "$TMP/list" ||
	! grep -q '^  fsync_rename:max_files=1024 ' "$TMP/list"; then
	echo "FAIL: dio list analyzers does not show fsync_rename from $adir:"
	cat "$TMP/list"
	fail=1
fi
DIO_ANALYZER_PATH=$adir "$DIO" list rules > "$TMP/rules" 2>&1
if ! grep -q '^fsync_rename\.no-fsync  *warning  A file renamed before its data was synced$' \
	"$TMP/rules"; then
	echo "FAIL: dio list rules does not show fsync_rename's rules from $adir:"
	cat "$TMP/rules"
	fail=1
fi
DIO_ANALYZER_PATH=$adir run_dio analyze "$TMP/t.dio" --no-summary \
	--sink json:file="$TMP/byname.json" --analyzer fsync_rename 2> "$TMP/byname.err"
findings "$TMP/byname.json" > "$TMP/byname.findings"
if [ "$RC" -ne 0 ] || ! cmp -s "$TMP/offline.findings" "$TMP/byname.findings"; then
	echo "FAIL: --analyzer fsync_rename (by name, from $adir) exited $RC or differs:"
	cat "$TMP/byname.err"
	diff "$TMP/offline.findings" "$TMP/byname.findings" | head -n 10
	fail=1
fi

# ---- a module of another ABI version -----------------------------------------
# (the loader's message is pinned in tests/unit/test_plugin.c; this is the user's view)
abi=$(sed -n 's/^#define DIO_PLUGIN_ABI[[:space:]]*\([0-9]*\).*/\1/p' "$incdir/dio/plugin.h")
cat > "$TMP/oldabi.c" << 'EOF'
#include <dio/analyzer.h>
const struct dio_analyzer dio_analyzer = {
	.abi = 999, .size = sizeof(struct dio_analyzer), .name = "oldabi",
};
EOF
"$CC" $cflags -fPIC -shared -o "$TMP/oldabi.so" "$TMP/oldabi.c" || exit 1
run_dio analyze "$TMP/t.dio" --analyzer "$TMP/oldabi.so" > "$TMP/abi.out" 2> "$TMP/abi.err"
want="dio: $TMP/oldabi.so: analyzer ABI version 999, but this dio speaks version $abi: rebuild the module against this dio's headers"
if [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || [ "$(cat "$TMP/abi.err")" != "$want" ] ||
	[ -s "$TMP/abi.out" ]; then
	echo "FAIL: a module of ABI 999: exit $RC, expected one line on standard error:"
	echo "  $want"
	echo "got:"
	cat "$TMP/abi.err" "$TMP/abi.out"
	fail=1
fi
exit $fail
