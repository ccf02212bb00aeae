// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * redundant-open: system calls a program could leave out.
 *
 *  churn           a file or directory opened and closed again and again with
 *                  little I/O each time (Redis opened its log for every line; a
 *                  shell runs `cmd >> file` in a loop; a directory opened only
 *                  to fsync it after each file made in it)
 *  create-unlink   a file created, written, synced and deleted again under the
 *                  same path for every transaction (rollback journals, locks)
 *  duplicate-read  a file read from its start to its end several times while it
 *                  did not change (a configuration parsed three times)
 *  sync-reopen     a file opened again while the process holds it open, only to
 *                  fsync it (Elasticsearch's FsHealthService)
 *  seek            an lseek to the offset the description is at already, right
 *                  before a read or write that uses that offset
 *
 * A window is the life of an open file description: from the open that made
 * it to the DIO_EV_OFD record that says its last fd went, with every call
 * through any of its fds, in any thread or forked child. Records without
 * description ids (recordings made before dio knew them) fall back to one
 * window per fd, from its open to its close.
 *
 * Instances are counted per (process, path): a file deleted and made again
 * under its name is one path. A path whose count reaches the floor of a code
 * adds its instances to its process's candidate for that code, and from then
 * on each new one; a candidate is reported once, when its process ends or the
 * trace does, if the calls the fix leaves out are a big enough share of all
 * the calls the process made. So one process gets at most one finding per
 * code, naming the paths with the most instances.
 *
 * State: descriptions by id (or by process and fd), paths by (process, hash of
 * the path), processes by pid, candidates by (process, code), all in tables
 * sized by options at init, and a pool of excerpts lent to the paths most
 * likely to be shown. A process is known by a serial number given when its pid
 * is first seen, so a re-used pid never inherits the state of the one before.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/expool.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

enum {
	O_MIN_SHARE, O_MIN_WINDOWS, O_MAX_BYTES, O_MAX_DATA_CALLS, O_MIN_CYCLES, O_MIN_READS,
	O_MIN_SYNC_REOPENS, O_MIN_SEEKS, O_MAX_PROCS, O_MAX_FILES, O_MAX_FDS, O_MAX_CANDIDATES,
	O_EXCERPTS, O_MIN_COST_RATE, O_MAX_SHARED_PATHS,
};

static const struct dio_option options[] = {
	[O_MIN_SHARE] = { "min_share", DIO_OPT_DOUBLE, "10",
			  "percent of the time on storage of the processes showing a pattern that "
			  "the calls a finding would save must take (churn, create-unlink, "
			  "duplicate-read; seek and sync-reopen are warnings above it, hints "
			  "below)" },
	[O_MIN_WINDOWS] = { "min_windows", DIO_OPT_INT, "5",
			    "small open-to-close windows on one path before it counts as churn" },
	[O_MAX_BYTES] = { "max_bytes", DIO_OPT_INT, "65536",
			  "a window is small when it reads and writes fewer bytes than this" },
	[O_MAX_DATA_CALLS] = { "max_data_calls", DIO_OPT_INT, "8",
			       "... and makes at most this many read and write calls" },
	[O_MIN_CYCLES] = { "min_cycles", DIO_OPT_INT, "5",
			   "files made and deleted under one path before it counts as "
			   "create-unlink" },
	[O_MIN_READS] = { "min_reads", DIO_OPT_INT, "2",
			  "whole reads of one unchanged file before it counts as duplicate-read" },
	[O_MIN_SYNC_REOPENS] = { "min_sync_reopens", DIO_OPT_INT, "1",
				 "opens only to fsync, per path, before they are reported" },
	[O_MIN_SEEKS] = { "min_seeks", DIO_OPT_INT, "10",
			  "lseeks to the offset already held, per path, before they are reported" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "4096", "processes tracked" },
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "2048", "(process, path) pairs tracked" },
	[O_MAX_FDS] = { "max_fds", DIO_OPT_INT, "8192",
			"open file descriptions (fds in older recordings) tracked" },
	[O_MAX_CANDIDATES] = { "max_candidates", DIO_OPT_INT, "1024",
			     "(process, finding) candidates tracked" },
	[O_EXCERPTS] = { "excerpts", DIO_OPT_INT, "256",
			 "evidence excerpts kept for the likeliest findings" },
	[O_MIN_COST_RATE] = { "min_cost_rate", DIO_OPT_DOUBLE, "1",
			      "ms a second of the program's run (from its first record to its "
			      "last) that the calls a finding would save must take, at least" },
	[O_MAX_SHARED_PATHS] = { "max_shared_paths", DIO_OPT_INT, "1024",
				 "(program, path) pairs whose create-unlink cycles are added up over "
				 "the program's processes" },
	{ NULL, 0, NULL, NULL },
};

/* finding codes, in the order findings of the same time are reported */
enum { C_CHURN, C_CYCLE, C_DUP, C_REOPEN, C_SEEK, CODES };

/* the codes, as README.md explains them */
static const struct dio_rule rules[CODES + 2] = {
	[C_CHURN] = {
		"redundant-open.churn", DIO_SEV_WARNING, 0,
		"A file opened and closed again and again, with little I/O each time",
		"A file or directory that one process opened and closed at least min_windows (5) "
		"times, each time reading and writing fewer than max_bytes (65536) bytes in at "
		"most max_data_calls (8) calls, when those opens, closes and the calls around "
		"them take at least min_share (10%) of the time on storage of the program's "
		"processes that show it, and min_cost_rate (1 ms) a second of their run. Files "
		"under /proc, /sys and /dev do not count, nor a directory opened to sync it (the "
		"only way to make a new name in it durable: the sync, not the open, is its cost).",
		"Each open and close pays a path lookup and the calls around it for a few bytes "
		"of I/O: Redis once opened, wrote and closed its log for every line, and a shell "
		"loop whose body runs cmd >> file does it for every command.\n\n"
		"Keep the file open and write through the same fd; gather small writes and write "
		"them at once (a buffer, writev); open it with O_APPEND rather than seeking to "
		"its end before every write. A shell loop can redirect once, after done (done >> "
		"file). A directory opened again and again to look names up in it or list it can "
		"be kept open and used through its fd (openat, fdopendir and rewinddir).",
	},
	[C_CYCLE] = {
		"redundant-open.create-unlink", DIO_SEV_WARNING, 0,
		"A file created, used and deleted again under the same path for every operation",
		"A file that one process created, used (often synced) and deleted again under the "
		"same path at least min_cycles (5) times, when the opens, closes, unlinks and "
		"directory calls of those cycles (the directory's syncs, not the file's) take at "
		"least min_share (10%) of the time on storage of the program's processes that "
		"make them (cycles of one path add up over the program's processes), and "
		"min_cost_rate (1 ms) a second of their run: SQLite's rollback journal in its "
		"default DELETE mode, or a lock or temporary file made per operation.",
		"Every cycle pays a new inode, two directory updates and the journal commits that "
		"make them durable, on top of the syncs its data needs.\n\n"
		"Batch the work of several operations into one transaction; keep the file and "
		"truncate or overwrite it instead of deleting it; or use a write-ahead log. "
		"SQLite: PRAGMA journal_mode=WAL makes no file per transaction (TRUNCATE and "
		"PERSIST keep the journal but still sync its directory for every transaction), "
		"and BEGIN ... COMMIT around many statements makes fewer transactions.",
	},
	[C_DUP] = {
		"redundant-open.duplicate-read", DIO_SEV_WARNING, 0,
		"An unchanged file read whole again",
		"A file that one process read from its start to its end at least min_reads (2) "
		"times while it did not change (the same file, the same size, no write, truncate "
		"or O_TRUNC open by the process in between), when the calls of the reads after "
		"the first take at least min_share (10%) of the time on storage of the "
		"program's processes that show it, and min_cost_rate (1 ms) a second of their "
		"run. Files "
		"under /proc, /sys and /dev do not count.",
		"Each read after the first pays the open, the reads and the parsing again for "
		"content the program had: glibc's NSS reads /etc/group again for each group it "
		"looks up.\n\n"
		"Read it once and keep what was parsed; where it may change, compare its size and "
		"modification time (fstat) with those of the last read before reading it again.",
	},
	[C_REOPEN] = {
		"redundant-open.sync-reopen", DIO_SEV_INFO, 0,
		"A file already open opened again only to fsync it",
		"A file that the process holds open, opened a second time only to sync it (fsync, "
		"fdatasync or sync_file_range, and fstat at most) and closed again, from "
		"min_sync_reopens (1) time per path. Info, or a warning when these opens and "
		"closes take at least min_share (10%) of the time on storage of the "
		"program's processes that show it; none under min_cost_rate (1 ms) a second of "
		"their run.",
		"An fsync through either fd syncs the same file: the second open and close are a "
		"path lookup and two calls for nothing (Elasticsearch's FsHealthService did "
		"this).\n\n"
		"Fsync the fd already open (in Java, FileChannel.force on the channel already "
		"open) instead of opening the path again.",
	},
	[C_SEEK] = {
		"redundant-open.seek", DIO_SEV_INFO, 0,
		"An lseek to the offset the file is at already, before a read or write",
		"An lseek with SEEK_SET or SEEK_END that returns the offset the open file already "
		"had, followed by a read or write that uses it, from min_seeks (10) per path. "
		"Info, or a warning when these lseeks take at least min_share (10%) of the "
		"time on storage of the program's processes that make them; none under "
		"min_cost_rate (1 ms) a second of their run.",
		"The kernel keeps the offset of an open file (0 after the open, o + n after a "
		"write of n bytes at offset o): such an lseek does nothing, and before every read "
		"or write it doubles the calls.\n\n"
		"Leave these lseek calls out, or use pread and pwrite where the offset must be "
		"stated.",
	},
	[CODES] = TABLE_FULL_RULE("redundant-open", "max_procs, max_files, max_fds, max_candidates"),
	[CODES + 1] = { NULL, 0, 0, NULL, NULL, NULL },
};

#define SEQ_MAX		8	/* calls of a window kept for its sequence */
#define SEQS		4	/* sequences counted per path and per candidate */
#define NAMES		4	/* thread names in a finding */
#define TOP		6	/* paths a finding names with their counts */
#define RECENT		8	/* paths a process used last: relative unlinks, pending windows */
#define DYING		8	/* processes that ended, reported after their descriptions */
#define GEN_PEND	3	/* windows of a file that may still be one create-unlink cycle */
#define EXCERPT_LINES	8
#define CYCLE_LINES	12	/* a create-unlink cycle: its file, directory and unlink calls */

/* kernel values (x86_64 and the generic ABI) */
#define SEEK_SET_	0
#define SEEK_END_	2
#define O_TRUNC_	01000
#define O_PATH_		010000000
#define AT_REMOVEDIR_	0x200

/* what this analyzer needs to know of calls beyond their kind (by name, at init) */
#define X_KEEPS_POS	0x01	/* leaves the offset of the description where it is */
#define X_DIRREAD	0x02	/* getdents64: the data call of a directory */
#define X_COUNT2	0x04	/* args[2] is the byte count: a short read ends at the end of file */
#define X_CHANGES	0x08	/* changes the file without a write (fallocate) */
#define X_FLAGS1	0x10	/* open flags in args[1] (open) */
#define X_FLAGS2	0x20	/* open flags in args[2] (openat) */
#define X_CREAT		0x40	/* creat: O_CREAT|O_WRONLY|O_TRUNC */
#define X_UNLINKAT	0x80	/* unlinkat: AT_REMOVEDIR in args[2] */
#define X_XFER		0x100	/* sendfile, copy_file_range, splice: read the file the record names */

static const struct {
	const char *name;
	uint16_t flags;
} xnames[] = {
	{ "dup", X_KEEPS_POS }, { "dup2", X_KEEPS_POS }, { "dup3", X_KEEPS_POS },
	{ "fcntl", X_KEEPS_POS }, { "flock", X_KEEPS_POS }, { "fadvise64", X_KEEPS_POS },
	{ "readahead", X_KEEPS_POS }, { "fstatfs", X_KEEPS_POS }, { "fchown", X_KEEPS_POS },
	{ "fchmod", X_KEEPS_POS }, { "fgetxattr", X_KEEPS_POS }, { "fsetxattr", X_KEEPS_POS },
	{ "flistxattr", X_KEEPS_POS }, { "fremovexattr", X_KEEPS_POS },
	{ "syncfs", X_KEEPS_POS }, { "mmap", X_KEEPS_POS },
	{ "fallocate", X_KEEPS_POS | X_CHANGES }, { "getdents64", X_DIRREAD },
	{ "read", X_COUNT2 }, { "pread64", X_COUNT2 },
	{ "open", X_FLAGS1 }, { "openat", X_FLAGS2 }, { "creat", X_CREAT },
	{ "unlinkat", X_UNLINKAT },
	{ "sendfile", X_XFER }, { "copy_file_range", X_XFER }, { "splice", X_XFER },
};

