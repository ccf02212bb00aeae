// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The storage system calls dio traces on x86_64. Each entry says how to print
 * the call and, for the BPF side, where its file, offset and strings are.
 *
 * The numbers are written out rather than taken from <sys/syscall.h>: they are
 * the x86_64 ABI whatever the build host is (an aarch64 header has no __NR_open
 * and numbers the rest differently). tests/unit/test_syscalls.c checks each one
 * against <asm/unistd_64.h>.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <dio/plugin.h>
#include "bpf/dio.h"
#include "syscalls.h"

/* where the call's file comes from (bpf/dio.h DIO_FD_*) */
#define FD(i)		.fd_how = DIO_FD_ARG, .fd_arg = (i)
#define FD_ENTRY(i)	.fd_how = DIO_FD_ARG_ENTRY, .fd_arg = (i)
#define FD_RET		.fd_how = DIO_FD_RET
#define FD_EMPTY(i)	.fd_how = DIO_FD_EMPTY_PATH, .fd_arg = (i)
/* what offset the call worked at (DIO_OFF_*) */
#define OFF_POS		.off_how = DIO_OFF_POS
#define OFF_ARG(i)	.off_how = DIO_OFF_ARG, .off_arg = (i)
#define OFF_RET		.off_how = DIO_OFF_RET
#define OFF_PTR(i)	.off_how = DIO_OFF_PTR, .off_arg = (i)
#define READS		.data = 1
#define WRITES		.data = 2

#define ARGS(...)	.nargs = sizeof((uint8_t[]){ __VA_ARGS__ }), .args = { __VA_ARGS__ }
#define NOARGS		.nargs = 0
#define SC(n, t, num, c, r, ...) \
	{ .name = (n), .tp = (t), .nr = (num), .cls = (c), .ret = (r), __VA_ARGS__ }

