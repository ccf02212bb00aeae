// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/table.h"	/* TABLE_RETURNED_MIN */

static const struct {
	const char *name;
	uint8_t kind, flags;
} names[] = {
	{ "read", CALL_READ, 0 }, { "readv", CALL_READ, 0 },
	{ "pread64", CALL_READ, CALL_POSITIONAL }, { "preadv", CALL_READ, CALL_POSITIONAL },
	{ "preadv2", CALL_READ, CALL_POSITIONAL },
	{ "write", CALL_WRITE, 0 }, { "writev", CALL_WRITE, 0 },
	{ "pwrite64", CALL_WRITE, CALL_POSITIONAL }, { "pwritev", CALL_WRITE, CALL_POSITIONAL },
	{ "pwritev2", CALL_WRITE, CALL_POSITIONAL },
	{ "open", CALL_OPEN, 0 }, { "openat", CALL_OPEN, 0 }, { "openat2", CALL_OPEN, 0 },
	{ "creat", CALL_OPEN, 0 },
	{ "close", CALL_CLOSE, 0 },
	{ "lseek", CALL_SEEK, 0 },
	{ "fsync", CALL_SYNC, 0 }, { "fdatasync", CALL_SYNC, 0 },
	{ "sync_file_range", CALL_SYNC, 0 },
	{ "stat", CALL_STAT, 0 }, { "lstat", CALL_STAT, 0 }, { "fstat", CALL_STAT, 0 },
	{ "newfstatat", CALL_STAT, 0 }, { "statx", CALL_STAT, 0 }, { "access", CALL_STAT, 0 },
	{ "faccessat", CALL_STAT, 0 }, { "faccessat2", CALL_STAT, 0 },
	{ "unlink", CALL_UNLINK, 0 }, { "unlinkat", CALL_UNLINK, 0 },
	{ "rename", CALL_RENAME, 0 }, { "renameat", CALL_RENAME, 0 },
	{ "renameat2", CALL_RENAME, 0 },
	{ "truncate", CALL_TRUNCATE, 0 }, { "ftruncate", CALL_TRUNCATE, 0 },
};

void call_kinds_init(struct call_kinds *k, const struct dio_host *host)
{
	memset(k, 0, sizeof(*k));
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const char *n = host->syscall_name(nr);

		for (size_t i = 0; n && i < sizeof(names) / sizeof(names[0]); i++) {
			if (!strcmp(n, names[i].name)) {
				k->kind[nr] = names[i].kind;
				k->flags[nr] = names[i].flags;
				break;
			}
		}
	}
}

void excerpt_reset(struct excerpt *x)
{
	x->len = 0;
	x->lines = 0;
	x->more = 0;
	x->text[0] = 0;
}

/* room kept for the "... N more" line */
#define MORE_ROOM	40

void excerpt_add(struct excerpt *x, const struct dio_host *host, struct dio_ctx *ctx,
		 const struct dio_ev_hdr *ev, uint32_t max_lines)
{
	excerpt_add_fmt(x, host, ctx, ev, max_lines, 0);
}

void excerpt_add_fmt(struct excerpt *x, const struct dio_host *host, struct dio_ctx *ctx,
		     const struct dio_ev_hdr *ev, uint32_t max_lines, uint32_t flags)
{
	size_t room = sizeof(x->text) - MORE_ROOM - x->len;
	int n;

	if (x->lines >= max_lines || room < 2) {
		x->more++;
		return;
	}
	/* in UTC: an excerpt goes into files that must not depend on where they were made */
	n = host->format_event(ctx, ev, DIO_FMT_TIME_TT | DIO_FMT_UTC | DIO_FMT_TID |
			       DIO_FMT_DURATION | flags,
			       x->text + x->len, room - 1);
	if (n < 0 || (size_t)n >= room - 1) {
		/* would not fit whole: leave it out rather than cut a line */
		x->text[x->len] = 0;
		x->more++;
		return;
	}
	x->len += (uint32_t)n;
	x->text[x->len++] = '\n';
	x->text[x->len] = 0;
	x->lines++;
}

const char *excerpt_text(struct excerpt *x)
{
	size_t len = x->len;

	if (x->more)
		snprintf(x->text + len, sizeof(x->text) - len, "... %" PRIu64 " more\n", x->more);
	else
		x->text[len] = 0;
	return x->text;
}

size_t rec_copy(void *dst, size_t room, const struct dio_ev_hdr *ev)
{
	struct dio_ev_syscall *e = dst;

	if (ev->size <= room) {
		memcpy(dst, ev, ev->size);
		return ev->size;
	}
	if (ev->type != DIO_EV_SYSCALL || room < sizeof(*e))
		return 0;
	memcpy(e, ev, sizeof(*e));
	e->hdr.size = sizeof(*e);
	e->flags &= (uint8_t)~(DIO_SF_HASH | DIO_SF_STR0_TRUNC | DIO_SF_STR1_TRUNC);
	e->str_len[0] = 0;
	e->str_len[1] = 0;
	return sizeof(*e);
}

const char *file_label(const struct dio_host *host, struct dio_ctx *ctx,
		       const struct dio_file_tag *tag, char *buf, size_t len)
{
	const char *path = host->tag_path(ctx, tag);
	char t[DIO_FILE_TAG_LEN];

	if (path) {
		dio_escape(path, strlen(path), 0, buf, len);
	} else {
		dio_file_tag_format(tag, t, sizeof(t));
		snprintf(buf, len, "<tag %s>", t);
	}
	return buf;
}

const char *comm_label(const char *comm, char buf[COMM_LABEL_LEN])
{
	dio_escape(comm, DIO_COMM_LEN, 0, buf, COMM_LABEL_LEN);
	return buf;
}

const char *span_text(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%" PRIu64 " us", ns / 1000);
	return buf;
}

int tables_report(const struct dio_host *host, struct dio_ctx *ctx, const char *code,
		  const char *analyzer, const struct table_use *u, size_t n)
{
	char title[512], raise[512], msg[1024];
	size_t tl = 0, rl = 0;
	uint64_t returned = 0;

	for (size_t i = 0; i < n; i++) {
		size_t want = 1;

		if (u[i].lost < TABLE_RETURNED_MIN)
			continue;
		/* room for what was held and what was lost, rounded up to a power of two */
		while (want < u[i].max + u[i].lost && want < ((size_t)1 << 30))
			want <<= 1;
		tl += snprintf(title + tl, tl < sizeof(title) ? sizeof(title) - tl : 0,
			       "%s%" PRIu64 " %s (%s=%zu)", returned ? "; " : "", u[i].lost,
			       u[i].what, u[i].option, u[i].max);
		rl += snprintf(raise + rl, rl < sizeof(raise) ? sizeof(raise) - rl : 0,
			       "%s%s%s=%zu", returned ? "," : analyzer, returned ? "" : ":",
			       u[i].option, want);
		returned += u[i].lost;
	}
	if (!returned)
		return 0;
	snprintf(msg, sizeof(msg),
		 "The analyzer's tables were too small for this trace: what it had seen of these "
		 "entries was lost, so a pattern spread over more of them than a table holds may "
		 "have gone unreported, and a gate on its findings proves less than it seems. "
		 "Raise them (--analyzer %s) or trace less at once (-p, --path).", raise);
	return host->emit_finding(ctx, &(struct dio_finding){
		.size = sizeof(struct dio_finding),
		.severity = DIO_SEV_WARNING,
		.code = code,
		.title = title,
		.message = msg,
		.count = returned,
	});
}
