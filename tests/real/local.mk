# SPDX-License-Identifier: GPL-2.0-or-later
# The real-program corpus (tests/real/README.md): programs installed from Debian's packages,
# in a buggy configuration and its correct counterpart, recorded with dio and checked against
# what strace or the programs themselves saw. Root and BTF needed, else SKIP.
# REAL_TESTS, a few quick cases (bug and correct), run in make check; make check-real runs
# them with all the others (REAL_MORE_TESTS), through the same test harness, and so does
# make check after ./configure --enable-real-corpus.
REAL_TESTS = tests/real/bash-append-loop.sh tests/real/bash-append-block.sh \
	tests/real/sqlite3-autocommit.sh tests/real/sqlite3-transaction.sh \
	tests/real/logtail2-inode-reuse.sh tests/real/tail-copytruncate.sh \
	tests/real/redis-log-per-line.sh tests/real/dnsmasq-dig.sh \
	tests/real/durability-sed-i.sh tests/real/durability-rsync-fsync.sh
REAL_MORE_TESTS = tests/real/dash-append-loop.sh tests/real/sqlite3-wal.sh \
	tests/real/git-config-reads.sh tests/real/dpkg-unpack.sh tests/real/tar-unpack.sh \
	tests/real/logtail2-logrotate.sh tests/real/rsyslog-copytruncate.sh \
	tests/real/rsyslog-reopen-on-truncate.sh tests/real/nginx-no-file-cache.sh \
	tests/real/tail-copytruncate-grown.sh tests/real/file-tail-copytruncate-grown.sh \
	tests/real/pygtail-copytruncate-grown.sh tests/real/rsyslog-reopen-on-truncate-stopped.sh \
	tests/real/nginx-open-file-cache.sh tests/real/compress-copy.sh \
	tests/real/rocksdb-db-bench.sh tests/real/rocksdb-db-bench-steady.sh \
	tests/real/make-j2-gcc.sh tests/real/cmake-ninja.sh tests/real/python-compileall.sh \
	tests/real/pgbench-postgresql.sh tests/real/redis-benchmark.sh \
	tests/real/redis-log-enospc.sh tests/real/memcached-memslap.sh \
	tests/real/sqlite3-bulk.sh tests/real/sqlite3-test-suite.sh tests/real/lmdb-load.sh \
	tests/real/nginx-keepalive-wrk.sh tests/real/nginx-keepalive-ab.sh \
	tests/real/lighttpd-ab.sh \
	tests/real/rsyslog-copytruncate-grown.sh tests/real/node-tail-rename.sh \
	tests/real/tail-truncate.sh tests/real/logtail2-truncate.sh \
	tests/real/logrotate-compress.sh tests/real/rsync-tree.sh tests/real/archive-tools.sh \
	tests/real/borg-backup.sh tests/real/restic-backup.sh tests/real/hg-commit.sh \
	tests/real/pip-wheel.sh tests/real/npm-install-tarball.sh tests/real/perl-report.sh \
	tests/real/durability-perl-pi.sh tests/real/durability-git-config.sh \
	tests/real/durability-sort-o.sh tests/real/durability-ed.sh \
	tests/real/durability-vim-batch.sh
# corpus.py's own checks, without dio or root
TESTS += tests/real/corpus-selftest.sh $(REAL_TESTS)
# automake writes the rule that runs a test for those in TESTS, in either branch
if REAL_CORPUS
TESTS += $(REAL_MORE_TESTS)
endif
EXTRA_DIST += tests/real/README.md tests/real/lib.sh tests/real/corpus.py \
	tests/real/stracelog.py tests/real/corpus-selftest.sh $(REAL_TESTS) $(REAL_MORE_TESTS)

# make check-real: every case of the corpus, each an automake test (its .log and .trs,
# test-suite.log on a failure)
check-real: all $(check_PROGRAMS)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(REAL_TESTS) $(REAL_MORE_TESTS)'
.PHONY: check-real
