/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The html sink's series over time: the session cut into TL_BUCKETS buckets
 * of one width, which doubles (two buckets added into one) whenever a record
 * falls past the last, so the memory is fixed however long the session runs.
 * Per bucket: each thread's time in calls by class (the timeline's
 * swimlanes), each thread group's calls and bytes (the I/O rate), each
 * device's block requests, the run-queue waits, and per file, process and
 * direction the lowest and highest offset read or written (offset over
 * time). The slowest calls are kept one by one, to be drawn where the
 * timeline is zoomed in past a bucket.
 */
#ifndef DIO_HTML_TIMELINE_H
#define DIO_HTML_TIMELINE_H

#include <stdint.h>
#include <dio/sink.h>

#include "sinks/common/report.h"

#define TL_BUCKETS	1024
#define TL_CLASSES	7	/* the classes of calls the page colours: data ... other */
#define TL_LANES	512	/* threads with a lane of their own; the rest share one */
#define TL_NAMES	4	/* names a lane remembers a thread had, with when */
#define TL_GROUPS	64	/* thread groups counted; the rest are not in the rate view */
#define TL_DEVS		8	/* devices with a block lane of their own; the rest share one */
#define TL_OSERIES	256	/* file, process, direction series of offsets */
#define TL_SPANS	400	/* slowest calls kept one by one */

struct tl_cell {
	uint64_t ns[TL_CLASSES];	/* time in calls of each class in the bucket */
	uint32_t calls;			/* calls that began in it */
};

struct tl_lane {
	uint32_t tid, pid;
	int32_t group;
	uint32_t nnames;
	struct { uint64_t ts; char comm[DIO_COMM_LEN]; } names[TL_NAMES];
	uint64_t calls, ns;
	struct tl_cell *cells;
};

struct tl_gcell {
	uint64_t rbytes, wbytes;
	uint32_t calls;
};

struct tl_group {
	uint32_t pid, threads;
	char name[DIO_COMM_LEN];
	uint8_t background;
	uint64_t calls, rbytes, wbytes;
	struct tl_gcell *cells;
};

struct tl_bcell {
	uint64_t ns, rbytes, wbytes;	/* ns: request time in the bucket, all requests added */
	uint32_t count;
};

struct tl_dev {
	uint32_t dev;
	uint64_t count;
	struct tl_bcell *cells;
};

struct tl_ocell {
	int64_t lo, hi;			/* lowest offset, highest offset + bytes */
	uint32_t calls, empty;		/* empty: reads that returned 0 (nothing there) */
};

struct tl_oseries {
	struct dio_file_tag tag;
	uint32_t pid;
	uint8_t write, used;
	char comm[DIO_COMM_LEN];
	uint64_t calls;
	struct tl_ocell *cells;
};

struct tl_span {
	uint64_t ts, dur;
	uint32_t tid, nr;
	struct dio_file_tag tag;
	uint8_t cls, file;
};

struct timeline {
	uint64_t t0, width;		/* bucket b: [t0 + b * width, t0 + (b + 1) * width) */
	uint32_t used;			/* buckets up to the last one with something in it */
	int oom;			/* a series could not be kept: the page says so */
	struct tl_lane lanes[TL_LANES + 1];	/* the last: threads past TL_LANES */
	uint32_t nlanes;
	uint64_t unlaned;		/* threads in the last lane */
	struct tl_group groups[TL_GROUPS];
	uint32_t ngroups;
	uint64_t ungrouped;		/* calls of groups past TL_GROUPS */
	struct tl_dev devs[TL_DEVS + 1];	/* the last: devices past TL_DEVS */
	uint32_t ndevs;
	struct tl_bcell *runq;
	uint64_t nrunq;
	struct tl_oseries *oseries;	/* TL_OSERIES * 2 slots, open addressing */
	uint32_t noseries;
	uint64_t unseries;		/* calls of series past TL_OSERIES */
	struct tl_span spans[TL_SPANS];	/* a min-heap on dur */
	uint32_t nspans;
};

int tl_init(struct timeline *t, uint64_t t0);
void tl_free(struct timeline *t);

/* A new lane for thread tid, its index; TL_LANES (the shared one) when all are taken. */
uint32_t tl_lane(struct timeline *t, uint32_t tid, uint32_t pid, int32_t group);
/* A call of the lane's thread, by the name it had then. 0 or -ENOMEM. */
int tl_call(struct timeline *t, uint32_t lane, const struct dio_ev_syscall *e, unsigned int cls);
/* The group of comm in process pid, -1 past TL_GROUPS. */
int32_t tl_group(struct timeline *t, uint32_t pid, const char *comm);
void tl_group_call(struct timeline *t, int32_t group, uint64_t ts, uint64_t rbytes,
		   uint64_t wbytes);
int tl_block(struct timeline *t, const struct dio_ev_block *b);
int tl_runq(struct timeline *t, const struct dio_ev_runq *r);
/* A read (write 0) or write at the call's offset. 0 or -ENOMEM. */
int tl_offset(struct timeline *t, const struct dio_ev_syscall *e, int write);
void tl_span(struct timeline *t, const struct dio_ev_syscall *e, unsigned int cls);
/* The buckets in use reach time ts (the last record's) as far as the width allows. */
void tl_reach(struct timeline *t, uint64_t ts);

/*
 * The series as the JSON object the page reads; origin: the page's time 0.
 * The threads and files the findings name are shown first, then the busiest.
 */
void tl_json(struct timeline *t, struct rbuf *b, const struct dio_host *host,
	     struct dio_ctx *ctx, uint64_t origin, const struct rfindings *found);

/* s as a JSON string that may stand inside <script>: '<' as \u003c */
void page_str(struct rbuf *b, const char *s);

#endif /* DIO_HTML_TIMELINE_H */
