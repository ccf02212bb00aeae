// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the BPF rings: one a CPU (bpf/maps.bpf.h), their records handed on
 * in the order they were made. Each record has a time it was made at (the
 * caller's key: for a call, its exit); the reader hands on the oldest head
 * of all rings, and in a periodic read only those made before the read
 * began. That bound keeps each thread's records in order: a thread's records
 * are committed in the order it makes them, and a record committed after the
 * read began was timed after its thread's previous one was committed; so
 * when a record is handed on, every earlier record of its thread was either
 * there at the start or is newer than the bound. What comes later waits for
 * the next read (at most a drain period).
 *
 * Within a ring the kernel's layout (include/uapi/linux/bpf.h, kernel/bpf/
 * ringbuf.c): a page with the consumer position (mapped read-write), then a
 * page with the producer position and the data, mapped twice in a row so
 * that a record that wraps reads as one (read-only). Each record has an
 * 8-byte header: its length with a busy and a discard bit, then its offset.
 * The consumer position is written once every RINGRD_BATCH bytes and at the
 * end of a read, not after every record as libbpf's reader does: the
 * programs read it on every reserve, and a write per record moved its cache
 * line between the CPUs for every record.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>
#include "ringrd.h"

/* space is given back to the programs at least this often while reading */
#define RINGRD_BATCH	(256 << 10)

struct ring {
	size_t size;			/* the data area, a power of two */
	unsigned long *consumer;	/* the consumer position's page */
	void *producer;			/* the producer position's page, then the data twice */
	const char *data;
	unsigned long cons, told;	/* read up to; told the kernel up to */
	/* the head: the oldest record not handed on, when has */
	int has;
	__u32 len;
	const char *rec;
	uint64_t key;
};

struct ringrd {
	struct ring *r;
	int *heap;	/* the rings with a head, a binary min-heap by (key, index) */
	int nheap;
	int n, epfd;
	size_t page;
	ringrd_fn fn;
	ringrd_key key;
	void *ctx;
	int reading;	/* a callback reading again would hand records on twice */
};

static int map_ring(struct ringrd *rr, struct ring *g, int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	/*
	 * Edge-triggered: woken by the kernel's wakeups alone (a ring past
	 * --wakeup-at), not by records a read left for the next one, which
	 * would have the reader spin rather than drain on its period.
	 */
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1)))
		return -EINVAL;
	g->size = info.max_entries;
	g->consumer = mmap(NULL, rr->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (g->consumer == MAP_FAILED) {
		g->consumer = NULL;
		return -errno;
	}
	g->producer = mmap(NULL, rr->page + 2 * g->size, PROT_READ, MAP_SHARED, fd,
			   (off_t)rr->page);
	if (g->producer == MAP_FAILED) {
		g->producer = NULL;
		return -errno;
	}
	g->data = (const char *)g->producer + rr->page;
	if (epoll_ctl(rr->epfd, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	return 0;
}

struct ringrd *ringrd__new(const int *fds, int n, ringrd_fn fn, ringrd_key key, void *ctx)
{
	struct ringrd *rr = calloc(1, sizeof(*rr));
	int e = 0;

	if (!rr)
		return NULL;
	rr->page = (size_t)sysconf(_SC_PAGESIZE);
	rr->fn = fn;
	rr->key = key;
	rr->ctx = ctx;
	rr->epfd = epoll_create1(EPOLL_CLOEXEC);
	rr->r = n > 0 ? calloc((size_t)n, sizeof(*rr->r)) : NULL;
	rr->heap = n > 0 ? calloc((size_t)n, sizeof(*rr->heap)) : NULL;
	if (rr->epfd < 0 || !rr->r || !rr->heap) {
		e = n > 0 ? -errno : -EINVAL;
		goto fail;
	}
	for (; rr->n < n; rr->n++) {
		e = map_ring(rr, &rr->r[rr->n], fds[rr->n]);
		if (e) {
			rr->n++;	/* freed with the others */
			goto fail;
		}
	}
	return rr;
fail:
	ringrd__free(rr);
	errno = e < 0 ? -e : EINVAL;
	return NULL;
}

void ringrd__free(struct ringrd *rr)
{
	if (!rr)
		return;
	for (int i = 0; i < rr->n; i++) {
		struct ring *g = &rr->r[i];

		if (g->producer)
			munmap(g->producer, rr->page + 2 * g->size);
		if (g->consumer)
			munmap(g->consumer, rr->page);
	}
	free(rr->r);
	free(rr->heap);
	if (rr->epfd >= 0)
		close(rr->epfd);
	free(rr);
}

static unsigned long rec_span(__u32 len)
{
	return ((len & ~(__u32)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT)) +
		BPF_RINGBUF_HDR_SZ + 7) & ~7UL;
}

/* the ring's oldest record that is whole and not discarded, if any */
static void peek(const struct ringrd *rr, struct ring *g)
{
	unsigned long end = __atomic_load_n((const unsigned long *)g->producer, __ATOMIC_ACQUIRE);

	g->has = 0;
	while (g->cons < end) {
		const __u32 *hdr = (const void *)(g->data + (g->cons & (g->size - 1)));
		__u32 len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);

		if (len & BPF_RINGBUF_BUSY_BIT)
			return;		/* being written: it and what follows wait */
		if (len & BPF_RINGBUF_DISCARD_BIT) {
			g->cons += rec_span(len);
			continue;
		}
		g->has = 1;
		g->len = len;
		g->rec = (const char *)hdr + BPF_RINGBUF_HDR_SZ;
		g->key = rr->key ? rr->key(g->rec, len) : 0;
		return;
	}
}

