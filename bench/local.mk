# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmarks are run by hand (they need root and minutes), never by make check.
EXTRA_DIST += bench/lib.sh bench/overhead.sh bench/callcost.sh bench/seek.sh bench/analyzers.sh \
	bench/fallbacks.sh bench/writerate.sh bench/report.sh bench/clickhouse.sh \
	bench/baseline.sh bench/report-files.sh bench/tagtab.sh bench/longrun.sh \
	bench/durability.sh bench/busyrecord.sh
noinst_PROGRAMS += bench/callcost
bench_callcost_SOURCES = bench/callcost.c
# what a helper call (the clocks the probes read) costs a BPF program alone
noinst_PROGRAMS += bench/clockcost
bench_clockcost_SOURCES = bench/clockcost.c
bench_clockcost_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS)
bench_clockcost_LDADD = $(LIBBPF_LIBS)
# the trace file writer alone, fed a recording at a fixed rate (bench/writerate.sh)
noinst_PROGRAMS += bench/writerate
bench_writerate_SOURCES = bench/writerate.c
bench_writerate_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS)
bench_writerate_LDADD = $(DIO_ENGINE_LIBS)
# many threads on many files, for dio report's page with every series full (bench/report.sh)
noinst_PROGRAMS += bench/manyio
bench_manyio_SOURCES = bench/manyio.c
bench_manyio_LDADD = -lpthread
# short processes that each meet new files, for a long dio trace -a (bench/longrun.sh)
noinst_PROGRAMS += bench/shortprocs
bench_shortprocs_SOURCES = bench/shortprocs.c
bench_shortprocs_LDADD = -lpthread
