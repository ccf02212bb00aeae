// SPDX-License-Identifier: GPL-2.0-or-later
/* strace-like text for dio's records. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <dio/plugin.h>
#include "format.h"
#include "syscalls.h"
#include "xlat.h"

/* fcntl commands glibc does not name (see xlat/fcntl_cmds.h) */
#ifndef F_GETOWNER_UIDS
#define F_GETOWNER_UIDS		17
#endif
#ifndef F_DUPFD_QUERY
#define F_DUPFD_QUERY		1027
#endif
#ifndef F_CREATED_QUERY
#define F_CREATED_QUERY		1028
#endif

/* the largest -errno a call returns; below it, a negative return is a value */

/*
 * Output cursor: writes while there is room and counts what the whole line
 * needs. The text may end without a NUL; format__event() puts the one NUL.
 */
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
	n = vsnprintf(o->off < o->len ? o->buf + o->off : NULL,
		      o->off < o->len ? o->len - o->off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->off += n;
}

static inline void put_mem(struct out *o, const char *s, size_t n)
{
	if (o->off < o->len)
		memcpy(o->buf + o->off, s, n < o->len - o->off ? n : o->len - o->off);
	o->off += n;
}

static inline void put_str(struct out *o, const char *s)
{
	put_mem(o, s, strlen(s));
}

/*
 * Numbers without printf: a traced call prints several, and vfprintf was
 * most of a console session's CPU time. Digits are made right to left, two
 * at a time, in place: the divisions by 10 were then most of it.
 */
static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

static size_t ndigits(uint64_t v)
{
	size_t n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

static void put_u(struct out *o, uint64_t v)
{
	char b[20], *p;
	size_t n = ndigits(v), i = n;

	/* in the output when the digits fit, as they nearly always do */
	p = o->off < o->len && o->len - o->off >= n ? o->buf + o->off : b;
	while (v >= 100) {
		const char *d = two_digits + 2 * (v % 100);

		v /= 100;
		p[--i] = d[1];
		p[--i] = d[0];
	}
	if (v >= 10) {
		p[1] = two_digits[2 * v + 1];
		p[0] = two_digits[2 * v];
	} else {
		p[0] = (char)('0' + v);
	}
	if (p == b)
		put_mem(o, b, n);
	else
		o->off += n;
}

static void put_d(struct out *o, int64_t v)
{
	if (v < 0) {
		put_mem(o, "-", 1);
		put_u(o, 0 - (uint64_t)v);
	} else {
		put_u(o, (uint64_t)v);
	}
}

/* printf's %#llx: 0x and lowercase hex digits, "0" for 0 */
static void put_hex(struct out *o, uint64_t v)
{
	char b[18], *p = b + sizeof(b);

	if (!v) {
		put_mem(o, "0", 1);
		return;
	}
	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	put_mem(o, p, (size_t)(b + sizeof(b) - p));
}

/* the text of an xlat_* function at the cursor */
static void put_x(struct out *o, int (*fn)(uint64_t, char *, size_t), uint64_t v)
{
	int n = fn(v, o->off < o->len ? o->buf + o->off : NULL,
		   o->off < o->len ? o->len - o->off : 0);

	if (n > 0)
		o->off += n;
}

/* n bytes of s at the cursor as dio_escape() writes them (DIO_ESC_* flags) */
static void put_esc(struct out *o, const char *s, size_t n, unsigned int flags)
{
	o->off += dio_escape(s, n, flags, o->off < o->len ? o->buf + o->off : NULL,
			     o->off < o->len ? o->len - o->off : 0);
}

/* a string argument or path: "...", and ... after it when it was cut */
static void put_quoted(struct out *o, const char *s, size_t n, int cut)
{
	put_mem(o, "\"", 1);
	put_esc(o, s, n, DIO_ESC_QUOTE);
	put_str(o, cut ? "\"..." : "\"");
}

static void put_ptr(struct out *o, uint64_t v)
{
	if (v)
		put_hex(o, v);
	else
		put_str(o, "NULL");
}

const char *format_ftype_name(unsigned int ftype)
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
	default: return NULL;
	}
}

