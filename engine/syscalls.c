// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The storage system calls dio traces on x86_64. Each entry says how to print
 * the call and, for the BPF side, where its file, offset and strings are.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "bpf/dio.h"
#include "syscalls.h"

#define F(i)	.fd_how = DIO_FD_ARG, .fd_arg = (i)
#define FENTRY	.fd_how = DIO_FD_ARG_ENTRY, .fd_arg = 0
#define FRET	.fd_how = DIO_FD_RET
#define FEMPTY	.fd_how = DIO_FD_EMPTY_PATH, .fd_arg = 0
#define OPOS	.off_how = DIO_OFF_POS
#define OARG(i)	.off_how = DIO_OFF_ARG, .off_arg = (i)
#define ORET	.off_how = DIO_OFF_RET
#define OPTR(i)	.off_how = DIO_OFF_PTR, .off_arg = (i)
#define ARGS(...) .nargs = sizeof((uint8_t[]){ __VA_ARGS__ }), .args = { __VA_ARGS__ }

static const struct dio_syscall table[] = {
	/* data */
	{ "read", NULL, __NR_read, SC_DATA, ARGS(A_FD, A_PTR, A_UINT), R_SIZE, F(0), OPOS, .data = 1 },
	{ "pread64", NULL, __NR_pread64, SC_DATA, ARGS(A_FD, A_PTR, A_UINT, A_INT), R_SIZE, F(0),
	  OARG(3), .data = 1 },
	{ "readv", NULL, __NR_readv, SC_DATA, ARGS(A_FD, A_PTR, A_INT), R_SIZE, F(0), OPOS },
	{ "preadv", NULL, __NR_preadv, SC_DATA, ARGS(A_FD, A_PTR, A_INT, A_INT), R_SIZE, F(0),
	  OARG(3) },
	{ "preadv2", NULL, __NR_preadv2, SC_DATA,
	  ARGS(A_FD, A_PTR, A_INT, A_INT, A_SKIP, A_RWF_FLAGS), R_SIZE, F(0), OARG(3) },
	{ "write", NULL, __NR_write, SC_DATA, ARGS(A_FD, A_PTR, A_UINT), R_SIZE, F(0), OPOS,
	  .data = 2 },
	{ "pwrite64", NULL, __NR_pwrite64, SC_DATA, ARGS(A_FD, A_PTR, A_UINT, A_INT), R_SIZE, F(0),
	  OARG(3), .data = 2 },
	{ "writev", NULL, __NR_writev, SC_DATA, ARGS(A_FD, A_PTR, A_INT), R_SIZE, F(0), OPOS },
	{ "pwritev", NULL, __NR_pwritev, SC_DATA, ARGS(A_FD, A_PTR, A_INT, A_INT), R_SIZE, F(0),
	  OARG(3) },
	{ "pwritev2", NULL, __NR_pwritev2, SC_DATA,
	  ARGS(A_FD, A_PTR, A_INT, A_INT, A_SKIP, A_RWF_FLAGS), R_SIZE, F(0), OARG(3) },
	{ "readahead", NULL, __NR_readahead, SC_DATA, ARGS(A_FD, A_INT, A_UINT), R_INT, F(0),
	  OARG(1) },
	{ "fallocate", NULL, __NR_fallocate, SC_DATA, ARGS(A_FD, A_FALLOC_MODE, A_INT, A_INT), R_INT,
	  F(0), OARG(2) },
	{ "copy_file_range", NULL, __NR_copy_file_range, SC_DATA,
	  ARGS(A_FD, A_OFFPTR, A_FD, A_OFFPTR, A_UINT, A_UINT), R_SIZE, F(0), OPTR(1) },
	{ "sendfile", "sendfile64", __NR_sendfile, SC_DATA, ARGS(A_FD, A_FD, A_OFFPTR, A_UINT),
	  R_SIZE, F(1), OPTR(2) },
	{ "splice", NULL, __NR_splice, SC_DATA,
	  ARGS(A_FD, A_OFFPTR, A_FD, A_OFFPTR, A_UINT, A_SPLICE_FLAGS), R_SIZE, F(0), OPTR(1) },
	/* sync */
	{ "fsync", NULL, __NR_fsync, SC_SYNC, ARGS(A_FD), R_INT, F(0) },
	{ "fdatasync", NULL, __NR_fdatasync, SC_SYNC, ARGS(A_FD), R_INT, F(0) },
	{ "sync_file_range", NULL, __NR_sync_file_range, SC_SYNC,
	  ARGS(A_FD, A_INT, A_INT, A_SFR_FLAGS), R_INT, F(0), OARG(1) },
	{ "syncfs", NULL, __NR_syncfs, SC_SYNC, ARGS(A_FD), R_INT, F(0) },
	{ "sync", NULL, __NR_sync, SC_SYNC, .nargs = 0, .ret = R_INT },
	/* metadata */
	{ "creat", NULL, __NR_creat, SC_META, ARGS(A_STR, A_MODE), R_FD, FRET },
	{ "open", NULL, __NR_open, SC_META, ARGS(A_STR, A_OPEN_FLAGS, A_MODE), R_FD, FRET },
	{ "openat", NULL, __NR_openat, SC_META, ARGS(A_DIRFD, A_STR, A_OPEN_FLAGS, A_MODE), R_FD,
	  FRET },
	{ "openat2", NULL, __NR_openat2, SC_META, ARGS(A_DIRFD, A_STR, A_OPENHOW, A_UINT), R_FD,
	  FRET },
	{ "close", NULL, __NR_close, SC_META, ARGS(A_FD), R_INT, FENTRY },
	{ "close_range", NULL, __NR_close_range, SC_META,
	  ARGS(A_UINT, A_UINT, A_CLOSE_RANGE_FLAGS), R_INT },
	{ "dup", NULL, __NR_dup, SC_META, ARGS(A_FD), R_FD, FRET },
	{ "dup2", NULL, __NR_dup2, SC_META, ARGS(A_FD, A_FD), R_FD, FRET },
	{ "dup3", NULL, __NR_dup3, SC_META, ARGS(A_FD, A_FD, A_DUP3_FLAGS), R_FD, FRET },
	{ "fcntl", NULL, __NR_fcntl, SC_META, ARGS(A_FD, A_FCNTL_CMD, A_HEX), R_INT, F(0) },
	{ "lseek", NULL, __NR_lseek, SC_META, ARGS(A_FD, A_INT, A_WHENCE), R_OFF, F(0), ORET },
	{ "truncate", NULL, __NR_truncate, SC_META, ARGS(A_STR, A_INT), R_INT },
	{ "ftruncate", NULL, __NR_ftruncate, SC_META, ARGS(A_FD, A_INT), R_INT, F(0) },
	{ "rename", NULL, __NR_rename, SC_META, ARGS(A_STR, A_STR), R_INT },
	{ "renameat", NULL, __NR_renameat, SC_META, ARGS(A_DIRFD, A_STR, A_DIRFD, A_STR), R_INT },
	{ "renameat2", NULL, __NR_renameat2, SC_META,
	  ARGS(A_DIRFD, A_STR, A_DIRFD, A_STR, A_RENAME_FLAGS), R_INT },
	{ "unlink", NULL, __NR_unlink, SC_META, ARGS(A_STR), R_INT },
	{ "unlinkat", NULL, __NR_unlinkat, SC_META, ARGS(A_DIRFD, A_STR, A_UNLINK_FLAGS), R_INT },
	{ "link", NULL, __NR_link, SC_META, ARGS(A_STR, A_STR), R_INT },
	{ "linkat", NULL, __NR_linkat, SC_META,
	  ARGS(A_DIRFD, A_STR, A_DIRFD, A_STR, A_AT_FLAGS), R_INT },
	{ "symlink", NULL, __NR_symlink, SC_META, ARGS(A_STR, A_STR), R_INT },
	{ "symlinkat", NULL, __NR_symlinkat, SC_META, ARGS(A_STR, A_DIRFD, A_STR), R_INT },
	{ "readlink", NULL, __NR_readlink, SC_META, ARGS(A_STR, A_PTR, A_UINT), R_SIZE },
	{ "readlinkat", NULL, __NR_readlinkat, SC_META, ARGS(A_DIRFD, A_STR, A_PTR, A_UINT),
	  R_SIZE },
	{ "stat", "newstat", __NR_stat, SC_META, ARGS(A_STR, A_PTR), R_INT },
	{ "lstat", "newlstat", __NR_lstat, SC_META, ARGS(A_STR, A_PTR), R_INT },
	{ "fstat", "newfstat", __NR_fstat, SC_META, ARGS(A_FD, A_PTR), R_INT, F(0) },
	{ "newfstatat", NULL, __NR_newfstatat, SC_META, ARGS(A_DIRFD, A_STR, A_PTR, A_AT_FLAGS),
	  R_INT, FEMPTY },
	{ "statx", NULL, __NR_statx, SC_META,
	  ARGS(A_DIRFD, A_STR, A_AT_FLAGS, A_STATX_MASK, A_PTR), R_INT, FEMPTY },
	{ "statfs", NULL, __NR_statfs, SC_META, ARGS(A_STR, A_PTR), R_INT },
	{ "fstatfs", NULL, __NR_fstatfs, SC_META, ARGS(A_FD, A_PTR), R_INT, F(0) },
	{ "access", NULL, __NR_access, SC_META, ARGS(A_STR, A_ACCESS_MODE), R_INT },
	{ "faccessat", NULL, __NR_faccessat, SC_META, ARGS(A_DIRFD, A_STR, A_ACCESS_MODE), R_INT },
	{ "faccessat2", NULL, __NR_faccessat2, SC_META,
	  ARGS(A_DIRFD, A_STR, A_ACCESS_MODE, A_AT_FLAGS), R_INT },
	{ "chmod", NULL, __NR_chmod, SC_META, ARGS(A_STR, A_MODE), R_INT },
	{ "fchmod", NULL, __NR_fchmod, SC_META, ARGS(A_FD, A_MODE), R_INT, F(0) },
	{ "fchmodat", NULL, __NR_fchmodat, SC_META, ARGS(A_DIRFD, A_STR, A_MODE), R_INT },
	{ "chown", NULL, __NR_chown, SC_META, ARGS(A_STR, A_INT, A_INT), R_INT },
	{ "fchown", NULL, __NR_fchown, SC_META, ARGS(A_FD, A_INT, A_INT), R_INT, F(0) },
	{ "lchown", NULL, __NR_lchown, SC_META, ARGS(A_STR, A_INT, A_INT), R_INT },
	{ "fchownat", NULL, __NR_fchownat, SC_META,
	  ARGS(A_DIRFD, A_STR, A_INT, A_INT, A_AT_FLAGS), R_INT, FEMPTY },
	{ "utimensat", NULL, __NR_utimensat, SC_META, ARGS(A_DIRFD, A_STR, A_PTR, A_AT_FLAGS),
	  R_INT, FEMPTY },
	{ "flock", NULL, __NR_flock, SC_META, ARGS(A_FD, A_FLOCK_OP), R_INT, F(0) },
	{ "fadvise64", NULL, __NR_fadvise64, SC_META, ARGS(A_FD, A_INT, A_INT, A_FADVICE), R_INT,
	  F(0), OARG(1) },
	/* directories */
	{ "mkdir", NULL, __NR_mkdir, SC_DIR, ARGS(A_STR, A_MODE), R_INT },
	{ "mkdirat", NULL, __NR_mkdirat, SC_DIR, ARGS(A_DIRFD, A_STR, A_MODE), R_INT },
	{ "rmdir", NULL, __NR_rmdir, SC_DIR, ARGS(A_STR), R_INT },
	{ "mknod", NULL, __NR_mknod, SC_DIR, ARGS(A_STR, A_MODE, A_DEV), R_INT },
	{ "mknodat", NULL, __NR_mknodat, SC_DIR, ARGS(A_DIRFD, A_STR, A_MODE, A_DEV), R_INT },
	{ "getdents64", NULL, __NR_getdents64, SC_DIR, ARGS(A_FD, A_PTR, A_UINT), R_SIZE, F(0) },
	{ "chdir", NULL, __NR_chdir, SC_DIR, ARGS(A_STR), R_INT },
	{ "fchdir", NULL, __NR_fchdir, SC_DIR, ARGS(A_FD), R_INT, F(0) },
	/* extended attributes */
	{ "getxattr", NULL, __NR_getxattr, SC_XATTR, ARGS(A_STR, A_STR, A_PTR, A_UINT), R_SIZE },
	{ "lgetxattr", NULL, __NR_lgetxattr, SC_XATTR, ARGS(A_STR, A_STR, A_PTR, A_UINT), R_SIZE },
	{ "fgetxattr", NULL, __NR_fgetxattr, SC_XATTR, ARGS(A_FD, A_STR, A_PTR, A_UINT), R_SIZE,
	  F(0) },
	{ "setxattr", NULL, __NR_setxattr, SC_XATTR,
	  ARGS(A_STR, A_STR, A_PTR, A_UINT, A_XATTR_FLAGS), R_INT },
	{ "lsetxattr", NULL, __NR_lsetxattr, SC_XATTR,
	  ARGS(A_STR, A_STR, A_PTR, A_UINT, A_XATTR_FLAGS), R_INT },
	{ "fsetxattr", NULL, __NR_fsetxattr, SC_XATTR,
	  ARGS(A_FD, A_STR, A_PTR, A_UINT, A_XATTR_FLAGS), R_INT, F(0) },
	{ "listxattr", NULL, __NR_listxattr, SC_XATTR, ARGS(A_STR, A_PTR, A_UINT), R_SIZE },
	{ "llistxattr", NULL, __NR_llistxattr, SC_XATTR, ARGS(A_STR, A_PTR, A_UINT), R_SIZE },
	{ "flistxattr", NULL, __NR_flistxattr, SC_XATTR, ARGS(A_FD, A_PTR, A_UINT), R_SIZE, F(0) },
	{ "removexattr", NULL, __NR_removexattr, SC_XATTR, ARGS(A_STR, A_STR), R_INT },
	{ "lremovexattr", NULL, __NR_lremovexattr, SC_XATTR, ARGS(A_STR, A_STR), R_INT },
	{ "fremovexattr", NULL, __NR_fremovexattr, SC_XATTR, ARGS(A_FD, A_STR), R_INT, F(0) },
	/* asynchronous and mapped I/O */
	{ "io_submit", NULL, __NR_io_submit, SC_ASYNC, ARGS(A_HEX, A_INT, A_PTR), R_INT },
	{ "io_getevents", NULL, __NR_io_getevents, SC_ASYNC,
	  ARGS(A_HEX, A_INT, A_INT, A_PTR, A_PTR), R_INT },
	{ "io_uring_enter", NULL, __NR_io_uring_enter, SC_ASYNC,
	  ARGS(A_UINT, A_UINT, A_UINT, A_URING_ENTER_FLAGS, A_PTR, A_UINT), R_INT },
	{ "mmap", NULL, __NR_mmap, SC_ASYNC,
	  ARGS(A_PTR, A_UINT, A_MMAP_PROT, A_MMAP_FLAGS, A_FD, A_HEX), R_ADDR, F(4), OARG(5) },
	{ "msync", NULL, __NR_msync, SC_ASYNC, ARGS(A_PTR, A_UINT, A_MSYNC_FLAGS), R_INT },
	{ "munmap", NULL, __NR_munmap, SC_ASYNC, ARGS(A_PTR, A_UINT), R_INT },
};

