// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The html sink's series over time (timeline.h): buckets whose width doubles
 * as the session grows, kept per thread, thread group, device, file and
 * process, and written as JSON for the page's timeline, I/O rate and
 * offset views.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sinks/html/timeline.h"

#define LANES_SHOWN	40	/* thread lanes on the page; the rest in "other threads" */
#define GROUPS_SHOWN	12
#define OFILES_SHOWN	12	/* files in the offset view */
#define OSERIES_SHOWN	48

static const char *const class_names[TL_CLASSES] = {
	"data", "sync", "meta", "dir", "xattr", "async", "other",
};

int tl_init(struct timeline *t, uint64_t t0)
{
	memset(t, 0, sizeof(*t));
	t->t0 = t0;
	t->width = 1000;
	t->lanes[TL_LANES].group = -1;
	t->oseries = calloc(2 * TL_OSERIES, sizeof(*t->oseries));
	return t->oseries ? 0 : -ENOMEM;
}

void tl_free(struct timeline *t)
{
	for (uint32_t i = 0; i <= TL_LANES; i++)
		free(t->lanes[i].cells);
	for (uint32_t i = 0; i < t->ngroups; i++)
		free(t->groups[i].cells);
	for (uint32_t i = 0; i <= TL_DEVS; i++)
		free(t->devs[i].cells);
	for (uint32_t i = 0; t->oseries && i < 2 * TL_OSERIES; i++)
		free(t->oseries[i].cells);
	free(t->oseries);
	free(t->runq);
}

/* ---- buckets ------------------------------------------------------------------ */

static void merge_cells(struct tl_cell *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < TL_BUCKETS / 2; i++) {
		struct tl_cell a = c[2 * i], b = c[2 * i + 1];

		for (int k = 0; k < TL_CLASSES; k++)
			a.ns[k] += b.ns[k];
		a.calls += b.calls;
		c[i] = a;
	}
	memset(c + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof(*c));
}

static void merge_gcells(struct tl_gcell *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < TL_BUCKETS / 2; i++) {
		struct tl_gcell a = c[2 * i], b = c[2 * i + 1];

		a.calls += b.calls;
		a.rbytes += b.rbytes;
		a.wbytes += b.wbytes;
		c[i] = a;
	}
	memset(c + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof(*c));
}

static void merge_bcells(struct tl_bcell *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < TL_BUCKETS / 2; i++) {
		struct tl_bcell a = c[2 * i], b = c[2 * i + 1];

		a.count += b.count;
		a.ns += b.ns;
		a.rbytes += b.rbytes;
		a.wbytes += b.wbytes;
		c[i] = a;
	}
	memset(c + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof(*c));
}

static void merge_ocells(struct tl_ocell *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < TL_BUCKETS / 2; i++) {
		struct tl_ocell a = c[2 * i], b = c[2 * i + 1];

		if (!a.calls) {
			a = b;
		} else if (b.calls) {
			a.lo = b.lo < a.lo ? b.lo : a.lo;
			a.hi = b.hi > a.hi ? b.hi : a.hi;
			a.calls += b.calls;
			a.empty += b.empty;
		}
		c[i] = a;
	}
	memset(c + TL_BUCKETS / 2, 0, TL_BUCKETS / 2 * sizeof(*c));
}

/* buckets twice as wide: each pair added into one */
static void rescale(struct timeline *t)
{
	t->width *= 2;
	t->used = (t->used + 1) / 2;
	for (uint32_t i = 0; i <= TL_LANES; i++)
		merge_cells(t->lanes[i].cells);
	for (uint32_t i = 0; i < t->ngroups; i++)
		merge_gcells(t->groups[i].cells);
	for (uint32_t i = 0; i <= TL_DEVS; i++)
		merge_bcells(t->devs[i].cells);
	merge_bcells(t->runq);
	for (uint32_t i = 0; i < 2 * TL_OSERIES; i++)
		merge_ocells(t->oseries[i].cells);
}

