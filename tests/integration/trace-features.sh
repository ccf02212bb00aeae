#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the kernel lets dio do, and what dio says when it cannot. 'dio list
# features' names every feature with its state; a feature turned off (as on a
# kernel without it) is said in one line at start and its records do not
# come; a recording keeps the feature set in its metadata; the exit records'
# group_dead is the same whether the tracepoint passes it or dio counts the
# process's live threads; an unknown name in DIO_DISABLE_FEATURES is refused.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
mount_ext4
fail=0
FEATURES="field-loads exit-group io_uring block runq"

# every feature, one state each, on this kernel
"$DIO" list features > "$TMP/list" || { echo "FAIL: dio list features exited with $?"; fail=1; }
for f in $FEATURES; do
	grep -Eq "^$f +(native|fallback|missing) " "$TMP/list" ||
		{ echo "FAIL: dio list features has no state for $f:"; cat "$TMP/list"; fail=1; }
done
DIO_DISABLE_FEATURES=field-loads,exit-group,io_uring,block,runq "$DIO" list features > "$TMP/list2"
for want in "field-loads fallback" "exit-group fallback" "io_uring missing" "block missing" \
	"runq missing"; do
	set -- $want
	grep -Eq "^$1 +$2 " "$TMP/list2" ||
		{ echo "FAIL: with $1 turned off, dio list features does not say $2:"; cat "$TMP/list2"; fail=1; }
done
grep -q "turned off by DIO_DISABLE_FEATURES" "$TMP/list2" ||
	{ echo "FAIL: dio list features does not say why"; fail=1; }

# a missing feature: one line at start, and none of its records
export DIO_DISABLE_FEATURES=io_uring
run_dio trace --no-summary -o "$TMP/out" -- "$WL/uring" "$MNT" 9> /dev/null 2> "$TMP/err"
[ "$RC" -eq 0 ] || { echo "FAIL: dio without io_uring tracking exited with $RC"; cat "$TMP/err"; fail=1; }
printf 'dio: warning: io_uring: turned off by DIO_DISABLE_FEATURES: no io_uring requests\n' > "$TMP/want"
cmp -s "$TMP/want" "$TMP/err" ||
	{ echo "FAIL: dio said at start (expected the one line above):"; cat "$TMP/want" "$TMP/err"; fail=1; }
grep -q '\] io_uring [A-Z]' "$TMP/out" && { echo "FAIL: io_uring requests without the feature"; fail=1; }
grep -q '\] io_uring_enter(' "$TMP/out" || { echo "FAIL: the io_uring_enter calls went missing too"; fail=1; }

# the recording says which features it had
DIO_DISABLE_FEATURES=runq
run_dio record -o "$TMP/t.dio" --no-summary -- true 2> /dev/null
[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC"; fail=1; }
line=$("$DIO" info "$TMP/t.dio" | grep '^features=')
case $line in
features=field-loads=*,exit-group=*,io_uring=*,block=*,runq=missing) ;;
*) echo "FAIL: dio info shows '$line' for the features"; fail=1 ;;
esac

# group_dead: the tracepoint's argument (6.16+) or the live-thread count, the same answer
for mode in native exit-group; do
	dis=
	[ $mode = native ] || dis=$mode
	DIO_DISABLE_FEATURES=$dis
	run_dio trace --no-summary --sink "json:file=$TMP/$mode.json" \
		-- "$WL/threads" "$MNT" 9> /dev/null > /dev/null 2>&1
	[ "$RC" -eq 0 ] || { echo "FAIL: dio ($mode) exited with $RC"; fail=1; }
	# per process: its exits as "tid-is-pid:group_dead", in order
	jq -r 'select(.type == "proc" and .kind == "exit") |
		"\(.pid) \(if .tid == .pid then "leader" else "thread" end):\(.group_dead)"' \
		"$TMP/$mode.json" | sort -k1,1n -s | awk '{ print $2 }' > "$TMP/$mode.exits"
	# each process ends once: its last exit record and no other has group_dead
	n_dead=$(grep -c ':true$' "$TMP/$mode.exits")
	n_proc=$(jq -r 'select(.type == "proc" and .kind == "exit") | .pid' "$TMP/$mode.json" | sort -u | wc -l)
	if [ "$n_proc" -lt 2 ] || [ "$n_dead" -ne "$n_proc" ]; then
		echo "FAIL: $mode: $n_dead exits with group_dead for $n_proc processes:"
		cat "$TMP/$mode.exits"
		fail=1
	fi
done
cmp -s "$TMP/native.exits" "$TMP/exit-group.exits" ||
	{ echo "FAIL: group_dead differs between the native and the fallback program:"; diff "$TMP/native.exits" "$TMP/exit-group.exits"; fail=1; }

# a name dio does not know: refused before anything is loaded
DIO_DISABLE_FEATURES=fast
run_dio trace -- true 2> "$TMP/err"
unset DIO_DISABLE_FEATURES
[ "$RC" -eq 1 ] || { echo "FAIL: DIO_DISABLE_FEATURES=fast: exit $RC, want 1"; fail=1; }
grep -qx "dio: DIO_DISABLE_FEATURES: unknown feature 'fast' (see 'dio list features')" "$TMP/err" ||
	{ echo "FAIL: DIO_DISABLE_FEATURES=fast said:"; cat "$TMP/err"; fail=1; }

[ $fail -eq 0 ] && echo "ok: features listed, degraded with one line each, recorded; group_dead both ways"
exit $fail
