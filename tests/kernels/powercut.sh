#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# powercut.sh: proof by power cut of the durability analyzer. On each cached
# kernel (DIO_KERNELS, as matrix.sh), an ext4 image becomes the guest's disk
# (boot.sh --disk: qemu's cache=none, so the image keeps what the guest's
# block layer submitted and nothing of its page cache), mounted noauto_da_alloc,
# the mount option that turns off ext4's rename heuristic (XFS has none). In
# each of ROUNDS boots (powercut-guest.sh) GNU sed -i and rsync --fsync save a
# new version of a file, under dio trace with the durability analyzer, and
# the power is cut 3 s later (SIGKILL to qemu, no shutdown, no sync): the
# journal (commit=1) has the renames by then, the unsynced data is still in
# the guest's page cache. The next boot mounts the image (the journal is
# replayed) and writes what each file holds to powercut.log.
#
# Passes when sed's file was emptied or lost in at least one cut, rsync's
# never was (the old or the new version, each whole), and dio flagged sed's
# rename (durability.unsynced-replace) and gave rsync no warning or error in
# every round. The log and dio's findings stay in DIO_KERNEL_OUT/powercut.
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/common.sh"
build_env
rounds=${DIO_POWERCUT_ROUNDS:-4}
case $rounds in '' | 0 | *[!0-9]*) die "DIO_POWERCUT_ROUNDS=$rounds: not a number of cuts" ;; esac
need mkfs.ext4 e2fsprogs
need rsync rsync
[ -x "$DIO" ] || die "no dio binary at $DIO: run make first"

find_kernels
out_and_keep powercut

status=0
for k in $kernels; do
	release=$(cat "$k/release")
	out=$base/$release
	rm -rf "$out"
	mkdir -p "$out"
	img=$out/disk.img
	truncate -s 64M "$img"
	mkfs.ext4 -q -F -O has_journal "$img"
	for r in $(seq 0 "$rounds"); do
		if [ "$r" -lt "$rounds" ]; then
			cutargs=(--cut-after ready 3)
			last=''
		else
			cutargs=()
			last=last
		fi
		rm -f "$out/ready"
		if ! bash "$here/boot.sh" --kernel "$k" --out "$out" --timeout 300 "${keep[@]}" \
			--disk "$img" "${cutargs[@]}" -- \
			sh "$here/powercut-guest.sh" "$out" "$r" $last > "$out/boot.$r.log" 2>&1; then
			echo "FAIL: $release: boot $r: $(tail -n 1 "$out/boot.$r.log")"
			cp "$out/console.log" "$out/console.$r.log" 2> /dev/null || true
			status=1
			continue 2
		fi
		if [ -n "${cutargs[*]}" ] && ! grep -q 'power cut' "$out/boot.$r.log"; then
			echo "FAIL: $release: boot $r ended without the power cut:"
			cat "$out/boot.$r.log"
			status=1
			continue 2
		fi
	done
	echo "== $release: what the files held after each power cut (ext4 noauto_da_alloc)"
	cat "$out/powercut.log"
	python3 - "$out" "$rounds" << 'PY' || status=1
import json, os, re, sys
out, rounds = sys.argv[1], int(sys.argv[2])
states = {"sed-i": [], "rsync-fsync": []}
for line in open(os.path.join(out, "powercut.log")):
    m = re.match(r"round (\d+): sed-i (\w+) rsync-fsync (\w+)$", line.strip())
    if not m:
        print(f"FAIL: unexpected line in powercut.log: {line.strip()}")
        sys.exit(1)
    states["sed-i"].append(m.group(2))
    states["rsync-fsync"].append(m.group(3))
bad = 0
if len(states["sed-i"]) != rounds:
    print(f"FAIL: {len(states['sed-i'])} rounds checked, expected {rounds}")
    bad = 1
lost = [s for s in states["sed-i"] if s in ("empty", "gone", "torn")]
print(f"sed -i: {len(lost)} of {rounds} cuts lost or emptied its file ({', '.join(states['sed-i'])})")
print(f"rsync --fsync: files after the cuts: {', '.join(states['rsync-fsync'])}")
if not lost:
    print("FAIL: sed -i never lost its file: the cut came too late or the heuristic is on")
    bad = 1
if any(s not in ("new", "old") for s in states["rsync-fsync"]):
    print("FAIL: rsync --fsync lost or emptied its file")
    bad = 1
for r in range(rounds):
    path = os.path.join(out, f"dio.{r}.json")
    if not os.path.exists(path):
        print(f"FAIL: round {r}: no findings of dio ({path})")
        bad = 1
        continue
    found = [json.loads(l) for l in open(path)]
    found = [o for o in found if o.get("type") == "finding" and o.get("analyzer") == "durability"]
    sed = [o for o in found if o["code"] == "durability.unsynced-replace"
           and o.get("comm") == "sed" and o.get("path", "").endswith("/sed/settings.conf")]
    rs = [o for o in found if o.get("comm") == "rsync" and o["severity"] in ("warning", "error")]
    print(f"dio, round {r}: " + "; ".join(f"{o['severity']} {o['code']} {o.get('comm')} "
                                          f"count {o.get('count')} {o.get('path')}" for o in found))
    if len(sed) != 1 or sed[0]["severity"] != "warning":
        print(f"FAIL: round {r}: dio did not flag sed's rename (durability.unsynced-replace)")
        bad = 1
    if rs:
        print(f"FAIL: round {r}: dio gave rsync --fsync a warning or an error")
        bad = 1
sys.exit(bad)
PY
done
[ "$status" -eq 0 ] && echo "powercut: passed" || echo "powercut: FAILED"
exit "$status"