/* the system calls of a window: the first SEQ_MAX numbers; n = SEQ_MAX + 1 when more */
struct seq {
	uint16_t nr[SEQ_MAX];
	uint16_t n;
};

struct seqcount {
	struct seq seq;
	uint16_t pad;
	uint32_t count;
};

/* instances of a pattern: how many, the calls they made that the fix saves, when, who first */
struct tally {
	uint64_t count;
	uint64_t avoid;
	uint64_t avoid_ns;	/* the time of those calls */
	uint64_t ts_first, ts_last;
	uint32_t tid, pad;
	char comm[DIO_COMM_LEN];
};

/* create-unlink costs, summed over cycles */
enum { CU_OPENS, CU_CLOSES, CU_SYNCS, CU_META, CU_DIR_CALLS, CU_DIR_SYNCS, CU_N };

/* a small window held back while it may be part of a create-unlink cycle */
struct pwin {
	struct tally t;
	uint64_t bytes;
	struct seq seq;
	uint16_t pad[3];
};

/* what one instance (or several) adds to a path and its candidate */
struct inc {
	struct tally t;
	uint64_t bytes;		/* churn: bytes of the windows; duplicate-read: bytes read again */
	uint64_t cu[CU_N];
	const struct seq *seq;	/* churn: the calls of the window(s) */
};

/* ---- descriptions ------------------------------------------------------------- */

/* by description id {0, 0, ofd}, or in older recordings by {process serial, fd, 0} */
struct dkey {
	uint32_t serial;
	int32_t fd;
	uint32_t ofd;
	uint32_t pad;
};

#define D_WINDOW	0x001	/* opened in the trace: an open-to-close window */
#define D_POS		0x002	/* pos is its offset */
#define D_SEEK		0x004	/* the last move was an lseek to the offset it had */
#define D_REOPEN	0x008	/* opened while another description of the process had the file */
#define D_SYNCED	0x010	/* fsync, fdatasync or sync_file_range on it */
#define D_USED		0x020	/* any other use than sync, fstat and close */
#define D_RDSEQ		0x040	/* read only from offset 0 on, each read where the last ended */
#define D_RDEOF		0x080	/* ... up to the end of the file */
#define D_WROTE		0x100	/* wrote, truncated or allocated */
#define D_PSEUDO	0x200	/* /proc, /sys, /dev: what is read is made when it is read */
#define D_OFD		0x400	/* keyed by description id: ends with its DIO_EV_OFD record */

struct desc {
	uint64_t pkey;		/* its path */
	struct dio_file_tag tag;
	uint64_t ts_open;
	uint64_t bytes;		/* read and written */
	int64_t pos;		/* D_POS */
	int64_t rd_next;	/* D_RDSEQ: where the next read must start */
	uint64_t moved_at;	/* older recordings: the path's move count after this fd's last move */
	uint64_t seek_ts;	/* of the pending D_SEEK */
	uint32_t pid, serial;	/* the process that opened it (first used it) */
	uint32_t tid, id;	/* the thread of its last call; id: for excerpts, never 0 */
	uint32_t gen;		/* generation of the path's file when it was opened */
	uint32_t flags;
	uint32_t calls, data_calls, sync_calls, closes;
	uint64_t ns, data_ns, sync_ns;	/* the time of those calls */
	uint64_t seek_ns;		/* of the pending D_SEEK's lseek */
	uint8_t ftype;
	uint8_t pad[7];
	struct seq seq;
	char comm[DIO_COMM_LEN];	/* of that thread then (a new thread names itself late) */
};

/* ---- paths -------------------------------------------------------------------- */

struct pkey {
	uint32_t serial;
	uint32_t pad;
	uint64_t key;		/* hash of the path, or of the tag when the host has no path */
};

/* the excerpt of one code on one path: pool id, the description capturing, whole instance */
struct exs {
	uint32_t ex, cap, done, gen;
};

#define CAP_GEN		UINT32_MAX	/* create-unlink: capturing the calls of generation gen */

#define P_FOLDED(c)	(1u << (c))	/* its instances of code c are in the candidate */
#define P_GEN_ENDED	0x100		/* the process deleted the file of the generation */
#define P_DIR		0x200		/* a directory */

struct path {
	struct dio_file_tag tag;	/* the file at the path: of the latest generation */
	uint32_t pid, flags;
	uint32_t nopen;			/* descriptions of the process on it */
	uint32_t base;			/* hash of its last component */
	uint64_t moves;			/* older recordings: offset moves through any fd on it */
	struct tally tl[CODES];
	struct exs ex[CODES];
	/* churn: every window, and the bytes and call sequences of the small ones */
	uint64_t windows, bytes;
	struct seqcount seqs[SEQS];
	uint32_t seq_approx;		/* a sequence was pushed out: its counts are upper bounds */
	/* small windows of generation pend_gen, held back while they may be one cycle */
	uint32_t pend_gen, npend;
	struct pwin pend[GEN_PEND];
	/* generation: one file at the path, from its first open to its unlink or replacement */
	uint32_t gen, gen_windows, unlinked_gen;
	uint32_t gen_opens, gen_closes, gen_syncs, gen_meta;
	uint64_t gen_ts, gen_dir_calls, gen_dir_syncs;
	uint64_t gen_ns, gen_dir_ns;	/* time of its calls but reads, writes and syncs;
					 * p->dir_ns then */
	uint64_t cu[CU_N];
	/* duplicate-read: the run of whole reads of one unchanged content */
	struct dio_file_tag dr_tag;
	uint64_t dr_size, dr_run, dr_ts, dr_bytes;
	uint32_t dr_changed;		/* written or truncated since the last whole read */
	uint32_t dr_first;		/* the run's first read is pend[dr_first - 1] */
};

/* ---- processes and candidates --------------------------------------------------- */

struct recent {
	uint64_t key;
	uint32_t base, pad;
};

/*
 * The system calls of a process, or added up, of the processes of a program
 * that showed a pattern: what the pattern's cost is a share of
 */
struct prg {
	uint64_t calls, ns;		/* calls and their time */
	uint64_t storage_ns;		/* the time of its calls on files and directories, or paths,
					 * syncs aside */
	uint64_t sync_ns;		/* the time of its syncs */
	uint64_t run_ns;		/* from its first record to the end of its last, its
					 * syncs' time aside */
};

struct proc {
	uint32_t serial, nrecent;
	struct prog prog;		/* the program it runs: findings are a program's */
	uint32_t contrib;		/* 1 << code: it has instances in the program's candidate */
	uint64_t calls;			/* system call records of the process */
	struct prg tot;			/* its calls, for the share of the pattern's cost */
	uint64_t first_ts, last_ts;
	uint64_t dir_calls, dir_syncs;	/* calls on directories but reads, and syncs of them */
	uint64_t dir_ns;		/* their time */
	uint64_t cu_cap;		/* the path whose create-unlink cycle is being captured */
	struct recent recent[RECENT];	/* most recent first */
};

struct ckey {
	uint32_t serial;
	uint32_t code;
};

struct top {
	uint64_t key;
	struct dio_file_tag tag;
	uint64_t count;
};

struct cand {
	char prog[DIO_COMM_LEN];	/* its process's program */
	uint32_t pid, ntop, ncomm, seq_approx;
	uint32_t dirs, pad;	/* paths that are directories */
	uint64_t calls;		/* the process's calls when it was last seen */
	uint64_t paths;		/* paths that reached the floor */
	uint64_t windows, bytes;
	uint64_t cu[CU_N];
	struct tally t;
	struct top top[TOP];
	struct seqcount seqs[SEQS];
	char comm[NAMES][DIO_COMM_LEN];
};

/* ---- programs: what findings are about --------------------------------------------- */


/*
 * The instances of a code in the processes of a program: their candidates
 * added up as each process is done (create-unlink: cycles counted per path
 * across its processes), reported once at the end, so that a hundred
 * processes of a build are one finding.
 */
struct pckey {
	char name[DIO_COMM_LEN];
	uint32_t code;
};

struct pcand {
	struct cand c;		/* the sums; c.pid: the process whose excerpt it keeps */
	struct prg tot;		/* the calls of the processes that showed it, once each is done */
	uint64_t procs;		/* processes that showed the pattern */
	uint64_t lead;		/* instances of that process */
	uint32_t ex;		/* its excerpt, now the program's */
	uint32_t pad;
};

/* create-unlink cycles of one path in the processes of a program */
struct gpkey {
	char name[DIO_COMM_LEN];
	uint64_t key;
};

struct gpath {
	struct tally t;
	uint64_t cu[CU_N];
	struct dio_file_tag tag;
	uint32_t procs, last_serial;	/* processes that made cycles of it; the latest */
	uint32_t first_pid, pad;	/* the first of them */
	uint32_t ex, folded;		/* a whole cycle's excerpt; in the program's candidate */
};

/*
 * Who holds an excerpt of the pool: a path of a process (serial), or once the
 * process is done a program: its candidate for code (key 0) or its cycles on
 * a path (key).
 */
struct owner {
	uint32_t code, serial;
	uint64_t key;
	char name[DIO_COMM_LEN];	/* the program, when serial is 0 */
};

struct ref {
	uint64_t ts;
	uint32_t code;
	const char *name;
	struct pcand *c;
};

struct ro {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	uint16_t xf[DIO_NR_MAX];
	struct table procs, paths, descs, cands;
	struct table pcands, gpaths;	/* what is the programs' */
	struct expool pool;
	uint64_t floor[CODES];
	uint64_t max_bytes, max_data_calls;
	double min_cost_rate;		/* ms a second of the program's run the calls saved take */
	double min_share;
	uint32_t next_serial, next_id;
	struct {
		uint32_t pid, serial;
	} dying[DYING];
	uint32_t ndying;
	int err;		/* first error of emit_finding in a callback */
	struct ref *refs;	/* for finish: every candidate */
	size_t nrefs_max;
};

/* ---- small helpers -------------------------------------------------------------- */

static uint64_t fnv(const void *buf, size_t n)
{
	const uint8_t *p = buf;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ? h : 1;
}

