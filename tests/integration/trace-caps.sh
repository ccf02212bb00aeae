#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's unprivileged setup: a copy of dio with the file capabilities
# CAP_BPF and CAP_PERFMON, run by an ordinary user (nobody). tracefs is mode
# 0700, so per-syscall tracepoints cannot be looked up: dio says so once and
# traces through the raw syscall tracepoints. With CAP_DAC_READ_SEARCH too,
# tracefs is readable with dio's capabilities (not the user's, as access()
# would check) and every tracepoint is found.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
for c in setcap setpriv; do
	command -v $c > /dev/null || { echo "SKIP: $c not installed"; exit 77; }
done
fail=0

# the build tree's layout, which dio searches next to itself, in a directory
# nobody can read; removed at the end with everything in it
pub=$(mktemp -d /tmp/dio-caps.XXXXXX)
trap 'rm -rf "$pub"; cleanup' EXIT
chmod 755 "$pub"
for m in "$top_builddir"/analyzers/*/.libs/*.so "$top_builddir"/sinks/*/.libs/*.so; do
	d=$pub/${m#"$top_builddir"/}
	mkdir -p "${d%/*}"
	cp "$m" "$d"
done
cp "$DIO" "$pub/dio"
chmod -R a+rX "$pub"

as_nobody() {	# CAPS ARGS...: run the copy with file capabilities CAPS as nobody
	caps=$1
	shift
	setcap "$caps+ep" "$pub/dio" || { echo "FAIL: setcap $caps"; exit 1; }
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$pub/dio" "$@")
}

as_nobody cap_bpf,cap_perfmon trace --no-summary -e trace=openat -- cat /etc/hostname \
	> "$TMP/caps.out" 2>&1
rc=$?
grep -q '^\[[0-9/]* cat\] openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3</etc/hostname>' "$TMP/caps.out" &&
	[ "$rc" -eq 0 ] || { echo "FAIL: CAP_BPF+CAP_PERFMON: exit $rc, no openat of /etc/hostname:"; cat "$TMP/caps.out"; fail=1; }
n=$(grep -c '^dio: ' "$TMP/caps.out")
grep -qxF 'dio: warning: tracefs (/sys/kernel/tracing) is not readable without root or CAP_DAC_READ_SEARCH: system calls are traced through the raw syscall tracepoints (--attach raw)' \
	"$TMP/caps.out" && [ "$n" -eq 1 ] ||
	{ echo "FAIL: CAP_BPF+CAP_PERFMON: want one line on tracefs, got $n lines from dio"; fail=1; }
as_nobody cap_bpf,cap_perfmon trace --attach syscall -- true > "$TMP/att.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && [ "$(cat "$TMP/att.out")" = "dio: --attach syscall: tracefs (/sys/kernel/tracing) is not readable without root or CAP_DAC_READ_SEARCH (Permission denied): use --attach raw or run dio as root" ] ||
	{ echo "FAIL: --attach syscall without tracefs: exit $rc:"; cat "$TMP/att.out"; fail=1; }

for attach in auto syscall; do
	as_nobody cap_bpf,cap_perfmon,cap_dac_read_search trace --no-summary --attach $attach \
		-e trace=openat -- cat /etc/hostname > "$TMP/dac.out" 2>&1
	rc=$?
	grep -q '^\[[0-9/]* cat\] openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3</etc/hostname>' "$TMP/dac.out" &&
		[ "$rc" -eq 0 ] && ! grep -q '^dio: ' "$TMP/dac.out" || {
		echo "FAIL: CAP_BPF+CAP_PERFMON+CAP_DAC_READ_SEARCH, --attach $attach: exit $rc:"
		cat "$TMP/dac.out"
		fail=1
	}
done
[ $fail -eq 0 ] && echo "PASS: dio with file capabilities traces for an ordinary user"
exit $fail
