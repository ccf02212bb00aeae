#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dio's exit: the command's status, one-line errors, a clean stop on SIGINT
# with the summary, and no BPF program left behind.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf

run_dio trace -q --no-summary -- sh -c 'exit 7'
[ "$RC" -eq 7 ] || { echo "FAIL: expected exit status 7, got $RC"; exit 1; }

run_dio trace -q -- no-such-command-xyz 2> "$TMP/err"
[ "$RC" -ne 0 ] || { echo "FAIL: a missing command exited 0"; exit 1; }
[ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q "^dio: cannot run 'no-such-command-xyz': No such file or directory" "$TMP/err" ||
	{ echo "FAIL: missing command message:"; cat "$TMP/err"; exit 1; }

run_dio trace -p 999999999 2> "$TMP/err"
[ "$RC" -ne 0 ] && grep -q "^dio: -p: '999999999' is not a process id\|^dio: -p 999999999: no such process" "$TMP/err" ||
	{ echo "FAIL: bad pid: rc=$RC"; cat "$TMP/err"; exit 1; }

run_dio trace --bogus -- true 2> "$TMP/err"
[ "$RC" -eq 2 ] && grep -qx "dio: unknown option '--bogus'; see 'dio trace --help'" "$TMP/err" ||
	{ echo "FAIL: unknown option: rc=$RC"; cat "$TMP/err"; exit 1; }

if command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$DIO" trace -- true 2> "$TMP/err"
	RC=$?
	[ "$RC" -eq 1 ] && grep -qx "dio: dio needs root or the CAP_BPF and CAP_PERFMON capabilities: run it with sudo" "$TMP/err" ||
		{ echo "FAIL: not root: rc=$RC"; cat "$TMP/err"; exit 1; }
fi

# SIGINT stops tracing, prints the summary, exits 128+2
"$DIO" trace -o /dev/null -- sh -c 'while :; do cat /etc/hostname > /dev/null; sleep 0.05; done' 2> "$TMP/err" &
dio=$!
sleep 2
kill -INT "$dio"
i=0
while kill -0 "$dio" 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$dio" 2> /dev/null; then
	echo "FAIL: dio did not stop within 10 s of SIGINT"
	kill -9 "$dio"
	exit 1
fi
wait "$dio"
RC=$?
[ "$RC" -eq 130 ] || { echo "FAIL: expected 130 after SIGINT, got $RC"; exit 1; }
grep -q "^% time" "$TMP/err" && grep -q " total$" "$TMP/err" ||
	{ echo "FAIL: no summary after SIGINT"; cat "$TMP/err"; exit 1; }
pkill -f 'cat /etc/hostname > /dev/null; sleep 0.05' 2> /dev/null

# nothing stays attached (the kernel frees programs after a grace period: allow it a moment)
i=0
while bpftool prog show 2> /dev/null | grep -q "name dio_" && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if bpftool prog show 2> /dev/null | grep -q "name dio_"; then
	echo "FAIL: dio programs still loaded:"
	bpftool prog show | grep "name dio_"
	exit 1
fi
echo ok
