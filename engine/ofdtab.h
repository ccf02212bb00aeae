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

/* NULL with errno set. */
struct ofdtab *ofdtab__new(void);
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
 * The records of the descriptions that the last call above ended, in the
 * order they ended; valid until the next call. Returns their number.
 */
size_t ofdtab__ended(const struct ofdtab *t, const struct dio_ev_ofd **out);

#endif
