// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reuse-offset: a reader that carries its file offset over to a file that only
 * looks like the one it read before, or keeps it while the file is truncated
 * under it, and so never reads what was written below that offset. A log is
 * deleted and created again under the same name, the file system hands the
 * freed inode number out again, and a follower that keys its saved offset by
 * name and inode number (Fluent Bit's tail input in 1.4, fluent-bit#1875)
 * resumes the new file at the old offset. dio's file tags carry the inode
 * generation, which is what tells the two files apart.
 *
 * Followed per inode number (dev+ino): the generation last seen, the bytes
 * written to it (a few ranges), truncations that threw data away. Per reading
 * position, i.e. open file description (the record's ofd; before dio knew
 * descriptions, pid+fd): what it read and wrote of this generation, how far it
 * got, and where it put itself. Per file+thread: what the thread wrote.
 *
 * A position becomes a candidate when, on a replaced file (a new generation
 * of an inode number dio saw before, or after a truncation that threw data
 * away), it is put at an offset > 0 it never reached there by a process that
 * (or a program of whose name) read what the file held before: an lseek, a
 * pread away from where its reads ended, the first read of a new description
 * (stale-offset); or when its first read after such a truncation goes on at
 * the offset it had before (read-past-end). Seeks relative to the end, and
 * positions that read below where they were put, are not candidates. It becomes a suspect once it reads
 * on to the end of the file from there (a read that returns 0 or less than it
 * asked for), as a follower does. A suspect is settled when what it missed is
 * final (its description or process ends, the file is replaced again, the
 * trace ends), and the bytes other threads and descriptions wrote below its
 * offset that it never read are added to one report per (code, process),
 * made when the process exits or the trace ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/pool.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

enum {
	O_MIN_LOST, O_MAX_FILES, O_MAX_READERS, O_MAX_POSITIONS, O_MAX_SUSPECTS, O_MAX_REMOVALS,
	O_ANY_OFFSET, O_COUNT
};

static const struct dio_option options[] = {
	[O_MIN_LOST] = { "min_lost", DIO_OPT_INT, "1",
			 "bytes a reader must have missed for a finding" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "8192", "inode numbers followed" },
	[O_MAX_READERS] = { "max_readers", DIO_OPT_INT, "16384",
			    "file+thread pairs whose writes are kept (a thread's own bytes)" },
	[O_MAX_POSITIONS] = { "max_positions", DIO_OPT_INT, "8192",
			      "reading positions (open file descriptions) followed" },
	[O_MAX_SUSPECTS] = { "max_suspects", DIO_OPT_INT, "128",
			     "readers at a stale offset followed until they are reported, and "
			     "processes with a report waiting for their exit" },
	[O_MAX_REMOVALS] = { "max_removals", DIO_OPT_INT, "1024",
			     "unlink and rename calls kept, to tell who deleted a file" },
	[O_ANY_OFFSET] = { "any_offset", DIO_OPT_BOOL, NULL,
			   "removed: refused when given (every offset > 0 counts now)" },
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

#define COVERS	6	/* covering sets ranges_missing takes at most */

static int cmp_u64_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* bytes of w below x in none of c[0..nc-1] (nc <= COVERS) */
static uint64_t ranges_missing(const struct ranges *w, const struct ranges *const *c, int nc,
			       uint64_t x)
{
	uint64_t iv[COVERS * RANGES][2], missing = 0;
	uint32_t n = 0;

	/* the covering ranges below x, sorted: one sweep per written range */
	for (int i = 0; i < nc; i++)
		for (uint32_t k = 0; k < c[i]->n && c[i]->lo[k] < x; k++) {
			iv[n][0] = c[i]->lo[k];
			iv[n++][1] = c[i]->hi[k] < x ? c[i]->hi[k] : x;
		}
	qsort(iv, n, sizeof(iv[0]), cmp_u64_pair);
	for (uint32_t k = 0; k < w->n && w->lo[k] < x; k++) {
		uint64_t lo = w->lo[k], hi = w->hi[k] < x ? w->hi[k] : x, at = lo;

		for (uint32_t j = 0; j < n && at < hi; j++) {
			if (iv[j][1] <= at)
				continue;
			if (iv[j][0] >= hi)
				break;
			if (iv[j][0] > at)
				missing += iv[j][0] - at;
			at = iv[j][1];
		}
		if (at < hi)
			missing += hi - at;
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
 * that threw data away): the call that did it, the first write after it, the
 * last lseek on it and the last read that put a position somewhere new.
 */
struct extra {
	struct rec replaced, first_write, seek, jump;
};

struct ikey {
	uint64_t ino;
	uint32_t dev, pad;
};

/* truncation lengths kept, so that ranges of an older epoch can be caught up */
#define CUTS	4

struct writer {
	uint32_t pid, tid;
	char comm[DIO_COMM_LEN];
};

/*
 * processes that read a file's data, by pid and a hash of the program's name
 * (a restarted follower keeps its name; two names with one hash count as
 * one), and how far each got: the offset a reader could carry over
 */
#define READERS	6

struct readers {
	uint32_t pid[READERS];
	uint32_t name[READERS];
	uint64_t end[READERS];
	uint32_t n;		/* more than READERS: any process may have read it */
};

/* what dio knows of one generation of an inode */
struct genstate {
	uint32_t size_known;	/* no data past size but what dio saw written */
	uint32_t epoch;		/* truncations (cut[epoch % CUTS]: the length of the last) */
	uint32_t discards;	/* truncations that threw away data dio saw */
	uint32_t nwriters;	/* distinct writers since creation or the last truncation */
	uint64_t cut[CUTS];
	uint64_t gen_ts;	/* first record of this generation */
	uint64_t size;		/* the end of the data, as far as dio has seen */
	uint64_t read_end;	/* the furthest offset a read reached */
	uint64_t cut_read_end;	/* read_end when data was last thrown away */
	uint64_t deleted_ts;	/* a path record said the file was deleted */
	struct writer w[2];	/* the first two writers since creation or the last truncation */
	struct readers readers;	/* since creation or the last truncation that threw data away */
	struct ranges written;	/* since creation, clipped at truncations */
};

struct inode {
	uint32_t gen, prev_gen;
	uint32_t has_prev;	/* prev_gen, prev_read_end and prev_deleted are known */
	uint32_t by_name;	/* another file had its name before: name_prev */
	struct dio_file_tag name_prev;
	uint32_t prev_deleted;	/* a path record said the earlier file was deleted */
	uint32_t extra;		/* pool index + 1 of its struct extra, 0: none */
	uint32_t nsusp;		/* suspects reading this generation */
	uint64_t prev_read_end;
	/* the readers of what the file held before it was last replaced (generation or truncation) */
	struct readers carriers;
	struct genstate g;
};

/* a reading position: an open file description, or pid+fd when the record has no ofd */
struct pkey {
	uint32_t ofd, pid;
	int32_t fd;
	uint32_t pad;
};

#define POS_USED	0x01	/* it read, wrote or moved in this epoch */
#define POS_KEPT	0x02	/* it was used in an earlier epoch and kept its offset since */
#define POS_END		0x04	/* put relative to the end (SEEK_END, SEEK_DATA, SEEK_HOLE) */
#define POS_CAND	0x08	/* cand is an offset it was put at and has not read below */
#define POS_CAND_KEPT	0x10	/* ... by keeping its offset across a truncation */
#define POS_DONE	0x20	/* it became a suspect in this epoch */
#define POS_RANDOM	0x40	/* it read below where it was put: it reads at random */
#define POS_EXACT	0x80	/* cand is where its program had read the earlier data up to */
#define POS_CAUGHT	0x100	/* it read on to the end in this epoch: a stream */
#define POS_PEEK	0x200	/* an lseek to the end that may be only a look at the size */
#define POS_NAMED	0x400	/* a candidate only once cand is exact: the file took a name */

struct position {
	struct dio_file_tag tag;
	uint32_t epoch;		/* of the inode's generation, that read and wrote belong to */
	uint32_t flags;		/* POS_* */
	uint64_t next;		/* where its reads go on: the end of the last, or an lseek's */
	uint64_t reach;		/* the furthest it read or wrote in this epoch */
	uint64_t prev_reach;	/* reach before the last truncation */
	uint64_t cand, cand_ts;
	uint64_t cand_floor;	/* how far it and its program had read when it was put */
	uint64_t peek_next;	/* next before a SEEK_END: an lseek back there undoes it */
	uint64_t susp;		/* its suspect's serial, 0: none */
	uint64_t start_ts;	/* its last read from the start of the data in this epoch */
	uint32_t peek_flags;	/* flags before a SEEK_END */
	uint32_t cand_pid, cand_tid, cand_name;
	char cand_comm[DIO_COMM_LEN];
	struct ranges read, wrote;	/* in this epoch */
};

/* a process: its program, by which readers are told apart */
struct proc {
	struct prog prog;
	uint32_t name;		/* comm_hash of prog.name */
};

/*
 * A file (one generation) and a program: how far its processes read in this
 * epoch, and what the descriptions that read on to the end (streams) read,
 * which counts as read by each of its readers.
 */
struct skey {
	struct dio_file_tag tag;
	uint32_t name, pad;
};

#define STREAM_BACK	0x1	/* a stream of it read from the start of the data again */

struct stream {
	uint32_t epoch, flags;
	uint64_t reach;
	uint64_t back_ts;	/* when STREAM_BACK was set */
	struct ranges credit;
};

/* the file last opened under a path (by a hash of the path) */
struct named {
	struct dio_file_tag tag;
};

/* a file (one generation) and a thread: what the thread wrote, how far it read */
struct tkey {
	struct dio_file_tag tag;
	uint32_t tid, pad;
};

struct thread_io {
	uint32_t epoch, pad;
	uint64_t read_end;
	struct ranges wrote;
};

#define KIND_STALE	0	/* put at an offset it never reached, then read on to the end */
#define KIND_PAST_END	1	/* kept its offset across a truncation, read on to the end */
#define KINDS		2

/* the codes, as README.md explains them */
static const struct dio_rule rules[KINDS + 2] = {
	[KIND_STALE] = {
		"reuse-offset.stale-offset", DIO_SEV_ERROR, 0,
		"A reader resumed a replaced file at an offset it never read up to",
		"A reader put at an offset above 0 of a replaced file (a new generation of an "
		"inode number dio saw before, or a file truncated below data dio saw in it), an "
		"offset it never read up to since, that then read on to the end: at least "
		"min_lost (1) byte other threads wrote below that offset was never read by it. "
		"Offsets put relative to the end (SEEK_END), readers that read below their offset "
		"first and processes that never read the earlier file are not resumes.",
		"Data loss: the reader skips what was written below its offset. This is how "
		"Fluent Bit's tail input lost log lines when a log was deleted and created again "
		"with the same inode number.\n\n"
		"Key a saved offset by device, inode number and something that changes when the "
		"file is created again (the inode generation from ioctl FS_IOC_GETVERSION, or the "
		"birth time from statx STATX_BTIME); forget it when the file is deleted (st_nlink "
		"== 0 in fstat of the open fd, inotify IN_DELETE_SELF); start again at 0 when the "
		"file is shorter than the saved offset.",
	},
	[KIND_PAST_END] = {
		"reuse-offset.read-past-end", DIO_SEV_ERROR, 0,
		"A reader kept its offset while the file was truncated under it",
		"A reader that read or wrote a file before a truncation threw data away and after "
		"it went on reading at the offset it had, on to the end: at least min_lost (1) "
		"byte written below that offset was never read by it. It is a log rotated by "
		"copytruncate under a follower.",
		"Data loss: the follower did not notice the truncation and waits past the end "
		"while new data sits below its offset.\n\n"
		"When a read returns 0, compare the size from fstat with the offset: a smaller "
		"size means the file was truncated (copytruncate rotation) or replaced: start "
		"again at 0, as tail -F does.",
	},
	[KINDS] = TABLE_FULL_RULE("reuse-offset",
				  "max_files, max_readers, max_positions, max_suspects, max_removals"),
	[KINDS + 1] = { NULL, 0, 0, NULL, NULL, NULL },
};

#define SUSPECT_RECS	6

struct suspect {
	struct dio_file_tag tag;
	uint32_t kind, pid, tid, nrec;
	uint32_t name;		/* its program's */
	uint32_t exact;		/* put where its program had read the earlier data up to */
	char comm[DIO_COMM_LEN];	/* its program's name */
	char tcomm[DIO_COMM_LEN];	/* the name of the thread that was put there */
	uint64_t off;		/* where it was put */
	uint64_t old_end;	/* how far it, or a reader, had got in the earlier file or epoch */
	uint32_t same_reader;	/* old_end is this reader's own */
	uint32_t size_known;
	uint64_t size_then;	/* the file's size when it read on to the end */
	uint64_t first_ts, last_ts, reads, eof_reads, bytes_read, bytes_above;
	uint32_t to_end;	/* a read from its offset went on to the end of the data */
	uint32_t pad2;
	uint64_t more;		/* calls left out of the excerpt */
	struct ranges read, wrote;	/* what its position read and wrote of this epoch */
	struct rec rec[SUSPECT_RECS];
};

/*
 * One finding in the making: the suspects of one program and kind, lost for
 * good (final) or not read when the trace ended (pending).
 */
struct rkey {
	uint32_t name, kind, pending, pad;
};

#define TOP_PROCS	3	/* processes named in a finding of several */
#define PROC_SET	64	/* distinct processes counted exactly; more are counted per file */

#define OTHERS	3	/* files named after the top one */

struct other {
	struct dio_file_tag tag;
	uint64_t off, lost;
};

struct report {
	uint32_t pid, tid, nfiles, nprocs;
	char comm[DIO_COMM_LEN];
	uint64_t lost, first_ts, last_ts;
	uint32_t pids[PROC_SET];	/* the processes counted in nprocs */
	uint32_t top_pid[TOP_PROCS];
	uint64_t top_proc_lost[TOP_PROCS];	/* bytes of the top pids (a pid's files added) */
	/* the suspect that lost the most, written out when it was settled */
	struct dio_file_tag tag;
	uint64_t off, top_lost;
	char title[512];
	char message[1536];
	char excerpt[EXCERPT_SIZE];
	struct other others[OTHERS];
	uint32_t nothers, rest_files;
	uint64_t rest_lost;
};

struct removal {
	struct rec rec;		/* the unlink or rename, with its path arguments */
};

/* a table entry to handle, in the order it arose */
struct picked {
	uint8_t key[16];
	uint64_t ts;
};

struct ro {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint8_t open_flags_arg[DIO_NR_MAX];	/* argument with the open flags + 1, 0: none */
	uint8_t creat[DIO_NR_MAX];
	uint8_t counted[DIO_NR_MAX];		/* args[2] is the byte count (read, pread64) */
	uint64_t min_lost;
	struct table inodes, positions, threads, suspects, reports, removals;
	struct table procs, streams, names;
	uint64_t serial;	/* of the last suspect */
	uint32_t cur_name;	/* the program of the record being handled */
	struct pool extras;
	struct picked *batch;	/* entries to handle at once */
	size_t max_batch;
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

static struct inode *inode_of_tag(struct ro *st, const struct dio_file_tag *t)
{
	struct ikey ik = { .ino = t->ino, .dev = t->dev };
	struct inode *n = table_get(&st->inodes, &ik);

	return n && n->gen == t->gen ? n : NULL;
}

/*
 * A file whose data went away: a new generation of a number dio saw, a
 * truncation, or, for readers that keep their offset by the name, another
 * file that took the name of one they read.
 */
static int replaced(const struct inode *n)
{
	return n->has_prev || n->g.discards || n->by_name;
}

static uint32_t comm_hash(const char *comm)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < DIO_COMM_LEN && comm[i]; i++)
		h = (h ^ (uint8_t)comm[i]) * 16777619u;
	return h;
}

/* process pid of program name read r's file up to end */
static void readers_add(struct readers *r, uint32_t pid, uint32_t name, uint64_t end)
{
	for (uint32_t i = 0; i < r->n && i < READERS; i++)
		if (r->pid[i] == pid && r->name[i] == name) {
			if (end > r->end[i])
				r->end[i] = end;
			return;
		}
	if (r->n < READERS) {
		r->pid[r->n] = pid;
		r->name[r->n] = name;
		r->end[r->n] = end;
	}
	if (r->n <= READERS)
		r->n++;
}

/* could this process have carried an offset over: it, or a program of its name, read r's file */
static int readers_has(const struct readers *r, uint32_t pid, uint32_t name)
{
	if (r->n > READERS)
		return 1;
	for (uint32_t i = 0; i < r->n; i++)
		if (r->pid[i] == pid || r->name[i] == name)
			return 1;
	return 0;
}

/* is off where it, or a program of its name, had read r's file up to: an offset carried over */
static int readers_end(const struct readers *r, uint32_t pid, uint32_t name, uint64_t off)
{
	for (uint32_t i = 0; i < r->n && i < READERS; i++)
		if ((r->pid[i] == pid || r->name[i] == name) && r->end[i] == off)
			return 1;
	return 0;
}

/*
 * Bring ranges of an older epoch of g up to date: what was past a truncation
 * is gone. Returns the shortest length cut to, UINT64_MAX if none.
 */
static uint64_t catch_up(const struct genstate *g, uint32_t *epoch, struct ranges *a,
			 struct ranges *b)
{
	uint64_t low = UINT64_MAX;

	if (*epoch == g->epoch)
		return low;
	if (g->epoch - *epoch > CUTS) {
		low = 0;
	} else {
		for (uint32_t e = *epoch + 1; e != g->epoch + 1; e++)
			if (g->cut[e % CUTS] < low)
				low = g->cut[e % CUTS];
	}
	ranges_clip(a, low);
	if (b)
		ranges_clip(b, low);
	*epoch = g->epoch;
	return low;
}

/* the process of e, its program learnt from e */
static struct proc *proc_of(struct ro *st, const struct dio_ev_syscall *e)
{
	int created;
	struct proc *p = table_put(&st->procs, &e->pid, &created);

	/* most records say nothing new: the main thread's name again, or another thread's */
	if (created || (e->tid == e->pid ? !p->prog.from_leader ||
			strncmp(p->prog.name, e->comm, DIO_COMM_LEN - 1) : !p->prog.name[0])) {
		prog_see(&p->prog, e->pid, e->tid, e->comm);
		p->name = comm_hash(p->prog.name);
	}
	return p;
}

/* what program name read of tag (of inode n) in n's epoch; NULL if nothing and !create */
static struct stream *stream_of(struct ro *st, const struct inode *n,
				const struct dio_file_tag *tag, uint32_t name, int create)
{
	struct skey k = { .tag = *tag, .name = name };
	int created = 0;
	struct stream *r = create ? table_put(&st->streams, &k, &created) :
			   table_get(&st->streams, &k);
	uint64_t low;

	if (!r)
		return NULL;
	if (created) {
		r->epoch = n->g.epoch;
		return r;
	}
	if (r->epoch != n->g.epoch) {
		low = catch_up(&n->g, &r->epoch, &r->credit, NULL);
		if (r->reach > low)
			r->reach = low;
		r->flags = 0;
		r->back_ts = 0;
	}
	return r;
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
	char name[COMM_LABEL_LEN];

	snprintf(buf, len, "pid %u (%s)", pid, comm_label(comm, name));
}

/*
 * How the data of the file went away, from the call saved for it: "deleted
 * (unlink by pid 811 (rm)) and created again", "truncated (ftruncate by ...)".
 */
static void replaced_by(struct ro *st, const struct inode *n, int truncation, char *buf,
			size_t len)
{
	struct extra *x = extra_of(st, n);
	const struct dio_ev_syscall *e = x ? rec_ev(&x->replaced) : NULL;
	enum call_kind k = e ? call_kind(&st->kinds, e->nr) : CALL_OTHER;
	int deleted = e ? k == CALL_UNLINK || k == CALL_RENAME : !truncation;
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

/* "pid 100 (logwriter)", "... and others": who wrote the data, leaving out the reader */
static void writers_text(const struct genstate *g, uint32_t tid, char *buf, size_t len)
{
	const struct writer *w = NULL;
	uint32_t others = 0;

	for (uint32_t i = 0; i < g->nwriters; i++) {
		if (i < 2 && g->w[i].tid == tid)
			continue;
		if (!w && i < 2)
			w = &g->w[i];
		else
			others++;
	}
	if (!w) {
		snprintf(buf, len, "other threads");
		return;
	}
	who(buf, len, w->pid, w->comm);
	if (others)
		snprintf(buf + strlen(buf), len - strlen(buf), " and others");
}

/*
 * Bytes written below s->off, by other threads and descriptions, that no
 * reading of s's program read: not its position, nor a stream of its program
 * (a description that read on to the end). None when a stream of its
 * program went back to the start of the data since: it noticed.
 */
static uint64_t lost_of(struct ro *st, const struct suspect *s, const struct inode *n)
{
	struct tkey tk = { .tag = s->tag, .tid = s->tid };
	struct thread_io *t = table_get(&st->threads, &tk);
	struct stream *r = stream_of(st, n, &s->tag, s->name, 0);
	const struct ranges *cover[COVERS] = { &s->read, &s->wrote };
	int nc = 2;

	if (r && (r->flags & STREAM_BACK) && r->back_ts >= s->first_ts)
		return 0;
	if (t) {
		catch_up(&n->g, &t->epoch, &t->wrote, NULL);
		cover[nc++] = &t->wrote;
	}
	if (r)
		cover[nc++] = &r->credit;
	return ranges_missing(&n->g.written, cover, nc, s->off);
}

/* "were never read", or for a loss not final yet, what was true when the trace ended */
static const char *never(int pending)
{
	return pending ? "had not been read by it when the trace ended" : "were never read";
}

/* the title of one suspect, as the finding's when it is the only one of its report */
static void suspect_title(struct ro *st, const struct suspect *s, const struct inode *n,
			  uint64_t lost, int pending, char *buf, size_t len)
{
	char reader[64], writer[96], label[256];
	const char *path = file_label(st->host, st->ctx, &s->tag, label, sizeof(label));

	who(reader, sizeof(reader), s->pid, s->comm);
	writers_text(&n->g, s->tid, writer, sizeof(writer));
	if (s->kind == KIND_PAST_END)
		snprintf(buf, len, "%s kept its offset %" PRIu64 " while %s was truncated: %"
			 PRIu64 " bytes %s wrote below it %s", reader, s->off, path, lost, writer,
			 never(pending));
	else
		snprintf(buf, len, "%s resumed %s%s at offset %" PRIu64 ", which it never read up "
			 "to: %" PRIu64 " bytes %s wrote below it %s", reader,
			 n->by_name && !n->has_prev && !n->g.discards ? "the renamed " :
			 n->g.discards ? "the truncated " : "the new ", path, s->off, lost, writer,
			 never(pending));
}

/* "read on to the end (the file then held 1000 bytes)", or how much it read above its offset */
static void how_far(const struct suspect *s, char *buf, size_t len)
{
	if (s->to_end && s->size_known)
		snprintf(buf, len, "read on to the end (the file then held %" PRIu64 " bytes)",
			 s->size_then);
	else if (s->to_end)
		snprintf(buf, len, "read on to the end");
	else
		snprintf(buf, len, "read %" PRIu64 " bytes from there on", s->bytes_above);
}

static void suspect_message(struct ro *st, const struct suspect *s, const struct inode *n,
			    uint64_t lost, int pending, char *buf, size_t len)
{
	uint64_t below = ranges_below(&n->g.written, s->off);
	char how[192], where[160] = "", far[128], label[256], thread[96] = "";
	const char *path = file_label(st->host, st->ctx, &s->tag, label, sizeof(label));
	const char *gone = pending ? "had not been read by it when the trace ended (it was still "
			   "running and may yet go back for them)" : "were never read by it";
	int truncation = n->g.discards > 0;

	replaced_by(st, n, truncation, how, sizeof(how));
	how_far(s, far, sizeof(far));
	if (s->old_end)
		snprintf(where, sizeof(where), "%s had read %s up to offset %" PRIu64 ". ",
			 s->same_reader ? "It" : "A reader", truncation ? "the file before the "
			 "truncation" : "the earlier file", s->old_end);
	if (strncmp(s->tcomm, s->comm, DIO_COMM_LEN))
		snprintf(thread, sizeof(thread), " (its thread %u, %.*s)", s->tid, DIO_COMM_LEN,
			 s->tcomm);
	if (s->kind == KIND_PAST_END) {
		snprintf(buf, len,
			 "%s was %s and written again from the start, but this reader%s went on "
			 "reading at offset %" PRIu64 ", where it was before, and %s: %" PRIu64
			 " of the %" PRIu64 " bytes written below that offset %s; %" PRIu64 " of "
			 "its %" PRIu64 " reads there returned 0.\n"
			 "Fix: when a read returns 0, and before reading on after a pause, compare "
			 "the size from fstat with the offset, and keep a checksum of the first "
			 "bytes: a smaller size or other first bytes mean the file was truncated "
			 "(copytruncate rotation) or replaced: start again at 0, as tail -F does "
			 "for a smaller size.",
			 path, how, thread, s->off, far, lost, below, gone, s->eof_reads, s->reads);
		return;
	}
	if (truncation) {
		snprintf(buf, len,
			 "The file was %s, and this reader%s was then put at offset %" PRIu64 ", "
			 "which it had never read up to in the new data, and %s. %s%" PRIu64 " of "
			 "the %" PRIu64 " bytes written below that offset %s; %" PRIu64 " of its %"
			 PRIu64 " reads there returned 0.\n"
			 "Fix: an offset saved for a file is only good while the file is not "
			 "truncated: compare the size from fstat with it (smaller: start at 0) and "
			 "keep a checksum of the first bytes to see a file that was truncated and "
			 "grew again.",
			 how, thread, s->off, far, where, lost, below, gone, s->eof_reads, s->reads);
		return;
	}
	if (n->by_name && !n->has_prev) {
		snprintf(buf, len,
			 "%s now names another file (inode %" PRIu64 ", where it named inode %"
			 PRIu64 " when this program read it), and this reader%s was put at offset %"
			 PRIu64 " of it, where its program had left the earlier file, not 0, and "
			 "%s: %" PRIu64 " of the %" PRIu64 " bytes written below that offset %s; %"
			 PRIu64 " of its %" PRIu64 " reads there returned 0.\n"
			 "Fix: a saved offset belongs to a file, not to a name: keep the device and "
			 "inode number (and the inode generation, or the birth time from statx) "
			 "with it, and start again at 0 when the name now gives another file; "
			 "after a rotation by rename, finish the old file through a descriptor "
			 "opened before the rename.",
			 path, (uint64_t)s->tag.ino, (uint64_t)n->name_prev.ino, thread, s->off, far,
			 lost, below, gone, s->eof_reads, s->reads);
		return;
	}
	snprintf(buf, len,
		 "The file was %s, and the new file got the same inode number %" PRIu64
		 " back with a new generation (%u, then %u): a key of name and inode "
		 "number cannot tell the two files apart. %sThis reader%s was put at offset %"
		 PRIu64 " of the new file, not 0, and %s, so %" PRIu64 " of the %" PRIu64
		 " bytes written below that offset %s; %" PRIu64 " of its %" PRIu64 " reads "
		 "there returned 0. This is how Fluent Bit's tail input lost log lines "
		 "(fluent-bit#1875).\n"
		 "Fix: key a saved offset by device, inode number and something that "
		 "changes when the file is created again (the inode generation from ioctl "
		 "FS_IOC_GETVERSION, or the birth time from statx STATX_BTIME); forget it "
		 "when the file is deleted (st_nlink == 0 in fstat of the open fd, inotify "
		 "IN_DELETE_SELF); start again at 0 when the file is shorter than the "
		 "saved offset.",
		 how, (uint64_t)s->tag.ino, n->prev_gen, n->gen, where, thread, s->off, far, lost,
		 below, gone, s->eof_reads, s->reads);
}

/* the saved calls in the order they were made (the jump can come before the first write) */
static void render_excerpt(struct ro *st, const struct suspect *s, char *buf, size_t len)
{
	const struct dio_ev_syscall *e[SUSPECT_RECS], *t;
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->nrec; i++) {
		uint32_t j;

		t = rec_ev(&s->rec[i]);
		if (!t)
			continue;
		for (j = n++; j > 0 && e[j - 1]->hdr.ts > t->hdr.ts; j--)
			e[j] = e[j - 1];
		e[j] = t;
	}
	excerpt_reset(&st->x);
	for (uint32_t i = 0; i < n; i++)
		excerpt_add_fmt(&st->x, st->host, st->ctx, &e[i]->hdr, SUSPECT_RECS,
				DIO_FMT_DETAILS);
	st->x.more += s->more;
	snprintf(buf, len, "%s", excerpt_text(&st->x));
}

/* keep the OTHERS files that lost the most, the rest only counted */
static void push_other(struct report *r, const struct dio_file_tag *tag, uint64_t off,
		       uint64_t lost)
{
	uint32_t i = r->nothers;

	if (i == OTHERS) {
		if (lost <= r->others[OTHERS - 1].lost) {
			r->rest_files++;
			r->rest_lost += lost;
			return;
		}
		r->rest_files++;
		r->rest_lost += r->others[OTHERS - 1].lost;
		i = OTHERS - 1;
	} else {
		r->nothers++;
	}
	for (; i > 0 && r->others[i - 1].lost < lost; i--)
		r->others[i] = r->others[i - 1];
	r->others[i].tag = *tag;
	r->others[i].off = off;
	r->others[i].lost = lost;
}

/* pid lost lost bytes more: counted among the report's processes, and kept if among the top */
static void count_proc(struct report *r, uint32_t pid, uint64_t lost)
{
	uint32_t i, k;

	for (i = 0; i < r->nprocs && i < PROC_SET && r->pids[i] != pid; i++)
		;
	if (i == r->nprocs || i == PROC_SET) {
		if (r->nprocs < PROC_SET)
			r->pids[r->nprocs] = pid;
		r->nprocs++;
	}
	for (k = 0; k < TOP_PROCS && r->top_proc_lost[k] && r->top_pid[k] != pid; k++)
		;
	if (k == TOP_PROCS) {
		k = TOP_PROCS - 1;
		if (lost <= r->top_proc_lost[k])
			return;
		r->top_proc_lost[k] = 0;
	}
	r->top_pid[k] = pid;
	r->top_proc_lost[k] += lost;
	for (; k > 0 && r->top_proc_lost[k - 1] < r->top_proc_lost[k]; k--) {
		uint32_t p = r->top_pid[k];
		uint64_t l = r->top_proc_lost[k];

		r->top_pid[k] = r->top_pid[k - 1];
		r->top_proc_lost[k] = r->top_proc_lost[k - 1];
		r->top_pid[k - 1] = p;
		r->top_proc_lost[k - 1] = l;
	}
}

/*
 * A suspect whose loss is settled: into the report of its program and kind.
 * final: its bytes are gone, or its process is; otherwise (the trace ended,
 * a table was full) a reader that never read above its offset may yet go
 * back for them, and its report says what was true when the trace ended.
 */
static void file_suspect(struct ro *st, const struct suspect *s, const struct inode *n,
			 int final)
{
	struct rkey rk = { .name = s->name, .kind = s->kind };
	struct report *r;
	uint64_t lost;
	int created;

	if (!n)
		return;
	lost = lost_of(st, s, n);
	if (lost < st->min_lost)
		return;
	rk.pending = !final && !s->bytes_above;
	r = table_put(&st->reports, &rk, &created);
	if (created) {
		r->first_ts = s->first_ts;
		memcpy(r->comm, s->comm, sizeof(r->comm));
	}
	r->lost += lost;
	r->nfiles++;
	count_proc(r, s->pid, lost);
	if (s->first_ts < r->first_ts)
		r->first_ts = s->first_ts;
	if (s->last_ts > r->last_ts)
		r->last_ts = s->last_ts;
	if (!created && lost <= r->top_lost) {
		push_other(r, &s->tag, s->off, lost);
		return;
	}
	if (!created)
		push_other(r, &r->tag, r->off, r->top_lost);
	r->tag = s->tag;
	r->off = s->off;
	r->top_lost = lost;
	r->pid = s->pid;
	r->tid = s->tid;
	suspect_title(st, s, n, lost, rk.pending, r->title, sizeof(r->title));
	suspect_message(st, s, n, lost, rk.pending, r->message, sizeof(r->message));
	render_excerpt(st, s, r->excerpt, sizeof(r->excerpt));
}

static void emit_report(struct ro *st, const struct rkey *k, const struct report *r)
{
	struct dio_finding f = { .size = sizeof(f) };
	char title[768], msg[2560], label[256], reader[64];
	const char *what = k->kind == KIND_STALE ? "resumed at offsets it never read up to in" :
			   "kept its offsets while they were truncated in";
	size_t len;

	f.title = r->title;
	if (r->nprocs > 1) {
		snprintf(title, sizeof(title), "%u processes of %.*s %s %u file%s: %" PRIu64
			 " bytes other threads wrote below their offsets %s (%" PRIu64 " in %s)",
			 r->nprocs, DIO_COMM_LEN, r->comm, k->kind == KIND_STALE ?
			 "resumed at offsets they never read up to in" :
			 "kept their offsets while they were truncated in", r->nfiles,
			 r->nfiles > 1 ? "s" : "", r->lost, never(k->pending), r->top_lost,
			 file_label(st->host, st->ctx, &r->tag, label, sizeof(label)));
		f.title = title;
	} else if (r->nfiles > 1) {
		who(reader, sizeof(reader), r->pid, r->comm);
		snprintf(title, sizeof(title), "%s %s %u files: %" PRIu64 " bytes other threads "
			 "wrote below its offsets %s (%" PRIu64 " in %s)", reader, what, r->nfiles,
			 r->lost, never(k->pending), r->top_lost,
			 file_label(st->host, st->ctx, &r->tag, label, sizeof(label)));
		f.title = title;
	}
	len = (size_t)snprintf(msg, sizeof(msg), "%s", r->message);
	if (r->nfiles > 1 && len < sizeof(msg)) {
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "\nThe other files:");
		for (uint32_t i = 0; i < r->nothers && len < sizeof(msg); i++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len,
						"%s %s at offset %" PRIu64 " (%" PRIu64 " bytes)",
						i ? "," : "", file_label(st->host, st->ctx,
						&r->others[i].tag, label, sizeof(label)),
						r->others[i].off, r->others[i].lost);
		if (r->rest_files && len < sizeof(msg))
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ", and %u more (%"
						PRIu64 " bytes)", r->rest_files, r->rest_lost);
		if (len < sizeof(msg))
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ".");
	}
	if (r->nprocs > 1 && len < sizeof(msg)) {
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "\nThe processes that lost "
					"the most:");
		for (uint32_t i = 0; i < TOP_PROCS && r->top_proc_lost[i] && len < sizeof(msg);
		     i++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s pid %u (%" PRIu64
						" bytes)", i ? "," : "", r->top_pid[i],
						r->top_proc_lost[i]);
		if (r->nprocs > TOP_PROCS && len < sizeof(msg))
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ", and %u more",
						r->nprocs - TOP_PROCS);
		if (len < sizeof(msg))
			snprintf(msg + len, sizeof(msg) - len, ".");
	}
	f.code = rules[k->kind].code;
	f.severity = k->pending ? DIO_SEV_WARNING : rules[k->kind].severity;
	f.message = msg;
	f.pid = r->pid;
	f.tid = r->tid;
	f.comm = r->comm;
	f.path = st->host->tag_path(st->ctx, &r->tag);
	f.tag = r->tag;
	f.has_tag = 1;
	f.ts_first = r->first_ts;
	f.ts_last = r->last_ts;
	f.count = r->lost;
	f.processes = r->nprocs;
	f.excerpt = r->excerpt;
	st->host->emit_finding(st->ctx, &f);
}

