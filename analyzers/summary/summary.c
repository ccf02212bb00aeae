// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary: what strace -c prints, per system call and per file, and the events
 * the session lost. State is bounded whatever the trace: fixed arrays for
 * system calls and io_uring opcodes, and at most max_files file rows; files
 * past that are added up in one "(other files)" row rather than forgotten.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/analyzer.h>

#define OPS_MAX		256	/* dio_ev_iouring.opcode is a __u8 */
#define FILES_MIN	64	/* first size of the file table */

#define KIND_READ	DIO_IO_READ	/* a positive return value is bytes read */
#define KIND_WRITE	DIO_IO_WRITE	/* ... bytes written */

enum { O_TOP, O_MAX_FILES, O_OUTPUT, O_FILES_BY };

static const struct dio_option options[] = {
	[O_TOP] = { "top", DIO_OPT_INT, "10", "files listed, by total time" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "10000",
			  "files tracked; more are added up as (other files)" },
	[O_OUTPUT] = { "output", DIO_OPT_STRING, NULL,
		       "file for the tables; \"-\" for standard output (default: standard error)" },
	[O_FILES_BY] = { "files_by", DIO_OPT_STRING, "path",
			 "\"path\": a row per path, sockets and pipes a row each; "
			 "\"tag\": a row per file" },
	{ NULL, 0, NULL, NULL },
};

/* the code, as README.md explains it */
static const struct dio_rule rules[] = {
	{
		"summary.lost-events", DIO_SEV_WARNING, 0,
		"Events were lost",
		"The session's counters at its end show events lost (the ring buffer, the "
		"in-flight table or the io_uring table was full) or file paths not sent (the "
		"ring buffer was full when they were to go).",
		"The tables and the analyzers miss the calls that were lost, and a file whose "
		"path was not sent shows as <tag ...>.\n\n"
		"Give the ring buffer more room (--ring-size), drain it more often (--drain-ms, "
		"--wakeup-at), or trace less (-p, --path, --only-files, -e trace=...).",
	},
	{ NULL, 0, 0, NULL, NULL, NULL },
};

struct callrow {
	uint64_t calls, errors, bytes, ns, max_ns;
};

struct filerow {
	struct dio_file_tag tag;
	uint64_t used;		/* 0: a free slot; 64 bits, so the struct has no padding */
	uint64_t calls, errors, rbytes, wbytes, ns;
};

struct summary {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;
	int own;			/* out was opened here */
	struct callrow sys[DIO_NR_MAX + 1];	/* [DIO_NR_MAX]: numbers past the table */
	struct callrow ops[OPS_MAX];
	uint8_t kind[DIO_NR_MAX];		/* KIND_* by system call number */
	struct filerow *files;		/* open addressing; size 2^n, at most half full */
	size_t size, nfiles, max_files;
	struct filerow other;		/* files that did not fit */
	uint64_t top;
	int by_tag;			/* files_by=tag: a row per file, as the table keeps them */
};

/*
 * Calls whose positive return value is a byte count. For copy_file_range,
 * sendfile and splice the host tags the source file (fd_in), so their bytes
 * are bytes read from the file the record names.
 */
