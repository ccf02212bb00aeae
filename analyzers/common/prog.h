/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Programs: what a user calls the thing that ran. Findings judge the run as
 * a whole: the hundred cc1 processes of a build, or the forty sqlite3
 * processes of a test suite, are one program, and a pattern they share is one
 * finding that says how many processes showed it.
 *
 * A process's program is its name: the comm of its main thread (tid == pid),
 * which exec sets to the executable's name, as the last DIO_PROC_EXEC record
 * or the first record of the main thread gave it (a main thread that renames
 * itself later stays the program it was); until one is seen (a process
 * traced with -p whose main thread made no call yet), its threads' names with
 * their trailing numbers dropped (dio_thread_group), so that a pool of
 * "worker-3" threads is still one program. A process that forks without exec
 * keeps its parent's name, as the kernel gives it. Header only: an analyzer
 * keeps a struct prog in its own per-process state.
 */
#ifndef DIO_ANALYZER_PROG_H
#define DIO_ANALYZER_PROG_H

#include <string.h>
#include <dio/plugin.h>

struct prog {
	char name[DIO_COMM_LEN];
	uint8_t from_leader;	/* name is the main thread's, not a guess from another thread */
};

/* Learn the program of the process of a record with this pid, tid and comm. */
static inline void prog_see(struct prog *p, uint32_t pid, uint32_t tid, const char *comm)
{
	if (tid == pid && !p->from_leader) {
		size_t n = strnlen(comm, DIO_COMM_LEN - 1);

		/* NUL to the end: the name is a key of fixed size */
		memcpy(p->name, comm, n);
		memset(p->name + n, 0, DIO_COMM_LEN - n);
		p->from_leader = 1;
	} else if (!p->from_leader && !p->name[0]) {
		dio_thread_group(comm, p->name);
	}
}

/* The same from any record that names a process: syscalls, io_uring requests, exec. */
static inline void prog_see_record(struct prog *p, const struct dio_ev_hdr *ev)
{
	if (ev->type == DIO_EV_SYSCALL) {
		const struct dio_ev_syscall *e = (const void *)ev;

		prog_see(p, e->pid, e->tid, e->comm);
	} else if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *e = (const void *)ev;

		/* exec names the new program; a thread's rename is not the program's */
		if (e->kind == DIO_PROC_EXEC) {
			p->from_leader = 0;
			prog_see(p, e->pid, e->pid, e->comm);
		}
	}
}

#endif