/* ---- settling: in the order things arose, whatever their places in a table --- */

struct pick {
	struct ro *st;
	int all;
	int final;			/* what the suspects picked missed is lost for good */
	uint32_t pid;			/* when tag.ino is 0 */
	struct dio_file_tag tag;
	size_t key_size, n;
};

static void pick_suspect(void *key, void *val, void *ud)
{
	struct pick *p = ud;
	const struct suspect *s = val;

	if (!p->all && (p->tag.ino ? !dio_file_tag_eq(&s->tag, &p->tag) : s->pid != p->pid))
		return;
	memcpy(p->st->batch[p->n].key, key, p->key_size);
	p->st->batch[p->n++].ts = s->first_ts;
}

static void pick_report(void *key, void *val, void *ud)
{
	struct pick *p = ud;

	memcpy(p->st->batch[p->n].key, key, p->key_size);
	p->st->batch[p->n++].ts = ((const struct report *)val)->first_ts;
}

static int batch_cmp(const void *a, const void *b)
{
	const struct picked *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return memcmp(x->key, y->key, sizeof(x->key));
}

static void pick_sorted(struct ro *st, struct table *t, void (*fn)(void *, void *, void *),
			struct pick *p)
{
	p->st = st;
	p->key_size = t->key_size;
	p->n = 0;
	memset(st->batch, 0, st->max_batch * sizeof(*st->batch));
	table_each(t, fn, p);
	qsort(st->batch, p->n, sizeof(*st->batch), batch_cmp);
}

