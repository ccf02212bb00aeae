#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Modules use dio through its ABI alone (include/dio/ and struct dio_host), as a
# user's module must: none compiles a file of engine/ (nor xlat/ or bpf/, the
# engine's tables and the kernel side), includes one of their headers, or holds
# a function the engine defines. Three looks, so that no way around one passes:
#  - the _SOURCES of every module (analyzer_, sink_ and check_LTLIBRARIES) and
#    of the libraries each links (LIBADD), in Makefile.am and the local.mk
#    files it includes;
#  - the #include "..." lines of those files;
#  - the built modules (.libs/*.so): no symbol that engine/libdioengine.a defines.
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
TMP=$(mktemp -d /tmp/dio-modsrc.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT
fail=0

# every assignment of Makefile.am and the files it includes, as "NAME<TAB>words",
# continuation lines joined; += adds to what was there
sed -n "s|^include[[:space:]]*\([^[:space:]]*\).*|$top_srcdir/\1|p" "$top_srcdir/Makefile.am" \
	> "$TMP/mk"
# shellcheck disable=SC2046
awk '
	/\\$/ { sub(/\\$/, ""); line = line $0 " "; next }
	{ line = line $0 }
	line ~ /^[A-Za-z0-9_]+[ \t]*\+?=/ {
		name = line; sub(/[ \t]*\+?=.*/, "", name)
		val = line; sub(/^[^=]*=/, "", val); gsub(/\t/, " ", val)
		add = line ~ /^[A-Za-z0-9_]+[ \t]*\+=/ && name in vars
		vars[name] = add ? vars[name] " " val : val
		if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	}
	{ line = "" }
	END { for (i = 1; i <= n; i++) print order[i] "\t" vars[order[i]] }
' "$top_srcdir/Makefile.am" $(cat "$TMP/mk") > "$TMP/vars"

# the words of variable NAME, $(OTHER) expanded
words() {
	awk -F '\t' -v want="$1" '
		{ v[$1] = $2 }
		function expand(s, depth,   out, name) {
			out = ""
			while (match(s, /\$\([A-Za-z0-9_]+\)/)) {
				name = substr(s, RSTART + 2, RLENGTH - 3)
				out = out substr(s, 1, RSTART - 1)
				out = out (depth < 8 && name in v ? expand(v[name], depth + 1) : "")
				s = substr(s, RSTART + RLENGTH)
			}
			return out s
		}
		END {
			n = split(expand(v[want], 0), w, /[ \t]+/)
			for (i = 1; i <= n; i++)
				if (w[i] != "")
					print w[i]
		}
	' "$TMP/vars"
}

# automake's name for a library's variables: a/b/c.la -> a_b_c_la
canon() {
	printf '%s\n' "$1" | sed 's/[^A-Za-z0-9_]/_/g'
}

{ words analyzer_LTLIBRARIES; words sink_LTLIBRARIES; words check_LTLIBRARIES; } > "$TMP/modules"
words noinst_LTLIBRARIES > "$TMP/convenience"
if ! grep -qx 'sinks/json/json.la' "$TMP/modules" ||
	! grep -qx 'analyzers/errors/errors.la' "$TMP/modules"; then
	echo "FAIL: the module list read from the Makefiles lacks json.la or errors.la:"
	cat "$TMP/modules"
	exit 1
fi

: > "$TMP/sources"
nmod=0
while read -r mod; do
	nmod=$((nmod + 1))
	libs="$mod $(words "$(canon "$mod")_LIBADD" | grep -Fxf "$TMP/convenience")"
	for lib in $libs; do
		for src in $(words "$(canon "$lib")_SOURCES"); do
			rel=${src#\$(srcdir)/}
			rel=${rel#\$(top_srcdir)/}
			case $rel in
			engine/* | xlat/* | bpf/* | ../*)
				echo "FAIL: module $mod compiles $src (through $lib):" \
					"take it from the host (struct dio_host) or include/dio/"
				fail=1
				continue
				;;
			esac
			printf '%s\t%s\n' "$rel" "$mod" >> "$TMP/sources"
		done
	done
done < "$TMP/modules"

# the headers they include (each file once, named with one module that has it)
sort -t "$(printf '\t')" -k1,1 -u "$TMP/sources" > "$TMP/files"
nfiles=0
while IFS="$(printf '\t')" read -r rel mod; do
	[ -f "$top_srcdir/$rel" ] || continue
	nfiles=$((nfiles + 1))
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
		"$top_srcdir/$rel" |
	while read -r inc; do
		case $inc in
		engine/* | xlat/* | bpf/* | ../* | */../*)
			echo "FAIL: $rel (module $mod) includes \"$inc\":" \
				"modules see include/dio/ only"
			echo x >> "$TMP/bad"
			;;
		esac
	done
done < "$TMP/files"
[ ! -s "$TMP/bad" ] || fail=1

# what was built: symbols of the engine's in a module mean engine code compiled in
engine_lib="$top_builddir/engine/libdioengine.a"
if [ ! -f "$engine_lib" ]; then
	echo "FAIL: $engine_lib not built: run make first"
	exit 1
fi
nm -g --defined-only "$engine_lib" | awk 'NF == 3 { print $3 }' | sort -u > "$TMP/engine.syms"
if ! grep -qx 'session__new' "$TMP/engine.syms"; then
	echo "FAIL: nm found no symbols in $engine_lib (is nm, from binutils, there?)"
	exit 1
fi
nso=0
for so in "$top_builddir"/analyzers/*/.libs/*.so "$top_builddir"/sinks/*/.libs/*.so \
	"$top_builddir"/tests/unit/modules/.libs/*.so; do
	[ -f "$so" ] || continue
	nso=$((nso + 1))
	nm --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort -u |
		comm -12 - "$TMP/engine.syms" > "$TMP/both"
	if [ -s "$TMP/both" ]; then
		echo "FAIL: ${so#"$top_builddir"/} defines what the engine defines:" \
			"$(head -n 5 "$TMP/both" | tr '\n' ' ')"
		fail=1
	fi
done
if [ "$nso" -eq 0 ]; then
	echo "FAIL: no built module (.libs/*.so) under $top_builddir: run make first"
	exit 1
fi

[ $fail -ne 0 ] ||
	echo "ok: $nmod modules, $nfiles source files, $nso built modules:" \
		"dio through its ABI alone"
exit $fail
