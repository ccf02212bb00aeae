// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reuse-offset: a reader that carries its file offset over to a file that only
 * looks like the one it read before. A log is deleted and created again under
 * the same name, the file system hands the freed inode number out again, and a
 * follower that keys its saved offset by name and inode number (Fluent Bit's
 * tail input in 1.4, fluent-bit#1875) resumes the new file at the old
 * offset: what was written below it is never read. dio's file tags carry the
 * inode generation, which is what tells the two files apart.
 *
 * Followed per inode number (dev+ino): the generation last seen, the bytes
 * written to it (a few ranges), how far readers got; per file+process: how
 * far that process read. A reader whose first read of a new generation starts
 * where it (or any reader) left the earlier one, or whose read returns 0 past
 * the end of a file that was written again below it, becomes a suspect, and
 * is reported when its process exits, the file is replaced again, or the
 * trace ends, with the bytes written below its offset that it never read.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/pool.h"
#include "analyzers/common/table.h"

enum { O_MIN_LOST, O_ANY_OFFSET, O_MAX_FILES, O_MAX_READERS, O_MAX_SUSPECTS, O_MAX_REMOVALS };

static const struct dio_option options[] = {
	[O_MIN_LOST] = { "min_lost", DIO_OPT_INT, "1",
			 "bytes a reader must have missed for a finding" },
	[O_ANY_OFFSET] = { "any_offset", DIO_OPT_BOOL, "false",
			   "a first read of a new file at any offset > 0 is suspect, not only at "
			   "the offset a reader had reached in the earlier file" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "8192", "inode numbers followed" },
	[O_MAX_READERS] = { "max_readers", DIO_OPT_INT, "16384",
			    "file+process pairs whose read offsets are kept" },
	[O_MAX_SUSPECTS] = { "max_suspects", DIO_OPT_INT, "128",
			     "readers at a stale offset followed until they are reported" },
	[O_MAX_REMOVALS] = { "max_removals", DIO_OPT_INT, "1024",
			     "unlink and rename calls kept, to tell who deleted a file" },
	{ NULL, 0, NULL, NULL },
};

/* ---- a few byte ranges ----------------------------------------------------- */

#define RANGES	4

/* sorted, disjoint and not touching; half-open [lo, hi) */
struct ranges {
	uint64_t lo[RANGES], hi[RANGES];
	uint32_t n;
	uint32_t approx;	/* a gap was filled to stay within RANGES */
};

static void ranges_add(struct ranges *r, uint64_t lo, uint64_t hi)
{
	uint64_t l[RANGES + 1], h[RANGES + 1];
	uint32_t i, j, n, k, best;

	if (lo >= hi)
		return;
	for (i = 0; i < r->n && r->hi[i] < lo; i++)
		;
	for (j = i; j < r->n && r->lo[j] <= hi; j++)
		;
	/* ranges i..j-1 overlap or touch [lo, hi): they become one */
	if (j > i) {
		if (r->lo[i] < lo)
			lo = r->lo[i];
		if (r->hi[j - 1] > hi)
			hi = r->hi[j - 1];
	}
	n = 0;
	for (k = 0; k < i; k++, n++) {
		l[n] = r->lo[k];
		h[n] = r->hi[k];
	}
	l[n] = lo;
	h[n++] = hi;
	for (k = j; k < r->n; k++, n++) {
		l[n] = r->lo[k];
		h[n] = r->hi[k];
	}
	if (n > RANGES) {
		/* one too many: fill the smallest gap (the bytes in it count as covered) */
		best = 0;
		for (k = 1; k + 1 < n; k++)
			if (l[k + 1] - h[k] < l[best + 1] - h[best])
				best = k;
		h[best] = h[best + 1];
		for (k = best + 1; k + 1 < n; k++) {
			l[k] = l[k + 1];
			h[k] = h[k + 1];
		}
		n--;
		r->approx = 1;
	}
	memcpy(r->lo, l, n * sizeof(l[0]));
	memcpy(r->hi, h, n * sizeof(h[0]));
	r->n = n;
}

/* drop everything at or past len */
static void ranges_clip(struct ranges *r, uint64_t len)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < r->n; k++) {
		if (r->lo[k] >= len)
			break;
		r->lo[n] = r->lo[k];
		r->hi[n] = r->hi[k] < len ? r->hi[k] : len;
		n++;
	}
	r->n = n;
}

