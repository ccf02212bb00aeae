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

/*
 * The time a process spent in calls on storage, what the cost of a pattern
 * it shows is a share of: calls on regular files, directories and block
 * devices, and calls on paths (a string argument, no fd). Syncs aside: a sync
 * waits for the device to make data durable, its length tells how busy the
 * disk is rather than how much the program did, and with it every other
 * saving would drown. Not all its calls: a program that waits in its calls
 * (epoll_wait, a read of a socket) would make any waste look small.
 */
struct prog_time {
	uint64_t storage_ns;	/* its calls on storage, syncs aside */
	uint64_t sync_ns;	/* its syncs (fsync, fdatasync, sync_file_range) */
	uint64_t first_ts, last_ts;	/* its first record's start, its last's end */
	uint64_t calls;		/* its system call records */
};

/* A system call record of the process; is_sync: the call is a sync. */
static inline void prog_time_add(struct prog_time *t, const struct dio_ev_syscall *e, int is_sync)
{
	if (!t->calls || e->hdr.ts < t->first_ts)
		t->first_ts = e->hdr.ts;
	if (e->hdr.ts + e->duration > t->last_ts)
		t->last_ts = e->hdr.ts + e->duration;
	t->calls++;
	if (is_sync)
		t->sync_ns += e->duration;
	else if (((e->flags & DIO_SF_FILE) && (e->ftype == DIO_FT_REG || e->ftype == DIO_FT_DIR ||
					       e->ftype == DIO_FT_BLK)) ||
		 (!(e->flags & DIO_SF_FILE) && dio_ev_syscall_str(e, 0)))
		t->storage_ns += e->duration;
}

/*
 * Its run, from its first record to the end of its last, its syncs' time
 * aside: a program that fsyncs each line runs long because it waits for the
 * disk, not because it works.
 */
static inline uint64_t prog_time_run(const struct prog_time *t)
{
	uint64_t span = t->last_ts - t->first_ts;

	return span > t->sync_ns ? span - t->sync_ns : 0;
}

#endif
