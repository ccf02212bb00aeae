// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary: what strace -c prints, per system call and per file, plus the
 * events the session lost. State is bounded: per-syscall and per-opcode arrays,
 * and at most max_files file rows (the rest are added up in one row).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>

#define NR_MAX	512
#define OPS_MAX	256

enum { O_TOP, O_MAX_FILES, O_OUTPUT };

static const struct dio_option options[] = {
	[O_TOP] = { "top", DIO_OPT_INT, "10", "files listed, by total time" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "10000",
			  "files tracked; more are summed as (other files)" },
	[O_OUTPUT] = { "output", DIO_OPT_STRING, NULL,
		       "file for the tables; \"-\" for standard output (default: standard error)" },
	{ NULL, 0, NULL, NULL },
};

struct row {
	uint64_t calls, errors, bytes, ns, max_ns;
};

struct filerow {
	struct dio_file_tag tag;
	int used;
	uint64_t calls, errors, rbytes, wbytes, ns;
};

struct summary {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct row sys[NR_MAX];
	struct row ops[OPS_MAX];
	uint8_t kind[NR_MAX];		/* 1 reads bytes, 2 writes bytes */
	struct filerow *files;
	size_t cap, nfiles, max_files;
	struct filerow other;
	long top;
	char *output;
};

static const char *const readers[] = { "read", "pread64", "readv", "preadv", "preadv2", NULL };
static const char *const writers[] = { "write", "pwrite64", "writev", "pwritev", "pwritev2",
				       "copy_file_range", "sendfile", "splice", NULL };

static const char *const uring_names[] = {
	"NOP", "READV", "WRITEV", "FSYNC", "READ_FIXED", "WRITE_FIXED", "POLL_ADD", "POLL_REMOVE",
	"SYNC_FILE_RANGE", "SENDMSG", "RECVMSG", "TIMEOUT", "TIMEOUT_REMOVE", "ACCEPT",
	"ASYNC_CANCEL", "LINK_TIMEOUT", "CONNECT", "FALLOCATE", "OPENAT", "CLOSE", "FILES_UPDATE",
	"STATX", "READ", "WRITE", "FADVISE", "MADVISE", "SEND", "RECV", "OPENAT2", "EPOLL_CTL",
	"SPLICE", "PROVIDE_BUFFERS", "REMOVE_BUFFERS", "TEE", "SHUTDOWN", "RENAMEAT", "UNLINKAT",
	"MKDIRAT", "SYMLINKAT", "LINKAT", "MSG_RING", "FSETXATTR", "SETXATTR", "FGETXATTR",
	"GETXATTR", "SOCKET", "URING_CMD", "SEND_ZC", "SENDMSG_ZC",
};

static int in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

static int summary_init(const struct dio_host *host, struct dio_ctx *ctx,
			const struct dio_optval *o, void **state)
{
	struct summary *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	s->top = o[O_TOP].i;
	s->max_files = o[O_MAX_FILES].i > 0 ? o[O_MAX_FILES].i : 1;
	if (o[O_OUTPUT].s && !(s->output = strdup(o[O_OUTPUT].s))) {
		free(s);
		return -ENOMEM;
	}
	for (uint32_t nr = 0; nr < NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		s->kind[nr] = in_list(name, readers) ? 1 : in_list(name, writers) ? 2 : 0;
	}
	*state = s;
	return 0;
}

static uint64_t tag_hash(const struct dio_file_tag *t)
{
	uint64_t h = (t->ino ^ ((uint64_t)t->dev << 32) ^ t->gen) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 31);
}

/* open addressing; the table never holds more than max_files rows */
static struct filerow *file_row(struct summary *s, const struct dio_file_tag *tag)
{
	size_t i;

	if (s->nfiles * 2 >= s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 256;
		struct filerow *n;

		if (s->nfiles >= s->max_files)
			goto lookup_only;
		n = calloc(ncap, sizeof(*n));
		if (!n)
			goto lookup_only;
		for (size_t k = 0; k < s->cap; k++) {
			if (!s->files[k].used)
				continue;
			i = tag_hash(&s->files[k].tag) & (ncap - 1);
			while (n[i].used)
				i = (i + 1) & (ncap - 1);
			n[i] = s->files[k];
		}
		free(s->files);
		s->files = n;
		s->cap = ncap;
	}
lookup_only:
	if (!s->cap)
		return &s->other;
	i = tag_hash(tag) & (s->cap - 1);
	while (s->files[i].used) {
		if (!memcmp(&s->files[i].tag, tag, sizeof(*tag)))
			return &s->files[i];
		i = (i + 1) & (s->cap - 1);
	}
	if (s->nfiles >= s->max_files || s->nfiles * 2 >= s->cap)
		return &s->other;
	s->files[i].used = 1;
	s->files[i].tag = *tag;
	s->nfiles++;
	return &s->files[i];
}

