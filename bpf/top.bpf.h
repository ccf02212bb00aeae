/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio top's count mode: the exit of a call, a block completion and the end
 * of a run-queue wait add to counters in hash maps instead of sending a
 * record. Chosen at load time (count_mode), so that the verifier prunes the
 * record path in one mode and these counters in the other. Paths and process
 * records still go through the ring: they are rare.
 *
 * One lookup per map and call; an entry is inserted once, by the first call
 * that misses it, and a full map is counted (DIO_LOST_TOP), never evicted.
 */
#ifndef DIO_TOP_BPF_H
#define DIO_TOP_BPF_H

#include "topcount.h"

const volatile __u8 count_mode = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, DIO_TOP_THREADS);	/* the host sets the size */
	__type(key, __u32);
	__type(value, struct dio_top_thread);
} top_threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, DIO_TOP_FILES);
	__type(key, struct dio_file_tag);
	__type(value, struct dio_top_file);
} top_files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, DIO_TOP_PROCS);
	__type(key, __u32);
	__type(value, struct dio_top_proc);
} top_procs SEC(".maps");

/* a zeroed value inserted when key is new; the entry, or NULL (counted) when the map is full */
static __always_inline void *top_entry(void *map, const void *key, const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	/* failing with EEXIST (another CPU inserted it meanwhile) is as good */
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		count(DIO_LOST_TOP);
	return v;
}

static __always_inline void top_add(struct dio_top_calls *c, __u8 err, __u64 rb, __u64 wb,
				    __u64 ns)
{
	c->calls++;
	c->errors += err;
	c->rbytes += rb;
	c->wbytes += wb;
	c->ns += ns;
}

/* A call ended: count it for its thread and, when it has one, its file. */
static __always_inline void top_call(struct task_struct *task, const struct dio_sysmeta *m,
				     const struct inflight *st, __s64 ret,
				     const struct dio_file_tag *tag, __u8 has_file, __u8 ftype)
{
	struct dio_top_thread zt = {};
	struct dio_top_file zf = {};
	__u64 ns = bpf_ktime_get_ns() - st->ts, rb = 0, wb = 0;
	__u32 tid = task->pid;
	__u8 err = ret < 0 && ret >= -4095;
	struct dio_top_thread *t;
	struct dio_top_file *f;

	if (ret > 0 && m->io == DIO_IO_READ)
		rb = ret;
	else if (ret > 0 && m->io == DIO_IO_WRITE)
		wb = ret;
	t = top_entry(&top_threads, &tid, &zt);
	if (t) {
		top_add(&t->c, err, rb, wb, ns);
		t->pid = task->tgid;
		/* two loads instead of a helper call, as emit_syscall does */
		__builtin_memcpy(t->comm, task->comm, sizeof(t->comm));
	}
	if (!has_file)
		return;
	f = top_entry(&top_files, tag, &zf);
	if (f) {
		top_add(&f->c, err, rb, wb, ns);
		if (!f->pid)
			f->pid = task->tgid;
		f->ftype = ftype;
	}
}

/* A block request completed (blk) or a run queue wait ended, of process pid. */
static __always_inline void top_wait(__u32 pid, __u8 blk, __u32 bytes, __u64 ns)
{
	struct dio_top_proc zp = {};
	struct dio_top_proc *p = top_entry(&top_procs, &pid, &zp);
	struct dio_top_wait *w;

	if (!p)
		return;
	w = blk ? &p->blk : &p->runq;
	w->n++;
	w->ns += ns;
	if (ns > w->max)
		w->max = ns;
	if (blk)
		p->blk_bytes += bytes;
}

#endif