static const struct dio_syscall table[] = {
	/* data */
	SC("read", NULL, 0, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_UINT), FD(0), OFF_POS, READS),
	SC("pread64", NULL, 17, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_UINT, A_INT), FD(0),
	   OFF_ARG(3), READS),
	SC("readv", NULL, 19, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_INT), FD(0), OFF_POS),
	/*
	 * The kernel's preadv takes pos_l, pos_h; on a 64-bit kernel pos_l is the
	 * whole offset and pos_h is ignored, so it is not printed (as strace does).
	 */
	SC("preadv", NULL, 295, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_INT, A_INT), FD(0),
	   OFF_ARG(3)),
	SC("preadv2", NULL, 327, SC_DATA, R_SIZE,
	   ARGS(A_FD, A_PTR, A_INT, A_INT, A_SKIP, A_RWF_FLAGS), FD(0), OFF_ARG(3)),
	SC("write", NULL, 1, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_UINT), FD(0), OFF_POS, WRITES),
	SC("pwrite64", NULL, 18, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_UINT, A_INT), FD(0),
	   OFF_ARG(3), WRITES),
	SC("writev", NULL, 20, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_INT), FD(0), OFF_POS),
	SC("pwritev", NULL, 296, SC_DATA, R_SIZE, ARGS(A_FD, A_PTR, A_INT, A_INT), FD(0),
	   OFF_ARG(3)),
	SC("pwritev2", NULL, 328, SC_DATA, R_SIZE,
	   ARGS(A_FD, A_PTR, A_INT, A_INT, A_SKIP, A_RWF_FLAGS), FD(0), OFF_ARG(3)),
	SC("readahead", NULL, 187, SC_DATA, R_INT, ARGS(A_FD, A_INT, A_UINT), FD(0), OFF_ARG(1)),
	SC("fallocate", NULL, 285, SC_DATA, R_INT, ARGS(A_FD, A_FALLOC_MODE, A_INT, A_INT), FD(0),
	   OFF_ARG(2)),
	/* the input file: the offset pointer belongs to it */
	SC("copy_file_range", NULL, 326, SC_DATA, R_SIZE,
	   ARGS(A_FD, A_OFFPTR, A_FD, A_OFFPTR, A_UINT, A_UINT), FD(0), OFF_PTR(1)),
	SC("sendfile", "sendfile64", 40, SC_DATA, R_SIZE, ARGS(A_FD, A_FD, A_OFFPTR, A_UINT), FD(1),
	   OFF_PTR(2)),
	SC("splice", NULL, 275, SC_DATA, R_SIZE,
	   ARGS(A_FD, A_OFFPTR, A_FD, A_OFFPTR, A_UINT, A_SPLICE_FLAGS), FD(0), OFF_PTR(1)),

	/* sync */
	SC("fsync", NULL, 74, SC_SYNC, R_INT, ARGS(A_FD), FD(0)),
	SC("fdatasync", NULL, 75, SC_SYNC, R_INT, ARGS(A_FD), FD(0)),
	SC("sync_file_range", NULL, 277, SC_SYNC, R_INT, ARGS(A_FD, A_INT, A_INT, A_SFR_FLAGS),
	   FD(0), OFF_ARG(1)),
	SC("syncfs", NULL, 306, SC_SYNC, R_INT, ARGS(A_FD), FD(0)),
	SC("sync", NULL, 162, SC_SYNC, R_INT, NOARGS),

	/* metadata */
	SC("creat", NULL, 85, SC_META, R_FD, ARGS(A_STR, A_MODE), FD_RET),
	SC("open", NULL, 2, SC_META, R_FD, ARGS(A_STR, A_OPEN_FLAGS, A_MODE), FD_RET),
	SC("openat", NULL, 257, SC_META, R_FD, ARGS(A_DIRFD, A_STR, A_OPEN_FLAGS, A_MODE), FD_RET),
	SC("openat2", NULL, 437, SC_META, R_FD, ARGS(A_DIRFD, A_STR, A_OPENHOW, A_UINT), FD_RET),
	/* at exit the fd is already gone: the file is looked up at entry */
	SC("close", NULL, 3, SC_META, R_INT, ARGS(A_FD), FD_ENTRY(0)),
	/* the last fd is often ~0U: printed unsigned, not as an fd */
	SC("close_range", NULL, 436, SC_META, R_INT, ARGS(A_FD, A_UINT, A_CLOSE_RANGE_FLAGS)),
	/*
	 * The dup family's file is the one behind the old fd, still open at exit;
	 * the new fd returned names the same file, so both print with its path,
	 * and dup2's newfd argument, which was not that file before, prints bare.
	 */
	SC("dup", NULL, 32, SC_META, R_FD, ARGS(A_FD), FD(0)),
	SC("dup2", NULL, 33, SC_META, R_FD, ARGS(A_FD, A_FD), FD(0)),
	SC("dup3", NULL, 292, SC_META, R_FD, ARGS(A_FD, A_FD, A_DUP3_FLAGS), FD(0)),
	SC("fcntl", NULL, 72, SC_META, R_INT, ARGS(A_FD, A_FCNTL_CMD, A_HEX), FD(0)),
	SC("lseek", NULL, 8, SC_META, R_OFF, ARGS(A_FD, A_INT, A_WHENCE), FD(0), OFF_RET),
	SC("truncate", NULL, 76, SC_META, R_INT, ARGS(A_STR, A_INT)),
	SC("ftruncate", NULL, 77, SC_META, R_INT, ARGS(A_FD, A_INT), FD(0)),
	SC("rename", NULL, 82, SC_META, R_INT, ARGS(A_STR, A_STR)),
	SC("renameat", NULL, 264, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_DIRFD, A_STR)),
	SC("renameat2", NULL, 316, SC_META, R_INT,
	   ARGS(A_DIRFD, A_STR, A_DIRFD, A_STR, A_RENAME_FLAGS)),
	SC("unlink", NULL, 87, SC_META, R_INT, ARGS(A_STR)),
	SC("unlinkat", NULL, 263, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_UNLINK_FLAGS)),
	SC("link", NULL, 86, SC_META, R_INT, ARGS(A_STR, A_STR)),
	SC("linkat", NULL, 265, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_DIRFD, A_STR, A_AT_FLAGS)),
	SC("symlink", NULL, 88, SC_META, R_INT, ARGS(A_STR, A_STR)),
	SC("symlinkat", NULL, 266, SC_META, R_INT, ARGS(A_STR, A_DIRFD, A_STR)),
	SC("readlink", NULL, 89, SC_META, R_SIZE, ARGS(A_STR, A_PTR, A_UINT)),
	SC("readlinkat", NULL, 267, SC_META, R_SIZE, ARGS(A_DIRFD, A_STR, A_PTR, A_UINT)),
	SC("stat", "newstat", 4, SC_META, R_INT, ARGS(A_STR, A_PTR)),
	SC("lstat", "newlstat", 6, SC_META, R_INT, ARGS(A_STR, A_PTR)),
	SC("fstat", "newfstat", 5, SC_META, R_INT, ARGS(A_FD, A_PTR), FD(0)),
	/* glibc's fstat(fd) is newfstatat(fd, "", buf, AT_EMPTY_PATH) */
	SC("newfstatat", NULL, 262, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_PTR, A_AT_FLAGS),
	   FD_EMPTY(0)),
	SC("statx", NULL, 332, SC_META, R_INT,
	   ARGS(A_DIRFD, A_STR, A_AT_FLAGS, A_STATX_MASK, A_PTR), FD_EMPTY(0)),
	SC("statfs", NULL, 137, SC_META, R_INT, ARGS(A_STR, A_PTR)),
	SC("fstatfs", NULL, 138, SC_META, R_INT, ARGS(A_FD, A_PTR), FD(0)),
	SC("access", NULL, 21, SC_META, R_INT, ARGS(A_STR, A_ACCESS_MODE)),
	SC("faccessat", NULL, 269, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_ACCESS_MODE)),
	SC("faccessat2", NULL, 439, SC_META, R_INT,
	   ARGS(A_DIRFD, A_STR, A_ACCESS_MODE, A_AT_FLAGS)),
	SC("chmod", NULL, 90, SC_META, R_INT, ARGS(A_STR, A_MODE)),
	SC("fchmod", NULL, 91, SC_META, R_INT, ARGS(A_FD, A_MODE), FD(0)),
	/* no flags argument, so no AT_EMPTY_PATH (that is fchmodat2) */
	SC("fchmodat", NULL, 268, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_MODE)),
	SC("chown", NULL, 92, SC_META, R_INT, ARGS(A_STR, A_ID, A_ID)),
	SC("fchown", NULL, 93, SC_META, R_INT, ARGS(A_FD, A_ID, A_ID), FD(0)),
	SC("lchown", NULL, 94, SC_META, R_INT, ARGS(A_STR, A_ID, A_ID)),
	SC("fchownat", NULL, 260, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_ID, A_ID, A_AT_FLAGS),
	   FD_EMPTY(0)),
	/* a NULL path makes utimensat work on the dirfd itself, like "" with AT_EMPTY_PATH */
	SC("utimensat", NULL, 280, SC_META, R_INT, ARGS(A_DIRFD, A_STR, A_PTR, A_AT_FLAGS),
	   FD_EMPTY(0)),
	SC("flock", NULL, 73, SC_META, R_INT, ARGS(A_FD, A_FLOCK_OP), FD(0)),
	SC("fadvise64", NULL, 221, SC_META, R_INT, ARGS(A_FD, A_INT, A_INT, A_FADVICE), FD(0),
	   OFF_ARG(1)),

	/* directories */
	SC("mkdir", NULL, 83, SC_DIR, R_INT, ARGS(A_STR, A_MODE)),
	SC("mkdirat", NULL, 258, SC_DIR, R_INT, ARGS(A_DIRFD, A_STR, A_MODE)),
	SC("rmdir", NULL, 84, SC_DIR, R_INT, ARGS(A_STR)),
	SC("mknod", NULL, 133, SC_DIR, R_INT, ARGS(A_STR, A_MODE, A_DEV)),
	SC("mknodat", NULL, 259, SC_DIR, R_INT, ARGS(A_DIRFD, A_STR, A_MODE, A_DEV)),
	SC("getdents64", NULL, 217, SC_DIR, R_SIZE, ARGS(A_FD, A_PTR, A_UINT), FD(0)),
	SC("chdir", NULL, 80, SC_DIR, R_INT, ARGS(A_STR)),
	SC("fchdir", NULL, 81, SC_DIR, R_INT, ARGS(A_FD), FD(0)),

	/* extended attributes: the path and the attribute name are both strings */
	SC("getxattr", NULL, 191, SC_XATTR, R_SIZE, ARGS(A_STR, A_STR, A_PTR, A_UINT)),
	SC("lgetxattr", NULL, 192, SC_XATTR, R_SIZE, ARGS(A_STR, A_STR, A_PTR, A_UINT)),
	SC("fgetxattr", NULL, 193, SC_XATTR, R_SIZE, ARGS(A_FD, A_STR, A_PTR, A_UINT), FD(0)),
	SC("setxattr", NULL, 188, SC_XATTR, R_INT,
	   ARGS(A_STR, A_STR, A_PTR, A_UINT, A_XATTR_FLAGS)),
	SC("lsetxattr", NULL, 189, SC_XATTR, R_INT,
	   ARGS(A_STR, A_STR, A_PTR, A_UINT, A_XATTR_FLAGS)),
	SC("fsetxattr", NULL, 190, SC_XATTR, R_INT,
	   ARGS(A_FD, A_STR, A_PTR, A_UINT, A_XATTR_FLAGS), FD(0)),
	SC("listxattr", NULL, 194, SC_XATTR, R_SIZE, ARGS(A_STR, A_PTR, A_UINT)),
	SC("llistxattr", NULL, 195, SC_XATTR, R_SIZE, ARGS(A_STR, A_PTR, A_UINT)),
	SC("flistxattr", NULL, 196, SC_XATTR, R_SIZE, ARGS(A_FD, A_PTR, A_UINT), FD(0)),
	SC("removexattr", NULL, 197, SC_XATTR, R_INT, ARGS(A_STR, A_STR)),
	SC("lremovexattr", NULL, 198, SC_XATTR, R_INT, ARGS(A_STR, A_STR)),
	SC("fremovexattr", NULL, 199, SC_XATTR, R_INT, ARGS(A_FD, A_STR), FD(0)),

	/* asynchronous and mapped I/O */
	SC("io_submit", NULL, 209, SC_ASYNC, R_INT, ARGS(A_HEX, A_INT, A_PTR)),
	SC("io_getevents", NULL, 208, SC_ASYNC, R_INT, ARGS(A_HEX, A_INT, A_INT, A_PTR, A_PTR)),
	SC("io_uring_enter", NULL, 426, SC_ASYNC, R_INT,
	   ARGS(A_FD, A_UINT, A_UINT, A_URING_ENTER_FLAGS, A_PTR, A_UINT)),
	SC("mmap", NULL, 9, SC_ASYNC, R_ADDR,
	   ARGS(A_PTR, A_UINT, A_MMAP_PROT, A_MMAP_FLAGS, A_FD, A_HEX), FD(4), OFF_ARG(5)),
	SC("msync", NULL, 26, SC_ASYNC, R_INT, ARGS(A_PTR, A_UINT, A_MSYNC_FLAGS)),
	SC("munmap", NULL, 11, SC_ASYNC, R_INT, ARGS(A_PTR, A_UINT)),
};

