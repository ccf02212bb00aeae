# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/reuse-offset/reuse-offset.la
analyzers_reuse_offset_reuse_offset_la_SOURCES = analyzers/reuse-offset/reuse-offset.c
analyzers_reuse_offset_reuse_offset_la_LIBADD = analyzers/common/libcommon.la
analyzers_reuse_offset_reuse_offset_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
EXTRA_DIST += analyzers/reuse-offset/README.md
