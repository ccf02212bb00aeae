# SPDX-License-Identifier: GPL-2.0-or-later
# The real-program corpus (tests/real/README.md): programs installed from Debian's
# packages, in a buggy configuration and its correct counterpart, recorded with dio
# and checked against what strace saw. Root and BTF needed, else SKIP.
REAL_TESTS = tests/real/bash-append-loop.sh tests/real/bash-append-block.sh \
	tests/real/dash-append-loop.sh tests/real/sqlite3-autocommit.sh \
	tests/real/sqlite3-transaction.sh tests/real/sqlite3-wal.sh \
	tests/real/git-config-reads.sh tests/real/dpkg-unpack.sh tests/real/tar-unpack.sh \
	tests/real/logtail2-inode-reuse.sh tests/real/logtail2-logrotate.sh \
	tests/real/rsyslog-copytruncate.sh tests/real/rsyslog-reopen-on-truncate.sh \
	tests/real/tail-copytruncate.sh tests/real/tail-copytruncate-grown.sh \
	tests/real/file-tail-copytruncate-grown.sh tests/real/pygtail-copytruncate-grown.sh \
	tests/real/rsyslog-reopen-on-truncate-stopped.sh tests/real/nginx-no-file-cache.sh \
	tests/real/nginx-open-file-cache.sh tests/real/compress-copy.sh \
	tests/real/rocksdb-db-bench.sh
TESTS += $(REAL_TESTS)
EXTRA_DIST += tests/real/README.md tests/real/lib.sh tests/real/corpus.py \
	tests/real/stracelog.py $(REAL_TESTS)
