// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module ABI, pinned: size and offset of every field of every struct in
 * include/dio/, and the constants modules compile in, with the numbers of
 * x86_64. A failure here means modules built against an older dio would read
 * the wrong bytes: append fields (marked with their ABI version) and bump
 * DIO_PLUGIN_ABI instead of moving anything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include <dio/analyzer.h>
#include <dio/sink.h>

struct pin {
	const char *what;
	size_t got, want;
};

#define SZ(t, n)	{ "sizeof(struct " #t ")", sizeof(struct t), n }
#define OFF(t, f, n)	{ "offsetof(struct " #t ", " #f ")", offsetof(struct t, f), n }
#define VAL(c, n)	{ #c, (size_t)(c), n }

static void check(const struct pin *p, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i].got == p[i].want)
			continue;
		print_error("%s is %zu, pinned at %zu\n", p[i].what, p[i].got, p[i].want);
		bad++;
	}
	assert_int_equal(bad, 0);
}

#define CHECK(pins) check(pins, sizeof(pins) / sizeof(pins[0]))

static void event_records_are_pinned(void **unused)
{
	static const struct pin pins[] = {
		SZ(dio_ev_hdr, 16),
		OFF(dio_ev_hdr, type, 0),
		OFF(dio_ev_hdr, size, 2),
		OFF(dio_ev_hdr, cpu, 4),
		OFF(dio_ev_hdr, ts, 8),

		SZ(dio_file_tag, 16),
		OFF(dio_file_tag, ino, 0),
		OFF(dio_file_tag, dev, 8),
		OFF(dio_file_tag, gen, 12),

		SZ(dio_ev_syscall, 144),
		OFF(dio_ev_syscall, hdr, 0),
		OFF(dio_ev_syscall, pid, 16),
		OFF(dio_ev_syscall, tid, 20),
		OFF(dio_ev_syscall, duration, 24),
		OFF(dio_ev_syscall, ret, 32),
		OFF(dio_ev_syscall, args, 40),
		OFF(dio_ev_syscall, comm, 88),
		OFF(dio_ev_syscall, tag, 104),
		OFF(dio_ev_syscall, offset, 120),
		OFF(dio_ev_syscall, nr, 128),
		OFF(dio_ev_syscall, ftype, 130),
		OFF(dio_ev_syscall, flags, 131),
		OFF(dio_ev_syscall, str_len, 132),
		OFF(dio_ev_syscall, fd, 136),
		OFF(dio_ev_syscall, ofd, 140),

		SZ(dio_ev_content, 16),
		OFF(dio_ev_content, hash, 0),
		OFF(dio_ev_content, hashed_len, 8),
		OFF(dio_ev_content, data_len, 12),

		SZ(dio_ev_path, 40),
		OFF(dio_ev_path, hdr, 0),
		OFF(dio_ev_path, tag, 16),
		OFF(dio_ev_path, len, 32),
		OFF(dio_ev_path, flags, 34),
		OFF(dio_ev_path, ftype, 35),
		OFF(dio_ev_path, pid, 36),

		SZ(dio_ev_iouring, 104),
		OFF(dio_ev_iouring, hdr, 0),
		OFF(dio_ev_iouring, pid, 16),
		OFF(dio_ev_iouring, tid, 20),
		OFF(dio_ev_iouring, duration, 24),
		OFF(dio_ev_iouring, res, 32),
		OFF(dio_ev_iouring, offset, 40),
		OFF(dio_ev_iouring, user_data, 48),
		OFF(dio_ev_iouring, comm, 56),
		OFF(dio_ev_iouring, tag, 72),
		OFF(dio_ev_iouring, len, 88),
		OFF(dio_ev_iouring, fd, 92),
		OFF(dio_ev_iouring, opcode, 96),
		OFF(dio_ev_iouring, ftype, 97),
		OFF(dio_ev_iouring, flags, 98),
		OFF(dio_ev_iouring, pad, 99),

		SZ(dio_ev_proc, 64),
		OFF(dio_ev_proc, hdr, 0),
		OFF(dio_ev_proc, pid, 16),
		OFF(dio_ev_proc, tid, 20),
		OFF(dio_ev_proc, other_pid, 24),
		OFF(dio_ev_proc, other_tid, 28),
		OFF(dio_ev_proc, exit_code, 32),
		OFF(dio_ev_proc, kind, 36),
		OFF(dio_ev_proc, flags, 38),
		OFF(dio_ev_proc, comm, 40),
		OFF(dio_ev_proc, mnt_ns, 56),

		SZ(dio_ev_block, 96),
		OFF(dio_ev_block, hdr, 0),
		OFF(dio_ev_block, pid, 16),
		OFF(dio_ev_block, tid, 20),
		OFF(dio_ev_block, duration, 24),
		OFF(dio_ev_block, queue_ns, 32),
		OFF(dio_ev_block, sector, 40),
		OFF(dio_ev_block, sys_ts, 48),
		OFF(dio_ev_block, comm, 56),
		OFF(dio_ev_block, dev, 72),
		OFF(dio_ev_block, bytes, 76),
		OFF(dio_ev_block, error, 80),
		OFF(dio_ev_block, nr, 84),
		OFF(dio_ev_block, flags, 86),
		OFF(dio_ev_block, pad, 87),
		OFF(dio_ev_block, rwbs, 88),

		SZ(dio_ev_runq, 88),
		OFF(dio_ev_runq, hdr, 0),
		OFF(dio_ev_runq, pid, 16),
		OFF(dio_ev_runq, tid, 20),
		OFF(dio_ev_runq, delay, 24),
		OFF(dio_ev_runq, sys_ts, 32),
		OFF(dio_ev_runq, comm, 40),
		OFF(dio_ev_runq, prev_pid, 56),
		OFF(dio_ev_runq, prev_tid, 60),
		OFF(dio_ev_runq, prev_comm, 64),
		OFF(dio_ev_runq, nr, 80),
		OFF(dio_ev_runq, flags, 82),
		OFF(dio_ev_runq, pad, 83),

		SZ(dio_ev_ofd, 64),
		OFF(dio_ev_ofd, hdr, 0),
		OFF(dio_ev_ofd, pid, 16),
		OFF(dio_ev_ofd, tid, 20),
		OFF(dio_ev_ofd, ofd, 24),
		OFF(dio_ev_ofd, fd, 28),
		OFF(dio_ev_ofd, tag, 32),
		OFF(dio_ev_ofd, open_ts, 48),
		OFF(dio_ev_ofd, nr, 56),
		OFF(dio_ev_ofd, how, 58),
		OFF(dio_ev_ofd, ftype, 59),
		OFF(dio_ev_ofd, flags, 60),
	};

	CHECK(pins);
}