#define NTAB (sizeof(table) / sizeof(table[0]))

/*
 * Number -> entry. syscall_by_nr runs for every record printed, so it is an
 * index, built before main(): a lazy build on first use would race between the
 * threads that format records.
 */
static const struct dio_syscall *by_nr[DIO_NR_MAX];

__attribute__((constructor)) static void build_index(void)
{
	for (size_t i = 0; i < NTAB; i++)
		if (table[i].nr < DIO_NR_MAX)
			by_nr[table[i].nr] = &table[i];
}

unsigned int syscall_io(const struct dio_syscall *sc)
{
	if (!(sc->cls & SC_DATA) || sc->ret != R_SIZE)
		return DIO_IO_NONE;
	return !strncmp(sc->name, "write", 5) || !strncmp(sc->name, "pwrite", 6) ?
		DIO_IO_WRITE : DIO_IO_READ;
}

const struct dio_syscall *syscall_by_nr(unsigned int nr)
{
	return nr < DIO_NR_MAX ? by_nr[nr] : NULL;
}

/* name or tracepoint name, len bytes of it (the word need not end with a NUL) */
static const struct dio_syscall *lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < NTAB; i++) {
		const char *tp = table[i].tp;

		if ((!strncmp(table[i].name, name, len) && !table[i].name[len]) ||
		    (tp && !strncmp(tp, name, len) && !tp[len]))
			return &table[i];
	}
	return NULL;
}

