#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Processes whose exit dio never sees leave the table of open files it
# follows for the analyzers (DIO_EV_OFD): live, dio sweeps those gone from
# the machine, and counts them. Under --comm leaker, 300 processes named
# leaker open files and rename themselves before they exit, so their exit
# records are left out: each is swept once (during the trace, when the table
# has filled, or at its end), 300 in --stats, without a warning (nothing was
# lost: the files ended when dio found the process gone).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0
N=300

cp "$(readlink -f "$(command -v sh)")" "$TMP/leaker"
cd "$TMP" || exit 1
run_dio trace --comm leaker --analyzer redundant-open --stats -o "$TMP/out" -- \
	sh -c "i=0; while [ \$i -lt $N ]; do
		'$TMP/leaker' -c ': > f1; exec 3< f1; printf other > /proc/self/comm'
		i=\$((i + 1))
	done" 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace exited $RC:"; cat "$TMP/err"; exit 1; }
execs=$(grep -c '^\[[0-9]*/[0-9]* leaker\] +++ exec "leaker" +++$' "$TMP/out")
[ "$execs" -eq $N ] || { echo "FAIL: $execs processes named leaker traced, want $N"; fail=1; }
exits=$(grep -c '+++ exited' "$TMP/out")
[ "$exits" -eq 0 ] || { echo "FAIL: $exits exits traced, want none"; fail=1; }
n=$(sed -n 's/^  dropped ofd_procs_swept  *\([0-9]*\)  *processes found gone without their exit.*/\1/p' \
	"$TMP/err")
[ "$n" = "$N" ] || { echo "FAIL: processes swept: '$n', want $N:"; cat "$TMP/err"; fail=1; }
grep -q "ofd_procs_evicted" "$TMP/err" &&
	{ echo "FAIL: processes evicted from a table of 65536:"; cat "$TMP/err"; fail=1; }
grep -q "^dio: warning: .*processes found gone" "$TMP/err" &&
	{ echo "FAIL: a sweep warned:"; cat "$TMP/err"; fail=1; }
exit $fail