static void plugin_structs_are_pinned(void **unused)
{
	static const struct pin pins[] = {
		SZ(dio_option, 32),
		OFF(dio_option, name, 0),
		OFF(dio_option, type, 8),
		OFF(dio_option, def, 16),
		OFF(dio_option, help, 24),

		SZ(dio_optval, 32),
		OFF(dio_optval, i, 0),
		OFF(dio_optval, d, 8),
		OFF(dio_optval, s, 16),
		OFF(dio_optval, set, 24),
		OFF(dio_optval, pad, 28),

		SZ(dio_finding, 200),
		OFF(dio_finding, size, 0),
		OFF(dio_finding, severity, 4),
		OFF(dio_finding, code, 8),
		OFF(dio_finding, title, 16),
		OFF(dio_finding, message, 24),
		OFF(dio_finding, analyzer, 32),
		OFF(dio_finding, pid, 40),
		OFF(dio_finding, tid, 44),
		OFF(dio_finding, comm, 48),
		OFF(dio_finding, path, 56),
		OFF(dio_finding, tag, 64),
		OFF(dio_finding, has_tag, 80),
		OFF(dio_finding, pad, 84),
		OFF(dio_finding, ts_first, 88),
		OFF(dio_finding, ts_last, 96),
		OFF(dio_finding, count, 104),
		OFF(dio_finding, excerpt, 112),
		OFF(dio_finding, subject, 120),
		OFF(dio_finding, fingerprint, 128),
		OFF(dio_finding, uri, 136),
		OFF(dio_finding, uri_base, 144),
		OFF(dio_finding, baseline, 152),
		OFF(dio_finding, suppressed, 156),
		OFF(dio_finding, suppress_reason, 160),
		OFF(dio_finding, rule_title, 168),
		OFF(dio_finding, cost_ns, 176),
		OFF(dio_finding, processes, 184),
		OFF(dio_finding, gates, 188),
		OFF(dio_finding, below, 192),
		OFF(dio_finding, update, 196),

		SZ(dio_rule, 40),
		OFF(dio_rule, code, 0),
		OFF(dio_rule, severity, 8),
		OFF(dio_rule, flags, 12),
		OFF(dio_rule, title, 16),
		OFF(dio_rule, description, 24),
		OFF(dio_rule, help, 32),

		SZ(dio_stats, 136),
		OFF(dio_stats, events, 0),
		OFF(dio_stats, lost_ringbuf, 8),
		OFF(dio_stats, lost_inflight, 16),
		OFF(dio_stats, lost_pathtab, 24),
		OFF(dio_stats, lost_iouring, 32),
		OFF(dio_stats, lost_other, 40),
		OFF(dio_stats, path_truncated, 48),
		OFF(dio_stats, lost_block, 56),
		OFF(dio_stats, lost_block_unseen, 64),
		OFF(dio_stats, lost_mappings, 72),
		OFF(dio_stats, lost_iouring_unseen, 80),
		OFF(dio_stats, lost_procs, 88),
		OFF(dio_stats, lost_writer, 96),
		OFF(dio_stats, writer_cause, 104),
		OFF(dio_stats, pad, 108),
		OFF(dio_stats, paths_evicted, 112),
		OFF(dio_stats, lost_blkdevs, 120),
		OFF(dio_stats, kernel_paths_evicted, 128),

		SZ(dio_syscall_info, 24),
		OFF(dio_syscall_info, name, 0),
		OFF(dio_syscall_info, nargs, 8),
		OFF(dio_syscall_info, classes, 12),
		OFF(dio_syscall_info, str_args, 16),
		OFF(dio_syscall_info, io, 20),

		SZ(dio_host, 128),
		OFF(dio_host, abi, 0),
		OFF(dio_host, size, 4),
		OFF(dio_host, syscall_name, 8),
		OFF(dio_host, tag_path, 16),
		OFF(dio_host, format_event, 24),
		OFF(dio_host, realtime_ns, 32),
		OFF(dio_host, emit_finding, 40),
		OFF(dio_host, stats, 48),
		OFF(dio_host, log, 56),
		OFF(dio_host, create_output, 64),
		OFF(dio_host, rule, 72),
		OFF(dio_host, info, 80),
		OFF(dio_host, stats_sized, 88),
		OFF(dio_host, syscall_info, 96),
		OFF(dio_host, decode_arg, 104),
		OFF(dio_host, name_of, 112),
		OFF(dio_host, fs_type, 120),
	};

	CHECK(pins);
}

