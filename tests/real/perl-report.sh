#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perl (package perl), correct: a report script of the kind perl is used
# for, reading a 200000-line access log line by line (buffered, 8 KiB reads),
# counting requests per status and path, and writing the report and a
# filtered copy of the log through buffered handles. perl opens its modules
# (strict, warnings) once. The report's numbers are checked against the log.
# No finding of the families errors, redundant-open or reuse-offset, at most
# 15 findings.
. "$top_srcdir/tests/real/lib.sh"
need perl:perl python3:python3
mount_ext4
python3 - "$MNT/access.log" << 'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(200000):
        status = (200, 200, 200, 304, 404, 500)[i % 6]
        f.write(f'127.0.0.1 - - [01/Jan/2025:00:00:{i % 60:02d} +0000] "GET /p{i % 37} HTTP/1.1" {status} {i % 5000}\n')
PY
cat > "$TMP/report.pl" << 'PL'
use strict;
use warnings;
my ($in, $out, $errors) = @ARGV;
my (%status, %path);
open(my $log, "<", $in) or die "$in: $!";
open(my $err, ">", $errors) or die "$errors: $!";
while (my $line = <$log>) {
	next unless $line =~ /"GET (\S+) [^"]*" (\d{3}) /;
	$path{$1}++;
	$status{$2}++;
	print $err $line if $2 >= 500;
}
close($log);
close($err) or die "$errors: $!";
open(my $rep, ">", $out) or die "$out: $!";
print $rep "status $_ $status{$_}\n" for sort keys %status;
print $rep "paths ", scalar(keys %path), "\n";
close($rep) or die "$out: $!";
PL
record perl-report perl "$TMP/report.pl" "$MNT/access.log" "$MNT/report.txt" "$MNT/errors.log"
cat "$MNT/report.txt"
check "$MNT" << 'PY'
import sys, corpus
m = sys.argv[1]
c = corpus.Case("perl-report")
c.families()
rep = open(f"{m}/report.txt").read().split("\n")
want = ["status 200 100001", "status 304 33333", "status 404 33333", "status 500 33333", "paths 37", ""]
errors = sum(1 for _ in open(f"{m}/errors.log"))
if rep != want or errors != 33333:
    c.fail(f"perl: the report is {rep}, {errors} error lines; expected {want}, 33333")
c.done()
PY