const struct dio_syscall *syscall_by_name(const char *name)
{
	return name ? lookup(name, strlen(name)) : NULL;
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

static int has_arg(const struct dio_syscall *sc, unsigned int kind)
{
	for (int i = 0; i < sc->nargs; i++)
		if (sc->args[i] == kind)
			return 1;
	return 0;
}

/* %file: names a file by path (an attribute name on an fd is not one) */
static int takes_path(const struct dio_syscall *sc)
{
	return has_arg(sc, A_STR) && !(sc->cls == SC_XATTR && sc->args[0] == A_FD);
}

/* %desc: takes or returns a descriptor (the *at calls' dirfd included, as strace has it) */
static int takes_fd(const struct dio_syscall *sc)
{
	return has_arg(sc, A_FD) || has_arg(sc, A_DIRFD) || sc->ret == R_FD;
}

static const struct {
	const char *name;
	unsigned int cls;	/* SC_* bit, or 0 with test set */
	int (*test)(const struct dio_syscall *sc);
} classes[] = {
	{ "data", SC_DATA, NULL },
	{ "sync", SC_SYNC, NULL },
	{ "meta", SC_META, NULL },
	{ "dir", SC_DIR, NULL },
	{ "xattr", SC_XATTR, NULL },
	{ "async", SC_ASYNC, NULL },
	{ "file", 0, takes_path },
	{ "desc", 0, takes_fd },
	{ "all", SC_DATA | SC_SYNC | SC_META | SC_DIR | SC_XATTR | SC_ASYNC, NULL },
};

#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

/* index in classes[] of %name (len bytes), -1 when there is none */
static int class_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NCLASSES; i++)
		if (!strncmp(classes[i].name, name, len) && !classes[i].name[len])
			return (int)i;
	return -1;
}

