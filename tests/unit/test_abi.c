// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ABI: sizes and offsets of every struct in include/dio/ on x86_64. A
 * change here breaks modules built against an older dio: append fields and
 * bump the ABI version instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dio/analyzer.h>
#include <dio/sink.h>

static void layouts_are_pinned(void **unused)
{
	assert_int_equal(sizeof(struct dio_ev_hdr), 16);
	assert_int_equal(sizeof(struct dio_file_tag), 16);
	assert_int_equal(sizeof(struct dio_ev_syscall), 144);
	assert_int_equal(sizeof(struct dio_ev_content), 16);
	assert_int_equal(sizeof(struct dio_ev_path), 40);
	assert_int_equal(sizeof(struct dio_ev_iouring), 104);
	assert_int_equal(sizeof(struct dio_ev_proc), 56);
	assert_int_equal(offsetof(struct dio_ev_syscall, duration), 24);
	assert_int_equal(offsetof(struct dio_ev_syscall, ret), 32);
	assert_int_equal(offsetof(struct dio_ev_syscall, args), 40);
	assert_int_equal(offsetof(struct dio_ev_syscall, comm), 88);
	assert_int_equal(offsetof(struct dio_ev_syscall, tag), 104);
	assert_int_equal(offsetof(struct dio_ev_syscall, offset), 120);
	assert_int_equal(offsetof(struct dio_ev_syscall, nr), 128);
	assert_int_equal(offsetof(struct dio_ev_syscall, flags), 131);
	assert_int_equal(offsetof(struct dio_ev_syscall, str_len), 132);
	assert_int_equal(offsetof(struct dio_ev_syscall, fd), 136);
	assert_int_equal(offsetof(struct dio_ev_path, tag), 16);
	assert_int_equal(offsetof(struct dio_ev_path, len), 32);
	assert_int_equal(offsetof(struct dio_ev_path, pid), 36);
	assert_int_equal(offsetof(struct dio_ev_iouring, res), 32);
	assert_int_equal(offsetof(struct dio_ev_iouring, offset), 40);
	assert_int_equal(offsetof(struct dio_ev_iouring, tag), 72);
	assert_int_equal(offsetof(struct dio_ev_iouring, opcode), 96);
	assert_int_equal(offsetof(struct dio_ev_proc, exit_code), 32);
	assert_int_equal(offsetof(struct dio_ev_proc, kind), 36);
	assert_int_equal(offsetof(struct dio_ev_proc, comm), 40);
	assert_int_equal(sizeof(struct dio_option), 32);
	assert_int_equal(sizeof(struct dio_optval), 32);
	assert_int_equal(sizeof(struct dio_finding), 120);
	assert_int_equal(sizeof(struct dio_stats), 56);
	assert_int_equal(sizeof(struct dio_host), 64);
	assert_int_equal(sizeof(struct dio_analyzer), 72);
	assert_int_equal(sizeof(struct dio_sink), 88);
	assert_int_equal(offsetof(struct dio_finding, code), 8);
	assert_int_equal(offsetof(struct dio_finding, tag), 64);
	assert_int_equal(offsetof(struct dio_finding, ts_first), 88);
	assert_int_equal(offsetof(struct dio_finding, excerpt), 112);
	assert_int_equal(offsetof(struct dio_host, syscall_name), 8);
	assert_int_equal(offsetof(struct dio_host, log), 56);
	assert_int_equal(offsetof(struct dio_analyzer, name), 8);
	assert_int_equal(offsetof(struct dio_analyzer, events), 24);
	assert_int_equal(offsetof(struct dio_analyzer, init), 40);
	assert_int_equal(offsetof(struct dio_analyzer, destroy), 64);
	assert_int_equal(offsetof(struct dio_sink, events), 24);
	assert_int_equal(offsetof(struct dio_sink, findings), 32);
	assert_int_equal(offsetof(struct dio_sink, options), 40);
	assert_int_equal(offsetof(struct dio_sink, finding), 64);
	assert_int_equal(offsetof(struct dio_sink, destroy), 80);
	assert_int_equal(DIO_PLUGIN_ABI, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layouts_are_pinned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