static const char *last_part(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static uint32_t base_hash(const char *path)
{
	const char *b = last_part(path);
	uint64_t h = fnv(b, strlen(b));

	return (uint32_t)(h ^ (h >> 32));
}

static uint16_t xflags(const struct ro *s, uint32_t nr)
{
	return nr < DIO_NR_MAX ? s->xf[nr] : 0;
}

/* the first string argument, when it is whole */
static const char *str0(const struct dio_ev_syscall *e)
{
	return (e->flags & DIO_SF_STR0_TRUNC) ? NULL : dio_ev_syscall_str(e, 0);
}

static void tally_add(struct tally *t, const struct tally *in)
{
	if (!in->count)
		return;
	if (!t->count || in->ts_first < t->ts_first) {
		t->ts_first = in->ts_first;
		t->tid = in->tid;
		memcpy(t->comm, in->comm, sizeof(t->comm));
	}
	if (!t->count || in->ts_last > t->ts_last)
		t->ts_last = in->ts_last;
	t->count += in->count;
	t->avoid += in->avoid;
	t->avoid_ns += in->avoid_ns;
}

static struct tally one(uint64_t count, uint64_t avoid, uint64_t avoid_ns, uint64_t first,
			uint64_t last, uint32_t tid, const char *comm)
{
	struct tally t = { .count = count, .avoid = avoid, .avoid_ns = avoid_ns, .ts_first = first,
			   .ts_last = last, .tid = tid };

	memcpy(t.comm, comm, sizeof(t.comm));
	return t;
}

static void seq_add(struct seq *q, uint16_t nr)
{
	if (q->n < SEQ_MAX)
		q->nr[q->n++] = nr;
	else
		q->n = SEQ_MAX + 1;
}

/* n more windows with the calls q; space-saving when all slots hold other sequences */
static void seq_count(struct seqcount *seqs, uint32_t *approx, const struct seq *q, uint64_t n)
{
	struct seqcount *low = &seqs[0];

	for (int i = 0; i < SEQS; i++) {
		struct seqcount *c = &seqs[i];

		if (c->count && !memcmp(&c->seq, q, sizeof(*q))) {
			c->count += (uint32_t)n;
			return;
		}
		if (c->count < low->count)
			low = c;
	}
	if (low->count)
		*approx = 1;
	low->seq = *q;
	low->count += (uint32_t)n;
}

static const struct seqcount *top_seq(const struct seqcount *seqs)
{
	const struct seqcount *top = &seqs[0];

	for (int i = 1; i < SEQS; i++)
		if (seqs[i].count > top->count)
			top = &seqs[i];
	return top;
}

/* "openat lseek fstat write close", " ..." when the window made more calls */
static const char *seq_text(const struct ro *s, const struct seq *q, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (uint16_t i = 0; i < q->n && i < SEQ_MAX && off < len; i++) {
		int k = snprintf(buf + off, len - off, "%s%s", i ? " " : "",
				 s->host->syscall_name(q->nr[i]));

		if (k > 0)
			off += (size_t)k;
	}
	if (q->n > SEQ_MAX && off < len)
		snprintf(buf + off, len - off, " ...");
	return buf;
}

/* whole numbers without decimals */
static const char *num_text(double v, char *buf, size_t len)
{
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

/* a mean: up to two decimals, none that are 0 ("1.02", "2.5", "1") */
static const char *mean_text(double v, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%.2f", v);

	while (n > 1 && n < len && buf[n - 1] == '0')
		buf[--n] = 0;
	if (n > 1 && n < len && buf[n - 1] == '.')
		buf[--n] = 0;
	return buf;
}

/* ---- excerpts --------------------------------------------------------------- */

static uint32_t lines_of(int code)
{
	return code == C_CYCLE ? CYCLE_LINES : EXCERPT_LINES;
}

static void on_release(const void *owner, void *ud)
{
	const struct owner *o = owner;
	struct ro *s = ud;
	struct pkey k = { o->serial, 0, o->key };
	struct path *f;

	if (!o->serial) {
		/* a program's: its candidate's (key 0) or its cycles' on a path */
		struct gpkey gk;
		struct pckey pk;
		struct gpath *gp;
		struct pcand *pc;

		memset(&gk, 0, sizeof(gk));
		memset(&pk, 0, sizeof(pk));
		memcpy(gk.name, o->name, DIO_COMM_LEN);
		memcpy(pk.name, o->name, DIO_COMM_LEN);
		gk.key = o->key;
		pk.code = o->code;
		if (o->key && (gp = table_get(&s->gpaths, &gk)))
			gp->ex = 0;
		else if (!o->key && (pc = table_get(&s->pcands, &pk)))
			pc->ex = 0;
		return;
	}
	f = table_get(&s->paths, &k);
	if (f)
		memset(&f->ex[o->code], 0, sizeof(f->ex[0]));
}

/*
 * Start putting the calls of d (cap: its id, or CAP_GEN for every description
 * of generation d->gen), from ev on, into the excerpt of code on path f, asking
 * the pool for one (with score: the instances that will be) when f has none.
 * Only one capture at a time, and only until a whole instance is held.
 */
static void capture_start(struct ro *s, const struct pkey *k, struct path *f, int code,
			  struct desc *d, uint32_t cap, uint64_t score, const struct dio_ev_hdr *ev)
{
	struct exs *x = &f->ex[code];
	struct owner o;

	if (x->cap || x->done)
		return;
	memset(&o, 0, sizeof(o));
	o.code = (uint32_t)code;
	o.serial = k->serial;
	o.key = k->key;
	if (!x->ex && expool_worth_asking(score))
		x->ex = expool_take(&s->pool, &o, score);
	if (!x->ex)
		return;
	excerpt_reset(expool_excerpt(&s->pool, x->ex));
	x->cap = cap;
	x->gen = d->gen;
	excerpt_add(expool_excerpt(&s->pool, x->ex), s->host, s->ctx, ev, lines_of(code));
}

static int capturing(const struct exs *x, const struct desc *d)
{
	return x->cap && (x->cap == CAP_GEN ? x->gen == d->gen : x->cap == d->id);
}

static void capture_add(struct ro *s, struct path *f, int code, const struct desc *d,
			const struct dio_ev_hdr *ev)
{
	if (capturing(&f->ex[code], d))
		excerpt_add(expool_excerpt(&s->pool, f->ex[code].ex), s->host, s->ctx, ev,
			    lines_of(code));
}

/* the calls of d for code end: a whole instance (kept for the finding), or not one */
static void capture_end(struct path *f, int code, struct desc *d, int instance)
{
	struct exs *x = &f->ex[code];

	if (!x->cap || x->cap == CAP_GEN || x->cap != d->id)
		return;
	x->cap = 0;
	x->done = instance;
}

/* ---- candidates: the instances of one code in one process ------------------------ */

static struct proc *proc_known(struct ro *s, uint32_t pid, uint32_t serial)
{
	struct proc *p = table_get(&s->procs, &pid);

	return p && p->serial == serial ? p : NULL;
}

static void top_update(struct cand *c, uint64_t key, const struct dio_file_tag *tag,
		       uint64_t count)
{
	uint32_t low = 0;

	for (uint32_t i = 0; i < c->ntop; i++) {
		if (c->top[i].key == key) {
			c->top[i].count = count;
			c->top[i].tag = *tag;
			return;
		}
		if (c->top[i].count < c->top[low].count)
			low = i;
	}
	if (c->ntop < TOP)
		low = c->ntop++;
	else if (c->top[low].count >= count)
		return;
	c->top[low] = (struct top){ key, *tag, count };
}

static void comm_add(struct cand *c, const char *comm)
{
	for (uint32_t i = 0; i < c->ncomm; i++)
		if (!strncmp(c->comm[i], comm, DIO_COMM_LEN))
			return;
	if (c->ncomm < NAMES)
		memcpy(c->comm[c->ncomm++], comm, DIO_COMM_LEN);
}

static void cand_add(struct cand *c, int code, const struct inc *in)
{
	tally_add(&c->t, &in->t);
	c->bytes += in->bytes;
	for (int i = 0; i < CU_N; i++)
		c->cu[i] += in->cu[i];
	if (code == C_CHURN && in->seq)
		seq_count(c->seqs, &c->seq_approx, in->seq, in->t.count);
	comm_add(c, in->t.comm);
}

/*
 * Instances of code on path f: into the path's tally; when the path reaches
 * the floor, all of them into its process's candidate, and each later one.
 */
static void cycle_inst(struct ro *s, const struct pkey *k, struct path *f, const struct inc *in);

static void count_inst(struct ro *s, const struct pkey *k, struct path *f, int code,
		       const struct inc *in)
{
	struct ckey ck = { k->serial, (uint32_t)code };
	struct proc *p;
	struct cand *c;
	int created;

	tally_add(&f->tl[code], &in->t);
	/* a file made and deleted per operation: counted across the program's processes */
	if (code == C_CYCLE) {
		for (int i = 0; i < CU_N; i++)
			f->cu[i] += in->cu[i];
		expool_score(&s->pool, f->ex[code].ex, f->tl[code].count);
		cycle_inst(s, k, f, in);
		return;
	}
	if (code == C_CHURN) {
		f->bytes += in->bytes;
		if (in->seq)
			seq_count(f->seqs, &f->seq_approx, in->seq, in->t.count);
	} else if (code == C_DUP) {
		f->dr_bytes += in->bytes;
	} else if (code == C_CYCLE) {
		for (int i = 0; i < CU_N; i++)
			f->cu[i] += in->cu[i];
	}
	expool_score(&s->pool, f->ex[code].ex, f->tl[code].count);
	if (!(f->flags & P_FOLDED(code)) && f->tl[code].count < s->floor[code])
		return;
	c = table_put(&s->cands, &ck, &created);
	if (created)
		c->pid = f->pid;
	if (!(f->flags & P_FOLDED(code))) {
		struct inc all = { .t = f->tl[code] };

		f->flags |= P_FOLDED(code);
		c->paths++;
		c->dirs += !!(f->flags & P_DIR);
		if (code == C_CHURN) {
			all.bytes = f->bytes;
			c->windows += f->windows;
			for (int i = 0; i < SEQS; i++)
				if (f->seqs[i].count)
					seq_count(c->seqs, &c->seq_approx, &f->seqs[i].seq,
						  f->seqs[i].count);
			c->seq_approx |= f->seq_approx;
		} else if (code == C_DUP) {
			all.bytes = f->dr_bytes;
		} else if (code == C_CYCLE) {
			memcpy(all.cu, f->cu, sizeof(all.cu));
		}
		cand_add(c, code, &all);
	} else {
		cand_add(c, code, in);
	}
	top_update(c, k->key, &f->tag, f->tl[code].count);
	p = proc_known(s, f->pid, k->serial);
	if (p) {
		c->calls = p->calls;
		memcpy(c->prog, p->prog.name, DIO_COMM_LEN);
		p->contrib |= 1u << code;
	}
}

/* ---- programs ------------------------------------------------------------------- */

/*
 * A record of process p: its program, its calls and their time. Its time on
 * storage leaves syncs out: a sync waits for the device to make data durable,
 * and its length tells how busy the disk is, not how much the program did;
 * with it, every other saving drowns (a log reopened and fsynced per line
 * would hide its reopen behind its fsync).
 */
static void prog_note(const struct ro *s, struct proc *p, const struct dio_ev_syscall *e)
{
	prog_see(&p->prog, e->pid, e->tid, e->comm);
	if (!p->tot.calls || e->hdr.ts < p->first_ts)
		p->first_ts = e->hdr.ts;
	if (e->hdr.ts + e->duration > p->last_ts)
		p->last_ts = e->hdr.ts + e->duration;
	p->tot.calls++;
	p->tot.ns += e->duration;
	if (call_kind(&s->kinds, e->nr) == CALL_SYNC) {
		p->tot.sync_ns += e->duration;
		return;
	}
	if (((e->flags & DIO_SF_FILE) && (e->ftype == DIO_FT_REG || e->ftype == DIO_FT_DIR ||
					  e->ftype == DIO_FT_BLK)) ||
	    (!(e->flags & DIO_SF_FILE) && dio_ev_syscall_str(e, 0)))
		p->tot.storage_ns += e->duration;
}

static struct pcand *pcand_of(struct ro *s, const char *name, int code);

/*
 * A process is done (or the trace is): its calls go to the candidates of
 * its program that it has instances in, whose cost is a share of them
 */
static void proc_totals(struct ro *s, struct proc *p)
{
	for (int code = 0; code < CODES; code++) {
		struct pcand *pc;

		if (!(p->contrib & (1u << code)))
			continue;
		pc = pcand_of(s, p->prog.name, code);
		pc->tot.calls += p->tot.calls;
		pc->tot.ns += p->tot.ns;
		pc->tot.storage_ns += p->tot.storage_ns;
		pc->tot.sync_ns += p->tot.sync_ns;
		/* waiting for the disk makes a run long, not its work: syncs aside here too */
		pc->tot.run_ns += p->last_ts - p->first_ts > p->tot.sync_ns ?
				  p->last_ts - p->first_ts - p->tot.sync_ns : 0;
	}
	p->contrib = 0;
}

static struct pcand *pcand_of(struct ro *s, const char *name, int code)
{
	struct pckey k;
	int created;
	struct pcand *pc;

	memset(&k, 0, sizeof(k));
	memcpy(k.name, name, strnlen(name, DIO_COMM_LEN - 1));
	k.code = (uint32_t)code;
	pc = table_put(&s->pcands, &k, &created);
	return pc;
}

/* the program of process serial on path f, or its own name when the process is gone */
static const char *prog_name(struct ro *s, uint32_t serial, const struct path *f,
			     const char *comm)
{
	struct proc *p = proc_known(s, f->pid, serial);

	return p && p->prog.name[0] ? p->prog.name : comm;
}

/* a pool excerpt becomes the program's: owner code, key (0: its candidate) */
static void ex_give(struct ro *s, uint32_t id, int code, uint64_t key, const char *name,
		    uint64_t score)
{
	struct owner o;

	memset(&o, 0, sizeof(o));
	o.code = (uint32_t)code;
	o.key = key;
	memcpy(o.name, name, strnlen(name, DIO_COMM_LEN - 1));
	expool_reown(&s->pool, id, &o, score);
}

/* path key and tag with count more instances in the program's candidate: a new path or not */
static void top_add(struct cand *c, uint64_t key, const struct dio_file_tag *tag, uint64_t count)
{
	for (uint32_t i = 0; i < c->ntop; i++)
		if (c->top[i].key == key) {
			top_update(c, key, tag, c->top[i].count + count);
			return;
		}
	c->paths++;
	top_update(c, key, tag, count);
}

/*
 * A process's candidate, when the process is done, into its program's: the
 * sums, the paths, the thread names, and the excerpt of the process with the
 * most instances (taken from its path before the path is forgotten).
 */
static void cand_fold(struct ro *s, uint32_t serial, int code, struct cand *c)
{
	struct pcand *pc;

	if (!c->ntop)
		return;
	pc = pcand_of(s, c->prog[0] ? c->prog : c->t.comm, code);
	pc->procs++;
	tally_add(&pc->c.t, &c->t);
	memcpy(pc->c.prog, c->prog[0] ? c->prog : c->t.comm, DIO_COMM_LEN);
	pc->c.dirs += c->dirs;
	pc->c.windows += c->windows;
	pc->c.bytes += c->bytes;
	for (int i = 0; i < CU_N; i++)
		pc->c.cu[i] += c->cu[i];
	for (int i = 0; i < SEQS; i++)
		if (c->seqs[i].count)
			seq_count(pc->c.seqs, &pc->c.seq_approx, &c->seqs[i].seq, c->seqs[i].count);
	pc->c.seq_approx |= c->seq_approx;
	for (uint32_t i = 0; i < c->ncomm; i++)
		comm_add(&pc->c, c->comm[i]);
	for (uint32_t i = 0; i < c->ntop; i++)
		top_add(&pc->c, c->top[i].key, &c->top[i].tag, c->top[i].count);
	/* the paths past its top are new to the program too, as far as can be told */
	if (c->paths > c->ntop)
		pc->c.paths += c->paths - c->ntop;
	if (c->t.count <= pc->lead)
		return;
	for (uint32_t i = 0; i < c->ntop; i++) {
		struct pkey k = { serial, 0, c->top[i].key };
		struct path *f = table_get(&s->paths, &k);

		if (!f || !f->ex[code].done)
			continue;
		expool_put(&s->pool, pc->ex);
		pc->ex = f->ex[code].ex;
		ex_give(s, pc->ex, code, 0, pc->c.prog, c->t.count);
		memset(&f->ex[code], 0, sizeof(f->ex[code]));
		pc->lead = c->t.count;
		pc->c.pid = c->pid;
		break;
	}
	if (!pc->c.pid)
		pc->c.pid = c->pid;
}

/*
 * A create-unlink cycle of path f: into the cycles of its path in the
 * program's processes, which reach the floor together (forty processes that
 * each make, sync and delete a journal once are forty cycles).
 */
static void cycle_inst(struct ro *s, const struct pkey *k, struct path *f, const struct inc *in)
{
	const char *name = prog_name(s, k->serial, f, in->t.comm);
	struct proc *p = proc_known(s, f->pid, k->serial);
	struct gpkey gk;
	struct gpath *gp;
	struct pcand *pc;
	int new_proc;

	memset(&gk, 0, sizeof(gk));
	memcpy(gk.name, name, strnlen(name, DIO_COMM_LEN - 1));
	gk.key = k->key;
	gp = table_put(&s->gpaths, &gk, NULL);
	if (!gp->first_pid)
		gp->first_pid = f->pid;
	tally_add(&gp->t, &in->t);
	for (int i = 0; i < CU_N; i++)
		gp->cu[i] += in->cu[i];
	gp->tag = f->tag;
	if (p)
		p->contrib |= 1u << C_CYCLE;
	/* processes make cycles of one path in turn: a new serial is a new process */
	new_proc = gp->last_serial != k->serial;
	if (new_proc) {
		gp->last_serial = k->serial;
		gp->procs++;
	}
	/* a whole cycle captured on the process's path: the program's evidence now */
	if (!gp->ex && f->ex[C_CYCLE].done) {
		gp->ex = f->ex[C_CYCLE].ex;
		ex_give(s, gp->ex, C_CYCLE, k->key, gk.name, gp->t.count);
		memset(&f->ex[C_CYCLE], 0, sizeof(f->ex[C_CYCLE]));
	}
	expool_score(&s->pool, gp->ex, gp->t.count);
	if (!gp->folded && gp->t.count < s->floor[C_CYCLE])
		return;
	pc = pcand_of(s, gk.name, C_CYCLE);
	memcpy(pc->c.prog, gk.name, DIO_COMM_LEN);
	if (!gp->folded) {
		struct inc all = { .t = gp->t };

		gp->folded = 1;
		memcpy(all.cu, gp->cu, sizeof(all.cu));
		pc->c.dirs += !!(f->flags & P_DIR);
		pc->procs += gp->procs;
		cand_add(&pc->c, C_CYCLE, &all);
		top_add(&pc->c, k->key, &f->tag, gp->t.count);
	} else {
		pc->procs += new_proc;
		cand_add(&pc->c, C_CYCLE, in);
		top_update(&pc->c, k->key, &f->tag, gp->t.count);
	}
	if (!pc->c.pid)
		pc->c.pid = gp->first_pid;
	if (!pc->ex && gp->ex) {
		pc->ex = gp->ex;
		gp->ex = 0;
		ex_give(s, pc->ex, C_CYCLE, 0, gk.name, gp->t.count);
	}
}

/* the cycles the program's processes made of path key so far */
static uint64_t prog_cycles(struct ro *s, const char *name, uint64_t key)
{
	struct gpkey gk;
	struct gpath *gp;

	memset(&gk, 0, sizeof(gk));
	memcpy(gk.name, name, strnlen(name, DIO_COMM_LEN - 1));
	gk.key = key;
	gp = table_get(&s->gpaths, &gk);
	return gp ? gp->t.count : 0;
}

/* ---- findings --------------------------------------------------------------- */

/* the calls a fix saves as a share of the program's calls */
static double calls_share(const struct pcand *pc, const struct prg *g)
{
	double sh = g && g->calls ? 100.0 * (double)pc->c.t.avoid / (double)g->calls : 100.0;

	return sh > 100.0 ? 100.0 : sh;
}

/*
 * What the saved calls cost: their time as a share of the time of the
 * program's calls on storage (files, directories, paths). Not of its calls:
 * three more reads of a config file are a tenth of a short git command's
 * calls and 3 % of its time on storage. Not of all its calls' time: a program
 * that waits in its calls (epoll_wait, a read of a socket) would make any
 * waste look small.
 */
static double share_of(const struct pcand *pc, const struct prg *g)
{
	double sh = g && g->storage_ns ? 100.0 * (double)pc->c.t.avoid_ns / (double)g->storage_ns :
		    100.0;

	return sh > 100.0 ? 100.0 : sh;
}

/*
 * Reported when the instances reach the code's floor and what they cost is
 * worth a finding: their time is at least min_cost_rate ms a second of the
 * program's run, and (but seek and sync-reopen, which say how much as their
 * severity) they are at least min_share of its calls.
 */
static int cand_due(const struct ro *s, int code, const struct pcand *pc, const struct prg *g)
{
	uint64_t span = g ? g->run_ns : 0;

	if (pc->c.t.count < s->floor[code] ||
	    (double)pc->c.t.avoid_ns < s->min_cost_rate * 1e-3 * (double)span)
		return 0;
	return code == C_SEEK || code == C_REOPEN || share_of(pc, g) >= s->min_share;
}

static const char *pct_text(double v, char *buf, size_t len)
{
	snprintf(buf, len, v >= 10 || v == 0 ? "%.0f%%" : "%.1f%%", v);
	return buf;
}

static int top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* the paths of c, most instances first; what is said of them */
struct named {
	struct top top[TOP];
	uint32_t n;
	uint64_t other_paths, other_count;
	char first[512];	/* the path with the most */
	char list[1536];	/* "a (3), b (2) and 4 more files (9 times)" */
	char who[600];		/* the first path, or "N files" */
	char comm[COMM_LABEL_LEN];	/* the thread's name, escaped */
	char proc[COMM_LABEL_LEN + 96];	/* "Process 812 (bash)", "40 processes of sqlite3" */
	char cost[256];		/* what the calls a fix saves cost */
	const struct pcand *pc;
	const struct prg *g;
	int below;		/* under the floors of cost: for a --baseline only */
};

/* "1.2 ms", "3.40 s" */
static const char *ns_text(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, ns >= 10000 ? "%.0f us" : "%.1f us", (double)ns / 1e3);
	return buf;
}

static void name_paths(struct ro *s, const struct pcand *pc, const struct prg *g,
		       struct named *nm)
{
	const struct cand *c = &pc->c;
	uint64_t shown = 0, paths = c->paths > c->ntop ? c->paths : c->ntop;
	uint64_t span = g ? g->run_ns : 0;
	char t[32], pct[16], tpct[16], prog[COMM_LABEL_LEN];
	size_t off = 0;

	nm->pc = pc;
	nm->g = g;
	nm->n = c->ntop;
	comm_label(c->t.comm, nm->comm);
	if (pc->procs > 1)
		snprintf(nm->proc, sizeof(nm->proc), "%" PRIu64 " processes of %s (pid %u among "
			 "them)", pc->procs, comm_label(c->prog, prog), c->pid);
	else
		snprintf(nm->proc, sizeof(nm->proc), "Process %u (%s)", c->pid,
			 c->prog[0] ? comm_label(c->prog, prog) : nm->comm);
	snprintf(nm->cost, sizeof(nm->cost), "%" PRIu64 " of the %" PRIu64 " calls %s made (%s), "
		 "%s in all (%s of %s time in calls on storage but syncs), %.2f ms a second of %s "
		 "run outside syncs",
		 c->t.avoid, g ? g->calls : 0, pc->procs > 1 ? "its processes" : "the process",
		 pct_text(calls_share(pc, g), pct, sizeof(pct)), ns_text(c->t.avoid_ns, t, sizeof(t)),
		 pct_text(share_of(pc, g), tpct, sizeof(tpct)), pc->procs > 1 ? "their" : "its",
		 span ? (double)c->t.avoid_ns / 1e6 / ((double)span / 1e9) : 0.0,
		 pc->procs > 1 ? "their" : "its");
	memcpy(nm->top, c->top, sizeof(nm->top));
	qsort(nm->top, nm->n, sizeof(nm->top[0]), top_cmp);
	file_label(s->host, s->ctx, &nm->top[0].tag, nm->first, sizeof(nm->first));
	nm->list[0] = 0;
	for (uint32_t i = 0; i < nm->n && off < sizeof(nm->list); i++) {
		char label[512];
		int k;

		file_label(s->host, s->ctx, &nm->top[i].tag, label, sizeof(label));
		k = snprintf(nm->list + off, sizeof(nm->list) - off, "%s%s (%" PRIu64 ")",
			     i ? ", " : "", label, nm->top[i].count);
		off += k > 0 ? (size_t)k : 0;
		shown += nm->top[i].count;
	}
	nm->other_paths = paths - nm->n;
	nm->other_count = c->t.count > shown ? c->t.count - shown : 0;
	if (nm->other_paths && off < sizeof(nm->list))
		snprintf(nm->list + off, sizeof(nm->list) - off,
			 " and %" PRIu64 " more (%" PRIu64 " times)", nm->other_paths,
			 nm->other_count);
	if (paths > 1)
		snprintf(nm->who, sizeof(nm->who), "%" PRIu64 " files", paths);
	else
		snprintf(nm->who, sizeof(nm->who), "%s", nm->first);
}

/* " and 3 other files" after the first path of a title */
static const char *others_text(const struct named *nm, char *buf, size_t len)
{
	uint64_t others = nm->n - 1 + nm->other_paths;

	buf[0] = 0;
	if (others)
		snprintf(buf, len, " and %" PRIu64 " other file%s", others, others > 1 ? "s" : "");
	return buf;
}

static int emit(struct ro *s, int code, const struct named *nm, uint32_t severity,
		const char *title, const char *msg)
{
	const struct pcand *pc = nm->pc;
	const struct cand *c = &pc->c;
	struct dio_finding fd = { .size = sizeof(fd), .severity = severity };
	int err;

	fd.code = rules[code].code;
	fd.title = title;
	fd.message = msg;
	fd.pid = c->pid;
	fd.tid = c->t.tid;
	/* a program's processes: its name, which is what makes the finding the same next time */
	fd.comm = pc->procs > 1 ? c->prog : c->t.comm;
	/* the path as it is; nm->first is escaped for the text */
	fd.path = s->host->tag_path(s->ctx, &nm->top[0].tag);
	if (!fd.path)
		fd.path = nm->first;
	fd.tag = nm->top[0].tag;
	fd.has_tag = 1;
	fd.ts_first = c->t.ts_first;
	fd.ts_last = c->t.ts_last;
	fd.count = c->t.count;
	fd.cost_ns = c->t.avoid_ns;
	fd.processes = (uint32_t)pc->procs;
	fd.below = (uint32_t)nm->below;
	/* the excerpt of the process with the most instances, kept by the program */
	if (pc->ex)
		fd.excerpt = excerpt_text(expool_excerpt(&s->pool, pc->ex));
	err = s->host->emit_finding(s->ctx, &fd);
	if (err && !s->err)
		s->err = err;
	return err;
}


/* a call of the window's sequence is named name */
static int seq_has(const struct ro *s, const struct seq *q, const char *name)
{
	for (uint16_t i = 0; i < q->n && i < SEQ_MAX; i++)
		if (!strcmp(s->host->syscall_name(q->nr[i]), name))
			return 1;
	return 0;
}

static int report_churn(struct ro *s, struct cand *c, const struct named *nm)
{
	char seq[256], title[1280], msg[4000], rate[32], per[32], span[32], others[64];
	char fix[1024];
	size_t off;
	const struct seqcount *top = top_seq(c->seqs);
	const struct tally *v = &c->t;
	double secs = (double)(v->ts_last - v->ts_first) / 1e9;

	seq_text(s, &top->seq, seq, sizeof(seq));
	num_text((double)(uint64_t)((secs > 0 ? (double)v->count / secs : 1e12) + 0.5), rate,
		 sizeof(rate));
	num_text((double)c->bytes / (double)v->count, per, sizeof(per));
	span_text(v->ts_last - v->ts_first, span, sizeof(span));
	off = (size_t)snprintf(fix, sizeof(fix), "Each window pays a path lookup, an open and a "
			       "close (and the calls around them) for a few bytes of I/O.");
	if (c->paths > c->dirs && off < sizeof(fix))
		off += (size_t)snprintf(fix + off, sizeof(fix) - off,
					" Keep the file open and write through the same fd; gather "
					"what is written and write it at once (a buffer, writev); "
					"open it once with O_APPEND rather than seeking to its end "
					"before every write.");
	if ((seq_has(s, &top->seq, "dup2") || seq_has(s, &top->seq, "dup3") ||
	     seq_has(s, &top->seq, "fcntl")) && off < sizeof(fix))
		off += (size_t)snprintf(fix + off, sizeof(fix) - off,
					" A shell loop whose commands redirect with `>> file` can "
					"redirect the whole loop once instead (`done >> file`).");
	if (c->dirs && off < sizeof(fix))
		snprintf(fix + off, sizeof(fix) - off,
			 " A directory opened again and again to look names up in it or list "
			 "it can be kept open and used through its fd (openat, fdopendir and "
			 "rewinddir).");
	snprintf(title, sizeof(title),
		 "%s%s opened and closed %" PRIu64 " times in %s (%s/s), %s bytes per open: %s",
		 nm->first, others_text(nm, others, sizeof(others)), v->count, span, rate, per,
		 seq);
	snprintf(msg, sizeof(msg),
		 "%s opened %s and closed %s again %" PRIu64 " times with fewer "
		 "than %" PRIu64 " bytes and at most %" PRIu64 " read or write calls in between "
		 "(%" PRIu64 " of its %" PRIu64 " open-close windows on %s, %" PRIu64
		 " bytes in all); %s%" PRIu32 " of them made the calls %s.%s%s\n"
		 "The opens, closes and the calls around them are %s.\n%s",
		 nm->proc, nm->who, c->paths > 1 ? "them" : "it", v->count, s->max_bytes,
		 s->max_data_calls, v->count, c->windows, c->paths > 1 ? "them" : "it", c->bytes,
		 c->seq_approx ? "at most " : "", top->count, seq, c->paths > 1 ? " Files: " : "",
		 c->paths > 1 ? nm->list : "", nm->cost, fix);
	return emit(s, C_CHURN, nm, DIO_SEV_WARNING, title, msg);
}

static int report_cycle(struct ro *s, struct cand *c, const struct named *nm)
{
	static const char *const nouns[CU_N][2] = {
		[CU_OPENS] = { "open", "opens" }, [CU_CLOSES] = { "close", "closes" },
		[CU_SYNCS] = { "fsync or fdatasync", "fsyncs or fdatasyncs" },
		[CU_META] = { "other call", "other calls" },
		[CU_DIR_CALLS] = { "call", "calls" },
		[CU_DIR_SYNCS] = { "directory sync", "directory syncs" },
	};
	char title[1280], msg[4000], span[32], others[64], n[CU_N][32], w[CU_N][64];
	const struct tally *v = &c->t;

	/* per cycle, "1 open", "2.5 opens" */
	for (int i = 0; i < CU_N; i++) {
		mean_text((double)c->cu[i] / (double)v->count, n[i], sizeof(n[i]));
		snprintf(w[i], sizeof(w[i]), "%.31s %s", n[i], nouns[i][c->cu[i] != v->count]);
	}
	span_text(v->ts_last - v->ts_first, span, sizeof(span));
	snprintf(title, sizeof(title),
		 "%s%s created and deleted %" PRIu64 " times in %s; per cycle %s, %s, %s, 1 unlink, "
		 "%s", nm->first, others_text(nm, others, sizeof(others)), v->count, span,
		 w[CU_SYNCS], w[CU_OPENS], w[CU_CLOSES], w[CU_DIR_SYNCS]);
	snprintf(msg, sizeof(msg),
		 "%s made %s, used it and deleted it again %" PRIu64 " times: a new "
		 "file each time under the same path.%s%s Per cycle: %s of the file, %s, %s, "
		 "%s on it (fstat, fchown, lseek, ...), 1 unlink, and %s (%s on directories: "
		 "open, fsync, close). The opens, closes, unlinks and directory calls are %s.\n"
		 "A file made and deleted for every operation pays a path lookup, an inode, two "
		 "directory updates and the journal commits that make them durable, on top of "
		 "its own syncs. Batch the work of several operations into one transaction; keep "
		 "the file and truncate or overwrite it instead of deleting it; or use a "
		 "write-ahead log. SQLite: PRAGMA journal_mode=WAL, which makes no file per "
		 "transaction (TRUNCATE and PERSIST keep the journal but still sync its "
		 "directory for every transaction, and PERSIST opens it again), or larger "
		 "transactions (BEGIN ... COMMIT around many statements).",
		 nm->proc, nm->who, v->count, c->paths > 1 ? " Paths: " : "",
		 c->paths > 1 ? nm->list : "", w[CU_SYNCS], w[CU_OPENS], w[CU_CLOSES],
		 w[CU_META], w[CU_DIR_SYNCS], w[CU_DIR_CALLS], nm->cost);
	return emit(s, C_CYCLE, nm, DIO_SEV_WARNING, title, msg);
}

static int report_dup(struct ro *s, struct cand *c, const struct named *nm)
{
	char title[1280], msg[4000], others[64];
	const struct tally *v = &c->t;

	snprintf(title, sizeof(title),
		 "%s%s read whole %" PRIu64 " times while unchanged, %" PRIu64 " bytes read again",
		 nm->first, others_text(nm, others, sizeof(others)), v->count, c->bytes);
	snprintf(msg, sizeof(msg),
		 "%s opened %s and read %s from start to end %" PRIu64 " times while "
		 "%s did not change (the same file, the same size, no write or truncate seen in "
		 "between).%s%s The reads after the first read %" PRIu64 " bytes again; their "
		 "opens, reads, closes and the calls around them are %s.\n"
		 "Read it once and keep what was parsed; where it may change, compare its size "
		 "and modification time (fstat) with those of the last read before reading it "
		 "again.",
		 nm->proc, nm->who, c->paths > 1 ? "each" : "it", v->count,
		 c->paths > 1 ? "they" : "it", c->paths > 1 ? " Files: " : "",
		 c->paths > 1 ? nm->list : "", c->bytes, nm->cost);
	return emit(s, C_DUP, nm, DIO_SEV_WARNING, title, msg);
}

static int report_reopen(struct ro *s, struct cand *c, const struct named *nm)
{
	char title[1280], msg[4000], threads[128];
	size_t off = 0;

	threads[0] = 0;
	for (uint32_t i = 0; i < c->ncomm && off < sizeof(threads); i++) {
		char comm[COMM_LABEL_LEN];
		int k = snprintf(threads + off, sizeof(threads) - off, "%s%s", i ? ", " : "",
				 comm_label(c->comm[i], comm));

		off += k > 0 ? (size_t)k : 0;
	}
	snprintf(title, sizeof(title),
		 "%" PRIu64 " times a file already open was opened again only to fsync it: %s%s",
		 c->t.count, nm->first, c->paths > 1 ? ", ..." : "");
	snprintf(msg, sizeof(msg),
		 "%s opened %s again while it held an fd to it, used the new fd only "
		 "to sync it (fsync, fdatasync, sync_file_range; fstat at most) and closed it, "
		 "%" PRIu64 " times, in threads: %s.%s%s Each time costs a path lookup, an open "
		 "and a close on top of the sync, which the fd already open would have done "
		 "alike: fsync the existing fd (FileChannel.force on the channel already open) "
		 "instead of reopening the path. These opens and closes are %s.",
		 nm->proc, c->paths > 1 ? nm->who : nm->first, c->t.count, threads,
		 c->paths > 1 ? " Files: " : "", c->paths > 1 ? nm->list : "", nm->cost);
	return emit(s, C_REOPEN, nm,
		    share_of(nm->pc, nm->g) >= s->min_share ? DIO_SEV_WARNING : DIO_SEV_INFO, title, msg);
}

static int report_seek(struct ro *s, struct cand *c, const struct named *nm)
{
	char title[1280], msg[4000], others[64];

	snprintf(title, sizeof(title),
		 "%" PRIu64 " lseek calls set the offset the fd already had, before a read or "
		 "write: %s%s", c->t.count, nm->first, others_text(nm, others, sizeof(others)));
	snprintf(msg, sizeof(msg),
		 "%s called lseek on %s %" PRIu64 " times to move to the offset its "
		 "fd was at already, and then read or wrote there.%s%s These lseeks are %s. The "
		 "kernel keeps the offset of an open file: leave these lseek calls out, or use "
		 "pread/pwrite where the offset must be stated.",
		 nm->proc, nm->who, c->t.count, c->paths > 1 ? " Files: " : "",
		 c->paths > 1 ? nm->list : "", nm->cost);
	return emit(s, C_SEEK, nm,
		    share_of(nm->pc, nm->g) >= s->min_share ? DIO_SEV_WARNING : DIO_SEV_INFO, title, msg);
}

static int (*const reporters[CODES])(struct ro *, struct cand *, const struct named *) = {
	[C_CHURN] = report_churn, [C_CYCLE] = report_cycle, [C_DUP] = report_dup,
	[C_REOPEN] = report_reopen, [C_SEEK] = report_seek,
};

/*
 * A program's candidate for code, when it is due; one at its floor of
 * instances but under the floors of cost goes to the host marked below, so
 * that a --baseline that had it knows it is still there
 */
static void report(struct ro *s, const char *name, int code, struct pcand *pc)
{
	const struct prg *g = &pc->tot;
	struct named nm;
	int due;

	(void)name;
	if (!pc->c.ntop || pc->c.t.count < s->floor[code])
		return;
	due = cand_due(s, code, pc, g);
	name_paths(s, pc, g, &nm);
	nm.below = !due;
	reporters[code](s, &pc->c, &nm);
}

/* by time, then code, program and pid: the order does not depend on the tables' layout */
static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	c = strncmp(x->name, y->name, DIO_COMM_LEN);
	if (c)
		return c;
	return x->c->c.pid < y->c->c.pid ? -1 : x->c->c.pid > y->c->c.pid;
}

