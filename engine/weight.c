// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why a nice value and not a scheduling class (docs/performance.md, "Busy
 * programs"): under the fair scheduler a weight only counts while the thread
 * is runnable, so a thread that sleeps between its drains or blocks takes
 * nothing more than before, and when both want a CPU it gets its share of it
 * instead of 1/(threads + 1). SCHED_FIFO would run it ahead of every other
 * thread of its CPU for as long as it likes (a writer compressing a backlog
 * for tens of ms stalls the program's threads on that CPU altogether);
 * SCHED_BATCH and SCHED_IDLE only ever lower a thread's claim.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "weight.h"

int weight__raise(void)
{
	int cur, want;

	errno = 0;
	cur = getpriority(PRIO_PROCESS, 0);	/* 0: the calling thread */
	if (cur == -1 && errno)
		return -1000 - errno;
	want = cur - WEIGHT_NICE_STEPS < -20 ? -20 : cur - WEIGHT_NICE_STEPS;
	if (want != cur && setpriority(PRIO_PROCESS, 0, want))
		return -1000 - errno;
	return want;
}

const char *weight__text(int nice, char *buf, unsigned long len)
{
	if (nice > -1000)
		snprintf(buf, len, "nice %d", nice);
	else
		snprintf(buf, len, "its nice value kept: %s", strerror(-1000 - nice));
	return buf;
}
