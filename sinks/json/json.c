// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json: one JSON object per line (ndjson) per record and per finding, for
 * programs that analyze a trace later. gzip-compressed when the file name
 * ends in ".gz". Field names are stable: docs/json-schema.md.
 *
 * Names of calls, flags, modes, errnos and opcodes come from the host
 * (syscall_info, decode_arg, name_of), so they read as on the console; the
 * module uses nothing of dio but its installed headers and struct dio_host.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <dio/sink.h>

#define IOBUF_SIZE	(1 << 20)	/* as the console: a drain period of lines */
#define LINE_SIZE	4096		/* first line buffer; grows to the longest line */

enum { O_FILE, O_PATHS };

static const struct dio_option options[] = {
	[O_FILE] = { "file", DIO_OPT_STRING, NULL,
		     "file to write; \"-\" for standard output; gzip when it ends in .gz" },
	[O_PATHS] = { "paths", DIO_OPT_BOOL, "true", "also write the path records" },
	{ NULL, 0, NULL, NULL },
};

struct json {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;		/* plain output, or NULL when gz is used */
	gzFile gz;
	int own;		/* out was opened here */
	char *iobuf;
	int paths;
	int werr;		/* errno of the first write error (logged), 0 if none */
	uint64_t base;		/* CLOCK_MONOTONIC ns rel_ns counts from */
	int based;		/* base was checked against (live), or set to (replay), the first
				 * record's time */
	int replay;		/* the records come from a recording: the session began at its first */
	char *line;		/* the line being built; grows, never cut */
	size_t len, cap;
	int oom;		/* the line could not grow */
};

/* ---- line building --------------------------------------------------------- */

static void grow(struct json *j, size_t need)
{
	size_t cap = j->cap;
	char *line;

	if (j->oom || j->len + need <= j->cap)
		return;
	while (cap < j->len + need)
		cap *= 2;
	line = realloc(j->line, cap);
	if (!line) {
		j->oom = 1;
		return;
	}
	j->line = line;
	j->cap = cap;
}

static void put_mem(struct json *j, const void *s, size_t n)
{
	grow(j, n);
	if (j->oom)
		return;
	memcpy(j->line + j->len, s, n);
	j->len += n;
}

static void put_str(struct json *j, const char *s)
{
	put_mem(j, s, strlen(s));
}