static void module_descriptors_are_pinned(void **unused)
{
	static const struct pin pins[] = {
		SZ(dio_analyzer, 88),
		OFF(dio_analyzer, abi, 0),
		OFF(dio_analyzer, size, 4),
		OFF(dio_analyzer, name, 8),
		OFF(dio_analyzer, description, 16),
		OFF(dio_analyzer, events, 24),
		OFF(dio_analyzer, options, 32),
		OFF(dio_analyzer, init, 40),
		OFF(dio_analyzer, event, 48),
		OFF(dio_analyzer, finish, 56),
		OFF(dio_analyzer, destroy, 64),
		OFF(dio_analyzer, rules, 72),
		OFF(dio_analyzer, tick, 80),

		SZ(dio_sink, 104),
		OFF(dio_sink, abi, 0),
		OFF(dio_sink, size, 4),
		OFF(dio_sink, name, 8),
		OFF(dio_sink, description, 16),
		OFF(dio_sink, events, 24),
		OFF(dio_sink, findings, 32),
		OFF(dio_sink, pad, 36),
		OFF(dio_sink, options, 40),
		OFF(dio_sink, init, 48),
		OFF(dio_sink, event, 56),
		OFF(dio_sink, finding, 64),
		OFF(dio_sink, flush, 72),
		OFF(dio_sink, destroy, 80),
		OFF(dio_sink, finish, 88),
		OFF(dio_sink, live, 96),
		OFF(dio_sink, pad2, 100),
	};

	CHECK(pins);
}