/* ---- pending churn windows -------------------------------------------------------- */

/* the held-back small windows of f are churn after all */
static void pend_commit(struct ro *s, const struct pkey *k, struct path *f)
{
	struct pwin w[GEN_PEND];
	uint32_t n = f->npend;

	memcpy(w, f->pend, sizeof(w));
	f->npend = 0;
	f->dr_first = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct inc in = { .t = w[i].t, .bytes = w[i].bytes, .seq = &w[i].seq };

		count_inst(s, k, f, C_CHURN, &in);
	}
}

/* ... or they were the windows of a file the process then deleted: one cycle */
static void pend_discard(struct path *f)
{
	struct exs *x = &f->ex[C_CHURN];

	if (x->done && x->gen == f->pend_gen)
		x->done = 0;
	f->npend = 0;
	f->dr_first = 0;
}

static void pend_commit_key(struct ro *s, uint32_t serial, uint64_t key)
{
	struct pkey k = { serial, 0, key };
	struct path *f = table_get(&s->paths, &k);

	if (f)
		pend_commit(s, &k, f);
}

/* f was used now: first in the process's recent paths; the one pushed out is decided */
static void recent_touch(struct ro *s, struct proc *p, uint64_t key, uint32_t base)
{
	struct recent r = { key, base, 0 };
	uint32_t i;

	for (i = 0; i < p->nrecent && p->recent[i].key != key; i++)
		;
	if (i == p->nrecent) {
		if (p->nrecent == RECENT) {
			pend_commit_key(s, p->serial, p->recent[RECENT - 1].key);
			i = RECENT - 1;
		} else {
			i = p->nrecent++;
		}
	}
	memmove(&p->recent[1], &p->recent[0], i * sizeof(p->recent[0]));
	p->recent[0] = r;
}

