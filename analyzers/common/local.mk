# SPDX-License-Identifier: GPL-2.0-or-later
# What the built-in analyzers share, compiled into each module (a module calls
# nothing of the host but through struct dio_host): a bounded hash table, call
# kinds by name, evidence excerpts, a pool of fixed-size blocks, a pool of
# excerpts lent to the likeliest findings, log-linear histograms. Names of
# errnos and flags come from the host (host->name_of, host->decode_arg).
noinst_LTLIBRARIES += analyzers/common/libcommon.la
analyzers_common_libcommon_la_SOURCES = analyzers/common/table.c analyzers/common/table.h \
	analyzers/common/calls.c analyzers/common/calls.h \
	analyzers/common/pool.c analyzers/common/pool.h \
	analyzers/common/expool.c analyzers/common/expool.h \
	analyzers/common/hist.c analyzers/common/hist.h analyzers/common/prog.h
