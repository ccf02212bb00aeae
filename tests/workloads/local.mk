# SPDX-License-Identifier: GPL-2.0-or-later
# Workloads with known system calls, driven by tests/integration and the README demo.
noinst_PROGRAMS += tests/workloads/demo
tests_workloads_demo_SOURCES = tests/workloads/demo.c
tests_workloads_demo_LDADD = -lpthread
check_PROGRAMS += tests/workloads/basic
tests_workloads_basic_SOURCES = tests/workloads/basic.c
tests_workloads_basic_LDADD = -lpthread
check_PROGRAMS += tests/workloads/reuse tests/workloads/uring
tests_workloads_reuse_SOURCES = tests/workloads/reuse.c
tests_workloads_uring_SOURCES = tests/workloads/uring.c
tests_workloads_uring_LDADD = -luring -laio