/* ---- process ends ----------------------------------------------------------------- */

/* a path of a program that ended: its excerpts go back to the pool for the living */
static void path_forget(struct ro *s, uint32_t serial, uint64_t key)
{
	struct pkey k = { serial, 0, key };
	struct path *f = table_get(&s->paths, &k);

	if (!f)
		return;
	for (int code = 0; code < CODES; code++)
		expool_put(&s->pool, f->ex[code].ex);
	table_del(&s->paths, &k);
}

/*
 * The candidates of a process that ended: added to its program's, and
 * forgotten with the paths they named and the ones it used last (the others
 * age out of their table).
 */
static void proc_flush(struct ro *s, uint32_t pid, struct proc *p)
{
	struct recent recent[RECENT];
	uint32_t serial = p->serial, n = p->nrecent;
	uint64_t named[CODES * TOP];
	uint32_t nnamed = 0;

	memcpy(recent, p->recent, sizeof(recent));
	for (uint32_t i = 0; i < n; i++)
		pend_commit_key(s, serial, recent[i].key);
	p = proc_known(s, pid, serial);
	for (int code = 0; code < CODES; code++) {
		struct ckey ck = { serial, (uint32_t)code };
		struct cand *c = table_get(&s->cands, &ck);

		if (!c)
			continue;
		cand_fold(s, serial, code, c);
		for (uint32_t t = 0; t < c->ntop; t++)
			named[nnamed++] = c->top[t].key;
	}
	if (p)
		proc_totals(s, p);
	for (int code = 0; code < CODES; code++) {
		struct ckey ck = { serial, (uint32_t)code };

		table_del(&s->cands, &ck);
	}
	for (uint32_t i = 0; i < nnamed; i++)
		path_forget(s, serial, named[i]);
	for (uint32_t i = 0; i < n; i++)
		path_forget(s, serial, recent[i].key);
}

