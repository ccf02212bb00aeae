# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzing the trace file reader with libFuzzer (clang -fsanitize=fuzzer), a short
# bounded run in make check. Built with clang, not the configured C compiler.
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-D_GNU_SOURCE -I$(top_srcdir)/include -I$(top_srcdir)
check_SCRIPTS += tests/fuzz/fuzz_tracefile
TESTS += tests/fuzz/fuzz-tracefile.sh
EXTRA_DIST += tests/fuzz/fuzz-tracefile.sh tests/fuzz/fuzz_tracefile.c \
	tests/fuzz/corpus/cat.dio tests/fuzz/corpus/demo.dio tests/fuzz/corpus/demo-cut.dio \
	tests/fuzz/corpus/cat-v2.dio
CLEANFILES += tests/fuzz/fuzz_tracefile
tests/fuzz/fuzz_tracefile: $(srcdir)/tests/fuzz/fuzz_tracefile.c $(srcdir)/engine/tracefile.c \
		$(srcdir)/engine/tracefile.h $(srcdir)/engine/util.c $(srcdir)/engine/util.h \
		$(srcdir)/engine/pack.c $(srcdir)/engine/pack.h $(srcdir)/engine/weight.c \
		$(srcdir)/engine/weight.h
	@mkdir -p tests/fuzz
	$(AM_V_CC)$(CLANG) $(FUZZ_CFLAGS) $(LIBZSTD_CFLAGS) $(srcdir)/tests/fuzz/fuzz_tracefile.c \
		$(srcdir)/engine/tracefile.c $(srcdir)/engine/pack.c $(srcdir)/engine/util.c \
		$(srcdir)/engine/weight.c -o $@ \
		$(ZLIB_LIBS) $(LIBZSTD_LIBS)

# Fuzzing what comes after the reader: records without the file's framing, through
# the host's checks, dispatch, the sinks and every analyzer, loaded as modules. Built
# with the configured compiler and sanitizers (the modules are), with a driver of its own.
check_PROGRAMS += tests/fuzz/fuzz_records
tests_fuzz_fuzz_records_SOURCES = tests/fuzz/fuzz_records.c
tests_fuzz_fuzz_records_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_fuzz_fuzz_records_LDADD = $(DIO_ENGINE_LIBS)
TESTS += tests/fuzz/fuzz-records.sh
EXTRA_DIST += tests/fuzz/fuzz-records.sh tests/fuzz/record-seeds.py \
	tests/fuzz/records/blockq.rec tests/fuzz/records/demo.rec \
	tests/fuzz/records/edges-kernel.rec tests/fuzz/records/edges-user.rec \
	tests/fuzz/records/pipe.rec tests/fuzz/records/uring.rec

# Fuzzing what dio reads from a ClickHouse server (the answers of the clickhouse sink's
# look-ups, and the rows dio analyze --from reads), with libFuzzer, a fixed number of runs.
if HAVE_LIBCURL
check_SCRIPTS += tests/fuzz/fuzz_chreply
endif
TESTS += tests/fuzz/fuzz-chreply.sh
EXTRA_DIST += tests/fuzz/fuzz-chreply.sh tests/fuzz/fuzz_chreply.c \
	tests/fuzz/chreply/batches.txt tests/fuzz/chreply/counts.txt \
	tests/fuzz/chreply/messages.txt tests/fuzz/chreply/calls.bin tests/fuzz/chreply/paths.bin \
	tests/fuzz/chreply/procs.bin tests/fuzz/chreply/block.bin tests/fuzz/chreply/runq.bin
CLEANFILES += tests/fuzz/fuzz_chreply
# the module's source and its requests (sender.c), as the module builds them
tests/fuzz/fuzz_chreply: $(srcdir)/tests/fuzz/fuzz_chreply.c $(srcdir)/sinks/clickhouse/source.c \
		$(srcdir)/sinks/clickhouse/source.h $(srcdir)/sinks/clickhouse/sender.c \
		$(srcdir)/sinks/clickhouse/sender.h \
		$(srcdir)/sinks/clickhouse/reply.h $(srcdir)/sinks/clickhouse/schema.h
	@mkdir -p tests/fuzz
	$(AM_V_CC)$(CLANG) $(FUZZ_CFLAGS) $(LIBCURL_CFLAGS) $(ZLIB_CFLAGS) \
		$(srcdir)/tests/fuzz/fuzz_chreply.c $(srcdir)/sinks/clickhouse/source.c \
		$(srcdir)/sinks/clickhouse/sender.c -o $@ $(LIBCURL_LIBS) $(ZLIB_LIBS) -lpthread
