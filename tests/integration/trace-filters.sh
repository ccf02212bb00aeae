#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Filters work in the kernel: --path, --exclude-path, --only-files, -e trace=,
# --comm, and -p attaches to a running process.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mkdir -p "$TMP/keep" "$TMP/drop"

script='echo a > keep/x; echo b > drop/y; cat keep/x drop/y | cat > /dev/null; cat keep/x > /dev/null'
cd "$TMP" || exit 1

# --path: only files under the prefix, by the file (fd calls) or the argument (path calls)
run_dio trace --no-summary --path "$TMP/keep" -o "$TMP/out" -- sh -c "$script"
[ "$RC" -eq 0 ] || { echo "FAIL: dio exited with $RC"; exit 1; }
grep -q "openat(AT_FDCWD, \"keep/x\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3<$TMP/keep/x>" "$TMP/out" ||
	{ echo "FAIL: --path lost the open of keep/x"; cat "$TMP/out"; exit 1; }
if grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -v "$TMP/keep\|\"keep/" | grep -q .; then
	echo "FAIL: --path let other calls through:"
	grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -v "$TMP/keep\|\"keep/"
	exit 1
fi

# --exclude-path
run_dio trace --no-summary --exclude-path "$TMP/drop" -o "$TMP/out" -- sh -c "$script"
grep -q "$TMP/drop\|\"drop/" "$TMP/out" && { echo "FAIL: --exclude-path let drop/ through"; exit 1; }
grep -q "$TMP/keep/x" "$TMP/out" || { echo "FAIL: --exclude-path dropped keep/"; exit 1; }

# --only-files drops the pipe between the two cats, keeps the files
run_dio trace --no-summary --only-files -o "$TMP/out" -- sh -c "$script"
grep -q "pipe:\[" "$TMP/out" && { echo "FAIL: --only-files kept a pipe"; grep "pipe:" "$TMP/out" | head -3; exit 1; }
grep -q "write(1<$TMP/keep/x>" "$TMP/out" || { echo "FAIL: --only-files lost a file write"; exit 1; }

# -e trace=%data: data calls only
run_dio trace --no-summary -e trace=%data -o "$TMP/out" -- sh -c "$script"
if grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -vqE '\] (read|write|pread64|pwrite64|readv|writev|copy_file_range|sendfile|splice|fallocate|readahead)\('; then
	echo "FAIL: -e trace=%data let other calls through"; exit 1
fi
grep -q "read(3<$TMP/keep/x>" "$TMP/out" || { echo "FAIL: -e trace=%data lost a read"; exit 1; }

# --comm: only the cat processes
run_dio trace --no-summary --comm cat -o "$TMP/out" -- sh -c "$script"
grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -v '^\[[0-9]*/[0-9]* cat\]' | grep -q . &&
	{ echo "FAIL: --comm cat let other threads through"; exit 1; }
grep -q "cat\] read(3<$TMP/keep/x>" "$TMP/out" || { echo "FAIL: --comm cat lost cat's reads"; exit 1; }

# -p: attach to a running process; dio stops when it is gone
sh -c 'while [ ! -e stop ]; do echo tick >> keep/ticks; sleep 0.1; done' &
pid=$!
sleep 0.3
timeout 30 "$DIO" trace --no-summary -p "$pid" -o "$TMP/out" &
dio=$!
sleep 2
touch stop
wait "$dio"
RC=$?
[ "$RC" -eq 0 ] || { echo "FAIL: dio -p exited with $RC"; exit 1; }
grep -q "\[$pid/$pid sh\] openat(AT_FDCWD, \"keep/ticks\", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3<$TMP/keep/ticks>" "$TMP/out" ||
	{ echo "FAIL: -p did not trace the running shell"; head "$TMP/out"; exit 1; }

# -a: the whole system, narrowed here with --path; --tid: one thread only
sh -c 'i=0; while [ $i -lt 40 ]; do echo x >> keep/all; sleep 0.05; i=$((i+1)); done' &
bg=$!
run_dio trace -a --no-summary -d 1 --path "$TMP/keep/all" -o "$TMP/out"
[ "$RC" -eq 0 ] || { echo "FAIL: dio -a exited with $RC"; exit 1; }
grep -q "^\[$bg/$bg sh\] openat(AT_FDCWD, \"keep/all\", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3<$TMP/keep/all>" "$TMP/out" ||
	{ echo "FAIL: -a did not see the background writer"; head "$TMP/out"; exit 1; }
run_dio trace -a --tid "$bg" --no-summary -d 1 -o "$TMP/out"
grep -E '\] [a-z0-9_]+\(' "$TMP/out" | grep -v "^\[$bg/$bg " | grep -q . &&
	{ echo "FAIL: --tid let other threads through"; exit 1; }
grep -q "^\[$bg/$bg sh\] write(1<$TMP/keep/all>" "$TMP/out" ||
	{ echo "FAIL: --tid lost the thread's writes"; exit 1; }
wait "$bg"
echo ok