static void proc_evicted(void *key, void *val, void *ud)
{
	proc_flush(ud, *(uint32_t *)key, val);
}

static void cand_evicted(void *key, void *val, void *ud)
{
	struct ckey *ck = key;

	cand_fold(ud, ck->serial, (int)ck->code, val);
}

/* a program's candidate pushed out: reported now, with what it has */
static void pcand_evicted(void *key, void *val, void *ud)
{
	struct ro *s = ud;
	struct pckey *k = key;
	struct pcand *pc = val;

	report(s, k->name, (int)k->code, pc);
	expool_put(&s->pool, pc->ex);
}

static void gpath_evicted(void *key, void *val, void *ud)
{
	struct ro *s = ud;
	struct gpath *gp = val;

	(void)key;
	expool_put(&s->pool, gp->ex);
}

static void path_evicted(void *key, void *val, void *ud)
{
	struct ro *s = ud;
	struct path *f = val;

	pend_commit(s, key, f);
	for (int code = 0; code < CODES; code++)
		expool_put(&s->pool, f->ex[code].ex);
}

/* a description is forgotten without its end: its path loses it, its captures end */
static void desc_forget(struct ro *s, struct desc *d)
{
	struct pkey k = { d->serial, 0, d->pkey };
	struct path *f = table_get(&s->paths, &k);

	if (!f)
		return;
	f->nopen -= f->nopen > 0;
	for (int code = 0; code < CODES; code++)
		capture_end(f, code, d, 0);
}

static void desc_evicted(void *key, void *val, void *ud)
{
	(void)key;
	desc_forget(ud, val);
}

/* ---- init ------------------------------------------------------------------- */

static void ro_destroy(void *state)
{
	struct ro *s = state;

	if (!s)
		return;
	table_free(&s->procs);
	table_free(&s->paths);
	table_free(&s->descs);
	table_free(&s->cands);
	table_free(&s->pcands);
	table_free(&s->gpaths);
	expool_free(&s->pool);
	free(s->refs);
	free(s);
}

static int ro_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **state)
{
	static const int positive[] = { O_MIN_WINDOWS, O_MAX_BYTES, O_MIN_CYCLES, O_MIN_READS,
					O_MIN_SYNC_REOPENS, O_MIN_SEEKS, O_MAX_PROCS,
					O_MAX_FILES, O_MAX_FDS, O_MAX_CANDIDATES,
					O_MAX_SHARED_PATHS };
	struct ro *s = calloc(1, sizeof(*s));
	int err = -EINVAL;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	for (size_t i = 0; i < sizeof(positive) / sizeof(positive[0]); i++) {
		if (o[positive[i]].i < 1 || o[positive[i]].i > (1 << 30)) {
			host->log(ctx, "%s must be from 1 to %d", options[positive[i]].name,
				  1 << 30);
			goto cleanup;
		}
	}
	if (o[O_MAX_DATA_CALLS].i < 0 || o[O_EXCERPTS].i < 0 || o[O_EXCERPTS].i > 65536 ||
	    !(o[O_MIN_SHARE].d >= 0 && o[O_MIN_SHARE].d <= 100) ||
	    !(o[O_MIN_COST_RATE].d >= 0 && o[O_MIN_COST_RATE].d <= 1000)) {
		host->log(ctx, "max_data_calls must be at least 0, min_share from 0 to 100, "
			  "excerpts from 0 to 65536, min_cost_rate from 0 to 1000");
		goto cleanup;
	}
	s->min_share = o[O_MIN_SHARE].d;
	s->floor[C_CHURN] = (uint64_t)o[O_MIN_WINDOWS].i;
	s->floor[C_CYCLE] = (uint64_t)o[O_MIN_CYCLES].i;
	s->floor[C_DUP] = (uint64_t)o[O_MIN_READS].i;
	s->floor[C_REOPEN] = (uint64_t)o[O_MIN_SYNC_REOPENS].i;
	s->floor[C_SEEK] = (uint64_t)o[O_MIN_SEEKS].i;
	s->max_bytes = (uint64_t)o[O_MAX_BYTES].i;
	s->max_data_calls = (uint64_t)o[O_MAX_DATA_CALLS].i;
	s->min_cost_rate = o[O_MIN_COST_RATE].d;
	call_kinds_init(&s->kinds, host);
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const char *n = host->syscall_name(nr);

		for (size_t i = 0; n && i < sizeof(xnames) / sizeof(xnames[0]); i++)
			if (!strcmp(n, xnames[i].name))
				s->xf[nr] = xnames[i].flags;
	}
	err = table_init(&s->procs, sizeof(uint32_t), sizeof(struct proc),
			 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = table_init(&s->paths, sizeof(struct pkey), sizeof(struct path),
				 (size_t)o[O_MAX_FILES].i);
	if (!err)
		err = table_init(&s->descs, sizeof(struct dkey), sizeof(struct desc),
				 (size_t)o[O_MAX_FDS].i);
	if (!err)
		err = table_init(&s->cands, sizeof(struct ckey), sizeof(struct cand),
				 (size_t)o[O_MAX_CANDIDATES].i);
	if (!err)
		err = table_init(&s->pcands, sizeof(struct pckey), sizeof(struct pcand),
				 (size_t)o[O_MAX_CANDIDATES].i);
	if (!err)
		err = table_init(&s->gpaths, sizeof(struct gpkey), sizeof(struct gpath),
				 (size_t)o[O_MAX_SHARED_PATHS].i);
	if (!err)
		err = expool_init(&s->pool, (uint32_t)o[O_EXCERPTS].i, sizeof(struct owner));
	if (err)
		goto cleanup;
	s->procs.evict = proc_evicted;
	s->paths.evict = path_evicted;
	s->descs.evict = desc_evicted;
	s->cands.evict = cand_evicted;
	s->pcands.evict = pcand_evicted;
	s->gpaths.evict = gpath_evicted;
	s->procs.ud = s->paths.ud = s->descs.ud = s->cands.ud = s->pool.ud = s;
	s->pcands.ud = s->gpaths.ud = s;
	s->pool.release = on_release;
	s->nrefs_max = (size_t)o[O_MAX_CANDIDATES].i;
	s->refs = calloc(s->nrefs_max, sizeof(*s->refs));
	if (!s->refs) {
		err = -ENOMEM;
		goto cleanup;
	}
	*state = s;
	return 0;
cleanup:
	ro_destroy(s);
	return err;
}

/* ---- descriptions: made, used, ended ---------------------------------------------- */

static struct proc *proc_of(struct ro *s, uint32_t pid)
{
	int created;
	struct proc *p = table_put(&s->procs, &pid, &created);

	if (created)
		p->serial = ++s->next_serial;
	return p;
}

static struct dkey dkey_of(const struct dio_ev_syscall *e, int32_t fd, uint32_t serial)
{
	struct dkey k = { 0, 0, e->ofd, 0 };

	if (!e->ofd) {
		k.serial = serial;
		k.fd = fd;
	}
	return k;
}

/* the path entry of k, made from what d knows when it was pushed out */
static struct path *path_of(struct ro *s, const struct pkey *k, uint32_t pid,
			    const struct dio_file_tag *tag)
{
	int created;
	struct path *f = table_put(&s->paths, k, &created);

	if (created) {
		const char *name = s->host->tag_path(s->ctx, tag);

		f->pid = pid;
		f->tag = *tag;
		f->base = name ? base_hash(name) : 0;
	}
	return f;
}

/* a description dio saw made (opened) or first used; NULL when it is no file we follow */
static struct desc *desc_new(struct ro *s, struct proc *p, const struct dkey *dk,
			     const struct dio_ev_syscall *e, int opened)
{
	const char *name = s->host->tag_path(s->ctx, &e->tag);
	struct pkey k = { p->serial, 0, name ? fnv(name, strlen(name)) : fnv(&e->tag,
									      sizeof(e->tag)) };
	uint16_t xf = xflags(s, e->nr);
	struct desc *d = table_put(&s->descs, dk, NULL);
	struct path *f;
	int reopen;

	memset(d, 0, sizeof(*d));
	d->pkey = k.key;
	d->tag = e->tag;
	d->ftype = e->ftype;
	d->pid = e->pid;
	d->serial = p->serial;
	d->tid = e->tid;
	d->id = ++s->next_id ? s->next_id : ++s->next_id;
	memcpy(d->comm, e->comm, sizeof(d->comm));
	d->flags = e->ofd ? D_OFD : 0;
	if (name && (!strncmp(name, "/proc/", 6) || !strncmp(name, "/sys/", 5) ||
		     !strncmp(name, "/dev/", 5)))
		d->flags |= D_PSEUDO;
	f = path_of(s, &k, e->pid, &e->tag);
	if (e->ftype == DIO_FT_DIR)
		f->flags |= P_DIR;
	reopen = f->nopen > 0 && dio_file_tag_eq(&f->tag, &e->tag);
	f->nopen++;
	if (!opened) {
		d->gen = f->gen;
		return d;
	}
	d->flags |= D_WINDOW | D_POS | D_RDSEQ | (reopen ? D_REOPEN : 0);
	d->ts_open = e->hdr.ts;
	d->calls = 1;
	d->ns = e->duration;
	seq_add(&d->seq, e->nr);
	if (((xf & X_FLAGS1) && (e->args[1] & O_TRUNC_)) ||
	    ((xf & X_FLAGS2) && (e->args[2] & O_TRUNC_)) || (xf & X_CREAT)) {
		d->flags |= D_WROTE;
		f->dr_changed = 1;
	}
	/* a new file at the path (or the first seen): a new generation */
	if (!f->gen || (f->flags & P_GEN_ENDED) || !dio_file_tag_eq(&f->tag, &e->tag)) {
		struct exs *x = &f->ex[C_CYCLE];

		pend_commit(s, &k, f);
		f->gen = f->gen + 1 ? f->gen + 1 : 1;
		f->flags &= ~P_GEN_ENDED;
		f->tag = e->tag;
		f->gen_windows = f->gen_opens = f->gen_closes = f->gen_syncs = f->gen_meta = 0;
		f->gen_ts = e->hdr.ts;
		f->gen_dir_calls = p->dir_calls;
		f->gen_dir_syncs = p->dir_syncs;
		f->gen_ns = 0;
		f->gen_dir_ns = p->dir_ns;
		if (x->cap == CAP_GEN)
			x->cap = 0;	/* replaced, not deleted: no whole cycle */
		d->gen = f->gen;
		/* the program made cycles of it before, maybe in other processes */
		if (f->tl[C_CYCLE].count || prog_cycles(s, p->prog.name, k.key)) {
			capture_start(s, &k, f, C_CYCLE, d, CAP_GEN, f->tl[C_CYCLE].count + 1,
				      &e->hdr);
			if (x->cap == CAP_GEN)
				p->cu_cap = k.key;
		}
	} else {
		d->gen = f->gen;
		capture_add(s, f, C_CYCLE, d, &e->hdr);	/* another open of the cycle's file */
	}
	f->gen_windows++;
	f->gen_opens++;
	if (f->gen_windows == GEN_PEND + 1)
		pend_commit(s, &k, f);	/* too many windows for one cycle: churn */
	recent_touch(s, p, k.key, f->base);
	/* the window after one small window, or one whole read, is the likely excerpt */
	if (f->tl[C_CHURN].count + f->npend)
		capture_start(s, &k, f, C_CHURN, d, d->id, f->tl[C_CHURN].count + f->npend,
			      &e->hdr);
	if (f->dr_run && dio_file_tag_eq(&f->dr_tag, &e->tag) && !f->dr_changed)
		capture_start(s, &k, f, C_DUP, d, d->id, f->tl[C_DUP].count + 2, &e->hdr);
	if (reopen)
		capture_start(s, &k, f, C_REOPEN, d, d->id, f->tl[C_REOPEN].count + 1, &e->hdr);
	return d;
}

