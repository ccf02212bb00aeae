# SPDX-License-Identifier: GPL-2.0-or-later
# cmocka unit tests: no root, no BPF.

# loader and dispatch (tests/unit/modules: modules with good and bad descriptors)
check_LTLIBRARIES = tests/unit/modules/good.la tests/unit/modules/badabi.la \
	tests/unit/modules/small.la tests/unit/modules/nosym.la tests/unit/modules/noinit.la \
	tests/unit/modules/ofdlog.la tests/unit/modules/ruled.la tests/unit/modules/fakesrc.la \
	tests/unit/modules/othersrc.la
TEST_MODULE_LDFLAGS = $(MODULE_LDFLAGS) -rpath /nowhere
tests_unit_modules_good_la_SOURCES = tests/unit/modules/good.c
tests_unit_modules_good_la_LDFLAGS = $(TEST_MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
tests_unit_modules_badabi_la_SOURCES = tests/unit/modules/badabi.c
tests_unit_modules_badabi_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)
tests_unit_modules_small_la_SOURCES = tests/unit/modules/small.c
tests_unit_modules_small_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)
tests_unit_modules_nosym_la_SOURCES = tests/unit/modules/nosym.c
tests_unit_modules_nosym_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)
tests_unit_modules_noinit_la_SOURCES = tests/unit/modules/noinit.c
tests_unit_modules_noinit_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)
tests_unit_modules_ofdlog_la_SOURCES = tests/unit/modules/ofdlog.c
tests_unit_modules_ofdlog_la_LDFLAGS = $(TEST_MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
# findings with declared rules, for the report sinks (tests/integration/ci-reports.sh)
tests_unit_modules_ruled_la_SOURCES = tests/unit/modules/ruled.c
tests_unit_modules_ruled_la_LDFLAGS = $(TEST_MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'

# record sources by scheme (fakesrc: a source module; othersrc: one of another scheme)
tests_unit_modules_fakesrc_la_SOURCES = tests/unit/modules/fakesrc.c
tests_unit_modules_fakesrc_la_LDFLAGS = $(TEST_MODULE_LDFLAGS) -export-symbols-regex '^dio_source$$'
tests_unit_modules_othersrc_la_SOURCES = tests/unit/modules/othersrc.c
tests_unit_modules_othersrc_la_LDFLAGS = $(TEST_MODULE_LDFLAGS) -export-symbols-regex '^dio_source$$'
check_PROGRAMS += tests/unit/test_sources
TESTS += tests/unit/test_sources
tests_unit_test_sources_SOURCES = tests/unit/test_sources.c
tests_unit_test_sources_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_sources_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_plugin
TESTS += tests/unit/test_plugin
tests_unit_test_plugin_SOURCES = tests/unit/test_plugin.c
tests_unit_test_plugin_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_plugin_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_ofdtab
TESTS += tests/unit/test_ofdtab
tests_unit_test_ofdtab_SOURCES = tests/unit/test_ofdtab.c
tests_unit_test_ofdtab_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_ofdtab_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_tagtab
TESTS += tests/unit/test_tagtab
tests_unit_test_tagtab_SOURCES = tests/unit/test_tagtab.c
tests_unit_test_tagtab_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_tagtab_LDADD = $(TEST_ENGINE_LIBS)

# flag tables, the syscall table and selections, strace-like lines
check_PROGRAMS += tests/unit/test_xlat tests/unit/test_syscalls tests/unit/test_format
TESTS += tests/unit/test_xlat tests/unit/test_syscalls tests/unit/test_format
tests_unit_test_xlat_SOURCES = tests/unit/test_xlat.c
tests_unit_test_xlat_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_xlat_LDADD = $(TEST_ENGINE_LIBS)
tests_unit_test_syscalls_SOURCES = tests/unit/test_syscalls.c
tests_unit_test_syscalls_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_syscalls_LDADD = $(TEST_ENGINE_LIBS)
tests_unit_test_format_SOURCES = tests/unit/test_format.c
tests_unit_test_format_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_format_LDADD = $(TEST_ENGINE_LIBS)

# the decoding the host offers modules (syscall_info, decode_arg, name_of)
check_PROGRAMS += tests/unit/test_decode
TESTS += tests/unit/test_decode
tests_unit_test_decode_SOURCES = tests/unit/test_decode.c
tests_unit_test_decode_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_decode_LDADD = $(TEST_ENGINE_LIBS)

# file system types by device, from mountinfo (host->fs_type)
check_PROGRAMS += tests/unit/test_fstypes
TESTS += tests/unit/test_fstypes
tests_unit_test_fstypes_SOURCES = tests/unit/test_fstypes.c
tests_unit_test_fstypes_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_fstypes_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_cli
TESTS += tests/unit/test_cli
tests_unit_test_cli_SOURCES = tests/unit/test_cli.c tests/unit/options_dump.h
tests_unit_test_cli_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_cli_LDADD = cmd/libdiocmd.a $(TEST_ENGINE_LIBS)

# the option table: the manual names every option; no command has two of one name
check_PROGRAMS += tests/unit/test_optdefs
TESTS += tests/unit/test_optdefs
tests_unit_test_optdefs_SOURCES = tests/unit/test_optdefs.c
tests_unit_test_optdefs_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_optdefs_LDADD = cmd/libdiocmd.a $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_abi
TESTS += tests/unit/test_abi
tests_unit_test_abi_SOURCES = tests/unit/test_abi.c
tests_unit_test_abi_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_abi_LDADD = $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_config
TESTS += tests/unit/test_config
tests_unit_test_config_SOURCES = tests/unit/test_config.c tests/unit/options_dump.h
tests_unit_test_config_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_config_LDADD = $(TEST_ENGINE_LIBS)

# modules linked in directly (each test links one, so dio_sink/dio_analyzer do not clash),
# with the one fake host (tests/unit/fakehost.c) and the engine it is built on
check_PROGRAMS += tests/unit/test_console
TESTS += tests/unit/test_console
tests_unit_test_console_SOURCES = tests/unit/test_console.c tests/unit/fakehost.c tests/unit/fakehost.h \
	sinks/console/console.c
tests_unit_test_console_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_console_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_summary
TESTS += tests/unit/test_summary
tests_unit_test_summary_SOURCES = tests/unit/test_summary.c tests/unit/fakehost.c tests/unit/fakehost.h \
	analyzers/summary/summary.c
tests_unit_test_summary_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_summary_LDADD = $(TEST_ENGINE_LIBS)

# trace files: round trip and damaged files
check_PROGRAMS += tests/unit/test_tracefile
TESTS += tests/unit/test_tracefile
tests_unit_test_tracefile_SOURCES = tests/unit/test_tracefile.c
tests_unit_test_tracefile_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_tracefile_LDADD = $(TEST_ENGINE_LIBS)

# the packed encoding of records blocks: exact round trips, size, damaged input
check_PROGRAMS += tests/unit/test_pack
TESTS += tests/unit/test_pack
tests_unit_test_pack_SOURCES = tests/unit/test_pack.c
tests_unit_test_pack_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_pack_LDADD = $(TEST_ENGINE_LIBS)

# loss reasons: trace file keys, old files, what modules see, the writer's cause
check_PROGRAMS += tests/unit/test_loss
TESTS += tests/unit/test_loss
tests_unit_test_loss_SOURCES = tests/unit/test_loss.c
tests_unit_test_loss_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_loss_LDADD = $(TEST_ENGINE_LIBS)

# the json sink: its descriptor, exact lines, string escaping, .gz output, errors
check_PROGRAMS += tests/unit/test_json
TESTS += tests/unit/test_json
tests_unit_test_json_SOURCES = tests/unit/test_json.c tests/unit/fakehost.c tests/unit/fakehost.h sinks/json/json.c
tests_unit_test_json_CFLAGS = $(TEST_ENGINE_CFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_json_LDADD = $(TEST_ENGINE_LIBS)

# what the report sinks share: JSON and XML text from any bytes, kept findings, a full disk
check_PROGRAMS += tests/unit/test_report
TESTS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_report_LDADD = sinks/common/libreport.la $(CMOCKA_LIBS)

# the report sinks with the fake host:
# rules, locations of findings about no file,
# which findings fail a JUnit case, baselines, suppressions, a full disk
check_PROGRAMS += tests/unit/test_sarif tests/unit/test_junit
TESTS += tests/unit/test_sarif tests/unit/test_junit
tests_unit_test_sarif_SOURCES = tests/unit/test_sarif.c \
	tests/unit/fakehost.c tests/unit/fakehost.h sinks/sarif/sarif.c
tests_unit_test_sarif_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_sarif_LDADD = sinks/common/libreport.la $(TEST_ENGINE_LIBS)
tests_unit_test_junit_SOURCES = tests/unit/test_junit.c \
	tests/unit/fakehost.c tests/unit/fakehost.h sinks/junit/junit.c
tests_unit_test_junit_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_junit_LDADD = sinks/common/libreport.la $(TEST_ENGINE_LIBS)

# what the built-in analyzers share
check_PROGRAMS += tests/unit/test_table
TESTS += tests/unit/test_table
tests_unit_test_table_SOURCES = tests/unit/test_table.c
tests_unit_test_table_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_table_LDADD = analyzers/common/libcommon.la $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_latency
TESTS += tests/unit/test_latency
tests_unit_test_latency_SOURCES = tests/unit/test_latency.c tests/unit/fakehost.c tests/unit/fakehost.h \
	analyzers/latency/latency.c analyzers/common/table.c analyzers/common/calls.c \
	analyzers/common/hist.c
tests_unit_test_latency_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_latency_LDADD = $(TEST_ENGINE_LIBS)

# the SDK example analyzer (docs/examples/fsync-rename), built here with the fake host
check_PROGRAMS += tests/unit/test_fsync_rename
TESTS += tests/unit/test_fsync_rename
tests_unit_test_fsync_rename_SOURCES = tests/unit/test_fsync_rename.c \
	docs/examples/fsync-rename/fsync_rename.c tests/unit/fakehost.c tests/unit/fakehost.h
tests_unit_test_fsync_rename_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_fsync_rename_LDADD = $(TEST_ENGINE_LIBS)

# the installed headers, each alone, as a module's author includes them
SDK_HEADER_TESTS = tests/unit/sdk-headers.sh tests/unit/sdk-headers-c99.sh
TESTS += $(SDK_HEADER_TESTS)
EXTRA_DIST += $(SDK_HEADER_TESTS)

# modules use dio through the ABI alone: no engine source, header or symbol in one
TESTS += tests/unit/module-sources.sh
EXTRA_DIST += tests/unit/module-sources.sh
AM_TESTS_ENVIRONMENT += CC='$(CC)'; CLANG='$(CLANG)'; PKG_CONFIG='$(PKG_CONFIG)'; \
	export CC CLANG PKG_CONFIG;

check_PROGRAMS += tests/unit/test_pool
TESTS += tests/unit/test_pool
tests_unit_test_pool_SOURCES = tests/unit/test_pool.c
tests_unit_test_pool_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_pool_LDADD = analyzers/common/libcommon.la $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_reuse_offset
TESTS += tests/unit/test_reuse_offset
tests_unit_test_reuse_offset_SOURCES = tests/unit/test_reuse_offset.c \
	tests/unit/fakehost.c tests/unit/fakehost.h analyzers/reuse-offset/reuse-offset.c \
	analyzers/common/table.c analyzers/common/calls.c analyzers/common/pool.c
tests_unit_test_reuse_offset_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_reuse_offset_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_access_pattern
TESTS += tests/unit/test_access_pattern
tests_unit_test_access_pattern_SOURCES = tests/unit/test_access_pattern.c \
	tests/unit/fakehost.c tests/unit/fakehost.h analyzers/access-pattern/access-pattern.c \
	analyzers/common/table.c analyzers/common/calls.c analyzers/common/pool.c
tests_unit_test_access_pattern_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_access_pattern_LDADD = $(TEST_ENGINE_LIBS)

# analyzers/common: file labels
check_PROGRAMS += tests/unit/test_calls
TESTS += tests/unit/test_calls
tests_unit_test_calls_SOURCES = tests/unit/test_calls.c tests/unit/fakehost.c tests/unit/fakehost.h
tests_unit_test_calls_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_calls_LDADD = analyzers/common/libcommon.la $(TEST_ENGINE_LIBS)

# analyzers/common: the pool of excerpts
check_PROGRAMS += tests/unit/test_expool
TESTS += tests/unit/test_expool
tests_unit_test_expool_SOURCES = tests/unit/test_expool.c
tests_unit_test_expool_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_expool_LDADD = analyzers/common/libcommon.la $(CMOCKA_LIBS)

# analyzers, linked with the fake host (tests/unit/fakehost.c), the common code
# and the engine, whose decoding the fake host offers
ANALYZER_COMMON = analyzers/common/table.c analyzers/common/calls.c \
	analyzers/common/pool.c analyzers/common/expool.c
check_PROGRAMS += tests/unit/test_redundant_open
TESTS += tests/unit/test_redundant_open
tests_unit_test_redundant_open_SOURCES = tests/unit/test_redundant_open.c \
	tests/unit/fakehost.c tests/unit/fakehost.h analyzers/redundant-open/redundant-open.c \
	$(ANALYZER_COMMON)
tests_unit_test_redundant_open_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_redundant_open_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_durability
TESTS += tests/unit/test_durability
tests_unit_test_durability_SOURCES = tests/unit/test_durability.c \
	tests/unit/fakehost.c tests/unit/fakehost.h analyzers/durability/durability.c $(ANALYZER_COMMON)
tests_unit_test_durability_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_durability_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_errors
TESTS += tests/unit/test_errors
tests_unit_test_errors_SOURCES = tests/unit/test_errors.c tests/unit/fakehost.c tests/unit/fakehost.h \
	analyzers/errors/errors.c $(ANALYZER_COMMON)
tests_unit_test_errors_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_errors_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_hist
TESTS += tests/unit/test_hist
tests_unit_test_hist_SOURCES = tests/unit/test_hist.c
tests_unit_test_hist_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hist_LDADD = analyzers/common/libcommon.la $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_contention
TESTS += tests/unit/test_contention
tests_unit_test_contention_SOURCES = tests/unit/test_contention.c \
	tests/unit/fakehost.c tests/unit/fakehost.h analyzers/contention/contention.c \
	analyzers/common/table.c analyzers/common/calls.c analyzers/common/hist.c
tests_unit_test_contention_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_contention_LDADD = $(TEST_ENGINE_LIBS)

# what the kernel lets dio use, read from synthetic BTFs of 6.1, 6.12, 6.18 and older
check_PROGRAMS += tests/unit/test_features
TESTS += tests/unit/test_features
tests_unit_test_features_SOURCES = tests/unit/test_features.c
tests_unit_test_features_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_features_LDADD = $(TEST_ENGINE_LIBS)

# what the fake host checks of findings (tests/unit/fakehost.c)
EXTRA_DIST += tests/unit/declared_rules.h

# CI: subjects, fingerprints, URIs, suppression files, SARIF baselines, the JSON reader
check_PROGRAMS += tests/unit/test_findings
TESTS += tests/unit/test_findings
tests_unit_test_findings_SOURCES = tests/unit/test_findings.c
tests_unit_test_findings_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_findings_LDADD = $(TEST_ENGINE_LIBS)

# --report-every: findings to the live sinks as judged, then updates; the end sees each once
check_PROGRAMS += tests/unit/test_verdict
TESTS += tests/unit/test_verdict
tests_unit_test_verdict_SOURCES = tests/unit/test_verdict.c
tests_unit_test_verdict_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_verdict_LDADD = $(TEST_ENGINE_LIBS)

# --srcroot's default: the git work tree's top, found without running git
check_PROGRAMS += tests/unit/test_worktree
TESTS += tests/unit/test_worktree
tests_unit_test_worktree_SOURCES = tests/unit/test_worktree.c
tests_unit_test_worktree_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_worktree_LDADD = $(TEST_ENGINE_LIBS)

# the one check of records at the host's boundary, and the accessors of dio/event.h
check_PROGRAMS += tests/unit/test_record
TESTS += tests/unit/test_record
tests_unit_test_record_SOURCES = tests/unit/test_record.c
tests_unit_test_record_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_record_LDADD = $(TEST_ENGINE_LIBS)

# dio diff: the latency histogram, ratios, what counts as worse, the command line
check_PROGRAMS += tests/unit/test_diff
TESTS += tests/unit/test_diff
tests_unit_test_diff_SOURCES = tests/unit/test_diff.c
tests_unit_test_diff_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_diff_LDADD = cmd/libdiocmd.a $(TEST_ENGINE_LIBS)

# what the clickhouse sink takes from a server's answers and a recording's names
check_PROGRAMS += tests/unit/test_chreply
TESTS += tests/unit/test_chreply
tests_unit_test_chreply_SOURCES = tests/unit/test_chreply.c sinks/clickhouse/reply.h
tests_unit_test_chreply_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_chreply_LDADD = $(CMOCKA_LIBS)
