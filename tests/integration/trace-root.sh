#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Paths as the process sees them. A process under chroot reads /etc/hostname
# of its own root: dio must name it /etc/hostname, as /proc/PID/fd and
# strace -y do, not by its path from the root of the whole mount tree. A
# process in a mount namespace of its own (unshare -m) that bind-mounts a
# directory sees the file under the mount point, and its process records carry
# that namespace, not dio's.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

# a root with cat and the libraries it loads
ROOT=$TMP/root
mkdir -p "$ROOT/bin" "$ROOT/etc" "$ROOT/data"
cp "$(command -v cat)" "$ROOT/bin/cat"
for lib in $(ldd "$(command -v cat)" | grep -o '/[^ ]*'); do
	mkdir -p "$ROOT$(dirname "$lib")"
	cp "$lib" "$ROOT$lib"
done
printf 'inside\n' > "$ROOT/etc/hostname"

run_dio trace --no-summary -e trace=openat,read,copy_file_range,close --sink console:proc=true -o "$TMP/chroot" \
	--sink "json:file=$TMP/chroot.json" \
	-- chroot "$ROOT" /bin/cat /etc/hostname > "$TMP/chroot.stdout"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace -- chroot exited with $RC"; fail=1; }
[ "$(cat "$TMP/chroot.stdout")" = inside ] || { echo "FAIL: the chrooted cat did not print the file"; fail=1; }
pid=$(sed -n 's/^\[\([0-9]*\)\/[0-9]* cat\] +++ exec "cat" +++$/\1/p' "$TMP/chroot")
[ -n "$pid" ] || { echo "FAIL: no exec of cat in the trace"; head "$TMP/chroot"; exit 1; }
tag=$(sed -n "s/^\[$pid\/$pid cat\] openat(AT_FDCWD, \"\/etc\/hostname\", O_RDONLY) = 3<\/etc\/hostname> {type=reg tag=\([^}]*\)}$/\1/p" "$TMP/chroot")
[ -n "$tag" ] || { echo "FAIL: the chrooted open of /etc/hostname is not named /etc/hostname:"; grep hostname "$TMP/chroot"; fail=1; }
cat > "$TMP/expect" <<EOF
[$pid/$pid cat] openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3</etc/hostname> {type=reg tag=$tag}
[$pid/$pid cat] close(3</etc/hostname>) = 0 {type=reg tag=$tag}
EOF
expect_lines "$TMP/expect" "$TMP/chroot" || fail=1
# cat reads it with read, or copy_file_range when its output is on the same file system
grep -Eq "^\[$pid/$pid cat\] (read|copy_file_range)\(3</etc/hostname>, .* = 7 \{off=0 type=reg tag=$tag\}$" "$TMP/chroot" ||
	{ echo "FAIL: the read of the chrooted file is not named /etc/hostname"; grep "(3<" "$TMP/chroot"; fail=1; }
# the libraries the chroot binary loaded before chroot(2) keep their host paths; cat's are its own
grep -q "^\[$pid/$pid cat\] openat(AT_FDCWD, \"/lib/x86_64-linux-gnu/libc.so.6\", O_RDONLY|O_CLOEXEC) = 3</lib/x86_64-linux-gnu/libc.so.6> " "$TMP/chroot" ||
	{ echo "FAIL: cat's libc under the chroot is not /lib/x86_64-linux-gnu/libc.so.6"; grep 'libc.so.6", O' "$TMP/chroot"; fail=1; }
grep -q "$TMP/root" "$TMP/chroot" && { echo "FAIL: a path names the chroot directory from outside:"; grep "$TMP/root" "$TMP/chroot" | head -3; fail=1; }
# the JSON path records say the same
jpath=$(jq -r --arg t "$tag" 'select(.type == "path" and .file_tag == $t) | .path' "$TMP/chroot.json")
[ "$jpath" = /etc/hostname ] || { echo "FAIL: the JSON path record of $tag says '$jpath'"; fail=1; }
# same mount namespace as dio's: the exec record says so
host_ns=$(readlink /proc/self/ns/mnt | tr -dc 0-9)
jns=$(jq -r --argjson p "$pid" 'select(.type == "proc" and .kind == "exec" and .pid == $p) | .mnt_ns' "$TMP/chroot.json" | tail -1)
[ "$jns" = "$host_ns" ] || { echo "FAIL: exec of cat has mnt_ns $jns, dio's is $host_ns"; fail=1; }

# a mount namespace of its own with a bind mount only it sees
mkdir -p "$TMP/mnt" "$TMP/src"
printf 'bound\n' > "$TMP/src/file"
run_dio trace --no-summary -e trace=openat,read --sink console:proc=true -o "$TMP/ns" \
	--sink "json:file=$TMP/ns.json" -- \
	unshare -m sh -c "mount --make-rprivate / && mount --bind '$TMP/src' '$TMP/mnt' &&
		readlink /proc/self/ns/mnt > '$TMP/ns.id' && exec cat '$TMP/mnt/file'" > "$TMP/ns.stdout"
[ "$RC" -eq 0 ] || { echo "FAIL: dio trace -- unshare -m exited with $RC"; fail=1; }
[ "$(cat "$TMP/ns.stdout")" = bound ] || { echo "FAIL: cat did not read the bind-mounted file"; fail=1; }
grep -q "^\[[0-9]*/[0-9]* cat\] openat(AT_FDCWD, \"$TMP/mnt/file\", O_RDONLY) = 3<$TMP/mnt/file> " "$TMP/ns" ||
	{ echo "FAIL: the file is not named by the mount point the process opened it under:"; grep "file" "$TMP/ns"; fail=1; }
ns_id=$(tr -dc 0-9 < "$TMP/ns.id")
jns=$(jq -r 'select(.type == "proc" and .kind == "exec" and .comm == "cat") | .mnt_ns' "$TMP/ns.json")
[ -n "$ns_id" ] && [ "$jns" = "$ns_id" ] && [ "$jns" != "$host_ns" ] ||
	{ echo "FAIL: exec of cat in the new namespace has mnt_ns '$jns', it saw '$ns_id' (dio's: $host_ns)"; fail=1; }

[ $fail -eq 0 ] && echo "ok: paths and mount namespaces as the traced processes see them"
exit $fail
