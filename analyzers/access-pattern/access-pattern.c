// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * access-pattern: how each process reads and writes its files. Per file and
 * process it counts small requests, requests that do not continue where the
 * previous one on the same fd ended (random), large requests not aligned to
 * the page size, and bytes read again (pages of the file a bitmap says were
 * read before). When a pair is done (the process exits, the pair is pushed
 * out of its table, or the trace ends) its counts go to its process, which
 * keeps its sums and the files with the most of each kind; the process is
 * judged on the sums, so a pattern spread over hundreds of files is one
 * finding that names the worst of them. The checks follow Drishti's over
 * Darshan logs, with thresholds for local storage and a cost in time for
 * small requests (see README.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/pool.h"
#include "analyzers/common/table.h"

enum {
	O_MIN_REQUESTS, O_SMALL_SIZE, O_SMALL_SHARE, O_SMALL_TIME, O_RANDOM_SHARE, O_ALIGN,
	O_MISALIGNED_SHARE, O_REREAD_SHARE, O_REREAD_MIN, O_REREAD_CAP, O_MIN_PER_FILE, O_MAX_FILES,
	O_MAX_TRACKED, O_MAX_PROCS,
};

static const struct dio_option options[] = {
	[O_MIN_REQUESTS] = { "min_requests", DIO_OPT_INT, "1000",
			     "requests a process must make before the request checks apply" },
	[O_SMALL_SIZE] = { "small_size", DIO_OPT_INT, "4096",
			   "a request for fewer bytes than this is small" },
	[O_SMALL_SHARE] = { "small_share", DIO_OPT_DOUBLE, "0.5",
			    "share of a process's requests that are small for a finding" },
	[O_SMALL_TIME] = { "small_time", DIO_OPT_DOUBLE, "0.1",
			   "share of the time from a process's first request to its last spent "
			   "in small ones for a finding" },
	[O_RANDOM_SHARE] = { "random_share", DIO_OPT_DOUBLE, "0.2",
			     "share of requests that do not continue the previous one" },
	[O_ALIGN] = { "align", DIO_OPT_INT, "4096",
		      "requests of at least this size should start and end on a multiple of it" },
	[O_MISALIGNED_SHARE] = { "misaligned_share", DIO_OPT_DOUBLE, "0.1",
				 "share of all requests that are large and misaligned" },
	[O_REREAD_SHARE] = { "reread_share", DIO_OPT_DOUBLE, "0.1",
			     "share of the bytes read that were read before" },
	[O_REREAD_MIN] = { "reread_min", DIO_OPT_INT, "1M",
			   "bytes read again before a finding" },
	[O_REREAD_CAP] = { "reread_cap", DIO_OPT_INT, "64M",
			   "bytes at the start of each file followed for re-reads" },
	[O_MIN_PER_FILE] = { "min_per_file", DIO_OPT_INT, "8",
			     "requests of a kind (pages, for re-reads) a file must get before they "
			     "count for its process" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "2048", "file+process pairs followed" },
	[O_MAX_TRACKED] = { "max_tracked", DIO_OPT_INT, "512",
			    "file+process pairs followed for re-reads at once" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "256",
			  "processes with requests followed at once" },
	{ NULL, 0, NULL, NULL },
};

#define PAGE	4096	/* re-reads are counted by page */
#define FDS	4	/* fds of one file in one process whose positions are kept */
#define SAMPLES	6	/* calls kept per pair for the excerpts */
#define SHOWN	2	/* calls of each kind in a finding's excerpt */
#define TOP	5	/* files a finding names */

/* what a request was; the kinds of finding */
#define F_SMALL		0x1
#define F_RANDOM	0x2
#define F_MISALIGNED	0x4
#define F_REREAD	0x8
#define KINDS		4
enum { K_SMALL, K_RANDOM, K_MISALIGNED, K_REREAD };

/* the kinds' codes, as README.md explains them */
static const struct dio_rule rules[KINDS + 2] = {
	[K_SMALL] = {
		"access-pattern.small-requests", DIO_SEV_WARNING, 0,
		"Most of a process's reads and writes are smaller than a page",
		"A process that made at least min_requests (1000) reads and writes of files, at "
		"least small_share (50%) of them smaller than small_size (4096) bytes, and spent "
		"at least small_time (10%) of the time from its first request to the end of its "
		"last in the small ones. A file counts once it had min_per_file (8) of them.",
		"A system call costs about a microsecond whatever it moves; below a page that "
		"cost is most of the time a request takes.\n\n"
		"Read and write in bigger pieces: a buffer of 64 KiB or more (setvbuf for stdio), "
		"gather small writes in memory or with writev, read nearby small records in one "
		"request.",
	},
	[K_RANDOM] = {
		"access-pattern.random", DIO_SEV_INFO, 0,
		"Reads and writes at random offsets",
		"A process that made at least min_requests (1000) reads and writes of files, at "
		"least random_share (20%) of them random: not starting where the previous request "
		"in the same direction on the same fd ended. A file counts once it had "
		"min_per_file (8) of them.",
		"Readahead does not help random reads, and on a disk each one is a seek; through "
		"the page cache a random read costs what an ordered one does, and point lookups "
		"in a database are random by design.\n\n"
		"If the order can change, sort the offsets and go through the file in order; "
		"otherwise say so to the kernel (posix_fadvise POSIX_FADV_RANDOM stops useless "
		"readahead, POSIX_FADV_WILLNEED fetches what comes next), or load the data once "
		"(mmap, a cache).",
	},
	[K_MISALIGNED] = {
		"access-pattern.misaligned", DIO_SEV_INFO, 0,
		"Large requests not aligned to the page size",
		"A process that made at least min_requests (1000) reads and writes of files, at "
		"least misaligned_share (10%) of them of align (4096) bytes or more with an "
		"offset or a size that is not a multiple of align. Smaller requests count as "
		"small, not as misaligned.",
		"With O_DIRECT such requests fail or are split; through the page cache a request "
		"that ends inside a page shares it with the next one, and a partial write to a "
		"page not in the cache must read it first: a page more per request at most.\n\n"
		"Use offsets and sizes that are multiples of the alignment (and buffers from "
		"posix_memalign for O_DIRECT).",
	},
	[K_REREAD] = {
		"access-pattern.reread", DIO_SEV_WARNING, 0,
		"Data read more than once",
		"A process that read again at least reread_min (1 MiB) and at least reread_share "
		"(10%) of the bytes it read, counted by 4096-byte page: a read of a page of the "
		"file it read before, but not the rest of the page where the previous read on the "
		"fd stopped. The first reread_cap (64 MiB) of each file is followed.",
		"The page cache spares the disk, not the calls and the copies: every byte read "
		"again is a copy the program paid for twice.\n\n"
		"Keep what was read (an application cache, mmap), or read it once in a bigger "
		"piece.",
	},
	[KINDS] = TABLE_FULL_RULE("access-pattern", "max_files, max_procs"),
	[KINDS + 1] = { NULL, 0, 0, NULL, NULL, NULL },
};

struct akey {
	struct dio_file_tag tag;
	uint32_t pid, pad;
};

struct fdpos {
	int32_t fd;
	uint32_t used;
	uint64_t end[2];	/* where the last read, write on it ended */
};

/* one file of one process */
struct pat {
	uint64_t reqs[2], bytes[2], small[2], random[2];	/* [0] reads, [1] writes */
	uint64_t small_ns;	/* time in its small requests */
	uint64_t large;		/* requests of at least align bytes */
	uint64_t misaligned, mis_off, mis_size;
	uint64_t reread;	/* bytes read of pages read before */
	uint64_t last_end[2];	/* where the last read, write on any fd ended */
	uint64_t first_ts, last_ts, end_ts;	/* first, last request's start; last's end */
	uint32_t tid;
	uint32_t bitmap;	/* pool index + 1 of its page bitmap, 0: none */
	uint32_t nsamples, next_fd;
	uint8_t sflags[SAMPLES];
	uint8_t pseudo;		/* under /proc or /sys: not storage, not counted */
	uint8_t pad;
	struct fdpos fds[FDS];
	struct dio_ev_syscall samples[SAMPLES];
};

/* a file among a process's worst for one kind */
struct top {
	struct dio_file_tag tag;
	uint64_t n;		/* its requests of the kind (bytes read again for re-reads) */
	uint64_t of;		/* its requests (bytes read for re-reads) */
	uint32_t tid;		/* of its first request */
	uint32_t pad;
};

/* a process: the sums of its pairs that are done, and its worst files */
struct proc {
	uint64_t reqs[2], bytes[2], small[2], random[2];
	uint64_t small_ns, large, misaligned, mis_off, mis_size, reread;
	uint64_t first_ts, last_ts, end_ts;
	uint64_t files;			/* pairs added */
	uint64_t live;			/* its pairs in their table */
	uint64_t with[KINDS];		/* files that had some of the kind */
	struct top top[KINDS][TOP];	/* most first; of equals, the first added */
	uint32_t nshown[KINDS];
	char comm[DIO_COMM_LEN];
	struct dio_ev_syscall shown[KINDS][SHOWN];	/* calls of the top file, per kind */
};

struct picked {
	struct akey k;
	uint64_t first_ts;
};

struct ap {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint8_t vec[CALLS_NR_MAX];	/* readv and the like: args[2] is not a size */
	uint64_t min_requests, small_size, align, reread_min, cap_pages, per_file;
	uint64_t small_ppm, small_time_ppm, random_ppm, mis_ppm, reread_ppm;	/* millionths */
	struct table pats, procs;
	struct pool bitmaps;
	struct picked *batch;		/* max_files pairs, or max_procs processes */
	size_t nbatch;
	struct excerpt x;
};

/* ---- judging ---------------------------------------------------------------- */

/* part/whole at least ppm millionths (whole > 0) */
static int share_at_least(uint64_t part, uint64_t whole, uint64_t ppm)
{
	return whole && (unsigned __int128)part * 1000000 >= (unsigned __int128)ppm * whole;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "\nFiles with the most: A (n of m UNIT), ... and N more files." when there are several */
static void list_files(struct ap *st, const struct proc *pr, int kind, const char *unit,
		       char *buf, size_t len)
{
	size_t at = 0;
	char label[320];

	buf[0] = 0;
	if (pr->with[kind] < 2)
		return;
	for (int i = 0; i < TOP && i < (int)pr->with[kind] && at < len; i++) {
		const struct top *t = &pr->top[kind][i];

		at += (size_t)snprintf(buf + at, len - at, "%s%s (%" PRIu64 " of %" PRIu64 " %s)",
				       i ? ", " : "\nFiles with the most: ",
				       file_label(st->host, st->ctx, &t->tag, label, sizeof(label)),
				       t->n, t->of, unit);
	}
	if (at < len && pr->with[kind] > TOP)
		at += (size_t)snprintf(buf + at, len - at, ", and %" PRIu64 " more files",
				       pr->with[kind] - TOP);
	if (at < len)
		snprintf(buf + at, len - at, ".");
}

/* what a kind's finding says around its numbers (its code and severity are its rule's) */
struct kind_text {
	const char *verb, *whole, *prep;	/* "made" N "of its" M "requests" " to " FILE */
	const char *unit;			/* of a file's numbers in the list */
};

static const struct kind_text texts[KINDS] = {
	[K_SMALL] = { "made", "requests", " to ", "requests" },
	[K_RANDOM] = { "made", "requests", " to ", "requests" },
	[K_MISALIGNED] = { "made", "requests", " to ", "requests" },
	[K_REREAD] = { "read", "bytes it read", " from ", "bytes read" },
};

/*
 * The finding of one kind: n of total (requests, or bytes read) are of it.
 * With one file, the title gives that file's numbers, as it always did; with
 * several, the process's, how many files and the one with the most. what
 * follows the file in the title, tail ends it; explain and fix make the
 * message, with the list of files between them.
 */
static void report(struct ap *st, uint32_t pid, const struct proc *pr, int kind, uint64_t n,
		   uint64_t total, const char *what, const char *tail, const char *explain,
		   const char *fix)
{
	const struct kind_text *k = &texts[kind];
	const struct top *t = &pr->top[kind][0];
	const char *path = st->host->tag_path(st->ctx, &t->tag);
	const char *det = kind == K_REREAD ? "the" : "its";
	struct dio_finding f = { .size = sizeof(f) };
	char title[768], msg[3072], files[1600], comm[COMM_LABEL_LEN], label[320];

	f.path = path;
	path = path ? file_label(st->host, st->ctx, &t->tag, label, sizeof(label)) :
		      "(path unknown)";
	comm_label(pr->comm, comm);
	if (pr->with[kind] > 1)
		snprintf(title, sizeof(title),
			 "pid %u (%s) %s %" PRIu64 " of %s %" PRIu64 " %s%s (%.1f%%) on %" PRIu64
			 " files, most on %s%s",
			 pid, comm, k->verb, n, det, total, k->whole, what,
			 pct(n, total), pr->with[kind], path, tail);
	else
		snprintf(title, sizeof(title),
			 "pid %u (%s) %s %" PRIu64 " of %s %" PRIu64 " %s%s%s%s (%.1f%%)%s",
			 pid, comm, k->verb, n, det, t->of, k->whole, k->prep, path,
			 what, pct(n, t->of), tail);
	list_files(st, pr, kind, k->unit, files, sizeof(files));
	snprintf(msg, sizeof(msg), "%s%s\nFix: %s", explain, files, fix);
	f.code = rules[kind].code;
	f.severity = rules[kind].severity;
	f.title = title;
	f.message = msg;
	f.pid = pid;
	f.tid = t->tid;
	f.comm = pr->comm;
	f.tag = t->tag;
	f.has_tag = 1;
	f.ts_first = pr->first_ts;
	f.ts_last = pr->last_ts;
	f.count = n;
	excerpt_reset(&st->x);
	for (uint32_t i = 0; i < pr->nshown[kind]; i++)
		excerpt_add_fmt(&st->x, st->host, st->ctx, &pr->shown[kind][i].hdr, SHOWN,
				DIO_FMT_DETAILS);
	f.excerpt = excerpt_text(&st->x);
	st->host->emit_finding(st->ctx, &f);
}

/* the findings of a process, on the sums of its files */
static void judge(struct ap *st, uint32_t pid, const struct proc *pr)
{
	uint64_t total = pr->reqs[0] + pr->reqs[1], small = pr->small[0] + pr->small[1];
	uint64_t random = pr->random[0] + pr->random[1], span = pr->end_ts - pr->first_ts;
	char what[128], tail[128], explain[1024];
	int enough = total >= st->min_requests;

	if (enough && share_at_least(small, total, st->small_ppm) &&
	    share_at_least(pr->small_ns, span, st->small_time_ppm)) {
		snprintf(what, sizeof(what), " smaller than %" PRIu64 " bytes", st->small_size);
		snprintf(tail, sizeof(tail), ": %" PRIu64 " reads, %" PRIu64 " writes",
			 pr->small[0], pr->small[1]);
		snprintf(explain, sizeof(explain),
			 "A system call costs about a microsecond whatever it moves; below %" PRIu64
			 " bytes that cost is most of the time the request takes. Over all its files "
			 "it read %" PRIu64 " bytes and wrote %" PRIu64 " in %" PRIu64 " requests, %"
			 PRIu64 " of them small; these took %.6f s, %.1f%% of the %.6f s from its "
			 "first request to the end of its last.",
			 st->small_size, pr->bytes[0], pr->bytes[1], total, small,
			 (double)pr->small_ns / 1e9, pct(pr->small_ns, span), (double)span / 1e9);
		report(st, pid, pr, K_SMALL, small, total, what, tail, explain,
		       "read and write in bigger pieces: a buffer of 64 KiB or more (setvbuf for "
		       "stdio), gather small writes in memory or with writev, read nearby small "
		       "records in one request.");
	}
	if (enough && share_at_least(random, total, st->random_ppm)) {
		snprintf(tail, sizeof(tail), ": %" PRIu64 " reads, %" PRIu64 " writes",
			 pr->random[0], pr->random[1]);
		report(st, pid, pr, K_RANDOM, random, total, " at random offsets", tail,
		       "A request is random when it does not start where the previous one on the "
		       "same fd ended. Readahead does not help random reads, and on a disk each one "
		       "is a seek.",
		       "if the order can change, sort the offsets and go through the file in order; "
		       "otherwise say so to the kernel (posix_fadvise POSIX_FADV_RANDOM stops "
		       "useless readahead, POSIX_FADV_WILLNEED fetches what comes next), or load "
		       "the data once (mmap, a cache).");
	}
	if (enough && pr->misaligned && share_at_least(pr->misaligned, total, st->mis_ppm)) {
		snprintf(what, sizeof(what), " of %" PRIu64 " bytes or more not aligned to %" PRIu64
			 " bytes", st->align, st->align);
		snprintf(explain, sizeof(explain),
			 "Of %" PRIu64 " requests of %" PRIu64 " bytes or more, %" PRIu64
			 " started and %" PRIu64 " had a size off a multiple of %" PRIu64 ". With "
			 "O_DIRECT such requests fail or are split; through the page cache a request "
			 "that ends inside a page shares it with the next one, and a partial write to "
			 "a page not in the cache must read it first.",
			 pr->large, st->align, pr->mis_off, pr->mis_size, st->align);
		snprintf(tail, sizeof(tail), "use offsets and sizes that are multiples of %" PRIu64
			 " (and buffers from posix_memalign for O_DIRECT).", st->align);
		report(st, pid, pr, K_MISALIGNED, pr->misaligned, total, what, "", explain, tail);
	}
	if (pr->reread >= st->reread_min && share_at_least(pr->reread, pr->bytes[0], st->reread_ppm))
		report(st, pid, pr, K_REREAD, pr->reread, pr->bytes[0], " more than once", "",
		       "Counted by 4096-byte page: a read of a page this process read before (but "
		       "not the rest of a page the previous read on the fd stopped in). The page "
		       "cache spares the disk, not the calls and the copies.",
		       "keep what was read (an application cache, mmap), or read it once in a "
		       "bigger piece.");
}

/* ---- pairs into their processes ----------------------------------------------- */

/* the pair's calls that show kind, as the top file's excerpt */
static void keep_shown(struct proc *pr, int kind, const struct pat *p)
{
	pr->nshown[kind] = 0;
	for (uint32_t i = 0; i < p->nsamples && pr->nshown[kind] < SHOWN; i++)
		if (p->sflags[i] & (1u << kind))
			memcpy(&pr->shown[kind][pr->nshown[kind]++], &p->samples[i],
			       sizeof(p->samples[i]));
}

/* the file among the process's worst for kind when n ranks it there */
static void rank(struct proc *pr, int kind, const struct akey *k, const struct pat *p,
		 uint64_t n, uint64_t of)
{
	struct top *t = pr->top[kind];
	int at = 0;

	if (!n)
		return;
	pr->with[kind]++;
	while (at < TOP && t[at].n >= n)
		at++;
	if (at == TOP)
		return;
	memmove(&t[at + 1], &t[at], (TOP - 1 - (size_t)at) * sizeof(*t));
	t[at] = (struct top){ .tag = k->tag, .n = n, .of = of, .tid = p->tid };
	if (!at)
		keep_shown(pr, kind, p);
}

/*
 * A pair is done: its counts go to its process. A file's requests of a kind
 * count only when it had min_per_file of them (pages, for re-reads): a file
 * read whole in one small request, or the few pieces of each library the
 * dynamic loader reads, could not save more than a call or two.
 */
static void fold(struct ap *st, struct proc *pr, const struct akey *k, struct pat *p)
{
	uint64_t reqs = p->reqs[0] + p->reqs[1], small = p->small[0] + p->small[1];

	if (small < st->per_file)
		small = p->small[0] = p->small[1] = p->small_ns = 0;
	if (p->random[0] + p->random[1] < st->per_file)
		p->random[0] = p->random[1] = 0;
	if (p->misaligned < st->per_file)
		p->misaligned = p->mis_off = p->mis_size = 0;
	if (p->reread < st->per_file * PAGE)
		p->reread = 0;
	for (int d = 0; d < 2; d++) {
		pr->reqs[d] += p->reqs[d];
		pr->bytes[d] += p->bytes[d];
		pr->small[d] += p->small[d];
		pr->random[d] += p->random[d];
	}
	pr->small_ns += p->small_ns;
	pr->large += p->large;
	pr->misaligned += p->misaligned;
	pr->mis_off += p->mis_off;
	pr->mis_size += p->mis_size;
	pr->reread += p->reread;
	if (!pr->files++ || p->first_ts < pr->first_ts)
		pr->first_ts = p->first_ts;
	if (p->last_ts > pr->last_ts)
		pr->last_ts = p->last_ts;
	if (p->end_ts > pr->end_ts)
		pr->end_ts = p->end_ts;
	rank(pr, K_SMALL, k, p, small, reqs);
	rank(pr, K_RANDOM, k, p, p->random[0] + p->random[1], reqs);
	rank(pr, K_MISALIGNED, k, p, p->misaligned, reqs);
	rank(pr, K_REREAD, k, p, p->reread, p->bytes[0]);
	if (p->bitmap)
		pool_put(&st->bitmaps, (int32_t)p->bitmap - 1);
	p->bitmap = 0;
}

static void on_pat_evict(void *key, void *val, void *ud)
{
	struct ap *st = ud;
	const struct akey *k = key;
	/* a pair's process is in its table while the pair is in its own */
	struct proc *pr = table_get(&st->procs, &k->pid);

	if (pr) {
		fold(st, pr, k, val);
		pr->live--;
	}
}

static void pick_pair(void *key, void *val, void *ud)
{
	struct ap *st = ud;
	const struct akey *k = key;

	st->batch[st->nbatch].k = *k;
	st->batch[st->nbatch++].first_ts = ((const struct pat *)val)->first_ts;
}

static int picked_cmp(const void *a, const void *b)
{
	const struct picked *x = a, *y = b;

	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	return file_tag_cmp(&x->k.tag, &y->k.tag);
}

/* the pairs still followed go to their processes (pid's only, to pr), in the order they began */
static void fold_pairs(struct ap *st, const uint32_t *pid, struct proc *pr)
{
	size_t n = 0;

	st->nbatch = 0;
	if (pr && !pr->live)
		return;
	table_each(&st->pats, pick_pair, st);
	for (size_t i = 0; i < st->nbatch; i++)
		if (!pid || st->batch[i].k.pid == *pid)
			st->batch[n++] = st->batch[i];
	qsort(st->batch, n, sizeof(*st->batch), picked_cmp);
	for (size_t i = 0; i < n; i++) {
		struct akey *k = &st->batch[i].k;
		struct proc *to = pid ? pr : table_get(&st->procs, &k->pid);

		if (to) {
			fold(st, to, k, table_get(&st->pats, k));
			to->live--;
		}
		table_del(&st->pats, k);
	}
}

/* a process pushed out of its table: reported now, with its pairs */
static void on_proc_evict(void *key, void *val, void *ud)
{
	fold_pairs(ud, key, val);
	judge(ud, *(const uint32_t *)key, val);
}

static void pick_proc(void *key, void *val, void *ud)
{
	struct ap *st = ud;

	st->batch[st->nbatch].k = (struct akey){ .pid = *(const uint32_t *)key };
	st->batch[st->nbatch++].first_ts = ((const struct proc *)val)->first_ts;
}

/* report and forget process pid, or all of them (NULL) in the order of their first request */
static void settle(struct ap *st, const uint32_t *pid)
{
	struct proc *pr;

	if (pid) {
		pr = table_get(&st->procs, pid);
		if (!pr)
			return;
		fold_pairs(st, pid, pr);
		judge(st, *pid, pr);
		table_del(&st->procs, pid);
		return;
	}
	fold_pairs(st, NULL, NULL);
	st->nbatch = 0;
	table_each(&st->procs, pick_proc, st);
	qsort(st->batch, st->nbatch, sizeof(*st->batch), picked_cmp);
	for (size_t i = 0; i < st->nbatch; i++) {
		uint32_t p = st->batch[i].k.pid;

		judge(st, p, table_get(&st->procs, &p));
	}
	for (size_t i = 0; i < st->nbatch; i++)
		table_del(&st->procs, &st->batch[i].k.pid);
}

/* ---- requests ----------------------------------------------------------------- */

static struct fdpos *fd_slot(struct pat *p, int32_t fd, int *found)
{
	struct fdpos *s;

	for (int i = 0; i < FDS; i++) {
		if (p->fds[i].used && p->fds[i].fd == fd) {
			*found = 1;
			return &p->fds[i];
		}
	}
	for (int i = 0; i < FDS; i++)
		if (!p->fds[i].used) {
			s = &p->fds[i];
			goto take;
		}
	s = &p->fds[p->next_fd++ % FDS];
take:
	*found = 0;
	s->used = 1;
	s->fd = fd;
	return s;
}

/* bytes of [off, end) in pages the bitmap has seen; marks them */
static uint64_t pages_again(struct ap *st, struct pat *p, uint64_t off, uint64_t end, int seq)
{
	uint8_t *bm;
	uint64_t again = 0;

	if (!p->bitmap) {
		int32_t i = pool_get(&st->bitmaps);

		if (i == POOL_NONE)
			return 0;
		p->bitmap = (uint32_t)i + 1;
	}
	bm = pool_at(&st->bitmaps, (int32_t)p->bitmap - 1);
	for (uint64_t pg = off / PAGE; pg * PAGE < end && pg < st->cap_pages; pg++) {
		uint64_t lo = pg * PAGE > off ? pg * PAGE : off;
		uint64_t hi = (pg + 1) * PAGE < end ? (pg + 1) * PAGE : end;
		uint8_t bit = (uint8_t)(1u << (pg % 8));

		/* the rest of the page the previous read on this fd stopped in is not again */
		if ((bm[pg / 8] & bit) && !(seq && pg == off / PAGE && off % PAGE))
			again += hi - lo;
		bm[pg / 8] |= bit;
	}
	return again;
}

/* keep e as a sample if it shows a kind fewer than SHOWN samples show */
static void sample(struct pat *p, const struct dio_ev_syscall *e, uint8_t flags)
{
	uint8_t want = 0;

	if (!flags || p->nsamples >= SAMPLES)
		return;
	for (int k = 0; k < KINDS; k++) {
		uint8_t bit = (uint8_t)(1u << k);
		int n = 0;

		for (uint32_t i = 0; i < p->nsamples; i++)
			n += !!(p->sflags[i] & bit);
		if ((flags & bit) && n < SHOWN)
			want = 1;
	}
	if (!want)
		return;
	if (rec_copy(&p->samples[p->nsamples], sizeof(p->samples[0]), &e->hdr))
		p->sflags[p->nsamples++] = flags;
}

static void request(struct ap *st, const struct dio_ev_syscall *e, int dir)
{
	struct akey k = { .tag = e->tag, .pid = e->pid };
	uint64_t off = (uint64_t)e->offset, got = (uint64_t)e->ret, end = off + got;
	uint64_t size = e->nr < CALLS_NR_MAX && st->vec[e->nr] ? got : e->args[2];
	uint8_t flags = 0;
	struct fdpos *s;
	struct proc *pr;
	struct pat *p;
	int created, found, seq;

	/* the process first: pushing another out settles that one's pairs, not this pair */
	pr = table_put(&st->procs, &e->pid, &created);
	if (created)
		memcpy(pr->comm, e->comm, sizeof(pr->comm));
	p = table_put(&st->pats, &k, &created);
	if (created) {
		const char *path = st->host->tag_path(st->ctx, &e->tag);

		pr->live++;
		p->first_ts = e->hdr.ts;
		p->tid = e->tid;
		/* made when read (the address sanitizer reads /proc/self/maps again and again) */
		p->pseudo = path && (!strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5));
	}
	if (p->pseudo)
		return;
	p->last_ts = e->hdr.ts;
	p->end_ts = e->hdr.ts + e->duration;
	s = fd_slot(p, e->fd, &found);
	/* a new fd continues when it starts at 0 or where the last request on any fd ended */
	seq = found ? off == s->end[dir] : off == 0 || off == p->last_end[dir];
	s->end[dir] = end;
	p->last_end[dir] = end;
	p->reqs[dir]++;
	p->bytes[dir] += got;
	if (size < st->small_size) {
		p->small[dir]++;
		p->small_ns += e->duration;
		flags |= F_SMALL;
	}
	if (!seq) {
		p->random[dir]++;
		flags |= F_RANDOM;
	}
	if (size >= st->align) {
		p->large++;
		if (off % st->align || size % st->align) {
			p->misaligned++;
			p->mis_off += !!(off % st->align);
			p->mis_size += !!(size % st->align);
			flags |= F_MISALIGNED;
		}
	}
	if (!dir) {
		uint64_t again = pages_again(st, p, off, end, seq);

		p->reread += again;
		if (again)
			flags |= F_REREAD;
	}
	sample(p, e, flags);
}

static int ap_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ap *st = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	enum call_kind kind;

	if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *p = (const void *)ev;

		if (p->kind == DIO_PROC_EXIT && (p->flags & DIO_PROCF_GROUP_DEAD))
			settle(st, &p->pid);
		return 0;
	}
	if (ev->type != DIO_EV_SYSCALL || !(e->flags & DIO_SF_FILE) ||
	    (e->ftype != DIO_FT_REG && e->ftype != DIO_FT_BLK))
		return 0;
	kind = call_kind(&st->kinds, e->nr);
	if (kind == CALL_CLOSE) {
		struct akey k = { .tag = e->tag, .pid = e->pid };
		struct pat *p = table_get(&st->pats, &k);

		for (int i = 0; p && i < FDS; i++)
			if (p->fds[i].used && p->fds[i].fd == e->fd)
				p->fds[i].used = 0;
		return 0;
	}
	if ((kind != CALL_READ && kind != CALL_WRITE) || e->ret <= 0 ||
	    !(e->flags & DIO_SF_OFFSET) || e->offset < 0)
		return 0;
	request(st, e, kind == CALL_WRITE);
	return 0;
}