#define NTAB (sizeof(table) / sizeof(table[0]))

/* nr -> entry, built on first use */
static const struct dio_syscall *by_nr[DIO_NR_MAX];
static int by_nr_ready;

static void build_index(void)
{
	for (size_t i = 0; i < NTAB; i++)
		if (table[i].nr < DIO_NR_MAX)
			by_nr[table[i].nr] = &table[i];
	by_nr_ready = 1;
}

const struct dio_syscall *syscall_by_nr(unsigned int nr)
{
	if (!by_nr_ready)
		build_index();
	return nr < DIO_NR_MAX ? by_nr[nr] : NULL;
}

const struct dio_syscall *syscall_by_name(const char *name)
{
	for (size_t i = 0; i < NTAB; i++)
		if (!strcmp(table[i].name, name) || (table[i].tp && !strcmp(table[i].tp, name)))
			return &table[i];
	return NULL;
}

const struct dio_syscall *syscall_table(size_t *n)
{
	*n = NTAB;
	return table;
}

const char *syscall_tp(const struct dio_syscall *sc)
{
	return sc->tp ? sc->tp : sc->name;
}

static int has_kind(const struct dio_syscall *sc, int kind)
{
	for (int i = 0; i < sc->nargs; i++)
		if (sc->args[i] == kind)
			return 1;
	return 0;
}

