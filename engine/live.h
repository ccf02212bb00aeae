/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio's live side: the signals that stop it, the command it starts or the
 * processes it attaches to, the probe, and the one loop that polls the ring
 * until the end, with a callback each round. dio trace and dio record run a
 * session in it (live__trace); dio top its counters.
 */
#ifndef DIO_ENGINE_LIVE_H
#define DIO_ENGINE_LIVE_H

#include <stddef.h>
#include "options.h"
#include "proc.h"

struct probe;
struct selfstats;
struct session;

/* Why live__run ended */
enum live_end {
	LIVE_SIGNAL,	/* SIGINT, SIGTERM or SIGHUP */
	LIVE_EXITED,	/* the command exited: live.status */
	LIVE_GONE,	/* every process traced is gone */
	LIVE_DURATION,	/* -d SECONDS passed */
	LIVE_STOPPED,	/* the tick said so */
	LIVE_FAILED,	/* live.error: the poll's -errno; 0: the tick failed and said why */
};

struct live {
	/* the caller's */
	struct options *o;
	const char *verb;	/* "trace", "count": what dio could not do to a -p process */
	int (*on_record)(void *ctx, void *data, size_t size);	/* each record of the ring */
	void *record_ctx;
	/*
	 * Each round that goes on after the poll: 0 to go on, 1 to stop, or
	 * -errno when it failed (it said why). It may change wait_ms.
	 */
	int (*tick)(struct live *l);
	void *ud;
	int wait_ms;		/* the longest one poll waits */
	/* live__open's */
	struct probe *probe;
	struct selfstats *stats;	/* --stats, or NULL: the caller's to free */
	struct child child;
	/* live__run's */
	int exited;		/* the command exited, with this wait status: */
	int status;
	int error;		/* LIVE_FAILED */
};

/*
 * Catch the stop signals, check the -p ids, turn on --stats, start the
 * command (held until live__go) and open the probe. 0, or dio's exit status
 * (1, or 127 when the command could not start) after saying why.
 */
int live__open(struct live *l);
/* Attach to the -p processes and let the command run: 0, or 1 after saying why. */
int live__go(struct live *l);
/* Poll and tick until the end; why it ended (enum live_end). */
int live__run(struct live *l);
/* dio's exit status after a run: code when not 0, else the command's, or 128 + a signal. */
int live__status(const struct live *l, int code);
/* The probe goes. */
void live__close(struct live *l);

/*
 * dio trace and dio record: the session fed by the probe until the command
 * exits, the traced processes are gone, the duration passes or a signal
 * arrives; then the session finishes. Returns dio's exit status.
 */
int live__trace(struct session *s);

#endif