/* forget a suspect whose loss is settled, filing it in its report */
static void settle_one(struct ro *st, const void *key, struct inode *n, int final)
{
	struct suspect *s = table_get(&st->suspects, key);

	if (!s)
		return;
	if (!n)
		n = inode_of_tag(st, &s->tag);
	file_suspect(st, s, n, final);
	if (n && n->gen == s->tag.gen && n->nsusp)
		n->nsusp--;
	table_del(&st->suspects, key);
}

/* settle the suspects that p picks; n: their inode when the caller has it */
static void settle(struct ro *st, struct pick *p, struct inode *n)
{
	if (!st->suspects.n)
		return;
	pick_sorted(st, &st->suspects, pick_suspect, p);
	for (size_t i = 0; i < p->n; i++)
		settle_one(st, st->batch[i].key, n, p->final);
}

/* settle the suspects of tag; final: its data they missed is gone */
static void settle_tag(struct ro *st, const struct dio_file_tag *tag, struct inode *n, int final)
{
	struct pick p = { .tag = *tag, .final = final };

	if (n->nsusp)
		settle(st, &p, n);
}

/* make the reports, at the end of the trace */
static void emit_reports(struct ro *st)
{
	struct pick p = { .all = 1 };

	if (!st->reports.n)
		return;
	pick_sorted(st, &st->reports, pick_report, &p);
	for (size_t i = 0; i < p.n; i++) {
		const struct rkey *k = (const void *)st->batch[i].key;
		struct report *r = table_get(&st->reports, k);

		if (r)
			emit_report(st, k, r);
		table_del(&st->reports, k);
	}
}

