// SPDX-License-Identifier: GPL-2.0-or-later
/* strace-like text for dio's records. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <dio/plugin.h>
#include "format.h"
#include "syscalls.h"
#include "xlat.h"

#define AT_FDCWD_VAL	-100

/* Output cursor: writes while there is room, counts what the whole text needs. */
struct out {
	char *buf;
	size_t len;
	size_t off;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->off < o->len ? o->buf + o->off : NULL, o->off < o->len ? o->len - o->off : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		o->off += n;
}

/* an xlat function writing at the cursor */
static void put_x(struct out *o, int (*fn)(uint64_t, char *, size_t), uint64_t v)
{
	int n = fn(v, o->off < o->len ? o->buf + o->off : NULL, o->off < o->len ? o->len - o->off : 0);

	if (n > 0)
		o->off += n;
}

/* a C string (stops at NUL) or, with bin, n bytes of data */
static void put_bytes(struct out *o, const char *s, size_t n, int trunc, int bin)
{
	put(o, "\"");
	for (size_t i = 0; i < n && (bin || s[i]); i++) {
		unsigned char c = s[i];

		switch (c) {
		case '"': put(o, "\\\""); break;
		case '\\': put(o, "\\\\"); break;
		case '\n': put(o, "\\n"); break;
		case '\t': put(o, "\\t"); break;
		case '\r': put(o, "\\r"); break;
		case 0: put(o, "\\0"); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				put(o, "\\x%02x", c);
			else
				put(o, "%c", c);
		}
	}
	put(o, "\"%s", trunc ? "..." : "");
}

static void put_str(struct out *o, const char *s, size_t n, int trunc)
{
	put_bytes(o, s, n, trunc, 0);
}

int format_tag(const struct dio_file_tag *tag, char *buf, size_t len)
{
	return snprintf(buf, len, "%u:%u|%llu|%u", tag->dev >> 20, tag->dev & 0xfffff,
			(unsigned long long)tag->ino, tag->gen);
}

const char *format_ftype(unsigned int ftype)
{
	switch (ftype) {
	case DIO_FT_REG: return "reg";
	case DIO_FT_DIR: return "dir";
	case DIO_FT_SOCK: return "sock";
	case DIO_FT_FIFO: return "fifo";
	case DIO_FT_CHR: return "chr";
	case DIO_FT_BLK: return "blk";
	case DIO_FT_LNK: return "lnk";
	case DIO_FT_ANON: return "anon";
	default: return "-";
	}
}

static void put_tag(struct out *o, const struct dio_file_tag *tag)
{
	char t[64];

	format_tag(tag, t, sizeof(t));
	put(o, "%s", t);
}

