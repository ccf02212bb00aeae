#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How dio ends: with the traced command's exit status; with a one-line error
# for a command that cannot run (not found, or execve fails: strace's 127 and
# the errno), a bad pid or option, or a missing privilege;
# within seconds of SIGINT, printing the summary; and leaving no BPF program
# or link behind.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

run_dio trace -q --no-summary -- sh -c 'exit 7'
[ "$RC" -eq 7 ] || { echo "FAIL: dio -- sh -c 'exit 7' exited with $RC, expected 7"; fail=1; }

run_dio trace -q -- no-such-command-xyz 2> "$TMP/err"
if [ "$RC" -eq 0 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
	! grep -q "^dio: .*'no-such-command-xyz'" "$TMP/err"; then
	echo "FAIL: a missing command: status $RC (must not be 0), stderr (one line naming it):"
	cat "$TMP/err"
	fail=1
fi

# found, but execve fails: a directory, a #! interpreter that is missing, a broken ELF
mkdir "$TMP/adir"
printf '#!/nonexistent-dio/interp\n' > "$TMP/badsh"
printf '\177ELFnot really' > "$TMP/badelf"
chmod +x "$TMP/badsh" "$TMP/badelf"
for c in "adir:Permission denied (it is a directory)" \
	"badsh:No such file or directory (the file is there: its #! interpreter or its ELF loader is not)" \
	"badelf:Exec format error"; do
	f=${c%%:*}
	run_dio trace -q --no-summary -- "$TMP/$f" 2> "$TMP/err"
	if [ "$RC" -ne 127 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
		! grep -qxF "dio: cannot run '$TMP/$f': ${c#*:}" "$TMP/err"; then
		echo "FAIL: $f: status $RC (expected 127), stderr (expected the exec error):"
		cat "$TMP/err"
		fail=1
	fi
done

run_dio trace -p 999999999 2> "$TMP/err"
if [ "$RC" -eq 0 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
	! grep -q "^dio: -p: '999999999' is not a process id\|^dio: -p 999999999: no such process" \
		"$TMP/err"; then
	echo "FAIL: -p with a pid that does not exist: status $RC, stderr:"
	cat "$TMP/err"
	fail=1
fi

run_dio trace --bogus -- true 2> "$TMP/err"
[ "$RC" -eq 2 ] && grep -qx "dio: unknown option '--bogus'; see 'dio trace --help'" "$TMP/err" ||
	{ echo "FAIL: an unknown option: status $RC (expected 2), stderr:"; cat "$TMP/err"; fail=1; }

if command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$DIO" trace -- true 2> "$TMP/err"
	RC=$?
	msg="dio: dio needs root or the CAP_BPF and CAP_PERFMON capabilities: run it with sudo"
	if [ "$RC" -ne 1 ] || ! grep -qx "$msg" "$TMP/err"; then
		echo "FAIL: run without privileges: status $RC (expected 1), stderr:"
		cat "$TMP/err"
		fail=1
	fi
fi

# SIGINT while the command sleeps: dio stops within seconds, prints the
# summary (into -o FILE, after the events, as strace -c -o) and exits with
# 128+2. Its BPF programs are loaded until then.
"$DIO" trace -o "$TMP/out" -- sleep 30 2> "$TMP/err" &
dio=$!
BG_PIDS="$BG_PIDS $dio"
i=0
while ! grep -q '+++ exec "sleep" +++' "$TMP/out" 2> /dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep_pid=$(sed -n 's/^\[\([0-9]*\)\/[0-9]* sleep\] +++ exec "sleep" +++$/\1/p' "$TMP/out")
[ -n "$sleep_pid" ] && BG_PIDS="$BG_PIDS $sleep_pid"
[ -n "$sleep_pid" ] || { echo "FAIL: no exec record for sleep in 10 s:"; cat "$TMP/out"; fail=1; }
ids=$(bpftool prog show 2> /dev/null | sed -n 's/^\([0-9]*\): .* name dio_[a-z_0-9]* .*/\1/p' |
	tr '\n' ' ')
[ -n "$ids" ] || { echo "FAIL: no dio_* BPF program is loaded while dio traces"; fail=1; }
kill -INT "$dio"
i=0
while kill -0 "$dio" 2> /dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$dio" 2> /dev/null; then
	echo "FAIL: dio still runs 5 s after SIGINT"
	kill -9 "$dio"
	fail=1
fi
wait "$dio"
RC=$?
[ "$RC" -eq 130 ] || { echo "FAIL: dio exited with $RC after SIGINT, expected 130"; fail=1; }
# (counted losses are the machine's: block completions dio's program did not see)
if ! grep -q "^% time " "$TMP/out" || ! grep -q " total$" "$TMP/out" ||
	grep -Ev '^dio: warning: [0-9]+ .* lost' "$TMP/err" | grep -q .; then
	echo "FAIL: no summary table in -o FILE after SIGINT, or dio wrote to stderr:"
	cat "$TMP/err"
	fail=1
fi

# nothing stays loaded or attached (programs go after an RCU grace period: allow a moment)
left() {
	for id in $ids; do
		bpftool prog show id "$id" > /dev/null 2>&1 && echo "program $id still loaded"
		bpftool link list 2> /dev/null | grep -q " prog $id\b" &&
			echo "a link to program $id remains"
	done
	bpftool prog show 2> /dev/null | grep " name dio_"
}
i=0
while [ -n "$(left)" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -n "$(left)" ]; then
	echo "FAIL: after dio exited:"
	left
	fail=1
fi
exit $fail
