# SPDX-License-Identifier: GPL-2.0-or-later
# cmocka unit tests: no root, no BPF.

# loader and dispatch (tests/unit/modules: modules with good and bad descriptors)
check_LTLIBRARIES = tests/unit/modules/good.la tests/unit/modules/badabi.la \
	tests/unit/modules/small.la tests/unit/modules/nosym.la
TEST_MODULE_LDFLAGS = $(MODULE_LDFLAGS) -rpath /nowhere
tests_unit_modules_good_la_SOURCES = tests/unit/modules/good.c
tests_unit_modules_good_la_LDFLAGS = $(TEST_MODULE_LDFLAGS) -export-symbols-regex '^dio_analyzer$$'
tests_unit_modules_badabi_la_SOURCES = tests/unit/modules/badabi.c
tests_unit_modules_badabi_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)
tests_unit_modules_small_la_SOURCES = tests/unit/modules/small.c
tests_unit_modules_small_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)
tests_unit_modules_nosym_la_SOURCES = tests/unit/modules/nosym.c
tests_unit_modules_nosym_la_LDFLAGS = $(TEST_MODULE_LDFLAGS)

check_PROGRAMS += tests/unit/test_plugin
TESTS += tests/unit/test_plugin
tests_unit_test_plugin_SOURCES = tests/unit/test_plugin.c
tests_unit_test_plugin_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_plugin_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_tagtab
TESTS += tests/unit/test_tagtab
tests_unit_test_tagtab_SOURCES = tests/unit/test_tagtab.c
tests_unit_test_tagtab_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_tagtab_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_xlat tests/unit/test_format
TESTS += tests/unit/test_xlat tests/unit/test_format
tests_unit_test_xlat_SOURCES = tests/unit/test_xlat.c
tests_unit_test_xlat_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_xlat_LDADD = $(TEST_ENGINE_LIBS)
tests_unit_test_format_SOURCES = tests/unit/test_format.c
tests_unit_test_format_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_format_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_cli
TESTS += tests/unit/test_cli
tests_unit_test_cli_SOURCES = tests/unit/test_cli.c
tests_unit_test_cli_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_unit_test_cli_LDADD = $(TEST_ENGINE_LIBS)

check_PROGRAMS += tests/unit/test_abi
TESTS += tests/unit/test_abi
tests_unit_test_abi_SOURCES = tests/unit/test_abi.c
tests_unit_test_abi_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_abi_LDADD = $(CMOCKA_LIBS)