/* values compiled into modules: changing one changes what old modules mean */
static void constants_are_pinned(void **unused)
{
	static const struct pin pins[] = {
		VAL(DIO_PLUGIN_ABI, 1),
		VAL(DIO_ANALYZER_ABI, 1),
		VAL(DIO_SINK_ABI, 1),
		VAL(DIO_EV_SYSCALL, 1),
		VAL(DIO_EV_PATH, 2),
		VAL(DIO_EV_IOURING, 3),
		VAL(DIO_EV_PROC, 4),
		VAL(DIO_EV_BLOCK, 5),
		VAL(DIO_EV_RUNQ, 6),
		VAL(DIO_EV_OFD, 7),
		VAL(DIO_EV_MAX, 8),
		VAL(DIO_OFD_HOST, 0x80000000u),
		VAL(DIO_OFD_CLOSE, 1),
		VAL(DIO_OFD_REPLACED, 2),
		VAL(DIO_OFD_EXEC, 3),
		VAL(DIO_OFD_EXIT, 4),
		VAL(DIO_OFD_END, 5),
		VAL(DIO_OFDF_OPENED, 1),
		VAL(DIO_OFDF_FILE, 2),
		VAL(DIO_EV_MASK(DIO_EV_PROC), 16),
		VAL(DIO_COMM_LEN, 16),
		VAL(DIO_PATH_MAX, 4096),
		VAL(DIO_FILE_TAG_LEN, 45),
		VAL(DIO_DEV_MAJOR(0x00800001u), 8),
		VAL(DIO_DEV_MINOR(0x00800001u), 1),
		VAL(DIO_FT_NONE, 0),
		VAL(DIO_FT_FIFO, 1),
		VAL(DIO_FT_CHR, 2),
		VAL(DIO_FT_DIR, 4),
		VAL(DIO_FT_BLK, 6),
		VAL(DIO_FT_REG, 8),
		VAL(DIO_FT_LNK, 10),
		VAL(DIO_FT_SOCK, 12),
		VAL(DIO_FT_ANON, 15),
		VAL(DIO_SF_FILE, 0x01),
		VAL(DIO_SF_OFFSET, 0x02),
		VAL(DIO_SF_STR0_TRUNC, 0x04),
		VAL(DIO_SF_STR1_TRUNC, 0x08),
		VAL(DIO_SF_STR0_FAULT, 0x10),
		VAL(DIO_SF_STR1_FAULT, 0x20),
		VAL(DIO_SF_HASH, 0x40),
		VAL(DIO_PF_TRUNC, 0x01),
		VAL(DIO_PF_DELETED, 0x02),
		VAL(DIO_PF_RENAMED, 0x04),
		VAL(DIO_IF_FILE, 0x01),
		VAL(DIO_IF_FIXED, 0x02),
		VAL(DIO_IF_SQPOLL, 0x04),
		VAL(DIO_PROC_FORK, 1),
		VAL(DIO_PROC_EXEC, 2),
		VAL(DIO_PROC_EXIT, 3),
		VAL(DIO_PROC_RENAME, 4),
		VAL(DIO_PROCF_GROUP_DEAD, 0x01),
		VAL(DIO_PROCF_THREAD, 0x02),
		VAL(DIO_BF_KTHREAD, 0x01),
		VAL(DIO_BF_SYSCALL, 0x02),
		VAL(DIO_BF_QUEUED, 0x04),
		VAL(DIO_RF_PREEMPTED, 0x01),
		VAL(DIO_RF_SYSCALL, 0x02),
		VAL(DIO_OPT_BOOL, 1),
		VAL(DIO_OPT_INT, 2),
		VAL(DIO_OPT_STRING, 3),
		VAL(DIO_OPT_DOUBLE, 4),
		VAL(DIO_SEV_INFO, 0),
		VAL(DIO_SEV_WARNING, 1),
		VAL(DIO_SEV_ERROR, 2),
		VAL(DIO_BASELINE_NONE, 0),
		VAL(DIO_BASELINE_NEW, 1),
		VAL(DIO_BASELINE_UNCHANGED, 2),
		VAL(DIO_BASELINE_ABSENT, 3),
		VAL(DIO_WRITER_UNKNOWN, 0),
		VAL(DIO_WRITER_CPU, 1),
		VAL(DIO_WRITER_CPU_WAIT, 2),
		VAL(DIO_WRITER_DISK, 3),
		VAL(DIO_FMT_TID, 0x01),
		VAL(DIO_FMT_DURATION, 0x02),
		VAL(DIO_FMT_DETAILS, 0x04),
		VAL(DIO_FMT_TIME_T, 0x10),
		VAL(DIO_FMT_TIME_TT, 0x20),
		VAL(DIO_FMT_TIME_TTT, 0x40),
		VAL(DIO_SC_DATA, 0x01),
		VAL(DIO_SC_SYNC, 0x02),
		VAL(DIO_SC_META, 0x04),
		VAL(DIO_SC_DIR, 0x08),
		VAL(DIO_SC_XATTR, 0x10),
		VAL(DIO_SC_ASYNC, 0x20),
		VAL(DIO_NAME_ERRNO, 1),
		VAL(DIO_NAME_ERRNO_TEXT, 2),
		VAL(DIO_NAME_FTYPE, 3),
		VAL(DIO_NAME_URING_OP, 4),
	};

	CHECK(pins);
	assert_string_equal(DIO_ANALYZER_SYMBOL, "dio_analyzer");
	assert_string_equal(DIO_SINK_SYMBOL, "dio_sink");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(event_records_are_pinned),
		cmocka_unit_test(plugin_structs_are_pinned),
		cmocka_unit_test(module_descriptors_are_pinned),
		cmocka_unit_test(constants_are_pinned),
	};

#ifndef __x86_64__
	/* the numbers are x86_64's, and dio only builds there (configure.ac) */
	fprintf(stderr, "test_abi: layouts are pinned for x86_64 only; skipped\n");
	return 77;
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
