/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio top's counters, shared between bpf/top.bpf.h and engine/top.c: in
 * count mode the exit of a call adds to them instead of sending a record.
 * Fixed-width fields only (STYLE.md).
 */
#ifndef DIO_BPF_TOPCOUNT_H
#define DIO_BPF_TOPCOUNT_H

#include <dio/event.h>

/* dio_sysmeta.io: which way a data call's return value moved bytes */
#define DIO_IO_NONE	0
#define DIO_IO_READ	1	/* read, pread64, readv, ..., and the input of sendfile, splice */
#define DIO_IO_WRITE	2

/* What a thread's or a file's storage calls add up to. */
struct dio_top_calls {
	__u64 calls;
	__u64 errors;		/* calls that returned -errno */
	__u64 rbytes;
	__u64 wbytes;
	__u64 ns;		/* time in the calls, entry to exit */
};

/* Storage calls of one thread: the thread alone writes it, so plain adds suffice. */
struct dio_top_thread {
	struct dio_top_calls c;
	__u32 pid;
	__u32 pad;
	char comm[DIO_COMM_LEN];	/* the thread's name at its latest call */
};
_Static_assert(sizeof(struct dio_top_thread) == 64, "dio_top_thread layout");

/* Storage calls on one file (by file tag), one copy per CPU: threads on many CPUs share a file. */
struct dio_top_file {
	struct dio_top_calls c;
	__u32 pid;		/* the process of the call that made the entry */
	__u8 ftype;		/* DIO_FT_* */
	__u8 pad[3];
};
_Static_assert(sizeof(struct dio_top_file) == 48, "dio_top_file layout");

/* Waits of one kind: how many, their sum and the longest, ns. */
struct dio_top_wait {
	__u64 n;
	__u64 ns;
	__u64 max;
};

/*
 * Block requests (issue to completion) and run-queue waits of one process,
 * one copy per CPU: its requests complete and its threads are scheduled on
 * any CPU. The maxima are each CPU's; the host takes the largest.
 */
struct dio_top_proc {
	struct dio_top_wait blk;
	struct dio_top_wait runq;
	__u64 blk_bytes;
	__u64 pad;
};
_Static_assert(sizeof(struct dio_top_proc) == 64, "dio_top_proc layout");

/* Default table sizes; a full table is counted (DIO_LOST_TOP), never evicted. */
#define DIO_TOP_THREADS	16384
#define DIO_TOP_FILES	65536
#define DIO_TOP_PROCS	16384

#endif
