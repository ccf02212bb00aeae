# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/latency/latency.la
analyzers_latency_latency_la_SOURCES = analyzers/latency/latency.c
analyzers_latency_latency_la_LIBADD = analyzers/common/libcommon.la
analyzers_latency_latency_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
EXTRA_DIST += analyzers/latency/README.md
