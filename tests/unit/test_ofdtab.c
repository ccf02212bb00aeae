// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Open file descriptions followed through the fd table: dup2 over the last
 * fd, fork, exec with close-on-exec, close_range, exit, ids the kernel hands
 * out again, and recordings without ids; the bound on processes, and the
 * sweep of processes whose exit never came.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "engine/ofdtab.h"

#define P 100
#define C 101

static uint64_t now = 1000;

/* A syscall record on fd with description ofd (0: none known); nr returned ret. */
static struct dio_ev_syscall call(uint32_t pid, uint16_t nr, int32_t fd, uint32_t ofd, int64_t ret)
{
	struct dio_ev_syscall e = {
		.hdr = { .type = DIO_EV_SYSCALL, .size = sizeof(e), .ts = now++ },
		.pid = pid, .tid = pid, .nr = nr, .fd = fd, .ofd = ofd, .ret = ret,
		.flags = DIO_SF_FILE, .ftype = DIO_FT_REG,
		.tag = { .ino = 7, .dev = 1, .gen = 1 },
	};

	e.args[0] = (uint64_t)(int64_t)fd;
	return e;
}

static int64_t run(struct ofdtab *t, struct dio_ev_syscall e)
{
	return ofdtab__syscall(t, &e);
}

static int64_t run_args(struct ofdtab *t, struct dio_ev_syscall e, uint64_t a1, uint64_t a2)
{
	e.args[1] = a1;
	e.args[2] = a2;
	return ofdtab__syscall(t, &e);
}

static void proc(struct ofdtab *t, uint32_t pid, uint16_t kind, uint16_t flags, uint32_t other)
{
	struct dio_ev_proc e = {
		.hdr = { .type = DIO_EV_PROC, .size = sizeof(e), .ts = now++ },
		.pid = pid, .tid = pid, .kind = kind, .flags = flags, .other_pid = other,
	};

	assert_int_equal(ofdtab__proc(t, &e), 0);
}

static size_t ended(struct ofdtab *t, const struct dio_ev_ofd **r)
{
	return ofdtab__ended(t, r);
}

/* bash: cmd >> f opens f on 3, dup2s it onto 1, closes 3, writes, and restores 1 from 10. */
static void shell_append_ends_at_the_restoring_dup2(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	assert_int_equal(run(t, call(P, SYS_dup2, 1, 0xbb, 10)), 0xbb);	/* save stdout */
	assert_int_equal(run(t, call(P, SYS_openat, 3, 0xaa, 3)), 0xaa);
	assert_int_equal(run(t, call(P, SYS_dup2, 3, 0xaa, 1)), 0xaa);
	assert_int_equal(ended(t, &r), 0);	/* what 1 held lives on in 10 */
	assert_int_equal(run(t, call(P, SYS_close, 3, 0xaa, 0)), 0xaa);
	assert_int_equal(ended(t, &r), 0);	/* fd 1 still holds it */
	assert_int_equal(run(t, call(P, SYS_write, 1, 0xaa, 2)), 0xaa);
	assert_int_equal(run(t, call(P, SYS_dup2, 10, 0xbb, 1)), 0xbb);
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].hdr.type, DIO_EV_OFD);
	assert_int_equal(r[0].hdr.size, sizeof(struct dio_ev_ofd));
	assert_int_equal(r[0].ofd, 0xaa);
	assert_int_equal(r[0].how, DIO_OFD_REPLACED);
	assert_int_equal(r[0].nr, SYS_dup2);
	assert_int_equal(r[0].fd, 1);
	assert_int_equal(r[0].pid, P);
	assert_int_equal(r[0].flags, DIO_OFDF_OPENED | DIO_OFDF_FILE);
	assert_int_equal(r[0].open_ts, 1001);
	assert_int_equal(r[0].tag.ino, 7);
	ofdtab__free(t);
}

