#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix.sh: run dio's integration tests on each kernel fetch.sh put in the
# cache, one boot per kernel (boot.sh), and print a table per kernel and a last
# line "N passed, N failed, N skipped". Exits 1 if a test failed or a kernel did
# not boot. The host's own kernel is make check's.
#
# Environment (make check-kernels sets the first five from the build tree):
#   top_builddir top_srcdir DIO DIO_ANALYZER_PATH DIO_SINK_PATH  as for make check
#   DIO_KERNEL_TESTS         tests/integration/NAME.sh names (default below)
#   DIO_KERNELS              cache entries or kernel directories (default: all cached)
#   DIO_KERNEL_CACHE         fetch.sh's directory (default: $top_builddir/tests/kernels/cache)
#   DIO_KERNEL_OUT           where the logs go (default: a new directory in $TMPDIR or /tmp)
#   DIO_KERNEL_TEST_TIMEOUT  seconds one test may take (default 300)
set -eu
TESTS="trace-basic trace-threads trace-reuse trace-uring trace-filters trace-cgroup trace-block
	record-dump"

here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/common.sh"

# a list over several lines too: read stops only at a NUL, and then fails
read -r -d '' -a tests <<< "${DIO_KERNEL_TESTS:-$TESTS}" || true
per=${DIO_KERNEL_TEST_TIMEOUT:-300}
case $per in '' | *[!0-9]*) die "DIO_KERNEL_TEST_TIMEOUT=$per: not a number of seconds" ;; esac
# as tests/local.mk's AM_TESTS_ENVIRONMENT, for a run by hand in a source tree
: "${top_srcdir:=$(cd "$here/../.." && pwd -P)}"
: "${top_builddir:=$top_srcdir}"
: "${DIO:=$top_builddir/dio}"
: "${DIO_ANALYZER_PATH:=$top_builddir/analyzers}"
: "${DIO_SINK_PATH:=$top_builddir/sinks}"
export top_srcdir top_builddir DIO DIO_ANALYZER_PATH DIO_SINK_PATH
cache=${DIO_KERNEL_CACHE:-$top_builddir/tests/kernels/cache}

for t in "${tests[@]}"; do
	[ -f "$top_srcdir/tests/integration/$t.sh" ] ||
		die "no test $t: $top_srcdir/tests/integration/$t.sh does not exist"
done
[ -x "$DIO" ] || die "no dio binary at $DIO: run make first"

if [ -n "${DIO_KERNELS:-}" ]; then
	kernels=
	for k in $DIO_KERNELS; do
		[ -d "$k" ] || k=$cache/$k
		[ -f "$k/complete" ] || die "DIO_KERNELS: $k is no kernel fetched by fetch.sh"
		kernels+=" $k"
	done
else
	kernels=$(for c in "$cache"/*/complete; do [ -f "$c" ] && dirname "$c"; done)
	[ -n "$kernels" ] || die "no kernel in $cache: run tests/kernels/fetch.sh $cache first"
fi

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
# the tests' own deadlines bound a run; this one only catches a hung guest
vmtimeout=$((180 + ntests * (per + 15)))

passed=0 failed=0 skipped=0 broken=0
echo "host $(uname -r): not booted here, make check covers it"
for k in $kernels; do
	name=${k##*/}
	out=$outroot/$name
	rm -rf "$out"
	mkdir -p "$out/tests"
	echo
	echo "$name: booting to run $ntests tests (logs in $out)"
	set +e
	"$here/boot.sh" --kernel "$k" --out "$out" --timeout "$vmtimeout" "${keep[@]}" -- \
		/bin/sh "$here/guest-tests.sh" "$out/tests" "$per" "${tests[@]}" > "$out/boot.out" 2> "$out/boot.err"
	rc=$?
	set -e
	why=
	if [ ! -f "$out/status" ]; then
		why=$(tail -n 1 "$out/boot.err")
		broken=1
	elif [ "$rc" -ne 0 ]; then
		why="the test runner exited with $rc: $(tail -n 1 "$out/output")"
		broken=1
	fi
	up='?' end='?' wall='?'
	[ -f "$out/times" ] && . "$out/times"
	echo "$name ($(cat "$k/release" 2> /dev/null || echo "$k")): up in $up s," \
		"tests done at $end s, qemu ran $wall s${why:+; $why}"
	printf '  %-24s %-6s %8s\n' TEST RESULT SECONDS
	for t in "${tests[@]}"; do
		read -r _ trc secs < <(grep "^$t " "$out/tests/results" 2> /dev/null || echo "$t - -")
		note=
		case $trc in
		0) res=PASS; passed=$((passed + 1)) ;;
		77)
			res=SKIP
			skipped=$((skipped + 1))
			note=$(sed -n 's/^SKIP: //p' "$out/tests/$t.log" | head -n 1)
			;;
		-) res=FAIL; failed=$((failed + 1)); note="not run: the VM stopped before it" ;;
		124) res=FAIL; failed=$((failed + 1)); note="timed out after $per s" ;;
		*) res=FAIL; failed=$((failed + 1)); note="exit status $trc" ;;
		esac
		printf '  %-24s %-6s %8s  %s\n' "$t" "$res" "$secs" "$note" | sed 's/ *$//'
		if [ "$res" = FAIL ] && [ -f "$out/tests/$t.log" ]; then
			echo "  --- last lines of $out/tests/$t.log:"
			tail -n 15 "$out/tests/$t.log" | sed 's/^/  | /'
		fi
	done
done
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