static void tell(struct ring *g)
{
	if (g->cons != g->told) {
		__atomic_store_n(g->consumer, g->cons, __ATOMIC_RELEASE);
		g->told = g->cons;
	}
}

/* ring a's head goes before ring b's: older, or as old and from a lower ring */
static int before(const struct ringrd *rr, int a, int b)
{
	return rr->r[a].key < rr->r[b].key || (rr->r[a].key == rr->r[b].key && a < b);
}

/*
 * The heap's top changed (its ring's new head, or the last ring moved up):
 * sifted down. A heap rather than a look at every ring a record: a machine
 * has as many rings as CPUs, and few of them have records at a time.
 */
static void sift_down(struct ringrd *rr)
{
	int *h = rr->heap, i = 0;

	for (;;) {
		int l = 2 * i + 1, m = i, t;

		if (l < rr->nheap && before(rr, h[l], h[m]))
			m = l;
		if (l + 1 < rr->nheap && before(rr, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void push(struct ringrd *rr, int ring)
{
	int *h = rr->heap, i = rr->nheap++;

	h[i] = ring;
	while (i && before(rr, h[i], h[(i - 1) / 2])) {
		int p = (i - 1) / 2, t = h[i];

		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

int ringrd__consume(struct ringrd *rr, uint64_t bound)
{
	int n = 0, err = 0;

	if (rr->reading)
		return -EBUSY;
	rr->reading = 1;
	rr->nheap = 0;
	for (int i = 0; i < rr->n; i++) {
		struct ring *g = &rr->r[i];

		g->cons = g->told = __atomic_load_n(g->consumer, __ATOMIC_ACQUIRE);
		peek(rr, g);
		if (g->has)
			push(rr, i);
	}
	while (rr->nheap) {
		struct ring *g = &rr->r[rr->heap[0]];

		if (g->key > bound)
			break;
		g->cons += rec_span(g->len);
		/* the record is handed on from the ring itself, not a copy */
		err = rr->fn(rr->ctx, (void *)g->rec, g->len);
		if (err < 0)
			break;
		n++;
		if (g->cons - g->told >= RINGRD_BATCH)
			tell(g);
		peek(rr, g);
		if (!g->has)
			rr->heap[0] = rr->heap[--rr->nheap];
		sift_down(rr);
	}
	for (int i = 0; i < rr->n; i++)
		tell(&rr->r[i]);
	rr->reading = 0;
	return err < 0 ? err : n;
}

int ringrd__wait(struct ringrd *rr, int timeout_ms)
{
	struct epoll_event ev[8];

	if (epoll_wait(rr->epfd, ev, 8, timeout_ms) < 0)
		return -errno;
	return 0;
}