const char *format_ftype(unsigned int ftype)
{
	const char *name = format_ftype_name(ftype);

	return name ? name : "-";
}

/*
 * The text of the last thread's [pid/tid comm], the last file's <path> and
 * the last file tag, kept for the next line: a trace is mostly runs of calls
 * by one thread on one file, and rendering them again was a third of a line's
 * cost. One set for each thread that formats; each is looked up by all that
 * makes its text (a path by its bytes, as a path record may replace it).
 */
#define MEMO_PATH	256	/* longer paths are rendered every time */
struct memo_text {
	size_t n;		/* 0: nothing kept */
	char s[4 * MEMO_PATH + 2];
};
struct memo {
	uint32_t pid, tid;
	char comm[DIO_COMM_LEN];
	struct memo_text who;		/* [pid/tid comm] , as put_who writes it */
	struct dio_file_tag ptag;
	char path[MEMO_PATH];
	struct memo_text file;		/* <path> of ptag, path being its bytes */
	struct dio_file_tag ttag;
	struct memo_text tag;		/* ttag as put_tag_text writes it */
};
static _Thread_local struct memo memo;

/* text rendered into a memo: kept only when it fitted */
static void memo_keep(struct memo_text *m, const char *s, size_t n)
{
	m->n = n <= sizeof(m->s) ? n : 0;
	if (m->n)
		memcpy(m->s, s, n);
}

/* as dio_file_tag_format writes it */
static void put_tag_text(struct out *o, const struct dio_file_tag *tag)
{
	put_u(o, DIO_DEV_MAJOR(tag->dev));
	put_mem(o, ":", 1);
	put_u(o, DIO_DEV_MINOR(tag->dev));
	put_mem(o, "|", 1);
	put_u(o, tag->ino);
	put_mem(o, "|", 1);
	put_u(o, tag->gen);
}

static void put_tag(struct out *o, const struct dio_file_tag *tag)
{
	size_t at = o->off;

	if (memo.tag.n && dio_file_tag_eq(&memo.ttag, tag)) {
		put_mem(o, memo.tag.s, memo.tag.n);
		return;
	}
	put_tag_text(o, tag);
	if (o->off <= o->len) {
		memo.ttag = *tag;
		memo_keep(&memo.tag, o->buf + at, o->off - at);
	}
}

/* <path> of a file, strace -y style; <tag MAJ:MIN|INO|GEN> when its path never arrived */
static void put_file(const struct fmt_ctx *fc, struct out *o, const struct dio_file_tag *tag)
{
	const char *path = fc->path_of ? fc->path_of(fc->ud, tag) : NULL;
	size_t at = o->off, n;

	if (!path) {
		put_str(o, "<tag ");
		put_tag(o, tag);
		put_mem(o, ">", 1);
		return;
	}
	n = strnlen(path, MEMO_PATH);
	if (n < MEMO_PATH && memo.file.n && dio_file_tag_eq(&memo.ptag, tag) &&
	    !memcmp(memo.path, path, n + 1)) {
		put_mem(o, memo.file.s, memo.file.n);
		return;
	}
	put_mem(o, "<", 1);
	put_esc(o, path, n < MEMO_PATH ? n : strlen(path), 0);
	put_mem(o, ">", 1);
	if (n < MEMO_PATH && o->off <= o->len) {
		memo.ptag = *tag;
		memcpy(memo.path, path, n + 1);
		memo_keep(&memo.file, o->buf + at, o->off - at);
	}
}

/* an fd, with the path of file when the fd is known to be that file (file may be NULL) */
static void put_fd(const struct fmt_ctx *fc, struct out *o, int fd,
		   const struct dio_file_tag *file)
{
	put_d(o, fd);
	if (file && fd >= 0)
		put_file(fc, o, file);
}

