/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Records into the ring: paths, processes, system calls and their content tails. */
#ifndef DIO_EMIT_BPF_H
#define DIO_EMIT_BPF_H

/*
 * Send the path record built in rec (its len bytes of path follow it): 0, or
 * -1 when the ring was full (counted).
 */
static __always_inline int emit_path(struct dio_ev_path *rec, const struct dio_file_tag *tag,
				      __u32 len, __u8 flags, __u8 ftype, __u32 pid)
{
	void *r = ring();

	if (!r) {
		count(DIO_LOST_RINGBUF);
		return -1;
	}
	rec->hdr.type = DIO_EV_PATH;
	rec->hdr.size = sizeof(*rec) + len + 1;
	rec->hdr.cpu = bpf_get_smp_processor_id();
	rec->hdr.ts = bpf_ktime_get_ns();
	rec->tag = *tag;
	rec->len = len + 1;
	rec->flags = flags;
	rec->ftype = ftype;
	rec->pid = pid;
	if (bpf_ringbuf_output(r, rec, bounded(sizeof(*rec) + len + 1, 2 * DIO_PATH_MAX - 1),
			       rb_flags(r))) {
		count(DIO_LOST_RINGBUF);
		return -1;
	}
	return 0;
}

static __always_inline void emit_proc(struct task_struct *t, __u16 kind, __u16 pflags,
				      __u32 opid, __u32 otid, __s32 code, const char *comm)
{
	void *r = ring();
	struct dio_ev_proc *e = r ? bpf_ringbuf_reserve(r, sizeof(*e), 0) : NULL;

	if (!e) {
		count(DIO_LOST_RINGBUF);
		return;
	}
	e->hdr.type = DIO_EV_PROC;
	e->hdr.size = sizeof(*e);
	e->hdr.cpu = bpf_get_smp_processor_id();
	e->hdr.ts = bpf_ktime_get_ns();
	e->pid = BPF_CORE_READ(t, tgid);
	e->tid = BPF_CORE_READ(t, pid);
	e->other_pid = opid;
	e->other_tid = otid;
	e->exit_code = code;
	e->kind = kind;
	e->flags = pflags;
	if (comm)
		bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), comm);
	else
		BPF_CORE_READ_STR_INTO(&e->comm, t, comm);
	e->mnt_ns = task_mnt_ns(t);
	e->pad = 0;
	bpf_ringbuf_submit(e, rb_flags(r));
}

/* Read a string argument at exit into buf; returns bytes with the NUL, 0 when absent. */
static __always_inline __u16 read_str(char *buf, __u64 uptr, __u8 *flags, __u8 trunc_flag,
				      __u8 fault_flag)
{
	long n;

	if (!uptr) {
		*flags |= fault_flag;
		return 0;
	}
	n = bpf_probe_read_user_str(buf, DIO_PATH_MAX, (void *)uptr);
	if (n < 0) {
		*flags |= fault_flag;
		return 0;
	}
	n = str_len_read(buf, n);
	if (n >= DIO_PATH_MAX)
		*flags |= trunc_flag;
	return n;
}

struct fnv_ctx {
	const __u8 *buf;
	__u32 len;
	__u64 h;
};

static long fnv_step(__u32 i, void *ctx)
{
	struct fnv_ctx *c = ctx;

	if (i >= c->len)
		return 1;
	c->h ^= c->buf[i & (DATA_MAX - 1)];
	c->h *= 0x100000001b3ULL;
	return 0;
}

/*
 * Append a struct dio_ev_content (and captured bytes) at tail for a data call
 * that moved n bytes of the user buffer ubuf. Returns the bytes appended.
 */
