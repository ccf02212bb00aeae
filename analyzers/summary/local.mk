# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/summary/summary.la
analyzers_summary_summary_la_SOURCES = analyzers/summary/summary.c
analyzers_summary_summary_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
EXTRA_DIST += analyzers/summary/README.md