static void fork_shares_until_the_last_holder_goes(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run(t, call(P, SYS_openat, 3, 0xaa, 3));
	proc(t, P, DIO_PROC_FORK, 0, C);
	run(t, call(P, SYS_close, 3, 0xaa, 0));
	assert_int_equal(ended(t, &r), 0);
	assert_int_equal(run(t, call(C, SYS_write, 3, 0xaa, 5)), 0xaa);
	proc(t, C, DIO_PROC_EXIT, 0, 0);	/* a thread, not the process */
	assert_int_equal(ended(t, &r), 0);
	proc(t, C, DIO_PROC_EXIT, DIO_PROCF_GROUP_DEAD, 0);
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].how, DIO_OFD_EXIT);
	assert_int_equal(r[0].pid, C);
	assert_int_equal(r[0].fd, 3);
	ofdtab__free(t);
}

static void threads_share_the_table(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run(t, call(P, SYS_openat, 3, 0xaa, 3));
	proc(t, P, DIO_PROC_FORK, DIO_PROCF_THREAD, P);
	run(t, call(P, SYS_close, 3, 0xaa, 0));
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].how, DIO_OFD_CLOSE);
	assert_int_equal(r[0].nr, SYS_close);
	ofdtab__free(t);
}

static void exec_closes_close_on_exec_fds_only(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run_args(t, call(P, SYS_openat, 3, 0xa1, 3), 0, 02000000);	/* O_CLOEXEC */
	run_args(t, call(P, SYS_openat, 4, 0xa2, 4), 0, 0);
	run_args(t, call(P, SYS_openat, 5, 0xa3, 5), 0, 0);
	run_args(t, call(P, SYS_fcntl, 5, 0xa3, 0), 2, 1);		/* F_SETFD FD_CLOEXEC */
	run_args(t, call(P, SYS_dup3, 4, 0xa2, 6), 6, 02000000);
	run_args(t, call(P, SYS_fcntl, 4, 0xa2, 7), 1030, 0);		/* F_DUPFD_CLOEXEC */
	proc(t, P, DIO_PROC_EXEC, 0, 0);
	assert_int_equal(ended(t, &r), 2);
	assert_int_equal(r[0].ofd, 0xa1);
	assert_int_equal(r[0].how, DIO_OFD_EXEC);
	assert_int_equal(r[1].ofd, 0xa3);
	run(t, call(P, SYS_close, 4, 0xa2, 0));
	assert_int_equal(ended(t, &r), 1);	/* 6 and 7 went with the exec */
	assert_int_equal(r[0].ofd, 0xa2);
	ofdtab__free(t);
}

static void close_range_closes_or_marks(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;
	struct dio_ev_syscall cr = call(P, SYS_close_range, -1, 0, 0);

	cr.flags = 0;
	run(t, call(P, SYS_openat, 3, 0xa1, 3));
	run(t, call(P, SYS_openat, 4, 0xa2, 4));
	run(t, call(P, SYS_openat, 9, 0xa3, 9));
	cr.args[0] = 4;
	cr.args[1] = ~0u;
	cr.args[2] = 4;		/* CLOSE_RANGE_CLOEXEC */
	assert_int_equal(ofdtab__syscall(t, &cr), 0);
	assert_int_equal(ended(t, &r), 0);
	cr.args[0] = 0;
	cr.args[1] = 3;
	cr.args[2] = 0;
	ofdtab__syscall(t, &cr);
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].ofd, 0xa1);
	assert_int_equal(r[0].nr, SYS_close_range);
	proc(t, P, DIO_PROC_EXEC, 0, 0);
	assert_int_equal(ended(t, &r), 2);
	ofdtab__free(t);
}

