# SPDX-License-Identifier: GPL-2.0-or-later
sink_LTLIBRARIES += sinks/junit/junit.la
sinks_junit_junit_la_SOURCES = sinks/junit/junit.c
sinks_junit_junit_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_sink$$'
sinks_junit_junit_la_LIBADD = sinks/common/libreport.la
EXTRA_DIST += sinks/junit/README.md