/* Does sc belong to class %name? -1: no such class. */
static int in_class(const struct dio_syscall *sc, const char *name)
{
	static const struct { const char *name; unsigned int bit; } cls[] = {
		{ "data", SC_DATA }, { "sync", SC_SYNC }, { "meta", SC_META },
		{ "dir", SC_DIR }, { "xattr", SC_XATTR }, { "async", SC_ASYNC },
	};

	for (size_t i = 0; i < sizeof(cls) / sizeof(cls[0]); i++)
		if (!strcmp(name, cls[i].name))
			return !!(sc->cls & cls[i].bit);
	if (!strcmp(name, "all"))
		return 1;
	if (!strcmp(name, "file"))	/* takes a file name (an xattr name on an fd is none) */
		return has_kind(sc, A_STR) && !(sc->cls == SC_XATTR && sc->args[0] == A_FD);
	if (!strcmp(name, "desc"))	/* takes or returns a descriptor */
		return has_kind(sc, A_FD) || sc->ret == R_FD;
	return -1;
}

int syscalls_select(const char *spec, uint8_t *sel, char *err, size_t errlen)
{
	char word[64];
	const char *p = spec;
	int first = 1;

	memset(sel, 0, DIO_NR_MAX);
	if (!spec || !*spec) {
		snprintf(err, errlen, "--syscalls: empty list; name system calls or classes like %%data");
		return -EINVAL;
	}
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int neg = 0, found = 0;
		const char *w;

		if (len == 0 || len >= sizeof(word)) {
			snprintf(err, errlen, "--syscalls: %s in '%s'",
				 len ? "name too long" : "empty name", spec);
			return -EINVAL;
		}
		memcpy(word, p, len);
		word[len] = 0;
		w = word;
		if (*w == '!') {
			neg = 1;
			w++;
			/* a list that starts by removing starts from everything */
			if (first)
				for (size_t i = 0; i < NTAB; i++)
					sel[table[i].nr] = 1;
		}
		if (*w == '%') {
			for (size_t i = 0; i < NTAB; i++) {
				int r = in_class(&table[i], w + 1);

				if (r < 0) {
					snprintf(err, errlen,
						 "--syscalls: unknown class '%s'; classes are %%data %%sync %%meta %%dir %%xattr %%async %%file %%desc %%all",
						 w);
					return -EINVAL;
				}
				if (r) {
					sel[table[i].nr] = !neg;
					found = 1;
				}
			}
			(void)found;
		} else {
			const struct dio_syscall *sc = syscall_by_name(w);

			if (!sc) {
				snprintf(err, errlen,
					 "--syscalls: unknown system call '%s'; see 'dio list syscalls'", w);
				return -EINVAL;
			}
			sel[sc->nr] = !neg;
		}
		first = 0;
		if (!end)
			break;
		p = end + 1;
		if (!*p) {
			snprintf(err, errlen, "--syscalls: empty name at the end of '%s'", spec);
			return -EINVAL;
		}
	}
	return 0;
}