/* the pending seek of d was not followed by a read or write */
static void seek_dropped(struct path *f, struct desc *d)
{
	if (d->flags & D_SEEK)
		capture_end(f, C_SEEK, d, 0);
	d->flags &= ~D_SEEK;
}

static void moved(struct path *f, struct desc *d, int known, int64_t pos)
{
	d->flags = known ? d->flags | D_POS : d->flags & ~D_POS;
	d->pos = pos;
	/* fds of older recordings may be dups: a move through one makes the others unknown */
	if (!(d->flags & D_OFD))
		d->moved_at = ++f->moves;
}

/* a read that may make d a whole read: from offset 0 on, without gaps, to the end */
static void read_track(struct desc *d, const struct dio_ev_syscall *e, uint16_t xf, int failed)
{
	if (!(d->flags & D_RDSEQ) || (d->flags & D_RDEOF))
		return;
	if (failed || !(e->flags & DIO_SF_OFFSET) || e->offset != d->rd_next) {
		d->flags &= ~D_RDSEQ;
		return;
	}
	d->rd_next += e->ret;
	if (!e->ret || ((xf & X_COUNT2) && (uint64_t)e->ret < e->args[2]))
		d->flags |= D_RDEOF;
}

static void on_data(struct ro *s, struct proc *p, const struct pkey *k, struct path *f,
		    struct desc *d, const struct dio_ev_syscall *e, enum call_kind kind, uint16_t xf)
{
	int failed = dio_ret_failed(e->ret);

	d->flags |= D_USED;
	d->data_calls++;
	d->data_ns += e->duration;
	if (!failed && e->ret > 0)
		d->bytes += (uint64_t)e->ret;
	if (kind == CALL_WRITE) {
		d->flags |= D_WROTE;
		f->dr_changed = 1;
	} else {
		read_track(d, e, xf, failed);
	}
	if (xf & X_XFER) {	/* may move the offset of either end */
		seek_dropped(f, d);
		moved(f, d, 0, 0);
		return;
	}
	/* pread and pwrite leave the offset; preadv2 and pwritev2 at offset -1 use it */
	if (e->nr < DIO_NR_MAX && (s->kinds.flags[e->nr] & CALL_POSITIONAL) &&
	    e->args[3] != UINT64_MAX)
		return;
	if (failed)
		seek_dropped(f, d);
	if (d->flags & D_SEEK) {
		struct inc in = { .t = one(1, 1, d->seek_ns, d->seek_ts, e->hdr.ts, e->tid,
					   e->comm) };

		capture_end(f, C_SEEK, d, 1);	/* on_call added this call */
		d->flags &= ~D_SEEK;
		if (p->serial == k->serial) {
			count_inst(s, k, f, C_SEEK, &in);
		} else {
			/* the lseek is the caller's, a child on a description its parent opened */
			struct pkey ck = { p->serial, 0, k->key };

			count_inst(s, &ck, path_of(s, &ck, e->pid, &d->tag), C_SEEK, &in);
			f = table_get(&s->paths, k);	/* the put may have moved it */
			if (!f)
				return;
		}
	}
	/* in unsigned arithmetic: a crafted offset and return wrap rather than overflow */
	moved(f, d, !failed && (e->flags & DIO_SF_OFFSET),
	      (int64_t)((uint64_t)e->offset + (uint64_t)(failed ? 0 : e->ret)));
}

static void on_seek(struct ro *s, const struct pkey *k, struct path *f, struct desc *d,
		    const struct dio_ev_syscall *e)
{
	uint64_t whence = e->args[2];

	d->flags |= D_USED;
	seek_dropped(f, d);
	if (dio_ret_failed(e->ret) || !(e->flags & DIO_SF_OFFSET)) {
		moved(f, d, 0, 0);
		return;
	}
	/* SEEK_CUR and SEEK_DATA/SEEK_HOLE ask where the offset is; they set nothing */
	if ((whence == SEEK_SET_ || whence == SEEK_END_) && (d->flags & D_POS) &&
	    ((d->flags & D_OFD) || d->moved_at == f->moves) && d->pos == e->ret &&
	    d->ftype == DIO_FT_REG) {
		d->flags |= D_SEEK;
		d->seek_ts = e->hdr.ts;
		d->seek_ns = e->duration;
		capture_start(s, k, f, C_SEEK, d, d->id, f->tl[C_SEEK].count + 1, &e->hdr);
	}
	moved(f, d, 1, e->ret);
}

/* the life of a window ends: what was it? */
static void win_end(struct ro *s, struct desc *d, uint64_t ts, uint16_t end_nr, int real)
{
	struct pkey k = { d->serial, 0, d->pkey };
	struct path *f = table_get(&s->paths, &k);
	uint32_t calls = d->calls + (end_nr ? 1 : 0), avoid;
	uint64_t avoid_ns = d->ns - d->data_ns - d->sync_ns;
	struct proc *p;
	int small, dup = 0;

	if (!f)
		return;
	f->nopen -= f->nopen > 0;
	seek_dropped(f, d);
	p = proc_known(s, d->pid, d->serial);
	if (!p || !(d->flags & D_WINDOW) || !real) {
		for (int code = 0; code < CODES; code++)
			capture_end(f, code, d, 0);
		return;
	}
	if (end_nr)
		seq_add(&d->seq, end_nr);
	avoid = calls - d->data_calls - d->sync_calls;
	small = d->bytes < s->max_bytes && d->data_calls <= s->max_data_calls;
	f->windows++;
	if (f->flags & P_FOLDED(C_CHURN)) {
		struct ckey ck = { k.serial, C_CHURN };
		struct cand *c = table_get(&s->cands, &ck);

		if (c)
			c->windows++;
	}
	if (d->gen == f->gen && !(f->flags & P_GEN_ENDED)) {
		uint32_t closes = d->closes + (end_nr ? 1 : 0);

		f->gen_closes += closes;
		f->gen_syncs += d->sync_calls;
		f->gen_ns += d->ns - d->data_ns - d->sync_ns;
		f->gen_meta += avoid - 1 - closes;
	}
	recent_touch(s, p, k.key, f->base);

	/* sync-reopen: a second description used for nothing but a sync */
	if ((d->flags & (D_REOPEN | D_SYNCED | D_USED)) == (D_REOPEN | D_SYNCED)) {
		struct inc in = { .t = one(1, calls - d->sync_calls, d->ns - d->sync_ns, d->ts_open,
					   ts, d->tid,
					   d->comm) };

		capture_end(f, C_REOPEN, d, 1);
		count_inst(s, &k, f, C_REOPEN, &in);
	} else {
		capture_end(f, C_REOPEN, d, 0);
	}

	/* duplicate-read: the same content read whole again */
	if (d->ftype == DIO_FT_REG && (d->flags & D_RDSEQ) &&
	    !(d->flags & (D_WROTE | D_PSEUDO)) &&
	    ((d->flags & D_RDEOF) || (f->dr_run && dio_file_tag_eq(&f->dr_tag, &d->tag) &&
				      d->rd_next > 0 && (uint64_t)d->rd_next == f->dr_size))) {
		uint64_t size = (uint64_t)d->rd_next;

		if (f->dr_run && dio_file_tag_eq(&f->dr_tag, &d->tag) && f->dr_size == size &&
		    !f->dr_changed) {
			struct inc in = { .t = one(f->dr_run == 1 ? 2 : 1, calls, d->ns,
						   f->dr_run == 1 ? f->dr_ts : d->ts_open, ts,
						   d->tid, d->comm), .bytes = size };

			dup = 1;
			if (f->dr_run == 1 && f->dr_first && f->dr_first <= f->npend) {
				/* the run's first read was held back as churn: it is this run's */
				uint32_t i = f->dr_first - 1;

				memmove(&f->pend[i], &f->pend[i + 1],
					(f->npend - i - 1) * sizeof(f->pend[0]));
				f->npend--;
			}
			f->dr_first = 0;
			f->dr_run++;
			capture_end(f, C_DUP, d, 1);
			count_inst(s, &k, f, C_DUP, &in);
		} else {
			f->dr_tag = d->tag;
			f->dr_size = size;
			f->dr_run = 1;
			f->dr_changed = 0;
			f->dr_ts = d->ts_open;
			f->dr_first = 0;
		}
	}
	if (!dup)
		capture_end(f, C_DUP, d, 0);

	/*
	 * churn: a small window not read whole again, not of a file the process
	 * deleted, and of storage: /proc and /sys files and character devices are
	 * made when read (the sanitizers' runtime reads /proc/self/maps again and
	 * again), /dev/null is no disk. Nor a directory opened to sync it: opening
	 * it is the only way to make a new name in it durable, and the sync, not
	 * the open and close around it, is what that costs (a journal's commit)
	 */
	if (dup || !small || ((d->flags & D_PSEUDO) && d->ftype != DIO_FT_BLK) ||
	    (d->ftype == DIO_FT_DIR && (d->flags & D_SYNCED))) {
		capture_end(f, C_CHURN, d, 0);
		return;
	}
	if (f->unlinked_gen && d->gen == f->unlinked_gen) {
		capture_end(f, C_CHURN, d, 0);
		return;
	}
	capture_end(f, C_CHURN, d, 1);
	f->ex[C_CHURN].gen = d->gen;
	if (d->gen == f->gen && !(f->flags & P_GEN_ENDED) && f->gen_windows <= GEN_PEND) {
		struct pwin *w;

		if (f->npend && (f->pend_gen != d->gen || f->npend == GEN_PEND))
			pend_commit(s, &k, f);
		f->pend_gen = d->gen;
		w = &f->pend[f->npend++];
		w->t = one(1, avoid, avoid_ns, d->ts_open, ts, d->tid, d->comm);
		w->bytes = d->bytes;
		w->seq = d->seq;
		if (f->dr_run == 1 && f->dr_ts == d->ts_open && dio_file_tag_eq(&f->dr_tag, &d->tag))
			f->dr_first = f->npend;
	} else {
		struct inc in = { .t = one(1, avoid, avoid_ns, d->ts_open, ts, d->tid, d->comm),
				  .bytes = d->bytes, .seq = &d->seq };

		pend_commit(s, &k, f);
		count_inst(s, &k, f, C_CHURN, &in);
	}
}

/* a call on a directory, which may be part of the create-unlink cycle being captured */
static void dir_call(struct ro *s, struct proc *p, const struct dio_ev_syscall *e,
		     enum call_kind kind)
{
	struct pkey k = { p->serial, 0, p->cu_cap };
	struct path *f;

	p->dir_calls++;
	p->dir_syncs += kind == CALL_SYNC;
	p->dir_ns += e->duration;
	if (!p->cu_cap)
		return;
	f = table_get(&s->paths, &k);
	if (f && f->ex[C_CYCLE].cap == CAP_GEN)
		excerpt_add(expool_excerpt(&s->pool, f->ex[C_CYCLE].ex), s->host, s->ctx,
			    &e->hdr, CYCLE_LINES);
	else
		p->cu_cap = 0;
}

/* a call through an fd that names a regular file or a directory */
static void on_call(struct ro *s, struct proc *p, const struct dio_ev_syscall *e,
		    enum call_kind kind)
{
	uint16_t xf = xflags(s, e->nr);
	struct dkey dk = dkey_of(e, e->fd, p->serial);
	struct desc *d = table_get(&s->descs, &dk);
	struct path *f;
	struct pkey k;

