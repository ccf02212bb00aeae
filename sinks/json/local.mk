# SPDX-License-Identifier: GPL-2.0-or-later
# The engine's decoding (syscall table, xlat tables, tags) is compiled in: a module
# may not call back into dio beyond struct dio_host, and the tables stay in one place.
sink_LTLIBRARIES += sinks/json/json.la
sinks_json_json_la_SOURCES = sinks/json/json.c \
	engine/format.c engine/format.h engine/syscalls.c engine/syscalls.h \
	engine/xlat.c engine/xlat.h
sinks_json_json_la_CFLAGS = $(AM_CFLAGS) $(ZLIB_CFLAGS)
sinks_json_json_la_LIBADD = $(ZLIB_LIBS)
sinks_json_json_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_sink$$'
EXTRA_DIST += sinks/json/README.md
