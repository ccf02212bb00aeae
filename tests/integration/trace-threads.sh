#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Threads and processes (tests/workloads/threads.c): each call carries the
# name its thread had at that moment (before and after pthread_setname_np);
# a forked child's calls on an inherited fd show the file and the offset it
# shares with the parent; a file passed over a unix socket (SCM_RIGHTS) and
# dup'ed is known in the receiving process; fork, rename and exit records.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

run_dio trace --no-summary -o "$TMP/out" -- "$WL/threads" "$MNT" 9> "$TMP/expect"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; fail=1; }
expect_lines "$TMP/expect" "$TMP/out" || fail=1

# the worker thread's calls carry two names: before and after its rename
worker=$(sed -n 's/^\[[0-9]*\/\([0-9]*\) worker-1\] +++ renamed "worker-1" +++$/\1/p' "$TMP/expect")
names=$(grep "^\[[0-9]*/$worker " "$TMP/out" | grep -v '\] +++ ' |
	sed 's/^[^ ]* \([^]]*\)\].*/\1/' | uniq | tr '\n' ' ')
if [ "$names" != "threads worker-1 " ]; then
	echo "FAIL: thread $worker: its calls carry the names '$names', expected 'threads worker-1 '"
	fail=1
fi
exit $fail
