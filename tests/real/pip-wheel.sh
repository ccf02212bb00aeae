#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pip (package python3-pip, Debian's Python), correct: python3 -m pip
# installs a local wheel of 40 modules (no index, no network) into a target
# directory: it reads the archive, writes each file once (into a temporary
# directory that it then moves into the target), byte-compiles the modules
# and writes the RECORD. No finding of the families errors,
# redundant-open or reuse-offset, at most 15 findings. The ground truth is
# pip's own output and the installed package, imported and run.
. "$top_srcdir/tests/real/lib.sh"
need pip3:python3-pip strace:strace
# Debian's Python and pip, whatever python3 comes first in PATH
py=/usr/bin/python3
$py -m pip --version > /dev/null 2>&1 || { echo "FAIL: $py -m pip: apt-get install python3-pip"; exit 1; }
mount_ext4
# the wheel, written as the wheel format says (a zip with a .dist-info)
$py - "$TMP/corpus_demo-1.0-py3-none-any.whl" << 'PY'
import base64, hashlib, sys, zipfile
files = {f"corpus_demo/m{i}.py": f"def f{i}(x):\n    return x + {i}\n" for i in range(1, 40)}
files["corpus_demo/__init__.py"] = "".join(
    f"from .m{i} import f{i}\n" for i in range(1, 40)) + \
    "def total():\n    return sum(globals()[f'f{i}'](0) for i in range(1, 40))\n"
meta = "corpus_demo-1.0.dist-info"
files[f"{meta}/METADATA"] = "Metadata-Version: 2.1\nName: corpus-demo\nVersion: 1.0\n"
files[f"{meta}/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: corpus\nRoot-Is-Purelib: true\n"
                          "Tag: py3-none-any\n")
record = []
for name, text in files.items():
    h = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    record.append(f"{name},sha256={h},{len(text.encode())}")
record.append(f"{meta}/RECORD,,")
files[f"{meta}/RECORD"] = "\n".join(record) + "\n"
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in files.items():
        z.writestr(name, text)
PY
STRACE=1 record pip-wheel $py -m pip install --no-index --no-deps --no-cache-dir \
	--disable-pip-version-check --target "$MNT/site" "$TMP/corpus_demo-1.0-py3-none-any.whl"
grep -i "successfully installed" "$TMP/pip-wheel.out"
total=$(PYTHONPATH=$MNT/site $py -c 'import corpus_demo; print(corpus_demo.total())')
check "$MNT/site" "$total" << 'PY'
import os, sys, corpus
site, total = sys.argv[1], sys.argv[2]
c = corpus.Case("pip-wheel")
c.families()
log = c.strace()
mods = [f for f in os.listdir(f"{site}/corpus_demo") if f.endswith(".py")]
written = {}
for d in log.descriptions:
    # pip unpacks into a temporary directory and moves the tree into the target
    if d.path and "/corpus_demo/" in d.path and d.path.endswith(".py") and d.writes:
        name = os.path.basename(d.path)
        written[name] = written.get(name, 0) + 1
print(f"pip: {len(mods)} modules installed, total() = {total}; strace: {len(written)} of them"
      f" written, each {sorted(set(written.values()))} times")
if len(mods) != 40 or total != str(sum(range(1, 40))) or len(written) != 40 \
        or set(written.values()) != {1}:
    c.fail("pip: expected the 40 modules written once each, and total() = 780")
c.done()
PY
