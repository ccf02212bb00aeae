// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Records from outside the host, checked once (see record.h). What a record
 * must be is what dio's BPF programs produce: a string argument is what
 * bpf_probe_read_user_str() copied, NUL included, or nothing when it could
 * not be read; a path ends with the NUL the walk put after it; the sizes add
 * up exactly. A check here must never refuse a record the kernel side can
 * make: the integration tests trace for real through it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <dio/event.h>
#include "record.h"

static int refuse(const char **why, const char *text)
{
	if (why)
		*why = text;
	return -EINVAL;
}

/* the kernel's file types (S_IFMT >> 12), and anon inodes */
static int ftype_known(unsigned int t)
{
	switch (t) {
	case DIO_FT_FIFO: case DIO_FT_CHR: case DIO_FT_DIR: case DIO_FT_BLK:
	case DIO_FT_REG: case DIO_FT_LNK: case DIO_FT_SOCK: case DIO_FT_ANON:
		return 1;
	default:
		return 0;
	}
}

static int check_syscall(const struct dio_ev_syscall *ev, const char **why)
{
	static const uint8_t fault[2] = { DIO_SF_STR0_FAULT, DIO_SF_STR1_FAULT };
	const char *s = (const char *)(ev + 1);
	size_t size = sizeof(*ev);

	for (int i = 0; i < 2; i++) {
		size_t n = ev->str_len[i];

		if (n > DIO_PATH_MAX)
			return refuse(why, "a string argument longer than DIO_PATH_MAX");
		if (n && (ev->flags & fault[i]))
			return refuse(why, "a string argument that could not be read has bytes");
		if (size + n > ev->hdr.size)
			return refuse(why, "a string argument runs past the record's end");
		if (n && s[n - 1])
			return refuse(why, "a string argument does not end with its NUL");
		s += n;
		size += n;
	}
	if (ev->flags & DIO_SF_HASH) {
		struct dio_ev_content ct;

		if (size + sizeof(ct) > ev->hdr.size)
			return refuse(why, "the content tail runs past the record's end");
		memcpy(&ct, s, sizeof(ct));	/* after strings of any length: unaligned */
		if (ct.data_len > DIO_PATH_MAX)
			return refuse(why, "more content data than DIO_PATH_MAX");
		size += sizeof(ct) + ct.data_len;
		if (size > ev->hdr.size)
			return refuse(why, "the content data runs past the record's end");
	}
	if (size != ev->hdr.size)
		return refuse(why, "bytes after the strings and content");
	if ((ev->flags & DIO_SF_FILE) && !ftype_known(ev->ftype))
		return refuse(why, "an unknown file type");
	return 0;
}

static int check_path(const struct dio_ev_path *p, const char **why)
{
	const char *path = (const char *)(p + 1);

	if (!p->len || p->len > DIO_PATH_MAX)
		return refuse(why, "a path of no bytes or longer than DIO_PATH_MAX");
	if (sizeof(*p) + p->len != p->hdr.size)
		return refuse(why, "a path that does not end where the record does");
	if (path[p->len - 1])
		return refuse(why, "a path that does not end with its NUL");
	if (!ftype_known(p->ftype))
		return refuse(why, "an unknown file type");
	return 0;
}

int record_check(const void *rec, size_t avail, unsigned int flags, const char **why)
{
	static const size_t min_size[DIO_EV_MAX] = {
		[DIO_EV_SYSCALL] = sizeof(struct dio_ev_syscall),
		[DIO_EV_PATH] = sizeof(struct dio_ev_path),
		[DIO_EV_IOURING] = sizeof(struct dio_ev_iouring),
		[DIO_EV_PROC] = DIO_EV_PROC_SIZE_V1,	/* older recordings: the host pads them */
		[DIO_EV_BLOCK] = sizeof(struct dio_ev_block),
		[DIO_EV_RUNQ] = sizeof(struct dio_ev_runq),
		[DIO_EV_OFD] = sizeof(struct dio_ev_ofd),
	};
	const struct dio_ev_hdr *h = rec;

	if (avail < sizeof(*h) || h->size < sizeof(*h))
		return refuse(why, "shorter than a record header");
	if (h->size > avail)
		return refuse(why, "a size larger than the bytes read");
	if (!h->type || h->type >= DIO_EV_MAX)
		return refuse(why, "an unknown record type");
	if (h->type == DIO_EV_OFD && !(flags & RECORD_HOST_MADE))
		return refuse(why, "a record type only dio itself makes");
	if (h->size < min_size[h->type])
		return refuse(why, "shorter than its type's struct");
	switch (h->type) {
	case DIO_EV_SYSCALL:
		return check_syscall(rec, why);
	case DIO_EV_PATH:
		return check_path(rec, why);
	case DIO_EV_IOURING: {
		const struct dio_ev_iouring *u = rec;

		if ((u->flags & DIO_IF_FILE) && !ftype_known(u->ftype))
			return refuse(why, "an unknown file type");
		return 0;
	}
	case DIO_EV_PROC: {
		const struct dio_ev_proc *p = rec;

		if (p->kind < DIO_PROC_FORK || p->kind > DIO_PROC_RENAME)
			return refuse(why, "an unknown process event");
		return 0;
	}
	case DIO_EV_OFD: {
		const struct dio_ev_ofd *o = rec;

		if (o->how < DIO_OFD_CLOSE || o->how > DIO_OFD_END)
			return refuse(why, "an unknown way for a description to end");
		if ((o->flags & DIO_OFDF_FILE) && !ftype_known(o->ftype))
			return refuse(why, "an unknown file type");
		return 0;
	}
	default:
		return 0;
	}
}

uint64_t record__made_at(const void *rec, size_t size)
{
	const struct dio_ev_hdr *h = rec;

	if (size < sizeof(*h))
		return 0;
	switch (h->type) {
	case DIO_EV_SYSCALL:
		if (size >= sizeof(struct dio_ev_syscall))
			return h->ts + ((const struct dio_ev_syscall *)rec)->duration;
		break;
	case DIO_EV_IOURING:
		if (size >= sizeof(struct dio_ev_iouring))
			return h->ts + ((const struct dio_ev_iouring *)rec)->duration;
		break;
	case DIO_EV_BLOCK:
		if (size >= sizeof(struct dio_ev_block))
			return h->ts + ((const struct dio_ev_block *)rec)->duration;
		break;
	case DIO_EV_RUNQ:
		if (size >= sizeof(struct dio_ev_runq))
			return h->ts + ((const struct dio_ev_runq *)rec)->delay;
		break;
	}
	return h->ts;
}
