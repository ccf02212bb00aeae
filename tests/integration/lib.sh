# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the integration tests. They run dio for real, so they need root and a
# kernel with BTF: without them they exit 77 (automake's SKIP) and say why. Anything
# else missing (mkfs.ext4, a loop device) is a failure: CI must run these tests.
#
# The harness (tests/local.mk) exports DIO, top_builddir, top_srcdir,
# DIO_SINK_PATH and DIO_ANALYZER_PATH.

: "${top_builddir:=.}"
: "${DIO:=$top_builddir/dio}"
WL=$top_builddir/tests/workloads

need_root_bpf() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: dio loads BPF programs and needs root: run 'sudo make check'"
		exit 77
	fi
	if [ ! -r /sys/kernel/btf/vmlinux ]; then
		echo "SKIP: the kernel has no BTF (/sys/kernel/btf/vmlinux is missing)"
		exit 77
	fi
	[ -x "$DIO" ] || { echo "FAIL: no dio binary at $DIO"; exit 1; }
	# One BPF test at a time (make check -j): a test that looks at what is
	# loaded in the kernel must not see another test's dio.
	exec 8> /tmp/dio-integration.lock
	flock 8
}

TMP=$(mktemp -d /tmp/dio-test.XXXXXX) || exit 1
MNT=
CG=
CG_LEFT=
BG_PIDS=
cleanup() {
	for p in $BG_PIDS; do
		kill "$p" 2> /dev/null
	done
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		drop_cgroup
	fi
	if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
		umount "$MNT" 2> /dev/null || umount -l "$MNT"
	fi
	rm -rf "$TMP"
	[ -z "$CG_LEFT" ] || exit 1
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# bg CMD ARGS...: start CMD in the background and have cleanup kill it; sets BG
bg() {
	"$@" &
	BG=$!
	BG_PIDS="$BG_PIDS $BG"
}

# A journaled ext4 image on a loop device, mounted on $MNT: it has inode
# generations and user xattrs, supports O_DIRECT, and hands a freed inode
# number out again at once (tmpfs never does). 32 MiB is enough for every
# workload.
mount_ext4() {
	truncate -s 32M "$TMP/img" || { echo "FAIL: cannot create $TMP/img"; exit 1; }
	if ! command -v mkfs.ext4 > /dev/null; then
		echo "FAIL: mkfs.ext4 not found: apt-get install e2fsprogs"
		exit 1
	fi
	mkfs.ext4 -q -F -O has_journal "$TMP/img" || { echo "FAIL: mkfs.ext4 $TMP/img"; exit 1; }
	mkdir -p "$TMP/mnt"
	if ! mount -o loop "$TMP/img" "$TMP/mnt"; then
		echo "FAIL: cannot mount an ext4 image on a loop device"
		exit 1
	fi
	MNT=$TMP/mnt
}

# A new cgroup v2 directory, $CG, for this test alone; cleanup removes it and
# the directories made below it. Where cgroup v2 is mounted differs: at
# /sys/fs/cgroup, or at /sys/fs/cgroup/unified on a hybrid system.
make_cgroup() {
	CGROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	if [ -z "$CGROOT" ]; then
		echo "SKIP: no cgroup v2 file system is mounted (see /proc/self/mounts)"
		exit 77
	fi
	CG=$(mktemp -d "$CGROOT/dio-test.XXXXXX") ||
		{ echo "FAIL: cannot make a cgroup under $CGROOT"; exit 1; }
}

# Every task still in $CG or below is one this test started: end them all,
# wait until the kernel has let go of them (rmdir fails while a dying task is
# still counted), then remove the directories, the deepest first.
drop_cgroup() {
	if ! echo 1 > "$CG/cgroup.kill" 2> /dev/null; then
		# kernels before 5.14 have no cgroup.kill
		find "$CG" -name cgroup.procs -exec cat {} + | while read -r p; do
			kill -KILL "$p" 2> /dev/null
		done
	fi
	i=0
	while ! grep -q '^populated 0$' "$CG/cgroup.events" 2> /dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if ! find "$CG" -depth -type d -exec rmdir {} + 2> /dev/null; then
		echo "FAIL: cannot remove the test's cgroup $CG"
		CG_LEFT=1
	fi
}

# run_dio ARGS...: dio with a deadline (no test may hang CI) of DIO_TIMEOUT
# seconds, 30 by default; sets RC
run_dio() {
	timeout -s INT -k 5 "${DIO_TIMEOUT:-30}" "$DIO" "$@"
	RC=$?
	[ "$RC" -ne 124 ] || echo "dio $* did not finish within ${DIO_TIMEOUT:-30} s"
}

# paths_forgotten WHAT COUNT: whether COUNT, what one of the host's tables of paths forgot
# when a shell made $N files under --tag-table 1024 (it keeps 2048), is N - 2048 and the
# few files the shell opens before them (the loader's, its libraries); FAIL and stderr if not
paths_forgotten() {
	if [ -z "$2" ] || [ "$2" -lt $((N - 2048)) ] || [ "$2" -gt $((N - 2048 + 64)) ]; then
		echo "FAIL: $1: '$2', want $((N - 2048)) to $((N - 2048 + 64)):"
		cat "$TMP/err"
		return 1
	fi
}

# kernel_forgot WHAT COUNT: whether COUNT, the tags the kernel's tag table forgot when a
# shell made $N files under --tag-table 1024 (the tags it took in past 1024: the files
# and the few the shell opens before them), is N - 1024 to N - 1024 + 64; FAIL if not
kernel_forgot() {
	if [ -z "$2" ] || [ "$2" -lt $((N - 1024)) ] || [ "$2" -gt $((N - 1024 + 64)) ]; then
		echo "FAIL: $1: '$2', want $((N - 1024)) to $((N - 1024 + 64)):"
		cat "$TMP/err"
		return 1
	fi
}

# calls PID FILE: the call lines of process PID (not its +++ process records,
# nor its --- block requests and run-queue waits)
calls() {
	grep "^\[$1/[0-9]* [^]]*\] " "$2" | grep -v '^\[[^]]*\] \(+++\|---\) '
}

# foreign OUT PID...: the call lines in OUT of processes that are none of PIDs
# nor descend from one of them (by the "+++ fork child" records; a sanitizer's
# leak checker forks one at exit)
foreign() {
	f_out=$1
	shift
	awk -v want="$*" '
	function pid(l) { sub(/^\[/, "", l); sub(/\/.*/, "", l); return l }
	BEGIN {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++)
			mine[w[i]] = 1
	}
	NR == FNR {
		if ($0 ~ /\] \+\+\+ fork child [0-9]+\/[0-9]+ \+\+\+$/) {
			c = $(NF - 1)
			sub(/\/.*/, "", c)
			parent[c] = pid($0)
		}
		next
	}
	/^\[[0-9]+\/[0-9]+ [^]]*\] [a-z0-9_]+\(/ {
		for (p = pid($0); !(p in mine) && (p in parent); p = parent[p])
			;
		if (!(p in mine))
			print
	}' "$f_out" "$f_out"
}

