/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open file descriptions, followed per process from the records: which fds
 * share one (dup, dup2, dup3, fcntl F_DUPFD, fork), and when its last fd goes
 * (close, close_range, dup2 over it, exec with close-on-exec, exit). The
 * session feeds every syscall and process record through it and hands the
 * dio_ev_ofd records it makes to the modules after the record that ended
 * the descriptions. See include/dio/event.h for what modules are promised.
 */
#ifndef DIO_ENGINE_OFDTAB_H
#define DIO_ENGINE_OFDTAB_H

#include <stddef.h>
#include <stdint.h>
#include <dio/event.h>

struct ofdtab;

/*
 * At most max_procs processes (0: no bound): a record of another one drops
 * the process no record named for longest (nearly: a clock), whose
 * descriptions end with DIO_OFD_END, and counts it (ofdtab__evicted).
 * NULL with errno set.
 */
struct ofdtab *ofdtab__new(size_t max_procs);
void ofdtab__free(struct ofdtab *t);

/*
 * Follow one syscall record. Returns the description the record's file is
 * (its own ofd, or one the table numbered for a record without one: a
 * recording made before dio knew descriptions), 0 when the record has no
 * fd; or -ENOMEM (as a negative int64).
 */
int64_t ofdtab__syscall(struct ofdtab *t, const struct dio_ev_syscall *ev);
/* Follow fork, exec and exit. 0 or -ENOMEM. */
int ofdtab__proc(struct ofdtab *t, const struct dio_ev_proc *ev);
/* The trace ended at ts: every description still open ends (DIO_OFD_END). */
void ofdtab__end(struct ofdtab *t, uint64_t ts);

/*
 * Processes whose exit record dio never got (the ring was full, or a filter
 * left it out), in two steps: mark those gone(ud, pid) says have ended
 * (returns how many); then, once every record they sent before has been
 * followed, drop them: their descriptions end with DIO_OFD_EXIT at ts. A
 * process whose exit or fork record (a pid used again) came in between is
 * not dropped twice. 0 or -ENOMEM.
 */
size_t ofdtab__mark_gone(struct ofdtab *t, int (*gone)(void *ud, uint32_t pid), void *ud);
int ofdtab__sweep(struct ofdtab *t, uint64_t ts);
/* Processes in the table; dropped to stay within max_procs; dropped by a sweep. */
size_t ofdtab__procs(const struct ofdtab *t);
uint64_t ofdtab__evicted(const struct ofdtab *t);
uint64_t ofdtab__swept(const struct ofdtab *t);

/*
 * The records of the descriptions that the last call above ended, in the
 * order they ended; valid until the next call. Returns their number.
 */
size_t ofdtab__ended(const struct ofdtab *t, const struct dio_ev_ofd **out);

#endif
