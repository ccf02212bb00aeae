# SPDX-License-Identifier: GPL-2.0-or-later
# Workloads with known system calls, driven by tests/integration and the README demo.
# demo is built by plain `make` because the README's first command runs it; the
# others only for `make check`. Each test workload writes its expected console
# lines to descriptor 9 (truth.c).
noinst_PROGRAMS += tests/workloads/demo
tests_workloads_demo_SOURCES = tests/workloads/demo.c
tests_workloads_demo_LDADD = -lpthread

WORKLOAD_TRUTH = tests/workloads/truth.c tests/workloads/truth.h
check_PROGRAMS += tests/workloads/basic tests/workloads/threads tests/workloads/reuse \
	tests/workloads/uring tests/workloads/filters tests/workloads/edges tests/workloads/blockq
tests_workloads_basic_SOURCES = tests/workloads/basic.c $(WORKLOAD_TRUTH)
tests_workloads_basic_LDADD = -lpthread
tests_workloads_threads_SOURCES = tests/workloads/threads.c $(WORKLOAD_TRUTH)
tests_workloads_threads_LDADD = -lpthread
tests_workloads_reuse_SOURCES = tests/workloads/reuse.c $(WORKLOAD_TRUTH)
tests_workloads_reuse_LDADD = -lpthread
WORKLOAD_RING = tests/workloads/ring.c tests/workloads/ring.h
tests_workloads_uring_SOURCES = tests/workloads/uring.c $(WORKLOAD_RING) $(WORKLOAD_TRUTH)
tests_workloads_uring_LDADD = -luring -laio -lpthread
tests_workloads_filters_SOURCES = tests/workloads/filters.c $(WORKLOAD_TRUTH)
tests_workloads_filters_LDADD = -lpthread
tests_workloads_edges_SOURCES = tests/workloads/edges.c $(WORKLOAD_RING) $(WORKLOAD_TRUTH)
tests_workloads_edges_LDADD = -luring -lpthread
tests_workloads_blockq_SOURCES = tests/workloads/blockq.c
tests_workloads_blockq_LDADD = -lpthread

# saves files by rename, with and without fsync (the fsync-rename SDK example's test)
check_PROGRAMS += tests/workloads/saverename
tests_workloads_saverename_SOURCES = tests/workloads/saverename.c

# saves a file in ways that do and do not survive a power cut (the durability analyzer)
check_PROGRAMS += tests/workloads/durable
tests_workloads_durable_SOURCES = tests/workloads/durable.c

# analyzer workloads: a buggy and a fixed mode each, and the numbers the finding must show
check_PROGRAMS += tests/workloads/follower
tests_workloads_follower_SOURCES = tests/workloads/follower.c tests/workloads/loglines.h $(WORKLOAD_TRUTH)
tests_workloads_follower_LDADD = -lpthread
check_PROGRAMS += tests/workloads/shipper
tests_workloads_shipper_SOURCES = tests/workloads/shipper.c tests/workloads/loglines.h $(WORKLOAD_TRUTH)
tests_workloads_shipper_LDADD = -lpthread
check_PROGRAMS += tests/workloads/pattern
tests_workloads_pattern_SOURCES = tests/workloads/pattern.c $(WORKLOAD_TRUTH)
tests_workloads_pattern_LDADD = -lpthread

# analyzer workloads: they print the numbers a finding must show
check_PROGRAMS += tests/workloads/logger
tests_workloads_logger_SOURCES = tests/workloads/logger.c
tests_workloads_logger_LDADD = -lpthread
check_PROGRAMS += tests/workloads/errstorm
tests_workloads_errstorm_SOURCES = tests/workloads/errstorm.c
check_PROGRAMS += tests/workloads/kvstore
tests_workloads_kvstore_SOURCES = tests/workloads/kvstore.c $(WORKLOAD_TRUTH)
tests_workloads_kvstore_LDADD = -lpthread
# dio diff: a log written once and fsynced once, or opened, fsynced and closed per line
check_PROGRAMS += tests/workloads/appender
tests_workloads_appender_SOURCES = tests/workloads/appender.c

# exact counts for dio top: N preads of B bytes from two threads, N pwrites, 3 failures
check_PROGRAMS += tests/workloads/topload
tests_workloads_topload_SOURCES = tests/workloads/topload.c
tests_workloads_topload_LDADD = -lpthread
# dio top's rows of exited threads: T short threads, one pread64 each
check_PROGRAMS += tests/workloads/topthreads
tests_workloads_topthreads_SOURCES = tests/workloads/topthreads.c
tests_workloads_topthreads_LDADD = -lpthread

# names that hold terminal escapes, newlines and OSC titles (names-escaped.sh)
check_PROGRAMS += tests/workloads/hostile
tests_workloads_hostile_SOURCES = tests/workloads/hostile.c