/* the bucket of time ts (before t0: the first); the width grows until it fits */
static uint32_t at(struct timeline *t, uint64_t ts)
{
	uint64_t d = ts > t->t0 ? ts - t->t0 : 0, b;

	while (d / t->width >= TL_BUCKETS)
		rescale(t);
	b = d / t->width;
	if (b + 1 > t->used)
		t->used = (uint32_t)b + 1;
	return (uint32_t)b;
}

/*
 * The buckets in use reach time ts where the width lets them: the series spans
 * the last records too, even those it does not show (a process's exit), but
 * only what it shows sets the width.
 */
void tl_reach(struct timeline *t, uint64_t ts)
{
	uint64_t d = ts > t->t0 ? ts - t->t0 : 0, b = d / t->width;

	if (b + 1 > t->used)
		t->used = b < TL_BUCKETS ? (uint32_t)b + 1 : TL_BUCKETS;
}

/* how much of [ts, ts + dur) lies in bucket b */
static uint64_t overlap(const struct timeline *t, uint32_t b, uint64_t ts, uint64_t dur)
{
	uint64_t lo = t->t0 + b * t->width, hi = lo + t->width;
	uint64_t s = ts > lo ? ts : lo, e = ts + dur < hi ? ts + dur : hi;

	return e > s ? e - s : 0;
}

/* TL_BUCKETS cells of elem bytes at *p, once; 0, or -ENOMEM with the timeline marked */
static int cells(struct timeline *t, void *p, size_t elem)
{
	void **cp = p;

	if (*cp)
		return 0;
	*cp = calloc(TL_BUCKETS, elem);
	if (*cp)
		return 0;
	t->oom = 1;
	return -ENOMEM;
}

/* ---- threads and groups ----------------------------------------------------------- */

uint32_t tl_lane(struct timeline *t, uint32_t tid, uint32_t pid, int32_t group)
{
	struct tl_lane *l;

	if (t->nlanes == TL_LANES) {
		t->unlaned++;
		return TL_LANES;
	}
	l = &t->lanes[t->nlanes];
	l->tid = tid;
	l->pid = pid;
	l->group = group;
	return t->nlanes++;
}

int tl_call(struct timeline *t, uint32_t lane, const struct dio_ev_syscall *e, unsigned int cls)
{
	struct tl_lane *l = &t->lanes[lane];
	uint64_t ts = e->hdr.ts;
	uint32_t b0, b1;

	if (cells(t, &l->cells, sizeof(*l->cells)))
		return -ENOMEM;
	/* the name the thread had then: a new one from this call on */
	if (lane < TL_LANES && (!l->nnames ||
				strncmp(l->names[l->nnames - 1].comm, e->comm, DIO_COMM_LEN))) {
		uint32_t i = l->nnames < TL_NAMES ? l->nnames++ : TL_NAMES - 1;

		l->names[i].ts = ts;
		memcpy(l->names[i].comm, e->comm, DIO_COMM_LEN);
		l->names[i].comm[DIO_COMM_LEN - 1] = 0;
	}
	b1 = at(t, ts + e->duration);
	b0 = at(t, ts);
	l->cells[b0].calls++;
	for (uint32_t b = b0; b <= b1; b++)
		l->cells[b].ns[cls] += overlap(t, b, ts, e->duration);
	l->calls++;
	l->ns += e->duration;
	return 0;
}

/* name starts with one of the comma-separated prefixes of list, any case */
static int listed(const char *list, const char *name)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");

		if (n && !strncasecmp(name, p, n))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

int32_t tl_group(struct timeline *t, uint32_t pid, const char *comm)
{
	char name[DIO_COMM_LEN];
	struct tl_group *g;
	uint32_t i;

	dio_thread_group(comm, name);
	for (i = 0; i < t->ngroups; i++)
		if (t->groups[i].pid == pid && !strcmp(t->groups[i].name, name))
			break;
	if (i == t->ngroups) {
		if (i == TL_GROUPS)
			return -1;
		g = &t->groups[t->ngroups++];
		g->pid = pid;
		memcpy(g->name, name, sizeof(name));
		g->background = (uint8_t)listed(DIO_BACKGROUND_GROUPS, name);
	}
	t->groups[i].threads++;
	return (int32_t)i;
}

