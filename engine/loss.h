/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why records were lost. Every reason dio counts has its own counter, its own
 * key in a trace file's metadata and its own advice, here in one table, so
 * that the live warning, the trace file and what modules see agree.
 */
#ifndef DIO_ENGINE_LOSS_H
#define DIO_ENGINE_LOSS_H

#include <stddef.h>
#include <stdint.h>
#include <dio/plugin.h>
#include "bpf/dio.h"

/* The host's reasons, after the kernel's DIO_LOST_* in the same array. */
#define LOSS_WRITER	DIO_CNT_MAX		/* dio record's writer thread was behind */
#define LOSS_MALFORMED	(DIO_CNT_MAX + 1)	/* records that failed the host's checks */
/*
 * What the host's own tables forgot to stay within their bounds: not records.
 * Each a session's own, not in a trace file, but for dio record's.
 */
#define LOSS_PATHS_EVICTED	(DIO_CNT_MAX + 2)	/* paths, from the tag table */
#define LOSS_PART_PATHS		(DIO_CNT_MAX + 3)	/* paths not repeated in a --max-size part */
#define LOSS_OFD_EVICTED	(DIO_CNT_MAX + 4)	/* processes whose fds were no longer followed */
#define LOSS_OFD_SWEPT		(DIO_CNT_MAX + 5)	/* processes found gone without their exit */
#define LOSS_TOP_FOLDED		(DIO_CNT_MAX + 6)	/* dio top's rows of exited tasks added up */
/*
 * Tags the kernel's tag table forgot, so that their path is sent again at
 * their file's next use: loss__kernel_paths_evicted() of DIO_CNT_TAG_NEW. The
 * trace file keeps this, not DIO_CNT_TAG_NEW, whose meaning needs the size.
 */
#define LOSS_KPATHS_EVICTED	(DIO_CNT_MAX + 7)
#define LOSS_MAX	(DIO_CNT_MAX + 8)

struct loss {
	uint64_t n[LOSS_MAX];
	uint32_t writer_cause;	/* DIO_WRITER_* */
};

/* Records lost, every reason together (paths not sent and cut paths are not records). */
uint64_t loss__records(const struct loss *l);
/*
 * Records dio had, or could have had, and lost: every reason but completions
 * the kernel never ran dio's program for, which no run of dio would keep.
 */
uint64_t loss__dropped(const struct loss *l);
/* Every counter as "key=value\n" lines for a trace file's metadata; snprintf semantics. */
int loss__meta(const struct loss *l, char *buf, size_t len);
/*
 * Add the counters a trace file's metadata holds; get(ud, key, buf, len)
 * returns 0 when key is there. Files written before a key existed lack it.
 */
void loss__add_meta(struct loss *l, int (*get)(const void *ud, const char *key, char *buf,
					       size_t len), const void *ud);
/* A warning (stderr) for each reason that happened: how many, why, what to do. */
void loss__warn(const struct loss *l);
/* The counters as modules see them (struct dio_stats), events excepted. */
void loss__stats(const struct loss *l, struct dio_stats *out);
/*
 * Each reason, in the warnings' order, to cb: its metadata key ("lost_ringbuf"),
 * what it counts ("records lost: the ring buffer was full") and how many.
 */
void loss__each(const struct loss *l,
		void (*cb)(void *ud, const char *key, const char *what, uint64_t n), void *ud);
/*
 * Tags the kernel's LRU tag table of capacity entries forgot when it took
 * taken in: at least taken - capacity. The kernel's LRU may forget some
 * before it is full (it keeps free entries per CPU), so this is a floor; two
 * CPUs that take one tag in at once count it twice, rarely.
 */
uint64_t loss__kernel_paths_evicted(uint64_t taken, uint64_t capacity);
/* Name of a DIO_WRITER_* cause as the metadata writes it ("cpu", "cpu-wait", "disk"). */
const char *loss__cause_name(uint32_t cause);

#endif
