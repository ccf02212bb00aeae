/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What analyzers need to know about system calls and records: the kind of
 * each call (looked up by name through the host, so numbers stay the host's
 * business), which argument holds its fd, and evidence excerpts: a few calls
 * formatted as the console prints them, with their time of day.
 */
#ifndef DIO_ANALYZER_CALLS_H
#define DIO_ANALYZER_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <dio/plugin.h>

enum call_kind {
	CALL_OTHER = 0,
	CALL_READ,	/* read, readv, pread64, preadv, preadv2 */
	CALL_WRITE,	/* write, writev, pwrite64, pwritev, pwritev2 */
	CALL_OPEN,	/* open, openat, openat2, creat: the result is an fd */
	CALL_CLOSE,
	CALL_SEEK,	/* lseek */
	CALL_SYNC,	/* fsync, fdatasync, sync_file_range */
	CALL_STAT,	/* stat, lstat, fstat, newfstatat, statx, access, faccessat(2) */
	CALL_UNLINK,	/* unlink, unlinkat */
	CALL_RENAME,	/* rename, renameat, renameat2 */
	CALL_TRUNCATE,	/* truncate, ftruncate */
	CALL_KINDS
};

/* call_kinds.flags[nr] */
#define CALL_POSITIONAL	0x1	/* p-variant: reads or writes at an offset argument, the fd's offset stays */

struct call_kinds {
	uint8_t kind[DIO_NR_MAX];
	uint8_t flags[DIO_NR_MAX];
};

/* Fill k from the host's system call names. */
void call_kinds_init(struct call_kinds *k, const struct dio_host *host);

static inline enum call_kind call_kind(const struct call_kinds *k, uint32_t nr)
{
	return nr < DIO_NR_MAX ? (enum call_kind)k->kind[nr] : CALL_OTHER;
}

/* file tags in a stable order (device, inode number, generation): for sorting findings */
static inline int file_tag_cmp(const struct dio_file_tag *a, const struct dio_file_tag *b)
{
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	if (a->gen != b->gen)
		return a->gen < b->gen ? -1 : 1;
	return 0;
}

/*
 * Up to max_lines calls, one per line, "HH:MM:SS.micro [pid/tid comm] call(...) = ret <dur>",
 * then "... N more" once lines were left out. Fixed size: one per candidate finding.
 */
#define EXCERPT_SIZE	2048

struct excerpt {
	char text[EXCERPT_SIZE];
	uint32_t len;		/* bytes in text */
	uint32_t lines;
	uint64_t more;		/* calls not added: over max_lines or no room */
};

void excerpt_reset(struct excerpt *x);
void excerpt_add(struct excerpt *x, const struct dio_host *host, struct dio_ctx *ctx,
		 const struct dio_ev_hdr *ev, uint32_t max_lines);
/* The same with more DIO_FMT_* flags, e.g. DIO_FMT_DETAILS for the offset and file tag. */
void excerpt_add_fmt(struct excerpt *x, const struct dio_host *host, struct dio_ctx *ctx,
		     const struct dio_ev_hdr *ev, uint32_t max_lines, uint32_t flags);
/* The text, with the "... N more" line when calls were left out; NUL-terminated in x. */
const char *excerpt_text(struct excerpt *x);

/*
 * Copy a record into room bytes at dst (8-byte aligned) to put into an excerpt
 * later. A syscall record too long for room loses its string arguments (they
 * print as pointers) and its content tail. Returns the bytes copied, 0 when
 * even that does not fit.
 */
size_t rec_copy(void *dst, size_t room, const struct dio_ev_hdr *ev);

/*
 * The path of a file tag as the host knows it, or "<tag MAJ:MIN|INO|GEN>" when
 * its path never arrived; into buf (snprintf semantics), which is returned.
 * The path is escaped (dio_escape): a label is for titles and messages,
 * never for dio_finding.path, which takes the path as it is.
 */
const char *file_label(const struct dio_host *host, struct dio_ctx *ctx,
		       const struct dio_file_tag *tag, char *buf, size_t len);

/* A thread name (at most DIO_COMM_LEN bytes) escaped for a title or message; buf is returned. */
#define COMM_LABEL_LEN	(4 * DIO_COMM_LEN + 1)
const char *comm_label(const char *comm, char buf[COMM_LABEL_LEN]);

/* A span of time for a title: "2.50 s", "12.3 ms", "480 us"; into buf, which is returned. */
const char *span_text(uint64_t ns, char *buf, size_t len);

/*
 * A table an analyzer keeps, for tables_report(): what it lost, said as
 * "N <what>", the option that sizes it and its size. TABLE_USE fills one from
 * a struct table (analyzers/common/table.h), whose loss is its returned keys.
 */
struct table_use {
	uint64_t lost;
	const char *what;	/* "(process, path) pairs came back after they were pushed out" */
	const char *option;	/* "max_files" */
	size_t max;
};

#define TABLE_USE(table, holds, opt) \
	{ TABLE_LOST(table), holds " came back after they were pushed out", opt, (table)->max }

/*
 * Report CODE (NAME.table-full, a warning) when any of the n tables lost at
 * least TABLE_RETURNED_MIN entries (for a struct table: keys that came back
 * after they had been pushed out): what the analyzer had seen of them was
 * lost, so it may have missed a pattern spread over more of them than the
 * table holds, and a gate on its findings would pass a run it should fail.
 * The finding names each such table, how many and a value of its option to
 * try. 0 or -errno.
 */
int tables_report(const struct dio_host *host, struct dio_ctx *ctx, const char *code,
		  const char *analyzer, const struct table_use *u, size_t n);

/* The rule of tables_report's finding for an analyzer NAME, options OPTS ("max_files, ...") */
#define TABLE_FULL_RULE(name, opts) {						\
	name ".table-full", DIO_SEV_WARNING, 0,					\
	"The analyzer's tables were too small for this trace",			\
	"Entries of a table the analyzer sizes at start (" opts ") came back "	\
	"after they had been pushed out to make room, at least 64 times: what "	\
	"it had seen of them was lost.",					\
	"A pattern spread over more files, processes or threads than the "	\
	"table holds may have gone unreported, so a run that passes a gate on "	\
	"the findings proves less than it seems. Raise the option the finding "	\
	"names (--analyzer " name ":OPTION=N; each entry costs some hundred "	\
	"bytes), or trace less at once (-p, --path).",				\
}

#endif