static uint64_t ranges_below(const struct ranges *r, uint64_t x)
{
	uint64_t sum = 0;

	for (uint32_t k = 0; k < r->n && r->lo[k] < x; k++)
		sum += (r->hi[k] < x ? r->hi[k] : x) - r->lo[k];
	return sum;
}

/* bytes of w below x that are not in c */
static uint64_t ranges_missing(const struct ranges *w, const struct ranges *c, uint64_t x)
{
	uint64_t missing = 0;

	for (uint32_t k = 0; k < w->n && w->lo[k] < x; k++) {
		uint64_t lo = w->lo[k], hi = w->hi[k] < x ? w->hi[k] : x;

		missing += hi - lo;
		for (uint32_t m = 0; m < c->n; m++) {
			uint64_t a = c->lo[m] > lo ? c->lo[m] : lo;
			uint64_t b = c->hi[m] < hi ? c->hi[m] : hi;

			if (a < b)
				missing -= b - a;
		}
	}
	return missing;
}

/* ---- state ------------------------------------------------------------------ */

/* a record kept for an excerpt: an unlink with its path, a read, a write */
#define REC_ROOM	448

struct rec {
	uint64_t w[REC_ROOM / 8];	/* a record, hdr.size 0 when empty */
};

/*
 * For a file that replaced an earlier one (a new generation, or a truncation
 * that threw data away): the call that did it, the first write after it, and
 * the last lseek on it (a follower moving to its saved offset).
 */
struct extra {
	struct rec replaced, first_write, seek;
};

struct ikey {
	uint64_t ino;
	uint32_t dev, pad;
};

/* what dio knows of one generation of an inode */
struct genstate {
	uint32_t size_known;	/* no data past size but what dio saw written */
	uint32_t epoch;		/* truncations that threw data away */
	uint64_t gen_ts;	/* first record of this generation */
	uint64_t size;		/* the end of the data, as far as dio has seen */
	uint64_t wbytes;	/* bytes written since creation or the last truncation */
	uint64_t read_end;	/* the furthest offset a read reached */
	uint64_t deleted_ts;	/* a path record said the file was deleted */
	uint32_t wpid, wtid;	/* first writer since creation or the last truncation */
	uint32_t other_writers;	/* a process other than wpid wrote */
	char wcomm[DIO_COMM_LEN];
	struct ranges written;	/* since creation or the last truncation */
};

struct inode {
	uint32_t gen, prev_gen;
	uint32_t has_prev;	/* prev_gen, prev_read_end and prev_deleted are known */
	uint32_t prev_deleted;	/* a path record said the earlier file was deleted */
	uint32_t extra;		/* pool index + 1 of its struct extra, 0: none */
	uint32_t nsusp;		/* suspects reading this generation */
	uint64_t prev_read_end;
	struct genstate g;
};

/* a file (one generation) and a process */
struct rkey {
	struct dio_file_tag tag;
	uint32_t pid, pad;
};

struct reader {
	uint64_t max_end, last_end, last_ts;
	uint64_t lo, hi;	/* hull of the reads since the last truncation */
	uint32_t epoch;		/* the inode's epoch lo and hi belong to */
	uint32_t reported;	/* a finding was made for this reader */
};

#define KIND_STALE	1	/* first read of a new generation at an old offset */
#define KIND_PAST_END	2	/* read returned 0 past the end, data written below */

#define SUSPECT_RECS	6

struct suspect {
	uint32_t kind, tid;
	char comm[DIO_COMM_LEN];
	uint64_t off;		/* where it reads */
	uint64_t old_end;	/* KIND_STALE: where it had left the earlier file */
	uint64_t size_then;	/* KIND_PAST_END: the file's size at the first such read */
	uint32_t same_reader;	/* KIND_STALE: this process read the earlier file */
	uint32_t nrec;
	uint64_t first_ts, last_ts, reads, eof_reads, bytes_read;
	uint64_t more;		/* calls left out of the excerpt */
	struct ranges read;	/* what it read of this generation */
	struct rec rec[SUSPECT_RECS];
};

struct removal {
	struct rec rec;		/* the unlink or rename, with its path arguments */
};

struct ro {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint8_t open_flags_arg[CALLS_NR_MAX];	/* argument with the open flags + 1, 0: none */
	uint8_t creat[CALLS_NR_MAX];
	uint64_t min_lost;
	int any_offset;
	struct table inodes, readers, suspects, removals;
	struct pool extras;
	struct picked *batch;	/* suspects to report at once */
	size_t max_suspects;
	struct excerpt x;
};

