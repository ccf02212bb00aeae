/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoding of flag words and constants into names, strace-style. */
#ifndef DIO_ENGINE_XLAT_H
#define DIO_ENGINE_XLAT_H

#include <stddef.h>
#include <stdint.h>

struct xlat {
	uint64_t val;
	const char *name;
};

/* One of the tables in xlat/, for checks of their ordering rules. */
struct xlat_table {
	const char *name;
	int flags;		/* a table of bits (1) or of values (0) */
	const struct xlat *tab;
	size_t n;
};

/* Every table; static data. */
const struct xlat_table *xlat_tables(size_t *n);

/*
 * Write the names of the bits of v found in tab (tab order: multi-bit
 * entries before the single bits they contain), joined by '|', leftover bits
 * as |0x..., "0" when v is 0 and tab has no 0 entry. snprintf semantics:
 * returns the length the full text needs; buf is always NUL-terminated when len > 0.
 */
int xlat_flags(const struct xlat *tab, size_t n, uint64_t v, char *buf, size_t len);
/* The name of the value v, or v in decimal/hex (hex when hex != 0) when unknown. */
int xlat_value(const struct xlat *tab, size_t n, uint64_t v, int hex, char *buf, size_t len);
/* open(2) flags: access mode as a value, then the other bits. */
int xlat_open_flags(uint64_t v, char *buf, size_t len);
/* errno name ("ENOENT"), NULL when unknown. Static string. */
const char *xlat_errno(int err);
/*
 * What errno err means ("No such file or directory"), NULL when xlat_errno
 * does not know it either. Static string; the kernel-internal restart codes,
 * which libc has no text for, get one here.
 */
const char *xlat_errno_text(int err);
/* IORING_OP_* name without the prefix ("READ"), NULL when unknown. Static string. */
const char *xlat_uring_op(unsigned int op);

/* One function per argument kind; snprintf semantics like xlat_flags. */
int xlat_at_flags(uint64_t v, char *buf, size_t len);
int xlat_whence(uint64_t v, char *buf, size_t len);
int xlat_fcntl_cmd(uint64_t v, char *buf, size_t len);
int xlat_rename_flags(uint64_t v, char *buf, size_t len);
int xlat_falloc_flags(uint64_t v, char *buf, size_t len);
int xlat_fadvice(uint64_t v, char *buf, size_t len);
int xlat_flock_op(uint64_t v, char *buf, size_t len);
int xlat_mmap_prot(uint64_t v, char *buf, size_t len);
int xlat_mmap_flags(uint64_t v, char *buf, size_t len);
int xlat_msync_flags(uint64_t v, char *buf, size_t len);
int xlat_sfr_flags(uint64_t v, char *buf, size_t len);
int xlat_rwf_flags(uint64_t v, char *buf, size_t len);
int xlat_xattr_flags(uint64_t v, char *buf, size_t len);
int xlat_statx_mask(uint64_t v, char *buf, size_t len);
int xlat_close_range_flags(uint64_t v, char *buf, size_t len);
int xlat_splice_flags(uint64_t v, char *buf, size_t len);
int xlat_uring_enter_flags(uint64_t v, char *buf, size_t len);
int xlat_access_mode(uint64_t v, char *buf, size_t len);
int xlat_dup3_flags(uint64_t v, char *buf, size_t len);
int xlat_unlink_flags(uint64_t v, char *buf, size_t len);
/* A mode with its file type, as mknod takes it: "S_IFCHR|0600"; "0644" without a type. */
int xlat_mode(uint64_t v, char *buf, size_t len);
/* fcntl arguments and results: FD_CLOEXEC; F_RDLCK/F_WRLCK/F_UNLCK; F_SEAL_*. */
int xlat_fd_flags(uint64_t v, char *buf, size_t len);
int xlat_lease(uint64_t v, char *buf, size_t len);
int xlat_seals(uint64_t v, char *buf, size_t len);

#endif