/* ---- events -------------------------------------------------------------- */

static void on_inode_evict(void *key, void *val, void *ud)
{
	struct ro *st = ud;
	const struct ikey *ik = key;
	struct inode *n = val;
	struct dio_file_tag t = tag_of(ik->ino, ik->dev, n->gen);

	settle_tag(st, &t, n, 0);
	if (n->extra)
		pool_put(&st->extras, (int32_t)n->extra - 1);
}

static void on_suspect_evict(void *key, void *val, void *ud)
{
	struct ro *st = ud;
	const struct suspect *s = val;
	struct inode *n = inode_of_tag(st, &s->tag);

	(void)key;
	file_suspect(st, s, n, 0);
	if (n && n->nsusp)
		n->nsusp--;
}

static void on_report_evict(void *key, void *val, void *ud)
{
	emit_report(ud, key, val);
}

/* the last path component of s */
static const char *base_name(const char *s, size_t *blen)
{
	size_t l = strlen(s), b = l;

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

/*
 * The path a successful unlink removed or a rename replaced (the new name,
 * whose file, if any, is the one that goes away): NULL if not readable.
 */
static const char *removed_path(const struct ro *st, const struct dio_ev_syscall *e)
{
	return dio_ev_syscall_str(e, call_kind(&st->kinds, e->nr) == CALL_UNLINK ? 0 : 1);
}

static void note_removal(struct ro *st, const struct dio_ev_syscall *e)
{
	size_t blen;
	const char *p = removed_path(st, e), *b;
	uint64_t h;

	if (!p)
		return;
	b = base_name(p, &blen);
	if (!blen)
		return;
	h = name_hash(b, blen);
	rec_set(&((struct removal *)table_put(&st->removals, &h, NULL))->rec, e);
}

/* does the argument arg name path? Relative ones are matched as a suffix. */
static int names(const char *arg, const char *path)
{
	size_t l = strlen(arg), pl = strlen(path);

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
	size_t blen;
	const char *b = base_name(path, &blen), *arg;
	uint64_t h = name_hash(b, blen);
	struct removal *r = blen ? table_get(&st->removals, &h) : NULL;
	const struct dio_ev_syscall *e = r ? rec_ev(&r->rec) : NULL;

	if (!e || e->hdr.ts < since)
		return NULL;
	arg = removed_path(st, e);
	return arg && names(arg, path) ? e : NULL;
}

static void new_generation(struct ro *st, const struct ikey *ik, struct inode *n,
			   const struct dio_ev_syscall *e)
{
	struct dio_file_tag old = tag_of(ik->ino, ik->dev, n->gen);
	uint64_t since = n->g.gen_ts;
	const char *path;
	struct extra *x;

	/* the suspects of the earlier file are complete: it will not be written again */
	settle_tag(st, &old, n, 1);
	n->prev_read_end = n->g.read_end;
	n->carriers = n->g.readers;
	n->prev_deleted = n->g.deleted_ts != 0;
	n->prev_gen = n->gen;
	n->has_prev = 1;
	n->by_name = 0;
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
	if (discarded)
		settle_tag(st, &e->tag, n, 1);
	if (discarded || !n->g.size_known) {
		n->g.epoch++;
		n->g.cut[n->g.epoch % CUTS] = len;
	}
	if (discarded) {
		struct extra *x = extra_new(st, n);

		n->g.discards++;
		n->g.cut_read_end = n->g.read_end;
		n->carriers = n->g.readers;
		memset(&n->g.readers, 0, sizeof(n->g.readers));
		if (x)
			rec_set(&x->replaced, e);
	}
	ranges_clip(&n->g.written, len);
	if (n->g.read_end > len)
		n->g.read_end = len;
	n->g.size = len;
	n->g.size_known = 1;
	n->g.nwriters = 0;
}

static struct pkey pkey_of(const struct dio_ev_syscall *e, int32_t fd)
{
	struct pkey k = { .ofd = e->ofd };

	if (!k.ofd) {
		k.pid = e->pid;
		k.fd = fd;
	}
	return k;
}

/* e's reading position, brought up to the inode's epoch */
static struct position *position_for(struct ro *st, struct inode *n,
				     const struct dio_ev_syscall *e, struct pkey *k)
{
	struct position *p;
	int created;
	uint64_t low;

	*k = pkey_of(e, e->fd);
	p = table_put(&st->positions, k, &created);
	if (created || !dio_file_tag_eq(&p->tag, &e->tag)) {
		memset(p, 0, sizeof(*p));
		p->tag = e->tag;
		p->epoch = n->g.epoch;
		return p;
	}
	if (p->epoch == n->g.epoch)
		return p;
	/* the file was truncated since this position last did anything: its offset stays */
	low = catch_up(&n->g, &p->epoch, &p->read, &p->wrote);
	p->prev_reach = p->reach;
	if (p->reach > low)
		p->reach = low;
	p->flags = p->flags & (POS_USED | POS_KEPT) ? POS_KEPT : 0;
	p->start_ts = 0;
	return p;
}

/* the suspect of a position, if it has one */
static struct suspect *suspect_of(struct ro *st, const struct position *p)
{
	return p->susp && st->suspects.n ? table_get(&st->suspects, &p->susp) : NULL;
}

static struct thread_io *thread_for(struct ro *st, const struct inode *n,
				    const struct dio_ev_syscall *e)
{
	struct tkey k = { .tag = e->tag, .tid = e->tid };
	int created;
	struct thread_io *t = table_put(&st->threads, &k, &created);

	if (created)
		t->epoch = n->g.epoch;
	else
		catch_up(&n->g, &t->epoch, &t->wrote, NULL);
	return t;
}

static void note_writer(struct genstate *g, const struct dio_ev_syscall *e)
{
	for (uint32_t i = 0; i < g->nwriters && i < 2; i++)
		if (g->w[i].tid == e->tid)
			return;
	if (g->nwriters < 2) {
		g->w[g->nwriters].pid = e->pid;
		g->w[g->nwriters].tid = e->tid;
		memcpy(g->w[g->nwriters].comm, e->comm, DIO_COMM_LEN);
	}
	if (g->nwriters < UINT32_MAX)
		g->nwriters++;
}

static void wrote(struct ro *st, struct inode *n, const struct dio_ev_syscall *e)
{
	uint64_t lo = (uint64_t)e->offset, hi = lo + (uint64_t)e->ret;
	struct extra *x = extra_of(st, n);
	struct position *p;
	struct suspect *s;
	struct pkey k;

	ranges_add(&n->g.written, lo, hi);
	if (hi > n->g.size)
		n->g.size = hi;
	note_writer(&n->g, e);
	if (x && !rec_ev(&x->first_write))
		rec_set(&x->first_write, e);
	ranges_add(&thread_for(st, n, e)->wrote, lo, hi);
	/* bytes written through a description are its own, whichever thread wrote them */
	p = position_for(st, n, e, &k);
	ranges_add(&p->wrote, lo, hi);
	p->flags |= POS_USED;
	p->next = hi;
	if (hi > p->reach)
		p->reach = hi;
	s = suspect_of(st, p);
	if (s)
		ranges_add(&s->wrote, lo, hi);
}

/* a file whose only earlier data, for its readers, is another file of its name */
static int by_name_only(const struct inode *n)
{
	return n->by_name && !n->has_prev && !n->g.discards;
}

/*
 * A position was put at off: a candidate if that is a place neither it nor
 * its program got to in a replaced file, by a process that (or whose program)
 * read what the file held before. kept: it is the offset the position had
 * before a truncation. Exact: where its program had left the earlier data, an
 * offset carried over for certain; in a file that only took the name of
 * another a position becomes a suspect only at such an offset (the name is
 * all that ties the two), once its reads, out of order in a pool, got there.
 */
static void put_at(struct ro *st, struct inode *n, struct position *p,
		   const struct dio_ev_syscall *e, uint64_t off, int kept)
{
	uint32_t name = st->cur_name;
	struct stream *r;
	uint64_t floor;
	int exact;

	if ((p->flags & (POS_END | POS_DONE | POS_CAND | POS_RANDOM)) || !off || off <= p->reach ||
	    !replaced(n))
		return;
	r = stream_of(st, n, &e->tag, name, 0);
	floor = r && r->reach > p->reach ? r->reach : p->reach;
	if (off <= floor)
		return;
	/* an offset carried over comes from reading what the file held before */
	if (!kept && !readers_has(&n->carriers, e->pid, name))
		return;
	exact = kept || readers_end(&n->carriers, e->pid, name, off);
	p->flags |= POS_CAND | (kept ? POS_CAND_KEPT : 0) | (exact ? POS_EXACT : 0) |
		    (by_name_only(n) ? POS_NAMED : 0);
	p->cand = off;
	p->cand_floor = floor;
	p->cand_ts = e->hdr.ts;
	p->cand_pid = e->pid;
	p->cand_tid = e->tid;
	p->cand_name = name;
	memcpy(p->cand_comm, e->comm, sizeof(p->cand_comm));
}

static void did_seek(struct ro *st, struct inode *n, const struct dio_ev_syscall *e)
{
	struct extra *x = extra_of(st, n);
	uint64_t whence = e->args[2], off = (uint64_t)e->ret;
	struct position *p;
	struct pkey k;

	if (x)
		rec_set(&x->seek, e);
	p = position_for(st, n, e, &k);
	if (whence == SEEK_CUR && !e->args[1]) {
		/* where am I: it does not move */
		p->next = off;
		return;
	}
	if (whence == SEEK_SET && (p->flags & POS_PEEK) && off == p->peek_next) {
		/*
		 * Back where it was before it went to the end: that lseek only
		 * measured the size (File::Tail does it before each read). The
		 * position is as it was, a kept offset still kept.
		 */
		p->flags = p->peek_flags;
		p->next = off;
		return;
	}
	if (whence == SEEK_END && !(p->flags & POS_PEEK)) {
		p->peek_flags = p->flags;
		p->peek_next = p->next;
	}
	p->next = off;
	p->flags = (p->flags | POS_USED) & ~(POS_KEPT | POS_PEEK);
	if (whence == SEEK_SET || whence == SEEK_CUR) {
		put_at(st, n, p, e, off, 0);
		return;
	}
	/* relative to the end, or data and holes: it did not carry an offset over */
	p->flags = (p->flags | POS_END) & ~(POS_CAND | POS_CAND_KEPT | POS_EXACT | POS_NAMED);
	if (whence == SEEK_END)
		p->flags |= POS_PEEK;
}

/* how far it, or any reader, had got in what the file held before */
static void old_end(struct ro *st, const struct inode *n, const struct position *p,
		    struct suspect *s)
{
	struct dio_file_tag old = tag_of(p->tag.ino, p->tag.dev, n->prev_gen);
	struct tkey tk = { .tag = old, .tid = s->tid };
	struct thread_io *t;

	if (n->g.discards) {
		s->same_reader = p->prev_reach > 0;
		s->old_end = s->same_reader ? p->prev_reach : n->g.cut_read_end;
		return;
	}
	if (by_name_only(n)) {
		s->same_reader = 1;
		s->old_end = s->off;
		return;
	}
	t = table_get(&st->threads, &tk);
	s->same_reader = t && t->read_end;
	s->old_end = s->same_reader ? t->read_end : n->prev_read_end;
}

/* the position read on from its candidate offset: a suspect, if it lost bytes */
static struct suspect *suspect_try(struct ro *st, struct inode *n, struct position *p,
				   const struct dio_ev_syscall *e)
{
	struct extra *x = extra_of(st, n);
	const struct dio_ev_syscall *r;
	struct suspect tmp, *s;
	struct proc *pr;

	memset(&tmp, 0, offsetof(struct suspect, rec));
	tmp.tag = p->tag;
	tmp.tid = p->cand_tid;
	tmp.off = p->cand;
	tmp.name = p->cand_name;
	tmp.first_ts = p->cand_ts;
	tmp.read = p->read;
	tmp.wrote = p->wrote;
	/* nothing lost so far (nothing written below yet, or only its own): look again later */
	if (!lost_of(st, &tmp, n))
		return NULL;
	tmp.kind = p->flags & POS_CAND_KEPT ? KIND_PAST_END : KIND_STALE;
	tmp.exact = !!(p->flags & POS_EXACT);
	tmp.pid = p->cand_pid;
	pr = table_get(&st->procs, &tmp.pid);
	memcpy(tmp.comm, pr ? pr->prog.name : p->cand_comm, sizeof(tmp.comm));
	memcpy(tmp.tcomm, p->cand_comm, sizeof(tmp.tcomm));
	tmp.size_known = n->g.size_known;
	tmp.size_then = n->g.size;
	old_end(st, n, p, &tmp);
	p->susp = ++st->serial;
	s = table_put(&st->suspects, &p->susp, NULL);
	memcpy(s, &tmp, offsetof(struct suspect, rec));
	n->nsusp++;
	p->flags = (p->flags | POS_DONE) & ~(POS_CAND | POS_CAND_KEPT | POS_EXACT | POS_NAMED);
	/* what replaced the file, the first write to the new data, how the reader got there */
	if (x && (r = rec_ev(&x->replaced)))
		add_rec(s, r);
	if (x && (r = rec_ev(&x->first_write)) && r->hdr.ts <= e->hdr.ts)
		add_rec(s, r);
	if (x && (r = rec_ev(&x->seek)) && r->pid == s->pid && (uint64_t)r->ret == s->off)
		add_rec(s, r);
	if (x && (r = rec_ev(&x->jump)) && r->pid == s->pid && (uint64_t)r->offset == s->off &&
	    r->hdr.ts != e->hdr.ts)
		add_rec(s, r);
	return s;
}

/* reads a pool of threads has in flight at once, as a share of a read: see README */
#define POOL_READS	16

/*
 * A read of a candidate below its offset: a pool of threads whose reads of a
 * stream reach dio out of order (the offset goes down to it), or a reader that
 * reads at random or went back for what it skipped (not a resume, for this
 * epoch).
 */
static void read_below(struct inode *n, struct position *p, const struct dio_ev_syscall *e,
		       uint64_t off, uint64_t got)
{
	uint64_t size = got ? got : 1;

	if (!(p->flags & POS_CAND_KEPT) && off > p->cand_floor && off + got <= p->cand &&
	    p->cand - (off + got) <= POOL_READS * size) {
		p->cand = off;
		p->flags &= ~POS_EXACT;
		if (readers_end(&n->carriers, e->pid, p->cand_name, off))
			p->flags |= POS_EXACT;
		return;
	}
	p->flags = (p->flags | POS_RANDOM) & ~(POS_CAND | POS_CAND_KEPT | POS_EXACT | POS_NAMED);
}

/*
 * How far a program read a replaced file in this epoch. A description that
 * read on to the end is a stream of its program: what it read counts as read
 * by the program's readers, and if it read from the start of the data, its
 * program went back for it then.
 */
static void note_stream(struct ro *st, struct inode *n, struct position *p, uint32_t name,
			const struct dio_ev_syscall *e, uint64_t off, uint64_t got, int at_end)
{
	uint64_t start = n->g.written.n ? n->g.written.lo[0] : 0;
	struct stream *r;

	if (off <= start)
		p->start_ts = e->hdr.ts;
	r = stream_of(st, n, &e->tag, name, got != 0);
	if (r && got && off + got > r->reach)
		r->reach = off + got;
	if (!(p->flags & POS_CAUGHT) && !at_end)
		return;
	if (!r)
		r = stream_of(st, n, &e->tag, name, 1);
	if (!(p->flags & POS_CAUGHT)) {
		p->flags |= POS_CAUGHT;
		for (uint32_t i = 0; i < p->read.n; i++)
			ranges_add(&r->credit, p->read.lo[i], p->read.hi[i]);
	} else {
		ranges_add(&r->credit, off, off + got);
	}
	if (p->start_ts > r->back_ts) {
		r->flags |= STREAM_BACK;
		r->back_ts = p->start_ts;
	}
}

static void did_read(struct ro *st, struct inode *n, const struct dio_ev_syscall *e)
{
	uint64_t off = (uint64_t)e->offset, got = e->ret > 0 ? (uint64_t)e->ret : 0;
	uint64_t count = st->counted[e->nr] ? e->args[2] : 0;
	struct thread_io *t = thread_for(st, n, e);
	struct extra *x = extra_of(st, n);
	uint32_t name = st->cur_name;
	struct position *p;
	struct suspect *s;
	struct pkey k;
	int eof, at_end;

	/* a read that got nothing says nothing of the size */
	if (got && off + got > t->read_end)
		t->read_end = off + got;
	if (got && off + got > n->g.read_end)
		n->g.read_end = off + got;
	if (got && off + got > n->g.size)
		n->g.size = off + got;
	if (got)
		readers_add(&n->g.readers, e->pid, name, off + got);
	/*
	 * On to the end: the read got nothing or less than it asked for (eof),
	 * or it reached the end of all dio saw written. Only the first makes a
	 * suspect of a candidate: a database reads its last page whole.
	 */
	eof = !got || got < count;
	at_end = eof || (n->g.size_known && off + got >= n->g.size);
	p = position_for(st, n, e, &k);
	/* a read after an lseek to the end: that lseek was more than a look at the size */
	p->flags &= ~POS_PEEK;
	if (!(p->flags & POS_USED) || off != p->next) {
		/* put somewhere by the read itself: a pread, or the first read it makes here */
		int kept = !(p->flags & POS_USED) && (p->flags & POS_KEPT) && off == p->next;

		put_at(st, n, p, e, off, kept);
		if (x && (p->flags & POS_CAND) && p->cand_ts == e->hdr.ts)
			rec_set(&x->jump, e);
	}
	p->flags |= POS_USED;
	/*
	 * It went below where it was put: a pool's reads out of order, random
	 * access, or it went back for what it missed.
	 */
	if ((p->flags & POS_CAND) && off < p->cand)
		read_below(n, p, e, off, got);
	ranges_add(&p->read, off, off + got);
	if (got && off + got > p->reach)
		p->reach = off + got;
	p->next = off + got;
	/* what a program read matters only where a resume can be: in a replaced file */
	if (replaced(n))
		note_stream(st, n, p, name, e, off, got, at_end);
	s = suspect_of(st, p);
	/*
	 * A suspect: it read on past the end from there, as a follower does, or
	 * read on above an offset its program had carried over.
	 */
	if (!s && (p->flags & POS_CAND) && off >= p->cand &&
	    (!(p->flags & POS_NAMED) || (p->flags & POS_EXACT)) &&
	    (eof || (got && (p->flags & POS_EXACT))))
		s = suspect_try(st, n, p, e);
	if (!s)
		return;
	s->reads++;
	s->eof_reads += !got;
	s->bytes_read += got;
	if (off >= s->off) {
		s->bytes_above += got;
		s->to_end |= at_end;
	}
	ranges_add(&s->read, off, off + got);
	s->last_ts = e->hdr.ts;
	add_rec(s, e);
}

static int opens_trunc(const struct ro *st, const struct dio_ev_syscall *e)
{
	uint8_t a = e->nr < DIO_NR_MAX ? st->open_flags_arg[e->nr] : 0;

	if (e->nr < DIO_NR_MAX && st->creat[e->nr])
		return 1;
	return a && (e->args[a - 1] & O_TRUNC);
}

/*
 * A reading position ended. Its suspect stays: the reader may open the file
 * again and read what it skipped through another description.
 */
static void position_end(struct ro *st, const struct pkey *k)
{
	table_del(&st->positions, k);
}

/*
 * The file an open found under a path, remembered for the next open there. A
 * file nobody read yet that took the name of another, which a program read
 * (a log rotated by rename and created again), continues the earlier file
 * for a reader that keeps its offset by the name.
 */
static void note_name(struct ro *st, struct inode *n, const struct dio_ev_syscall *e)
{
	const char *path = st->host->tag_path(st->ctx, &e->tag);
	struct inode *old;
	struct named *m;
	int created;
	uint64_t h;

	if (!path || !path[0])
		return;
	h = name_hash(path, strlen(path));
	m = table_put(&st->names, &h, &created);
	if (!created && (m->tag.ino != e->tag.ino || m->tag.dev != e->tag.dev) &&
	    !n->g.readers.n && !replaced(n) && (old = inode_of_tag(st, &m->tag)) &&
	    old->g.readers.n) {
		n->by_name = 1;
		n->name_prev = m->tag;
		n->carriers = old->g.readers;
	}
	m->tag = e->tag;
}

static void on_syscall(struct ro *st, const struct dio_ev_syscall *e)
{
	enum call_kind k = call_kind(&st->kinds, e->nr);
	struct pkey pk;
	struct inode *n;

	/* every record of a main thread names its program */
	st->cur_name = proc_of(st, e)->name;
	if (dio_ret_failed(e->ret))
		return;
	if (k == CALL_UNLINK || k == CALL_RENAME) {
		note_removal(st, e);
		return;
	}
	/*
	 * An open makes a new description: an entry with its id is one that ended
	 * unseen (the kernel reuses the memory). Without description ids a
	 * position is pid+fd, and it ends with the fd.
	 */
	if (k == CALL_OPEN || (k == CALL_CLOSE && !e->ofd)) {
		pk = pkey_of(e, k == CALL_CLOSE ? (int32_t)e->args[0] : (int32_t)e->ret);
		position_end(st, &pk);
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
		note_name(st, n, e);
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
	case CALL_SEEK:
		if (e->ret >= 0)
			did_seek(st, n, e);
		break;
	default:
		break;
	}
}

static int ro_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ro *st = state;

	if (ev->type == DIO_EV_SYSCALL) {
		on_syscall(st, (const void *)ev);
	} else if (ev->type == DIO_EV_OFD) {
		const struct dio_ev_ofd *o = (const void *)ev;
		struct pkey k = { .ofd = o->ofd };

		if (o->ofd)
			position_end(st, &k);
	} else if (ev->type == DIO_EV_PATH) {
		const struct dio_ev_path *p = (const void *)ev;
		struct ikey ik = { .ino = p->tag.ino, .dev = p->tag.dev };
		struct inode *n = (p->flags & DIO_PF_DELETED) ? table_get(&st->inodes, &ik) : NULL;

		if (n && n->gen == p->tag.gen && !n->g.deleted_ts)
			n->g.deleted_ts = ev->ts;
	} else if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *p = (const void *)ev;
		struct pick pk = { .pid = p->pid, .final = 1 };

		/* a reader that is gone will read nothing more: what it skipped is lost */
		if (p->kind == DIO_PROC_EXIT && (p->flags & DIO_PROCF_GROUP_DEAD)) {
			settle(st, &pk, NULL);
			table_del(&st->procs, &p->pid);
		} else if (p->kind == DIO_PROC_EXEC) {
			struct proc *pr = table_put(&st->procs, &p->pid, NULL);

			prog_see_record(&pr->prog, ev);
			pr->name = comm_hash(pr->prog.name);
		}
	}
	return 0;
}