/* The kernel reuses a freed struct file: the same id is a new description after an end. */
static void an_id_that_comes_back_is_a_new_description(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run(t, call(P, SYS_openat, 3, 0xaa, 3));
	run(t, call(P, SYS_close, 3, 0xaa, 0));
	run(t, call(P, SYS_openat, 3, 0xaa, 3));
	assert_int_equal(ended(t, &r), 0);
	run(t, call(P, SYS_close, 3, 0xaa, 0));
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].open_ts, now - 2);
	/* an end dio missed: the open of the same id ends the old one first */
	run(t, call(P, SYS_openat, 3, 0xaa, 3));
	run(t, call(P, SYS_openat, 4, 0xaa, 4));
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].fd, -1);
	run(t, call(P, SYS_close, 3, 0xaa, 0));	/* its slot went stale: nothing ends */
	assert_int_equal(ended(t, &r), 0);
	run(t, call(P, SYS_close, 4, 0xaa, 0));
	assert_int_equal(ended(t, &r), 1);
	ofdtab__free(t);
}

/* An fd received over a socket or inherited: learnt from its use, shared by id. */
static void descriptions_learnt_from_use(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run(t, call(P, SYS_read, 4, 0xcc, 10));
	run(t, call(C, SYS_read, 7, 0xcc, 10));
	proc(t, P, DIO_PROC_EXIT, DIO_PROCF_GROUP_DEAD, 0);
	assert_int_equal(ended(t, &r), 0);
	run(t, call(C, SYS_close, 7, 0xcc, 0));
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].flags, DIO_OFDF_FILE);	/* its open was not seen */
	assert_int_equal(r[0].pid, C);
	ofdtab__free(t);
}

/* Recordings made before records had ids: the table numbers descriptions itself. */
static void records_without_ids_get_host_ids(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;
	int64_t a, b;

	a = run(t, call(P, SYS_openat, 3, 0, 3));
	assert_true(a >= DIO_OFD_HOST);
	assert_int_equal(run(t, call(P, SYS_dup2, 3, 0, 1)), a);
	run(t, call(P, SYS_close, 3, 0, 0));
	assert_int_equal(run(t, call(P, SYS_write, 1, 0, 2)), a);
	b = run(t, call(P, SYS_openat, 3, 0, 3));
	assert_true(b >= DIO_OFD_HOST && b != a);
	assert_int_equal(run(t, call(P, SYS_dup2, 3, 0, 1)), b);
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].ofd, a);
	ofdtab__free(t);
}

static void close_with_ebadf_keeps_the_fd(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run(t, call(P, SYS_openat, 3, 0xaa, 3));
	run(t, call(P, SYS_close, 3, 0xaa, -EBADF));
	assert_int_equal(ended(t, &r), 0);
	run(t, call(P, SYS_close, 3, 0xaa, -EINTR));	/* the fd is gone all the same */
	assert_int_equal(ended(t, &r), 1);
	ofdtab__free(t);
}

static void records_without_files_change_nothing(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	struct dio_ev_syscall e = call(P, SYS_unlink, -1, 0, 0);
	const struct dio_ev_ofd *r;

	e.flags = 0;
	assert_int_equal(ofdtab__syscall(t, &e), 0);
	assert_int_equal(ended(t, &r), 0);
	proc(t, 555, DIO_PROC_EXIT, DIO_PROCF_GROUP_DEAD, 0);	/* never seen: nothing */
	ofdtab__free(t);
}

static void end_of_trace_ends_what_is_open(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;

	run(t, call(P, SYS_openat, 3, 0xa1, 3));
	run(t, call(P, SYS_dup, 3, 0xa1, 4));
	run(t, call(P, SYS_openat, 5, 0xa2, 5));
	ofdtab__end(t, 5000);
	assert_int_equal(ended(t, &r), 2);
	assert_int_equal(r[0].ofd, 0xa1);
	assert_int_equal(r[0].fd, 4);	/* the last fd that held it */
	assert_int_equal(r[0].how, DIO_OFD_END);
	assert_int_equal(r[0].hdr.ts, 5000);
	assert_int_equal(r[1].ofd, 0xa2);
	ofdtab__free(t);
}