static struct extra *extra_of(struct ro *st, const struct inode *n)
{
	return n->extra ? pool_at(&st->extras, (int32_t)n->extra - 1) : NULL;
}

/* the inode's extra block, zeroed; NULL when the pool is used up */
static struct extra *extra_new(struct ro *st, struct inode *n)
{
	struct extra *x = extra_of(st, n);
	int32_t i;

	if (x) {
		memset(x, 0, sizeof(*x));
		return x;
	}
	i = pool_get(&st->extras);
	if (i == POOL_NONE)
		return NULL;
	n->extra = (uint32_t)i + 1;
	return pool_at(&st->extras, i);
}

static const struct dio_ev_syscall *rec_ev(const struct rec *r)
{
	const struct dio_ev_syscall *e = (const void *)r->w;

	return e->hdr.size ? e : NULL;
}

static void rec_set(struct rec *r, const struct dio_ev_syscall *e)
{
	if (!rec_copy(r->w, sizeof(r->w), &e->hdr))
		memset(r, 0, sizeof(*r));
}

static struct dio_file_tag tag_of(uint64_t ino, uint32_t dev, uint32_t gen)
{
	struct dio_file_tag t = { .ino = ino, .dev = dev, .gen = gen };

	return t;
}

/* ---- reports ------------------------------------------------------------- */

static void add_rec(struct suspect *s, const struct dio_ev_syscall *e)
{
	if (s->nrec < SUSPECT_RECS)
		rec_set(&s->rec[s->nrec++], e);
	else
		s->more++;
}

/* "pid 811 (logwriter)": who did what a saved record shows */
static void who(char *buf, size_t len, uint32_t pid, const char *comm)
{
	snprintf(buf, len, "pid %u (%.*s)", pid, DIO_COMM_LEN, comm);
}

/*
 * How the data of the file went away, from the call saved for it: "deleted
 * (unlink by pid 811 (rm)) and created again", "truncated (ftruncate by ...)".
 */
static void replaced_by(struct ro *st, const struct inode *n, char *buf, size_t len)
{
	struct extra *x = extra_of(st, n);
	const struct dio_ev_syscall *e = x ? rec_ev(&x->replaced) : NULL;
	enum call_kind k = e ? call_kind(&st->kinds, e->nr) : CALL_OTHER;
	int deleted = e ? k == CALL_UNLINK || k == CALL_RENAME : n->has_prev;
	char w[64], by[128] = "";

	if (e) {
		who(w, sizeof(w), e->pid, e->comm);
		snprintf(by, sizeof(by), " (%s by %s)", st->host->syscall_name(e->nr), w);
	} else if (deleted && n->prev_deleted) {
		snprintf(by, sizeof(by), " (dio did not see the call)");
	}
	snprintf(buf, len, "%s%s%s", deleted ? "deleted" : "truncated", by,
		 deleted ? " and created again" : "");
}

