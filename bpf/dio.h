/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared between dio.bpf.c and the engine, never installed: per-syscall
 * metadata the host writes into the sysmeta map and the indices of the loss
 * counters. Fixed-width fields only (STYLE.md).
 */
#ifndef DIO_BPF_SHARED_H
#define DIO_BPF_SHARED_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define DIO_NR_MAX	512	/* x86_64 syscall numbers handled (sysmeta entries) */

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
	__u8 pad[5];
};

/* sysmeta.flags */
#define DIO_MF_NEED_FILE 0x01	/* drop the call when it has no file (mmap of anonymous memory) */
#define DIO_MF_MMAP	0x02	/* remember file mappings so that munmap of them can be traced */
#define DIO_MF_MUNMAP	0x04	/* trace only munmap of a remembered file mapping */
_Static_assert(sizeof(struct dio_sysmeta) == 16, "dio_sysmeta layout");

/* Loss counters: per-CPU array indices */
#define DIO_LOST_RINGBUF	0
#define DIO_LOST_INFLIGHT	1
#define DIO_LOST_PATHTAB	2
#define DIO_LOST_IOURING	3
#define DIO_LOST_OTHER		4
#define DIO_CNT_PATH_TRUNC	5
#define DIO_CNT_MAX		8

#define DIO_MAX_PREFIX		8	/* --path / --exclude-path prefixes */
#define DIO_PREFIX_LEN		256

#endif
