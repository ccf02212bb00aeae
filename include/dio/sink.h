/* SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause) */
/*
 * Sink modules: where events and findings go. A module exports exactly one
 * symbol, `dio_sink`, a const struct dio_sink.
 */
#ifndef DIO_SINK_H
#define DIO_SINK_H

#include <dio/plugin.h>

#define DIO_SINK_ABI		DIO_PLUGIN_ABI
#define DIO_SINK_SYMBOL		"dio_sink"

struct dio_sink {
	uint32_t abi;		/* DIO_SINK_ABI */
	uint32_t size;		/* sizeof(struct dio_sink) */
	/* ABI 1 */
	const char *name;
	const char *description;
	uint64_t events;	/* DIO_EV_MASK() of the records it wants */
	uint32_t findings;	/* 1: deliver findings */
	uint32_t pad;
	const struct dio_option *options;
	int (*init)(const struct dio_host *host, struct dio_ctx *ctx,
		    const struct dio_optval *opts, void **state);
	/* One record, checked by the host as dio/event.h says, valid only during the call.
	 * 0 or -errno. */
	int (*event)(void *state, const struct dio_ev_hdr *ev);
	/* One finding, valid only during the call. 0 or -errno. */
	int (*finding)(void *state, const struct dio_finding *f);
	/* Write out anything buffered (called on the drain timer and at the end). */
	int (*flush)(void *state);
	void (*destroy)(void *state);
	/*
	 * ABI 1, appended: the session is over and every finding was delivered
	 * (the last ones, DIO_BASELINE_ABSENT, just before): write the report.
	 * 0 or -errno. NULL: nothing to do.
	 */
	int (*finish)(void *state);
	/*
	 * ABI 1, appended: 1 to be given findings as soon as they are judged
	 * (dio trace --report-every), each fingerprint once, and then its
	 * updates (dio_finding.update) as its count grows, the last at the end.
	 * 0 (and older modules): each finding once, at the end, with its final
	 * figures, as a report written at finish needs.
	 */
	uint32_t live;
	uint32_t pad2;
};

#endif /* DIO_SINK_H */