static void report(struct ro *st, const struct rkey *k, struct suspect *s,
		   const struct inode *n)
{
	struct dio_finding f = { .size = sizeof(f) };
	struct dio_file_tag tag = k->tag;
	const char *path = st->host->tag_path(st->ctx, &tag);
	char title[512], msg[2048], reader[64], writer[96], how[192];
	uint64_t lost, below;
	struct reader *r;

	if (!n || n->gen != k->tag.gen)
		return;
	lost = ranges_missing(&n->g.written, &s->read, s->off);
	if (lost < st->min_lost)
		return;
	below = ranges_below(&n->g.written, s->off);
	who(reader, sizeof(reader), k->pid, s->comm);
	who(writer, sizeof(writer), n->g.wpid, n->g.wcomm);
	if (n->g.other_writers)
		strcat(writer, " and others");
	replaced_by(st, n, how, sizeof(how));
	if (!path)
		path = "(path unknown)";
	if (s->kind == KIND_STALE) {
		f.code = "reuse-offset.stale-offset";
		f.severity = DIO_SEV_ERROR;
		snprintf(title, sizeof(title),
			 "%s resumed the new %s at its old offset %" PRIu64 ": %" PRIu64
			 " bytes %s wrote below it were never read", reader, path, s->off, lost,
			 writer);
		snprintf(msg, sizeof(msg),
			 "%s was %s, and the new file got the same inode "
			 "number %" PRIu64 " back with a new generation (%u, then %u): a key of "
			 "name and inode number cannot tell the two files apart. %s "
			 "had read the earlier file up to offset %" PRIu64 "; its first read of "
			 "the new one was at offset %" PRIu64 ", not 0, so %" PRIu64 " of the %"
			 PRIu64 " bytes written below that offset were never read; %" PRIu64
			 " of its %" PRIu64 " reads returned 0. This is how Fluent Bit's tail "
			 "input lost log lines (fluent-bit#1875).\n"
			 "Fix: key a saved offset by device, inode number and something that "
			 "changes when the file is created again (the inode generation from "
			 "ioctl FS_IOC_GETVERSION, or the birth time from statx STATX_BTIME); "
			 "forget it when the file is deleted (st_nlink == 0 in fstat of the open "
			 "fd, inotify IN_DELETE_SELF); start again at 0 when the file is shorter "
			 "than the saved offset.",
			 path, how, (uint64_t)k->tag.ino, n->prev_gen, n->gen,
			 s->same_reader ? "It" : "A reader (another process)", s->old_end, s->off,
			 lost, below, s->eof_reads, s->reads);
	} else {
		f.code = "reuse-offset.read-past-end";
		f.severity = DIO_SEV_WARNING;
		snprintf(title, sizeof(title),
			 "%s waits at offset %" PRIu64 " of %s, past its end at %" PRIu64 ": %"
			 PRIu64 " bytes %s wrote below it were never read", reader, s->off, path,
			 s->size_then, lost, writer);
		snprintf(msg, sizeof(msg),
			 "Reads at offset %" PRIu64 " returned 0 (end of file) %" PRIu64 " times "
			 "while the file held %" PRIu64 " bytes: it was %s and written again "
			 "from the start, but the reader kept its old offset, so it waits for data "
			 "past the end while the new data sits below it: %" PRIu64 " of the %"
			 PRIu64 " bytes written below offset %" PRIu64 " were never read.\n"
			 "Fix: when a read returns 0, compare the size from fstat with the "
			 "offset; a smaller size means the file was truncated (copytruncate "
			 "rotation) or replaced: start again at 0, as tail -F does.",
			 s->off, s->eof_reads, s->size_then, how, lost, below, s->off);
	}
	f.title = title;
	f.message = msg;
	f.pid = k->pid;
	f.tid = s->tid;
	f.comm = s->comm;
	f.path = st->host->tag_path(st->ctx, &tag);
	f.tag = tag;
	f.has_tag = 1;
	f.ts_first = s->first_ts;
	f.ts_last = s->last_ts;
	f.count = lost;
	excerpt_reset(&st->x);
	for (uint32_t i = 0; i < s->nrec; i++)
		excerpt_add_fmt(&st->x, st->host, st->ctx, &rec_ev(&s->rec[i])->hdr, SUSPECT_RECS,
				DIO_FMT_DETAILS);
	st->x.more += s->more;
	f.excerpt = excerpt_text(&st->x);
	st->host->emit_finding(st->ctx, &f);
	/* the reader entry may be gone; then nothing stops a second suspect, which is rare */
	r = table_get(&st->readers, k);
	if (r)
		r->reported = 1;
}

static int key_cmp(const struct rkey *a, const struct rkey *b)
{
	int c = file_tag_cmp(&a->tag, &b->tag);

	if (c || a->pid == b->pid)
		return c;
	return a->pid < b->pid ? -1 : 1;
}

/* a suspect to report, and when it arose */
struct picked {
	struct rkey k;
	uint64_t first_ts;
};

struct pick {
	struct ro *st;
	const struct rkey *like;	/* match the tag, or the pid when like's tag is zero */
	size_t n;
};

static void pick_one(void *key, void *val, void *ud)
{
	struct pick *p = ud;
	const struct rkey *k = key, *l = p->like;

	if (l && (l->tag.ino ? file_tag_cmp(&k->tag, &l->tag) : k->pid != l->pid))
		return;
	p->st->batch[p->n].k = *k;
	p->st->batch[p->n++].first_ts = ((const struct suspect *)val)->first_ts;
}

/* in the order the suspects arose, whatever their places in the table */
static int batch_cmp(const void *a, const void *b)
{
	const struct picked *x = a, *y = b;

	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	return key_cmp(&x->k, &y->k);
}

