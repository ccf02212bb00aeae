/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared between dio.bpf.c and the engine, never installed: per-syscall
 * metadata the host writes into the sysmeta map and the indices of the loss
 * counters. Fixed-width fields only (STYLE.md).
 */
#ifndef DIO_BPF_SHARED_H
#define DIO_BPF_SHARED_H

#include <dio/event.h>

/* sysmeta.fd_how: where the call's file comes from */
#define DIO_FD_NONE	0
#define DIO_FD_ARG	1	/* args[fd_arg] at exit */
#define DIO_FD_ARG_ENTRY 2	/* args[fd_arg] at entry (close: the fd is gone at exit) */
#define DIO_FD_RET	3	/* the return value (open, creat, dup, fcntl F_DUPFD) */
#define DIO_FD_EMPTY_PATH 4	/* args[fd_arg] when the path argument is "" (fstat via newfstatat) */

/* sysmeta.off_how: what offset the call worked at */
#define DIO_OFF_NONE	0
#define DIO_OFF_POS	1	/* f_pos after the call minus the bytes moved (O_APPEND-safe) */
#define DIO_OFF_ARG	2	/* args[off_arg] (pread64, pwrite64, preadv, fallocate, ...) */
#define DIO_OFF_RET	3	/* the return value (lseek) */
#define DIO_OFF_PTR	4	/* *(loff_t *)args[off_arg] at entry, or f_pos if NULL (copy_file_range, sendfile, splice) */

struct dio_sysmeta {
	__u8 enabled;
	__u8 fd_how;	/* DIO_FD_* */
	__u8 fd_arg;	/* argument index */
	__u8 off_how;	/* DIO_OFF_* */
	__u8 off_arg;
	__u8 str0;	/* 1 + index of the first string argument, 0: none */
	__u8 str1;	/* 1 + index of the second string argument */
	__u8 data;	/* 1: read-like, 2: write-like buffer in args[1] (for --hash) */
	__u8 dirfd0;	/* 1 + index of the dirfd belonging to str0, 0: AT_FDCWD */
	__u8 dirfd1;
	__u8 flags;	/* DIO_MF_* */
	__u8 io;	/* DIO_IO_* (top.h): dio top counts the bytes of data calls */
	__u8 pad[4];
};

/* sysmeta.flags */
#define DIO_MF_NEED_FILE 0x01	/* drop the call when it has no file (mmap of anonymous memory) */
#define DIO_MF_MMAP	0x02	/* remember file mappings so that munmap of them can be traced */
#define DIO_MF_MUNMAP	0x04	/* trace only munmap of a remembered file mapping */
_Static_assert(sizeof(struct dio_sysmeta) == 16, "dio_sysmeta layout");

/*
 * Loss counters: per-CPU array indices. Each names one reason a record was
 * not sent; the host names and explains each (engine/loss.c).
 */
#define DIO_LOST_RINGBUF	0	/* ring buffer full */
#define DIO_LOST_INFLIGHT	1	/* no task storage for a call in flight */
#define DIO_LOST_PATHTAB	2	/* a path record lost after its tag was noted as sent */
#define DIO_LOST_IOURING	3	/* io_uring request table full */
#define DIO_LOST_OTHER		4
#define DIO_CNT_PATH_TRUNC	5
#define DIO_LOST_BLOCK		6	/* block request table full */
#define DIO_LOST_BLOCK_UNSEEN	7	/* a block request's completion never reached dio */
#define DIO_LOST_MAPPINGS	8	/* file-mapping table full: its munmap is not traced */
#define DIO_LOST_IOURING_UNSEEN	9	/* an io_uring request's completion never reached dio */
#define DIO_LOST_PROCS		10	/* traced-process table full: a child is not traced */
#define DIO_LOST_TOP		11	/* dio top: a thread, file or process table full */
/*
 * Tags the tag table (tagseen, an LRU of --tag-table entries) took in: not a
 * loss. The LRU never refuses one, it forgets the least recently used; the
 * host tells how many it forgot from this and its size (engine/loss.h).
 */
#define DIO_CNT_TAG_NEW		12
/* device table full: kernel threads' block requests to a device are not recorded */
#define DIO_LOST_BLKDEVS	13
#define DIO_CNT_MAX		16

/*
 * The in-flight tables' entries, which the host sweeps (engine/probe.c):
 * plain hashes, so that a full one fails an insert (counted) where an LRU
 * would have silently evicted a live entry.
 */

/* File mappings, so that munmap of a file (and not of malloc's memory) is traced. */
struct dio_mapkey {
	__u64 addr;
	__u32 tgid;
	__u32 pad;
};
_Static_assert(sizeof(struct dio_mapkey) == 16, "dio_mapkey layout");

/* io_uring requests between submission and completion, by request address. */
struct dio_uring_pending {
	__u64 ts;
	__u64 offset;
	__u64 user_data;
	__u32 pid;
	__u32 tid;
	__u32 len;
	__s32 fd;
	__u8 opcode;
	__u8 flags;
	__u8 pad[6];
	char comm[DIO_COMM_LEN];
};
_Static_assert(sizeof(struct dio_uring_pending) == 64, "dio_uring_pending layout");

/*
 * A block request between its insert (or issue) and its completion, by the
 * address of its struct request: the request itself joins the two ends.
 */
struct dio_blk_pending {
	__u64 insert_ts;	/* 0: not seen at insert */
	__u64 issue_ts;		/* 0: not issued yet */
	__u64 sys_ts;
	__u32 pid;
	__u32 tid;
	__u32 bytes;
	__u16 nr;
	__u8 flags;		/* DIO_BF_* */
	__u8 wanted;		/* submitter traced, or a kernel thread */
	__u8 requeued;		/* back from the driver: its next insert keeps the submitter */
	__u8 pad[7];
	char comm[DIO_COMM_LEN];
};
_Static_assert(sizeof(struct dio_blk_pending) == 64, "dio_blk_pending layout");

#define DIO_MAX_PREFIX		8	/* --path / --exclude-path prefixes */
#define DIO_PREFIX_LEN		256

#endif
