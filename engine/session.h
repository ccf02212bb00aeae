/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A session: the loaded modules, the tag table and the dispatch of records
 * and findings. The record source is the live probe (live__trace) or a
 * trace file (replay__run); both hand records to session__dispatch.
 *
 * The work is done by the parts (host.c, modules.c, dispatch.c, verdict.c);
 * session.c alone sees them all and wires them. Its session__* functions are
 * the pipeline's one face for those that hold a session (live.c, replay.c,
 * recorder.c, the commands): each hands the call to the part that owns it,
 * in a line or two. Moving them into the parts, as the first layout draft
 * had it, would give every caller the parts themselves and undo the rule
 * that only session.c knows how they fit.
 */
#ifndef DIO_ENGINE_SESSION_H
#define DIO_ENGINE_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <dio/plugin.h>
#include "findings.h"
#include "loss.h"
#include "options.h"

struct session;
struct features;

/* dio record: the trace file lacks records dio lost (and nothing above applies) */
#define DIO_EXIT_INCOMPLETE	4

/*
 * Load and initialise the modules o asks for. NULL with errno and a one-line
 * reason in err, which is empty when a module's init logged it already.
 */
struct session *session__new(struct options *o, char *err, size_t errlen);
void session__free(struct session *s);

/*
 * Hand one record, from the ring or a trace file, to the modules subscribed
 * to its type. size is what the source holds. The record is checked first
 * (record_check): one that breaks a promise of dio/event.h is counted as
 * malformed (lost, "other") and goes nowhere, not even to the filter. 0, or
 * -errno when a module failed (the session should stop).
 */
int session__dispatch(struct session *s, const void *rec, size_t size);
/*
 * Records that passed the check go to the modules only when keep (NULL: no
 * filter) returns non-zero: the --pid, --comm, --path, ... of a replay.
 */
void session__filter(struct session *s, int (*keep)(void *ud, const struct dio_ev_hdr *h),
		     void *ud);


/*
 * A fact about the run for modules (host->info): key must be a static
 * string, val is copied. 0 or -errno.
 */
int session__set_info(struct session *s, const char *key, const char *val);
/* A fact host->info gives modules, NULL when unknown. */
const char *session__info(const struct session *s, const char *key);

struct tf_writer;
struct tf_reader;

/*
 * dio record: also hand every record, as the ring delivered it, to add (NULL:
 * stop). add returns 0 or -errno, which stops the session. tick runs every
 * drain period; lost sets the recorder's counts in l (the records the writer
 * dropped so far and why, the paths a --max-size part did not repeat), for
 * the losses the session reports.
 */
void session__record_to(struct session *s, int (*add)(void *ud, const void *rec, size_t size),
			 int (*tick)(void *ud), void (*lost)(void *ud, struct loss *l), void *ud);
/* Offset from CLOCK_MONOTONIC to the wall clock; a replay takes the recording's. */
void session__set_realtime_off(struct session *s, int64_t off);
int64_t session__realtime_off(const struct session *s);
/* What the running kernel let the live session use; NULL in a replay. Owned by s. */
const struct features *session__features(const struct session *s);

/* ---- fed live (live.c) ---------------------------------------------------- */

struct probe;
struct selfstats;

/* The options the session was made with. */
struct options *session__options(const struct session *s);
/* The ring's callback and its ctx: each record to session__dispatch, counted for --stats. */
void session__ring(struct session *s, int (**cb)(void *ctx, void *data, size_t size), void **ctx);
/*
 * The live probe, the caller's: the kernel's losses and features. Set NULL
 * before it goes; its counts are kept.
 */
void session__set_probe(struct session *s, struct probe *p);
/* --stats: the session counts in st and owns it from now on (session__selfstats). */
void session__set_stats(struct session *s, struct selfstats *st);
/* Each round of the live loop: the sinks flush, dio record's writer catches up. 0 or -errno (said). */
int session__tick(struct session *s);
/*
 * --report-every: the analyzers judge what they can by now_ns
 * (CLOCK_MONOTONIC) and the findings judged go to the live sinks. 0, or
 * -errno when an analyzer failed (said): the session ends as failed.
 */
int session__report(struct session *s, uint64_t now_ns);
/*
 * The processes whose files are followed and that are gone without their
 * exit record end what they held: when their table has doubled, or at the
 * end (end). 0, or -errno when the probe or a module failed.
 */
int session__sweep(struct session *s, int end);
/* Processes gone since the probe's in-flight tables were last swept; swept: they are now. */
uint64_t session__exits(struct session *s, int swept);
/* A module or the writer failed (and said so): dio's exit status will be 1. */
int session__failed(const struct session *s);
/*
 * dio's exit status after session__finish: code when not 0, else
 * DIO_EXIT_FINDINGS when --fail-on counted a finding (verdict.h).
 */
int session__status(struct session *s, int code);
/* The loss counters (loss.h); a replay adds the recording's. Owned by s. */
struct loss *session__loss(struct session *s);
/*
 * The end of the records, whatever their source: the descriptions still open
 * end, the analyzers finish, --max-findings says what it left out, the sinks
 * flush and the losses are reported. 1 when a module failed, else 0.
 */
int session__finish(struct session *s);
/*
 * --stats: the figures live__trace counted (selfstats.h), complete when it
 * returns; owned by s. NULL without --stats or before live__trace.
 */
struct selfstats *session__selfstats(const struct session *s);
/* Records refused by the check so far (session__dispatch). */
uint64_t session__malformed(const struct session *s);
/* The session's record and loss counts as "key=value\n" lines into buf (snprintf-style). */
int session__loss_text(struct session *s, char *buf, size_t len);
/*
 * 1 when f is about the machine (DIO_RULE_MACHINE) and --fail-on does not
 * name its analyzer or code: no gate counts it.
 */
int session__machine(struct session *s, const struct dio_finding *f);
/* Records lost that a run of dio could have kept (loss__dropped), the writer's among them. */
uint64_t session__dropped(struct session *s);
/*
 * Hand every finding, as sinks get it (subject, fingerprint and the rest set
 * by the host), to cb too (NULL: stop). The finding and its strings are valid
 * during the call only. cb returns 0, or -errno, which fails the session.
 */
void session__on_finding(struct session *s, int (*cb)(void *ud, const struct dio_finding *f),
			 void *ud);
/* The path of a file tag as the records so far named it; NULL when unknown. */
const char *session__tag_path(struct session *s, const struct dio_file_tag *tag);

#endif
