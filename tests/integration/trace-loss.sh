#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every lost record is counted, with its reason, live and in the trace file.
# The in-flight tables (block requests, io_uring requests, file mappings) fail
# when full and count it: --inflight-table 1 fills each on purpose. They are
# swept, so a long trace of processes that map files and exit never fills
# them. Every O_DIRECT write shows as a block request or is counted as lost.
# Records dio record's writer thread drops are named as such, with what held
# it back, never as ring-buffer losses.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0

# has FILE TEXT WHAT: FILE holds the fixed string TEXT
has() {
	grep -qF -- "$2" "$1" || { echo "FAIL: $3: no '$2' in:"; grep -i "lost\|warning" "$1" | head; fail=1; }
}

# count_of FILE TEXT: N of the first "dio: warning: N TEXT" line, 0 if none
count_of() {
	sed -n "s/^dio: warning: \([0-9][0-9]*\) $2.*/\1/p" "$1" | head -1 | grep . || echo 0
}

# --- the block request table: an 8 MiB O_DIRECT write is several requests at once
run_dio trace --inflight-table 1 -o "$TMP/b.out" \
	-- dd if=/dev/zero of="$MNT/big" bs=8M count=2 oflag=direct status=none 2> "$TMP/b.err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace --inflight-table 1 exited with $RC"; cat "$TMP/b.err"; fail=1; }
n=$(count_of "$TMP/b.err" "block requests lost: the block request table was full; raise --inflight-table")
[ "$n" -gt 0 ] || { echo "FAIL: a one-entry block table lost nothing, or said nothing:"; cat "$TMP/b.err"; fail=1; }
has "$TMP/b.out" "block request table full: $n" "the summary's lost-events finding"

# the same recorded: the file keeps the count, info, dump and analyze report it
run_dio record --inflight-table 1 -o "$TMP/b.dio" \
	-- dd if=/dev/zero of="$MNT/big" bs=8M count=2 oflag=direct status=none > "$TMP/rec.err" 2>&1
n=$(count_of "$TMP/rec.err" "block requests lost: the block request table was full")
[ "$n" -gt 0 ] || { echo "FAIL: dio record with a one-entry block table said nothing:"; cat "$TMP/rec.err"; fail=1; }
# an incomplete recording ends with its own exit status, for a CI job to notice
# (completions the kernel never showed dio may add to the number, never take from it)
[ "$RC" -eq 4 ] || { echo "FAIL: dio record that lost $n block requests exited with $RC, not 4"; fail=1; }
m=$(sed -n "s|^dio: $TMP/b.dio is incomplete: \([0-9]*\) records were lost (said above): exit status 4\$|\1|p" "$TMP/rec.err")
[ -n "$m" ] && [ "$m" -ge "$n" ] ||
	{ echo "FAIL: dio record did not say the file is incomplete ($n lost):"; tail -3 "$TMP/rec.err"; fail=1; }
# the traced command's own failure comes first
run_dio record --inflight-table 1 -o "$TMP/b5.dio" \
	-- sh -c "dd if=/dev/zero of='$MNT/big' bs=8M count=2 oflag=direct status=none; exit 5" \
	> "$TMP/rec5.err" 2>&1
[ "$RC" -eq 5 ] || { echo "FAIL: dio record of a command that exited 5 exited with $RC"; fail=1; }
"$DIO" info "$TMP/b.dio" > "$TMP/info"
grep -qx "lost_block=$n" "$TMP/info" || { echo "FAIL: dio info does not say lost_block=$n:"; grep lost_ "$TMP/info"; fail=1; }
"$DIO" analyze "$TMP/b.dio" > "$TMP/an" 2>&1
has "$TMP/an" "dio: warning: $n block requests lost: the block request table was full; raise --inflight-table" "dio analyze"
has "$TMP/an" "block request table full: $n" "dio analyze's lost-events finding"
"$DIO" dump "$TMP/b.dio" > /dev/null 2> "$TMP/dump.err"
has "$TMP/dump.err" "$n block requests lost: the block request table was full" "dio dump"

# --- the file-mapping table: a dynamically linked program maps its libraries
run_dio trace --inflight-table 1 -o /dev/null -- /bin/true 2> "$TMP/m.err"
n=$(count_of "$TMP/m.err" "file mappings not remembered: the file-mapping table was full; their munmap is not traced; raise --inflight-table")
[ "$n" -gt 0 ] || { echo "FAIL: a one-entry mapping table lost nothing, or said nothing:"; cat "$TMP/m.err"; fail=1; }

# --- the io_uring table: eight writes in flight together
run_dio trace --inflight-table 1 -o /dev/null -- "$WL/uring" "$MNT" batch 9> /dev/null 2> "$TMP/u.err"
n=$(count_of "$TMP/u.err" "io_uring requests lost: the io_uring table was full; raise --inflight-table")
[ "$n" -gt 0 ] || { echo "FAIL: a one-entry io_uring table lost nothing, or said nothing:"; cat "$TMP/u.err"; fail=1; }