/*
 * Report and forget the suspects like `like` (all with NULL). n: their inode when
 * the caller has it (it is being evicted or changes generation), else looked up.
 */
static void settle(struct ro *st, const struct rkey *like, struct inode *n)
{
	struct pick p = { .st = st, .like = like };

	if (!st->suspects.n)
		return;
	table_each(&st->suspects, pick_one, &p);
	qsort(st->batch, p.n, sizeof(*st->batch), batch_cmp);
	for (size_t i = 0; i < p.n; i++) {
		const struct rkey *k = &st->batch[i].k;
		struct ikey ik = { .ino = k->tag.ino, .dev = k->tag.dev };
		struct inode *in = n ? n : table_get(&st->inodes, &ik);

		report(st, k, table_get(&st->suspects, k), in);
		if (in && in->nsusp)
			in->nsusp--;
		table_del(&st->suspects, k);
	}
}

/* ---- events -------------------------------------------------------------- */

static void on_inode_evict(void *key, void *val, void *ud)
{
	struct ro *st = ud;
	const struct ikey *ik = key;
	struct inode *n = val;
	struct rkey like = { .tag = tag_of(ik->ino, ik->dev, n->gen) };

	if (n->nsusp)
		settle(st, &like, n);
	if (n->extra)
		pool_put(&st->extras, (int32_t)n->extra - 1);
}

static void on_suspect_evict(void *key, void *val, void *ud)
{
	struct ro *st = ud;
	const struct rkey *k = key;
	struct ikey ik = { .ino = k->tag.ino, .dev = k->tag.dev };
	struct inode *n = table_get(&st->inodes, &ik);

	report(st, k, val, n);
	if (n && n->gen == k->tag.gen && n->nsusp)
		n->nsusp--;
}

/* the last path component of s (len bytes, NUL included or not) */
static const char *base_name(const char *s, size_t len, size_t *blen)
{
	size_t l = strnlen(s, len), b = l;

	while (b > 0 && s[b - 1] != '/')
		b--;
	*blen = l - b;
	return s + b;
}

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

/* the path a successful unlink removed or a rename replaced: NULL if not readable */
static const char *removed_path(const struct ro *st, const struct dio_ev_syscall *e, size_t *len)
{
	const char *s = (const char *)(e + 1);
	size_t got = e->hdr.size - sizeof(*e);

	if (call_kind(&st->kinds, e->nr) == CALL_UNLINK) {
		if (!e->str_len[0] || (e->flags & DIO_SF_STR0_FAULT) || e->str_len[0] > got)
			return NULL;
		*len = e->str_len[0];
		return s;
	}
	/* rename: the new name, whose file (if any) is the one that goes away */
	if (!e->str_len[1] || (e->flags & DIO_SF_STR1_FAULT) ||
	    (size_t)e->str_len[0] + e->str_len[1] > got)
		return NULL;
	*len = e->str_len[1];
	return s + e->str_len[0];
}

static void note_removal(struct ro *st, const struct dio_ev_syscall *e)
{
	size_t len, blen;
	const char *p = removed_path(st, e, &len), *b;
	uint64_t h;

	if (!p)
		return;
	b = base_name(p, len, &blen);
	if (!blen)
		return;
	h = name_hash(b, blen);
	rec_set(&((struct removal *)table_put(&st->removals, &h, NULL))->rec, e);
}

/* does the argument arg name path? Relative ones are matched as a suffix. */
static int names(const char *arg, size_t len, const char *path)
{
	size_t l = strnlen(arg, len), pl = strlen(path);

	if (l && arg[0] == '/')
		return l == pl && !memcmp(arg, path, l);
	while (l >= 2 && arg[0] == '.' && arg[1] == '/') {
		arg += 2;
		l -= 2;
	}
	return l && l < pl && path[pl - l - 1] == '/' && !memcmp(path + pl - l, arg, l);
}

/* the unlink or rename since `since` that took path away, or NULL */
static const struct dio_ev_syscall *removal_of(struct ro *st, const char *path, uint64_t since)
{
	size_t blen, len;
	const char *b = base_name(path, strlen(path) + 1, &blen), *arg;
	uint64_t h = name_hash(b, blen);
	struct removal *r = blen ? table_get(&st->removals, &h) : NULL;
	const struct dio_ev_syscall *e = r ? rec_ev(&r->rec) : NULL;

	if (!e || e->hdr.ts < since)
		return NULL;
	arg = removed_path(st, e, &len);
	return arg && names(arg, len, path) ? e : NULL;
}