/* IORING_OP_* in the order of enum io_uring_op (linux/io_uring.h, up to Linux 6.16) */
static const char *const uring_ops[] = {
	"NOP", "READV", "WRITEV", "FSYNC", "READ_FIXED", "WRITE_FIXED", "POLL_ADD", "POLL_REMOVE",
	"SYNC_FILE_RANGE", "SENDMSG", "RECVMSG", "TIMEOUT", "TIMEOUT_REMOVE", "ACCEPT",
	"ASYNC_CANCEL", "LINK_TIMEOUT", "CONNECT", "FALLOCATE", "OPENAT", "CLOSE", "FILES_UPDATE",
	"STATX", "READ", "WRITE", "FADVISE", "MADVISE", "SEND", "RECV", "OPENAT2", "EPOLL_CTL",
	"SPLICE", "PROVIDE_BUFFERS", "REMOVE_BUFFERS", "TEE", "SHUTDOWN", "RENAMEAT", "UNLINKAT",
	"MKDIRAT", "SYMLINKAT", "LINKAT", "MSG_RING", "FSETXATTR", "SETXATTR", "FGETXATTR",
	"GETXATTR", "SOCKET", "URING_CMD", "SEND_ZC", "SENDMSG_ZC", "READ_MULTISHOT", "WAITID",
	"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_WAITV", "FIXED_FD_INSTALL", "FTRUNCATE", "BIND",
	"LISTEN", "RECV_ZC", "EPOLL_WAIT", "READV_FIXED", "WRITEV_FIXED", "PIPE",
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

/* the opcodes that move file data; the build host's linux/io_uring.h may predate some */
enum {
	OP_READV = 1, OP_WRITEV = 2, OP_READ_FIXED = 4, OP_WRITE_FIXED = 5, OP_READ = 22,
	OP_WRITE = 23, OP_READ_MULTISHOT = 49, OP_READV_FIXED = 60, OP_WRITEV_FIXED = 61,
};

static int uring_kind(unsigned int op)
{
	switch (op) {
	case OP_READV: case OP_READ_FIXED: case OP_READ: case OP_READ_MULTISHOT:
	case OP_READV_FIXED:
		return KIND_READ;
	case OP_WRITEV: case OP_WRITE_FIXED: case OP_WRITE: case OP_WRITEV_FIXED:
		return KIND_WRITE;
	default:
		return 0;
	}
}

static void summary_destroy(void *state)
{
	struct summary *s = state;

	if (!s)
		return;
	if (s->own && s->out)
		fclose(s->out);
	free(s->files);
	free(s);
}

static int summary_init(const struct dio_host *host, struct dio_ctx *ctx,
			const struct dio_optval *o, void **state)
{
	struct summary *s = calloc(1, sizeof(*s));
	const char *path = o[O_OUTPUT].s, *by = o[O_FILES_BY].s;
	int err = 0;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	if (o[O_TOP].i < 0 || o[O_MAX_FILES].i < 1) {
		host->log(ctx, "%s must be at least %d", o[O_TOP].i < 0 ? "top" : "max_files",
			  o[O_TOP].i < 0 ? 0 : 1);
		err = -EINVAL;
		goto cleanup;
	}
	if (by && strcmp(by, "path") && strcmp(by, "tag")) {
		host->log(ctx, "files_by: '%s' is not path or tag", by);
		err = -EINVAL;
		goto cleanup;
	}
	s->by_tag = by && !strcmp(by, "tag");
	s->top = (uint64_t)o[O_TOP].i;
	s->max_files = (size_t)o[O_MAX_FILES].i;
	s->size = FILES_MIN;
	s->files = calloc(s->size, sizeof(*s->files));
	if (!s->files) {
		err = -ENOMEM;
		goto cleanup;
	}
	/* which way each call's bytes go, as the host says (DIO_IO_* are KIND_*) */
	for (uint32_t nr = 0; nr < DIO_NR_MAX && DIO_HOST_HAS(host, syscall_info); nr++) {
		struct dio_syscall_info si;

		if (!host->syscall_info(ctx, nr, &si, sizeof(si)))
			s->kind[nr] = (uint8_t)si.io;
	}
	/* opened now, like strace -o: a bad path fails before the trace, not after it */
	if (!path) {
		s->out = stderr;
	} else if (!strcmp(path, "-")) {
		s->out = stdout;
	} else {
		/* 0600, not through a symbolic link; the host says why when it cannot */
		int fd = DIO_HOST_HAS(host, create_output) ? host->create_output(ctx, path) : -ENOSYS;

		if (fd < 0) {
			err = fd;
			goto cleanup;
		}
		s->out = fdopen(fd, "w");
		if (!s->out) {
			err = -errno;
			close(fd);
			host->log(ctx, "cannot open output '%s': %s", path, strerror(-err));
			goto cleanup;
		}
		s->own = 1;
	}
	*state = s;
	return 0;
cleanup:
	summary_destroy(s);
	return err;
}

static size_t tag_hash(const struct dio_file_tag *t)
{
	uint64_t h = t->ino * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)t->dev << 32 | t->gen) * 0xc2b2ae3d27d4eb4fULL;
	return (size_t)(h ^ (h >> 29));
}

