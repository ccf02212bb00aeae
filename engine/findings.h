/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the host adds to a finding for CI: a subject and a fingerprint that
 * stay the same across runs of one workload, its URI, whether a --suppress
 * entry silences it, and whether the --baseline log had it.
 */
#ifndef DIO_ENGINE_FINDINGS_H
#define DIO_ENGINE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>
#include <dio/plugin.h>

/*
 * Exit status when --fail-on counted a finding (and dio and the command
 * succeeded): apart from 1 (dio failed) and 2 (bad usage).
 */
#define DIO_EXIT_FINDINGS	3

/*
 * path normalised into buf: relative to srcroot (absolute, without a
 * trailing '/'; NULL: none) when under it, every run of decimal digits as
 * "N". Returns 1 when the path was under srcroot. buf always ends in NUL.
 */
int findings_subject(const char *path, const char *srcroot, char *buf, size_t len);

/* "info", "warning" or "error" for DIO_SEV_*, the words --fail-on takes; "?" for others. */
const char *findings_severity(uint32_t sev);

/*
 * The host's own kinds of finding ("dio.*"), ended by an entry whose code is
 * NULL: listed after the analyzers' for sinks (host->rule) and by `dio list
 * rules`.
 */
extern const struct dio_rule findings_host_rules[];

/* The fingerprint of (code, subject, process name): 16 hex digits and a NUL. */
void findings_fingerprint(const char *code, const char *subject, const char *comm, char out[17]);

/*
 * path as a URI reference into buf: relative to srcroot when under it, else
 * "file://" and the absolute path; characters outside RFC 3986's unreserved
 * set and '/' percent-encoded. Returns 1 when relative to srcroot.
 */
int findings_uri(const char *path, const char *srcroot, char *buf, size_t len);

/* --suppress entries */
struct suppressions;

/*
 * Read a suppression file (libconfig syntax, see dio(1)). NULL on failure
 * with "FILE:LINE: what" in err and errno set.
 */
struct suppressions *suppressions__load(const char *path, char *err, size_t errlen);
/* The reason of the first entry that matches f (subject, fingerprint set), or NULL. */
const char *suppressions__match(const struct suppressions *s, const struct dio_finding *f);
void suppressions__free(struct suppressions *s);

/* The results of an earlier SARIF log written by dio */
struct baseline;

/* NULL on failure with "FILE: what" in err and errno set. */
struct baseline *baseline__load(const char *path, char *err, size_t errlen);
/* DIO_BASELINE_NEW or _UNCHANGED for a fingerprint; marks it seen. */
int baseline__classify(struct baseline *b, const char *fingerprint);
/*
 * A pattern under its analyzer's floors (dio_finding.below) with this
 * fingerprint and count: DIO_BASELINE_UNCHANGED, and the baseline's result
 * marked seen, when the baseline had it with at most twice the count (its
 * "count" property; any count when it had none); else DIO_BASELINE_NONE:
 * gone, or shrunk to under half, the baseline's result stays absent (fixed).
 */
int baseline__persists(struct baseline *b, const char *fingerprint, uint64_t count);
/*
 * The baseline's results no finding of this run matched, one at a time from
 * *i = 0: 1 and f filled (code, title, severity, subject, fingerprint, uri,
 * comm; strings owned by b), or 0 at the end.
 */
int baseline__next_absent(struct baseline *b, size_t *i, struct dio_finding *f);
void baseline__free(struct baseline *b);

/*
 * Findings of a run held until its end, one per fingerprint: two results of
 * one run with the same fingerprint (the same code, subject and program) are
 * one finding, their counts, costs and processes added, the text of the more
 * severe (then the larger) kept and a line saying how many it stands for.
 */
struct held;

/* Room for max fingerprints; NULL with errno. */
struct held *held__new(size_t max);
/*
 * Copy f (fingerprint set) in, or into the held finding with its
 * fingerprint. pass: 0 for a result added to the others (an analyzer's
 * record or finish); else the number of the round of judgement (an
 * analyzer's tick, or the finish after ticks) that stated f whole: f
 * replaces a finding an earlier round stated, and adds to one of the same
 * round. Returns the finding's index (the order its fingerprint first
 * came), -ENOSPC when max fingerprints are held already (deliver f now),
 * -ENOMEM.
 */
int held__add(struct held *h, const struct dio_finding *f, uint64_t pass);
/* The held finding of index i (from held__add), as it stands: no note on what it merged. */
struct dio_finding *held__get(struct held *h, size_t i);
/*
 * Each held finding, in the order the first of each came, its message
 * saying how many results it merged: cb's return, if not 0, stops. Once:
 * the note is added to the findings.
 */
int held__each(struct held *h, int (*cb)(void *ud, struct dio_finding *f), void *ud);
void held__free(struct held *h);

#endif