	if (d && !dio_file_tag_eq(&d->tag, &e->tag)) {
		desc_forget(s, d);
		table_del(&s->descs, &dk);
		d = NULL;
	}
	if (!d) {
		/* opened before the trace, inherited, or a dup in an older recording */
		if (kind == CALL_CLOSE && !e->ofd)
			return;
		d = desc_new(s, p, &dk, e, 0);
	}
	k = (struct pkey){ d->serial, 0, d->pkey };
	f = path_of(s, &k, d->pid, &d->tag);
	d->calls++;
	d->ns += e->duration;
	d->tid = e->tid;
	memcpy(d->comm, e->comm, sizeof(d->comm));
	if (d->flags & D_WINDOW)
		seq_add(&d->seq, e->nr);
	for (int code = 0; code < CODES; code++) {
		/* a cycle's excerpt shows what it costs: the calls but reads and writes */
		int data = kind == CALL_READ || kind == CALL_WRITE || (xf & (X_DIRREAD | X_XFER));

		if (!(code == C_CYCLE && data))
			capture_add(s, f, code, d, &e->hdr);
	}
	if (d->ftype == DIO_FT_DIR && !(xf & X_DIRREAD))
		dir_call(s, p, e, kind);
	switch (kind) {
	case CALL_CLOSE:
		d->closes++;
		if (d->flags & D_OFD)
			return;	/* another fd may hold it: its DIO_EV_OFD record ends it */
		win_end(s, d, e->hdr.ts, 0, 1);
		table_del(&s->descs, &dk);
		return;
	case CALL_READ:
	case CALL_WRITE:
		on_data(s, p, &k, f, d, e, kind, xf);
		break;
	case CALL_SEEK:
		on_seek(s, &k, f, d, e);
		break;
	case CALL_SYNC:
		d->sync_calls++;
		d->sync_ns += e->duration;
		d->flags |= D_SYNCED;
		break;
	case CALL_STAT:
		break;
	case CALL_TRUNCATE:	/* leaves the offset */
		d->flags |= D_USED | D_WROTE;
		f->dr_changed = 1;
		break;
	default:
		d->flags |= D_USED;
		if (xf & (X_DIRREAD | X_XFER)) {
			on_data(s, p, &k, f, d, e, CALL_READ, xf);
			break;
		}
		if (xf & X_CHANGES) {
			d->flags |= D_WROTE;
			f->dr_changed = 1;
		}
		/* sendfile, splice, ... may move the offset: no longer known */
		if (!(xf & X_KEEPS_POS)) {
			seek_dropped(f, d);
			moved(f, d, 0, 0);
		}
		break;
	}
}

/* a successful open, creat, openat, openat2 */
static void on_open(struct ro *s, struct proc *p, const struct dio_ev_syscall *e)
{
	struct dkey dk = dkey_of(e, (int32_t)e->ret, p->serial);
	struct desc *d = table_get(&s->descs, &dk);
	uint16_t xf = xflags(s, e->nr);

	if (d) {	/* its end was not seen (dup2 over an fd of an older recording) */
		desc_forget(s, d);
		table_del(&s->descs, &dk);
	}
	if (!(e->flags & DIO_SF_FILE) || (e->ftype != DIO_FT_REG && e->ftype != DIO_FT_DIR))
		return;
	/* O_PATH: a path looked up for *at calls or fstat, no open for I/O, nothing to save */
	if (((xf & X_FLAGS1) && (e->args[1] & O_PATH_)) ||
	    ((xf & X_FLAGS2) && (e->args[2] & O_PATH_)))
		return;
	if (e->ftype == DIO_FT_DIR)
		dir_call(s, p, e, CALL_OPEN);
	desc_new(s, p, &dk, e, 1);
}

/* ---- unlink: the end of a create-unlink cycle --------------------------------------- */

/* path f (the process's), named "rel" relative to some directory */
static int names(struct ro *s, const struct path *f, const char *rel)
{
	const char *full = s->host->tag_path(s->ctx, &f->tag);
	size_t a, b;

	if (!full)
		return 0;
	if (rel[0] == '/')	/* the same file through another path (a symlink): same name */
		return !strcmp(last_part(full), last_part(rel));
	a = strlen(full);
	b = strlen(rel);
	return a > b && full[a - b - 1] == '/' && !strcmp(full + a - b, rel);
}

static void on_unlink(struct ro *s, struct proc *p, const struct dio_ev_syscall *e)
{
	const char *name = str0(e);
	struct path *f = NULL;
	struct pkey k = { p->serial, 0, 0 };
	struct inc in;
	uint64_t nsync, ncalls, dir_ns;
	int short_gen;

	if (!name || e->ret || ((xflags(s, e->nr) & X_UNLINKAT) && (e->args[2] & AT_REMOVEDIR_)))
		return;
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	if (name[0] == '/') {
		k.key = fnv(name, strlen(name));
		f = table_get(&s->paths, &k);
	}
	for (uint32_t i = 0, b = base_hash(name); !f && i < p->nrecent; i++) {
		if (p->recent[i].base != b)
			continue;
		k.key = p->recent[i].key;
		f = table_get(&s->paths, &k);
		if (f && !names(s, f, name))
			f = NULL;
	}
	if (!f || !f->gen || (f->flags & P_GEN_ENDED) || !f->gen_windows)
		return;
	memset(&in, 0, sizeof(in));
	in.cu[CU_OPENS] = f->gen_opens;
	in.cu[CU_CLOSES] = f->gen_closes;
	in.cu[CU_SYNCS] = f->gen_syncs;
	in.cu[CU_META] = f->gen_meta;
	/*
	 * The directory's part. A sync of a directory makes every change of its
	 * entries since the one before durable: the cycle's is one of the window's
	 * directory syncs, with its share of the window's calls on directories and
	 * of their time. The others were for other names (a lock file held while
	 * other files are saved), and calls on directories without a sync (a scan)
	 * are not the cycle's.
	 */
	nsync = p->dir_syncs - f->gen_dir_syncs;
	ncalls = p->dir_calls - f->gen_dir_calls;
	in.cu[CU_DIR_SYNCS] = nsync ? 1 : 0;
	in.cu[CU_DIR_CALLS] = nsync ? ncalls / nsync : 0;
	dir_ns = nsync ? (p->dir_ns - f->gen_dir_ns) / nsync : 0;
	/*
	 * The cycle's calls but the file's reads, writes and syncs (its data needs
	 * them whatever the program does), and their time: the directory's sync is
	 * the cycle's own
	 */
	in.t = one(1, f->gen_opens + f->gen_closes + f->gen_meta + 1 + in.cu[CU_DIR_CALLS],
		   f->gen_ns + dir_ns + e->duration, f->gen_ts, e->hdr.ts, e->tid, e->comm);
	if (f->ex[C_CYCLE].cap == CAP_GEN && f->ex[C_CYCLE].gen == f->gen) {
		excerpt_add(expool_excerpt(&s->pool, f->ex[C_CYCLE].ex), s->host, s->ctx, &e->hdr,
			    CYCLE_LINES);
		f->ex[C_CYCLE].cap = 0;
		f->ex[C_CYCLE].done = 1;
		p->cu_cap = 0;
	}
	/* the small windows of a file made and deleted are the cycle's, not churn */
	short_gen = f->gen_windows <= GEN_PEND;
	if (short_gen && f->npend && f->pend_gen == f->gen)
		pend_discard(f);
	else
		pend_commit(s, &k, f);
	f->flags |= P_GEN_ENDED;
	f->unlinked_gen = short_gen ? f->gen : 0;
	f->gen_windows = 0;
	count_inst(s, &k, f, C_CYCLE, &in);
}

/* ---- records ------------------------------------------------------------------ */

/*
 * Programs that ended (exit, exec) are reported once the records of their
 * descriptions' ends came; the pid's next record starts a new serial.
 */
static void flush_dying(struct ro *s)
{
	for (uint32_t i = 0; i < s->ndying; i++) {
		uint32_t pid = s->dying[i].pid;
		struct proc *p = proc_known(s, pid, s->dying[i].serial);

		if (p) {
			proc_flush(s, pid, p);
			table_del(&s->procs, &pid);
		}
	}
	s->ndying = 0;
}

static void on_proc(struct ro *s, const struct dio_ev_proc *pe)
{
	struct proc *p;
	uint32_t pid;

	/*
	 * An exec ends a program as an exit does: what the next one opens again
	 * (the loader's cache and libraries) is no redundancy of either.
	 */
	if ((pe->kind == DIO_PROC_EXIT && (pe->flags & DIO_PROCF_GROUP_DEAD)) ||
	    pe->kind == DIO_PROC_EXEC) {
		p = table_get(&s->procs, &pe->pid);
		if (!p)
			return;
		if (s->ndying == DYING)
			flush_dying(s);
		s->dying[s->ndying].pid = pe->pid;
		s->dying[s->ndying++].serial = p->serial;
		return;
	}
	if (pe->kind != DIO_PROC_FORK || (pe->flags & DIO_PROCF_THREAD))
		return;
	/* a new process: whatever had its pid is gone */
	pid = pe->other_pid;
	p = table_get(&s->procs, &pid);
	if (p) {
		proc_flush(s, pid, p);
		table_del(&s->procs, &pid);
	}
}

static void on_ofd(struct ro *s, const struct dio_ev_ofd *o)
{
	struct dkey dk = { 0, 0, o->ofd, 0 };
	struct desc *d = o->ofd ? table_get(&s->descs, &dk) : NULL;

	if (!d)
		return;
	win_end(s, d, o->hdr.ts, o->how == DIO_OFD_REPLACED ? o->nr : 0, o->how != DIO_OFD_END);
	table_del(&s->descs, &dk);
}

static int ro_event(void *state, const struct dio_ev_hdr *ev)
{
	struct ro *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	enum call_kind kind;
	struct proc *p;

	if (ev->type == DIO_EV_OFD) {
		on_ofd(s, (const void *)ev);
		return s->err;
	}
	if (s->ndying)
		flush_dying(s);
	if (ev->type == DIO_EV_PROC) {
		on_proc(s, (const void *)ev);
	} else if (ev->type == DIO_EV_SYSCALL) {
		p = proc_of(s, e->pid);
		p->calls++;
		prog_note(s, p, e);
		kind = call_kind(&s->kinds, e->nr);
		if (kind == CALL_OPEN) {
			if (!dio_ret_failed(e->ret) && e->ret >= 0)
				on_open(s, p, e);
		} else if (kind == CALL_UNLINK) {
			on_unlink(s, p, e);
		} else if (e->fd >= 0 && (e->flags & DIO_SF_FILE) &&
			   (e->ftype == DIO_FT_REG || e->ftype == DIO_FT_DIR)) {
			on_call(s, p, e, kind);
		}
	}
	return s->err;
}

/* ---- finish: what is left, oldest first --------------------------------------- */

struct collect {
	struct ro *s;
	size_t n;
};

static void commit_path(void *key, void *val, void *ud)
{
	pend_commit(ud, key, val);
}

/* the candidates of the processes still running: to their programs */
static void fold_cand(void *key, void *val, void *ud)
{
	struct ckey *ck = key;

	cand_fold(ud, ck->serial, (int)ck->code, val);
}

static void totals_of(void *key, void *val, void *ud)
{
	(void)key;
	proc_totals(ud, val);
}

static void collect_pcand(void *key, void *val, void *ud)
{
	struct collect *c = ud;
	struct pckey *k = key;
	struct pcand *pc = val;

	if (c->n < c->s->nrefs_max)
		c->s->refs[c->n++] = (struct ref){ pc->c.t.ts_first, k->code, k->name, pc };
}

static int ro_finish(void *state)
{
	struct ro *s = state;
	struct collect c = { s, 0 };

	flush_dying(s);
	table_each(&s->paths, commit_path, s);
	table_each(&s->cands, fold_cand, s);
	table_each(&s->procs, totals_of, s);
	table_each(&s->pcands, collect_pcand, &c);
	qsort(s->refs, c.n, sizeof(*s->refs), ref_cmp);
	for (size_t i = 0; i < c.n; i++)
		report(s, s->refs[i].name, (int)s->refs[i].code, s->refs[i].c);
	if (!s->err) {
		const struct table_use u[] = {
			TABLE_USE(&s->paths, "(process, path) pairs", "max_files"),
			TABLE_USE(&s->descs, "open file descriptions", "max_fds"),
			TABLE_USE(&s->procs, "processes", "max_procs"),
			TABLE_USE(&s->cands, "(process, finding) candidates", "max_candidates"),
			TABLE_USE(&s->pcands, "(program, finding) candidates", "max_candidates"),
			TABLE_USE(&s->gpaths, "(program, path) create-unlink tallies",
				  "max_shared_paths"),
		};

		s->err = tables_report(s->host, s->ctx, rules[CODES].code, "redundant-open", u,
				       sizeof(u) / sizeof(u[0]));
	}
	return s->err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "redundant-open",
	.description = "files opened and closed over and over, made and deleted for every "
		       "transaction, read whole again unchanged, reopened only to fsync, "
		       "lseeks to where the offset already is",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC) | DIO_EV_MASK(DIO_EV_OFD),
	.options = options,
	.init = ro_init,
	.event = ro_event,
	.finish = ro_finish,
	.destroy = ro_destroy,
	.rules = rules,
};
