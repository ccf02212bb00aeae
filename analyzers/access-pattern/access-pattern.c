// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * access-pattern: how programs read and write their files. Per file and
 * process it counts small requests, requests that do not continue where the
 * previous one on the same fd ended (random), large requests not aligned to
 * the page size, and bytes read again (pages of the file a bitmap says were
 * read before), and what each costs in time. When a pair is done (the
 * process exits or execs, the pair is pushed out of its table, or the trace
 * ends) its counts go to its process, which keeps its sums, the files with
 * the most of each kind and its time on storage; when the process is done,
 * what it showed goes to its program (analyzers/common/prog.h). A program is
 * judged on the sums of its processes, at the end of the trace: one finding
 * per kind and program, reported only when what the pattern cost passes a
 * share of the processes' time on storage and a rate per second of their run.
 * The checks follow Drishti's over Darshan logs, with thresholds for local
 * storage (see README.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/pool.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

enum {
	O_MIN_REQUESTS, O_SMALL_SIZE, O_SMALL_SHARE, O_RANDOM_SHARE, O_ALIGN,
	O_MISALIGNED_SHARE, O_REREAD_SHARE, O_REREAD_MIN, O_REREAD_CAP, O_MIN_PER_FILE,
	O_MIN_SHARE, O_MIN_COST_RATE, O_MAX_FILES, O_MAX_TRACKED, O_MAX_PROCS, O_MAX_PROGRAMS,
};

static const struct dio_option options[] = {
	[O_MIN_REQUESTS] = { "min_requests", DIO_OPT_INT, "1000",
			     "requests a program's processes must make before the request checks "
			     "apply" },
	[O_SMALL_SIZE] = { "small_size", DIO_OPT_INT, "4096",
			   "a request for fewer bytes than this is small" },
	[O_SMALL_SHARE] = { "small_share", DIO_OPT_DOUBLE, "0.5",
			    "share of the requests that are small for a finding" },
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
	[O_MIN_SHARE] = { "min_share", DIO_OPT_DOUBLE, "10",
			  "percent of the time the program's processes spent in calls on storage "
			  "(syncs aside) that a pattern must cost" },
	[O_MIN_COST_RATE] = { "min_cost_rate", DIO_OPT_DOUBLE, "100",
			      "ms a second of the processes' run (syncs aside) that a pattern must "
			      "cost" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "2048", "file+process pairs followed" },
	[O_MAX_TRACKED] = { "max_tracked", DIO_OPT_INT, "512",
			    "file+process pairs followed for re-reads at once" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "512", "processes followed at once" },
	[O_MAX_PROGRAMS] = { "max_programs", DIO_OPT_INT, "128",
			     "programs whose processes' patterns are added up" },
	{ NULL, 0, NULL, NULL },
};

#define PAGE	4096	/* re-reads are counted by page */
#define FDS	4	/* fds of one file in one process whose positions are kept */
#define SAMPLES	6	/* calls kept per pair for the excerpts */
#define SHOWN	2	/* calls of each kind in a finding's excerpt */
#define TOP	5	/* files, and processes, a finding names */
#define BUCKETS	64	/* request sizes by power of two, for the time of requests in order */
#define BASE_MIN 16	/* requests in order of a size before they price the others */

/* what a request was; the kinds of finding */
#define F_SMALL		0x1
#define F_RANDOM	0x2
#define F_MISALIGNED	0x4
#define F_REREAD	0x8
#define KINDS		4
enum { K_SMALL, K_RANDOM, K_MISALIGNED, K_REREAD };

#define COST_FLOORS \
	"What it cost must be at least min_share (10%) of the time the program's processes " \
	"that show it spent in calls on storage (syncs aside) and min_cost_rate (100 ms) a " \
	"second of their run (syncs aside): a tenth of it; under them the pattern is not " \
	"reported, but still counts for a baseline."

/* the kinds' codes, as README.md explains them */
static const struct dio_rule rules[KINDS + 2] = {
	[K_SMALL] = {
		"access-pattern.small-requests", DIO_SEV_WARNING, 0,
		"Most of a program's reads and writes are smaller than a page",
		"A program whose processes made at least min_requests (1000) reads and writes of "
		"files, at least small_share (50%) of them smaller than small_size (4096) bytes. "
		"A file counts once it had min_per_file (8) of them. Its cost: the time of the "
		"small requests. " COST_FLOORS,
		"A system call costs about a microsecond whatever it moves; below a page that "
		"cost is most of the time a request takes.\n\n"
		"Read and write in bigger pieces: a buffer of 64 KiB or more (setvbuf for stdio), "
		"gather small writes in memory or with writev, read nearby small records in one "
		"request.",
	},
	[K_RANDOM] = {
		"access-pattern.random", DIO_SEV_INFO, 0,
		"Reads and writes at random offsets that cost more than in order",
		"A program whose processes made at least min_requests (1000) reads and writes of "
		"files, at least random_share (20%) of them random: not starting where the "
		"previous request in the same direction on the same fd ended. A file counts once "
		"it had min_per_file (8) of them. Its cost: the time the random requests took "
		"beyond what requests of their size took in order in the same run. " COST_FLOORS,
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
		"Large requests not aligned to the page size that cost more than aligned ones",
		"A program whose processes made at least min_requests (1000) reads and writes of "
		"files, at least misaligned_share (10%) of them of align (4096) bytes or more "
		"with an offset or a size that is not a multiple of align. Smaller requests count "
		"as small, not as misaligned. Its cost: the time the misaligned requests took "
		"beyond what aligned requests of their size took in order in the same run. "
		COST_FLOORS,
		"With O_DIRECT such requests fail or are split; through the page cache a request "
		"that ends inside a page shares it with the next one, and a partial write to a "
		"page not in the cache must read it first: a page more per request at most.\n\n"
		"Use offsets and sizes that are multiples of the alignment (and buffers from "
		"posix_memalign for O_DIRECT).",
	},
	[K_REREAD] = {
		"access-pattern.reread", DIO_SEV_WARNING, 0,
		"Data read more than once",
		"A program whose processes read again at least reread_min (1 MiB) and at least "
		"reread_share (10%) of the bytes they read, counted by 4096-byte page: a read of "
		"a page of the file its process read before, but not the rest of the page where "
		"the previous read on the fd stopped. The first reread_cap (64 MiB) of each file "
		"is followed. Its cost: each read's time in proportion to the bytes it read "
		"again. " COST_FLOORS,
		"The page cache spares the disk, not the calls and the copies: every byte read "
		"again is a copy the program paid for twice.\n\n"
		"Keep what was read (an application cache, mmap), or read it once in a bigger "
		"piece.",
	},
	[KINDS] = TABLE_FULL_RULE("access-pattern", "max_files, max_procs, max_programs"),
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

/* what a file of a process, a process, or the processes of a program showed */
struct sums {
	uint64_t reqs[2], bytes[2], small[2], random[2];	/* [0] reads, [1] writes */
	uint64_t small_ns;	/* time in the small requests */
	uint64_t random_ns;	/* time in the random requests */
	int64_t rnd_extra;	/* what the priced ones took beyond requests in order */
	uint64_t rnd_priced;	/* random requests with a price */
	uint64_t large;		/* requests of at least align bytes */
	uint64_t misaligned, mis_off, mis_size;
	uint64_t mis_ns;	/* time in the misaligned requests */
	int64_t mis_extra;	/* what the priced ones took beyond aligned ones in order */
	uint64_t mis_priced;
	uint64_t reread;	/* bytes read of pages read before */
	uint64_t reread_ns;	/* each read's time in proportion to its bytes read again */
	uint64_t first_ts, last_ts, end_ts;	/* first, last request's start; last's end */
};

/* one file of one process */
struct pat {
	struct sums s;
	uint64_t last_end[2];	/* where the last read, write on any fd ended */
	uint32_t tid;
	uint32_t bitmap;	/* pool index + 1 of its page bitmap, 0: none */
	uint32_t nsamples, next_fd;
	uint8_t sflags[SAMPLES];
	uint8_t pseudo;		/* under /proc or /sys: not storage, not counted */
	uint8_t pad;
	struct fdpos fds[FDS];
	struct dio_ev_syscall samples[SAMPLES];
};

/* a file among the worst for one kind */
struct top {
	struct dio_file_tag tag;
	uint64_t n;		/* its requests of the kind (bytes read again for re-reads) */
	uint64_t of;		/* its requests (bytes read for re-reads) */
	uint32_t tid;		/* of its first request */
	uint32_t pad;
};

/* a process: the sums of its pairs that are done, its worst files and its time */
struct proc {
	struct sums s;
	uint64_t live;			/* its pairs in their table */
	uint64_t with[KINDS];		/* files that had some of the kind */
	struct top top[KINDS][TOP];	/* most first; of equals, the first added */
	struct prog prog;		/* the program it runs: findings are a program's */
	struct prog_time time;		/* what a pattern's cost is a share of */
	uint32_t nshown[KINDS];
	struct dio_ev_syscall shown[KINDS][SHOWN];	/* calls of the top file, per kind */
};

/* a process among the worst of its program for one kind */
struct ptop {
	uint64_t n, cost_ns;
	uint32_t pid, pad;
};

/* one kind in the processes of a program that showed it */
struct pkind {
	struct sums s;
	uint64_t procs;			/* processes that showed it */
	uint64_t files;			/* files that had some, once per process that used them
					 * (but the top ones, which are merged) */
	uint64_t storage_ns, run_ns;	/* those processes' time on storage and run, syncs aside */
	uint64_t lead_n;		/* of the process with the most */
	uint32_t lead_pid, lead_tid, nshown, pad;
	struct top top[TOP];		/* files with the most over its processes */
	struct ptop ptop[TOP];		/* processes with the most */
	struct dio_ev_syscall shown[SHOWN];	/* calls of the lead's top file */
};

/* a program: its processes that are done */
struct progrow {
	uint64_t first_ts;		/* its processes' first request */
	struct pkind k[KINDS];
};

/* the time requests of one direction and size took in order, aligned, in this run */
struct base {
	uint64_t n, ns, bytes;
};

struct picked {
	struct akey k;
	uint64_t first_ts;
};

struct pickedprog {
	char name[DIO_COMM_LEN];
	uint64_t first_ts;
};

struct ap {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint8_t vec[DIO_NR_MAX];	/* readv and the like: args[2] is not a size */
	uint64_t min_requests, small_size, align, reread_min, cap_pages, per_file;
	uint64_t small_ppm, random_ppm, mis_ppm, reread_ppm, share_ppm;	/* millionths */
	uint64_t rate_ppm;		/* min_cost_rate, in millionths of the run */
	struct table pats, procs, progs;
	struct pool bitmaps;
	struct base base[2][BUCKETS];
	struct picked *batch;		/* max_files pairs, or max_procs processes */
	size_t nbatch;
	struct pickedprog *pbatch;	/* max_programs programs */
	struct excerpt x;
};

/* ---- sums ------------------------------------------------------------------- */

static void sums_add(struct sums *d, const struct sums *s)
{
	int empty = !d->reqs[0] && !d->reqs[1];

	if (!s->reqs[0] && !s->reqs[1])
		return;
	if (empty || s->first_ts < d->first_ts)
		d->first_ts = s->first_ts;
	if (s->last_ts > d->last_ts)
		d->last_ts = s->last_ts;
	if (s->end_ts > d->end_ts)
		d->end_ts = s->end_ts;
	for (int i = 0; i < 2; i++) {
		d->reqs[i] += s->reqs[i];
		d->bytes[i] += s->bytes[i];
		d->small[i] += s->small[i];
		d->random[i] += s->random[i];
	}
	d->small_ns += s->small_ns;
	d->random_ns += s->random_ns;
	d->rnd_extra += s->rnd_extra;
	d->rnd_priced += s->rnd_priced;
	d->large += s->large;
	d->misaligned += s->misaligned;
	d->mis_off += s->mis_off;
	d->mis_size += s->mis_size;
	d->mis_ns += s->mis_ns;
	d->mis_extra += s->mis_extra;
	d->mis_priced += s->mis_priced;
	d->reread += s->reread;
	d->reread_ns += s->reread_ns;
}

/* requests of the kind (bytes read again for re-reads) */
static uint64_t kind_n(const struct sums *s, int kind)
{
	switch (kind) {
	case K_SMALL:
		return s->small[0] + s->small[1];
	case K_RANDOM:
		return s->random[0] + s->random[1];
	case K_MISALIGNED:
		return s->misaligned;
	default:
		return s->reread;
	}
}

/* what the kind cost: the time a fix would save (README.md says why each) */
static uint64_t kind_cost(const struct sums *s, int kind)
{
	switch (kind) {
	case K_SMALL:
		return s->small_ns;
	case K_RANDOM:
		return s->rnd_extra > 0 ? (uint64_t)s->rnd_extra : 0;
	case K_MISALIGNED:
		return s->mis_extra > 0 ? (uint64_t)s->mis_extra : 0;
	default:
		return s->reread_ns;
	}
}

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

/* the pattern is there: the counts pass the kind's floors */
static int present(const struct ap *st, const struct pkind *pk, int kind)
{
	const struct sums *s = &pk->s;
	uint64_t total = s->reqs[0] + s->reqs[1], n = kind_n(s, kind);

	switch (kind) {
	case K_SMALL:
		return total >= st->min_requests && n && share_at_least(n, total, st->small_ppm);
	case K_RANDOM:
		return total >= st->min_requests && n && share_at_least(n, total, st->random_ppm);
	case K_MISALIGNED:
		return total >= st->min_requests && n && share_at_least(n, total, st->mis_ppm);
	default:
		return n && n >= st->reread_min && share_at_least(n, s->bytes[0], st->reread_ppm);
	}
}

/*
 * ... and it costs: at least min_share of its processes' time on storage
 * (syncs aside) and min_cost_rate ms a second of their run (syncs aside)
 */
static int due(const struct ap *st, const struct pkind *pk, int kind)
{
	uint64_t cost = kind_cost(&pk->s, kind);

	if (st->share_ppm && !share_at_least(cost, pk->storage_ns, st->share_ppm))
		return 0;
	/* a run all in syncs has no time outside them: any cost is a high rate */
	return !st->rate_ppm || (cost && (!pk->run_ns || share_at_least(cost, pk->run_ns,
									 st->rate_ppm)));
}

/* "\nFiles with the most: A (n of m UNIT), ... and N more files." when there are several */
static void list_files(struct ap *st, const struct pkind *pk, const char *unit, char *buf,
		       size_t len)
{
	size_t at = 0;
	char label[320];

	buf[0] = 0;
	if (pk->files < 2)
		return;
	for (int i = 0; i < TOP && i < (int)pk->files && pk->top[i].n && at < len; i++) {
		const struct top *t = &pk->top[i];

		at += (size_t)snprintf(buf + at, len - at, "%s%s (%" PRIu64 " of %" PRIu64 " %s)",
				       i ? ", " : "\nFiles with the most: ",
				       file_label(st->host, st->ctx, &t->tag, label, sizeof(label)),
				       t->n, t->of, unit);
	}
	if (at < len && pk->files > TOP)
		at += (size_t)snprintf(buf + at, len - at, ", and %" PRIu64 " more files",
				       pk->files - TOP);
	if (at < len)
		snprintf(buf + at, len - at, ".");
}

/* "\nProcesses with the most: 812 (n UNIT, T), ... and N more." when there are several */
static void list_procs(const struct pkind *pk, const char *unit, char *buf, size_t len)
{
	size_t at = 0;
	char t[32];

	buf[0] = 0;
	if (pk->procs < 2)
		return;
	for (int i = 0; i < TOP && (uint64_t)i < pk->procs && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%u (%" PRIu64 " %s, %s)",
				       i ? ", " : "\nProcesses with the most: ", pk->ptop[i].pid,
				       pk->ptop[i].n, unit,
				       span_text(pk->ptop[i].cost_ns, t, sizeof(t)));
	if (at < len && pk->procs > TOP)
		at += (size_t)snprintf(buf + at, len - at, ", and %" PRIu64 " more",
				       pk->procs - TOP);
	if (at < len)
		snprintf(buf + at, len - at, ".");
}

/*
 * "T, x% of the S the process spent in calls on storage but syncs, R ms a
 * second of its run outside syncs"
 */
static void cost_text(const struct pkind *pk, uint64_t cost, char *buf, size_t len)
{
	char t[32], s[32];
	int many = pk->procs > 1;

	snprintf(buf, len, "%s, %.1f%% of the %s %s spent in calls on storage but syncs, %.2f ms "
		 "a second of %s run outside syncs",
		 span_text(cost, t, sizeof(t)), pct(cost, pk->storage_ns),
		 span_text(pk->storage_ns, s, sizeof(s)), many ? "its processes" : "the process",
		 pk->run_ns ? (double)cost / 1e6 / ((double)pk->run_ns / 1e9) : 0.0,
		 many ? "their" : "its");
}

/* what a kind's finding says around its numbers (its code and severity are its rule's) */
struct kind_text {
	const char *verb, *det, *whole, *wholes;	/* "made" N "of its" M "requests" */
	const char *prep;				/* " to " FILE */
	const char *unit;				/* of a file's numbers in the list */
};

static const struct kind_text texts[KINDS] = {
	[K_SMALL] = { "made", "its", "requests", "requests", " to ", "requests" },
	[K_RANDOM] = { "made", "its", "requests", "requests", " to ", "requests" },
	[K_MISALIGNED] = { "made", "its", "requests", "requests", " to ", "requests" },
	[K_REREAD] = { "read", "the", "bytes it read", "bytes they read", " from ", "bytes read" },
};

/*
 * The finding of one kind of a program: n of total (requests, or bytes read)
 * are of it. One process: "pid P (NAME)", as it always was; several:
 * "program NAME: N processes". With one file, the title gives that file's
 * numbers; with several, the sums, how many files and the one with the most.
 * what follows the file in the title, tail ends it; explain, the cost and
 * fix make the message, with the lists of processes and files between them.
 */
static void report(struct ap *st, const char *name, const struct pkind *pk, int kind,
		   int below, const char *what, const char *tail, const char *explain,
		   const char *fix)
{
	const struct kind_text *k = &texts[kind];
	const struct top *t = &pk->top[0];
	const char *path = st->host->tag_path(st->ctx, &t->tag);
	uint64_t n = kind_n(&pk->s, kind);
	uint64_t total = kind == K_REREAD ? pk->s.bytes[0] : pk->s.reqs[0] + pk->s.reqs[1];
	uint64_t of = pk->files > 1 ? total : t->of;
	struct dio_finding f = { .size = sizeof(f) };
	char title[768], msg[4096], files[1600], procs[512], who[256];
	char comm[COMM_LABEL_LEN], label[320];

	f.path = path;
	path = path ? file_label(st->host, st->ctx, &t->tag, label, sizeof(label)) :
		      "(path unknown)";
	comm_label(name, comm);
	if (pk->procs > 1)
		snprintf(who, sizeof(who), "program %s: %" PRIu64 " processes %s %" PRIu64 " of %s %"
			 PRIu64 " %s", comm, pk->procs, k->verb, n, kind == K_REREAD ? "the" : "their",
			 of, k->wholes);
	else
		snprintf(who, sizeof(who), "pid %u (%s) %s %" PRIu64 " of %s %" PRIu64 " %s",
			 pk->lead_pid, comm, k->verb, n, k->det, of, k->whole);
	if (pk->files > 1)
		snprintf(title, sizeof(title), "%s%s (%.1f%%) on %" PRIu64 " files, most on %s%s",
			 who, what, pct(n, of), pk->files, path, tail);
	else
		snprintf(title, sizeof(title), "%s%s%s%s (%.1f%%)%s", who, k->prep, path, what,
			 pct(n, of), tail);
	list_procs(pk, k->unit, procs, sizeof(procs));
	list_files(st, pk, k->unit, files, sizeof(files));
	snprintf(msg, sizeof(msg), "%s%s%s\nFix: %s", explain, procs, files, fix);
	f.code = rules[kind].code;
	f.severity = rules[kind].severity;
	f.title = title;
	f.message = msg;
	f.pid = pk->lead_pid;
	f.tid = pk->lead_tid;
	f.comm = name;
	f.tag = t->tag;
	f.has_tag = 1;
	f.ts_first = pk->s.first_ts;
	f.ts_last = pk->s.last_ts;
	f.count = n;
	f.cost_ns = kind_cost(&pk->s, kind);
	f.processes = (uint32_t)pk->procs;
	f.below = (uint32_t)below;
	excerpt_reset(&st->x);
	for (uint32_t i = 0; i < pk->nshown; i++)
		excerpt_add_fmt(&st->x, st->host, st->ctx, &pk->shown[i].hdr, SHOWN,
				DIO_FMT_DETAILS);
	f.excerpt = excerpt_text(&st->x);
	st->host->emit_finding(st->ctx, &f);
}

static void report_small(struct ap *st, const char *name, const struct pkind *pk, int below)
{
	const struct sums *s = &pk->s;
	char what[128], tail[128], explain[1280], cost[384];

	cost_text(pk, s->small_ns, cost, sizeof(cost));
	snprintf(what, sizeof(what), " smaller than %" PRIu64 " bytes", st->small_size);
	snprintf(tail, sizeof(tail), ": %" PRIu64 " reads, %" PRIu64 " writes", s->small[0],
		 s->small[1]);
	snprintf(explain, sizeof(explain),
		 "A system call costs about a microsecond whatever it moves; below %" PRIu64
		 " bytes that cost is most of the time the request takes. Over all %s files %s "
		 "read %" PRIu64 " bytes and wrote %" PRIu64 " in %" PRIu64 " requests, %" PRIu64
		 " of them small; these took %s.",
		 st->small_size, pk->procs > 1 ? "their" : "its", pk->procs > 1 ? "they" : "it",
		 s->bytes[0], s->bytes[1], s->reqs[0] + s->reqs[1], kind_n(s, K_SMALL), cost);
	report(st, name, pk, K_SMALL, below, what, tail, explain,
	       "read and write in bigger pieces: a buffer of 64 KiB or more (setvbuf for stdio), "
	       "gather small writes in memory or with writev, read nearby small records in one "
	       "request.");
}

/*
 * " They took T in all; P of the N had a price ... and took E more than it."
 * of random or misaligned requests, and what that cost
 */
static void extra_text(const struct pkind *pk, uint64_t n, uint64_t ns, int64_t extra,
		       uint64_t priced, const char *like, char *buf, size_t len)
{
	char t[32], e[32], cost[384];

	cost_text(pk, extra > 0 ? (uint64_t)extra : 0, cost, sizeof(cost));
	if (!priced) {
		snprintf(buf, len, " They took %s in all, and none had a price (what %d or more "
			 "requests of its size took %s in this run): what their pattern cost "
			 "cannot be told from the trace, and counts as nothing.",
			 span_text(ns, t, sizeof(t)), BASE_MIN, like);
		return;
	}
	snprintf(buf, len, " They took %s in all. %" PRIu64 " of the %" PRIu64 " had a price (what "
		 "%d or more requests of their size took %s in this run before them), and took %s "
		 "%s than it. What their pattern cost: %s.",
		 span_text(ns, t, sizeof(t)), priced, n, BASE_MIN, like,
		 span_text(extra >= 0 ? (uint64_t)extra : (uint64_t)-extra, e, sizeof(e)),
		 extra >= 0 ? "more" : "less", cost);
}

static void report_random(struct ap *st, const char *name, const struct pkind *pk, int below)
{
	const struct sums *s = &pk->s;
	char tail[128], explain[1280], extra[896];

	extra_text(pk, kind_n(s, K_RANDOM), s->random_ns, s->rnd_extra, s->rnd_priced,
		   "in order", extra, sizeof(extra));
	snprintf(tail, sizeof(tail), ": %" PRIu64 " reads, %" PRIu64 " writes", s->random[0],
		 s->random[1]);
	snprintf(explain, sizeof(explain),
		 "A request is random when it does not start where the previous one on the "
		 "same fd ended. Readahead does not help random reads, and on a disk each one "
		 "is a seek; through the page cache they cost what requests in order do.%s",
		 extra);
	report(st, name, pk, K_RANDOM, below, " at random offsets", tail, explain,
	       "if the order can change, sort the offsets and go through the file in order; "
	       "otherwise say so to the kernel (posix_fadvise POSIX_FADV_RANDOM stops useless "
	       "readahead, POSIX_FADV_WILLNEED fetches what comes next), or load the data once "
	       "(mmap, a cache).");
}

static void report_misaligned(struct ap *st, const char *name, const struct pkind *pk,
			      int below)
{
	const struct sums *s = &pk->s;
	char what[128], explain[1536], extra[896], fix[256];

	extra_text(pk, s->misaligned, s->mis_ns, s->mis_extra, s->mis_priced,
		   "in order and aligned", extra, sizeof(extra));
	snprintf(what, sizeof(what), " of %" PRIu64 " bytes or more not aligned to %" PRIu64
		 " bytes", st->align, st->align);
	snprintf(explain, sizeof(explain),
		 "Of %" PRIu64 " requests of %" PRIu64 " bytes or more, %" PRIu64 " started and %"
		 PRIu64 " had a size off a multiple of %" PRIu64 ". With O_DIRECT such requests "
		 "fail or are split; through the page cache a request that ends inside a page "
		 "shares it with the next one, and a partial write to a page not in the cache "
		 "must read it first.%s",
		 s->large, st->align, s->mis_off, s->mis_size, st->align, extra);
	snprintf(fix, sizeof(fix), "use offsets and sizes that are multiples of %" PRIu64
		 " (and buffers from posix_memalign for O_DIRECT).", st->align);
	report(st, name, pk, K_MISALIGNED, below, what, "", explain, fix);
}

static void report_reread(struct ap *st, const char *name, const struct pkind *pk, int below)
{
	char explain[1024], cost[384];

	cost_text(pk, pk->s.reread_ns, cost, sizeof(cost));
	snprintf(explain, sizeof(explain),
		 "Counted by 4096-byte page: a read of a page %s read before (but not the rest "
		 "of a page the previous read on the fd stopped in). The page cache spares the "
		 "disk, not the calls and the copies. The time of the reads, each in proportion "
		 "to the bytes it read again: %s.",
		 pk->procs > 1 ? "its process" : "this process", cost);
	report(st, name, pk, K_REREAD, below, " more than once", "", explain,
	       "keep what was read (an application cache, mmap), or read it once in a bigger "
	       "piece.");
}

static void (*const reporters[KINDS])(struct ap *, const char *, const struct pkind *, int) = {
	[K_SMALL] = report_small, [K_RANDOM] = report_random,
	[K_MISALIGNED] = report_misaligned, [K_REREAD] = report_reread,
};

/*
 * The findings of a program, on the sums of its processes: a pattern that is
 * there but costs less than the floors goes to the host marked below, so
 * that a --baseline that had it knows it is still there
 */
static void judge(struct ap *st, const char *name, const struct progrow *g)
{
	for (int kind = 0; kind < KINDS; kind++) {
		const struct pkind *pk = &g->k[kind];

		if (pk->procs && present(st, pk, kind))
			reporters[kind](st, name, pk, !due(st, pk, kind));
	}
}

/* ---- processes into their programs -------------------------------------------- */

/* the file among the worst for kind when n ranks it there; t holds TOP, most first */
static int rank_at(const struct top *t, uint64_t n)
{
	int at = 0;

	while (at < TOP && t[at].n >= n)
		at++;
	return at;
}

static void top_insert(struct top *t, int at, const struct top *v)
{
	memmove(&t[at + 1], &t[at], (TOP - 1 - (size_t)at) * sizeof(*t));
	t[at] = *v;
}

/*
 * A file of a process among its program's worst: added to the same file's
 * line when another process put it there (and counted once), else ranked
 */
static void top_merge(struct pkind *pk, const struct top *v)
{
	struct top m;
	int i, at;

	for (i = 0; i < TOP && pk->top[i].n; i++)
		if (dio_file_tag_eq(&pk->top[i].tag, &v->tag))
			break;
	if (i < TOP && pk->top[i].n) {
		m = pk->top[i];
		m.n += v->n;
		m.of += v->of;
		memmove(&pk->top[i], &pk->top[i + 1], (TOP - 1 - (size_t)i) * sizeof(m));
		memset(&pk->top[TOP - 1], 0, sizeof(m));
		pk->files--;
		v = &m;
	}
	at = rank_at(pk->top, v->n);
	if (at < TOP)
		top_insert(pk->top, at, v);
}

static void ptop_add(struct pkind *pk, uint32_t pid, uint64_t n, uint64_t cost)
{
	int at = 0;

	while (at < TOP && (uint64_t)at < pk->procs && pk->ptop[at].n >= n)
		at++;
	if (at == TOP)
		return;
	memmove(&pk->ptop[at + 1], &pk->ptop[at], (TOP - 1 - (size_t)at) * sizeof(pk->ptop[0]));
	pk->ptop[at] = (struct ptop){ .n = n, .cost_ns = cost, .pid = pid };
}

/* a process is done (exit, exec, pushed out, the end): what it showed goes to its program */
static void proc_done(struct ap *st, uint32_t pid, const struct proc *pr)
{
	char key[DIO_COMM_LEN] = { 0 };
	struct progrow *g;
	int any = 0, created;

	for (int kind = 0; kind < KINDS; kind++)
		any |= !!kind_n(&pr->s, kind);
	if (!any)
		return;
	memcpy(key, pr->prog.name, strnlen(pr->prog.name, DIO_COMM_LEN - 1));
	g = table_put(&st->progs, key, &created);
	if (created || pr->s.first_ts < g->first_ts)
		g->first_ts = pr->s.first_ts;
	for (int kind = 0; kind < KINDS; kind++) {
		struct pkind *pk = &g->k[kind];
		uint64_t n = kind_n(&pr->s, kind);

		if (!n)
			continue;
		sums_add(&pk->s, &pr->s);
		ptop_add(pk, pid, n, kind_cost(&pr->s, kind));
		pk->procs++;
		pk->storage_ns += pr->time.storage_ns;
		pk->run_ns += prog_time_run(&pr->time);
		pk->files += pr->with[kind];
		for (int i = 0; i < TOP && (uint64_t)i < pr->with[kind]; i++)
			top_merge(pk, &pr->top[kind][i]);
		if (n > pk->lead_n) {
			pk->lead_n = n;
			pk->lead_pid = pid;
			pk->lead_tid = pr->top[kind][0].tid;
			pk->nshown = pr->nshown[kind];
			memcpy(pk->shown, pr->shown[kind], sizeof(pk->shown));
		}
	}
}

/* a program pushed out of its table: reported now, with the processes it had */
static void on_prog_evict(void *key, void *val, void *ud)
{
	char name[DIO_COMM_LEN];

	memcpy(name, key, sizeof(name));
	judge(ud, name, val);
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
	struct top v = { .tag = k->tag, .n = n, .of = of, .tid = p->tid };
	int at;

	if (!n)
		return;
	pr->with[kind]++;
	at = rank_at(pr->top[kind], n);
	if (at == TOP)
		return;
	top_insert(pr->top[kind], at, &v);
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
	struct sums *s = &p->s;
	uint64_t reqs = s->reqs[0] + s->reqs[1];

	if (s->small[0] + s->small[1] < st->per_file)
		s->small[0] = s->small[1] = s->small_ns = 0;
	if (s->random[0] + s->random[1] < st->per_file) {
		s->random[0] = s->random[1] = s->random_ns = s->rnd_priced = 0;
		s->rnd_extra = 0;
	}
	if (s->misaligned < st->per_file) {
		s->misaligned = s->mis_off = s->mis_size = s->mis_ns = s->mis_priced = 0;
		s->mis_extra = 0;
	}
	if (s->reread < st->per_file * PAGE)
		s->reread = s->reread_ns = 0;
	sums_add(&pr->s, s);
	for (int kind = 0; kind < KINDS; kind++)
		rank(pr, kind, k, p, kind_n(s, kind), kind == K_REREAD ? s->bytes[0] : reqs);
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
	st->batch[st->nbatch++].first_ts = ((const struct pat *)val)->s.first_ts;
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

/* a process pushed out of its table: done now, with its pairs */
static void on_proc_evict(void *key, void *val, void *ud)
{
	fold_pairs(ud, key, val);
	proc_done(ud, *(const uint32_t *)key, val);
}

static void pick_proc(void *key, void *val, void *ud)
{
	struct ap *st = ud;

	st->batch[st->nbatch].k = (struct akey){ .pid = *(const uint32_t *)key };
	st->batch[st->nbatch++].first_ts = ((const struct proc *)val)->time.first_ts;
}

static void pick_prog(void *key, void *val, void *ud)
{
	struct ap *st = ud;

	memcpy(st->pbatch[st->nbatch].name, key, DIO_COMM_LEN);
	st->pbatch[st->nbatch++].first_ts = ((const struct progrow *)val)->first_ts;
}

static int pickedprog_cmp(const void *a, const void *b)
{
	const struct pickedprog *x = a, *y = b;

	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	return memcmp(x->name, y->name, DIO_COMM_LEN);
}

/* process pid is done (it ended or exec'd): to its program, and forgotten */
static void settle(struct ap *st, uint32_t pid)
{
	struct proc *pr = table_get(&st->procs, &pid);

	if (!pr)
		return;
	fold_pairs(st, &pid, pr);
	proc_done(st, pid, pr);
	table_del(&st->procs, &pid);
}

/*
 * The end: every process to its program in the order of its first record,
 * then the programs' findings in the order of their first request
 */
static void settle_all(struct ap *st)
{
	fold_pairs(st, NULL, NULL);
	st->nbatch = 0;
	table_each(&st->procs, pick_proc, st);
	qsort(st->batch, st->nbatch, sizeof(*st->batch), picked_cmp);
	for (size_t i = 0; i < st->nbatch; i++) {
		uint32_t p = st->batch[i].k.pid;

		proc_done(st, p, table_get(&st->procs, &p));
	}
	for (size_t i = 0; i < st->nbatch; i++)
		table_del(&st->procs, &st->batch[i].k.pid);
	st->nbatch = 0;
	table_each(&st->progs, pick_prog, st);
	qsort(st->pbatch, st->nbatch, sizeof(*st->pbatch), pickedprog_cmp);
	for (size_t i = 0; i < st->nbatch; i++)
		judge(st, st->pbatch[i].name, table_get(&st->progs, st->pbatch[i].name));
	for (size_t i = 0; i < st->nbatch; i++)
		table_del(&st->progs, st->pbatch[i].name);
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

/*
 * The price of a request of got bytes in direction dir: what requests of its
 * size (the same power of two) took in order and aligned in this run so far,
 * in proportion to its bytes; 0 when fewer than BASE_MIN of them came yet.
 * What a random or misaligned request took beyond its price is what its
 * pattern cost: through the page cache a random read costs what one in order
 * does, and its price says so; a seek on a disk, or readahead lost, does not.
 */
static int price(const struct ap *st, int dir, uint64_t got, uint64_t *ns)
{
	const struct base *b = &st->base[dir][63 - __builtin_clzll(got)];

	if (b->n < BASE_MIN || !b->bytes)
		return 0;
	*ns = (uint64_t)((unsigned __int128)b->ns * got / b->bytes);
	return 1;
}

static void request(struct ap *st, struct proc *pr, const struct dio_ev_syscall *e, int dir)
{
	struct akey k = { .tag = e->tag, .pid = e->pid };
	uint64_t off = (uint64_t)e->offset, got = (uint64_t)e->ret, end = off + got;
	uint64_t size = e->nr < DIO_NR_MAX && st->vec[e->nr] ? got : e->args[2];
	uint64_t ns;
	uint8_t flags = 0;
	struct fdpos *s;
	struct sums *c;
	struct pat *p;
	int created, found, seq, mis;

	p = table_put(&st->pats, &k, &created);
	if (created) {
		const char *path = st->host->tag_path(st->ctx, &e->tag);

		pr->live++;
		p->s.first_ts = e->hdr.ts;
		p->tid = e->tid;
		/* made when read (the address sanitizer reads /proc/self/maps again and again) */
		p->pseudo = path && (!strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5));
	}
	if (p->pseudo)
		return;
	c = &p->s;
	c->last_ts = e->hdr.ts;
	c->end_ts = e->hdr.ts + e->duration;
	s = fd_slot(p, e->fd, &found);
	/* a new fd continues when it starts at 0 or where the last request on any fd ended */
	seq = found ? off == s->end[dir] : off == 0 || off == p->last_end[dir];
	mis = size >= st->align && (off % st->align || size % st->align);
	s->end[dir] = end;
	p->last_end[dir] = end;
	c->reqs[dir]++;
	c->bytes[dir] += got;
	if (size < st->small_size) {
		c->small[dir]++;
		c->small_ns += e->duration;
		flags |= F_SMALL;
	}
	if (!seq) {
		c->random[dir]++;
		c->random_ns += e->duration;
		flags |= F_RANDOM;
	}
	if (size >= st->align)
		c->large++;
	if (mis) {
		c->misaligned++;
		c->mis_off += !!(off % st->align);
		c->mis_size += !!(size % st->align);
		c->mis_ns += e->duration;
		flags |= F_MISALIGNED;
	}
	if (seq && !mis) {
		struct base *b = &st->base[dir][63 - __builtin_clzll(got)];

		b->n++;
		b->ns += e->duration;
		b->bytes += got;
	} else if (price(st, dir, got, &ns)) {
		int64_t extra = (int64_t)e->duration - (int64_t)ns;

		if (!seq) {
			c->rnd_extra += extra;
			c->rnd_priced++;
		}
		if (mis) {
			c->mis_extra += extra;
			c->mis_priced++;
		}
	}
	if (!dir) {
		uint64_t again = pages_again(st, p, off, end, seq);

		c->reread += again;
		if (again) {
			c->reread_ns += (uint64_t)((unsigned __int128)e->duration * again / got);
			flags |= F_REREAD;
		}
	}
	sample(p, e, flags);
}

/* a process with a record: in its table, its program and its time on storage noted */
static struct proc *proc_note(struct ap *st, const struct dio_ev_syscall *e, enum call_kind kind)
{
	struct proc *pr = table_put(&st->procs, &e->pid, NULL);

	prog_see(&pr->prog, e->pid, e->tid, e->comm);
	prog_time_add(&pr->time, e, kind == CALL_SYNC);
	return pr;
}

static int ap_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ap *st = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	enum call_kind kind;
	struct proc *pr;

	if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *p = (const void *)ev;

		/* an exec ends a program as an exit does; a fork's pid is a new process */
		if ((p->kind == DIO_PROC_EXIT && (p->flags & DIO_PROCF_GROUP_DEAD)) ||
		    p->kind == DIO_PROC_EXEC)
			settle(st, p->pid);
		else if (p->kind == DIO_PROC_FORK && !(p->flags & DIO_PROCF_THREAD))
			settle(st, p->other_pid);
		return 0;
	}
	if (ev->type != DIO_EV_SYSCALL)
		return 0;
	kind = call_kind(&st->kinds, e->nr);
	/* the process first: pushing another out settles that one's pairs, not this one's */
	pr = proc_note(st, e, kind);
	if (!(e->flags & DIO_SF_FILE) || (e->ftype != DIO_FT_REG && e->ftype != DIO_FT_BLK))
		return 0;
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
	request(st, pr, e, kind == CALL_WRITE);
	return 0;
}

static int ap_finish(void *state)
{
	struct ap *st = state;
	const struct table_use u[] = {
		TABLE_USE(&st->pats, "(file, process) pairs", "max_files"),
		TABLE_USE(&st->procs, "processes", "max_procs"),
		TABLE_USE(&st->progs, "programs", "max_programs"),
	};

	settle_all(st);
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
	table_free(&st->progs);
	pool_free(&st->bitmaps);
	free(st->batch);
	free(st->pbatch);
	free(st);
}

static const char *const vectors[] = { "readv", "preadv", "preadv2", "writev", "pwritev",
				       "pwritev2" };

/* the options in their ranges; 0 or -EINVAL after saying which is wrong */
static int check_options(const struct dio_host *host, struct dio_ctx *ctx,
			 const struct dio_optval *o)
{
	for (int i = 0; options[i].name; i++) {
		if (i == O_MIN_SHARE && !(o[i].d >= 0 && o[i].d <= 100)) {
			host->log(ctx, "min_share must be a percent from 0 to 100");
			return -EINVAL;
		}
		if (i == O_MIN_COST_RATE && !(o[i].d >= 0 && o[i].d <= 1000)) {
			host->log(ctx, "min_cost_rate must be from 0 to 1000 (ms a second)");
			return -EINVAL;
		}
		if (i != O_MIN_SHARE && i != O_MIN_COST_RATE && options[i].type == DIO_OPT_DOUBLE &&
		    !(o[i].d > 0 && o[i].d <= 1)) {
			host->log(ctx, "%s must be above 0 and at most 1", options[i].name);
			return -EINVAL;
		}
		if (options[i].type == DIO_OPT_INT && (o[i].i < 1 || o[i].i > ((int64_t)1 << 40))) {
			host->log(ctx, "%s must be from 1 to 2^40", options[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

static int ap_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	struct ap *st = calloc(1, sizeof(*st));
	size_t nbatch;
	int err;

	if (!st)
		return -ENOMEM;
	st->host = host;
	st->ctx = ctx;
	err = check_options(host, ctx, o);
	if (err)
		goto cleanup;
	st->min_requests = (uint64_t)o[O_MIN_REQUESTS].i;
	st->per_file = (uint64_t)o[O_MIN_PER_FILE].i;
	st->small_size = (uint64_t)o[O_SMALL_SIZE].i;
	st->align = (uint64_t)o[O_ALIGN].i;
	st->reread_min = (uint64_t)o[O_REREAD_MIN].i;
	st->cap_pages = ((uint64_t)o[O_REREAD_CAP].i + PAGE - 1) / PAGE;
	st->small_ppm = (uint64_t)(o[O_SMALL_SHARE].d * 1e6 + 0.5);
	st->random_ppm = (uint64_t)(o[O_RANDOM_SHARE].d * 1e6 + 0.5);
	st->mis_ppm = (uint64_t)(o[O_MISALIGNED_SHARE].d * 1e6 + 0.5);
	st->reread_ppm = (uint64_t)(o[O_REREAD_SHARE].d * 1e6 + 0.5);
	st->share_ppm = (uint64_t)(o[O_MIN_SHARE].d * 1e4 + 0.5);
	st->rate_ppm = (uint64_t)(o[O_MIN_COST_RATE].d * 1e3 + 0.5);
	err = table_init(&st->pats, sizeof(struct akey), sizeof(struct pat),
			 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = table_init(&st->procs, sizeof(uint32_t), sizeof(struct proc),
				 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = table_init(&st->progs, DIO_COMM_LEN, sizeof(struct progrow),
				 (size_t)o[O_MAX_PROGRAMS].i);
	if (!err)
		err = pool_init(&st->bitmaps, (size_t)(st->cap_pages + 7) / 8,
				(size_t)o[O_MAX_TRACKED].i);
	if (err)
		goto cleanup;
	/* a batch holds every pair, or every process */
	nbatch = st->pats.max > st->procs.max ? st->pats.max : st->procs.max;
	st->batch = calloc(nbatch, sizeof(*st->batch));
	st->pbatch = calloc(st->progs.max, sizeof(*st->pbatch));
	if (!st->batch || !st->pbatch) {
		err = -ENOMEM;
		goto cleanup;
	}
	st->pats.evict = on_pat_evict;
	st->pats.ud = st;
	st->procs.evict = on_proc_evict;
	st->procs.ud = st;
	st->progs.evict = on_prog_evict;
	st->progs.ud = st;
	call_kinds_init(&st->kinds, host);
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
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
	.description = "small, random, misaligned requests and re-reads, per program, with their "
		       "cost",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = ap_init,
	.event = ap_event,
	.finish = ap_finish,
	.destroy = ap_destroy,
	.rules = rules,
};
