#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make install's deployment kit, installed into a prefix of the test's own: the modules
# (each one built) without their .la files and without libtool's --finish warning, the systemd units
# naming this install's paths and passing systemd-analyze verify (with the man page they
# name), the tmpfiles.d entry making the spool 0700, the sample /etc/dio config that dio
# takes, the documents under the doc directory; make uninstall removes every file.
# Under systemd-run too when systemd is PID 1. SKIP only without systemd-analyze.
. "$top_srcdir/tests/integration/lib.sh"
command -v systemd-analyze > /dev/null ||
	{ echo "SKIP: systemd-analyze is not installed: apt-get install systemd"; exit 77; }
fail=0
P=$TMP/p
make -C "$top_builddir" install prefix="$P" > "$TMP/install.log" 2>&1 ||
	{ echo "FAIL: make install:"; tail -20 "$TMP/install.log"; exit 1; }
if grep -E "libtool: warning|Libraries have been installed" "$TMP/install.log"; then
	echo "FAIL: make install printed libtool's warnings"
	fail=1
fi
[ -z "$(find "$P" -name '*.la')" ] || { echo "FAIL: .la files installed: $(find "$P" -name '*.la')"; fail=1; }
# every module built (the common code is no module), one .so each
nmod=$(ls "$top_builddir"/analyzers/*/*.la "$top_builddir"/sinks/*/*.la | grep -vc /common/)
[ "$(find "$P/lib/dio" -name '*.so' | wc -l)" -eq "$nmod" ] ||
	{ echo "FAIL: not the $nmod modules: $(find "$P/lib/dio" -name '*.so')"; fail=1; }
for f in lib/systemd/system/dio.service lib/systemd/system/dio@.service lib/tmpfiles.d/dio.conf \
	etc/dio/dio.conf.sample share/doc/dio/README.md share/doc/dio/docs/operations.md \
	share/doc/dio/docs/clickhouse.md share/doc/dio/sinks/clickhouse/README.md \
	share/doc/dio/analyzers/summary/README.md share/man/man1/dio.1; do
	[ -f "$P/$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
grep -qx "ExecStart=$P/bin/dio trace -q -C $P/etc/dio/dio.conf" "$P/lib/systemd/system/dio.service" ||
	{ echo "FAIL: dio.service does not run this install's dio:"; grep Exec "$P/lib/systemd/system/dio.service"; fail=1; }

# the units as systemd reads them; an instance of the template needs its service
printf '[Service]\nExecStart=/bin/true\n' > "$P/lib/systemd/system/i.service"
MANPATH=$P/share/man systemd-analyze verify "$P/lib/systemd/system/dio.service" \
	"$P/lib/systemd/system/dio@.service" > "$TMP/verify.out" 2>&1 ||
	{ echo "FAIL: systemd-analyze verify:"; cat "$TMP/verify.out"; fail=1; }
rm "$P/lib/systemd/system/i.service"
# and a broken one fails, so the check is seen to work
sed 's/^ExecStart=/ExecStart=nonexistent-/' "$P/lib/systemd/system/dio.service" > "$TMP/bad.service"
! MANPATH=$P/share/man systemd-analyze verify "$TMP/bad.service" > /dev/null 2>&1 ||
	{ echo "FAIL: systemd-analyze verify took a unit whose command is no path"; fail=1; }

# the spool as tmpfiles.d makes it
mkdir "$TMP/root"
systemd-tmpfiles --root="$TMP/root" --create "$P/lib/tmpfiles.d/dio.conf" > "$TMP/tmpfiles.out" 2>&1 ||
	{ echo "FAIL: systemd-tmpfiles:"; cat "$TMP/tmpfiles.out"; fail=1; }
for d in var/spool/dio var/lib/dio; do
	[ "$(stat -c '%a %U' "$TMP/root/$d" 2> /dev/null)" = "700 root" ] ||
		{ echo "FAIL: /$d: $(stat -c '%a %U' "$TMP/root/$d" 2>&1)"; fail=1; }
done

# the sample config as the unit uses it (its sink replaced: no server here), root and BTF only
if [ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	exec 8> /tmp/dio-integration.lock
	flock 8
	run_dio trace -C "$P/etc/dio/dio.conf.sample" -q --no-summary --sink console -d 1 \
		> "$TMP/sample.out" 2>&1
	[ "$RC" -eq 0 ] || { echo "FAIL: dio trace with the sample config exited $RC:"; cat "$TMP/sample.out"; fail=1; }
	if [ "$(ps -o comm= -p 1)" = systemd ] && command -v systemd-run > /dev/null; then
		systemd-run --wait --collect --quiet -p KillSignal=SIGINT -p StateDirectory=dio \
			"$DIO" trace -C "$P/etc/dio/dio.conf.sample" -q --no-summary --sink console -d 1 ||
			{ echo "FAIL: dio under systemd-run"; fail=1; }
	else
		echo "systemd is not PID 1 here: the run under systemd-run is left out"
	fi
else
	echo "not root, or no BTF: the sample config is not run"
fi

make -C "$top_builddir" uninstall prefix="$P" > "$TMP/uninstall.log" 2>&1 ||
	{ echo "FAIL: make uninstall:"; tail "$TMP/uninstall.log"; fail=1; }
left=$(find "$P" -type f)
[ -z "$left" ] || { echo "FAIL: make uninstall left: $left"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: the deployment kit installs, verifies and uninstalls"
exit $fail
