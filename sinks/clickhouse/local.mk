# SPDX-License-Identifier: GPL-2.0-or-later
# ClickHouse over HTTP: libcurl for the requests, zlib for the gzip bodies. One module, two
# descriptors: the sink (clickhouse.c) writes sessions, the source (source.c) reads them back
# for dio analyze --from clickhouse:... . Built only when configure found libcurl.
if HAVE_LIBCURL
sink_LTLIBRARIES += sinks/clickhouse/clickhouse.la
endif
sinks_clickhouse_clickhouse_la_SOURCES = sinks/clickhouse/clickhouse.c sinks/clickhouse/sender.c \
	sinks/clickhouse/sender.h sinks/clickhouse/schema.h sinks/clickhouse/reply.h \
	sinks/clickhouse/source.c sinks/clickhouse/source.h
sinks_clickhouse_clickhouse_la_CFLAGS = $(AM_CFLAGS) $(LIBCURL_CFLAGS) $(ZLIB_CFLAGS)
sinks_clickhouse_clickhouse_la_LIBADD = $(LIBCURL_LIBS) $(ZLIB_LIBS) -lpthread
# -z nodelete: the module, and libcurl with its TLS and HTTP libraries, stay loaded once loaded
# (as when dio itself linked libcurl): dio push loads and unloads the module for each file, and
# those libraries keep thread-local state and exit handlers that must not outlive their code
sinks_clickhouse_clickhouse_la_LDFLAGS = $(MODULE_LDFLAGS) -Wl,-z,nodelete \
	-export-symbols-regex '^dio_(sink|source)$$'
EXTRA_DIST += sinks/clickhouse/README.md