void tl_group_call(struct timeline *t, int32_t group, uint64_t ts, uint64_t rbytes,
		   uint64_t wbytes)
{
	struct tl_group *g;
	uint32_t b;

	if (group < 0) {
		t->ungrouped++;
		return;
	}
	g = &t->groups[group];
	if (cells(t, &g->cells, sizeof(*g->cells)))
		return;
	b = at(t, ts);
	g->cells[b].calls++;
	g->cells[b].rbytes += rbytes;
	g->cells[b].wbytes += wbytes;
	g->calls++;
	g->rbytes += rbytes;
	g->wbytes += wbytes;
}

/* ---- block requests and run-queue waits -------------------------------------------- */

/* a request's time and count into c, bytes by its direction */
static void add_request(struct timeline *t, struct tl_bcell *c, uint64_t ts, uint64_t dur,
			uint64_t rbytes, uint64_t wbytes)
{
	uint32_t b1 = at(t, ts + dur), b0 = at(t, ts);

	c[b0].count++;
	c[b0].rbytes += rbytes;
	c[b0].wbytes += wbytes;
	for (uint32_t b = b0; b <= b1; b++)
		c[b].ns += overlap(t, b, ts, dur);
}

int tl_block(struct timeline *t, const struct dio_ev_block *r)
{
	uint32_t i;
	const char *op = r->rwbs;

	for (i = 0; i < t->ndevs && t->devs[i].dev != r->dev; i++)
		;
	if (i == t->ndevs) {
		if (t->ndevs < TL_DEVS)
			t->devs[t->ndevs++].dev = r->dev;
		else
			i = TL_DEVS;
	}
	if (cells(t, &t->devs[i].cells, sizeof(struct tl_bcell)))
		return -ENOMEM;
	/* a preflush before the data: "FWS" is a write */
	if (op[0] == 'F' && (op[1] == 'R' || op[1] == 'W'))
		op++;
	t->devs[i].count++;
	add_request(t, t->devs[i].cells, r->hdr.ts, r->duration, op[0] == 'R' ? r->bytes : 0,
		    op[0] == 'W' ? r->bytes : 0);
	return 0;
}

int tl_runq(struct timeline *t, const struct dio_ev_runq *r)
{
	if (cells(t, &t->runq, sizeof(*t->runq)))
		return -ENOMEM;
	t->nrunq++;
	add_request(t, t->runq, r->hdr.ts, r->delay, 0, 0);
	return 0;
}

/* ---- offsets ---------------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

int tl_offset(struct timeline *t, const struct dio_ev_syscall *e, int write)
{
	const uint32_t cap = 2 * TL_OSERIES;
	uint32_t i = (uint32_t)mix64(e->tag.ino ^ (uint64_t)e->tag.dev << 32 ^ e->tag.gen ^
				     (uint64_t)e->pid << 17 ^ (uint64_t)write) & (cap - 1);
	struct tl_oseries *s;
	struct tl_ocell *c;
	int64_t end;

	if ((e->flags & (DIO_SF_FILE | DIO_SF_OFFSET)) != (DIO_SF_FILE | DIO_SF_OFFSET) ||
	    dio_ret_failed(e->ret))
		return 0;
	for (;; i = (i + 1) & (cap - 1)) {
		s = &t->oseries[i];
		if (!s->used || (s->pid == e->pid && s->write == write && s->tag.ino == e->tag.ino &&
				 s->tag.dev == e->tag.dev && s->tag.gen == e->tag.gen))
			break;
	}
	if (!s->used) {
		if (t->noseries == TL_OSERIES) {
			t->unseries++;
			return 0;
		}
		t->noseries++;
		s->used = 1;
		s->tag = e->tag;
		s->pid = e->pid;
		s->write = (uint8_t)write;
		memcpy(s->comm, e->comm, DIO_COMM_LEN);
		s->comm[DIO_COMM_LEN - 1] = 0;
	}
	if (cells(t, &s->cells, sizeof(*s->cells)))
		return -ENOMEM;
	c = &s->cells[at(t, e->hdr.ts)];
	/* a crafted record's end can pass the largest offset: it stops there */
	end = e->ret > 0 && e->offset > INT64_MAX - e->ret ? INT64_MAX :
	      e->offset + (e->ret > 0 ? e->ret : 0);
	if (!c->calls || e->offset < c->lo)
		c->lo = e->offset;
	if (!c->calls || end > c->hi)
		c->hi = end;
	c->calls++;
	c->empty += !write && e->ret == 0;
	s->calls++;
	return 0;
}

