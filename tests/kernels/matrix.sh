#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix.sh: run dio's integration tests on each kernel fetch.sh put in the
# cache, one boot per kernel (boot.sh), and print a table per kernel and a last
# line "N passed, N failed, N skipped". Exits 1 if a test failed or a kernel did
# not boot. A test that crashes or hangs the kernel fails, and the tests after
# it run in a new boot. The host's own kernel is make check's.
#
# Environment (make check-kernels sets the first five from the build tree):
#   top_builddir top_srcdir DIO DIO_ANALYZER_PATH DIO_SINK_PATH  as for make check
#   DIO_KERNEL_TESTS         tests/integration/NAME.sh names (default below)
#   DIO_KERNELS              cache entries or kernel directories (default: all cached)
#   DIO_KERNEL_CACHE         fetch.sh's directory (default: $top_builddir/tests/kernels/cache)
#   DIO_KERNEL_OUT           where the logs go (default: a new directory in $TMPDIR or /tmp)
#   DIO_KERNEL_TEST_TIMEOUT  seconds one test may take (default 120)
set -eu
# what each kernel must show: calls with paths, offsets and tags (basic), generations
# after re-creation (reuse), fork/exec/exit and renames (threads, exit), io_uring,
# --path and --cgroup, block requests and run-queue waits (block), recordings
# (record-dump, including --hash), paths under chroot and in mount namespaces
# (root), what the kernel lacks said and recorded (features), open file descriptions
# followed through a real shell (ofd), lost records counted with their reason
# (loss), paths cut by the walk marked (longpath), -p of a thread and --tid
# (ids), the README's demo, dio top's counts in kernel maps (top-basic), and the
# kernel's BPF statistics turned on and off by --stats (stats)
TESTS="trace-basic trace-threads trace-exit trace-reuse trace-uring trace-filters trace-cgroup
	trace-block trace-hash record-dump trace-root trace-features trace-ofd trace-loss
	trace-longpath trace-ids readme-demo top-basic trace-stats"

here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/common.sh"

# a list over several lines too: read stops only at a NUL, and then fails
read -r -d '' -a tests <<< "${DIO_KERNEL_TESTS:-$TESTS}" || true
per=${DIO_KERNEL_TEST_TIMEOUT:-120}
case $per in '' | *[!0-9]*) die "DIO_KERNEL_TEST_TIMEOUT=$per: not a number of seconds" ;; esac
build_env

for t in "${tests[@]}"; do
	[ -f "$top_srcdir/tests/integration/$t.sh" ] ||
		die "no test $t: $top_srcdir/tests/integration/$t.sh does not exist"
done
[ -x "$DIO" ] || die "no dio binary at $DIO: run make first"

find_kernels

if [ -n "${DIO_KERNEL_OUT:-}" ]; then
	outroot=$DIO_KERNEL_OUT
	mkdir -p "$outroot"
else
	outroot=$(mktemp -d "${TMPDIR:-/tmp}/dio-kernels.XXXXXX")
fi