/* the row of tag, or the free slot where it belongs */
static struct filerow *file_slot(struct filerow *files, size_t size, const struct dio_file_tag *tag)
{
	size_t i = tag_hash(tag) & (size - 1);

	while (files[i].used && !dio_file_tag_eq(&files[i].tag, tag))
		i = (i + 1) & (size - 1);
	return &files[i];
}

static int files_grow(struct summary *s)
{
	size_t size = s->size * 2;
	struct filerow *n = calloc(size, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < s->size; i++)
		if (s->files[i].used)
			*file_slot(n, size, &s->files[i].tag) = s->files[i];
	free(s->files);
	s->files = n;
	s->size = size;
	return 0;
}

static struct filerow *file_row(struct summary *s, const struct dio_file_tag *tag)
{
	struct filerow *r = file_slot(s->files, s->size, tag);

	if (r->used)
		return r;
	if (s->nfiles >= s->max_files)
		return &s->other;
	if ((s->nfiles + 1) * 2 > s->size) {
		/* out of memory: the file is still counted, in the other row */
		if (files_grow(s))
			return &s->other;
		r = file_slot(s->files, s->size, tag);
	}
	r->used = 1;
	r->tag = *tag;
	s->nfiles++;
	return r;
}

static void count_call(struct callrow *r, int64_t ret, uint64_t ns, int kind)
{
	r->calls++;
	r->ns += ns;
	if (ns > r->max_ns)
		r->max_ns = ns;
	if (dio_ret_failed(ret))
		r->errors++;
	else if (kind && ret > 0)
		r->bytes += (uint64_t)ret;
}

static void count_file(struct summary *s, const struct dio_file_tag *tag, int64_t ret,
		       uint64_t ns, int kind)
{
	struct filerow *f = file_row(s, tag);

	f->calls++;
	f->ns += ns;
	if (dio_ret_failed(ret))
		f->errors++;
	else if (kind == KIND_READ && ret > 0)
		f->rbytes += (uint64_t)ret;
	else if (kind == KIND_WRITE && ret > 0)
		f->wbytes += (uint64_t)ret;
}

static int summary_event(void *state, const struct dio_ev_hdr *ev)
{
	struct summary *s = state;

	if (ev->type == DIO_EV_SYSCALL) {
		const struct dio_ev_syscall *e = (const void *)ev;
		int kind = e->nr < DIO_NR_MAX ? s->kind[e->nr] : 0;

		count_call(&s->sys[e->nr < DIO_NR_MAX ? e->nr : DIO_NR_MAX], e->ret, e->duration, kind);
		if (e->flags & DIO_SF_FILE)
			count_file(s, &e->tag, e->ret, e->duration, kind);
	} else if (ev->type == DIO_EV_IOURING) {
		const struct dio_ev_iouring *u = (const void *)ev;
		int kind = uring_kind(u->opcode);

		count_call(&s->ops[u->opcode], u->res, u->duration, kind);
		if (u->flags & DIO_IF_FILE)
			count_file(s, &u->tag, u->res, u->duration, kind);
	}
	return 0;
}

/* ---- the tables ---------------------------------------------------------- */

struct line {
	char name[48];
	const struct callrow *r;
};

/* most time first; ties by calls, then name, so the output does not depend on qsort */
static int line_cmp(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->r->ns != y->r->ns)
		return x->r->ns < y->r->ns ? 1 : -1;
	if (x->r->calls != y->r->calls)
		return x->r->calls < y->r->calls ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int tag_cmp(const struct dio_file_tag *a, const struct dio_file_tag *b)
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
 * What a row of the file table stands for. The host names pipes and sockets
 * by their inode (pipe:[N], socket:[N]): a path of their own each, which
 * would give a server's hundred connections a hundred rows.
 */
enum {
	ROW_PATH = DIO_PATH_NAMED, ROW_SOCKETS = DIO_PATH_SOCKET, ROW_PIPES = DIO_PATH_PIPE,
	ROW_TAG,		/* a file whose path is not known */
};

