# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/contention/contention.la
analyzers_contention_contention_la_SOURCES = analyzers/contention/contention.c
analyzers_contention_contention_la_LIBADD = analyzers/common/libcommon.la
analyzers_contention_contention_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
EXTRA_DIST += analyzers/contention/README.md
