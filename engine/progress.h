/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A progress line for reading a big trace file (dio analyze, report, push,
 * dump, diff): on a terminal only, rewritten in place a few times a second
 * and erased at the end.
 */
#ifndef DIO_ENGINE_PROGRESS_H
#define DIO_ENGINE_PROGRESS_H

#include <stdint.h>

struct options;

struct progress {
	char what[96];		/* the file's name, escaped and cut */
	uint64_t t0, last;	/* CLOCK_MONOTONIC ns: the start, the last line */
	int on;			/* standard error is a terminal the line may write to */
	int shown;		/* a line is on the screen: erase it at the end */
};

/*
 * Start p for reading path (copied) under the options o: on only when
 * standard error is a terminal, -q was not given, and standard output is not
 * that terminal with records streaming to it (dio dump to the screen).
 */
void progress__start(struct progress *p, const struct options *o, const char *path);
/*
 * Bytes done of size read, records done of total (0: not known). Writes the
 * line when it is due: after the first half second, every quarter second.
 */
void progress__update(struct progress *p, uint64_t done, uint64_t size, uint64_t records,
		      uint64_t total);
/* Erase the line, if one was written. */
void progress__end(struct progress *p);

#endif