static int ap_finish(void *state)
{
	struct ap *st = state;
	const struct table_use u[] = {
		TABLE_USE(&st->pats, "(file, process) pairs", "max_files"),
		TABLE_USE(&st->procs, "processes", "max_procs"),
	};

	settle(st, NULL);
	return tables_report(st->host, st->ctx, rules[KINDS].code, "access-pattern", u,
			     sizeof(u) / sizeof(u[0]));
}

static void ap_destroy(void *state)
{
	struct ap *st = state;

	if (!st)
		return;
	table_free(&st->pats);
	table_free(&st->procs);
	pool_free(&st->bitmaps);
	free(st->batch);
	free(st);
}

static const char *const vectors[] = { "readv", "preadv", "preadv2", "writev", "pwritev",
				       "pwritev2" };

static int ap_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct ap *st = calloc(1, sizeof(*st));
	size_t nbatch;
	int err = -EINVAL;

	if (!st)
		return -ENOMEM;
	st->host = host;
	st->ctx = ctx;
	for (int i = 0; options[i].name; i++) {
		if (options[i].type == DIO_OPT_DOUBLE && !(o[i].d > 0 && o[i].d <= 1)) {
			host->log(ctx, "%s must be above 0 and at most 1", options[i].name);
			goto cleanup;
		}
		if (options[i].type == DIO_OPT_INT && (o[i].i < 1 || o[i].i > ((int64_t)1 << 40))) {
			host->log(ctx, "%s must be from 1 to 2^40", options[i].name);
			goto cleanup;
		}
	}
	st->min_requests = (uint64_t)o[O_MIN_REQUESTS].i;
	st->per_file = (uint64_t)o[O_MIN_PER_FILE].i;
	st->small_size = (uint64_t)o[O_SMALL_SIZE].i;
	st->align = (uint64_t)o[O_ALIGN].i;
	st->reread_min = (uint64_t)o[O_REREAD_MIN].i;
	st->cap_pages = ((uint64_t)o[O_REREAD_CAP].i + PAGE - 1) / PAGE;
	st->small_ppm = (uint64_t)(o[O_SMALL_SHARE].d * 1e6 + 0.5);
	st->small_time_ppm = (uint64_t)(o[O_SMALL_TIME].d * 1e6 + 0.5);
	st->random_ppm = (uint64_t)(o[O_RANDOM_SHARE].d * 1e6 + 0.5);
	st->mis_ppm = (uint64_t)(o[O_MISALIGNED_SHARE].d * 1e6 + 0.5);
	st->reread_ppm = (uint64_t)(o[O_REREAD_SHARE].d * 1e6 + 0.5);
	err = table_init(&st->pats, sizeof(struct akey), sizeof(struct pat),
			 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = table_init(&st->procs, sizeof(uint32_t), sizeof(struct proc),
				 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = pool_init(&st->bitmaps, (size_t)(st->cap_pages + 7) / 8,
				(size_t)o[O_MAX_TRACKED].i);
	if (err)
		goto cleanup;
	/* a batch holds every pair, or every process */
	nbatch = st->pats.max > st->procs.max ? st->pats.max : st->procs.max;
	st->batch = calloc(nbatch, sizeof(*st->batch));
	if (!st->batch) {
		err = -ENOMEM;
		goto cleanup;
	}
	st->pats.evict = on_pat_evict;
	st->pats.ud = st;
	st->procs.evict = on_proc_evict;
	st->procs.ud = st;
	call_kinds_init(&st->kinds, host);
	for (uint32_t nr = 0; nr < CALLS_NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		for (size_t i = 0; name && i < sizeof(vectors) / sizeof(vectors[0]); i++)
			if (!strcmp(name, vectors[i]))
				st->vec[nr] = 1;
	}
	*state = st;
	return 0;
cleanup:
	ap_destroy(st);
	return err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "access-pattern",
	.description = "small, random, misaligned requests and re-reads, per process and its files",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = ap_init,
	.event = ap_event,
	.finish = ap_finish,
	.destroy = ap_destroy,
	.rules = rules,
};
