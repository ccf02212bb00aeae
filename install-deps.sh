#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian 12 packages dio needs to build and test.
# qemu-system-x86 busybox-static kmod xz-utils: make check-kernels (tests/kernels)
# dmsetup daemontools: its fsync error test, a disk that fails writes under multilog
# sqlite3 git logtail logrotate rsyslog nginx-light rocksdb-tools zstd: the real programs
#   tests/real runs (its README): sqlite3's journal modes, git's config reads, logtail2's
#   offset after inode reuse, logrotate's rotations, rsyslog's imfile, nginx's
#   open_file_cache, RocksDB's db_bench, and zstd among the compressors that stay clean
# postgresql redis-server redis-tools memcached libmemcached-tools lmdb-utils cmake
#   ninja-build mercurial rsync cpio borgbackup restic apache2-utils wrk lighttpd
#   dnsmasq-base bind9-dnsutils p7zip-full python3-pip nodejs npm: the rest of the real
#   programs of tests/real (make check-real): databases under their benchmarks, build
#   systems, backup and version control tools, web and DNS servers, package installers;
#   and node-tail (npm's package tail, which Debian lacks), for the follower that carries
#   its offset over to a renamed log
# ed vim: editors of tests/real's durability cases (ed's `w` truncates and rewrites with no
#   sync; vim syncs what it writes); sed, perl, coreutils and git are installed already
# libfile-tail-perl pygtail: log followers of tests/real that lose what a copytruncate
#   rotation left below their offset when the log grew past it (Perl's File::Tail, pygtail)
# bpftrace, linux-perf: bench/overhead.sh's rows of bpftrace programs on the raw syscall
#   tracepoints and of perf trace, to set dio's overhead beside
# chromium: tests/report, which opens dio report's HTML pages in headless Chromium and checks
#   them (errors, values, clicks, a screenshot); without it those tests SKIP
# libcurl4-openssl-dev: libcurl, for the clickhouse module (its sink's inserts and its
#   source's reads over HTTP); without it, configure builds dio without that module
# libxml2-utils python3-yaml: xmllint checks the JUnit reports against junit-10.xsd, and
#   tests/integration/ci-job.sh reads docs/ci.md's workflows as the CI systems read them
# systemd man-db: tests/integration/deploy.sh checks the installed units with
#   systemd-analyze verify (which looks up the man page their Documentation= names)
#   and the spool's tmpfiles.d entry with systemd-tmpfiles
# clickhouse-server curl: tests/clickhouse, which runs a private ClickHouse server (18.16 in
#   Debian 12) and talks to it over HTTP; without them those tests SKIP
set -e
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (sudo $0)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	libbpf-dev libelf-dev zlib1g-dev libzstd-dev libconfig-dev libcmocka-dev \
	libcurl4-openssl-dev \
	clang llvm bpftool libclang-rt-14-dev \
	liburing-dev libaio-dev e2fsprogs mount util-linux \
	valgrind fio strace bc jq bpftrace linux-perf \
	python3-jsonschema libxml2-utils python3-yaml systemd man-db \
	qemu-system-x86 busybox-static kmod xz-utils dmsetup daemontools \
	sqlite3 git logtail logrotate rsyslog nginx-light rocksdb-tools zstd \
	postgresql redis-server redis-tools memcached libmemcached-tools lmdb-utils \
	cmake ninja-build mercurial rsync cpio borgbackup restic apache2-utils wrk \
	lighttpd dnsmasq-base bind9-dnsutils p7zip-full python3-pip nodejs \
	libfile-tail-perl pygtail ed vim \
	chromium \
	clickhouse-server curl
# Debian's npm, unless the machine's Node.js brings its own (NodeSource's packages do,
# and conflict with Debian's)
command -v npm > /dev/null || apt-get install -y -q --no-install-recommends npm
npm install -g --no-audit --no-fund tail@2.2.6
