#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# guest-tests.sh DIR SECS TEST...: run inside the guest by matrix.sh through
# boot.sh; runs each of dio's integration tests (tests/integration/TEST.sh) with
# a deadline of SECS, all in one boot, since a boot costs more than most tests.
# Each test's output goes to DIR/TEST.log; DIR/results gets "TEST STATUS SECONDS"
# as each ends, so a VM that dies half way still leaves the ones before, and
# DIR/current names the test that runs.
dir=$1
per=$2
shift 2
: "${top_srcdir:?top_srcdir is not set}"

now() {
	date +%s.%N
}

for t; do
	say="$t: $(uname -r)"
	echo "dio-kernels: $say: start" > /dev/console
	# names the test to blame if the kernel dies or hangs (matrix.sh watches it)
	echo "$t" > "$dir/current"
	s=$(now)
	# -k: a test that ignores SIGTERM (or whose dio does) is killed 10 s later
	timeout -k 10 "$per" sh "$top_srcdir/tests/integration/$t.sh" > "$dir/$t.log" 2>&1
	rc=$?
	secs=$(awk -v s="$s" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }')
	[ "$rc" -ne 124 ] || echo "TIMEOUT: $t did not finish within $per s" >> "$dir/$t.log"
	echo "$t $rc $secs" >> "$dir/results"
	rm -f "$dir/current"
	echo "dio-kernels: $say: exited with $rc after $secs s" | tee /dev/console
done
