# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/access-pattern/access-pattern.la
analyzers_access_pattern_access_pattern_la_SOURCES = analyzers/access-pattern/access-pattern.c
analyzers_access_pattern_access_pattern_la_LIBADD = analyzers/common/libcommon.la
analyzers_access_pattern_access_pattern_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
EXTRA_DIST += analyzers/access-pattern/README.md
