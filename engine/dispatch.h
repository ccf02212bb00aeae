/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dispatch of a session's records to its modules, the tag table that
 * names their files, and the counts of what was lost on the way.
 */
#ifndef DIO_ENGINE_DISPATCH_H
#define DIO_ENGINE_DISPATCH_H

#include <stddef.h>
#include <stdint.h>
#include <dio/plugin.h>
#include "modules.h"
#include "options.h"

struct dispatch;
struct loss;
struct probe;
struct selfstats;

/* Records to the modules of m, which start later. NULL with errno. */
struct dispatch *dispatch__new(const struct options *o, struct modules *m);
/* Once the modules have started: the table of file descriptions, when one wants them. 0 or -ENOMEM. */
int dispatch__start(struct dispatch *d);
void dispatch__free(struct dispatch *d);

/*
 * Hand one record, from the ring or a trace file, to the modules subscribed
 * to its type (see session__dispatch). 0, or -errno when a module failed.
 */
int dispatch__record(struct dispatch *d, const void *rec, size_t size);
/* The ring's callback (ctx: the dispatch): --stats counts the record, then dispatch__record. */
int dispatch__ring(void *ctx, void *data, size_t size);
/* Records that passed the check go on only when keep returns non-zero (NULL: all). */
void dispatch__filter(struct dispatch *d, int (*keep)(void *ud, const struct dio_ev_hdr *h),
		      void *ud);
/* dio record: every record as it came to add; see session__record_to. */
void dispatch__record_to(struct dispatch *d, int (*add)(void *ud, const void *rec, size_t size),
			 int (*tick)(void *ud), void (*lost)(void *ud, struct loss *l), void *ud);
/* dio record's tick, when it is recording and nothing failed: 0, or -errno (said, failed). */
int dispatch__tick(struct dispatch *d);
/* The end of the records: the descriptions still open end. 0, or -errno when a module failed. */
int dispatch__end(struct dispatch *d);
/* A part of the session failed (a sink could not flush): its exit status must say so. */
void dispatch__fail(struct dispatch *d);
int dispatch__failed(const struct dispatch *d);

/*
 * The live probe whose counters are the kernel's losses; its counts so far
 * are kept. With it, the processes whose files are followed are looked up
 * (when dio runs in their pid namespace), so that one gone unseen ends.
 */
void dispatch__set_probe(struct dispatch *d, struct probe *p);
/*
 * Live: the processes followed that are gone without their exit record end
 * what they held, each time their table has doubled, or at the end (end).
 * 0, or -errno when the probe or a module failed.
 */
int dispatch__sweep(struct dispatch *d, int end);
/* --stats: the records the ring delivered are counted in st (NULL: none). */
void dispatch__set_stats(struct dispatch *d, struct selfstats *st);
/* Processes gone since the in-flight tables were last swept; swept: they are now. */
uint64_t dispatch__exits(struct dispatch *d, int swept);
/* The earliest and latest record times dispatched (0: none). */
void dispatch__span(const struct dispatch *d, uint64_t span[2]);
/* The path of a file tag as the records so far named it; NULL when unknown. */
const char *dispatch__tag_path(struct dispatch *d, const struct dio_file_tag *tag);

/* The counts as modules see them (host->stats): records, and losses refreshed. */
void dispatch__stats(struct dispatch *d, struct dio_stats *st);
/* The loss counters, as last refreshed (a replay adds the recording's); owned by d. */
struct loss *dispatch__loss(struct dispatch *d);
/* A warning for each reason records were lost, malformed ones with the first one's reason. */
void dispatch__report_loss(struct dispatch *d);
uint64_t dispatch__malformed(const struct dispatch *d);
uint64_t dispatch__dropped(struct dispatch *d);
int dispatch__loss_text(struct dispatch *d, char *buf, size_t len);

#endif
