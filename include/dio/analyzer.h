/* SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause) */
/*
 * Analyzer modules. A module is a shared object that exports exactly one
 * symbol, `dio_analyzer`, a const struct dio_analyzer. See docs/writing-an-analyzer.md.
 */
#ifndef DIO_ANALYZER_H
#define DIO_ANALYZER_H

#include <dio/plugin.h>

#define DIO_ANALYZER_ABI	DIO_PLUGIN_ABI
#define DIO_ANALYZER_SYMBOL	"dio_analyzer"

struct dio_analyzer {
	uint32_t abi;		/* DIO_ANALYZER_ABI */
	uint32_t size;		/* sizeof(struct dio_analyzer) */
	/* ABI 1 */
	const char *name;
	const char *description;	/* one line, for `dio list analyzers` */
	uint64_t events;	/* DIO_EV_MASK() of the records it wants; no others are delivered */
	const struct dio_option *options;	/* NULL-name-terminated, or NULL */
	/* Set up; opts follows the options array. *state is passed to every later call.
	 * 0 or -errno. */
	int (*init)(const struct dio_host *host, struct dio_ctx *ctx,
		    const struct dio_optval *opts, void **state);
	/* One record, checked by the host as dio/event.h says. The record is only valid during
	 * the call. 0, or -errno to stop the session. */
	int (*event)(void *state, const struct dio_ev_hdr *ev);
	/* End of the event stream: report what is still pending. 0 or -errno. */
	int (*finish)(void *state);
	/* Free everything; state may be NULL. */
	void (*destroy)(void *state);
	/*
	 * ABI 1, appended: the kinds of finding it reports, ended by an entry
	 * whose code is NULL; NULL: none declared. CI reports list them (SARIF
	 * rules, one JUnit test case per rule, passing when it found nothing).
	 */
	const struct dio_rule *rules;
	/*
	 * ABI 1, appended (NULL: it reports at finish only): a live session
	 * calls it every --report-every seconds, between records. now_ns is
	 * CLOCK_MONOTONIC, as record times; records still to come are newer,
	 * but for calls running now (a record comes when its call returns,
	 * with the time it began) and the last few ms not drained. Report
	 * what is judged by now and will not change with the records to come,
	 * as finish would: the host sends a finding to the sinks at once. A
	 * finding emitted here states the whole of it so far: emitted again
	 * (by a later tick, or by finish, which must emit again what a tick
	 * reported, with the same code, path and comm and its final figures),
	 * it replaces what was emitted before instead of adding to it.
	 * 0 or -errno.
	 */
	int (*tick)(void *state, uint64_t now_ns);
};

#endif /* DIO_ANALYZER_H */
