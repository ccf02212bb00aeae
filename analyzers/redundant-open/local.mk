# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/redundant-open/redundant-open.la
analyzers_redundant_open_redundant_open_la_SOURCES = analyzers/redundant-open/redundant-open.c
analyzers_redundant_open_redundant_open_la_LDFLAGS = $(MODULE_LDFLAGS) \
	-export-symbols-regex '^dio_analyzer$$'
analyzers_redundant_open_redundant_open_la_LIBADD = analyzers/common/libcommon.la
EXTRA_DIST += analyzers/redundant-open/README.md