static void new_generation(struct ro *st, const struct ikey *ik, struct inode *n,
			   const struct dio_ev_syscall *e)
{
	struct dio_file_tag old = tag_of(ik->ino, ik->dev, n->gen);
	struct rkey like = { .tag = tag_of(ik->ino, ik->dev, n->gen) };
	uint64_t since = n->g.gen_ts;
	const char *path;
	struct extra *x;

	/* the suspects of the earlier file are complete: it will not be written again */
	if (n->nsusp)
		settle(st, &like, n);
	n->prev_read_end = n->g.read_end;
	n->prev_deleted = n->g.deleted_ts != 0;
	n->prev_gen = n->gen;
	n->has_prev = 1;
	memset(&n->g, 0, sizeof(n->g));
	n->gen = e->tag.gen;
	n->g.gen_ts = e->hdr.ts;
	/* a new file: dio sees all its data, if it sees every writer */
	n->g.size_known = 1;
	x = extra_new(st, n);
	path = st->host->tag_path(st->ctx, &old);
	if (x && path) {
		const struct dio_ev_syscall *r = removal_of(st, path, since);

		if (r)
			rec_set(&x->replaced, r);
	}
}

/* the inode entry of e's file, in e's generation; NULL for a late record of an older one */
static struct inode *inode_for(struct ro *st, const struct dio_ev_syscall *e)
{
	struct ikey ik = { .ino = e->tag.ino, .dev = e->tag.dev };
	int created;
	struct inode *n = table_put(&st->inodes, &ik, &created);

	if (created) {
		n->gen = e->tag.gen;
		n->g.gen_ts = e->hdr.ts;
		return n;
	}
	if (n->gen == e->tag.gen)
		return n;
	/* records of one file can reach dio a little out of order across CPUs */
	if (n->has_prev && n->prev_gen == e->tag.gen)
		return NULL;
	new_generation(st, &ik, n, e);
	return n;
}

static void truncated(struct ro *st, struct inode *n, const struct dio_ev_syscall *e,
		      uint64_t len)
{
	/* data dio saw past len is gone; data it did not see may be gone too */
	int discarded = n->g.size > len;

	/* what the suspects missed is final: it is not there any more */
	if (discarded && n->nsusp) {
		struct rkey like = { .tag = e->tag };

		settle(st, &like, n);
	}
	if (discarded || !n->g.size_known)
		n->g.epoch++;
	ranges_clip(&n->g.written, len);
	n->g.wbytes = ranges_below(&n->g.written, UINT64_MAX);
	n->g.size = len;
	n->g.size_known = 1;
	n->g.wpid = 0;
	n->g.other_writers = 0;
	if (discarded) {
		struct extra *x = extra_new(st, n);

		if (x)
			rec_set(&x->replaced, e);
	}
}

static void wrote(struct ro *st, struct inode *n, const struct dio_ev_syscall *e)
{
	uint64_t lo = (uint64_t)e->offset, hi = lo + (uint64_t)e->ret;
	struct extra *x;

	ranges_add(&n->g.written, lo, hi);
	n->g.wbytes += (uint64_t)e->ret;
	if (hi > n->g.size)
		n->g.size = hi;
	if (!n->g.wpid) {
		n->g.wpid = e->pid;
		n->g.wtid = e->tid;
		memcpy(n->g.wcomm, e->comm, sizeof(n->g.wcomm));
		x = extra_of(st, n);
		if (x && !rec_ev(&x->first_write))
			rec_set(&x->first_write, e);
	} else if (n->g.wpid != e->pid) {
		n->g.other_writers = 1;
	}
}

static struct suspect *suspect_new(struct ro *st, struct inode *n, const struct rkey *k,
				   const struct dio_ev_syscall *e, uint32_t kind)
{
	struct suspect *s = table_put(&st->suspects, k, NULL);
	struct extra *x = extra_of(st, n);
	const struct dio_ev_syscall *r;

	s->kind = kind;
	s->tid = e->tid;
	memcpy(s->comm, e->comm, sizeof(s->comm));
	s->off = (uint64_t)e->offset;
	s->first_ts = e->hdr.ts;
	n->nsusp++;
	/* what replaced the file and the first write to the new one come first */
	if (x && (r = rec_ev(&x->replaced)))
		add_rec(s, r);
	if (x && (r = rec_ev(&x->first_write)) && r->hdr.ts <= e->hdr.ts)
		add_rec(s, r);
	if (x && (r = rec_ev(&x->seek)) && r->pid == e->pid && r->ret == e->offset)
		add_rec(s, r);
	return s;
}