/* a row: one file, or the files that had one path (or were sockets, or pipes) */
struct frow {
	struct filerow sum;	/* sum.tag: its costliest file's, to order ties */
	const char *path;	/* the host's, valid until finish returns; NULL: ROW_TAG */
	uint64_t files;
	int kind;
};

/* most time first; ties by calls, then the tag, so the output does not depend on qsort */
static int cost_cmp(const struct filerow *x, const struct filerow *y)
{
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return tag_cmp(&x->tag, &y->tag);
}

static int frow_cost_cmp(const void *a, const void *b)
{
	return cost_cmp(&((const struct frow *)a)->sum, &((const struct frow *)b)->sum);
}

/* the rows of one path (or kind) together, the costliest first; a tag row alone */
static int frow_key_cmp(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->kind == ROW_PATH) {
		int c = strcmp(x->path, y->path);

		if (c)
			return c;
	}
	return cost_cmp(&x->sum, &y->sum);
}

static int same_key(const struct frow *x, const struct frow *y)
{
	return x->kind == y->kind && x->kind != ROW_TAG &&
	       (x->kind != ROW_PATH || !strcmp(x->path, y->path));
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char call_dashes[] = "------ ----------- ----------- ----------- --------- --------- "
				  "------------ ----------------";
static const char file_dashes[] = "------ ----------- --------- --------- ------------ "
				  "------------ ----------------";

static void put_call_row(FILE *f, const struct callrow *r, uint64_t total_ns, const char *name)
{
	fprintf(f, "%6.2f %4" PRIu64 ".%06" PRIu64 " %11" PRIu64 " %11" PRIu64 " %9" PRIu64
		" %9" PRIu64 " %12" PRIu64 " %s\n",
		pct(r->ns, total_ns), r->ns / 1000000000, r->ns % 1000000000 / 1000,
		r->calls ? r->ns / r->calls / 1000 : 0, r->max_ns / 1000, r->calls, r->errors,
		r->bytes, name);
}

static void put_file_start(FILE *f, const struct filerow *r, uint64_t total_ns)
{
	fprintf(f, "%6.2f %4" PRIu64 ".%06" PRIu64 " %9" PRIu64 " %9" PRIu64 " %12" PRIu64
		" %12" PRIu64 " ",
		pct(r->ns, total_ns), r->ns / 1000000000, r->ns % 1000000000 / 1000, r->calls,
		r->errors, r->rbytes, r->wbytes);
}

/* a path on one line, as dio dump writes it: nothing in a file name drives the terminal */
static void put_path(FILE *f, const char *p)
{
	char buf[4 * DIO_PATH_MAX + 1];

	dio_escape(p, strlen(p), 0, buf, sizeof(buf));
	fputs(buf, f);
}

static void add_file(struct filerow *sum, const struct filerow *r)
{
	sum->calls += r->calls;
	sum->errors += r->errors;
	sum->rbytes += r->rbytes;
	sum->wbytes += r->wbytes;
	sum->ns += r->ns;
}

static int put_calls(struct summary *s, FILE *f)
{
	struct line *lines = calloc(DIO_NR_MAX + 1 + OPS_MAX, sizeof(*lines));
	struct callrow total = { 0 };
	size_t n = 0;

	if (!lines)
		return -ENOMEM;
	for (uint32_t nr = 0; nr <= DIO_NR_MAX; nr++) {
		const char *name = nr < DIO_NR_MAX ? s->host->syscall_name(nr) : NULL;

		if (!s->sys[nr].calls)
			continue;
		if (name)
			snprintf(lines[n].name, sizeof(lines[n].name), "%s", name);
		else
			snprintf(lines[n].name, sizeof(lines[n].name), "(numbers >= %d)", DIO_NR_MAX);
		lines[n++].r = &s->sys[nr];
	}
	for (uint32_t op = 0; op < OPS_MAX; op++) {
		if (!s->ops[op].calls)
			continue;
		if (op < N(uring_ops))
			snprintf(lines[n].name, sizeof(lines[n].name), "io_uring:%s",
				 uring_ops[op]);
		else
			snprintf(lines[n].name, sizeof(lines[n].name), "io_uring:%u", op);
		lines[n++].r = &s->ops[op];
	}
	qsort(lines, n, sizeof(*lines), line_cmp);
	for (size_t i = 0; i < n; i++) {
		total.calls += lines[i].r->calls;
		total.errors += lines[i].r->errors;
		total.bytes += lines[i].r->bytes;
		total.ns += lines[i].r->ns;
		if (lines[i].r->max_ns > total.max_ns)
			total.max_ns = lines[i].r->max_ns;
	}
	fprintf(f, "%6s %11s %11s %11s %9s %9s %12s %s\n", "% time", "seconds", "usecs/call",
		"max usecs", "calls", "errors", "bytes", "syscall");
	fprintf(f, "%s\n", call_dashes);
	for (size_t i = 0; i < n; i++)
		put_call_row(f, lines[i].r, total.ns, lines[i].name);
	fprintf(f, "%s\n", call_dashes);
	put_call_row(f, &total, total.ns, "total");
	free(lines);
	return 0;
}

/*
 * The rows of the file table, most costly first: one per file with
 * files_by=tag, else one per path, one for the sockets and one for the
 * pipes, with a file whose path is not known alone. Made from the table of
 * files when the session is over, when every path the host will ever have
 * is known: memory bounded by max_files, as that table is. Sets *n.
 */
static struct frow *file_rows(struct summary *s, size_t *n)
{
	struct frow *v = calloc(s->nfiles ? s->nfiles : 1, sizeof(*v));
	size_t k = 0, w = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < s->size; i++) {
		if (!s->files[i].used)
			continue;
		v[k].sum = s->files[i];
		v[k].path = s->host->tag_path(s->ctx, &s->files[i].tag);
		v[k].files = 1;
		if (!v[k].path)
			v[k].kind = ROW_TAG;
		else
			v[k].kind = s->by_tag ? ROW_PATH : dio_path_kind(v[k].path);
		k++;
	}
	if (!s->by_tag) {
		qsort(v, k, sizeof(*v), frow_key_cmp);
		for (size_t i = 0; i < k; i++) {
			if (w && same_key(&v[w - 1], &v[i])) {
				add_file(&v[w - 1].sum, &v[i].sum);
				v[w - 1].files++;
			} else {
				v[w++] = v[i];
			}
		}
		k = w;
	}
	qsort(v, k, sizeof(*v), frow_cost_cmp);
	*n = k;
	return v;
}

