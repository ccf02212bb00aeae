#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tar with zstd, cpio and 7z (packages tar, zstd, cpio, p7zip-full), correct:
# a tree of 300 files (3 MB) archived and extracted again with each: tar
# --zstd, cpio -o and -i (newc format), 7z a and x (LZMA2, two threads). Each
# archiver opens each file once and reads or writes it in large buffers; the
# extracted trees equal the original (checked). 7z makes sure each file's
# directory exists with a mkdir that fails with EEXIST once it does, cpio
# writes its archive in 512-byte blocks (its default). No finding of the families
# errors, redundant-open or reuse-offset, at most 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need tar:tar zstd:zstd cpio:cpio 7z:p7zip-full
mount_ext4
make_tree "$MNT/src" 1500
cat > "$TMP/scenario.sh" << 'SH'
set -e
cd "$1"
tar --zstd -cf src.tar.zst src
mkdir x-tar && tar --zstd -xf src.tar.zst -C x-tar
find src | cpio -o -H newc --quiet > src.cpio
mkdir x-cpio && (cd x-cpio && cpio -i -d --quiet < ../src.cpio)
7z a -bd -mmt=2 src.7z src > /dev/null
mkdir x-7z && 7z x -bd -ox-7z src.7z > /dev/null
SH
record archive-tools sh "$TMP/scenario.sh" "$MNT"
for x in tar cpio 7z; do
	diff -r "$MNT/src" "$MNT/x-$x/src" > /dev/null || { echo "FAIL: $x: the extracted tree differs"; exit 1; }
done
echo "archive-tools: the trees extracted by tar, cpio and 7z equal the original"
check << 'PY'
import corpus
c = corpus.Case("archive-tools")
c.families()
c.done()
PY
