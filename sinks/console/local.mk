# SPDX-License-Identifier: GPL-2.0-or-later
sink_LTLIBRARIES += sinks/console/console.la
sinks_console_console_la_SOURCES = sinks/console/console.c
sinks_console_console_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_sink$$'
EXTRA_DIST += sinks/console/README.md