static void put_row_name(FILE *f, const struct frow *r)
{
	char t[DIO_FILE_TAG_LEN];

	switch (r->kind) {
	case ROW_SOCKETS:
		fprintf(f, "sockets (%" PRIu64 ")", r->files);
		return;
	case ROW_PIPES:
		fprintf(f, "pipes (%" PRIu64 ")", r->files);
		return;
	case ROW_TAG:
		/* path record lost or not sent yet: the tag still tells files apart */
		dio_file_tag_format(&r->sum.tag, t, sizeof(t));
		fprintf(f, "<tag %s>", t);
		return;
	}
	put_path(f, r->path);
	if (r->files > 1)
		fprintf(f, " (%" PRIu64 " files)", r->files);
}

static int put_files(struct summary *s, FILE *f)
{
	struct filerow rest = { 0 }, total = s->other;
	struct frow *rows;
	uint64_t rest_files = 0;
	size_t n = 0;

	if (!s->nfiles && !s->other.calls)
		return 0;
	rows = file_rows(s, &n);
	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		add_file(&total, &rows[i].sum);
	fprintf(f, "\n%6s %11s %9s %9s %12s %12s %s\n", "% time", "seconds", "calls", "errors",
		"read", "written", "file");
	fprintf(f, "%s\n", file_dashes);
	for (size_t i = 0; i < n; i++) {
		if (i >= s->top) {
			add_file(&rest, &rows[i].sum);
			rest_files += rows[i].files;
			continue;
		}
		put_file_start(f, &rows[i].sum, total.ns);
		put_row_name(f, &rows[i]);
		fputc('\n', f);
	}
	if (n > s->top) {
		put_file_start(f, &rest, total.ns);
		/* as many rows as files: each was one file */
		if (rest_files == n - (size_t)s->top)
			fprintf(f, "(%" PRIu64 " more files)\n", rest_files);
		else
			fprintf(f, "(%zu more paths, %" PRIu64 " files)\n", n - (size_t)s->top,
				rest_files);
	}
	if (s->other.calls) {
		put_file_start(f, &s->other, total.ns);
		fprintf(f, "(other files)\n");
	}
	fprintf(f, "%s\n", file_dashes);
	put_file_start(f, &total, total.ns);
	fprintf(f, "total\n");
	free(rows);
	return 0;
}

