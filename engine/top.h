/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dio top's counts: the probe in count mode, its maps read into rows of threads, processes, files. */
#ifndef DIO_ENGINE_TOP_H
#define DIO_ENGINE_TOP_H

#include <stddef.h>
#include <stdint.h>
#include <dio/event.h>
#include "live.h"

struct tagtab;

struct options;

/* what a row counts; a process's calls are its threads' */
enum {
	V_CALLS, V_ERRORS, V_RBYTES, V_WBYTES, V_NS,	/* as struct dio_top_calls */
	V_BLK, V_BLK_NS, V_BLK_MAX,			/* as struct dio_top_wait */
	V_RUNQ, V_RUNQ_NS, V_RUNQ_MAX,
	V_BLK_BYTES,
	V_MAX
};
#define V_CALL_MAX	(V_NS + 1)

struct top_row {
	uint64_t key[2];	/* tid, pid, or the file tag (ino, dev << 32 | gen) */
	uint32_t pid, tid;
	char comm[DIO_COMM_LEN + 1];
	uint8_t ftype;
	uint8_t gone;		/* exited: its kernel entry goes after the next read */
	uint8_t dropped;	/* its kernel entry was deleted: cur is in base */
	uint8_t mark;		/* while rows are added up: this one goes */
	uint8_t held;		/* while rows are added up: a process with thread rows left */
	uint64_t base[V_MAX];	/* what deleted kernel entries had counted */
	uint64_t cur[V_MAX];	/* the kernel entry at the last read */
	uint64_t prev[V_MAX];	/* the total at the last frame */
	uint64_t show[V_MAX];	/* this frame's figures */
};

/* Rows by key: open addressing over indices into a growing array. */
struct top_rows {
	struct top_row *v;
	size_t n, cap;
	uint32_t *slot;		/* index + 1, 0: empty */
	size_t nslot;		/* a power of two, at least twice n */
};

/* The counts of a dio top session: the engine reads them, cmd/top.c shows them. */
struct top_counts {
	struct live live;	/* the options, the probe, --stats */
	struct tagtab *paths;
	struct top_rows threads, procs, files;
	/* the rows of exited threads and processes added up, and how many each holds */
	struct top_row tsum, psum;
	uint64_t tfolded, pfolded;
	size_t sweep_at;	/* live rows that call for a sweep; 0: pids are not ours */
	int fd_threads, fd_files, fd_procs;
	int ncpu;
	uint64_t malformed;
	int failed;
};

/*
 * Start counting what o names: the table of paths (as dio trace's) and the
 * sweep of tasks gone unseen. 0 or -ENOMEM. c is zeroed by the caller.
 */
int top__init(struct top_counts *c, struct options *o);
/* The live loop's records (paths, process exits): its on_record with ctx c */
int top__on_record(void *ctx, void *data, size_t size);
/* Once the probe is open: the kernel's maps of counters. 0 or -errno with a message. */
int top__open(struct top_counts *c, char *err, size_t errlen);
/*
 * Read the kernel's counters into the rows and set each row's show[]: the
 * growth since the last read, or the totals when cumulative. 0 or -errno.
 */
int top__read(struct top_counts *c, int cumulative);
/* Whether a row has anything to show this frame */
int top__shows_any(const struct top_row *w);
/* --stats at the end: the probes, the ring, the consumer and the losses, on stderr */
void top__selfstats(struct top_counts *c);
/* Everything c holds, the live loop's too. */
void top__free(struct top_counts *c);

#endif
