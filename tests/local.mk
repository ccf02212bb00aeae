# SPDX-License-Identifier: GPL-2.0-or-later
# Shared test settings. Unit tests: tests/unit/local.mk; root/BPF tests: tests/integration/local.mk.
# Undefined behaviour fails a test: UBSan alone only reports it and goes on.
AM_TESTS_ENVIRONMENT = \
	top_builddir='$(abs_top_builddir)'; top_srcdir='$(abs_top_srcdir)'; \
	DIO='$(abs_top_builddir)/dio'; \
	DIO_ANALYZER_PATH='$(abs_top_builddir)/analyzers'; \
	DIO_SINK_PATH='$(abs_top_builddir)/sinks'; DIO_CLICKHOUSE='$(have_libcurl)'; \
	UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1$${UBSAN_OPTIONS:+:$$UBSAN_OPTIONS}"; \
	export top_builddir top_srcdir DIO DIO_ANALYZER_PATH DIO_SINK_PATH DIO_CLICKHOUSE UBSAN_OPTIONS;
TEST_ENGINE_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBBPF_CFLAGS) $(LIBCONFIG_CFLAGS)
TEST_ENGINE_LIBS = $(DIO_ENGINE_LIBS) $(CMOCKA_LIBS)