/* The loss causes, each with what to do about it. */
struct cause {
	const char *what;
	uint64_t n;
	const char *advice;
	int unavoidable;	/* no run of dio would have these: the kernel never showed them */
};

static const char *writer_advice(uint32_t cause)
{
	switch (cause) {
	case DIO_WRITER_CPU:
		return "dio record's writer thread was short of CPU time, compressing: record with\n"
		       "--level 0 or 1.";
	case DIO_WRITER_CPU_WAIT:
		return "dio record's writer thread waited for a CPU that other threads held: leave\n"
		       "dio a CPU, or lower --level.";
	case DIO_WRITER_DISK:
		return "dio record's writer thread waited for the disk: write the trace file to a\n"
		       "faster one.";
	default:
		return "dio record's writer thread fell behind (the recording does not say why).";
	}
}

static size_t causes_of(const struct dio_stats *st, struct cause *c)
{
	const struct cause all[] = {
		{ "ring buffer full", st->lost_ringbuf,
		  "Give the ring buffer more room (--ring-size), drain it more often (--drain-ms,\n"
		  "--wakeup-at), or trace less (-p, --path, --only-files, -e trace=...).", 0 },
		{ "in-flight table full", st->lost_inflight,
		  "The kernel had no memory for a call's task storage.", 0 },
		{ "block request table full", st->lost_block,
		  "Block requests were not recorded: raise --inflight-table.", 0 },
		{ "block completions not seen", st->lost_block_unseen,
		  "The kernel did not run dio's program for these requests' completions; the\n"
		  "block records are incomplete and no option brings them back.", 1 },
		{ "io_uring table full", st->lost_iouring,
		  "io_uring requests were not recorded: raise --inflight-table.", 0 },
		{ "io_uring completions not seen", st->lost_iouring_unseen,
		  "The kernel did not run dio's program for these requests' completions.", 1 },
		{ "file-mapping table full", st->lost_mappings,
		  "The munmap of these file mappings is not traced: raise --inflight-table.", 0 },
		{ "traced-process table full", st->lost_procs,
		  "Processes started past the table's size were not traced: trace fewer (-p,\n"
		  "--comm), or all with -a.", 0 },
		{ "trace file writer behind", st->lost_writer, writer_advice(st->writer_cause), 0 },
		{ "other", st->lost_other, "Malformed records were dropped.", 0 },
	};
	size_t n = 0;

	for (size_t i = 0; i < N(all); i++)
		if (all[i].n)
			c[n++] = all[i];
	return n;
}

/* "ring buffer full: 1200, in-flight table full: 34": only the causes that happened */
static void put_causes(char *buf, size_t len, const struct cause *c, size_t n, int advice)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		int k = advice ? snprintf(buf + off, len - off, "%s%s", off ? "\n" : "", c[i].advice) :
				 snprintf(buf + off, len - off, "%s%s: %" PRIu64, off ? ", " : "",
					  c[i].what, c[i].n);

		if (k > 0)
			off += (size_t)k;
	}
}

