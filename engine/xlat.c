// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Constant tables (the headers in xlat/, one constant per line, multi-bit entries before
 * the bits they contain) and the functions that print flag words with them.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/close_range.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <linux/stat.h>
#include "xlat.h"

/* glibc defines O_LARGEFILE as 0 on 64-bit; the kernel's bit is what calls may carry */
#undef O_LARGEFILE
#define O_LARGEFILE 0100000
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif
#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x2000U
#endif

#define XLAT(c) { (uint64_t)(c), #c },

static const struct xlat open_flags[] = {
#include "xlat/open_flags.h"
};
static const struct xlat at_flags[] = {
#include "xlat/at_flags.h"
};
static const struct xlat whence[] = {
#include "xlat/whence.h"
};
static const struct xlat fcntl_cmds[] = {
#include "xlat/fcntl_cmds.h"
};
static const struct xlat rename_flags[] = {
#include "xlat/rename_flags.h"
};
static const struct xlat access_modes[] = {
#include "xlat/access_modes.h"
};
static const struct xlat falloc_flags[] = {
#include "xlat/falloc_flags.h"
};
static const struct xlat fadvise[] = {
#include "xlat/fadvise.h"
};
static const struct xlat flock_ops[] = {
#include "xlat/flock_ops.h"
};
static const struct xlat mmap_prot[] = {
#include "xlat/mmap_prot.h"
};
static const struct xlat mmap_flags[] = {
#include "xlat/mmap_flags.h"
};
static const struct xlat msync_flags[] = {
#include "xlat/msync_flags.h"
};
static const struct xlat sfr_flags[] = {
#include "xlat/sfr_flags.h"
};
static const struct xlat rwf_flags[] = {
#include "xlat/rwf_flags.h"
};
static const struct xlat xattr_flags[] = {
#include "xlat/xattr_flags.h"
};
static const struct xlat statx_mask[] = {
#include "xlat/statx_mask.h"
};
static const struct xlat close_range_flags[] = {
#include "xlat/close_range_flags.h"
};
static const struct xlat splice_flags[] = {
#include "xlat/splice_flags.h"
};
static const struct xlat uring_enter_flags[] = {
#include "xlat/uring_enter_flags.h"
};
static const struct xlat errnos[] = {
#include "xlat/errnos.h"
};
#define URING_OP(op) "IORING_OP_" #op,
static const char *const uring_ops[] = {
#include "xlat/uring_ops.h"
};

#define N(t) (sizeof(t) / sizeof(t[0]))

/* snprintf that never goes past the end and keeps counting what the text needs */
static size_t put(char *buf, size_t len, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t put(char *buf, size_t len, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(off < len ? buf + off : NULL, off < len ? len - off : 0, fmt, ap);
	va_end(ap);
	return n > 0 ? off + n : off;
}

int xlat_flags(const struct xlat *tab, size_t n, uint64_t v, char *buf, size_t len)
{
	size_t off = 0;
	uint64_t left = v;

	if (len)
		buf[0] = 0;
	if (v == 0) {
		for (size_t i = 0; i < n; i++)
			if (tab[i].val == 0)
				return (int)put(buf, len, 0, "%s", tab[i].name);
		return (int)put(buf, len, 0, "0");
	}
	for (size_t i = 0; i < n && left; i++) {
		if (!tab[i].val || (tab[i].val & left) != tab[i].val)
			continue;
		off = put(buf, len, off, "%s%s", off ? "|" : "", tab[i].name);
		left &= ~tab[i].val;
	}
	if (left)
		off = put(buf, len, off, "%s%#llx", off ? "|" : "", (unsigned long long)left);
	return (int)off;
}

int xlat_value(const struct xlat *tab, size_t n, uint64_t v, int hex, char *buf, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].val == v)
			return (int)put(buf, len, 0, "%s", tab[i].name);
	if (hex)
		return (int)put(buf, len, 0, "%#llx", (unsigned long long)v);
	return (int)put(buf, len, 0, "%lld", (long long)(int64_t)v);
}

int xlat_open_flags(uint64_t v, char *buf, size_t len)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	size_t off = put(buf, len, 0, "%s", modes[v & O_ACCMODE]);
	uint64_t rest = v & ~(uint64_t)O_ACCMODE;

	if (!rest)
		return (int)off;
	off = put(buf, len, off, "|");
	return (int)off + xlat_flags(open_flags, N(open_flags), rest, off < len ? buf + off : NULL,
				     off < len ? len - off : 0);
}

const char *xlat_errno(int err)
{
	for (size_t i = 0; i < N(errnos); i++)
		if (errnos[i].val == (uint64_t)err)
			return errnos[i].name;
	return NULL;
}

const char *xlat_uring_op(unsigned int op)
{
	return op < N(uring_ops) ? uring_ops[op] + 10 : NULL;	/* without "IORING_OP_" */
}

#define TABLE_FN(fn, tab, flags)						\
int fn(uint64_t v, char *buf, size_t len)					\
{										\
	return flags ? xlat_flags(tab, N(tab), v, buf, len)			\
		     : xlat_value(tab, N(tab), v, 0, buf, len);			\
}
TABLE_FN(xlat_at_flags, at_flags, 1)
TABLE_FN(xlat_whence, whence, 0)
TABLE_FN(xlat_fcntl_cmd, fcntl_cmds, 0)
TABLE_FN(xlat_rename_flags, rename_flags, 1)
TABLE_FN(xlat_falloc_flags, falloc_flags, 1)
TABLE_FN(xlat_fadvice, fadvise, 0)
TABLE_FN(xlat_flock_op, flock_ops, 1)
TABLE_FN(xlat_mmap_prot, mmap_prot, 1)
TABLE_FN(xlat_msync_flags, msync_flags, 1)
TABLE_FN(xlat_sfr_flags, sfr_flags, 1)
TABLE_FN(xlat_rwf_flags, rwf_flags, 1)
TABLE_FN(xlat_xattr_flags, xattr_flags, 1)
TABLE_FN(xlat_statx_mask, statx_mask, 1)
TABLE_FN(xlat_close_range_flags, close_range_flags, 1)
TABLE_FN(xlat_splice_flags, splice_flags, 1)
TABLE_FN(xlat_uring_enter_flags, uring_enter_flags, 1)

int xlat_access_mode(uint64_t v, char *buf, size_t len)
{
	if (v == F_OK)
		return (int)put(buf, len, 0, "F_OK");
	return xlat_flags(access_modes, N(access_modes), v, buf, len);
}

/* the mapping type (MAP_SHARED, MAP_PRIVATE, MAP_SHARED_VALIDATE) is a value, the rest bits */
int xlat_mmap_flags(uint64_t v, char *buf, size_t len)
{
	return xlat_flags(mmap_flags, N(mmap_flags), v, buf, len);
}

int xlat_dup3_flags(uint64_t v, char *buf, size_t len)
{
	if (!v)
		return (int)put(buf, len, 0, "0");
	return xlat_flags(open_flags, N(open_flags), v, buf, len);
}

int xlat_unlink_flags(uint64_t v, char *buf, size_t len)
{
	static const struct xlat t[] = { XLAT(AT_REMOVEDIR) };

	return xlat_flags(t, 1, v, buf, len);
}