/* Many processes and fds: the tables grow, and every description ends once. */
static void many_processes_and_fds(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;
	size_t ends = 0;

	for (uint32_t pid = 1; pid <= 600; pid++)
		for (int fd = 3; fd < 40; fd++)
			assert_int_equal(run(t, call(pid, SYS_openat, fd, pid * 64 + fd, fd)),
					 pid * 64 + fd);
	for (uint32_t pid = 1; pid <= 600; pid += 2) {
		proc(t, pid, DIO_PROC_EXIT, DIO_PROCF_GROUP_DEAD, 0);
		ends += ended(t, &r);
	}
	ofdtab__end(t, now);
	ends += ended(t, &r);
	assert_int_equal(ends, 600 * 37);
	ofdtab__free(t);
}

/*
 * At most max_procs processes: each new one past it drops the process no
 * record named for longest, whose descriptions end (DIO_OFD_END, fd and pid
 * kept), and is counted. A process busy all along keeps its descriptions.
 */
static void bounded_drops_the_process_named_least_recently(void **unused)
{
	struct ofdtab *t = ofdtab__new(100);
	const struct dio_ev_ofd *r;
	uint64_t ends = 0;

	assert_int_equal(run(t, call(P, SYS_openat, 3, 0xaa, 3)), 0xaa);
	for (uint32_t i = 0; i < 10000; i++) {
		uint32_t pid = 1000 + i;

		assert_int_equal(run(t, call(pid, SYS_openat, 5, 0x100000 + i, 5)), 0x100000 + i);
		for (size_t k = ended(t, &r); k; k--, r++) {
			assert_int_equal(r->how, DIO_OFD_END);
			assert_int_equal(r->fd, 5);
			assert_int_equal(r->tid, 0);
			assert_int_equal(r->ofd, 0x100000 + (r->pid - 1000));
			assert_true(r->pid >= 1000 && r->pid < pid);
			ends++;
		}
		assert_int_equal(run(t, call(P, SYS_write, 3, 0xaa, 1)), 0xaa);
		assert_int_equal(ended(t, &r), 0);
		assert_true(ofdtab__procs(t) <= 100);
	}
	assert_int_equal(ofdtab__procs(t), 100);
	assert_int_equal(ofdtab__evicted(t), 10001 - 100);
	assert_int_equal(ends, 10001 - 100);
	assert_int_equal(ofdtab__swept(t), 0);
	run(t, call(P, SYS_close, 3, 0xaa, 0));
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].how, DIO_OFD_CLOSE);
	ofdtab__free(t);
}

/* A fork into a full table drops another process, never the parent it copies from. */
static void fork_into_a_full_table_keeps_the_parent(void **unused)
{
	/* both orders of the two processes in the table's buckets */
	static const uint32_t others[] = { 7, 9, 11, 200, 3000, 40000 };

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		struct ofdtab *t = ofdtab__new(2);
		const struct dio_ev_ofd *r;

		run(t, call(P, SYS_openat, 3, 0xaa, 3));
		run(t, call(others[i], SYS_openat, 3, 0xbb, 3));
		/* both named since they came: the clock's first pass spares neither */
		run(t, call(others[i], SYS_write, 3, 0xbb, 1));
		run(t, call(P, SYS_write, 3, 0xaa, 1));
		proc(t, P, DIO_PROC_FORK, 0, C);
		assert_int_equal(ended(t, &r), 1);
		assert_int_equal(r[0].ofd, 0xbb);
		assert_int_equal(r[0].how, DIO_OFD_END);
		assert_int_equal(ofdtab__procs(t), 2);
		run(t, call(P, SYS_close, 3, 0xaa, 0));
		assert_int_equal(ended(t, &r), 0);	/* the child holds it */
		proc(t, C, DIO_PROC_EXIT, DIO_PROCF_GROUP_DEAD, 0);
		assert_int_equal(ended(t, &r), 1);
		assert_int_equal(r[0].ofd, 0xaa);
		assert_int_equal(ofdtab__evicted(t), 1);
		ofdtab__free(t);
	}
}