# The guest sees /tmp empty: a build tree there (a clone, distcheck's) is bound back.
keep=()
for p in "$top_srcdir" "$top_builddir" "$here" "$(dirname "$DIO")" \
	${DIO_ANALYZER_PATH//:/ } ${DIO_SINK_PATH//:/ }; do
	if [ -d "$p" ]; then
		keep+=(--keep "$(cd "$p" && pwd -P)")
	fi
done
ntests=${#tests[@]}

bpid=
# boot.sh ends qemu when it is told to stop
trap '[ -z "$bpid" ] || kill "$bpid" 2> /dev/null; exit 143' TERM INT HUP

# boot_once TEST...: one boot of $k that runs TESTs into $out/tests; sets rc and,
# if the guest hung in a test, stalled to its name
boot_once() {
	local now age
	# the tests' own deadlines bound a run; this one only catches a guest that hangs
	# before the first test
	"$here/boot.sh" --kernel "$k" --out "$out" --timeout $((180 + $# * (per + 15))) \
		"${keep[@]}" -- /bin/sh "$here/guest-tests.sh" "$out/tests" "$per" "$@" \
		> "$out/boot.out" 2> "$out/boot.err" &
	bpid=$!
	stalled=
	# The guest kills a test after per + 10 s; a test still running well after
	# that means the guest hangs (a lockup that did not panic): stop waiting.
	while kill -0 "$bpid" 2> /dev/null; do
		sleep 2
		now=$(date +%s)
		age=$((now - $(stat -c %Y "$out/tests/current" 2> /dev/null || echo "$now")))
		if [ "$age" -gt $((per + 60)) ]; then
			stalled=$(cat "$out/tests/current")
			kill "$bpid"
			break
		fi
	done
	rc=0
	wait "$bpid" || rc=$?
	bpid=
}

passed=0 failed=0 skipped=0 broken=0
echo "host $(uname -r): not booted here, make check covers it"
for k in $kernels; do
	name=${k##*/}
	out=$outroot/$name
	rm -rf "$out"
	mkdir -p "$out/tests"
	echo
	echo "$name ($(cat "$k/release")): $ntests tests, logs in $out"
	declare -A trc=() tsecs=() tnote=()
	todo=("${tests[@]}")
	n=0
	# One boot runs every test; one that brings the kernel down fails, and a new
	# boot runs those after it.
	while [ ${#todo[@]} -gt 0 ]; do
		n=$((n + 1))
		boot_once "${todo[@]}"
		while read -r t r s; do
			trc[$t]=$r
			tsecs[$t]=$s
		done < <(cat "$out/tests/results" 2> /dev/null)
		up='?' wall='?'
		[ -f "$out/times" ] && . "$out/times"
		why=
		blame=
		if [ -f "$out/status" ]; then
			[ "$rc" -eq 0 ] || why="the test runner exited with $rc: $(tail -n 1 "$out/output")"
		elif [ -n "$stalled" ]; then
			why="the guest hung in $stalled: no result $((per + 60)) s after it started"
			blame=$stalled
		else
			why=$(tail -n 1 "$out/boot.err")
			blame=$(cat "$out/tests/current" 2> /dev/null || true)
		fi
		if [ -z "$why" ]; then
			echo "  boot $n: up in $up s, qemu ran $wall s"
			break
		fi
		if [ -z "$blame" ] || [ -n "${trc[$blame]:-}" ]; then
			# no test to blame: the kernel did not boot, or the harness failed
			echo "  boot $n: up in $up s, qemu ran $wall s; $why"
			broken=1
			for t in "${todo[@]}"; do
				[ -n "${trc[$t]:-}" ] || tnote[$t]="not run: the VM stopped before it"
			done
			break
		fi
		# the dead boot's console stays for the report; the next boot writes its own
		mv "$out/console.log" "$out/console.$n.log"
		rm -f "$out/tests/current"
		echo "  boot $n: up in $up s, qemu ran $wall s; ${why//"$out/console.log"/"$out/console.$n.log"}"
		trc[$blame]=crash
		tnote[$blame]="the kernel crashed or hung during it: see console.$n.log"
		todo=()
		for t in "${tests[@]}"; do
			[ -n "${trc[$t]:-}" ] || todo+=("$t")
		done
	done
	printf '  %-24s %-6s %8s\n' TEST RESULT SECONDS
	for t in "${tests[@]}"; do
		note=${tnote[$t]:-}
		case ${trc[$t]:--} in
		0) res=PASS ;;
		77)
			res=SKIP
			note=$(sed -n 's/^SKIP: //p' "$out/tests/$t.log" | head -n 1)
			;;
		124) res=FAIL; note="timed out after $per s" ;;
		crash | -) res=FAIL ;;
		*) res=FAIL; note="exit status ${trc[$t]}" ;;
		esac
		case $res in
		PASS) passed=$((passed + 1)) ;;
		SKIP) skipped=$((skipped + 1)) ;;
		FAIL) failed=$((failed + 1)) ;;
		esac
		printf '  %-24s %-6s %8s  %s\n' "$t" "$res" "${tsecs[$t]:--}" "$note" | sed 's/ *$//'
		if [ "$res" = FAIL ] && [ -s "$out/tests/$t.log" ]; then
			echo "  --- last lines of $out/tests/$t.log:"
			tail -n 15 "$out/tests/$t.log" | sed 's/^/  | /'
		fi
	done
	unset trc tsecs tnote
done
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