static int in_class(const struct dio_syscall *sc, int c)
{
	return classes[c].test ? classes[c].test(sc) : !!(sc->cls & classes[c].cls);
}

int syscalls_select(const char *spec, uint8_t *sel, char *err, size_t errlen)
{
	const char *p = spec;

	memset(sel, 0, DIO_NR_MAX);
	if (!spec || !*spec) {
		snprintf(err, errlen,
			 "--syscalls: empty list; name system calls or classes like %%data");
		return -EINVAL;
	}
	/* a list that starts by removing something removes it from everything */
	if (*spec == '!')
		for (size_t i = 0; i < NTAB; i++)
			sel[table[i].nr] = 1;
	for (;;) {
		size_t len = strcspn(p, ",");
		const char *w = p;
		uint8_t val = 1;

		if (*w == '!') {
			val = 0;
			w++;
			len--;
		}
		if (!len) {
			snprintf(err, errlen, "--syscalls: empty name in '%s'", spec);
			return -EINVAL;
		}
		if (*w == '%') {
			int c = class_index(w + 1, len - 1);

			if (c < 0) {
				snprintf(err, errlen, "--syscalls: unknown class '%.*s'; classes "
					 "are %%data %%sync %%meta %%dir %%xattr %%async %%file "
					 "%%desc %%all", (int)len, w);
				return -EINVAL;
			}
			for (size_t i = 0; i < NTAB; i++)
				if (in_class(&table[i], c))
					sel[table[i].nr] = val;
		} else {
			const struct dio_syscall *sc = lookup(w, len);

			if (!sc) {
				snprintf(err, errlen, "--syscalls: unknown system call '%.*s'; "
					 "see 'dio list syscalls'", (int)len, w);
				return -EINVAL;
			}
			sel[sc->nr] = val;
		}
		p = w + len;
		if (!*p)
			return 0;
		p++;	/* the comma: a name must follow, "read," is an error */
	}
}