/* a first read of a new generation at off > 0: where the reader, or any, left the old one? */
static struct suspect *stale_check(struct ro *st, struct inode *n, const struct rkey *k,
				   const struct dio_ev_syscall *e)
{
	struct rkey ok = *k;
	const struct reader *old;
	uint64_t off = (uint64_t)e->offset, old_end;
	struct suspect *s;

	ok.tag.gen = n->prev_gen;
	old = table_get(&st->readers, &ok);
	if (old && (off == old->last_end || off == old->max_end))
		old_end = off;
	else if (off == n->prev_read_end)
		old_end = off;
	else if (st->any_offset)
		old_end = old ? old->max_end : n->prev_read_end;
	else
		return NULL;
	s = suspect_new(st, n, k, e, KIND_STALE);
	s->old_end = old_end;
	s->same_reader = old != NULL;
	return s;
}

static void did_read(struct ro *st, struct inode *n, const struct dio_ev_syscall *e)
{
	uint64_t off = (uint64_t)e->offset, got = e->ret > 0 ? (uint64_t)e->ret : 0;
	struct rkey k = { .tag = e->tag, .pid = e->pid };
	struct suspect *s = st->suspects.n ? table_get(&st->suspects, &k) : NULL;
	int created;
	struct reader *r = table_put(&st->readers, &k, &created);

	if (r->epoch != n->g.epoch) {
		r->lo = r->hi = 0;
		r->epoch = n->g.epoch;
	}
	if (!s && created && off > 0 && n->has_prev)
		s = stale_check(st, n, &k, e);
	if (!s && !got && off > 0 && n->g.size_known && off > n->g.size && n->g.wbytes &&
	    !r->reported) {
		s = suspect_new(st, n, &k, e, KIND_PAST_END);
		s->size_then = n->g.size;
		/* what it read before since the last truncation: at most this much is not lost */
		ranges_add(&s->read, r->lo, r->hi);
	}
	r->last_end = off + got;
	r->last_ts = e->hdr.ts;
	if (got) {
		if (r->hi == r->lo) {
			r->lo = off;
			r->hi = off + got;
		} else {
			if (off < r->lo)
				r->lo = off;
			if (off + got > r->hi)
				r->hi = off + got;
		}
		if (off + got > r->max_end)
			r->max_end = off + got;
		if (off + got > n->g.read_end)
			n->g.read_end = off + got;
		if (off + got > n->g.size)
			n->g.size = off + got;
	}
	if (!s)
		return;
	s->reads++;
	s->eof_reads += !got;
	s->bytes_read += got;
	ranges_add(&s->read, off, off + got);
	s->last_ts = e->hdr.ts;
	add_rec(s, e);
}

static int opens_trunc(const struct ro *st, const struct dio_ev_syscall *e)
{
	uint8_t a = e->nr < CALLS_NR_MAX ? st->open_flags_arg[e->nr] : 0;

	if (e->nr < CALLS_NR_MAX && st->creat[e->nr])
		return 1;
	return a && (e->args[a - 1] & O_TRUNC);
}

static void on_syscall(struct ro *st, const struct dio_ev_syscall *e)
{
	enum call_kind k = call_kind(&st->kinds, e->nr);
	struct inode *n;

	if (call_failed(e->ret))
		return;
	if (k == CALL_UNLINK || k == CALL_RENAME) {
		note_removal(st, e);
		return;
	}
	if (k != CALL_READ && k != CALL_WRITE && k != CALL_OPEN && k != CALL_TRUNCATE &&
	    k != CALL_SEEK)
		return;
	if (!(e->flags & DIO_SF_FILE) || e->ftype != DIO_FT_REG)
		return;
	n = inode_for(st, e);
	if (!n)
		return;
	switch (k) {
	case CALL_OPEN:
		if (opens_trunc(st, e))
			truncated(st, n, e, 0);
		break;
	case CALL_TRUNCATE:
		truncated(st, n, e, e->args[1]);
		break;
	case CALL_WRITE:
		if (e->ret > 0 && (e->flags & DIO_SF_OFFSET) && e->offset >= 0)
			wrote(st, n, e);
		break;
	case CALL_READ:
		if ((e->flags & DIO_SF_OFFSET) && e->offset >= 0)
			did_read(st, n, e);
		break;
	case CALL_SEEK: {
		struct extra *x = extra_of(st, n);

		if (x)
			rec_set(&x->seek, e);
		break;
	}
	default:
		break;
	}
}

