/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict of a session: its findings classified for CI (suppressed,
 * new or unchanged against a baseline), merged by fingerprint, capped per
 * code, handed to the sinks that take findings, and the exit status.
 */
#ifndef DIO_ENGINE_VERDICT_H
#define DIO_ENGINE_VERDICT_H

#include <stddef.h>
#include <dio/plugin.h>
#include "modules.h"
#include "options.h"

struct verdict;

/*
 * Load --suppress and --baseline. The findings go to the finding sinks of m
 * and the rules are theirs, whenever they have started. NULL with errno and
 * a one-line reason in err.
 */
struct verdict *verdict__new(const struct options *o, struct modules *m, char *err,
			     size_t errlen);
void verdict__free(struct verdict *v);
/*
 * A module's finding (host->emit_finding): copied, given the host's fields
 * and held to the end, or delivered at once when the held table is full.
 * 0, or -errno (-EINVAL: a finding smaller than ABI 1's).
 */
int verdict__emit(struct verdict *v, const struct dio_finding *f, const char *analyzer);
/* The rule i of the analyzers' and then the host's (host->rule); NULL past the last. */
const struct dio_rule *verdict__rule(struct verdict *v, unsigned int i, const char **analyzer);
/*
 * A round of judgement begins (the analyzers' ticks, or their finish):
 * until verdict__send or verdict__end, a finding emitted states itself
 * whole, and replaces what an earlier round emitted of its fingerprint.
 */
void verdict__begin(struct verdict *v);
/*
 * The round is over: each held finding emitted since the last one goes to
 * the live sinks (dio_sink.live), the first time as a finding, then as an
 * update (dio_finding.update) with its figures as they stand. The others
 * get it at the end. 0, or the last sink's -errno (it said why).
 */
int verdict__send(struct verdict *v);
/* The end of the findings: the held ones, one per code --max-findings cut, the baseline's absent ones. */
void verdict__end(struct verdict *v);
/*
 * The exit status once the findings are in: code when not 0 (dio's failure
 * or the command's status), else DIO_EXIT_FINDINGS when --fail-on counted a
 * finding. With --baseline or --suppress, one line on stderr compares them.
 */
int verdict__status(struct verdict *v, int code);
/* 1 when f is about the machine and --fail-on does not name its analyzer or code */
int verdict__machine(struct verdict *v, const struct dio_finding *f);
/* Every finding as sinks get it to cb too (NULL: stop); see session__on_finding. */
void verdict__on_finding(struct verdict *v, int (*cb)(void *ud, const struct dio_finding *f),
			 void *ud);

#endif