static void put(struct json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct json *j, const char *fmt, ...)
{
	char tmp[128];	/* numbers and short names only */
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		put_mem(j, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* n bytes of s as a JSON string, quotes included (dio_json_escape: docs/json-schema.md) */
static void put_json_str(struct json *j, const char *s, size_t n)
{
	grow(j, DIO_JSON_ESC_MAX * n + 3);
	if (j->oom)
		return;
	j->line[j->len++] = '"';
	j->len += dio_json_escape(s, n, 0, j->line + j->len, j->cap - j->len);
	j->line[j->len++] = '"';
}

/* ,"key":"value" for a C string */
static void put_kstr(struct json *j, const char *key, const char *s)
{
	put(j, ",\"%s\":", key);
	put_json_str(j, s, strlen(s));
}

/* ,"key":"value" for a NUL-padded field of n bytes (comm, rwbs): the bytes before its NUL */
static void put_kfixed(struct json *j, const char *key, const char *s, size_t n)
{
	put(j, ",\"%s\":", key);
	put_json_str(j, s, strnlen(s, n));
}

static void put_kcomm(struct json *j, const char *comm)
{
	put_kfixed(j, "comm", comm, DIO_COMM_LEN);
}

static void put_kbool(struct json *j, const char *key, int v)
{
	put(j, ",\"%s\":%s", key, v ? "true" : "false");
}

/* type, both times (none when ts is 0), and pid/tid: what every record starts with */
static void put_head(struct json *j, const char *type, uint64_t ts, uint32_t pid, uint32_t tid)
{
	put(j, "{\"type\":\"%s\"", type);
	if (!ts)
		goto ids;
	if (!j->based) {
		/*
		 * A replay counts from its first record, whatever this machine's
		 * clock says; a live session from its start, or from a first record
		 * that came before it.
		 */
		if (j->replay || ts < j->base)
			j->base = ts;
		j->based = 1;
	}
	put(j, ",\"ts_ns\":%" PRIu64 ",\"rel_ns\":%" PRId64, j->host->realtime_ns(j->ctx, ts),
	    (int64_t)(ts - j->base));
ids:
	put(j, ",\"pid\":%u,\"tid\":%u", pid, tid);
}

/* the head of a record: a finding has no CPU, a record says which CPU produced it */
static void put_rec_head(struct json *j, const char *type, const struct dio_ev_hdr *h,
			 uint32_t pid, uint32_t tid)
{
	put_head(j, type, h->ts, pid, tid);
	put(j, ",\"cpu\":%u", h->cpu);
}

/* ,"errno":"ENOENT" when v is a -errno, nothing otherwise */
static void put_errno(struct json *j, int64_t v)
{
	const char *name;

	if (!dio_ret_failed(v))
		return;
	name = j->host->name_of(j->ctx, DIO_NAME_ERRNO, (uint64_t)-v);
	if (name)
		put_kstr(j, "errno", name);
	else
		put(j, ",\"errno\":\"ERRNO_%d\"", (int)-v);
}

/* ,"ret":N and, for a failure, "errno":"ENOENT" */
static void put_ret(struct json *j, int64_t ret)
{
	put(j, ",\"ret\":%" PRId64, ret);
	put_errno(j, ret);
}

/* file_tag and file_type: "-" for no type */
static void put_tag_type(struct json *j, const struct dio_file_tag *tag, unsigned int ftype)
{
	char t[DIO_FILE_TAG_LEN];
	const char *type = j->host->name_of(j->ctx, DIO_NAME_FTYPE, ftype);

	dio_file_tag_format(tag, t, sizeof(t));
	put_kstr(j, "file_tag", t);
	put_kstr(j, "file_type", type ? type : "-");
}

/* file_tag, file_type and the path the host knows for the tag */
static void put_file(struct json *j, const struct dio_file_tag *tag, unsigned int ftype)
{
	const char *path = j->host->tag_path(j->ctx, tag);

	put_tag_type(j, tag, ftype);
	if (path)
		put_kstr(j, "path", path);
}

/* ---- records ------------------------------------------------------------------ */

/* the host's name for argument i (flags, a mode, AT_FDCWD), or null */
static void put_decoded(struct json *j, const struct dio_ev_syscall *ev, unsigned int i)
{
	char buf[512];
	int n = j->host->decode_arg(j->ctx, ev, i, buf, sizeof(buf));

	if (n < 0) {
		put_str(j, "null");
		return;
	}
	if ((size_t)n >= sizeof(buf)) {
		char *big = malloc((size_t)n + 1);

		if (!big) {
			j->oom = 1;
			return;
		}
		j->host->decode_arg(j->ctx, ev, i, big, (size_t)n + 1);
		put_json_str(j, big, (size_t)n);
		free(big);
		return;
	}
	put_json_str(j, buf, (size_t)n);
}

static void json_syscall(struct json *j, const struct dio_ev_syscall *ev)
{
	struct dio_syscall_info si;
	int known = !j->host->syscall_info(j->ctx, ev->nr, &si, sizeof(si));
	struct dio_ev_content ct;
	const char *data = dio_ev_syscall_content(ev, &ct);
	/* a call dio does not know: every register, nothing decoded */
	unsigned int nargs = known && si.nargs < 6 ? si.nargs : 6;
	int nstr;

	put_rec_head(j, "syscall", &ev->hdr, ev->pid, ev->tid);
	put_kcomm(j, ev->comm);
	put_kstr(j, "syscall", j->host->syscall_name(ev->nr));
	put(j, ",\"nr\":%u,\"args\":[", ev->nr);
	for (unsigned int i = 0; i < nargs; i++)
		put(j, "%s%" PRIu64, i ? "," : "", (uint64_t)ev->args[i]);
	put_str(j, "]");
	if (known) {
		put_str(j, ",\"decoded\":[");
		for (unsigned int i = 0; i < nargs; i++) {
			if (i)
				put_mem(j, ",", 1);
			put_decoded(j, ev, i);
		}
		put_str(j, "]");
	}
	put_ret(j, ev->ret);
	put(j, ",\"duration_ns\":%" PRIu64 ",\"fd\":%d", (uint64_t)ev->duration, ev->fd);
	if (ev->flags & DIO_SF_FILE)
		put_file(j, &ev->tag, ev->ftype);
	if ((ev->flags & DIO_SF_FILE) && ev->ofd)
		put(j, ",\"ofd\":%" PRIu32, ev->ofd);
	if (ev->flags & DIO_SF_OFFSET)
		put(j, ",\"offset\":%" PRId64, (int64_t)ev->offset);
	/*
	 * A string that could not be read has no bytes but is still there, as
	 * null: rename(NULL, "b") keeps "b" as the second string.
	 */
	nstr = ev->str_len[1] || (ev->flags & DIO_SF_STR1_FAULT) ? 2 :
	       ev->str_len[0] || (ev->flags & DIO_SF_STR0_FAULT) ? 1 : 0;
	if (nstr) {
		static const uint8_t cut[2] = { DIO_SF_STR0_TRUNC, DIO_SF_STR1_TRUNC };
		int any_cut = 0;

		put_str(j, ",\"strings\":[");
		for (int i = 0; i < nstr; i++) {
			const char *s = dio_ev_syscall_str(ev, i);

			if (i)
				put_mem(j, ",", 1);
			if (s)
				put_json_str(j, s, strlen(s));
			else
				put_str(j, "null");
			any_cut |= !!(ev->flags & cut[i]);
		}
		put_str(j, any_cut ? "],\"strings_truncated\":true" : "]");
	}
	if (data) {
		/* 64 bits do not fit a JSON parser's double: hex text */
		put(j, ",\"hash\":\"%016" PRIx64 "\",\"hashed_len\":%u", (uint64_t)ct.hash,
		    ct.hashed_len);
		if (ct.data_len) {
			put_str(j, ",\"data\":");
			put_json_str(j, data, ct.data_len);
		}
	}
	put_mem(j, "}", 1);
}

static void json_path(struct json *j, const struct dio_ev_path *p)
{
	const char *path = dio_ev_path_str(p);

	put_rec_head(j, "path", &p->hdr, p->pid, p->pid);
	put_tag_type(j, &p->tag, p->ftype);
	put_str(j, ",\"path\":");
	put_json_str(j, path, strlen(path));
	put(j, ",\"truncated\":%s,\"deleted\":%s,\"renamed\":%s",
	    (p->flags & DIO_PF_TRUNC) ? "true" : "false",
	    (p->flags & DIO_PF_DELETED) ? "true" : "false",
	    (p->flags & DIO_PF_RENAMED) ? "true" : "false");
	if (p->flags & DIO_PF_TRUNC) {
		/* which part the walk lost; older recordings do not say: the end */
		int head = !!(p->flags & DIO_PF_TRUNC_HEAD);
		int tail = (p->flags & DIO_PF_TRUNC_TAIL) || !head;

		put_kstr(j, "cut", head && tail ? "both" : head ? "start" : "end");
	}
	put_mem(j, "}", 1);
}

static void json_uring(struct json *j, const struct dio_ev_iouring *u)
{
	const char *op = j->host->name_of(j->ctx, DIO_NAME_URING_OP, u->opcode);

	put_rec_head(j, "io_uring", &u->hdr, u->pid, u->tid);
	put_kcomm(j, u->comm);
	if (op)
		put_kstr(j, "op", op);
	else
		put(j, ",\"op\":\"OP_%u\"", u->opcode);
	put(j, ",\"opcode\":%u,\"fd\":%d,\"fixed\":%s,\"sqpoll\":%s", u->opcode, u->fd,
	    (u->flags & DIO_IF_FIXED) ? "true" : "false",
	    (u->flags & DIO_IF_SQPOLL) ? "true" : "false");
	/* -1 (all ones): the file position, as for preadv2 */
	put(j, ",\"offset\":%" PRId64 ",\"len\":%u,\"user_data\":%" PRIu64, (int64_t)u->offset,
	    u->len, (uint64_t)u->user_data);
	put_ret(j, u->res);
	put(j, ",\"duration_ns\":%" PRIu64, (uint64_t)u->duration);
	if (u->flags & DIO_IF_FILE)
		put_file(j, &u->tag, u->ftype);
	put_mem(j, "}", 1);
}

static void json_proc(struct json *j, const struct dio_ev_proc *p)
{
	static const char *const kinds[] = {
		[DIO_PROC_FORK] = "fork", [DIO_PROC_EXEC] = "exec",
		[DIO_PROC_EXIT] = "exit", [DIO_PROC_RENAME] = "rename",
	};

	put_rec_head(j, "proc", &p->hdr, p->pid, p->tid);
	put_kcomm(j, p->comm);
	put_kstr(j, "kind", kinds[p->kind]);
	put(j, ",\"mnt_ns\":%u", p->mnt_ns);
	switch (p->kind) {
	case DIO_PROC_FORK:
		put(j, ",\"child_pid\":%u,\"child_tid\":%u,\"thread\":%s", p->other_pid,
		    p->other_tid, (p->flags & DIO_PROCF_THREAD) ? "true" : "false");
		break;
	case DIO_PROC_EXEC:
		/* not tid when a thread other than the leader called execve: it took the leader's */
		put(j, ",\"old_tid\":%u", p->other_tid);
		break;
	case DIO_PROC_EXIT:
		/* a wait(2) status: the exit code, or the signal that killed it */
		put(j, ",\"exit_code\":%d,\"group_dead\":%s", p->exit_code,
		    (p->flags & DIO_PROCF_GROUP_DEAD) ? "true" : "false");
		if (p->exit_code & 0x7f)
			put(j, ",\"signal\":%d,\"core_dumped\":%s", p->exit_code & 0x7f,
			    (p->exit_code & 0x80) ? "true" : "false");
		else
			put(j, ",\"exit_status\":%d", (p->exit_code >> 8) & 0xff);
		break;
	}
	put_mem(j, "}", 1);
}

/* the system call a block request or a run-queue wait happened in, and when it was entered */
static void put_in_call(struct json *j, uint16_t nr, uint64_t sys_ts)
{
	put_kstr(j, "syscall", j->host->syscall_name(nr));
	put(j, ",\"nr\":%u,\"sys_ts_ns\":%" PRIu64, nr, j->host->realtime_ns(j->ctx, sys_ts));
}

static void json_block(struct json *j, const struct dio_ev_block *b)
{
	put_rec_head(j, "block", &b->hdr, b->pid, b->tid);
	put_kcomm(j, b->comm);
	put_kfixed(j, "rwbs", b->rwbs, sizeof(b->rwbs));
	put(j, ",\"dev\":\"%u:%u\",\"sector\":%" PRIu64 ",\"bytes\":%u,\"error\":%d",
	    DIO_DEV_MAJOR(b->dev), DIO_DEV_MINOR(b->dev), (uint64_t)b->sector, b->bytes, b->error);
	put_errno(j, b->error);
	put(j, ",\"duration_ns\":%" PRIu64, (uint64_t)b->duration);
	put_kbool(j, "queued", b->flags & DIO_BF_QUEUED);
	if (b->flags & DIO_BF_QUEUED)
		put(j, ",\"queue_ns\":%" PRIu64, (uint64_t)b->queue_ns);
	put_kbool(j, "kthread", b->flags & DIO_BF_KTHREAD);
	if (b->flags & DIO_BF_SYSCALL)
		put_in_call(j, b->nr, b->sys_ts);
	put_mem(j, "}", 1);
}

static void json_runq(struct json *j, const struct dio_ev_runq *r)
{
	put_rec_head(j, "runq", &r->hdr, r->pid, r->tid);
	put_kcomm(j, r->comm);
	put_kbool(j, "preempted", r->flags & DIO_RF_PREEMPTED);
	put(j, ",\"duration_ns\":%" PRIu64 ",\"prev_pid\":%u,\"prev_tid\":%u",
	    (uint64_t)r->delay, r->prev_pid, r->prev_tid);
	put_kfixed(j, "prev_comm", r->prev_comm, sizeof(r->prev_comm));
	if (r->flags & DIO_RF_SYSCALL)
		put_in_call(j, r->nr, r->sys_ts);
	put_mem(j, "}", 1);
}

/* ---- output ------------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A failed write is reported once, by us; the caller returns what this returns. */
static int write_error(struct json *j, int err)
{
	if (!err)
		err = EIO;
	if (!j->werr)
		j->host->log(j->ctx, "cannot write output: %s", strerror(err));
	j->werr = err;
	return -err;
}

/* zlib's error as an errno: Z_ERRNO carries errno, the others are I/O errors to us */
static int gz_errno(gzFile gz)
{
	int zerr;

	gzerror(gz, &zerr);
	return zerr == Z_ERRNO && errno ? errno : EIO;
}

static int open_output(struct json *j, const char *path)
{
	int fd, err;

	if (!path || !*path) {
		j->host->log(j->ctx, "no output file: give one, e.g. --sink json:file=trace.json");
		return -EINVAL;
	}
	if (!strcmp(path, "-")) {
		j->out = stdout;
	} else {
		/* 0600, not through a symbolic link, close-on-exec; the host says why when it cannot */
		fd = DIO_HOST_HAS(j->host, create_output) ? j->host->create_output(j->ctx, path) :
							    -ENOSYS;
		if (fd < 0)
			return fd;
		if (ends_with(path, ".gz")) {
			j->gz = gzdopen(fd, "wb");
			if (!j->gz) {
				close(fd);
				j->host->log(j->ctx, "cannot open output '%s': %s", path,
					     strerror(ENOMEM));
				return -ENOMEM;
			}
			/* as large as the plain file's buffer: a drain period compresses at once */
			gzbuffer(j->gz, IOBUF_SIZE);
			return 0;
		}
		j->out = fdopen(fd, "w");
		if (!j->out) {
			err = errno;
			close(fd);
			j->host->log(j->ctx, "cannot open output '%s': %s", path, strerror(err));
			return -err;
		}
		j->own = 1;
	}
	j->iobuf = malloc(IOBUF_SIZE);
	if (!j->iobuf)
		return -ENOMEM;
	fflush(j->out);
	if (setvbuf(j->out, j->iobuf, _IOFBF, IOBUF_SIZE)) {
		free(j->iobuf);
		j->iobuf = NULL;
	}
	return 0;
}

static int write_line(struct json *j)
{
	put_mem(j, "\n", 1);
	if (j->oom)
		return -ENOMEM;
	if (j->gz) {
		errno = 0;
		if (gzwrite(j->gz, j->line, (unsigned int)j->len) != (int)j->len)
			return write_error(j, gz_errno(j->gz));
		return 0;
	}
	errno = 0;
	if (fwrite(j->line, 1, j->len, j->out) != j->len)
		return write_error(j, errno);
	return 0;
}

static int json_flush(void *state)
{
	struct json *j = state;
	int zerr;

	if (j->gz) {
		/* a reader of the live file gets whole lines up to here */
		errno = 0;
		zerr = gzflush(j->gz, Z_SYNC_FLUSH);
		if (zerr != Z_OK)
			return write_error(j, zerr == Z_ERRNO ? errno : EIO);
		return 0;
	}
	errno = 0;
	if (fflush(j->out))
		return write_error(j, errno);
	return 0;
}

static void close_output(struct json *j)
{
	int zerr;

	if (j->gz) {
		errno = 0;
		zerr = gzclose(j->gz);
		if (zerr != Z_OK)
			write_error(j, zerr == Z_ERRNO ? errno : EIO);
		j->gz = NULL;
		return;
	}
	if (!j->out)
		return;
	errno = 0;
	if (fflush(j->out))
		write_error(j, errno);
	if (j->own) {
		errno = 0;
		if (fclose(j->out))
			write_error(j, errno);
	} else if (j->iobuf) {
		/* stdout outlives us: it must let go of our buffer (see the console sink) */
		setvbuf(j->out, NULL, _IONBF, 0);
	}
	free(j->iobuf);
	j->iobuf = NULL;
	j->out = NULL;
}

/* ---- descriptor ----------------------------------------------------------------- */

static void json_destroy(void *state)
{
	struct json *j = state;

	if (!j)
		return;
	close_output(j);
	free(j->line);
	free(j);
}

static int json_init(const struct dio_host *host, struct dio_ctx *ctx,
		     const struct dio_optval *o, void **state)
{
	struct json *j;
	struct timespec now;
	int err;

	/* names come from the host: without them lines would say less than the schema promises */
	if (!DIO_HOST_HAS(host, syscall_info) || !DIO_HOST_HAS(host, decode_arg) ||
	    !DIO_HOST_HAS(host, name_of)) {
		host->log(ctx, "this dio does not name calls and flags for modules "
			  "(struct dio_host has no decode_arg): use the json sink it came with");
		return -ENOSYS;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->host = host;
	j->ctx = ctx;
	j->paths = !!o[O_PATHS].i;
	/* records are CLOCK_MONOTONIC: a live session starts about now */
	clock_gettime(CLOCK_MONOTONIC, &now);
	j->base = (uint64_t)now.tv_sec * 1000000000 + (uint64_t)now.tv_nsec;
	j->replay = DIO_HOST_HAS(host, info) && host->info(ctx, "trace");
	j->cap = LINE_SIZE;
	j->line = malloc(j->cap);
	if (!j->line) {
		err = -ENOMEM;
		goto cleanup;
	}
	err = open_output(j, o[O_FILE].s);
	if (err)
		goto cleanup;
	*state = j;
	return 0;
cleanup:
	json_destroy(j);
	return err;
}

static int json_event(void *state, const struct dio_ev_hdr *ev)
{
	struct json *j = state;

	if (ev->type == DIO_EV_PATH && !j->paths)
		return 0;
	/* once output is lost, say so to the host at each call: dio must stop */
	if (j->werr)
		return -j->werr;
	j->len = 0;
	j->oom = 0;
	/* the host checked the record (dio/event.h) and sends only the types subscribed to */
	switch (ev->type) {
	case DIO_EV_SYSCALL: json_syscall(j, (const void *)ev); break;
	case DIO_EV_PATH: json_path(j, (const void *)ev); break;
	case DIO_EV_IOURING: json_uring(j, (const void *)ev); break;
	case DIO_EV_PROC: json_proc(j, (const void *)ev); break;
	case DIO_EV_BLOCK: json_block(j, (const void *)ev); break;
	case DIO_EV_RUNQ: json_runq(j, (const void *)ev); break;
	}
	return write_line(j);
}

static const char *sev_name(uint32_t s)
{
	switch (s) {
	case DIO_SEV_INFO: return "info";
	case DIO_SEV_WARNING: return "warning";
	case DIO_SEV_ERROR: return "error";
	default: return "unknown";
	}
}

static void put_kstr_opt(struct json *j, const char *key, const char *s)
{
	if (s)
		put_kstr(j, key, s);
}

static int json_finding(void *state, const struct dio_finding *f)
{
	struct json *j = state;
	uint64_t first = f->ts_first ? f->ts_first : f->ts_last;

	if (f->size < offsetof(struct dio_finding, excerpt) + sizeof(f->excerpt))
		return -EINVAL;
	if (j->werr)
		return -j->werr;
	j->len = 0;
	j->oom = 0;
	put_head(j, "finding", first, f->pid, f->tid);
	put_kstr(j, "severity", sev_name(f->severity));
	put_kstr_opt(j, "code", f->code);
	put_kstr_opt(j, "analyzer", f->analyzer);
	put_kstr_opt(j, "title", f->title);
	put_kstr_opt(j, "message", f->message);
	put_kstr_opt(j, "comm", f->comm);
	if (f->has_tag) {
		char t[DIO_FILE_TAG_LEN];

		dio_file_tag_format(&f->tag, t, sizeof(t));
		put_kstr(j, "file_tag", t);
	}
	put_kstr_opt(j, "path", f->path);
	if (f->ts_last > first)
		put(j, ",\"last_ts_ns\":%" PRIu64 ",\"span_ns\":%" PRIu64,
		    j->host->realtime_ns(j->ctx, f->ts_last), f->ts_last - first);
	if (f->count)
		put(j, ",\"count\":%" PRIu64, f->count);
	if (f->size >= offsetof(struct dio_finding, processes) + sizeof(f->processes)) {
		if (f->cost_ns)
			put(j, ",\"cost_ns\":%" PRIu64, f->cost_ns);
		if (f->processes)
			put(j, ",\"processes\":%u", f->processes);
	}
	put_kstr_opt(j, "excerpt", f->excerpt);
	if (f->size >= offsetof(struct dio_finding, rule_title) + sizeof(f->rule_title)) {
		static const char *const states[] = { NULL, "new", "unchanged", "absent" };

		put_kstr_opt(j, "subject", f->subject);
		put_kstr_opt(j, "fingerprint", f->fingerprint);
		if (f->baseline < 4)
			put_kstr_opt(j, "baseline", states[f->baseline]);
		if (f->suppressed) {
			put_str(j, ",\"suppressed\":true");
			put_kstr_opt(j, "suppress_reason", f->suppress_reason);
		}
	}
	/* the same finding as a line before, as it stands now: its count replaces that one's */
	if (f->size >= offsetof(struct dio_finding, update) + sizeof(f->update) && f->update)
		put_str(j, ",\"update\":true");
	put_mem(j, "}", 1);
	return write_line(j);
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "json",
	.description = "one JSON object per line per record and finding (ndjson, .gz: gzip)",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PATH) |
		  DIO_EV_MASK(DIO_EV_IOURING) | DIO_EV_MASK(DIO_EV_PROC) |
		  DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ),
	.findings = 1,
	.options = options,
	.init = json_init,
	.event = json_event,
	.finding = json_finding,
	.flush = json_flush,
	.destroy = json_destroy,
	.live = 1,
};