static int even_pids_gone(void *ud, uint32_t pid)
{
	(*(int *)ud)++;
	return pid % 2 == 0;
}

/* Processes whose exit dio never got: a sweep ends what they held, as their exit would. */
static void sweep_drops_the_processes_gone(void **unused)
{
	struct ofdtab *t = ofdtab__new(0);
	const struct dio_ev_ofd *r;
	int asked = 0;

	for (uint32_t pid = 1; pid <= 10; pid++) {
		run(t, call(pid, SYS_openat, 3, pid, 3));
		run(t, call(pid, SYS_dup, 3, pid, 4));
	}
	assert_int_equal(ofdtab__mark_gone(t, even_pids_gone, &asked), 5);
	assert_int_equal(asked, 10);
	/* in between, the last records of the marked: pid 2's exit, and pid 4 used again */
	run(t, call(6, SYS_write, 3, 6, 1));
	proc(t, 2, DIO_PROC_EXIT, DIO_PROCF_GROUP_DEAD, 0);
	assert_int_equal(ended(t, &r), 1);
	proc(t, 1, DIO_PROC_FORK, 0, 4);
	assert_int_equal(ended(t, &r), 1);
	assert_int_equal(r[0].pid, 4);
	assert_int_equal(r[0].how, DIO_OFD_EXIT);
	assert_int_equal(ofdtab__sweep(t, 5000), 0);
	assert_int_equal(ended(t, &r), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(r[i].pid % 2, 0);
		assert_true(r[i].pid >= 6);
		assert_int_equal(r[i].ofd, r[i].pid);
		assert_int_equal(r[i].how, DIO_OFD_EXIT);
		assert_int_equal(r[i].tid, 0);
		assert_int_equal(r[i].hdr.ts, 5000);
	}
	assert_int_equal(ofdtab__swept(t), 3);
	/* the odd ones, and pid 4's new process, which holds pid 1's fds */
	assert_int_equal(ofdtab__procs(t), 6);
	assert_int_equal(ofdtab__evicted(t), 0);
	asked = 0;
	assert_int_equal(ofdtab__sweep(t, 6000), 0);
	assert_int_equal(ended(t, &r), 0);
	assert_int_equal(ofdtab__mark_gone(t, even_pids_gone, &asked), 1);
	assert_int_equal(asked, 6);
	assert_int_equal(ofdtab__sweep(t, 7000), 0);
	assert_int_equal(ended(t, &r), 0);	/* pid 1 holds what pid 4 had */
	assert_int_equal(ofdtab__swept(t), 4);
	assert_int_equal(ofdtab__procs(t), 5);
	ofdtab__free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shell_append_ends_at_the_restoring_dup2),
		cmocka_unit_test(fork_shares_until_the_last_holder_goes),
		cmocka_unit_test(threads_share_the_table),
		cmocka_unit_test(exec_closes_close_on_exec_fds_only),
		cmocka_unit_test(close_range_closes_or_marks),
		cmocka_unit_test(an_id_that_comes_back_is_a_new_description),
		cmocka_unit_test(descriptions_learnt_from_use),
		cmocka_unit_test(records_without_ids_get_host_ids),
		cmocka_unit_test(close_with_ebadf_keeps_the_fd),
		cmocka_unit_test(records_without_files_change_nothing),
		cmocka_unit_test(end_of_trace_ends_what_is_open),
		cmocka_unit_test(many_processes_and_fds),
		cmocka_unit_test(bounded_drops_the_process_named_least_recently),
		cmocka_unit_test(fork_into_a_full_table_keeps_the_parent),
		cmocka_unit_test(sweep_drops_the_processes_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
