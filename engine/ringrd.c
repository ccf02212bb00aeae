// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the BPF ring: libbpf's ring_buffer__consume, but telling the
 * kernel what was read once a batch rather than after every record. The
 * programs read the ring's consumer position on every reserve; a write to it
 * after each record moved that cache line to the reader's CPU and back for
 * every record the programs sent while the reader ran.
 *
 * The ring's layout is the kernel's (include/uapi/linux/bpf.h, kernel/bpf/
 * ringbuf.c): a page with the consumer position (mapped read-write), then a
 * page with the producer position and the data, mapped twice in a row so
 * that a record that wraps reads as one (read-only). Each record has an
 * 8-byte header: its length with a busy and a discard bit, then its offset.
 */
#include <errno.h>
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

struct ringrd {
	int fd, epfd;
	size_t page, size;		/* size: the data area, a power of two */
	unsigned long *consumer;	/* the consumer position's page */
	void *producer;			/* the producer position's page, then the data twice */
	const char *data;
	ringrd_fn fn;
	void *ctx;
};

struct ringrd *ringrd__new(int map_fd, ringrd_fn fn, void *ctx)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	struct epoll_event ev = { .events = EPOLLIN };
	struct ringrd *r;
	int e;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(map_fd, &info, &len))
		return NULL;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries ||
	    (info.max_entries & (info.max_entries - 1))) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->fd = map_fd;
	r->epfd = -1;
	r->page = (size_t)sysconf(_SC_PAGESIZE);
	r->size = info.max_entries;
	r->fn = fn;
	r->ctx = ctx;
	r->consumer = mmap(NULL, r->page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (r->consumer == MAP_FAILED) {
		r->consumer = NULL;
		goto fail;
	}
	r->producer = mmap(NULL, r->page + 2 * r->size, PROT_READ, MAP_SHARED, map_fd,
			   (off_t)r->page);
	if (r->producer == MAP_FAILED) {
		r->producer = NULL;
		goto fail;
	}
	r->data = (const char *)r->producer + r->page;
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0 || epoll_ctl(r->epfd, EPOLL_CTL_ADD, map_fd, &ev))
		goto fail;
	return r;
fail:
	e = errno;
	ringrd__free(r);
	errno = e;
	return NULL;
}

void ringrd__free(struct ringrd *r)
{
	if (!r)
		return;
	if (r->epfd >= 0)
		close(r->epfd);
	if (r->producer)
		munmap(r->producer, r->page + 2 * r->size);
	if (r->consumer)
		munmap(r->consumer, r->page);
	free(r);
}

/* every record readable now, each given to fn: how many, or fn's error */
int ringrd__consume(struct ringrd *r)
{
	const unsigned long *prod = r->producer;
	unsigned long cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE), told = cons;
	int n = 0, err = 0, more;

	do {
		unsigned long end = __atomic_load_n(prod, __ATOMIC_ACQUIRE);

		more = 0;
		while (cons < end) {
			const __u32 *hdr = (const void *)(r->data + (cons & (r->size - 1)));
			__u32 len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);

			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out;
			more = 1;
			cons += ((len & ~(__u32)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT)) +
				 BPF_RINGBUF_HDR_SZ + 7) & ~7UL;
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				err = r->fn(r->ctx, (char *)hdr + BPF_RINGBUF_HDR_SZ,
					    len & ~(__u32)BPF_RINGBUF_DISCARD_BIT);
				if (err < 0)
					goto out;
				n++;
			}
			if (cons - told >= RINGRD_BATCH) {
				__atomic_store_n(r->consumer, cons, __ATOMIC_RELEASE);
				told = cons;
			}
		}
	} while (more);
out:
	if (cons != told)
		__atomic_store_n(r->consumer, cons, __ATOMIC_RELEASE);
	return err < 0 ? err : n;
}

/* wait up to timeout_ms for a wakeup (-1: for ever), then read: as ring_buffer__poll */
int ringrd__poll(struct ringrd *r, int timeout_ms)
{
	struct epoll_event ev;

	if (epoll_wait(r->epfd, &ev, 1, timeout_ms) < 0)
		return -errno;
	return ringrd__consume(r);
}