static int ro_finish(void *state)
{
	struct ro *st = state;
	struct pick p = { .all = 1 };

	const struct table_use u[] = {
		TABLE_USE(&st->inodes, "inode numbers", "max_files"),
		TABLE_USE(&st->positions, "reading positions", "max_positions"),
		TABLE_USE(&st->threads, "(file, thread) pairs", "max_readers"),
		TABLE_USE(&st->suspects, "readers at a stale offset", "max_suspects"),
		TABLE_USE(&st->removals, "unlink and rename calls", "max_removals"),
		TABLE_USE(&st->procs, "processes", "max_positions"),
		TABLE_USE(&st->streams, "(file, program) pairs", "max_positions"),
		TABLE_USE(&st->names, "paths opened", "max_files"),
	};

	settle(st, &p, NULL);
	emit_reports(st);
	return tables_report(st->host, st->ctx, rules[KINDS].code, "reuse-offset", u,
			     sizeof(u) / sizeof(u[0]));
}

static void ro_destroy(void *state)
{
	struct ro *st = state;

	if (!st)
		return;
	table_free(&st->inodes);
	table_free(&st->positions);
	table_free(&st->threads);
	table_free(&st->suspects);
	table_free(&st->reports);
	table_free(&st->removals);
	table_free(&st->procs);
	table_free(&st->streams);
	table_free(&st->names);
	pool_free(&st->extras);
	free(st->batch);
	free(st);
}