/* ---- the slowest calls -------------------------------------------------------------- */

static void heap_down(struct tl_span *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		struct tl_span tmp;

		if (l < n && h[l].dur < h[m].dur)
			m = l;
		if (l + 1 < n && h[l + 1].dur < h[m].dur)
			m = l + 1;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

void tl_span(struct timeline *t, const struct dio_ev_syscall *e, unsigned int cls)
{
	struct tl_span s = {
		.ts = e->hdr.ts, .dur = e->duration, .tid = e->tid, .nr = e->nr,
		.tag = e->tag, .cls = (uint8_t)cls, .file = !!(e->flags & DIO_SF_FILE),
	};

	if (t->nspans < TL_SPANS) {
		/* up the heap */
		uint32_t i = t->nspans++;

		while (i && t->spans[(i - 1) / 2].dur > s.dur) {
			t->spans[i] = t->spans[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		t->spans[i] = s;
	} else if (s.dur > t->spans[0].dur) {
		t->spans[0] = s;
		heap_down(t->spans, t->nspans, 0);
	}
}

/* ---- the page's JSON ------------------------------------------------------------------ */

void page_str(struct rbuf *b, const char *s)
{
	struct rbuf t = { 0 };

	rbuf_json(&t, s);
	for (size_t i = 0; i < t.len; i++) {
		if (t.p[i] == '<')
			rbuf_str(b, "\\u003c");
		else
			rbuf_mem(b, &t.p[i], 1);
	}
	if (t.oom)
		b->oom = 1;
	rbuf_free(&t);
}

/* a lane's cells that hold something: [bucket, calls, ns, class with the most time] */
static void json_cells(struct rbuf *b, const struct tl_cell *c, uint32_t used)
{
	int first = 1;

	rbuf_str(b, "[");
	for (uint32_t i = 0; c && i < used; i++) {
		uint64_t ns = 0;
		unsigned int top = 0;

		for (unsigned int k = 0; k < TL_CLASSES; k++) {
			ns += c[i].ns[k];
			if (c[i].ns[k] > c[i].ns[top])
				top = k;
		}
		if (!ns && !c[i].calls)
			continue;
		rbuf_fmt(b, "%s[%u,%u,%" PRIu64 ",%u]", first ? "" : ",", i, c[i].calls, ns, top);
		first = 0;
	}
	rbuf_str(b, "]");
}

static void json_bcells(struct rbuf *b, const struct tl_bcell *c, uint32_t used, int bytes)
{
	int first = 1;

	rbuf_str(b, "[");
	for (uint32_t i = 0; c && i < used; i++) {
		if (!c[i].count && !c[i].ns)
			continue;
		rbuf_fmt(b, "%s[%u,%u,%" PRIu64, first ? "" : ",", i, c[i].count, c[i].ns);
		if (bytes)
			rbuf_fmt(b, ",%" PRIu64 ",%" PRIu64, c[i].rbytes, c[i].wbytes);
		rbuf_str(b, "]");
		first = 0;
	}
	rbuf_str(b, "]");
}

/* tid is one a finding names */
static int named_tid(const struct rfindings *fs, uint32_t tid)
{
	for (size_t i = 0; fs && i < fs->n; i++)
		if (fs->v[i].f.tid == tid)
			return 1;
	return 0;
}

static int named_path(const struct rfindings *fs, const char *path)
{
	for (size_t i = 0; path && fs && i < fs->n; i++)
		if (fs->v[i].f.path && !strcmp(fs->v[i].f.path, path))
			return 1;
	return 0;
}

/* order of shown things: by a key, descending; ties by index */
struct rank {
	uint64_t key;
	uint32_t i;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void json_lanes(struct timeline *t, struct rbuf *b, const struct rfindings *found,
		       uint64_t origin)
{
	struct rank r[TL_LANES];
	struct tl_cell *rest = calloc(TL_BUCKETS, sizeof(*rest));
	const struct tl_lane *o = &t->lanes[TL_LANES];
	uint64_t rest_calls = o->calls, rest_ns = o->ns, rest_threads = t->unlaned;
	uint32_t shown = t->nlanes < LANES_SHOWN ? t->nlanes : LANES_SHOWN;

	/* the threads findings name, then by time in calls */
	for (uint32_t i = 0; i < t->nlanes; i++) {
		r[i].i = i;
		r[i].key = t->lanes[i].ns / 2 + (named_tid(found, t->lanes[i].tid) ? UINT64_MAX / 2 : 0);
	}
	qsort(r, t->nlanes, sizeof(*r), rank_cmp);
	rbuf_str(b, "\"lanes\":[");
	for (uint32_t k = 0; k < shown; k++) {
		const struct tl_lane *l = &t->lanes[r[k].i];
		const struct tl_group *g = l->group >= 0 ? &t->groups[l->group] : NULL;

		rbuf_fmt(b, "%s{\"tid\":%u,\"pid\":%u,\"names\":[", k ? "," : "", l->tid, l->pid);
		for (uint32_t n = 0; n < l->nnames; n++) {
			rbuf_fmt(b, "%s[%" PRId64 ",", n ? "," : "",
				 (int64_t)(l->names[n].ts - t->t0 + origin));
			page_str(b, l->names[n].comm);
			rbuf_str(b, "]");
		}
		rbuf_str(b, "],\"group\":");
		page_str(b, g ? g->name : NULL);
		rbuf_fmt(b, ",\"background\":%s,\"calls\":%" PRIu64 ",\"ns\":%" PRIu64 ",\"cells\":",
			 g && g->background ? "true" : "false", l->calls, l->ns);
		json_cells(b, l->cells, t->used);
		rbuf_str(b, "}");
	}
	/* the rest in one lane */
	for (uint32_t k = shown; k <= t->nlanes; k++) {
		const struct tl_lane *l = k < t->nlanes ? &t->lanes[r[k].i] : o;

		if (k < t->nlanes) {
			rest_calls += l->calls;
			rest_ns += l->ns;
			rest_threads++;
		}
		for (uint32_t i = 0; rest && l->cells && i < t->used; i++) {
			for (int c = 0; c < TL_CLASSES; c++)
				rest[i].ns[c] += l->cells[i].ns[c];
			rest[i].calls += l->cells[i].calls;
		}
	}
	if (!rest)
		t->oom = 1;
	rbuf_fmt(b, "],\"others\":{\"threads\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"ns\":%" PRIu64
		 ",\"cells\":", rest_threads, rest_calls, rest_ns);
	json_cells(b, rest_threads ? rest : NULL, t->used);
	rbuf_str(b, "}");
	free(rest);
}

static void json_groups(struct timeline *t, struct rbuf *b)
{
	struct rank r[TL_GROUPS];
	uint32_t shown = t->ngroups < GROUPS_SHOWN ? t->ngroups : GROUPS_SHOWN;

	for (uint32_t i = 0; i < t->ngroups; i++) {
		r[i].i = i;
		r[i].key = t->groups[i].calls;
	}
	qsort(r, t->ngroups, sizeof(*r), rank_cmp);
	rbuf_str(b, "\"groups\":[");
	for (uint32_t k = 0; k < shown; k++) {
		const struct tl_group *g = &t->groups[r[k].i];
		int first = 1;

		rbuf_fmt(b, "%s{\"pid\":%u,\"name\":", k ? "," : "", g->pid);
		page_str(b, g->name);
		rbuf_fmt(b, ",\"background\":%s,\"threads\":%u,\"calls\":%" PRIu64 ",\"read\":%" PRIu64
			 ",\"written\":%" PRIu64 ",\"cells\":[", g->background ? "true" : "false",
			 g->threads, g->calls, g->rbytes, g->wbytes);
		for (uint32_t i = 0; g->cells && i < t->used; i++) {
			const struct tl_gcell *c = &g->cells[i];

			if (!c->calls)
				continue;
			rbuf_fmt(b, "%s[%u,%u,%" PRIu64 ",%" PRIu64 "]", first ? "" : ",", i, c->calls,
				 c->rbytes, c->wbytes);
			first = 0;
		}
		rbuf_str(b, "]}");
	}
	rbuf_fmt(b, "],\"groups_counted\":%u,\"groups_hidden\":%u", t->ngroups,
		 t->ngroups - shown);
}

static void json_device(struct rbuf *b, const struct tl_dev *d, const char *name,
			uint32_t used, int first)
{
	rbuf_str(b, first ? "{\"dev\":" : ",{\"dev\":");
	page_str(b, name);
	rbuf_fmt(b, ",\"requests\":%" PRIu64 ",\"cells\":", d->count);
	json_bcells(b, d->cells, used, 1);
	rbuf_str(b, "}");
}

static void json_devices(struct timeline *t, struct rbuf *b)
{
	rbuf_str(b, "\"devices\":[");
	for (uint32_t i = 0; i < t->ndevs; i++) {
		char name[24];

		snprintf(name, sizeof(name), "%u:%u", DIO_DEV_MAJOR(t->devs[i].dev),
			 DIO_DEV_MINOR(t->devs[i].dev));
		json_device(b, &t->devs[i], name, t->used, !i);
	}
	if (t->devs[TL_DEVS].count)
		json_device(b, &t->devs[TL_DEVS], "other devices", t->used, !t->ndevs);
	rbuf_fmt(b, "],\"runq\":{\"waits\":%" PRIu64 ",\"cells\":", t->nrunq);
	json_bcells(b, t->runq, t->used, 0);
	rbuf_str(b, "}");
}

static void json_offsets(struct timeline *t, struct rbuf *b, const struct dio_host *host,
			 struct dio_ctx *ctx, const struct rfindings *found)
{
	struct rank *r = calloc(t->noseries ? t->noseries : 1, sizeof(*r));
	const char **paths = calloc(t->noseries ? t->noseries : 1, sizeof(*paths));
	uint32_t n = 0, shown = 0, files = 0;

	if (!r || !paths) {
		t->oom = 1;
		rbuf_str(b, "\"offsets\":[]");
		free(r);
		free(paths);
		return;
	}
	for (uint32_t i = 0; i < 2 * TL_OSERIES; i++) {
		if (!t->oseries[i].used)
			continue;
		paths[n] = host->tag_path(ctx, &t->oseries[i].tag);
		r[n++].i = i;
	}
	/* a file's series together: its key is the file's, by path (a file made anew
	 * under the same path is the same file to the reader) */
	for (uint32_t k = 0; k < n; k++) {
		uint64_t calls = 0;

		for (uint32_t j = 0; j < n; j++)
			if (paths[j] && paths[k] ? !strcmp(paths[j], paths[k]) : j == k)
				calls += t->oseries[r[j].i].calls;
		r[k].key = (calls < UINT64_MAX / 4 ? calls : UINT64_MAX / 4) +
			   (named_path(found, paths[k]) ? UINT64_MAX / 2 : 0);
	}
	/* by key, then path, then process and direction (at most TL_OSERIES: a plain sort) */
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t j = k + 1; j < n; j++) {
			const struct tl_oseries *a = &t->oseries[r[k].i], *o = &t->oseries[r[j].i];
			int c = r[j].key > r[k].key ? 1 : r[j].key < r[k].key ? -1 :
				paths[j] && paths[k] && strcmp(paths[k], paths[j]) ?
				strcmp(paths[k], paths[j]) :
				o->pid != a->pid ? (o->pid < a->pid) - (o->pid > a->pid) :
				(o->write < a->write) - (o->write > a->write);
			if (c > 0) {
				struct rank tr = r[k];
				const char *tp = paths[k];

				r[k] = r[j];
				r[j] = tr;
				paths[k] = paths[j];
				paths[j] = tp;
			}
		}
	rbuf_str(b, "\"offsets\":[");
	for (uint32_t k = 0; k < n && shown < OSERIES_SHOWN; k++) {
		const struct tl_oseries *s = &t->oseries[r[k].i];
		char tag[DIO_FILE_TAG_LEN];
		int first = 1;

		if (!k || !paths[k] || !paths[k - 1] || strcmp(paths[k], paths[k - 1])) {
			if (files == OFILES_SHOWN)
				break;
			files++;
		}
		dio_file_tag_format(&s->tag, tag, sizeof(tag));
		rbuf_str(b, shown++ ? ",{\"path\":" : "{\"path\":");
		page_str(b, paths[k]);
		rbuf_str(b, ",\"tag\":");
		page_str(b, tag);
		rbuf_fmt(b, ",\"pid\":%u,\"comm\":", s->pid);
		page_str(b, s->comm);
		rbuf_fmt(b, ",\"op\":\"%s\",\"calls\":%" PRIu64 ",\"cells\":[",
			 s->write ? "write" : "read", s->calls);
		for (uint32_t i = 0; s->cells && i < t->used; i++) {
			const struct tl_ocell *c = &s->cells[i];

			if (!c->calls)
				continue;
			rbuf_fmt(b, "%s[%u,%" PRId64 ",%" PRId64 ",%u,%u]", first ? "" : ",", i, c->lo,
				 c->hi, c->calls, c->empty);
			first = 0;
		}
		rbuf_str(b, "]}");
	}
	rbuf_fmt(b, "],\"offset_series\":%u,\"offset_series_hidden\":%u,\"offset_calls_uncounted\":%"
		 PRIu64, t->noseries, t->noseries - shown, t->unseries);
	free(r);
	free(paths);
}

static int span_cmp(const void *a, const void *b)
{
	const struct tl_span *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void json_spans(struct timeline *t, struct rbuf *b, const struct dio_host *host,
		       struct dio_ctx *ctx, uint64_t origin)
{
	qsort(t->spans, t->nspans, sizeof(*t->spans), span_cmp);
	rbuf_str(b, "\"spans\":[");
	for (uint32_t i = 0; i < t->nspans; i++) {
		const struct tl_span *s = &t->spans[i];

		rbuf_fmt(b, "%s[%" PRId64 ",%" PRIu64 ",%u,", i ? "," : "",
			 (int64_t)(s->ts - t->t0 + origin), s->dur, s->tid);
		page_str(b, host->syscall_name(s->nr));
		rbuf_fmt(b, ",%u,", s->cls);
		page_str(b, s->file ? host->tag_path(ctx, &s->tag) : NULL);
		rbuf_str(b, "]");
	}
	rbuf_str(b, "]");
}

void tl_json(struct timeline *t, struct rbuf *b, const struct dio_host *host,
	     struct dio_ctx *ctx, uint64_t origin, const struct rfindings *found)
{
	rbuf_fmt(b, "\"timeline\":{\"origin\":%" PRIu64 ",\"width\":%" PRIu64 ",\"buckets\":%u,"
		 "\"classes\":[", origin, t->width, t->used);
	for (int c = 0; c < TL_CLASSES; c++)
		rbuf_fmt(b, "%s\"%s\"", c ? "," : "", class_names[c]);
	rbuf_str(b, "],");
	json_lanes(t, b, found, origin);
	rbuf_str(b, ",");
	json_devices(t, b);
	rbuf_str(b, ",");
	json_spans(t, b, host, ctx, origin);
	rbuf_str(b, "},\"rates\":{");
	json_groups(t, b);
	rbuf_fmt(b, ",\"ungrouped_calls\":%" PRIu64 "},\"offsets\":{", t->ungrouped);
	json_offsets(t, b, host, ctx, found);
	rbuf_fmt(b, "},\"series_incomplete\":%s", t->oom ? "true" : "false");
}
