// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The constant tables in xlat/ (one constant per line, values from the system
 * headers) and the functions that print flag words and values with them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
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

#define XLAT(c)			{ (uint64_t)(c), #c },
#define XLAT_PAIR(v, name)	{ (uint64_t)(v), (name) },

static const struct xlat open_flags[] = {
#include "xlat/open_flags.h"
};
static const struct xlat dup3_flags[] = {
#include "xlat/dup3_flags.h"
};
static const struct xlat at_flags[] = {
#include "xlat/at_flags.h"
};
static const struct xlat unlink_flags[] = {
#include "xlat/unlink_flags.h"
};
static const struct xlat whence[] = {
#include "xlat/whence.h"
};
static const struct xlat fcntl_cmds[] = {
#include "xlat/fcntl_cmds.h"
};
static const struct xlat fd_flags[] = {
#include "xlat/fd_flags.h"
};
static const struct xlat lease_types[] = {
#include "xlat/lease_types.h"
};
static const struct xlat seals[] = {
#include "xlat/seals.h"
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
static const struct xlat mmap_types[] = {
#include "xlat/mmap_types.h"
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
static const struct xlat uring_ops[] = {
#include "xlat/uring_ops.h"
};
static const struct xlat mode_types[] = {
#include "xlat/mode_types.h"
};
static const struct xlat errnos[] = {
#include "xlat/errnos.h"
};

#define N(t) (sizeof(t) / sizeof((t)[0]))

/* Appends at off like snprintf would, never past len; returns the new length of the text. */
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

/*
 * put(buf, len, off, "%s", s) without the formatter: names are most of what
 * these print, and a traced call's line prints one or two.
 */
static size_t put_s(char *buf, size_t len, size_t off, const char *s)
{
	size_t n = strlen(s);

	if (off < len) {
		size_t room = len - off - 1;

		memcpy(buf + off, s, n < room ? n : room);
		buf[off + (n < room ? n : room)] = 0;
	}
	return off + n;
}

/* xlat_flags appended at off */
static size_t put_flags(char *buf, size_t len, size_t off, const struct xlat *tab, size_t n,
			uint64_t v)
{
	return off + xlat_flags(tab, n, v, off < len ? buf + off : NULL, off < len ? len - off : 0);
}

static const char *name_of(const struct xlat *tab, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].val == v)
			return tab[i].name;
	return NULL;
}

int xlat_flags(const struct xlat *tab, size_t n, uint64_t v, char *buf, size_t len)
{
	uint64_t left = v;
	size_t off = 0;

	if (len)
		buf[0] = 0;
	if (!v) {
		const char *zero = name_of(tab, n, 0);

		return (int)put_s(buf, len, 0, zero ? zero : "0");
	}
	for (size_t i = 0; i < n && left; i++) {
		/* a multi-bit entry only when all its bits are there, and each bit named once */
		if (!tab[i].val || (tab[i].val & left) != tab[i].val)
			continue;
		off = put_s(buf, len, off ? put_s(buf, len, off, "|") : 0, tab[i].name);
		left &= ~tab[i].val;
	}
	if (left)
		off = put(buf, len, off, "%s%#llx", off ? "|" : "", (unsigned long long)left);
	return (int)off;
}

int xlat_value(const struct xlat *tab, size_t n, uint64_t v, int hex, char *buf, size_t len)
{
	const char *name = name_of(tab, n, v);

	if (len)
		buf[0] = 0;
	if (name)
		return (int)put_s(buf, len, 0, name);
	if (hex)
		return (int)put(buf, len, 0, "%#llx", (unsigned long long)v);
	return (int)put(buf, len, 0, "%lld", (long long)v);
}

int xlat_open_flags(uint64_t v, char *buf, size_t len)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	uint64_t rest = v & ~(uint64_t)O_ACCMODE;
	size_t off;

	if (len)
		buf[0] = 0;
	off = put_s(buf, len, 0, modes[v & O_ACCMODE]);
	if (rest)
		off = put_flags(buf, len, put_s(buf, len, off, "|"), open_flags, N(open_flags), rest);
	return (int)off;
}

const char *xlat_errno(int err)
{
	return err > 0 ? name_of(errnos, N(errnos), (uint64_t)err) : NULL;
}

const char *xlat_errno_text(int err)
{
	static const struct xlat internal[] = {
		{ 512, "Interrupted by a signal; restarted if SA_RESTART is set" },
		{ 513, "Interrupted by a signal; restarted" },
		{ 514, "Interrupted by a signal; restarted if there is no handler" },
		{ 516, "Interrupted by a signal; restarted through restart_syscall" },
	};
	const char *text = name_of(internal, N(internal), (uint64_t)err);

	if (text)
		return text;
	/* libc's text for every errno in the table: a constant string, not "Unknown error" */
	return xlat_errno(err) ? strerror(err) : NULL;
}

const char *xlat_uring_op(unsigned int op)
{
	const char *name = name_of(uring_ops, N(uring_ops), op);

	return name ? name + strlen("IORING_OP_") : NULL;
}