static int ro_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct ro *st;
	int err = -EINVAL;
	size_t extras, suspects;

	if (o[O_ANY_OFFSET].set) {
		host->log(ctx, "any_offset was removed: a reader put at any offset > 0 it never "
			  "read up to in a replaced file is followed now, so the option has "
			  "nothing left to widen; remove it from the configuration");
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->host = host;
	st->ctx = ctx;
	for (int i = O_MIN_LOST; i <= O_MAX_REMOVALS; i++) {
		if (o[i].i < 1 || o[i].i > (1 << 24)) {
			host->log(ctx, "%s must be from 1 to %d", options[i].name, 1 << 24);
			goto cleanup;
		}
	}
	st->min_lost = (uint64_t)o[O_MIN_LOST].i;
	suspects = (size_t)o[O_MAX_SUSPECTS].i;
	/* files that replaced another: a few of the files followed */
	extras = (size_t)o[O_MAX_FILES].i / 8 + 1;
	err = table_init(&st->inodes, sizeof(struct ikey), sizeof(struct inode),
			 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = table_init(&st->threads, sizeof(struct tkey), sizeof(struct thread_io),
				 (size_t)o[O_MAX_READERS].i);
	if (!err)
		err = table_init(&st->positions, sizeof(struct pkey), sizeof(struct position),
				 (size_t)o[O_MAX_POSITIONS].i);
	if (!err)
		err = table_init(&st->suspects, sizeof(uint64_t), sizeof(struct suspect),
				 suspects);
	if (!err)
		err = table_init(&st->reports, sizeof(struct rkey), sizeof(struct report),
				 suspects);
	if (!err)
		err = table_init(&st->removals, sizeof(uint64_t), sizeof(struct removal),
				 (size_t)o[O_MAX_REMOVALS].i);
	if (!err)
		err = table_init(&st->procs, sizeof(uint32_t), sizeof(struct proc),
				 (size_t)o[O_MAX_POSITIONS].i);
	if (!err)
		err = table_init(&st->streams, sizeof(struct skey), sizeof(struct stream),
				 (size_t)o[O_MAX_POSITIONS].i);
	if (!err)
		err = table_init(&st->names, sizeof(uint64_t), sizeof(struct named),
				 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = pool_init(&st->extras, sizeof(struct extra), extras);
	if (err)
		goto cleanup;
	st->max_batch = suspects;
	st->batch = calloc(st->max_batch, sizeof(*st->batch));
	if (!st->batch) {
		err = -ENOMEM;
		goto cleanup;
	}
	st->inodes.evict = on_inode_evict;
	st->inodes.ud = st;
	st->suspects.evict = on_suspect_evict;
	st->suspects.ud = st;
	st->reports.evict = on_report_evict;
	st->reports.ud = st;
	call_kinds_init(&st->kinds, host);
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		if (!name)
			continue;
		st->counted[nr] = !strcmp(name, "read") || !strcmp(name, "pread64");
		if (call_kind(&st->kinds, nr) != CALL_OPEN)
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
		  DIO_EV_MASK(DIO_EV_PROC) | DIO_EV_MASK(DIO_EV_OFD),
	.options = options,
	.init = ro_init,
	.event = ro_event,
	.finish = ro_finish,
	.destroy = ro_destroy,
	.rules = rules,
};
