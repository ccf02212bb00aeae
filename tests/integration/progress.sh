#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reading a big trace on a terminal shows one progress line on standard
# error, "reading FILE: P % (N of M records), S s", rewritten in place and
# erased at the end: what dio prints is otherwise the same as without a
# terminal, where no byte of it appears; -q, and dio dump writing its records
# to the terminal, show none.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

# 2 million calls; the line is due after half a second of reading, which the
# runs below make sure of whatever the machine's speed: their records go to a
# reader that waits a second before it takes any
run_dio record -q --no-summary -o "$TMP/big.dio" -- \
	dd if=/dev/zero of="$TMP/dd.out" bs=1 count=1000000 > /dev/null 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio record of dd exited $RC"; exit 1; }

# on a pseudo-terminal: ARGS... -> everything dio wrote to the terminal, then the status
cat > "$TMP/onpty.py" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
with open(sys.argv[1], "wb") as out:
    while True:
        try:
            d = os.read(fd, 1 << 20)
        except OSError:
            break
        if not d:
            break
        out.write(d)
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
PY
tty() {	# OUT ARGS...
	python3 "$TMP/onpty.py" "$@"
}

# a FIFO whose reader opens it at once and reads from it a second later: the
# json sink writing there is held back until then
slow_reader() {
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo" || exit 1
	(exec 3< "$TMP/fifo"; sleep 1; exec cat <&3 > /dev/null) &
}
AN="analyze $TMP/big.dio --analyzer all --sink json:file=$TMP/fifo"
slow_reader
tty "$TMP/an.tty" "$DIO" $AN || { echo "FAIL: dio analyze on a terminal exited $?"; fail=1; }
wait
slow_reader
"$DIO" $AN > "$TMP/an.out" 2>&1 || { echo "FAIL: dio analyze without a terminal exited $?"; fail=1; }
wait
python3 - "$TMP/an.tty" "$TMP/an.out" "$TMP/big.dio" <<'PY' || fail=1
import re, sys
tty, out, path = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), sys.argv[3]
line = re.compile(rb"\rreading " + re.escape(path.encode()) +
                  rb": (\d+) % \((\d+k|\d\.\dM) of 2\.0M records\), (\d+) s\x1b\[K")
shown = line.findall(tty)
if not shown:
    sys.exit("FAIL: no progress line on the terminal: %r" % tty[:300])
pcts = [int(p) for p, _, _ in shown]
if pcts != sorted(pcts) or not all(0 <= p <= 100 for p in pcts):
    sys.exit("FAIL: the progress went %s" % pcts)
# erased once, at the end of the reading, before anything else is printed
rest = line.sub(b"", tty)
if not rest.startswith(b"\r\x1b[K") or rest.count(b"\x1b[K") != 1:
    sys.exit("FAIL: the line was not erased once, first: %r" % rest[:100])
rest = rest[len(b"\r\x1b[K"):].replace(b"\r\n", b"\n")
if rest != out:
    sys.exit("FAIL: the output on the terminal differs from the one without it")
if b"reading " in out or b"\x1b" in out:
    sys.exit("FAIL: progress bytes without a terminal")
print("ok: %d progress lines (%s %%), erased, the output otherwise the same" % (len(shown), pcts))
PY

# -q: none; dio dump to the terminal: none (its records would go there); the same
# dump into a pipe: on standard error (the pipe's reader waits a second first)
slow_reader
tty "$TMP/q.tty" "$DIO" $AN -q --no-summary || { echo "FAIL: dio analyze -q exited $?"; fail=1; }
wait
tty "$TMP/dump.tty" "$DIO" dump "$TMP/big.dio" -e trace=write --no-details ||
	{ echo "FAIL: dio dump exited $?"; fail=1; }
[ "$(grep -c '^\[[0-9]*/[0-9]* dd\] write(1<' "$TMP/dump.tty")" -eq 1000000 ] ||
	{ echo "FAIL: dio dump did not print dd's million writes on the terminal"; fail=1; }
tty "$TMP/dumpf.tty" sh -c "\"$DIO\" dump \"$TMP/big.dio\" -e trace=write --no-details |
	{ sleep 1; cat > \"$TMP/dump.txt\"; }" ||
	{ echo "FAIL: dio dump | ... exited $?"; fail=1; }
grep -q 'reading ' "$TMP/q.tty" && { echo "FAIL: a progress line with -q"; fail=1; }
grep -q 'reading ' "$TMP/dump.tty" && { echo "FAIL: a progress line among dio dump's records"; fail=1; }
grep -q "reading $TMP/big.dio: " "$TMP/dumpf.tty" ||
	{ echo "FAIL: dio dump into a pipe shows no progress on the terminal"; fail=1; }
grep -q 'reading \|\[K' "$TMP/dump.txt" && { echo "FAIL: progress bytes in dio dump's file"; fail=1; }
rm -f "$TMP/dump.tty" "$TMP/dump.txt"
[ $fail -eq 0 ] && echo "PASS: a progress line on a terminal only, erased at the end"
exit $fail