# expect_lines EXPECTED ACTUAL [NAME]
#
# Every line of EXPECTED must appear, character for character, in ACTUAL, in
# the same order as the other expected lines of its thread (the "[PID/TID"
# prefix); lines dio prints that are not expected may come in between. For the
# first line of a thread that is missing, the thread's lines around the place
# it should have been are shown, and the closest one with a caret where it
# differs; the thread's other missing lines follow in short.
expect_lines() {
	if [ ! -s "$1" ]; then
		echo "FAIL: no expected lines in $1 (did the workload run to its end?)"
		return 1
	fi
	awk -v expfile="$1" -v outname="${3:-dio output}" '
	function key(l) { return substr(l, 1, index(l, " ")) }
	# "[123/124 " -> "123/124"
	function tid(k) { return substr(k, 2, length(k) - 2) }
	function common(a, b,   i, m) {
		m = length(a) < length(b) ? length(a) : length(b)
		for (i = 1; i <= m; i++)
			if (substr(a, i, 1) != substr(b, i, 1))
				break
		return i - 1
	}
	# the line of thread k most like w: longest common prefix, at or after from first
	function closest(k, w, from,   i, c, best, bestn, pad) {
		bestn = -1
		for (i = 1; i <= cnt[k]; i++) {
			c = common(seen[k, i], w)
			if (c > bestn || (c == bestn && i >= from && best < from)) {
				bestn = c
				best = i
			}
		}
		printf "  closest:  %s   (output line %d)\n", seen[k, best], seenr[k, best]
		pad = ""
		for (i = 0; i < bestn + 12; i++)
			pad = pad " "
		printf "%s^ first difference\n", pad
	}
	function anywhere(k, w,   i) {
		for (i = 1; i <= cnt[k]; i++)
			if (seen[k, i] == w)
				return seenr[k, i]
		return 0
	}
	# missing expected line e of thread k, whose predecessor matched at index from - 1
	function report(k, e, from, first,   w, i, shown, at) {
		w = want[k, e]
		if (first)
			printf "FAIL: expected line %d of %d of [%s] not found in order\n", e, n[k], tid(k)
		else
			printf "  also missing, expected line %d:\n", e
		printf "  expected: %s\n", w
		if (cnt[k] == 0) {
			printf "  dio printed no line for [%s]; it printed lines for:", tid(k)
			for (i = 1; i <= nkeys_out && i <= 8; i++)
				printf " [%s]", tid(outkeys[i])
			printf "%s\n", (nkeys_out > 8 ? " ..." : "")
			return
		}
		at = anywhere(k, w)
		if (at) {
			printf "  it is at output line %d, out of order with the expected lines before it\n",
			       at
			return
		}
		closest(k, w, from)
		if (!first)
			return
		printf "  lines of this thread after its previous expected line:\n"
		shown = 0
		for (i = from; i <= cnt[k] && shown < 8; i++) {
			printf "    %d: %s\n", seenr[k, i], seen[k, i]
			shown++
		}
		if (shown == 0)
			printf "    (none)\n"
	}
	BEGIN {
		while ((getline l < expfile) > 0) {
			if (l == "")
				continue
			k = key(l)
			if (!(k in n))
				order[++nkeys] = k
			n[k]++
			want[k, n[k]] = l
			total++
		}
	}
	{
		k = key($0)
		if (!(k in outseen)) {
			outseen[k] = 1
			outkeys[++nkeys_out] = k
		}
		if (k in n) {
			cnt[k]++
			seen[k, cnt[k]] = $0
			seenr[k, cnt[k]] = NR
		}
	}
	END {
		bad = 0
		for (j = 1; j <= nkeys; j++) {
			k = order[j]
			i = 1
			missing = 0
			for (e = 1; e <= n[k]; e++) {
				for (m = i; m <= cnt[k] && seen[k, m] != want[k, e]; m++)
					;
				if (m <= cnt[k]) {
					i = m + 1
					continue
				}
				if (!missing && bad)
					printf "\n"
				if (++missing <= 10)
					report(k, e, i, missing == 1)
				bad++
			}
			if (missing > 10)
				printf "  ... and %d more missing lines of [%s]\n", missing - 10, tid(k)
		}
		if (bad)
			printf "(%d of %d expected lines missing; %s: %d lines; expected lines: %s)\n",
			       bad, total, outname, NR, expfile
		else
			printf "ok: all %d expected lines found in order\n", total
		exit bad != 0
	}' "$2"
}

