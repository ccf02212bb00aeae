// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one live loop of dio trace, dio record and dio top: signals end it,
 * as do the command's exit, the end of every traced process and -d; each
 * round the caller's tick runs. dio trace's tick flushes the sinks, lets
 * dio record's writer catch up, sweeps the probe's in-flight tables and the
 * session's table of open files.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include "live.h"
#include "probe.h"
#include "proc.h"
#include "selfstats.h"
#include "session.h"
#include "util.h"

#define SWEEP_MS	1000		/* the in-flight tables are swept this often */
#define SWEEP_EXITS	64		/* or after this many processes ended */
#define BLOCK_AGE_NS	(60 * 1000000000ULL)	/* a block request older was never seen completing */
#define BLOCK_END_AGE_NS 1000000000ULL		/* the same when the trace ends */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void on_sigchld(int sig)
{
	(void)sig;	/* only to interrupt the poll */
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

int live__open(struct live *l)
{
	/*
	 * SA_RESTART: a sink's write to a file system that can be interrupted
	 * (NFS, 9p, FUSE) must not fail with EINTR because the traced program
	 * exited. The loop still sees every signal: poll and epoll_wait are never
	 * restarted, whatever the flag (signal(7)).
	 */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART },
			 sc = { .sa_handler = on_sigchld, .sa_flags = SA_RESTART };
	char err[1024];

	l->child = (struct child){ .pid = -1, .gate = -1 };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sc, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (procs_check_ids(l->o))
		return 1;
	/* the kernel's BPF statistics count from before the programs run */
	if (l->o->stats && !(l->stats = selfstats__new())) {
		die_msg("--stats: out of memory");
		return 1;
	}
	if (l->o->argv && child__spawn(&l->child, l->o->argv, err, sizeof(err))) {
		die_msg("%s", err);
		return 127;
	}
	l->probe = probe__new(l->o, l->on_record, l->record_ctx, err, sizeof(err));
	if (!l->probe) {
		die_msg("%s", err);
		child__abort(&l->child);
		return 1;
	}
	return 0;
}

int live__go(struct live *l)
{
	int e;

	for (int i = 0; i < l->o->npids; i++) {
		e = probe__trace_pid(l->probe, l->o->pids[i]);
		if (e) {
			die_msg("cannot %s process %d: %s", l->verb, l->o->pids[i], strerror(-e));
			child__abort(&l->child);
			return 1;
		}
	}
	if (l->child.pid > 0) {
		e = probe__trace_pid(l->probe, l->child.pid);
		if (!e)
			e = child__release(&l->child);
		if (e) {
			die_msg("cannot start the command: %s", strerror(-e));
			child__abort(&l->child);
			return 1;
		}
	}
	return 0;
}

int live__run(struct live *l)
{
	uint64_t start = now_ms(), last_check = 0;
	int e;

	if (l->stats)
		selfstats__consumer_start(l->stats);
	while (!stop_signal) {
		e = probe__poll(l->probe, l->wait_ms);
		if (l->stats)
			selfstats__poll(l->stats, e);
		if (e < 0 && e != -EINTR) {
			l->error = e;
			return LIVE_FAILED;
		}
		if (l->child.pid > 0 && !l->exited &&
		    waitpid(l->child.pid, &l->status, WNOHANG) == l->child.pid) {
			l->exited = 1;
			return LIVE_EXITED;
		}
		if (l->o->duration > 0 && now_ms() - start >= (uint64_t)(l->o->duration * 1000))
			return LIVE_DURATION;
		if (now_ms() - last_check >= 200) {
			last_check = now_ms();
			if (procs_nothing_left(l->o))
				return LIVE_GONE;
		}
		e = l->tick ? l->tick(l) : 0;
		if (e > 0)
			return LIVE_STOPPED;
		if (e < 0) {
			l->error = 0;
			return LIVE_FAILED;
		}
	}
	return LIVE_SIGNAL;
}

int live__status(const struct live *l, int code)
{
	if (!code && l->exited)
		return exit_code_of(l->status);
	if (!code && stop_signal && l->child.pid > 0)
		return 128 + stop_signal;
	return code;
}

void live__close(struct live *l)
{
	probe__free(l->probe);
	l->probe = NULL;
}

/* dio trace's: the session, and when the in-flight tables were last swept and findings sent */
struct tracing {
	struct session *s;
	uint64_t last_sweep, last_report;
};

static int trace_tick(struct live *l)
{
	struct tracing *tr = l->ud;
	double every = session__options(tr->s)->report_every;
	int e = session__tick(tr->s);

	if (e)
		return e;
	/* --report-every: between records, as an analyzer's calls must be */
	if (every > 0 && now_ms() - tr->last_report >= (uint64_t)(every * 1000)) {
		struct timespec ts;

		tr->last_report = now_ms();
		clock_gettime(CLOCK_MONOTONIC, &ts);
		e = session__report(tr->s, (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
		if (e)
			return e;
	}
	/*
	 * The in-flight tables fail when full instead of evicting: what
	 * nobody removes (a process's mappings at its exit, requests its
	 * end cancelled, a completion the kernel never showed) is swept.
	 */
	if (now_ms() - tr->last_sweep >= SWEEP_MS ||
	    (session__exits(tr->s, 0) >= SWEEP_EXITS && now_ms() - tr->last_sweep >= SWEEP_MS / 8)) {
		probe__sweep(l->probe, BLOCK_AGE_NS);
		tr->last_sweep = now_ms();
		session__exits(tr->s, 1);
	}
	return session__sweep(tr->s, 0);
}

int live__trace(struct session *s)
{
	struct tracing tr = { .s = s };
	struct live l = { .o = session__options(s), .verb = "trace", .tick = trace_tick, .ud = &tr };
	int e, code;

	l.wait_ms = (int)l.o->drain_ms;
	session__ring(s, &l.on_record, &l.record_ctx);
	code = live__open(&l);
	/* the session counts what the ring delivers, reads the probe's losses and keeps the figures */
	session__set_stats(s, l.stats);
	if (!code) {
		session__set_probe(s, l.probe);
		code = live__go(&l);
	}
	if (code) {
		session__set_probe(s, NULL);
		live__close(&l);
		return code;
	}
	tr.last_sweep = tr.last_report = now_ms();
	if (live__run(&l) == LIVE_FAILED) {
		if (l.error && !session__failed(s))
			die_msg("reading the ring buffer failed: %s", strerror(-l.error));
		code = 1;
	}
	/* everything the kernel produced before the stop */
	e = probe__drain(l.probe);
	/* a request issued a second ago and not complete lost its completion, or ends too late */
	probe__sweep(l.probe, BLOCK_END_AGE_NS);
	/* what a process gone unseen held ends with it, not with the trace */
	if (session__sweep(s, 1))
		code = 1;
	session__set_probe(s, NULL);	/* its counters, before it goes */
	if (l.stats) {
		selfstats__poll(l.stats, e);
		selfstats__consumer_stop(l.stats);
		e = selfstats__progs(l.stats, probe__object(l.probe));
		if (e)
			warn_msg("--stats: cannot read the BPF programs' run times: %s", strerror(-e));
	}
	live__close(&l);
	if (session__finish(s))
		code = 1;
	return session__status(s, live__status(&l, code));
}
