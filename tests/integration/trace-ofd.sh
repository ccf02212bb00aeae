#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Open file descriptions, on a real shell: bash's `echo x >> f` opens f on 3,
# dup2s it onto 1, closes 3 before writing and ends the description with the
# dup2 that gives fd 1 back. Every record of one description carries its id
# (the write through fd 1 has the open's), a child that inherits an fd shares
# it, and the host says when each one ended: after the call that closed its
# last fd, the same inline and from a recording. The test module ofdlog
# writes what an analyzer is given.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
mod=$top_builddir/tests/unit/modules/.libs/ofdlog.so
[ -f "$mod" ] || { echo "FAIL: no test module at $mod (make check builds it)"; exit 1; }

mkdir "$TMP/wd"
cat > "$TMP/script" <<'SH'
for i in 1 2 3; do echo x >> f; done
exec 5< f
(cat <&5 > /dev/null)
exec 5<&-
SH
(cd "$TMP/wd" && "$DIO" record -q -o "$TMP/t.dio" --analyzer "$mod:out=$TMP/inline" \
	-- bash "$TMP/script" > /dev/null 2> "$TMP/err") ||
	{ echo "FAIL: dio record exited with $?:"; cat "$TMP/err"; exit 1; }
"$DIO" analyze "$TMP/t.dio" --no-summary --analyzer "$mod:out=$TMP/offline" 2> "$TMP/err" ||
	{ echo "FAIL: dio analyze exited with $?:"; cat "$TMP/err"; exit 1; }
cmp -s "$TMP/inline" "$TMP/offline" ||
	{ echo "FAIL: the descriptions differ inline and offline:"; diff "$TMP/inline" "$TMP/offline"; fail=1; }

f=$TMP/wd/f
grep -F "<$f>" "$TMP/inline" > "$TMP/f" || true
# the three appends: each its own description, from the open to the dup2 that ends it
awk -v f="$f" '
/openat\(AT_FDCWD, "f", O_WRONLY\|O_CREAT\|O_APPEND, 0666\) = 3/ { id = $1; n++; w = 0; next }
id != "" && $1 == id && /write\(1</ { w++ }
id != "" && /--- ofd / && $4 == id {
	if ($0 !~ "ended: replaced of 1<" f "> sys=dup2 ---$" || w != 1) {
		print "FAIL: append " n ": end " $0 " after " w " writes through fd 1"; bad = 1
	}
	id = ""; ended++
}
END {
	if (n != 3 || ended != 3) { print "FAIL: " n " appends, " ended " ends (expected 3 and 3)"; bad = 1 }
	exit bad
}' "$TMP/f" || fail=1

# the read-only description: the shell holds it on 5, the child reads it on 0
rd=$(sed -n 's/^\([0-9a-f]*\) .*openat(AT_FDCWD, "f", O_RDONLY) = 3<.*/\1/p' "$TMP/f")
[ -n "$rd" ] || { echo "FAIL: no O_RDONLY open of f:"; cat "$TMP/f"; exit 1; }
grep -q "^$rd \[[0-9]*/[0-9]* cat\] read(0<$f>, 0x[0-9a-f]*, [0-9]*) = 6 " "$TMP/f" ||
	{ echo "FAIL: the child's read of fd 0 has not the description $rd of the shell's open:"; cat "$TMP/f"; fail=1; }
# it ends once, when the shell lets go of it (the child's close and exit are not its end)
awk -v rd="$rd" '
/openat\(AT_FDCWD, "f", O_RDONLY\) = 3/ { on = 1; shell = $2; sub(/^\[/, "", shell); sub(/\/.*/, "", shell); next }
on && / cat\] close\(0</ { closed = 1 }
on && /--- ofd / && $4 == rd {
	n++
	pid = $1; sub(/^\[/, "", pid); sub(/\/.*/, "", pid)
	if (!closed || pid != shell || $0 !~ /ended: close of [0-9]+<.*> sys=close ---$/) {
		print "FAIL: the read-only description ended early or oddly: " $0; bad = 1
	}
}
END { if (n != 1) { print "FAIL: the read-only description ended " n " times, expected once"; bad = 1 }; exit bad }
' "$TMP/f" || fail=1
# ids are 8 hex digits and never 0 for a file
if grep -q "^00000000 .*<$f>" "$TMP/f"; then
	echo "FAIL: a record of f without a description id:"
	grep "^00000000 .*<$f>" "$TMP/f"
	fail=1
fi
exit $fail
