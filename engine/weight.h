/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scheduling weight of dio's own busy threads: the thread that reads the
 * ring buffer and the trace file writer. A traced program with many runnable
 * threads would otherwise leave each of them 1/(threads + 1) of a CPU, less
 * than they need to keep up with what the program's calls produce.
 */
#ifndef DIO_ENGINE_WEIGHT_H
#define DIO_ENGINE_WEIGHT_H

/*
 * Nice steps dio's busy threads take below the nice value they started at,
 * to -20 at most: from 0, a weight of 88761 against 1024 for each of the
 * program's threads (kernel/sched/core.c, sched_prio_to_weight), so that a
 * writer woken among 32 runnable threads of a CPU gets 73 % of it until its
 * queue is empty, instead of 3 %. 10 steps (weight 9548) still lost 1 % of
 * the records of 64 threads on 2 CPUs and 16 % of 128 (bench/busyrecord.sh,
 * docs/performance.md); 20 lost none and slowed the program no more.
 */
#define WEIGHT_NICE_STEPS 20

/*
 * Lower the calling thread's nice value (only this thread's: Linux keeps one
 * per thread) by WEIGHT_NICE_STEPS, to -20 at most. Threads it creates after
 * inherit it: call it after any child the program is started as has been
 * forked. Returns the nice value the thread runs at, or -1000 - errno when
 * it may not (no CAP_SYS_NICE: it keeps the one it had).
 */
int weight__raise(void);

/* The nice value weight__raise returned, for --stats: "-10", or why it could not. */
const char *weight__text(int nice, char *buf, unsigned long len);

#endif
