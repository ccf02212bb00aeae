// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loss.h"
#include "util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct reason {
	int idx;
	const char *key;	/* trace file metadata */
	const char *what;	/* "N <what>" */
	const char *advice;
} reasons[] = {
	{ DIO_LOST_RINGBUF, "lost_ringbuf", "records lost: the ring buffer was full",
	  "enlarge --ring-size, lower --drain-ms or --wakeup-at, or trace less (-p, --path, -e trace=)" },
	{ DIO_LOST_INFLIGHT, "lost_inflight", "calls lost: no memory for a call in flight",
	  "the kernel could not allocate a thread's task storage" },
	{ DIO_LOST_BLOCK, "lost_block", "block requests lost: the block request table was full",
	  "raise --inflight-table" },
	{ DIO_LOST_BLOCK_UNSEEN, "lost_block_unseen",
	  "block requests lost: their completion never reached dio",
	  "the kernel did not run dio's program for it; no option brings them back" },
	{ DIO_LOST_IOURING, "lost_iouring", "io_uring requests lost: the io_uring table was full",
	  "raise --inflight-table" },
	{ DIO_LOST_IOURING_UNSEEN, "lost_iouring_unseen",
	  "io_uring requests lost: their completion never reached dio",
	  "the kernel did not run dio's program for it; no option brings them back" },
	{ DIO_LOST_MAPPINGS, "lost_mappings",
	  "file mappings not remembered: the file-mapping table was full",
	  "their munmap is not traced; raise --inflight-table" },
	{ DIO_LOST_PROCS, "lost_procs", "processes not traced: the traced-process table was full",
	  "trace fewer processes (-p, --comm), or all with -a" },
	{ DIO_LOST_TOP, "lost_top", "calls or requests not counted: a table of dio top was full",
	  "count fewer threads and files (-p, --comm, --path)" },
	{ LOSS_WRITER, "dropped_records",
	  "records not written to the trace file: dio record's writer thread was behind", NULL },
	{ DIO_LOST_OTHER, "lost_other", "records lost for other reasons (malformed)", "" },
};

/*
 * The host's own bounds: no record was lost, so apart from the reasons. A
 * warning only for those with advice: a sweep or a sum loses nothing.
 */
static const struct reason bounds[] = {
	{ LOSS_PATHS_EVICTED, "paths_evicted",
	  "paths forgotten: the host's tag table (twice --tag-table) was full",
	  "calls on those files, if they come again, show a tag; raise --tag-table" },
	{ LOSS_PART_PATHS, "part_paths_evicted",
	  "paths not repeated at the start of a --max-size part: dio record repeats those of "
	  "the files used last (twice --tag-table)",
	  "a part read alone shows a tag for those files; raise --tag-table" },
	{ LOSS_OFD_EVICTED, "ofd_procs_evicted",
	  "processes whose open files dio stopped following: its table of them was full",
	  "the analyzers saw their descriptions end early; trace fewer processes (-p, --comm, --cgroup)" },
	{ LOSS_OFD_SWEPT, "ofd_procs_swept",
	  "processes found gone without their exit: their open files ended then", NULL },
	{ LOSS_TOP_FOLDED, "top_rows_folded",
	  "rows of exited threads and processes added up into one of each (dio top)", NULL },
};

/*
 * What the kernel counted that is not a record lost, kept in a trace file
 * and listed with the losses; a warning for those with advice.
 */
static const struct reason notes[] = {
	{ DIO_LOST_PATHTAB, "lost_pathtab",
	  "file paths not sent: the ring buffer was full when they were to go",
	  "calls on those files show a tag until the file is renamed or the kernel's tag table "
	  "forgets it; make room in the ring as lost_ringbuf says" },
	{ DIO_LOST_BLKDEVS, "lost_blkdevs",
	  "paths sent of files on devices past the kernel's device table (256 devices)",
	  "block requests of kernel threads (writeback, journal) to those devices were not "
	  "recorded; trace fewer file systems (--path), or every device with -a" },
	{ LOSS_KPATHS_EVICTED, "kernel_paths_evicted",
	  "paths the kernel forgot it had sent, at least: its tag table (--tag-table) was full; "
	  "a file among them used again has its path sent again", NULL },
	{ DIO_CNT_PATH_TRUNC, "path_truncated", "paths cut at the walk limit", NULL },
};

static const char *const cause_names[] = {
	[DIO_WRITER_UNKNOWN] = "unknown",
	[DIO_WRITER_CPU] = "cpu",
	[DIO_WRITER_CPU_WAIT] = "cpu-wait",
	[DIO_WRITER_DISK] = "disk",
};

static const char *const cause_advice[] = {
	[DIO_WRITER_UNKNOWN] = "this recording does not say why",
	[DIO_WRITER_CPU] = "its CPU was the limit (compressing): record with --level 0 or 1",
	[DIO_WRITER_CPU_WAIT] = "it waited for a CPU other threads held: leave dio a CPU, or lower --level",
	[DIO_WRITER_DISK] = "it waited for the disk: write the trace file to a faster one",
};

const char *loss__cause_name(uint32_t cause)
{
	return cause < N(cause_names) ? cause_names[cause] : cause_names[DIO_WRITER_UNKNOWN];
}

static uint64_t count_of(const struct loss *l, int idx)
{
	return idx == DIO_LOST_OTHER ? l->n[idx] + l->n[LOSS_MALFORMED] : l->n[idx];
}

