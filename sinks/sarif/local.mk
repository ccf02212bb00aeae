# SPDX-License-Identifier: GPL-2.0-or-later
sink_LTLIBRARIES += sinks/sarif/sarif.la
sinks_sarif_sarif_la_SOURCES = sinks/sarif/sarif.c
sinks_sarif_sarif_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_sink$$'
sinks_sarif_sarif_la_LIBADD = sinks/common/libreport.la
EXTRA_DIST += sinks/sarif/README.md
