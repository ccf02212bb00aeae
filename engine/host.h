/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host side modules see: the table of host functions (include/dio's
 * struct dio_host), the facts of the run they read with host->info, the wall
 * clock of the records, and the output files they share.
 */
#ifndef DIO_ENGINE_HOST_H
#define DIO_ENGINE_HOST_H

#include <stdint.h>
#include <dio/plugin.h>
#include "dispatch.h"
#include "options.h"
#include "verdict.h"

struct host;

/* The table every module gets; its ctx carries the struct host (modules.h). */
extern const struct dio_host host_table;

/*
 * The host of a session whose records reach the modules through d and whose
 * findings go to v. It knows what host->info says before the trace (dio's
 * version, the machine, the command, the start; a replay: none of the run's
 * until set). NULL on ENOMEM.
 */
struct host *host__new(const struct options *o, struct dispatch *d, struct verdict *v,
		       int replay);
void host__free(struct host *h);
/* A fact about the run for modules: key must be a static string, val is copied (NULL: none). */
int host__set_info(struct host *h, const char *key, const char *val);
const char *host__info(const struct host *h, const char *key);
/*
 * The records' span is known: host->info's "end" is now, or in a replay the
 * last record's time, and a replay's "start" its first record's (none when
 * it had none), as RFC 3339 UTC: a replay's reports depend on the trace alone.
 */
void host__end(struct host *h, const uint64_t span[2]);
/* Offset from CLOCK_MONOTONIC to the wall clock; a replay takes the recording's. */
void host__set_realtime_off(struct host *h, int64_t off);
int64_t host__realtime_off(const struct host *h);

#endif
