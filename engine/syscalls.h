/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The storage system calls dio knows: names, x86_64 numbers, classes, argument kinds. */
#ifndef DIO_ENGINE_SYSCALLS_H
#define DIO_ENGINE_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

/* Classes, as strace's -e trace=%name */
#define SC_DATA		0x01	/* %data */
#define SC_SYNC		0x02	/* %sync */
#define SC_META		0x04	/* %meta */
#define SC_DIR		0x08	/* %dir */
#define SC_XATTR	0x10	/* %xattr */
#define SC_ASYNC	0x20	/* %async: libaio, io_uring, mmap/msync/munmap */

/* How an argument is printed. */
enum sc_arg {
	A_NONE = 0,
	A_INT,		/* signed decimal */
	A_UINT,		/* unsigned decimal */
	A_HEX,		/* 0x... */
	A_PTR,		/* user pointer: 0x..., NULL */
	A_FD,		/* fd; annotated <path> when it is the call's file */
	A_DIRFD,	/* AT_FDCWD or fd */
	A_STR,		/* string argument captured at exit (path, xattr name, symlink target) */
	A_OPEN_FLAGS,	/* O_* with access mode decoded as a value */
	A_MODE,		/* octal 0644 */
	A_WHENCE,	/* SEEK_* */
	A_FCNTL_CMD,	/* F_* */
	A_AT_FLAGS,	/* AT_* */
	A_RENAME_FLAGS,	/* RENAME_* */
	A_ACCESS_MODE,	/* F_OK or R_OK|W_OK|X_OK */
	A_FALLOC_MODE,	/* FALLOC_FL_* */
	A_FADVICE,	/* POSIX_FADV_* */
	A_FLOCK_OP,	/* LOCK_* */
	A_MMAP_PROT,	/* PROT_* */
	A_MMAP_FLAGS,	/* MAP_* */
	A_MSYNC_FLAGS,	/* MS_* */
	A_SFR_FLAGS,	/* SYNC_FILE_RANGE_* */
	A_RWF_FLAGS,	/* RWF_* */
	A_XATTR_FLAGS,	/* XATTR_CREATE|XATTR_REPLACE */
	A_STATX_MASK,	/* STATX_* */
	A_UNLINK_FLAGS,	/* AT_REMOVEDIR */
	A_CLOSE_RANGE_FLAGS, /* CLOSE_RANGE_* */
	A_SPLICE_FLAGS,	/* SPLICE_F_* */
	A_URING_ENTER_FLAGS, /* IORING_ENTER_* */
	A_DEV,		/* makedev(major, minor) */
	A_OPENHOW,	/* struct open_how * (openat2) */
	A_OFFPTR,	/* loff_t *: pointer */
	A_DUP3_FLAGS,	/* O_CLOEXEC */
	A_SKIP,		/* not printed (preadv2's high offset word) */
	A_ID,		/* uid_t/gid_t: -1 (leave unchanged) or unsigned decimal */
};

/* Return value kinds. */
enum sc_ret {
	R_INT = 0,	/* int, -errno decoded */
	R_FD,		/* new fd; annotated <path> */
	R_SIZE,		/* bytes */
	R_OFF,		/* file offset */
	R_ADDR,		/* address (mmap) */
};

struct dio_syscall {
	const char *name;	/* name users type: "stat", "sendfile" */
	const char *tp;		/* tracepoint suffix when it differs ("newstat", "sendfile64"), else NULL */
	uint16_t nr;		/* x86_64 number */
	uint16_t cls;		/* SC_* */
	uint8_t nargs;
	uint8_t args[6];	/* enum sc_arg */
	uint8_t ret;		/* enum sc_ret */
	/* metadata for the BPF side (bpf/dio.h struct dio_sysmeta) */
	uint8_t fd_how;
	uint8_t fd_arg;
	uint8_t off_how;
	uint8_t off_arg;
	uint8_t data;		/* 1 read-like, 2 write-like (args[1] is the buffer, ret the bytes) */
};

/* DIO_IO_*: which way a positive result of sc moved bytes (dio_syscall_info.io) */
unsigned int syscall_io(const struct dio_syscall *sc);

/* Table access. Pointers are to static data. */
const struct dio_syscall *syscall_by_nr(unsigned int nr);
const struct dio_syscall *syscall_by_name(const char *name);
const struct dio_syscall *syscall_table(size_t *n);
/* tracepoint suffix: tp if set, else name */
const char *syscall_tp(const struct dio_syscall *sc);

/*
 * Parse a selection as strace's -e trace=: comma-separated syscall names and
 * classes (%data %sync %meta %dir %xattr %async, and %file (takes a path),
 * %desc (takes an fd), %all), each optionally prefixed with '!' to remove it.
 * A list that starts with a removal starts from everything. sel[nr] is set to
 * 1 for every selected number (sel has DIO_NR_MAX entries); it is cleared first.
 * 0, or -EINVAL with a one-line message in err naming the bad word, e.g.
 * "--syscalls: unknown system call 'foo'; see 'dio list syscalls'". An empty
 * spec and an empty name ("read,", "read,,write", "!") are errors too.
 */
int syscalls_select(const char *spec, uint8_t *sel, char *err, size_t errlen);

#endif
