#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Perl's File::Tail (package libfile-tail-perl, what swatch follows logs
# with), bug: the follower of tail-copytruncate-grown.sh. Before each read
# File::Tail measures the file with an lseek to its end, goes back to its
# offset and reads exactly the bytes between (never a read past the end);
# it takes a size below its offset for a truncation. Stopped while logrotate
# truncates the log and the application writes 200 lines, more than its
# offset (2592), it finds the file longer, reads on from 2592 and never
# delivers the first lines of the new data (checked). dio must report
# reuse-offset.read-past-end (error) for the perl process on app.log, count
# = the bytes written after the truncation, below the offset where it read
# on, that its reading position never read (from strace).
. "$top_srcdir/tests/real/lib.sh"
need perl:perl strace:strace logrotate:logrotate
perl -MFile::Tail -e 1 2> /dev/null || need File::Tail:libfile-tail-perl
mount_ext4
cat > "$TMP/follow.pl" << 'PL'
# every line of the log, as File::Tail reads them, to the output
use File::Tail;
my $f = File::Tail->new(name => $ARGV[0], maxinterval => 0.2, interval => 0.1, tail => -1);
open(my $out, '>>', $ARGV[1]) or die "$ARGV[1]: $!";
$out->autoflush(1);
while (defined(my $line = $f->read)) {
	print $out $line;
}
PL
copytruncate file-tail-copytruncate-grown \
	"perl $TMP/follow.pl $MNT/app.log $TMP/delivered.log" 200 stop
check "$MNT/app.log" "$TMP/delivered.log" << 'PY'
import sys, corpus, stracelog
path, delivered = sys.argv[1:3]
c = corpus.Case("file-tail-copytruncate-grown")
log = c.strace()
perl = log.pid("perl")
cut = log.calls_of(("ftruncate",), log.pid("logrotate"), path)[0]
new = sum(w.ret for w in log.calls_of(stracelog.WRITES, path=path, after=cut.seq))
after = [(r.seq, o, d) for d in log.opened(perl, path) for o, n, r in d.reads
         if r.seq > cut.seq and n > 0]
if not after:
    c.fail("strace: File::Tail read nothing after the truncation")
    c.done()
_, at, pos = min(after, key=lambda a: a[0])
lost = log.unread([pos], 0, min(at, new), after=cut.seq)
short = [r for d in log.opened(perl, path) for o, n, r in d.reads if r.seq > cut.seq and n == 0]
print(f"strace: {new} bytes written after the truncation; File::Tail read on at offset {at}"
      f" and never read {lost} bytes below it; {len(short)} of its reads returned 0")
got = open(delivered).read()
if at == 0 or lost != at or "line 1 after the rotation" in got \
        or "line 200 after the rotation" not in got:
    c.fail("File::Tail should have delivered the new lines from the old offset on, no earlier")
c.expect("reuse-offset.read-past-end", perl, lost, path)
c.done()
PY