/* 0, or what emit_finding returned */
static int report_lost(struct summary *s, FILE *f)
{
	struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_WARNING };
	struct dio_stats st;
	struct cause c[16];
	char causes[512], title[640], advice[1800], msg[1900];
	uint64_t lost = 0, unavoidable = 0;
	size_t n;

	memset(&st, 0, sizeof(st));
	if (DIO_HOST_HAS(s->host, stats_sized))
		s->host->stats_sized(s->ctx, &st, sizeof(st));
	else
		s->host->stats(s->ctx, &st);
	n = causes_of(&st, c);
	for (size_t i = 0; i < n; i++) {
		lost += c[i].n;
		unavoidable += c[i].unavoidable ? c[i].n : 0;
	}
	/*
	 * Completions the kernel never showed dio are said, but are no warning
	 * a CI gate fails on: no option or run of dio would have them (dio
	 * record's exit status 4 leaves them out for the same reason).
	 */
	if (lost && unavoidable == lost && !st.lost_pathtab)
		fd.severity = DIO_SEV_INFO;
	/* not a loss of calls: files of the table above may show as <tag ...> */
	if (st.paths_evicted)
		fprintf(f, "dio: warning: %" PRIu64 " file paths forgotten (the host's tag table, "
			"twice --tag-table, was full)\n", st.paths_evicted);
	/* not calls either: block requests of kernel threads, how many unknown */
	if (st.lost_blkdevs)
		fprintf(f, "dio: warning: %" PRIu64 " file paths on devices past the kernel's "
			"device table (256): writeback and journal requests to them were not "
			"recorded\n", st.lost_blkdevs);
	/* no loss at all: the kernel sends those paths again if their files come back */
	if (st.kernel_paths_evicted)
		fprintf(f, "dio: note: %" PRIu64 " file paths forgotten by the kernel, at least "
			"(its tag table, --tag-table, was full): sent again if their file is "
			"used again\n", st.kernel_paths_evicted);
	if (!lost && !st.lost_pathtab)
		return 0;
	put_causes(causes, sizeof(causes), c, n, 0);
	if (lost && st.lost_pathtab)
		snprintf(title, sizeof(title),
			 "%" PRIu64 " events were lost (%s); %" PRIu64 " file paths were not sent "
			 "(ring buffer full)", lost, causes, st.lost_pathtab);
	else if (lost)
		snprintf(title, sizeof(title), "%" PRIu64 " events were lost (%s)", lost, causes);
	else
		snprintf(title, sizeof(title),
			 "%" PRIu64 " file paths were not sent (ring buffer full)",
			 st.lost_pathtab);
	if (lost)
		fprintf(f, "dio: warning: %" PRIu64 " events lost\n", lost);
	if (st.lost_pathtab)
		fprintf(f, "dio: warning: %" PRIu64 " file paths not sent\n", st.lost_pathtab);
	/* the tables first: a sink may print the finding to the same terminal */
	fflush(f);
	fd.code = "summary.lost-events";
	fd.title = title;
	if (lost) {
		put_causes(advice, sizeof(advice), c, n, 1);
		snprintf(msg, sizeof(msg), "The tables above miss these calls. %s", advice);
		fd.message = msg;
	} else {
		fd.message = "Files whose path was not sent show as <tag ...> until they are\n"
			     "renamed or the kernel forgets it sent them. Give the ring buffer\n"
			     "more room (--ring-size), drain it more often (--drain-ms), or\n"
			     "trace less (-p, --path, --only-files).";
	}
	fd.count = lost ? lost : st.lost_pathtab;
	return s->host->emit_finding(s->ctx, &fd);
}

static int summary_finish(void *state)
{
	struct summary *s = state;
	FILE *f = s->out;
	int err, lost_err;

	err = put_calls(s, f);
	if (!err)
		err = put_files(s, f);
	/* a sink that failed on the finding has been named by the host already */
	lost_err = report_lost(s, f);
	errno = 0;
	if ((fflush(f) || ferror(f)) && !err)
		err = errno ? -errno : -EIO;
	if (s->own) {
		if (fclose(f) && !err)
			err = -errno;
		s->out = NULL;
	}
	if (err) {
		s->host->log(s->ctx, "cannot write the summary: %s", strerror(-err));
		return err;
	}
	return lost_err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "summary",
	.description = "calls, errors, bytes, time per syscall and per file, like strace -c",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_IOURING),
	.options = options,
	.init = summary_init,
	.event = summary_event,
	.finish = summary_finish,
	.destroy = summary_destroy,
	.rules = rules,
};
