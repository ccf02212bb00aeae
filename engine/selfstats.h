/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --stats: where dio's own time went in a session. The probes' run time comes
 * from the kernel's BPF statistics, switched on for the session only; the
 * ring, consumer and writer figures are counted by whoever runs the loop
 * (dio trace, dio record, dio top) through the calls below. Nothing here
 * knows a session, so any loop over the ring can use it.
 */
#ifndef DIO_ENGINE_SELFSTATS_H
#define DIO_ENGINE_SELFSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct selfstats;
struct bpf_object;
struct loss;
struct tf_writer_time;

/*
 * Turn the kernel's BPF run-time statistics on (BPF_ENABLE_STATS: on while
 * st holds its fd, off by itself when dio dies; kernel.bpf_stats_enabled,
 * restored by selfstats__free, only where that fails or when the environment
 * sets DIO_STATS_SYSCTL=1). When neither works the probes' times are left out
 * and a warning says why: the other figures do not need them. NULL and errno
 * when out of memory.
 */
struct selfstats *selfstats__new(void);
/* Switch the statistics back as they were and free st. NULL-safe. */
void selfstats__free(struct selfstats *st);

/* The consumer's thread starts and stops reading the ring: its CPU time in between is counted. */
void selfstats__consumer_start(struct selfstats *st);
void selfstats__consumer_stop(struct selfstats *st);
/* One record of size bytes came out of the ring. */
void selfstats__record(struct selfstats *st, size_t size);
/* A poll or drain of the ring handed out n records (a wakeup when n > 0). */
void selfstats__poll(struct selfstats *st, int n);
/*
 * Read the run time and run count of every program of obj that was loaded.
 * Call it before the object is closed. 0 or -errno (the figures kept so far stay).
 */
int selfstats__progs(struct selfstats *st, struct bpf_object *obj);
/*
 * dio record's writer threads: where their time went, the records they wrote,
 * the bytes of those records and the bytes they made on disk. Adds up.
 */
void selfstats__writer(struct selfstats *st, const struct tf_writer_time *t, uint64_t records,
		       uint64_t raw_bytes, uint64_t disk_bytes);
/* The losses of the session, every reason (copied). */
void selfstats__loss(struct selfstats *st, const struct loss *l);
/* The table (docs/performance.md, "What the --stats figures mean") to f. */
void selfstats__print(const struct selfstats *st, FILE *f);

#endif