# inline_is_offline ANALYZER MIN CMD ARGS...: record CMD with ANALYZER, its
# findings going to a json sink while recording, then analyze the trace file
# with ANALYZER again; the finding objects of the two runs must be the same,
# and at least MIN. rel_ns is left out of the comparison: it counts from the
# session's start, and a replay starts at the trace's first record. What CMD
# prints is kept in $TMP/inline.out, for the test to check the findings against.
inline_is_offline() {
	io_an=$1
	io_min=$2
	shift 2
	run_dio record --no-summary -o "$TMP/inline.dio" --analyzer "$io_an${IO_OPTS:+:$IO_OPTS}" \
		--sink "json:file=$TMP/inline.json" -- "$@" > "$TMP/inline.out"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio record exited with $RC"; return 1; }
	run_dio analyze --no-summary "$TMP/inline.dio" --analyzer "$io_an${IO_OPTS:+:$IO_OPTS}" \
		--sink "json:file=$TMP/offline.json"
	[ "$RC" -eq 0 ] || { echo "FAIL: dio analyze exited with $RC"; return 1; }
	for io_f in inline offline; do
		jq -c --arg a "$io_an" 'select(.type == "finding" and .analyzer == $a) |
			del(.rel_ns)' "$TMP/$io_f.json" > "$TMP/$io_f.findings"
	done
	io_n=$(grep -c . "$TMP/inline.findings")
	if [ "$io_n" -lt "$io_min" ]; then
		echo "FAIL: $io_n $io_an findings while recording, expected at least $io_min"
		return 1
	fi
	if ! cmp -s "$TMP/inline.findings" "$TMP/offline.findings"; then
		echo "FAIL: the offline $io_an findings differ from the inline ones:"
		diff "$TMP/inline.findings" "$TMP/offline.findings"
		return 1
	fi
	echo "ok: the same $io_n $io_an findings inline and offline"
}
