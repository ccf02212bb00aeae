# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmarks are run by hand (they need root and minutes), never by make check.
EXTRA_DIST += bench/lib.sh bench/overhead.sh bench/callcost.sh bench/seek.sh bench/analyzers.sh \
	bench/fallbacks.sh
noinst_PROGRAMS += bench/callcost
bench_callcost_SOURCES = bench/callcost.c