static int ro_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ro *st = state;

	if (ev->type == DIO_EV_SYSCALL && ev->size >= sizeof(struct dio_ev_syscall)) {
		on_syscall(st, (const void *)ev);
	} else if (ev->type == DIO_EV_PATH) {
		const struct dio_ev_path *p = (const void *)ev;
		struct ikey ik = { .ino = p->tag.ino, .dev = p->tag.dev };
		struct inode *n = (p->flags & DIO_PF_DELETED) ? table_get(&st->inodes, &ik) : NULL;

		if (n && n->gen == p->tag.gen && !n->g.deleted_ts)
			n->g.deleted_ts = ev->ts;
	} else if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *p = (const void *)ev;
		struct rkey like = { .pid = p->pid };

		/* a reader that is gone will read nothing more */
		if (p->kind == DIO_PROC_EXIT && (p->flags & DIO_PROCF_GROUP_DEAD))
			settle(st, &like, NULL);
	}
	return 0;
}

static int ro_finish(void *state)
{
	settle(state, NULL, NULL);
	return 0;
}

static void ro_destroy(void *state)
{
	struct ro *st = state;

	if (!st)
		return;
	table_free(&st->inodes);
	table_free(&st->readers);
	table_free(&st->suspects);
	table_free(&st->removals);
	pool_free(&st->extras);
	free(st->batch);
	free(st);
}

static int ro_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct ro *st = calloc(1, sizeof(*st));
	int err = -EINVAL;
	size_t extras;

	if (!st)
		return -ENOMEM;
	st->host = host;
	st->ctx = ctx;
	for (int i = O_MIN_LOST; i <= O_MAX_REMOVALS; i++) {
		if (i != O_ANY_OFFSET && (o[i].i < 1 || o[i].i > (1 << 24))) {
			host->log(ctx, "%s must be from 1 to %d", options[i].name, 1 << 24);
			goto cleanup;
		}
	}
	st->min_lost = (uint64_t)o[O_MIN_LOST].i;
	st->any_offset = (int)o[O_ANY_OFFSET].i;
	st->max_suspects = (size_t)o[O_MAX_SUSPECTS].i;
	/* files that replaced another: a few of the files followed */
	extras = (size_t)o[O_MAX_FILES].i / 8 + 1;
	err = table_init(&st->inodes, sizeof(struct ikey), sizeof(struct inode),
			 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = table_init(&st->readers, sizeof(struct rkey), sizeof(struct reader),
				 (size_t)o[O_MAX_READERS].i);
	if (!err)
		err = table_init(&st->suspects, sizeof(struct rkey), sizeof(struct suspect),
				 st->max_suspects);
	if (!err)
		err = table_init(&st->removals, sizeof(uint64_t), sizeof(struct removal),
				 (size_t)o[O_MAX_REMOVALS].i);
	if (!err)
		err = pool_init(&st->extras, sizeof(struct extra), extras);
	if (err)
		goto cleanup;
	st->batch = calloc(st->max_suspects, sizeof(*st->batch));
	if (!st->batch) {
		err = -ENOMEM;
		goto cleanup;
	}
	st->inodes.evict = on_inode_evict;
	st->inodes.ud = st;
	st->suspects.evict = on_suspect_evict;
	st->suspects.ud = st;
	call_kinds_init(&st->kinds, host);
	for (uint32_t nr = 0; nr < CALLS_NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		if (!name || call_kind(&st->kinds, nr) != CALL_OPEN)
			continue;
		if (!strcmp(name, "open"))
			st->open_flags_arg[nr] = 2;
		else if (!strcmp(name, "openat"))
			st->open_flags_arg[nr] = 3;
		else if (!strcmp(name, "creat"))
			st->creat[nr] = 1;
	}
	*state = st;
	return 0;
cleanup:
	ro_destroy(st);
	return err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "reuse-offset",
	.description = "readers that resume a re-created or truncated file at a stale offset "
		       "and lose what was written below it",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PATH) |
		  DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = ro_init,
	.event = ro_event,
	.finish = ro_finish,
	.destroy = ro_destroy,
};
