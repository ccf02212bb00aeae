// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "ofdtab.h"

#define FD_LIMIT	(1u << 20)	/* fds above this are not followed */
#define OPEN_CLOEXEC	02000000	/* O_CLOEXEC, as open(2) and dup3(2) take it */
#define CMD_DUPFD	0		/* fcntl F_DUPFD */
#define CMD_SETFD	2		/* fcntl F_SETFD */
#define CMD_DUPFD_CLOEXEC 1030		/* fcntl F_DUPFD_CLOEXEC */
#define RANGE_CLOEXEC	4		/* close_range CLOSE_RANGE_CLOEXEC */

/*
 * A description alive in the table. The kernel reuses a freed struct file,
 * so an id can come back for a new description; serial tells them apart in
 * the fd slots that still name the old one.
 */
struct desc {
	struct desc *next;
	uint64_t open_ts;
	struct dio_file_tag tag;
	uint32_t id;
	uint32_t serial;
	uint32_t refs;		/* fd slots that hold it */
	uint32_t flags;		/* DIO_OFDF_* */
	uint8_t ftype;
};

struct fdslot {
	uint32_t id;
	uint32_t serial;	/* 0: unused */
	uint8_t cloexec;
};

struct proc {
	struct proc *next;
	struct fdslot *fds;	/* indexed by fd */
	uint32_t pid;
	uint32_t cap;
	uint8_t ref;		/* a record named it since the clock hand last passed */
	uint8_t gone;		/* found gone from the machine: the next sweep drops it */
};

/* who ended a description, for its record */
struct why {
	uint64_t ts;
	uint32_t pid;
	uint32_t tid;
	uint16_t nr;
	uint8_t how;
};

struct ofdtab {
	struct desc **desc;
	struct proc **proc;
	size_t ndesc, desc_cap;	/* buckets: powers of two */
	size_t nproc, proc_cap;
	size_t max_procs;	/* past it, the one least recently named goes */
	size_t hand;		/* the clock's next bucket of procs */
	uint64_t evicted;	/* processes dropped to stay within max_procs */
	uint64_t swept;		/* processes dropped because they were gone */
	uint32_t serial;	/* last handed out */
	uint32_t host_next;	/* next id for records without one */
	struct dio_ev_ofd *ended;
	size_t nended, ended_cap;
	int nomem;
};

