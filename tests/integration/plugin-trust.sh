#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Modules run with dio's privileges, and config files name modules: dio
# refuses a module or config file that someone else could write (the file or
# its directory), never lets a module found through $DIO_ANALYZER_PATH take
# a built-in's name, says which file it loaded from there, and, given file
# capabilities, ignores the variables altogether (secure_getenv). No BPF is
# loaded: root is needed for chown and setcap.
. "$top_srcdir/tests/integration/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chown, setcap)"; exit 77; }
fail=0
good=$top_builddir/tests/unit/modules/.libs/good.so
demo=$top_srcdir/tests/fuzz/corpus/demo.dio
[ -f "$good" ] || { echo "FAIL: no test module at $good (make check builds it)"; exit 1; }

refused() {	# WHAT MESSAGE-PATTERN ARGS...
	what=$1 pat=$2
	shift 2
	"$DIO" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] || ! grep -q "$pat" "$TMP/err"; then
		echo "FAIL: $what: status $rc, stderr (expected one line matching '$pat'):"
		cat "$TMP/err"
		fail=1
	fi
}

mkdir -m 755 "$TMP/m"
cp "$good" "$TMP/m/good.so"
chmod 666 "$TMP/m/good.so"
refused "a world-writable module" "^dio: refusing analyzer module $TMP/m/good.so is writable by others" \
	analyze "$demo" --analyzer "$TMP/m/good.so"
chmod 644 "$TMP/m/good.so"
chown 65534 "$TMP/m/good.so"
refused "a module another user owns" "^dio: refusing analyzer module $TMP/m/good.so is owned by another user" \
	analyze "$demo" --analyzer "$TMP/m/good.so"
chown 0 "$TMP/m/good.so"
chmod 777 "$TMP/m"
refused "a module in a world-writable directory" "^dio: refusing analyzer module $TMP/m/good.so is in $TMP/m, which others can write" \
	analyze "$demo" --analyzer "$TMP/m/good.so"
chmod 755 "$TMP/m"
"$DIO" analyze "$demo" --no-summary --analyzer "$TMP/m/good.so" > /dev/null 2> "$TMP/err" ||
	{ echo "FAIL: a module root owns, not writable by others, is refused:"; cat "$TMP/err"; fail=1; }

printf 'quiet = true;\n' > "$TMP/m/dio.conf"
chmod 666 "$TMP/m/dio.conf"
refused "a world-writable config file" "^dio: refusing config file $TMP/m/dio.conf is writable by others" \
	analyze "$demo" -C "$TMP/m/dio.conf"

# a module in $DIO_ANALYZER_PATH named like a built-in: the built-in is loaded
mkdir -m 755 "$TMP/env"
cp "$good" "$TMP/env/summary.so"
DIO_ANALYZER_PATH="$TMP/env" "$DIO" analyze "$demo" > "$TMP/out" 2>&1
grep -q '^% time' "$TMP/out" && ! grep -q "$TMP/env" "$TMP/out" ||
	{ echo "FAIL: \$DIO_ANALYZER_PATH/summary.so replaced the built-in summary:"; cat "$TMP/out"; fail=1; }
# ... and one of a new name is loaded, saying from where
cp "$good" "$TMP/env/good.so"
DIO_ANALYZER_PATH="$TMP/env" "$DIO" analyze "$demo" --no-summary --analyzer good > /dev/null 2> "$TMP/err"
grep -qxF "dio: warning: analyzer good: loading $TMP/env/good.so (found through \$DIO_ANALYZER_PATH)" "$TMP/err" ||
	{ echo "FAIL: a module found through \$DIO_ANALYZER_PATH, silently:"; cat "$TMP/err"; fail=1; }

# with file capabilities, the variables are ignored: an unprivileged user's
# module must not run (its constructor would leave a mark)
if command -v setcap > /dev/null && command -v setpriv > /dev/null && command -v cc > /dev/null; then
	pub=$(mktemp -d /tmp/dio-trust.XXXXXX)
	chmod 755 "$pub"
	printf '%s\n' '#include <stdio.h>' \
		"__attribute__((constructor)) static void mark(void) { fclose(fopen(\"$pub/ran\", \"w\")); }" \
		> "$pub/evil.c"
	mkdir -m 777 "$pub/mods"
	cc -shared -fPIC -o "$pub/mods/evil.so" "$pub/evil.c"
	chmod 777 "$pub"
	cp "$DIO" "$pub/capdio"
	if setcap cap_bpf,cap_perfmon+ep "$pub/capdio" 2> /dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env DIO_ANALYZER_PATH="$pub/mods" "$pub/capdio" trace --analyzer evil -- true \
			> /dev/null 2>&1
		[ ! -e "$pub/ran" ] ||
			{ echo "FAIL: a dio with file capabilities ran a module from \$DIO_ANALYZER_PATH"; fail=1; }
	else
		echo "note: setcap failed here; the file-capability case was not run"
	fi
	rm -rf "$pub"
fi
exit $fail
