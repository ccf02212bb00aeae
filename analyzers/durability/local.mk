# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/durability/durability.la
analyzers_durability_durability_la_SOURCES = analyzers/durability/durability.c
analyzers_durability_durability_la_LDFLAGS = $(MODULE_LDFLAGS) \
	-export-symbols-regex '^dio_analyzer$$'
analyzers_durability_durability_la_LIBADD = analyzers/common/libcommon.la
EXTRA_DIST += analyzers/durability/README.md