uint64_t loss__records(const struct loss *l)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < N(reasons); i++)
		sum += count_of(l, reasons[i].idx);
	return sum;
}

uint64_t loss__dropped(const struct loss *l)
{
	/* the kernel never ran dio's program for these: no run of dio keeps them */
	return loss__records(l) - l->n[DIO_LOST_BLOCK_UNSEEN] - l->n[DIO_LOST_IOURING_UNSEEN];
}

int loss__meta(const struct loss *l, char *buf, size_t len)
{
	size_t off = 0;
	int k;

	for (size_t i = 0; i < N(reasons); i++) {
		k = snprintf(buf + off, off < len ? len - off : 0, "%s=%" PRIu64 "\n",
			     reasons[i].key, count_of(l, reasons[i].idx));
		off += k > 0 ? (size_t)k : 0;
	}
	for (size_t i = 0; i < N(notes); i++) {
		k = snprintf(buf + off, off < len ? len - off : 0, "%s=%" PRIu64 "\n",
			     notes[i].key, l->n[notes[i].idx]);
		off += k > 0 ? (size_t)k : 0;
	}
	k = snprintf(buf + off, off < len ? len - off : 0,
		     "dropped_cause=%s\npart_paths_evicted=%" PRIu64 "\n",
		     loss__cause_name(l->writer_cause), l->n[LOSS_PART_PATHS]);
	off += k > 0 ? (size_t)k : 0;
	return (int)off;
}

void loss__add_meta(struct loss *l, int (*get)(const void *ud, const char *key, char *buf,
					       size_t len), const void *ud)
{
	char v[32];

	for (size_t i = 0; i < N(reasons); i++)
		if (!get(ud, reasons[i].key, v, sizeof(v)))
			l->n[reasons[i].idx] += strtoull(v, NULL, 10);
	for (size_t i = 0; i < N(notes); i++)
		if (!get(ud, notes[i].key, v, sizeof(v)))
			l->n[notes[i].idx] += strtoull(v, NULL, 10);
	if (!get(ud, "part_paths_evicted", v, sizeof(v)))
		l->n[LOSS_PART_PATHS] += strtoull(v, NULL, 10);
	if (!get(ud, "dropped_cause", v, sizeof(v)))
		for (uint32_t c = 0; c < N(cause_names); c++)
			if (!strcmp(v, cause_names[c]))
				l->writer_cause = c;
}

void loss__each(const struct loss *l,
		void (*cb)(void *ud, const char *key, const char *what, uint64_t n), void *ud)
{
	for (size_t i = 0; i < N(reasons); i++)
		cb(ud, reasons[i].key, reasons[i].what, count_of(l, reasons[i].idx));
	for (size_t i = 0; i < N(notes); i++)
		cb(ud, notes[i].key, notes[i].what, l->n[notes[i].idx]);
	for (size_t i = 0; i < N(bounds); i++)
		cb(ud, bounds[i].key, bounds[i].what, l->n[bounds[i].idx]);
}

void loss__warn(const struct loss *l)
{
	for (size_t i = 0; i < N(reasons); i++) {
		const struct reason *r = &reasons[i];
		uint64_t n = count_of(l, r->idx);
		const char *advice = r->advice;

		if (!n)
			continue;
		if (r->idx == LOSS_WRITER)
			advice = cause_advice[l->writer_cause < N(cause_advice) ? l->writer_cause : 0];
		warn_msg("%" PRIu64 " %s%s%s", n, r->what, *advice ? "; " : "", advice);
	}
	for (size_t i = 0; i < N(notes); i++)
		if (l->n[notes[i].idx] && notes[i].advice)
			warn_msg("%" PRIu64 " %s; %s", l->n[notes[i].idx], notes[i].what,
				 notes[i].advice);
	for (size_t i = 0; i < N(bounds); i++)
		if (l->n[bounds[i].idx] && bounds[i].advice)
			warn_msg("%" PRIu64 " %s; %s", l->n[bounds[i].idx], bounds[i].what,
				 bounds[i].advice);
}

void loss__stats(const struct loss *l, struct dio_stats *out)
{
	out->lost_ringbuf = l->n[DIO_LOST_RINGBUF];
	out->lost_inflight = l->n[DIO_LOST_INFLIGHT];
	out->lost_pathtab = l->n[DIO_LOST_PATHTAB];
	out->lost_iouring = l->n[DIO_LOST_IOURING];
	out->lost_other = count_of(l, DIO_LOST_OTHER);
	out->path_truncated = l->n[DIO_CNT_PATH_TRUNC];
	out->lost_block = l->n[DIO_LOST_BLOCK];
	out->lost_block_unseen = l->n[DIO_LOST_BLOCK_UNSEEN];
	out->lost_mappings = l->n[DIO_LOST_MAPPINGS];
	out->lost_iouring_unseen = l->n[DIO_LOST_IOURING_UNSEEN];
	out->lost_procs = l->n[DIO_LOST_PROCS];
	out->lost_writer = l->n[LOSS_WRITER];
	out->writer_cause = l->writer_cause;
	out->paths_evicted = l->n[LOSS_PATHS_EVICTED];
	out->lost_blkdevs = l->n[DIO_LOST_BLKDEVS];
	out->kernel_paths_evicted = l->n[LOSS_KPATHS_EVICTED];
}

uint64_t loss__kernel_paths_evicted(uint64_t taken, uint64_t capacity)
{
	return taken > capacity ? taken - capacity : 0;
}