static __always_inline __u32 add_content(struct scratch *sc, __u8 *tail, __u64 ubuf, __s64 n)
{
	struct dio_ev_content *ct = (void *)tail;
	__u32 hn = n < hash_bytes ? n : hash_bytes;
	__u32 cn = n < capture_bytes ? n : capture_bytes;

	ct->hash = 0;
	ct->hashed_len = hn;
	if (hash_mode == 2) {
		struct fnv_ctx c = { .buf = sc->data, .len = hn, .h = 0xcbf29ce484222325ULL };

		if (hn > DATA_MAX)
			hn = DATA_MAX;
		c.len = hn;
		ct->hashed_len = hn;
		if (bpf_probe_read_user(sc->data, bounded(hn, 2 * DATA_MAX - 1), (void *)ubuf))
			return 0;
		bpf_loop(DATA_MAX, fnv_step, &c, 0);
		ct->hash = c.h;
	} else if (cn < hn) {
		/* user mode: send what is to be hashed; user space hashes and drops the excess */
		cn = hn;
	}
	if (cn > DATA_MAX)
		cn = DATA_MAX;
	ct->data_len = cn;
	if (cn && bpf_probe_read_user(tail + sizeof(*ct), bounded(cn, 2 * DATA_MAX - 1), (void *)ubuf))
		return 0;
	return sizeof(*ct) + cn;
}

/* a system call record's fields (the header's size apart) */
static __always_inline void fill_syscall(struct dio_ev_syscall *ev, struct task_struct *task,
					 const struct inflight *st, __s64 ret,
					 const struct dio_file_tag *tag, __s64 off, __u8 ftype,
					 __u8 flags, __u16 n0, __u16 n1, __s32 fd, __u32 ofd)
{
	ev->hdr.type = DIO_EV_SYSCALL;
	ev->hdr.cpu = bpf_get_smp_processor_id();
	ev->hdr.ts = st->ts;
	ev->pid = task->tgid;
	ev->tid = task->pid;
	ev->duration = bpf_ktime_get_ns() - st->ts;
	ev->ret = ret;
	ev->args[0] = st->args[0];
	ev->args[1] = st->args[1];
	ev->args[2] = st->args[2];
	ev->args[3] = st->args[3];
	ev->args[4] = st->args[4];
	ev->args[5] = st->args[5];
	/* two loads instead of a helper call; a rename racing with this may show half of each name */
	__builtin_memcpy(ev->comm, task->comm, sizeof(ev->comm));
	ev->tag = *tag;
	ev->offset = off;
	ev->nr = st->nr;
	ev->ftype = ftype;
	ev->flags = flags;
	ev->str_len[0] = n0;
	ev->str_len[1] = n1;
	ev->fd = fd;
	ev->ofd = ofd;
}

/*
 * Send a system call record: in a reserved slot of this CPU's ring when it
 * has no tail (the common case), else from ev, where the strings and content
 * were put behind it, size bytes in all. The two ways apart, so that the
 * verifier sees which memory each submits.
 */
static __always_inline void emit_syscall(struct dio_ev_syscall *ev, __u32 size, struct task_struct *task,
					 const struct inflight *st, __s64 ret,
					 const struct dio_file_tag *tag, __s64 off, __u8 ftype,
					 __u8 flags, __u16 n0, __u16 n1, __s32 fd, __u32 ofd)
{
	void *r = ring();
	struct dio_ev_syscall *rec;

	if (!r) {
		count(DIO_LOST_RINGBUF);
		return;
	}
	if (size == EV_STR_OFF) {
		rec = bpf_ringbuf_reserve(r, sizeof(*rec), 0);
		if (!rec) {
			count(DIO_LOST_RINGBUF);
			return;
		}
		fill_syscall(rec, task, st, ret, tag, off, ftype, flags, n0, n1, fd, ofd);
		rec->hdr.size = sizeof(*rec);
		bpf_ringbuf_submit(rec, rb_flags(r));
		return;
	}
	fill_syscall(ev, task, st, ret, tag, off, ftype, flags, n0, n1, fd, ofd);
	ev->hdr.size = size;
	if (bpf_ringbuf_output(r, ev, bounded(size, 4 * DIO_PATH_MAX - 1), rb_flags(r)))
		count(DIO_LOST_RINGBUF);
}

#endif
