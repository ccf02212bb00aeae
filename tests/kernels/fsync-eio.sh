#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fsync-eio.sh: proof of the durability analyzer's fsync-error rule on a real
# program and a real failing disk. This kernel may lack device-mapper; Debian's
# have it as modules. On each cached kernel (DIO_KERNELS, as matrix.sh), one
# boot (fsync-eio-guest.sh) puts ext4 on a device-mapper device over the
# guest's disk and runs, under dio trace --analyzer durability:
#   multilog (daemontools) on a healthy device: no finding
#   multilog while the device fails writes (dm-flakey error_writes) from
#     after its writes until it has reported the failed fsync: its manual says
#     it "pauses, and tries again, without losing any data"; the second fsync
#     succeeds, multilog marks the file complete and exits 0, and the file
#     holds only NUL bytes when mounted again. dio record, then dio analyze
#     of the recording (in the guest, and again here on the host: the same
#     findings) must report exactly this: durability.fsync-error, an error,
#     multilog, the file, EIO, the bytes
#   dd conv=fsync on the failing device: its fsync fails and dd stops with the
#     error, as it should: no finding
# Passes when all of that holds. The logs and findings stay in
# DIO_KERNEL_OUT/fsync-eio/RELEASE.
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
. "$here/common.sh"
build_env
need mkfs.ext4 e2fsprogs
need dmsetup dmsetup
need multilog daemontools
[ -x "$DIO" ] || die "no dio binary at $DIO: run make first"

find_kernels
out_and_keep fsync-eio

status=0
for k in $kernels; do
	release=$(cat "$k/release")
	out=$base/$release
	rm -rf "$out"
	mkdir -p "$out"
	if ! grep -qx 'dm_flakey.ko' "$k/modules/order"; then
		echo "FAIL: $release: no dm_flakey in $k: fetch the kernel again (tests/kernels/fetch.sh)"
		status=1
		continue
	fi
	truncate -s 64M "$out/disk.img"
	if ! bash "$here/boot.sh" --kernel "$k" --out "$out" --timeout 400 "${keep[@]}" \
		--disk "$out/disk.img" -- sh "$here/fsync-eio-guest.sh" "$out" > "$out/boot.log" 2>&1; then
		echo "FAIL: $release: $(tail -n 1 "$out/boot.log")"
		tail -n 20 "$out/boot.log"
		status=1
		continue
	fi
	rm -f "$out/disk.img"
	# the recording of the eio run, analyzed here: the same findings on another kernel
	"$DIO" analyze "$out/eio.dio" -q --no-summary --analyzer durability \
		--sink "json:file=$out/dio.eio.host.json" > "$out/dio.eio.host.out" 2>&1 ||
		echo "FAIL: $release: dio analyze of eio.dio on the host exited with $?"
	echo "== $release: what each file held on the disk afterwards (fsync-eio.log)"
	cat "$out/fsync-eio.log"
	echo "multilog's stderr in the eio run: $(head -n 1 "$out/eio.err")"
	echo "dd's stderr: $(grep -m 1 fsync "$out/dd.err" || true)"
	python3 - "$out" << 'PY' || status=1
import json, os, re, sys
out = sys.argv[1]
lines = os.path.getsize(os.path.join(out, "lines"))
held = {}
for line in open(os.path.join(out, "fsync-eio.log")):
    m = re.match(r"(\w+) rc (\w+) mode (\d+) bytes (\d+) holds (\w+)$", line.strip())
    if not m:
        print(f"FAIL: unexpected line in fsync-eio.log: {line.strip()}")
        sys.exit(1)
    held[m.group(1)] = (m.group(2), m.group(3), int(m.group(4)), m.group(5))
bad = 0

def expect(what, cond):
    global bad
    if not cond:
        print(f"FAIL: {what}")
        bad = 1

expect("the healthy run: multilog exited 0, current complete (744) and intact",
       held.get("healthy") == ("0", "744", lines, "intact"))
# the proof that the successful retry was a lie: multilog said all was safe
expect("the eio run: multilog exited 0 and marked current complete (744), "
       f"{lines} bytes of NULs on the disk", held.get("eio") == ("0", "744", lines, "zeros"))
expect("dd conv=fsync exited 1 on the failing device", held.get("dd", ("",))[0] == "1")

def findings(run):
    path = os.path.join(out, f"dio.{run}.json")
    if not os.path.exists(path):
        print(f"FAIL: no findings of dio for the {run} run ({path})")
        return None
    found = [json.loads(l) for l in open(path)]
    found = [o for o in found if o.get("type") == "finding" and o.get("analyzer") == "durability"]
    print(f"dio, {run}: " + ("; ".join(f"{o['severity']} {o['code']} {o.get('comm')} "
                                       f"count {o.get('count')} {o.get('path')}" for o in found)
                             or "no durability finding"))
    return found

for run in ("healthy", "dd"):
    found = findings(run)
    if found is None:
        bad = 1
        continue
    expect(f"{run}: no durability.fsync-error",
           not [o for o in found if o["code"] == "durability.fsync-error"])
    expect(f"{run}: no durability warning or error",
           not [o for o in found if o["severity"] in ("warning", "error")])
found = findings("eio")
if found is None:
    sys.exit(1)
errs = [o for o in found if o["code"] == "durability.fsync-error"]
expect("eio: exactly one durability.fsync-error", len(errs) == 1)
if len(errs) == 1:
    f = errs[0]
    print(f"dio, eio: {f['title']}")
    print(f"  {f['message'].splitlines()[0]}")
    expect("eio: the finding is an error", f["severity"] == "error")
    expect("eio: the program is multilog", f.get("comm") == "multilog")
    expect("eio: the file is multilog's current", f.get("path") == "/run/fsync-eio/eio/current")
    expect(f"eio: the count is the {lines} bytes lost", f.get("count") == lines)
    expect("eio: the message says fsync failed with EIO and a later sync succeeded",
           f"fsync of it failed with EIO with {lines} bytes written since the last "
           "successful sync" in f["message"] and "then a later sync of it succeeded"
           in f["message"])
    expect("eio: the calls show the failed fsync and the one that succeeded",
           re.search(r"\[\d+/\d+ multilog\] fsync\((\d+)</run/fsync-eio/eio/current>\) = -1 EIO "
                     r"\(Input/output error\) <[0-9.]+>\n"
                     r".* \[\d+/\d+ multilog\] fsync\(\1</run/fsync-eio/eio/current>\) = 0 <[0-9.]+>\n$",
                     f.get("excerpt", "")))
host = os.path.join(out, "dio.eio.host.json")
strip = lambda path: [o for o in (json.loads(l) for l in open(path)) if o.get("type") == "finding"]
expect("eio: dio analyze of the recording on the host gives the guest's findings",
       os.path.exists(host) and strip(host) == strip(os.path.join(out, "dio.eio.json")))
expect("eio: no other warning or error",
       not [o for o in found if o["severity"] in ("warning", "error")
            and o["code"] != "durability.fsync-error"])
sys.exit(bad)
PY
done
[ "$status" -eq 0 ] && echo "fsync-eio: passed" || echo "fsync-eio: FAILED"
exit "$status"
