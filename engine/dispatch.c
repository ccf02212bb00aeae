// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A record, from the ring or a trace file, on its way to the modules
 * subscribed to its type: checked once at the boundary, rewritten where
 * modules must see it otherwise (--hash user, an older recording), its path
 * named in the tag table, its file descriptions followed, handed to dio
 * record's writer as it came. The losses of the session are counted here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dispatch.h"
#include "loss.h"
#include "ofdtab.h"
#include "probe.h"
#include "proc.h"
#include "record.h"
#include "selfstats.h"
#include "tagtab.h"
#include "util.h"

/*
 * Processes whose open files are followed (for modules that want DIO_EV_OFD):
 * past that many, the one named least recently is forgotten. Live, those
 * gone from the machine without their exit record are swept each time the
 * table holds twice what the last sweep left (and OFD_SWEEP_MIN): a kill(0)
 * per process, amortised over the processes that came since.
 */
#define OFD_PROCS	65536
#define OFD_SWEEP_MIN	256

struct dispatch {
	const struct options *o;
	struct modules *m;	/* who wants which record */
	struct tagtab *tags;
	struct ofdtab *ofds;	/* when a module wants DIO_EV_OFD */
	size_t ofd_sweep_at;	/* processes in it that call for a sweep; 0: no sweeps */
	uint64_t last_ts;	/* of the latest record: when the trace ended */
	uint64_t span[2];	/* the earliest and latest times of all records dispatched */
	uint64_t events;
	const char *malformed_why;	/* the first record refused at the boundary: why, static */
	uint16_t malformed_type;	/* and its type */
	struct loss loss;	/* the kernel's counters, then the host's (loss.h) */
	int failed;		/* a module returned an error */
	struct probe *probe;	/* live: the kernel's counters */
	struct selfstats *stats;	/* --stats, while tracing live */
	/* a replay's --pid, --comm, --path, ... filter, after the check */
	int (*keep)(void *ud, const struct dio_ev_hdr *h);
	void *keep_ud;
	/* dio record: every record also goes here */
	int (*rec)(void *ud, const void *rec, size_t size);
	int (*rec_tick)(void *ud);	/* every drain period: what must reach the disk by now */
	/* the recorder's counts among the losses: the writer's drops, the parts' paths */
	void (*rec_loss)(void *ud, struct loss *l);
	void *rec_ud;
	uint64_t exits;		/* processes gone since the last sweep of the in-flight tables */
	/* a record as modules see it when it is not as it came: the largest syscall record fits */
	char rewrite[sizeof(struct dio_ev_syscall) + 3 * DIO_PATH_MAX + 64];
};

_Static_assert(sizeof(((struct dispatch *)0)->rewrite) >=
	       sizeof(struct dio_ev_syscall) + 2 * DIO_PATH_MAX + sizeof(struct dio_ev_content) +
	       DIO_PATH_MAX, "a checked syscall record fits the rewrite buffer");