static void account(struct row *r, int64_t ret, uint64_t ns, int kind)
{
	r->calls++;
	r->ns += ns;
	if (ns > r->max_ns)
		r->max_ns = ns;
	if (ret < 0 && ret >= -4095)
		r->errors++;
	else if (kind && ret > 0)
		r->bytes += ret;
}

static int summary_event(void *state, const struct dio_ev_hdr *ev)
{
	struct summary *s = state;

	if (ev->type == DIO_EV_SYSCALL) {
		const struct dio_ev_syscall *e = (const void *)ev;
		int kind = e->nr < NR_MAX ? s->kind[e->nr] : 0;

		if (e->nr < NR_MAX)
			account(&s->sys[e->nr], e->ret, e->duration, kind);
		if (e->flags & DIO_SF_FILE) {
			struct filerow *f = file_row(s, &e->tag);

			f->calls++;
			f->ns += e->duration;
			if (e->ret < 0 && e->ret >= -4095)
				f->errors++;
			else if (kind == 1 && e->ret > 0)
				f->rbytes += e->ret;
			else if (kind == 2 && e->ret > 0)
				f->wbytes += e->ret;
		}
	} else if (ev->type == DIO_EV_IOURING) {
		const struct dio_ev_iouring *u = (const void *)ev;
		/* READV READ READ_FIXED move bytes in, WRITEV WRITE WRITE_FIXED out */
		int kind = (u->opcode == 1 || u->opcode == 4 || u->opcode == 22) ? 1 :
			   (u->opcode == 2 || u->opcode == 5 || u->opcode == 23) ? 2 : 0;

		account(&s->ops[u->opcode], u->res, u->duration, kind);
		if (u->flags & DIO_IF_FILE) {
			struct filerow *f = file_row(s, &u->tag);

			f->calls++;
			f->ns += u->duration;
			if (u->res < 0)
				f->errors++;
			else if (kind == 1)
				f->rbytes += u->res;
			else if (kind == 2)
				f->wbytes += u->res;
		}
	}
	return 0;
}

struct line {
	char name[48];
	const struct row *r;
};

static int by_time(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->r->ns != y->r->ns)
		return x->r->ns < y->r->ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int file_by_time(const void *a, const void *b)
{
	const struct filerow *x = *(struct filerow *const *)a, *y = *(struct filerow *const *)b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->tag.ino < y->tag.ino ? -1 : x->tag.ino > y->tag.ino;
}