static size_t hash32(uint32_t v, size_t cap)
{
	return (size_t)(((uint64_t)v * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

struct ofdtab *ofdtab__new(size_t max_procs)
{
	struct ofdtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->max_procs = max_procs ? max_procs : SIZE_MAX;
	t->desc_cap = t->proc_cap = 256;
	t->desc = calloc(t->desc_cap, sizeof(*t->desc));
	t->proc = calloc(t->proc_cap, sizeof(*t->proc));
	if (!t->desc || !t->proc) {
		ofdtab__free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->host_next = DIO_OFD_HOST;
	return t;
}

void ofdtab__free(struct ofdtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->desc && i < t->desc_cap; i++) {
		for (struct desc *d = t->desc[i], *n; d; d = n) {
			n = d->next;
			free(d);
		}
	}
	for (size_t i = 0; t->proc && i < t->proc_cap; i++) {
		for (struct proc *p = t->proc[i], *n; p; p = n) {
			n = p->next;
			free(p->fds);
			free(p);
		}
	}
	free(t->desc);
	free(t->proc);
	free(t->ended);
	free(t);
}

/* Double a chained table's buckets when it holds as many entries. */
#define GROW(t, field, cap, n, type, key)						\
	do {										\
		type **nb;								\
		if ((n) < (cap))							\
			break;								\
		nb = calloc((cap) * 2, sizeof(*nb));					\
		if (!nb)								\
			break;	/* longer chains, still correct */			\
		for (size_t i_ = 0; i_ < (cap); i_++) {					\
			for (type *e_ = (t)->field[i_], *n_; e_; e_ = n_) {		\
				size_t b_ = hash32(e_->key, (cap) * 2);			\
				n_ = e_->next;						\
				e_->next = nb[b_];					\
				nb[b_] = e_;						\
			}								\
		}									\
		free((t)->field);							\
		(t)->field = nb;							\
		(cap) *= 2;								\
	} while (0)

static struct desc *desc_find(const struct ofdtab *t, uint32_t id)
{
	for (struct desc *d = t->desc[hash32(id, t->desc_cap)]; d; d = d->next)
		if (d->id == id)
			return d;
	return NULL;
}

static void desc_unlink(struct ofdtab *t, struct desc *d)
{
	struct desc **pp = &t->desc[hash32(d->id, t->desc_cap)];

	while (*pp != d)
		pp = &(*pp)->next;
	*pp = d->next;
	t->ndesc--;
}

static void emit_end(struct ofdtab *t, const struct desc *d, const struct why *w, int32_t fd)
{
	struct dio_ev_ofd *r;

	if (t->nended == t->ended_cap) {
		size_t cap = t->ended_cap ? 2 * t->ended_cap : 16;
		struct dio_ev_ofd *n = realloc(t->ended, cap * sizeof(*n));

		if (!n) {
			t->nomem = 1;
			return;
		}
		t->ended = n;
		t->ended_cap = cap;
	}
	r = &t->ended[t->nended++];
	memset(r, 0, sizeof(*r));
	r->hdr.type = DIO_EV_OFD;
	r->hdr.size = sizeof(*r);
	r->hdr.ts = w->ts;
	r->pid = w->pid;
	r->tid = w->tid;
	r->ofd = d->id;
	r->fd = fd;
	r->tag = d->tag;
	r->open_ts = d->open_ts;
	r->nr = w->nr;
	r->how = w->how;
	r->ftype = d->ftype;
	r->flags = d->flags;
}

/* A slot lets go of its description; the last one ends it. */
static void release(struct ofdtab *t, struct fdslot *s, const struct why *w, int32_t fd)
{
	struct desc *d = desc_find(t, s->id);

	if (d && d->serial == s->serial && !--d->refs) {
		emit_end(t, d, w, fd);
		desc_unlink(t, d);
		free(d);
	}
	s->serial = 0;
}

/*
 * A new description. An id still in the table belongs to a description
 * whose end dio missed (a lost record, an fd closed by a process it does not
 * trace): that one ends now, and its slots go stale.
 */
static struct desc *desc_new(struct ofdtab *t, const struct dio_ev_syscall *ev, uint32_t id,
			     uint32_t flags, const struct why *w)
{
	struct desc *d = desc_find(t, id);
	size_t b;

	if (d) {
		emit_end(t, d, w, -1);
		desc_unlink(t, d);
		free(d);
	}
	GROW(t, desc, t->desc_cap, t->ndesc, struct desc, id);
	d = calloc(1, sizeof(*d));
	if (!d) {
		t->nomem = 1;
		return NULL;
	}
	d->id = id;
	if (!++t->serial)
		++t->serial;
	d->serial = t->serial;
	d->flags = flags | DIO_OFDF_FILE;
	d->tag = ev->tag;
	d->ftype = ev->ftype;
	d->open_ts = ev->hdr.ts;
	b = hash32(id, t->desc_cap);
	d->next = t->desc[b];
	t->desc[b] = d;
	t->ndesc++;
	return d;
}

static struct proc *proc_find(struct ofdtab *t, uint32_t pid)
{
	for (struct proc *p = t->proc[hash32(pid, t->proc_cap)]; p; p = p->next)
		if (p->pid == pid) {
			p->ref = 1;
			return p;
		}
	return NULL;
}

static void proc_drop(struct ofdtab *t, struct proc *p, const struct why *w);

/*
 * The table is full: the clock hand goes round the buckets and drops the
 * first process no record named since it last passed (keep, which the
 * caller holds, never). Its descriptions end as at the end of the trace.
 */
static void evict_one(struct ofdtab *t, const struct proc *keep, uint64_t ts)
{
	struct why w = { .ts = ts, .how = DIO_OFD_END };

	if (t->nproc <= (keep != NULL))
		return;
	for (;;) {
		for (struct proc *p = t->proc[t->hand]; p; p = p->next) {
			if (p == keep)
				continue;
			if (p->ref) {
				p->ref = 0;
				continue;
			}
			w.pid = p->pid;
			proc_drop(t, p, &w);
			t->evicted++;
			return;
		}
		t->hand = (t->hand + 1) & (t->proc_cap - 1);
	}
}

/* pid's entry, made when it has none; ts is the record's, for what an eviction ends */
static struct proc *proc_get(struct ofdtab *t, uint32_t pid, const struct proc *keep, uint64_t ts)
{
	struct proc *p = proc_find(t, pid);
	size_t b;

	if (p)
		return p;
	if (t->nproc >= t->max_procs)
		evict_one(t, keep, ts);
	GROW(t, proc, t->proc_cap, t->nproc, struct proc, pid);
	p = calloc(1, sizeof(*p));
	if (!p) {
		t->nomem = 1;
		return NULL;
	}
	/* unreferenced until a second record names it: a process seen once goes first */
	p->pid = pid;
	b = hash32(pid, t->proc_cap);
	p->next = t->proc[b];
	t->proc[b] = p;
	t->nproc++;
	return p;
}

/* Every fd of p lets go (the process ended), then p goes. */
static void proc_drop(struct ofdtab *t, struct proc *p, const struct why *w)
{
	struct proc **pp = &t->proc[hash32(p->pid, t->proc_cap)];

	for (uint32_t fd = 0; fd < p->cap; fd++)
		if (p->fds[fd].serial)
			release(t, &p->fds[fd], w, (int32_t)fd);
	while (*pp != p)
		pp = &(*pp)->next;
	*pp = p->next;
	t->nproc--;
	free(p->fds);
	free(p);
}

static struct fdslot *slot_at(struct ofdtab *t, struct proc *p, int64_t fd, int create)
{
	if (fd < 0 || fd >= FD_LIMIT)
		return NULL;
	if ((uint64_t)fd >= p->cap) {
		uint32_t cap = p->cap ? p->cap : 16;
		struct fdslot *n;

		if (!create)
			return NULL;
		while (cap <= (uint64_t)fd)
			cap *= 2;
		n = realloc(p->fds, cap * sizeof(*n));
		if (!n) {
			t->nomem = 1;
			return NULL;
		}
		memset(n + p->cap, 0, (cap - p->cap) * sizeof(*n));
		p->fds = n;
		p->cap = cap;
	}
	return &p->fds[fd];
}

/* The description a slot holds, or NULL (empty, or it went stale). */
static struct desc *slot_desc(struct ofdtab *t, struct fdslot *s)
{
	struct desc *d;

	if (!s || !s->serial)
		return NULL;
	d = desc_find(t, s->id);
	if (d && d->serial == s->serial)
		return d;
	s->serial = 0;
	return NULL;
}

/* fd of p now holds d; what it held before lets go (w says how). */
static void slot_set(struct ofdtab *t, struct proc *p, int64_t fd, struct desc *d, int cloexec,
		     const struct why *w)
{
	struct fdslot *s = slot_at(t, p, fd, 1);

	if (!s)
		return;
	if (s->serial) {
		if (s->id == d->id && s->serial == d->serial) {
			s->cloexec = cloexec;
			return;
		}
		release(t, s, w, (int32_t)fd);
	}
	s->id = d->id;
	s->serial = d->serial;
	s->cloexec = cloexec;
	d->refs++;
}

static void slot_close(struct ofdtab *t, struct proc *p, int64_t fd, const struct why *w)
{
	struct fdslot *s = slot_at(t, p, fd, 0);

	if (s && s->serial)
		release(t, s, w, (int32_t)fd);
}

static void close_range(struct ofdtab *t, struct proc *p, const struct dio_ev_syscall *ev,
			struct why *w)
{
	uint64_t first = (uint32_t)ev->args[0], last = (uint32_t)ev->args[1];

	w->how = DIO_OFD_CLOSE;
	for (uint64_t fd = first; fd <= last && fd < p->cap; fd++) {
		if (!p->fds[fd].serial)
			continue;
		if (ev->args[2] & RANGE_CLOEXEC)
			p->fds[fd].cloexec = 1;
		else
			release(t, &p->fds[fd], w, (int32_t)fd);
	}
}

static int is_open(uint32_t nr)
{
	return nr == SYS_open || nr == SYS_openat || nr == SYS_openat2 || nr == SYS_creat;
}

static int open_cloexec(const struct dio_ev_syscall *ev)
{
	switch (ev->nr) {
	case SYS_open:
		return !!(ev->args[1] & OPEN_CLOEXEC);
	case SYS_openat:
		return !!(ev->args[2] & OPEN_CLOEXEC);
	default:	/* creat never; openat2's flags are behind a pointer */
		return 0;
	}
}

/* A call through an fd that holds d: what it does to the fd table. */
static void follow_call(struct ofdtab *t, struct proc *p, const struct dio_ev_syscall *ev,
			struct desc *d, struct why *w)
{
	int64_t ret = ev->ret;

	switch (ev->nr) {
	case SYS_dup:
		w->how = DIO_OFD_CLOSE;	/* the new fd was free: what the table had there is stale */
		if (ret >= 0)
			slot_set(t, p, ret, d, 0, w);
		break;
	case SYS_dup2:
	case SYS_dup3:
		w->how = DIO_OFD_REPLACED;
		if (ret >= 0 && ret != ev->fd)
			slot_set(t, p, ret, d, ev->nr == SYS_dup3 && (ev->args[2] & OPEN_CLOEXEC), w);
		break;
	case SYS_fcntl:
		w->how = DIO_OFD_CLOSE;
		if (ret >= 0 && (ev->args[1] == CMD_DUPFD || ev->args[1] == CMD_DUPFD_CLOEXEC))
			slot_set(t, p, ret, d, ev->args[1] == CMD_DUPFD_CLOEXEC, w);
		else if (ret == 0 && ev->args[1] == CMD_SETFD)
			p->fds[ev->fd].cloexec = ev->args[2] & 1;
		break;
	case SYS_close:
		w->how = DIO_OFD_CLOSE;
		/* close lets go of the fd whatever it returns, but for EBADF */
		if (ret != -EBADF)
			slot_close(t, p, ev->fd, w);
		break;
	}
}

int64_t ofdtab__syscall(struct ofdtab *t, const struct dio_ev_syscall *ev)
{
	struct why w = { .ts = ev->hdr.ts, .pid = ev->pid, .tid = ev->tid, .nr = ev->nr,
			 .how = DIO_OFD_CLOSE };
	struct desc *d;
	struct proc *p;
	uint32_t id = ev->ofd;

	t->nended = 0;
	t->nomem = 0;
	if (ev->nr == SYS_close_range) {
		p = ev->ret == 0 ? proc_find(t, ev->pid) : NULL;
		if (p)
			close_range(t, p, ev, &w);
		return t->nomem ? -ENOMEM : 0;
	}
	if (!(ev->flags & DIO_SF_FILE) || ev->fd < 0 || ev->fd >= (int32_t)FD_LIMIT)
		return 0;
	p = proc_get(t, ev->pid, NULL, ev->hdr.ts);
	if (!p)
		return -ENOMEM;
	if (is_open(ev->nr) && ev->ret == ev->fd) {
		if (!id)
			id = t->host_next++ | DIO_OFD_HOST;
		d = desc_new(t, ev, id, DIO_OFDF_OPENED, &w);
		if (d)
			slot_set(t, p, ev->fd, d, open_cloexec(ev), &w);
		return t->nomem ? -ENOMEM : (int64_t)id;
	}
	d = slot_desc(t, slot_at(t, p, ev->fd, 0));
	if (!id)
		id = d ? d->id : (t->host_next++ | DIO_OFD_HOST);
	if (!d || d->id != id) {
		/* first seen here: inherited, received over a socket, or a missed call */
		d = desc_find(t, id);
		if (!d)
			d = desc_new(t, ev, id, 0, &w);
		if (d)
			slot_set(t, p, ev->fd, d, 0, &w);
	}
	if (d)
		follow_call(t, p, ev, d, &w);
	return t->nomem ? -ENOMEM : (int64_t)id;
}

int ofdtab__proc(struct ofdtab *t, const struct dio_ev_proc *ev)
{
	struct why w = { .ts = ev->hdr.ts, .pid = ev->pid, .tid = ev->tid };
	struct proc *p = proc_find(t, ev->pid), *c;

	t->nended = 0;
	t->nomem = 0;
	if (!p)
		return 0;
	switch (ev->kind) {
	case DIO_PROC_FORK:
		if (ev->flags & DIO_PROCF_THREAD)
			break;
		/* a pid dio still holds fds for was reused: that process ended */
		w.how = DIO_OFD_EXIT;
		c = proc_find(t, ev->other_pid);
		if (c) {
			w.pid = c->pid;	/* the one that held them, as dio/event.h says */
			proc_drop(t, c, &w);
			w.pid = ev->pid;
		}
		c = proc_get(t, ev->other_pid, p, ev->hdr.ts);
		for (uint32_t fd = 0; c && fd < p->cap; fd++) {
			struct desc *d = slot_desc(t, &p->fds[fd]);

			if (d)
				slot_set(t, c, fd, d, p->fds[fd].cloexec, &w);
		}
		break;
	case DIO_PROC_EXEC:
		w.how = DIO_OFD_EXEC;
		for (uint32_t fd = 0; fd < p->cap; fd++)
			if (p->fds[fd].serial && p->fds[fd].cloexec)
				release(t, &p->fds[fd], &w, (int32_t)fd);
		break;
	case DIO_PROC_EXIT:
		if (!(ev->flags & DIO_PROCF_GROUP_DEAD))
			break;
		w.how = DIO_OFD_EXIT;
		w.tid = ev->tid;
		proc_drop(t, p, &w);
		break;
	}
	return t->nomem ? -ENOMEM : 0;
}

void ofdtab__end(struct ofdtab *t, uint64_t ts)
{
	struct why w = { .ts = ts, .how = DIO_OFD_END };

	t->nended = 0;
	for (size_t i = 0; i < t->proc_cap; i++) {
		while (t->proc[i]) {
			w.pid = t->proc[i]->pid;
			proc_drop(t, t->proc[i], &w);
		}
	}
}

size_t ofdtab__mark_gone(struct ofdtab *t, int (*gone)(void *ud, uint32_t pid), void *ud)
{
	size_t n = 0;

	for (size_t i = 0; i < t->proc_cap; i++)
		for (struct proc *p = t->proc[i]; p; p = p->next)
			if (!p->gone && gone(ud, p->pid))
				n += p->gone = 1;
	return n;
}

int ofdtab__sweep(struct ofdtab *t, uint64_t ts)
{
	struct why w = { .ts = ts, .how = DIO_OFD_EXIT };

	t->nended = 0;
	t->nomem = 0;
	for (size_t i = 0; i < t->proc_cap; i++) {
		for (struct proc *p = t->proc[i], *n; p; p = n) {
			n = p->next;
			if (!p->gone)
				continue;
			w.pid = p->pid;
			proc_drop(t, p, &w);
			t->swept++;
		}
	}
	return t->nomem ? -ENOMEM : 0;
}

size_t ofdtab__procs(const struct ofdtab *t)
{
	return t->nproc;
}

uint64_t ofdtab__evicted(const struct ofdtab *t)
{
	return t->evicted;
}

uint64_t ofdtab__swept(const struct ofdtab *t)
{
	return t->swept;
}

size_t ofdtab__ended(const struct ofdtab *t, const struct dio_ev_ofd **out)
{
	*out = t->ended;
	return t->nended;
}