static void put_errno(struct out *o, int64_t ret)
{
	int e = (int)-ret;
	const char *name = xlat_errno(e);

	if (name)
		put(o, "-1 %s (%s)", name, xlat_errno_text(e));
	else
		put(o, "-1 ERRNO_%d (Unknown error %d)", e, e);
}

static void put_duration(struct out *o, uint64_t ns)
{
	char us[6];
	uint64_t v = ns % 1000000000 / 1000;

	for (int i = 5; i >= 0; i--, v /= 10)
		us[i] = (char)('0' + v % 10);
	put_mem(o, " <", 2);
	put_u(o, ns / 1000000000);
	put_mem(o, ".", 1);
	put_mem(o, us, sizeof(us));
	put_mem(o, ">", 1);
}

/* time of day (-t, -tt) or epoch seconds (-ttt), then [pid/tid comm] (comm NULL: [pid]) */
static void put_prefix(const struct fmt_ctx *fc, struct out *o, uint64_t ts, uint32_t pid,
		       uint32_t tid, const char *comm)
{
	size_t at;

	if (fc->flags & (DIO_FMT_TIME_T | DIO_FMT_TIME_TT | DIO_FMT_TIME_TTT)) {
		/* wraps rather than overflows on a crafted timestamp or offset */
		int64_t ns = (int64_t)(ts + (uint64_t)fc->realtime_off);
		int64_t sec = ns / 1000000000, sub = ns % 1000000000;
		time_t t;
		struct tm tm;

		/* before 1970 only with a wrong clock offset: still a number that reads back */
		if (sub < 0) {
			sub += 1000000000;
			sec--;
		}
		if (fc->flags & DIO_FMT_TIME_TTT) {
			put(o, "%lld.%06lld ", (long long)sec, (long long)(sub / 1000));
		} else {
			t = (time_t)sec;
			if (!((fc->flags & DIO_FMT_UTC) ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
				memset(&tm, 0, sizeof(tm));
			put(o, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
			if (fc->flags & DIO_FMT_TIME_TT)
				put(o, ".%06lld", (long long)(sub / 1000));
			if (fc->flags & DIO_FMT_UTC)
				put_mem(o, "Z", 1);
			put_mem(o, " ", 1);
		}
	}
	if (!(fc->flags & DIO_FMT_TID))
		return;
	if (!comm) {
		put(o, "[%u] ", pid);
		return;
	}
	if (memo.who.n && memo.pid == pid && memo.tid == tid &&
	    !memcmp(memo.comm, comm, DIO_COMM_LEN)) {
		put_mem(o, memo.who.s, memo.who.n);
		return;
	}
	at = o->off;
	put_mem(o, "[", 1);
	put_u(o, pid);
	put_mem(o, "/", 1);
	put_u(o, tid);
	if (comm[0]) {
		put_mem(o, " ", 1);
		put_esc(o, comm, DIO_COMM_LEN, 0);
	}
	put_str(o, "] ");
	if (o->off <= o->len) {
		memo.pid = pid;
		memo.tid = tid;
		memcpy(memo.comm, comm, DIO_COMM_LEN);
		memo_keep(&memo.who, o->buf + at, o->off - at);
	}
}

/* ---- system calls -------------------------------------------------------- */

/* What fcntl's third argument is, by command. */
enum fcntl_arg {
	FA_NONE,	/* not used: not printed */
	FA_INT,
	FA_PTR,
	FA_HEX,
	FA_OPEN_FLAGS,
	FA_FD_FLAGS,
	FA_LEASE,
	FA_SEALS,
};

static enum fcntl_arg fcntl_arg(uint32_t cmd)
{
	switch (cmd) {
	case F_GETFD: case F_GETFL: case F_GETOWN: case F_GETSIG: case F_GETLEASE:
	case F_GETPIPE_SZ: case F_GET_SEALS: case F_CREATED_QUERY:
		return FA_NONE;
	case F_DUPFD: case F_DUPFD_CLOEXEC: case F_DUPFD_QUERY: case F_SETOWN: case F_SETSIG:
	case F_SETPIPE_SZ:
		return FA_INT;
	case F_GETLK: case F_SETLK: case F_SETLKW: case F_OFD_GETLK: case F_OFD_SETLK:
	case F_OFD_SETLKW: case F_GETOWN_EX: case F_SETOWN_EX: case F_GETOWNER_UIDS:
	case F_GET_RW_HINT: case F_SET_RW_HINT: case F_GET_FILE_RW_HINT: case F_SET_FILE_RW_HINT:
		return FA_PTR;
	case F_SETFL:
		return FA_OPEN_FLAGS;
	case F_SETFD:
		return FA_FD_FLAGS;
	case F_SETLEASE:
		return FA_LEASE;
	case F_ADD_SEALS:
		return FA_SEALS;
	default:
		return FA_HEX;
	}
}

static void put_fcntl_arg(struct out *o, uint32_t cmd, uint64_t v)
{
	switch (fcntl_arg(cmd)) {
	case FA_NONE: break;
	case FA_INT: put(o, "%d", (int)v); break;
	case FA_PTR: put_ptr(o, v); break;
	case FA_OPEN_FLAGS: put_x(o, xlat_open_flags, (uint32_t)v); break;
	case FA_FD_FLAGS: put_x(o, xlat_fd_flags, (uint32_t)v); break;
	case FA_LEASE: put_x(o, xlat_lease, (uint32_t)v); break;
	case FA_SEALS: put_x(o, xlat_seals, (uint32_t)v); break;
	case FA_HEX: put(o, "%#llx", (unsigned long long)v); break;
	}
}

/* fcntl results that are flags or a new fd; 0 when the plain number is all there is */
static int put_fcntl_ret(const struct fmt_ctx *fc, struct out *o,
			 const struct dio_ev_syscall *ev, const struct dio_file_tag *file)
{
	uint32_t cmd = (uint32_t)ev->args[1];
	unsigned long long r = (unsigned long long)ev->ret;

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		/* a new fd for the same file */
		put_fd(fc, o, (int)ev->ret, file);
		return 1;
	case F_GETFL:
		put(o, "%#llx (flags ", r);
		put_x(o, xlat_open_flags, r);
		put_mem(o, ")", 1);
		return 1;
	case F_GETFD:
	case F_GET_SEALS:
		if (!r)
			return 0;
		put(o, "%#llx (%s ", r, cmd == F_GETFD ? "flags" : "seals");
		put_x(o, cmd == F_GETFD ? xlat_fd_flags : xlat_seals, r);
		put_mem(o, ")", 1);
		return 1;
	case F_GETLEASE:
		put_x(o, xlat_lease, r);
		return 1;
	}
	return 0;
}

/* arguments strace leaves out: open's mode without O_CREAT or O_TMPFILE, unused fcntl words */
static int arg_hidden(const struct dio_syscall *sc, const struct dio_ev_syscall *ev, int i)
{
	if (sc->args[i] == A_SKIP)
		return 1;
	if (i == 0)
		return 0;
	if (sc->args[i] == A_MODE && sc->args[i - 1] == A_OPEN_FLAGS)
		return !(ev->args[i - 1] & (O_CREAT | (O_TMPFILE & ~O_DIRECTORY)));
	if (sc->args[i - 1] == A_FCNTL_CMD)
		return fcntl_arg((uint32_t)ev->args[i - 1]) == FA_NONE;
	return 0;
}

int (*format_arg_xlat(unsigned int kind))(uint64_t, char *, size_t)
{
	switch (kind) {
	case A_OPEN_FLAGS: return xlat_open_flags;
	case A_MODE: return xlat_mode;
	case A_WHENCE: return xlat_whence;
	case A_FCNTL_CMD: return xlat_fcntl_cmd;
	case A_AT_FLAGS: return xlat_at_flags;
	case A_RENAME_FLAGS: return xlat_rename_flags;
	case A_ACCESS_MODE: return xlat_access_mode;
	case A_FALLOC_MODE: return xlat_falloc_flags;
	case A_FADVICE: return xlat_fadvice;
	case A_FLOCK_OP: return xlat_flock_op;
	case A_MMAP_PROT: return xlat_mmap_prot;
	case A_MMAP_FLAGS: return xlat_mmap_flags;
	case A_MSYNC_FLAGS: return xlat_msync_flags;
	case A_SFR_FLAGS: return xlat_sfr_flags;
	case A_RWF_FLAGS: return xlat_rwf_flags;
	case A_XATTR_FLAGS: return xlat_xattr_flags;
	case A_STATX_MASK: return xlat_statx_mask;
	case A_UNLINK_FLAGS: return xlat_unlink_flags;
	case A_CLOSE_RANGE_FLAGS: return xlat_close_range_flags;
	case A_SPLICE_FLAGS: return xlat_splice_flags;
	case A_URING_ENTER_FLAGS: return xlat_uring_enter_flags;
	case A_DUP3_FLAGS: return xlat_dup3_flags;
	default: return NULL;
	}
}

/* The strings of a record (NULL: none, or unreadable) and whether they were cut. */
struct strs {
	const char *s[2];
	int cut[2];
};

static void put_args(const struct fmt_ctx *fc, struct out *o, const struct dio_syscall *sc,
		     const struct dio_ev_syscall *ev, const struct strs *st,
		     const struct dio_file_tag *file)
{
	int nstr = 0, first = 1;

	for (int i = 0; i < sc->nargs && i < 6; i++) {
		unsigned int kind = sc->args[i];
		uint64_t v = ev->args[i];
		int (*fn)(uint64_t, char *, size_t) = format_arg_xlat(kind);

		if (arg_hidden(sc, ev, i))
			continue;
		if (!first)
			put_mem(o, ", ", 2);
		first = 0;
		if (fn) {
			/* flag words and modes are int or unsigned int in the kernel */
			put_x(o, fn, (uint32_t)v);
			continue;
		}
		switch (kind) {
		case A_INT: put_d(o, (int64_t)v); break;
		case A_UINT: put_u(o, v); break;
		case A_ID:
			if ((uint32_t)v == UINT32_MAX)
				put_str(o, "-1");
			else
				put_u(o, (uint32_t)v);
			break;
		case A_PTR: case A_OPENHOW: case A_OFFPTR: put_ptr(o, v); break;
		case A_DIRFD:
			if ((int)v == AT_FDCWD) {
				put_str(o, "AT_FDCWD");
				break;
			}
			/* fall through */
		case A_FD:
			put_fd(fc, o, (int)v, file && ev->fd == (int)v ? file : NULL);
			break;
		case A_STR:
			/* the BPF side keeps the first two string arguments, in order */
			if (nstr < 2 && st->s[nstr])
				put_quoted(o, st->s[nstr], strlen(st->s[nstr]), st->cut[nstr]);
			else
				put_ptr(o, v);
			nstr++;
			break;
		case A_DEV: {
			/* the kernel's 32-bit encoding (new_decode_dev) */
			uint32_t d = (uint32_t)v;

			put(o, "makedev(%#x, %#x)", (d >> 8) & 0xfff,
			    (d & 0xff) | ((d >> 12) & 0xfff00));
			break;
		}
		case A_HEX:
			if (i > 0 && sc->args[i - 1] == A_FCNTL_CMD) {
				put_fcntl_arg(o, (uint32_t)ev->args[i - 1], v);
				break;
			}
			/* fall through */
		default:
			put_hex(o, v);
			break;
		}
	}
}

static void put_ret(const struct fmt_ctx *fc, struct out *o, const struct dio_syscall *sc,
		    const struct dio_ev_syscall *ev, const struct dio_file_tag *file)
{
	if (dio_ret_failed(ev->ret)) {
		put_errno(o, ev->ret);
		return;
	}
	if (sc->args[1] == A_FCNTL_CMD && put_fcntl_ret(fc, o, ev, file))
		return;
	switch (sc->ret) {
	case R_FD:
		/* open's new fd is the file; dup's is a new name for its argument's file */
		put_fd(fc, o, (int)ev->ret, file);
		break;
	case R_ADDR:
		put_hex(o, (uint64_t)ev->ret);
		break;
	default:
		put_d(o, ev->ret);
		break;
	}
}

static void format_syscall(const struct fmt_ctx *fc, const struct dio_ev_syscall *ev,
			   struct out *o)
{
	const struct dio_syscall *sc = syscall_by_nr(ev->nr);
	const struct dio_file_tag *file = (ev->flags & DIO_SF_FILE) ? &ev->tag : NULL;
	struct dio_ev_content ct;
	const char *data = dio_ev_syscall_content(ev, &ct);
	struct strs st = {
		.s = { dio_ev_syscall_str(ev, 0), dio_ev_syscall_str(ev, 1) },
		.cut = { !!(ev->flags & DIO_SF_STR0_TRUNC), !!(ev->flags & DIO_SF_STR1_TRUNC) },
	};

	put_prefix(fc, o, ev->hdr.ts, ev->pid, ev->tid, ev->comm);
	if (sc) {
		put_str(o, sc->name);
		put_mem(o, "(", 1);
		put_args(fc, o, sc, ev, &st, file);
		put_str(o, ") = ");
		put_ret(fc, o, sc, ev, file);
	} else {
		put(o, "syscall_%u(", ev->nr);
		for (int i = 0; i < 6; i++)
			put(o, "%s%#llx", i ? ", " : "", (unsigned long long)ev->args[i]);
		put_str(o, ") = ");
		if (dio_ret_failed(ev->ret))
			put_errno(o, ev->ret);
		else
			put(o, "%lld", (long long)ev->ret);
	}
	if (fc->flags & DIO_FMT_DURATION)
		put_duration(o, ev->duration);
	if ((fc->flags & DIO_FMT_DETAILS) &&
	    (ev->flags & (DIO_SF_OFFSET | DIO_SF_FILE | DIO_SF_HASH))) {
		const char *sep = "";

		put_str(o, " {");
		if (ev->flags & DIO_SF_OFFSET) {
			put_str(o, "off=");
			put_d(o, ev->offset);
			sep = " ";
		}
		if (file) {
			put_str(o, sep);
			put_str(o, "type=");
			put_str(o, format_ftype(ev->ftype));
			put_str(o, " tag=");
			put_tag(o, file);
			sep = " ";
		}
		if (data) {
			put(o, "%shash=%016llx/%u", sep, (unsigned long long)ct.hash,
			    ct.hashed_len);
			if (ct.data_len) {
				uint32_t max = DIO_FMT_STRSIZE_OF(fc->flags);
				uint32_t n = max && max < ct.data_len ? max : ct.data_len;

				put_str(o, " data=\"");
				put_esc(o, data, n, DIO_ESC_QUOTE | DIO_ESC_BIN);
				put_str(o, n < ct.data_len ? "\"..." : "\"");
			}
		}
		put_mem(o, "}", 1);
	}
}

/* ---- other records ------------------------------------------------------- */

static void format_path(const struct fmt_ctx *fc, const struct dio_ev_path *p, struct out *o)
{
	const char *path = dio_ev_path_str(p);

	put_prefix(fc, o, p->hdr.ts, p->pid, p->pid, NULL);
	put_str(o, "path ");
	put_tag(o, &p->tag);
	put(o, " %s ", format_ftype(p->ftype));
	if (p->flags & DIO_PF_TRUNC_HEAD)
		put_str(o, "...");
	put_quoted(o, path, strlen(path),
		   (p->flags & DIO_PF_TRUNC) && (!(p->flags & DIO_PF_TRUNC_HEAD) ||
						 (p->flags & DIO_PF_TRUNC_TAIL)));
	if (p->flags & DIO_PF_RENAMED)
		put_str(o, " (renamed)");
	if (p->flags & DIO_PF_DELETED)
		put_str(o, " (deleted)");
}

static void format_uring(const struct fmt_ctx *fc, const struct dio_ev_iouring *u, struct out *o)
{
	const char *op = xlat_uring_op(u->opcode);
	const struct dio_file_tag *file = (u->flags & DIO_IF_FILE) ? &u->tag : NULL;

	put_prefix(fc, o, u->hdr.ts, u->pid, u->tid, u->comm);
	if (op)
		put(o, "io_uring %s(", op);
	else
		put(o, "io_uring OP_%u(", u->opcode);
	/* a registered file is an index into the ring's table, not an fd */
	put_str(o, (u->flags & DIO_IF_FIXED) ? "fixed " : "fd ");
	put_fd(fc, o, u->fd, file);
	/* -1: the file position, as for preadv2 */
	put(o, ", off=%lld, len=%u) = ", (long long)u->offset, u->len);
	if (dio_ret_failed(u->res))
		put_errno(o, u->res);
	else
		put(o, "%lld", (long long)u->res);
	if (fc->flags & DIO_FMT_DURATION)
		put_duration(o, u->duration);
	if ((fc->flags & DIO_FMT_DETAILS) && file) {
		put(o, " {type=%s tag=", format_ftype(u->ftype));
		put_tag(o, file);
		put_mem(o, "}", 1);
	}
}

static void format_proc(const struct fmt_ctx *fc, const struct dio_ev_proc *p, struct out *o)
{
	put_prefix(fc, o, p->hdr.ts, p->pid, p->tid, p->comm);
	switch (p->kind) {
	case DIO_PROC_FORK:
		put(o, "+++ %s %u/%u +++", (p->flags & DIO_PROCF_THREAD) ? "thread" : "fork child",
		    p->other_pid, p->other_tid);
		break;
	case DIO_PROC_EXEC:
	case DIO_PROC_RENAME:
		put_str(o, p->kind == DIO_PROC_EXEC ? "+++ exec " : "+++ renamed ");
		put_quoted(o, p->comm, DIO_COMM_LEN, 0);
		put_str(o, " +++");
		break;
	case DIO_PROC_EXIT:
		/* exit_code is a wait(2) status */
		if (p->exit_code & 0x7f)
			put(o, "+++ killed by signal %d%s +++", p->exit_code & 0x7f,
			    (p->exit_code & 0x80) ? " (core dumped)" : "");
		else
			put(o, "+++ exited with %d +++", (p->exit_code >> 8) & 0xff);
		break;
	}
}

static void put_secs(struct out *o, const char *key, uint64_t ns)
{
	put(o, " %s=%llu.%06llu", key, (unsigned long long)(ns / 1000000000),
	    (unsigned long long)(ns % 1000000000 / 1000));
}

static void put_sys(struct out *o, uint16_t nr)
{
	const struct dio_syscall *sc = syscall_by_nr(nr);

	if (sc)
		put(o, " sys=%s", sc->name);
	else
		put(o, " sys=syscall_%u", nr);
}

/*
 * Records that are not calls are marked as strace marks signals, so nothing
 * that looks for calls mistakes them for one:
 * --- block WS 8:16 sector=2048 bytes=4096 latency=0.000231 queue=0.000012 sys=pwrite64 ---
 */
static void format_block(const struct fmt_ctx *fc, const struct dio_ev_block *b, struct out *o)
{
	put_prefix(fc, o, b->hdr.ts, b->pid, b->tid, b->comm);
	put_str(o, "--- block ");
	put_mem(o, b->rwbs, strnlen(b->rwbs, sizeof(b->rwbs)));
	put(o, " %u:%u sector=%llu bytes=%u", DIO_DEV_MAJOR(b->dev), DIO_DEV_MINOR(b->dev),
	    (unsigned long long)b->sector, b->bytes);
	/* the latency is what the record is for: always shown */
	put_secs(o, "latency", b->duration);
	if (b->error) {
		const char *name = dio_ret_failed(b->error) ? xlat_errno(-b->error) : NULL;

		if (name)
			put(o, " error=%s", name);
		else
			put(o, " error=%lld", -(long long)b->error);	/* INT_MIN too */
	}
	if (fc->flags & DIO_FMT_DETAILS) {
		if (b->flags & DIO_BF_QUEUED)
			put_secs(o, "queue", b->queue_ns);
		if (b->flags & DIO_BF_SYSCALL)
			put_sys(o, b->nr);
		if (b->flags & DIO_BF_KTHREAD)
			put_str(o, " kthread");
	}
	put_str(o, " ---");
}

/* --- runq woken cpu=1 wait=0.000153 prev=8123/8123 "hog" sys=read --- */
static void format_runq(const struct fmt_ctx *fc, const struct dio_ev_runq *r, struct out *o)
{
	put_prefix(fc, o, r->hdr.ts, r->pid, r->tid, r->comm);
	put(o, "--- runq %s cpu=%u", (r->flags & DIO_RF_PREEMPTED) ? "preempted" : "woken",
	    r->hdr.cpu);
	put_secs(o, "wait", r->delay);
	put(o, " prev=%u/%u ", r->prev_pid, r->prev_tid);
	put_quoted(o, r->prev_comm, strnlen(r->prev_comm, DIO_COMM_LEN), 0);
	if ((fc->flags & DIO_FMT_DETAILS) && (r->flags & DIO_RF_SYSCALL))
		put_sys(o, r->nr);
	put_str(o, " ---");
}

/* --- ofd 1a2b3c4d ended: close of 3</tmp/log> opened at 12:00:01.000002 --- */
static void format_ofd(const struct fmt_ctx *fc, const struct dio_ev_ofd *r, struct out *o)
{
	static const char *const how[] = {
		[DIO_OFD_CLOSE] = "close", [DIO_OFD_REPLACED] = "replaced",
		[DIO_OFD_EXEC] = "exec", [DIO_OFD_EXIT] = "exit", [DIO_OFD_END] = "end of trace",
	};
	static const char nocomm[DIO_COMM_LEN];

	put_prefix(fc, o, r->hdr.ts, r->pid, r->tid, nocomm);
	put(o, "--- ofd %08x ended: %s of ", r->ofd, how[r->how]);
	put_fd(fc, o, r->fd, (r->flags & DIO_OFDF_FILE) ? &r->tag : NULL);
	if ((fc->flags & DIO_FMT_DETAILS) && r->nr)
		put_sys(o, r->nr);
	put_str(o, " ---");
}

int format__event(const struct fmt_ctx *fc, const struct dio_ev_hdr *ev, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };

	switch (ev->type) {
	case DIO_EV_SYSCALL: format_syscall(fc, (const void *)ev, &o); break;
	case DIO_EV_PATH: format_path(fc, (const void *)ev, &o); break;
	case DIO_EV_IOURING: format_uring(fc, (const void *)ev, &o); break;
	case DIO_EV_PROC: format_proc(fc, (const void *)ev, &o); break;
	case DIO_EV_BLOCK: format_block(fc, (const void *)ev, &o); break;
	case DIO_EV_RUNQ: format_runq(fc, (const void *)ev, &o); break;
	case DIO_EV_OFD: format_ofd(fc, (const void *)ev, &o); break;
	}
	if (len)
		buf[o.off < len ? o.off : len - 1] = 0;
	return (int)o.off;
}