static void print_tables(struct summary *s, FILE *f)
{
	struct line lines[NR_MAX + OPS_MAX];
	struct row total = { 0 };
	struct filerow **fr;
	size_t n = 0, nf = 0;
	const char *dash = "------ ----------- ----------- ----------- --------- --------- ------------ ----------------";

	for (uint32_t nr = 0; nr < NR_MAX; nr++) {
		if (!s->sys[nr].calls)
			continue;
		snprintf(lines[n].name, sizeof(lines[n].name), "%s", s->host->syscall_name(nr));
		lines[n++].r = &s->sys[nr];
	}
	for (uint32_t op = 0; op < OPS_MAX; op++) {
		if (!s->ops[op].calls)
			continue;
		if (op < sizeof(uring_names) / sizeof(uring_names[0]))
			snprintf(lines[n].name, sizeof(lines[n].name), "io_uring:%s", uring_names[op]);
		else
			snprintf(lines[n].name, sizeof(lines[n].name), "io_uring:%u", op);
		lines[n++].r = &s->ops[op];
	}
	qsort(lines, n, sizeof(lines[0]), by_time);
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
	fprintf(f, "%s\n", dash);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = lines[i].r;

		fprintf(f, "%6.2f %11.6f %11" PRIu64 " %11" PRIu64 " %9" PRIu64 " %9" PRIu64 " %12" PRIu64 " %s\n",
			total.ns ? 100.0 * r->ns / total.ns : 0.0, r->ns / 1e9,
			r->ns / r->calls / 1000, r->max_ns / 1000, r->calls, r->errors, r->bytes,
			lines[i].name);
	}
	fprintf(f, "%s\n", dash);
	fprintf(f, "%6.2f %11.6f %11" PRIu64 " %11" PRIu64 " %9" PRIu64 " %9" PRIu64 " %12" PRIu64 " total\n",
		100.0, total.ns / 1e9, total.calls ? total.ns / total.calls / 1000 : 0,
		total.max_ns / 1000, total.calls, total.errors, total.bytes);

	if (!s->nfiles && !s->other.calls)
		return;
	fr = calloc(s->nfiles + 1, sizeof(*fr));
	if (!fr)
		return;
	for (size_t i = 0; i < s->cap; i++)
		if (s->files[i].used)
			fr[nf++] = &s->files[i];
	qsort(fr, nf, sizeof(*fr), file_by_time);
	fprintf(f, "\nfiles by time (top %ld of %zu):\n", s->top, nf);
	fprintf(f, "%11s %9s %9s %12s %12s %s\n", "seconds", "calls", "errors", "read", "written",
		"file");
	for (size_t i = 0; i < nf && (long)i < s->top; i++) {
		const char *path = s->host->tag_path(s->ctx, &fr[i]->tag);

		fprintf(f, "%11.6f %9" PRIu64 " %9" PRIu64 " %12" PRIu64 " %12" PRIu64 " %s\n",
			fr[i]->ns / 1e9, fr[i]->calls, fr[i]->errors, fr[i]->rbytes, fr[i]->wbytes,
			path ? path : "?");
	}
	if (s->other.calls)
		fprintf(f, "%11.6f %9" PRIu64 " %9" PRIu64 " %12" PRIu64 " %12" PRIu64 " (other files: more than max_files=%zu)\n",
			s->other.ns / 1e9, s->other.calls, s->other.errors, s->other.rbytes,
			s->other.wbytes, s->max_files);
	free(fr);
}

static int summary_finish(void *state)
{
	struct summary *s = state;
	struct dio_stats st;
	uint64_t lost;
	FILE *f = stderr;
	int own = 0;

	if (s->output && !strcmp(s->output, "-")) {
		f = stdout;
	} else if (s->output) {
		f = fopen(s->output, "we");
		if (!f) {
			int e = -errno;

			s->host->log(s->ctx, "cannot open output '%s': %s", s->output, strerror(errno));
			return e;
		}
		own = 1;
	}
	print_tables(s, f);
	s->host->stats(s->ctx, &st);
	lost = st.lost_ringbuf + st.lost_inflight + st.lost_iouring + st.lost_other;
	if (lost) {
		struct dio_finding fd = { .size = sizeof(fd), .severity = DIO_SEV_WARNING };
		char title[256];

		snprintf(title, sizeof(title),
			 "%" PRIu64 " events were lost (ring buffer full: %" PRIu64 ", in-flight table full: %" PRIu64 ", io_uring table full: %" PRIu64 ", other: %" PRIu64 ")",
			 lost, st.lost_ringbuf, st.lost_inflight, st.lost_iouring, st.lost_other);
		fprintf(f, "dio: warning: %" PRIu64 " events lost\n", lost);
		fd.code = "summary.lost-events";
		fd.title = title;
		fd.message = "The tables above miss these calls. Enlarge the ring (--ring-size), "
			     "drain it more often (--drain-ms, --wakeup-at) or trace less "
			     "(--path, --syscalls, --only-files).";
		fd.count = lost;
		s->host->emit_finding(s->ctx, &fd);
	}
	if (own)
		fclose(f);
	else
		fflush(f);
	return 0;
}

static void summary_destroy(void *state)
{
	struct summary *s = state;

	if (!s)
		return;
	free(s->files);
	free(s->output);
	free(s);
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "summary",
	.description = "per-syscall and per-file counts, bytes, latency (like strace -c), lost events",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_IOURING),
	.options = options,
	.init = summary_init,
	.event = summary_event,
	.finish = summary_finish,
	.destroy = summary_destroy,
};
