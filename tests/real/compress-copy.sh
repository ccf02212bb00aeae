#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gzip, xz, zstd, tar and cp, correct: compressing, archiving and copying
# files the way these tools were written to, in large buffers, each file
# opened once. A 2.7 MB text file is compressed with each compressor (and
# gzip's output checked by decompressing it), a directory of 50 small files
# is archived with tar and extracted again, and the text file copied with cp.
# No WARNING or ERROR finding may come of it.
. "$top_srcdir/tests/real/lib.sh"
need gzip:gzip xz:xz-utils zstd:zstd tar:tar cp:coreutils
mount_ext4
cat > "$TMP/scenario.sh" << 'SH'
set -e
cd "$1"
seq 1 400000 > data.txt
mkdir src
i=1
while [ $i -le 50 ]; do seq $i $((i * 20)) > src/f$i; i=$((i + 1)); done
gzip -k data.txt
gzip -dc data.txt.gz | cmp - data.txt
xz -k -T1 data.txt
zstd -q -k data.txt
tar -cf src.tar src
mkdir out
tar -xf src.tar -C out
cp data.txt copy.txt
SH
record compress-copy sh "$TMP/scenario.sh" "$MNT"
cmp -s "$MNT/copy.txt" "$MNT/data.txt" && diff -r "$MNT/src" "$MNT/out/src" > /dev/null ||
	{ echo "FAIL: the copies differ"; exit 1; }
check << 'PY'
import corpus
c = corpus.Case("compress-copy")
c.done()
PY
