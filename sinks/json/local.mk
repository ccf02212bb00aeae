# SPDX-License-Identifier: GPL-2.0-or-later
# Decoding (call names, flags, errnos) comes from the host through struct dio_host,
# as for any module: no engine file is compiled in (tests/unit/module-sources.sh).
sink_LTLIBRARIES += sinks/json/json.la
sinks_json_json_la_SOURCES = sinks/json/json.c
sinks_json_json_la_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS)
sinks_json_json_la_LIBADD = $(ZLIB_LIBS)
sinks_json_json_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_sink$$'
EXTRA_DIST += sinks/json/README.md