# --- a long trace: 600 processes each leave their libraries mapped when they
# exit, far more than 1024 entries, and the table never fills
run_dio trace --inflight-table 1024 -e trace=mmap,munmap -o "$TMP/long.out" \
	-- sh -c 'i=0; while [ $i -lt 600 ]; do /bin/true; i=$((i + 1)); done' 2> "$TMP/long.err"
left=$(awk '/\] mmap\(.*\{.*type=reg/ { m++ } /\] munmap\(/ { u++ } END { print m - u }' "$TMP/long.out")
# half as many again as the table holds: without the sweep it would fill
[ "$left" -gt 1536 ] || { echo "FAIL: only $left file mappings outlived their munmap: the check proves nothing"; fail=1; }
if grep -q "table was full" "$TMP/long.err"; then
	echo "FAIL: the mappings of processes that exited filled the table:"; grep "table was full" "$TMP/long.err"; fail=1
fi

# --- every request of 3000 O_DIRECT writes is shown, or counted as lost
rm -f "$MNT/big"
run_dio trace --inflight-table 64 --no-summary -o "$TMP/dd.out" \
	-- dd if=/dev/zero of="$MNT/f" bs=4k count=3000 oflag=direct status=none 2> "$TMP/dd.err"
# a write whose requests all vanished has no block record since the write before it
missing=$(awk '/^\[[0-9\/]* dd\] --- block W/ { b = 1; next }
	/^\[[0-9\/]* dd\] write\(1</ { n++; if (!b) m++; b = 0 } END { print n " " m + 0 }' "$TMP/dd.out")
unseen=$(count_of "$TMP/dd.err" "block requests lost: their completion never reached dio")
if [ "${missing% *}" -ne 3000 ] || [ "${missing#* }" -gt "$unseen" ]; then
	echo "FAIL: of ${missing% *} writes (3000 made), ${missing#* } show no block request and $unseen were counted lost:"
	cat "$TMP/dd.err"; fail=1
fi
grep -q "table was full" "$TMP/dd.err" &&
	{ echo "FAIL: requests one at a time filled a 64-entry table:"; cat "$TMP/dd.err"; fail=1; }

# --- the writer thread: a writer behind lowers its level before it drops
# (tests/integration/record-busy.sh), so a writer that drops is held by its
# output: here a pipe whose reader waits 3 s before it reads, while dd makes
# 30000 records of 4 KiB (120 MB, more than the writer's 32 MiB of blocks)
mkfifo "$TMP/w.fifo"
(sleep 3; cat > "$TMP/w.dio") < "$TMP/w.fifo" &
reader=$!
run_dio record --hash user --capture-data 4096 -o "$TMP/w.fifo" \
	-- dd if=/dev/urandom of=/dev/null bs=4k count=30000 status=none > "$TMP/w.err" 2>&1
wait $reader
n=$(count_of "$TMP/w.err" "records not written to the trace file: dio record's writer thread was behind")
[ "$RC" -eq 4 ] || { echo "FAIL: dio record whose writer dropped $n records exited with $RC, not 4"; fail=1; }
if [ "$n" -eq 0 ]; then
	echo "FAIL: a writer stuck on its output for 3 s dropped nothing: the check proves nothing"; fail=1
fi
# what held it back was its output, never its CPU or the ring buffer
grep -E "^dio: warning: $n records not written .*; it waited for the disk: write the trace file to a faster one$" "$TMP/w.err" > /dev/null ||
	{ echo "FAIL: the writer's drops do not name its output:"; grep "records not written\|dropped" "$TMP/w.err"; fail=1; }
grep "records not written\|events were lost" "$TMP/w.err" | grep -q "CPU\|ring buffer" &&
	{ echo "FAIL: the writer's drops blame a CPU or the ring buffer:"; grep "CPU\|ring" "$TMP/w.err"; fail=1; }
"$DIO" info "$TMP/w.dio" > "$TMP/winfo"
grep -qx "dropped_records=$n" "$TMP/winfo" && grep -qx "dropped_cause=disk" "$TMP/winfo" &&
	grep -qx "lost_ringbuf=0" "$TMP/winfo" ||
	{ echo "FAIL: dio info does not keep the writer's drops apart:"; grep "lost_\|dropped\|writer" "$TMP/winfo"; fail=1; }
"$DIO" analyze "$TMP/w.dio" > "$TMP/wan" 2>&1
has "$TMP/wan" "trace file writer behind: $n" "dio analyze's lost-events finding"
grep -q "ring buffer" "$TMP/wan" &&
	{ echo "FAIL: dio analyze calls the writer's drops ring-buffer losses:"; grep "ring buffer" "$TMP/wan"; fail=1; }
exit $fail
