/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dio top: the busiest processes, threads and files, counted in the kernel. */
#ifndef DIO_ENGINE_TOP_H
#define DIO_ENGINE_TOP_H

struct options;

/* dio top's own settings; its filters go to options */
enum top_sort { TOP_SORT_CALLS = 0, TOP_SORT_BYTES, TOP_SORT_TIME };

struct top_args {
	int batch;		/* -b: plain lines, frame after frame, no screen control */
	double delay;		/* -d SECONDS between frames, default 1 */
	long iterations;	/* -n COUNT frames, 0: until stopped */
	enum top_sort sort;	/* --sort calls|bytes|time */
	int cumulative;		/* -S: totals since the start, not the last interval */
};


/*
 * Count what o names in kernel maps (o in count mode, as cmd/top.c sets
 * it) and show frames as args says until the end. Returns dio's exit status.
 */
int top__run(struct options *o, const struct top_args *args);

#endif