#define FLAGS_FN(fn, tab)						\
int fn(uint64_t v, char *buf, size_t len)				\
{									\
	return xlat_flags(tab, N(tab), v, buf, len);			\
}
#define VALUE_FN(fn, tab, hex)						\
int fn(uint64_t v, char *buf, size_t len)				\
{									\
	return xlat_value(tab, N(tab), v, hex, buf, len);		\
}

FLAGS_FN(xlat_at_flags, at_flags)
FLAGS_FN(xlat_rename_flags, rename_flags)
FLAGS_FN(xlat_falloc_flags, falloc_flags)
FLAGS_FN(xlat_flock_op, flock_ops)
FLAGS_FN(xlat_mmap_prot, mmap_prot)
FLAGS_FN(xlat_msync_flags, msync_flags)
FLAGS_FN(xlat_sfr_flags, sfr_flags)
FLAGS_FN(xlat_rwf_flags, rwf_flags)
FLAGS_FN(xlat_xattr_flags, xattr_flags)
FLAGS_FN(xlat_statx_mask, statx_mask)
FLAGS_FN(xlat_close_range_flags, close_range_flags)
FLAGS_FN(xlat_splice_flags, splice_flags)
FLAGS_FN(xlat_uring_enter_flags, uring_enter_flags)
FLAGS_FN(xlat_access_mode, access_modes)
FLAGS_FN(xlat_dup3_flags, dup3_flags)
FLAGS_FN(xlat_unlink_flags, unlink_flags)
FLAGS_FN(xlat_fd_flags, fd_flags)
FLAGS_FN(xlat_seals, seals)
VALUE_FN(xlat_whence, whence, 0)
VALUE_FN(xlat_fcntl_cmd, fcntl_cmds, 1)
VALUE_FN(xlat_fadvice, fadvise, 0)
VALUE_FN(xlat_lease, lease_types, 0)

/*
 * The mapping type (flags & MAP_TYPE) is a value, MAP_SHARED_VALIDATE is not
 * MAP_SHARED|MAP_PRIVATE; then the flag bits; with MAP_HUGETLB, bits 26-31 are
 * log2 of the huge page size, printed as strace does: 21<<MAP_HUGE_SHIFT.
 */
int xlat_mmap_flags(uint64_t v, char *buf, size_t len)
{
	const char *type = name_of(mmap_types, N(mmap_types), v & MAP_TYPE);
	uint64_t rest = v & ~(uint64_t)MAP_TYPE, huge = 0;
	size_t off;

	if (len)
		buf[0] = 0;
	if (type)
		off = put_s(buf, len, 0, type);
	else
		off = put(buf, len, 0, "%#llx", (unsigned long long)(v & MAP_TYPE));
	if (rest & MAP_HUGETLB) {
		huge = (rest >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK;
		rest &= ~((uint64_t)MAP_HUGE_MASK << MAP_HUGE_SHIFT);
	}
	if (rest)
		off = put_flags(buf, len, put_s(buf, len, off, "|"), mmap_flags, N(mmap_flags), rest);
	if (huge)
		off = put(buf, len, off, "|%llu<<MAP_HUGE_SHIFT", (unsigned long long)huge);
	return (int)off;
}

int xlat_mode(uint64_t v, char *buf, size_t len)
{
	uint64_t perm = v & ~(uint64_t)S_IFMT;
	const char *type;

	if (len)
		buf[0] = 0;
	if (!(v & S_IFMT))
		return (int)put(buf, len, 0, "%#03llo", (unsigned long long)v);
	type = name_of(mode_types, N(mode_types), v & S_IFMT);
	if (!type)	/* not a file type: the number as it is */
		return (int)put(buf, len, 0, "%#llo", (unsigned long long)v);
	return (int)put(buf, len, 0, "%s|%#03llo", type, (unsigned long long)perm);
}

#define TABLE(name, flags) { #name, flags, name, N(name) }

static const struct xlat_table all_tables[] = {
	TABLE(open_flags, 1), TABLE(dup3_flags, 1), TABLE(at_flags, 1), TABLE(unlink_flags, 1),
	TABLE(whence, 0), TABLE(fcntl_cmds, 0), TABLE(fd_flags, 1), TABLE(lease_types, 0),
	TABLE(seals, 1), TABLE(rename_flags, 1), TABLE(access_modes, 1), TABLE(falloc_flags, 1),
	TABLE(fadvise, 0), TABLE(flock_ops, 1), TABLE(mmap_prot, 1), TABLE(mmap_types, 0),
	TABLE(mmap_flags, 1), TABLE(msync_flags, 1), TABLE(sfr_flags, 1), TABLE(rwf_flags, 1),
	TABLE(xattr_flags, 1), TABLE(statx_mask, 1), TABLE(close_range_flags, 1),
	TABLE(splice_flags, 1), TABLE(uring_enter_flags, 1), TABLE(uring_ops, 0),
	TABLE(mode_types, 0), TABLE(errnos, 0),
};

const struct xlat_table *xlat_tables(size_t *n)
{
	*n = N(all_tables);
	return all_tables;
}