struct dispatch *dispatch__new(const struct options *o, struct modules *m)
{
	struct dispatch *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->o = o;
	d->m = m;
	/*
	 * Twice the kernel's table of the tags it sent: a tag the kernel still
	 * knows, and so will not send again, is one the host still knows.
	 */
	d->tags = tagtab__new(2 * (size_t)o->tag_entries);
	if (!d->tags) {
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

int dispatch__start(struct dispatch *d)
{
	if (d->m->nby[DIO_EV_OFD] && !(d->ofds = ofdtab__new(OFD_PROCS)))
		return -ENOMEM;
	return 0;
}

void dispatch__free(struct dispatch *d)
{
	if (!d)
		return;
	tagtab__free(d->tags);
	ofdtab__free(d->ofds);
	free(d);
}

static void refresh_counters(struct dispatch *d)
{
	if (d->probe && !probe__counters(d->probe, d->loss.n))
		d->loss.n[LOSS_KPATHS_EVICTED] =
			loss__kernel_paths_evicted(d->loss.n[DIO_CNT_TAG_NEW],
						   probe__tag_entries(d->probe));
	if (d->rec_loss)
		d->rec_loss(d->rec_ud, &d->loss);
	d->loss.n[LOSS_PATHS_EVICTED] = tagtab__evicted(d->tags);
	if (d->ofds) {
		d->loss.n[LOSS_OFD_EVICTED] = ofdtab__evicted(d->ofds);
		d->loss.n[LOSS_OFD_SWEPT] = ofdtab__swept(d->ofds);
	}
}

/* A record refused at the boundary: counted, the first one's reason kept for the report. */
static int malformed(struct dispatch *d, const struct dio_ev_hdr *h, size_t size, const char *why)
{
	if (!d->loss.n[LOSS_MALFORMED]++) {
		d->malformed_why = why;
		d->malformed_type = size >= sizeof(*h) ? h->type : 0;
	}
	return 0;
}

/*
 * --hash user: the kernel sent the first bytes of the buffer; hash them here
 * and keep only what --capture-data asked for. The ring is read-only, so the
 * record is rewritten in the session's buffer. NULL when the record says it
 * hashed bytes it does not hold (the kernel sends all it hashes in this mode).
 */
static const void *hash_in_user(struct dispatch *d, const struct dio_ev_syscall *ev)
{
	size_t strs = (size_t)ev->str_len[0] + ev->str_len[1];
	struct dio_ev_content ct;
	const uint8_t *data = (const uint8_t *)dio_ev_syscall_content(ev, &ct);
	uint32_t keep;
	uint64_t h = 0xcbf29ce484222325ULL;

	if (ct.hashed_len > ct.data_len)
		return NULL;
	memcpy(d->rewrite, ev, ev->hdr.size);
	for (uint32_t i = 0; i < ct.hashed_len; i++) {
		h ^= data[i];
		h *= 0x100000001b3ULL;
	}
	keep = ct.data_len < d->o->capture_bytes ? ct.data_len : d->o->capture_bytes;
	ct.hash = h;
	ct.data_len = keep;
	memcpy(d->rewrite + sizeof(*ev) + strs, &ct, sizeof(ct));
	((struct dio_ev_hdr *)d->rewrite)->size = sizeof(*ev) + strs + sizeof(ct) + keep;
	return d->rewrite;
}

static int to_modules(struct dispatch *d, const struct dio_ev_hdr *h)
{
	for (int i = 0; i < d->m->nby[h->type]; i++) {
		struct plugin *p = d->m->by_type[h->type][i];
		int e = p->an ? p->an->event(p->state, h) : p->sk->event(p->state, h);

		if (e < 0) {
			warn_msg("%s %s failed: %s", p->an ? "analyzer" : "sink", p->name,
				 strerror(-e));
			d->failed = 1;
			return e;
		}
	}
	return 0;
}

/* The descriptions the last record ended, after that record. */
static int ended_to_modules(struct dispatch *d)
{
	const struct dio_ev_ofd *r;
	size_t n = ofdtab__ended(d->ofds, &r);
	int e = 0;

	for (size_t i = 0; !e && i < n; i++)
		e = to_modules(d, &r[i].hdr);
	return e;
}

/*
 * Follow fds and descriptions through a syscall or process record. A
 * syscall record of a recording made before descriptions had ids gets the
 * one the table numbered (*h then points to a copy).
 */
static int follow_descriptions(struct dispatch *d, const struct dio_ev_hdr **h)
{
	int64_t id;

	if ((*h)->ts > d->last_ts)
		d->last_ts = (*h)->ts;
	if ((*h)->type == DIO_EV_PROC)
		return ofdtab__proc(d->ofds, (const void *)*h);
	id = ofdtab__syscall(d->ofds, (const void *)*h);
	if (id < 0)
		return (int)id;
	if (id && ((const struct dio_ev_syscall *)*h)->ofd != id) {
		if ((const void *)*h != d->rewrite) {
			memcpy(d->rewrite, *h, (*h)->size);
			*h = (const void *)d->rewrite;
		}
		((struct dio_ev_syscall *)d->rewrite)->ofd = (uint32_t)id;
	}
	return 0;
}

static int pid_gone(void *ud, uint32_t pid)
{
	(void)ud;
	return (int32_t)pid > 0 && task_gone((pid_t)pid, 0);
}

/*
 * Live, with dio in the initial pid namespace: the processes followed that
 * are gone, their exit record lost or left out by a filter (--comm), end
 * what they held now, once the records they sent before are in. 0 or a
 * module's error.
 */
static int sweep_ofds(struct dispatch *d)
{
	size_t left;
	int e = 0;

	if (!d->ofds || !d->ofd_sweep_at)
		return 0;
	if (ofdtab__mark_gone(d->ofds, pid_gone, NULL))
		e = probe__drain(d->probe);
	if (e < 0)
		return e;
	e = ofdtab__sweep(d->ofds, d->last_ts);
	if (!e)
		e = ended_to_modules(d);
	left = ofdtab__procs(d->ofds);
	d->ofd_sweep_at = 2 * left > OFD_SWEEP_MIN ? 2 * left : OFD_SWEEP_MIN;
	return e;
}

int dispatch__record(struct dispatch *d, const void *rec, size_t size)
{
	const struct dio_ev_hdr *h = rec;
	const char *why;
	int e, follows;

	/* the one check of the record: nothing after it looks at sizes or string ends */
	if (record_check(rec, size, 0, &why))
		return malformed(d, h, size, why);
	if (d->keep && !d->keep(d->keep_ud, h))
		return 0;
	d->events++;
	if (h->ts && (!d->span[0] || h->ts < d->span[0]))
		d->span[0] = h->ts;
	if (h->ts > d->span[1])
		d->span[1] = h->ts;
	/* as it came from the ring: a replay goes through this same function */
	if (d->rec && !d->failed) {
		e = d->rec(d->rec_ud, rec, h->size);
		if (e) {
			die_msg("writing the trace file failed: %s (what was written before is kept)",
				strerror(-e));
			d->failed = 1;
			return e;
		}
	}
	/* a process record of an older recording: modules see the fields appended since as 0 */
	if (h->type == DIO_EV_PROC && h->size < sizeof(struct dio_ev_proc)) {
		memset(d->rewrite, 0, sizeof(struct dio_ev_proc));
		memcpy(d->rewrite, rec, h->size);
		((struct dio_ev_hdr *)d->rewrite)->size = sizeof(struct dio_ev_proc);
		h = (const void *)d->rewrite;
	}
	if (h->type == DIO_EV_SYSCALL && d->o->hash == HASH_USER &&
	    (((const struct dio_ev_syscall *)h)->flags & DIO_SF_HASH)) {
		h = hash_in_user(d, rec);
		if (!h)
			return malformed(d, rec, size, "content hashed past the bytes it holds");
	}
	if (h->type == DIO_EV_PATH && tagtab__set_path(d->tags, rec))
		return -ENOMEM;
	/* a file in use keeps its path when the table must forget one */
	if (h->type == DIO_EV_SYSCALL && (((const struct dio_ev_syscall *)h)->flags & DIO_SF_FILE))
		tagtab__touch(d->tags, &((const struct dio_ev_syscall *)h)->tag);
	else if (h->type == DIO_EV_IOURING)
		tagtab__touch(d->tags, &((const struct dio_ev_iouring *)h)->tag);
	if (h->type == DIO_EV_PROC && ((const struct dio_ev_proc *)h)->kind == DIO_PROC_EXIT &&
	    (((const struct dio_ev_proc *)h)->flags & DIO_PROCF_GROUP_DEAD))
		d->exits++;
	follows = d->ofds && (h->type == DIO_EV_SYSCALL || h->type == DIO_EV_PROC);
	if (follows && (e = follow_descriptions(d, &h)) < 0)
		return e;
	e = to_modules(d, h);
	if (!e && follows)
		e = ended_to_modules(d);
	return e;
}

void dispatch__record_to(struct dispatch *d, int (*add)(void *ud, const void *rec, size_t size),
			  int (*tick)(void *ud), void (*lost)(void *ud, struct loss *l), void *ud)
{
	d->rec = add;
	d->rec_tick = tick;
	d->rec_loss = lost;
	d->rec_ud = ud;
}

int dispatch__ring(void *ctx, void *data, size_t size)
{
	struct dispatch *d = ctx;

	if (d->stats)
		selfstats__record(d->stats, size);
	/* a negative return stops libbpf's polling: only for a real failure */
	return dispatch__record(d, data, size);
}

void dispatch__report_loss(struct dispatch *d)
{
	refresh_counters(d);
	loss__warn(&d->loss);
	if (d->loss.n[LOSS_MALFORMED])
		warn_msg("%llu malformed records were left out, counted as lost (the first, of type %u: %s)",
			 (unsigned long long)d->loss.n[LOSS_MALFORMED], d->malformed_type,
			 d->malformed_why ? d->malformed_why : "?");
}

uint64_t dispatch__malformed(const struct dispatch *d)
{
	return d->loss.n[LOSS_MALFORMED];
}

uint64_t dispatch__dropped(struct dispatch *d)
{
	refresh_counters(d);
	return loss__dropped(&d->loss);
}

int dispatch__loss_text(struct dispatch *d, char *buf, size_t len)
{
	int n;

	refresh_counters(d);
	n = snprintf(buf, len, "events=%llu\n", (unsigned long long)d->events);
	if (n < 0 || (size_t)n >= len)
		return n;
	return n + loss__meta(&d->loss, buf + n, len - n);
}

const char *dispatch__tag_path(struct dispatch *d, const struct dio_file_tag *tag)
{
	return tagtab__lookup(d->tags, tag);
}

void dispatch__filter(struct dispatch *d, int (*keep)(void *ud, const struct dio_ev_hdr *h),
		      void *ud)
{
	d->keep = keep;
	d->keep_ud = ud;
}

int dispatch__tick(struct dispatch *d)
{
	int e;

	if (!d->rec_tick || d->failed || !(e = d->rec_tick(d->rec_ud)))
		return 0;
	die_msg("writing the trace file failed: %s (what was written before is kept)", strerror(-e));
	d->failed = 1;
	return e;
}

int dispatch__end(struct dispatch *d)
{
	if (!d->ofds || d->failed)
		return 0;
	ofdtab__end(d->ofds, d->last_ts);
	return ended_to_modules(d);
}

void dispatch__fail(struct dispatch *d)
{
	d->failed = 1;
}

int dispatch__failed(const struct dispatch *d)
{
	return d->failed;
}

void dispatch__set_probe(struct dispatch *d, struct probe *p)
{
	refresh_counters(d);
	d->probe = p;
	/* live: the processes followed can be looked up when their pids are ours */
	if (p && d->ofds && pids_are_ours())
		d->ofd_sweep_at = OFD_SWEEP_MIN;
}

int dispatch__sweep(struct dispatch *d, int end)
{
	if (end)
		return d->failed ? 0 : sweep_ofds(d);
	if (d->ofd_sweep_at && ofdtab__procs(d->ofds) >= d->ofd_sweep_at)
		return sweep_ofds(d);
	return 0;
}

void dispatch__set_stats(struct dispatch *d, struct selfstats *st)
{
	d->stats = st;
}

uint64_t dispatch__exits(struct dispatch *d, int swept)
{
	uint64_t n = d->exits;

	if (swept)
		d->exits = 0;
	return n;
}

void dispatch__span(const struct dispatch *d, uint64_t span[2])
{
	span[0] = d->span[0];
	span[1] = d->span[1];
}

void dispatch__stats(struct dispatch *d, struct dio_stats *st)
{
	refresh_counters(d);
	st->events = d->events;
	loss__stats(&d->loss, st);
}

struct loss *dispatch__loss(struct dispatch *d)
{
	return &d->loss;
}
