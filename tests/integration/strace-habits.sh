#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# strace's habits: -f and -y are accepted (dio always follows children and
# shows paths): a child's write is traced with its path; -c prints the
# summary table and no call; -s N cuts captured data at N bytes with "...", as
# strace -s, and leaves it whole without -s; -s out of range is a one-line
# error and exit status 2.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

run_dio trace -f -y --no-summary -e trace=write -- sh -c "sh -c 'echo child > \"$TMP/f.out\"'" \
	> "$TMP/fy.out" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace -f -y exited $RC:"; cat "$TMP/fy.out"; fail=1; }
grep -q "write(1<$TMP/f.out>, .*, 6) = 6" "$TMP/fy.out" ||
	{ echo "FAIL: -f -y: the child's write to f.out with its path is not traced:"; cat "$TMP/fy.out"; fail=1; }

run_dio trace -c -- sh -c "echo x > \"$TMP/c.out\"" > "$TMP/c.txt" 2>&1
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace -c exited $RC"; fail=1; }
grep -q '^% time .* syscall$' "$TMP/c.txt" || { echo "FAIL: -c: no summary table"; cat "$TMP/c.txt"; fail=1; }
! grep -q "^\[[0-9]*/[0-9]* " "$TMP/c.txt" || { echo "FAIL: -c printed calls:"; head -3 "$TMP/c.txt"; fail=1; }

run_dio record -q -o "$TMP/s.dio" --hash user --capture-data 64 -- \
	sh -c "printf 'abcdefghijklmnopqrstuvwxyz' > \"$TMP/s.out\""
[ "$RC" -eq 0 ] || { echo "FAIL: dio record --capture-data exited $RC"; fail=1; }
run_dio dump -s 5 -e trace=write "$TMP/s.dio" > "$TMP/s5.txt" 2>&1
grep -q 'data="abcde"\.\.\.}' "$TMP/s5.txt" || { echo "FAIL: -s 5 did not cut the data:"; cat "$TMP/s5.txt"; fail=1; }
run_dio dump -e trace=write "$TMP/s.dio" > "$TMP/sall.txt" 2>&1
grep -q 'data="abcdefghijklmnopqrstuvwxyz"}' "$TMP/sall.txt" ||
	{ echo "FAIL: without -s the data is not whole:"; cat "$TMP/sall.txt"; fail=1; }

run_dio dump -s 70000 "$TMP/s.dio" > "$TMP/bad.out" 2> "$TMP/bad.err"
[ "$RC" -eq 2 ] && [ "$(cat "$TMP/bad.err")" = "dio: -s: '70000' is out of range (use 0 to 65535)" ] ||
	{ echo "FAIL: -s 70000: exit $RC, $(cat "$TMP/bad.err")"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: -f, -y, -c and -s as strace users type them"
exit $fail
