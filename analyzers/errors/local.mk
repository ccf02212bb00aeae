# SPDX-License-Identifier: GPL-2.0-or-later
analyzer_LTLIBRARIES += analyzers/errors/errors.la
analyzers_errors_errors_la_SOURCES = analyzers/errors/errors.c
analyzers_errors_errors_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
analyzers_errors_errors_la_LIBADD = analyzers/common/libcommon.la
EXTRA_DIST += analyzers/errors/README.md