static void put_prefix(const struct fmt_ctx *fc, struct out *o, uint64_t ts, uint32_t pid,
		       uint32_t tid, const char *comm)
{
	if (fc->flags & (DIO_FMT_TIME_T | DIO_FMT_TIME_TT | DIO_FMT_TIME_TTT)) {
		int64_t ns = (int64_t)ts + fc->realtime_off;
		time_t sec = ns / 1000000000;
		long usec = (ns % 1000000000) / 1000;
		struct tm tm;

		if (fc->flags & DIO_FMT_TIME_TTT) {
			put(o, "%lld.%06ld ", (long long)sec, usec);
		} else {
			localtime_r(&sec, &tm);
			put(o, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
			if (fc->flags & DIO_FMT_TIME_TT)
				put(o, ".%06ld", usec);
			put(o, " ");
		}
	}
	if (fc->flags & DIO_FMT_TID)
		put(o, "[%u/%u %.*s] ", pid, tid, DIO_COMM_LEN, comm);
}

/* fd with its path, strace -y style, when it is the file the record describes */
static void put_fd(const struct fmt_ctx *fc, struct out *o, int64_t fd, int has_file, int32_t evfd,
		   const struct dio_file_tag *tag)
{
	const char *path;

	put(o, "%lld", (long long)fd);
	if (!has_file || fd != evfd)
		return;
	path = fc->path_of ? fc->path_of(fc->ud, tag) : NULL;
	if (path) {
		put(o, "<");
		/* paths are printed raw, as strace -y does */
		put(o, "%s", path);
		put(o, ">");
	} else {
		put(o, "<tag ");
		put_tag(o, tag);
		put(o, ">");
	}
}

static void put_errno(struct out *o, int64_t ret)
{
	const char *name = xlat_errno((int)-ret);

	if (name)
		put(o, "-1 %s (%s)", name, strerror((int)-ret));
	else
		put(o, "-1 errno %lld", (long long)-ret);
}

static void put_ptr(struct out *o, uint64_t v)
{
	if (v)
		put(o, "%#llx", (unsigned long long)v);
	else
		put(o, "NULL");
}

static int format_syscall(const struct fmt_ctx *fc, const struct dio_ev_syscall *ev,
			  struct out *o)
{
	const struct dio_syscall *sc = syscall_by_nr(ev->nr);
	const char *strs[2];
	int has_file = !!(ev->flags & DIO_SF_FILE), nstr = 0, first = 1;
	static const uint8_t trunc_flag[2] = { DIO_SF_STR0_TRUNC, DIO_SF_STR1_TRUNC };
	static const uint8_t fault_flag[2] = { DIO_SF_STR0_FAULT, DIO_SF_STR1_FAULT };

	if ((size_t)sizeof(*ev) + ev->str_len[0] + ev->str_len[1] > ev->hdr.size)
		return -EINVAL;
	strs[0] = (const char *)(ev + 1);
	strs[1] = strs[0] + ev->str_len[0];
	put_prefix(fc, o, ev->hdr.ts, ev->pid, ev->tid, ev->comm);
	if (!sc) {
		put(o, "syscall_%u(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx) = %lld", ev->nr,
		    (unsigned long long)ev->args[0], (unsigned long long)ev->args[1],
		    (unsigned long long)ev->args[2], (unsigned long long)ev->args[3],
		    (unsigned long long)ev->args[4], (unsigned long long)ev->args[5],
		    (long long)ev->ret);
		goto tail;
	}
	put(o, "%s(", sc->name);
	for (int i = 0; i < sc->nargs && i < 6; i++) {
		uint64_t v = ev->args[i];

		if (sc->args[i] == A_SKIP)
			continue;
		if (!first)
			put(o, ", ");
		first = 0;
		switch (sc->args[i]) {
		case A_INT: put(o, "%lld", (long long)(int64_t)v); break;
		case A_UINT: put(o, "%llu", (unsigned long long)v); break;
		case A_HEX: put(o, "%#llx", (unsigned long long)v); break;
		case A_PTR: case A_OPENHOW: case A_OFFPTR: put_ptr(o, v); break;
		case A_FD: put_fd(fc, o, (int)v, has_file, ev->fd, &ev->tag); break;
		case A_DIRFD:
			if ((int)v == AT_FDCWD_VAL)
				put(o, "AT_FDCWD");
			else
				put_fd(fc, o, (int)v, has_file, ev->fd, &ev->tag);
			break;
		case A_STR:
			if (nstr < 2 && ev->str_len[nstr] && !(ev->flags & fault_flag[nstr]))
				put_str(o, strs[nstr], ev->str_len[nstr],
					ev->flags & trunc_flag[nstr]);
			else
				put_ptr(o, v);
			nstr++;
			break;
		case A_OPEN_FLAGS: put_x(o, xlat_open_flags, (uint32_t)v); break;
		case A_MODE:
			/* open's mode means something only when a file may be created */
			if (i > 0 && sc->args[i - 1] == A_OPEN_FLAGS &&
			    !(ev->args[i - 1] & (O_CREAT | __O_TMPFILE))) {
				o->off -= 2;	/* the ", " already written */
				if (o->off < o->len)
					o->buf[o->off] = 0;
				break;
			}
			put(o, "%#03llo", (unsigned long long)(v & 07777));
			break;
		case A_WHENCE: put_x(o, xlat_whence, (uint32_t)v); break;
		case A_FCNTL_CMD: put_x(o, xlat_fcntl_cmd, (uint32_t)v); break;
		case A_AT_FLAGS: put_x(o, xlat_at_flags, (uint32_t)v); break;
		case A_RENAME_FLAGS: put_x(o, xlat_rename_flags, (uint32_t)v); break;
		case A_ACCESS_MODE: put_x(o, xlat_access_mode, (uint32_t)v); break;
		case A_FALLOC_MODE: put_x(o, xlat_falloc_flags, (uint32_t)v); break;
		case A_FADVICE: put_x(o, xlat_fadvice, (uint32_t)v); break;
		case A_FLOCK_OP: put_x(o, xlat_flock_op, (uint32_t)v); break;
		case A_MMAP_PROT: put_x(o, xlat_mmap_prot, (uint32_t)v); break;
		case A_MMAP_FLAGS: put_x(o, xlat_mmap_flags, (uint32_t)v); break;
		case A_MSYNC_FLAGS: put_x(o, xlat_msync_flags, (uint32_t)v); break;
		case A_SFR_FLAGS: put_x(o, xlat_sfr_flags, (uint32_t)v); break;
		case A_RWF_FLAGS: put_x(o, xlat_rwf_flags, (uint32_t)v); break;
		case A_XATTR_FLAGS: put_x(o, xlat_xattr_flags, (uint32_t)v); break;
		case A_STATX_MASK: put_x(o, xlat_statx_mask, (uint32_t)v); break;
		case A_UNLINK_FLAGS: put_x(o, xlat_unlink_flags, (uint32_t)v); break;
		case A_CLOSE_RANGE_FLAGS: put_x(o, xlat_close_range_flags, (uint32_t)v); break;
		case A_SPLICE_FLAGS: put_x(o, xlat_splice_flags, (uint32_t)v); break;
		case A_URING_ENTER_FLAGS: put_x(o, xlat_uring_enter_flags, (uint32_t)v); break;
		case A_DUP3_FLAGS: put_x(o, xlat_dup3_flags, (uint32_t)v); break;
		case A_DEV:
			put(o, "makedev(%#llx, %#llx)", (unsigned long long)((v >> 8) & 0xfff),
			    (unsigned long long)((v & 0xff) | ((v >> 12) & 0xfff00)));
			break;
		default: put(o, "%#llx", (unsigned long long)v); break;
		}
	}
	put(o, ") = ");
	if (ev->ret < 0 && ev->ret >= -4095)
		put_errno(o, ev->ret);
	else if (sc->ret == R_FD)
		put_fd(fc, o, ev->ret, has_file, ev->fd, &ev->tag);
	else if (sc->ret == R_ADDR)
		put(o, "%#llx", (unsigned long long)ev->ret);
	else
		put(o, "%lld", (long long)ev->ret);
tail:
	if (fc->flags & DIO_FMT_DURATION)
		put(o, " <%llu.%06llu>", (unsigned long long)(ev->duration / 1000000000),
		    (unsigned long long)(ev->duration % 1000000000 / 1000));
	if ((fc->flags & DIO_FMT_DETAILS) && (ev->flags & (DIO_SF_OFFSET | DIO_SF_FILE | DIO_SF_HASH))) {
		const char *sep = "";

		put(o, " {");
		if (ev->flags & DIO_SF_OFFSET) {
			put(o, "off=%lld", (long long)ev->offset);
			sep = " ";
		}
		if (ev->flags & DIO_SF_FILE) {
			put(o, "%stype=%s tag=", sep, format_ftype(ev->ftype));
			put_tag(o, &ev->tag);
			sep = " ";
		}
		if (ev->flags & DIO_SF_HASH) {
			const struct dio_ev_content *ct =
				(const void *)(strs[1] + ev->str_len[1]);

			if ((const char *)(ct + 1) <= (const char *)ev + ev->hdr.size) {
				put(o, "%shash=%016llx/%u", sep, (unsigned long long)ct->hash,
				    ct->hashed_len);
				if (ct->data_len &&
				    (const char *)(ct + 1) + ct->data_len <= (const char *)ev + ev->hdr.size) {
					put(o, " data=");
					put_bytes(o, (const char *)(ct + 1), ct->data_len, 0, 1);
				}
			}
		}
		put(o, "}");
	}
	return 0;
}

static int format_path(const struct fmt_ctx *fc, const struct dio_ev_path *p, struct out *o)
{
	if (sizeof(*p) + p->len > p->hdr.size)
		return -EINVAL;
	put_prefix(fc, o, p->hdr.ts, p->pid, p->pid, "");
	put(o, "path ");
	put_tag(o, &p->tag);
	put(o, " %s ", format_ftype(p->ftype));
	put_str(o, (const char *)(p + 1), p->len, p->flags & DIO_PF_TRUNC);
	if (p->flags & DIO_PF_RENAMED)
		put(o, " (renamed)");
	if (p->flags & DIO_PF_DELETED)
		put(o, " (deleted)");
	return 0;
}

static int format_uring(const struct fmt_ctx *fc, const struct dio_ev_iouring *u, struct out *o)
{
	const char *op = xlat_uring_op(u->opcode);
	int has_file = !!(u->flags & DIO_IF_FILE);

	put_prefix(fc, o, u->hdr.ts, u->pid, u->tid, u->comm);
	if (op)
		put(o, "io_uring %s(", op);
	else
		put(o, "io_uring OP_%u(", u->opcode);
	if (u->flags & DIO_IF_FIXED) {
		put(o, "fixed %d", u->fd);
		if (has_file) {
			const char *path = fc->path_of ? fc->path_of(fc->ud, &u->tag) : NULL;

			put(o, "<%s>", path ? path : "?");
		}
	} else {
		put(o, "fd ");
		put_fd(fc, o, u->fd, has_file, u->fd, &u->tag);
	}
	put(o, ", off=%llu, len=%u) = ", (unsigned long long)u->offset, u->len);
	if (u->res < 0 && u->res >= -4095)
		put_errno(o, u->res);
	else
		put(o, "%lld", (long long)u->res);
	if (fc->flags & DIO_FMT_DURATION)
		put(o, " <%llu.%06llu>", (unsigned long long)(u->duration / 1000000000),
		    (unsigned long long)(u->duration % 1000000000 / 1000));
	if ((fc->flags & DIO_FMT_DETAILS) && has_file) {
		put(o, " {type=%s tag=", format_ftype(u->ftype));
		put_tag(o, &u->tag);
		put(o, "}");
	}
	return 0;
}

static int format_proc(const struct fmt_ctx *fc, const struct dio_ev_proc *p, struct out *o)
{
	put_prefix(fc, o, p->hdr.ts, p->pid, p->tid, p->comm);
	switch (p->kind) {
	case DIO_PROC_FORK:
		put(o, "+++ %s %u/%u +++", p->flags & DIO_PROCF_THREAD ? "thread" : "fork child",
		    p->other_pid, p->other_tid);
		break;
	case DIO_PROC_EXEC:
		put(o, "+++ exec ");
		put_str(o, p->comm, DIO_COMM_LEN, 0);
		put(o, " +++");
		break;
	case DIO_PROC_EXIT:
		if (p->exit_code & 0x7f)
			put(o, "+++ killed by signal %d +++", p->exit_code & 0x7f);
		else
			put(o, "+++ exited with %d +++", (p->exit_code >> 8) & 0xff);
		break;
	case DIO_PROC_RENAME:
		put(o, "+++ renamed ");
		put_str(o, p->comm, DIO_COMM_LEN, 0);
		put(o, " +++");
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

int format_event(const struct fmt_ctx *fc, const struct dio_ev_hdr *ev, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };
	int e;

	if (len)
		buf[0] = 0;
	switch (ev->type) {
	case DIO_EV_SYSCALL:
		if (ev->size < sizeof(struct dio_ev_syscall))
			return -EINVAL;
		e = format_syscall(fc, (const void *)ev, &o);
		break;
	case DIO_EV_PATH:
		if (ev->size < sizeof(struct dio_ev_path))
			return -EINVAL;
		e = format_path(fc, (const void *)ev, &o);
		break;
	case DIO_EV_IOURING:
		if (ev->size < sizeof(struct dio_ev_iouring))
			return -EINVAL;
		e = format_uring(fc, (const void *)ev, &o);
		break;
	case DIO_EV_PROC:
		if (ev->size < sizeof(struct dio_ev_proc))
			return -EINVAL;
		e = format_proc(fc, (const void *)ev, &o);
		break;
	default:
		return -EINVAL;
	}
	if (e)
		return e;
	if (len && o.off >= len)
		buf[len - 1] = 0;
	return (int)o.off;
}
