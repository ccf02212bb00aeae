#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fallbacks older kernels need, forced on this one: with direct field
# loads (bpf_rdonly_cast, 6.2) and sched_process_exit's group_dead (6.16)
# turned off, the tracing tests must pass unchanged, exact lines and all. On a
# kernel without those features this is what runs anyway.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
# each test takes the lock itself
exec 8>&-
fail=0
export DIO_DISABLE_FEATURES=field-loads,exit-group
for t in trace-basic trace-threads trace-reuse trace-uring trace-filters trace-root; do
	if sh "$top_srcdir/tests/integration/$t.sh" > "$TMP/$t.log" 2>&1; then
		echo "ok: $t with $DIO_DISABLE_FEATURES turned off"
	else
		echo "FAIL: $t with $DIO_DISABLE_FEATURES turned off:"
		tail -n 30 "$TMP/$t.log"
		fail=1
	fi
done
exit $fail
