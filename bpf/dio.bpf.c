// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio's kernel side: one program pair for the entry and exit tracepoints of
 * every selected system call (the host attaches the same two programs to each
 * syscalls:sys_{enter,exit}_<name> it wants, so a call nobody asked for has no
 * probe), plus process, thread-name, io_uring, block and run-queue tracking.
 *
 * Entry stores the arguments in task-local storage; exit joins them with the
 * return value, enriches the call from the file behind its fd (file tag, type,
 * offset) and emits one record. A file's path is walked in the kernel only the
 * first time its tag is seen (or after it moved) and sent as a record of its own.
 *
 * The helpers live in headers by job: maps.bpf.h (settings, maps), compat.bpf.h
 * (every difference between kernels), task.bpf.h (what is traced), file.bpf.h
 * (fd to file, tag, offset), emit.bpf.h (records), path.bpf.h (path walks and
 * --path matching).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <dio/event.h>
#include "dio.h"
#include "maps.bpf.h"
#include "compat.bpf.h"
#include "task.bpf.h"
#include "file.bpf.h"
#include "emit.bpf.h"
#include "path.bpf.h"
#include "top.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ---- system calls ------------------------------------------------------- */

/*
 * ofd_id() of a struct file's address, kept for the task's last file: the
 * keyed hash is ~150 instructions (no rotate in BPF), and most calls repeat
 * the task's last file. The same address gives the same id all session long.
 */
static __always_inline __u32 task_ofd(struct inflight *st, __u64 addr)
{
	if (!st->last_ofd || st->last_file != addr) {
		st->last_file = addr;
		st->last_ofd = ofd_id(addr);
	}
	return st->last_ofd;
}

/*
 * Entry of a selected call. Two program pairs share this body: the
 * per-syscall tracepoints (dio_sys_*), attached only to the calls the user
 * selected, and the raw syscall tracepoints (dio_raw_*), two attachments that
 * see every call and filter by number here. Number and arguments come from the
 * task's saved user registers, not from a tracepoint record: the kernel refuses
 * to attach a program that reads past a record's end, and records differ in
 * size (sys_enter_sync's holds no arguments).
 */
static __always_inline int on_enter(struct task_struct *task, struct pt_regs *regs, __u32 nr)
{
	__u64 pid_tgid = (__u64)task->tgid << 32 | (__u32)task->pid;
	struct dio_sysmeta *m;
	struct inflight *st;

	m = bpf_map_lookup_elem(&sysmeta, &nr);
	if (!m || !m->enabled)
		return 0;
	/*
	 * A traced task keeps its verdict in its storage, so that the traced-set
	 * hash is searched once per task and not on every call; other tasks get
	 * no storage at all.
	 */
	st = bpf_task_storage_get(&inflight, task, 0, 0);
	if (!st || !st->traced) {
		if (!proc_traced(pid_tgid >> 32))
			return 0;
		st = bpf_task_storage_get(&inflight, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!st) {
			count(DIO_LOST_INFLIGHT);
			return 0;
		}
		st->traced = 1;
	}
	st->selected = task_selected(task);
	if (!st->selected)
		return 0;
	st->nr = nr;
	st->ts = bpf_ktime_get_ns();
	st->args[0] = regs->di;
	st->args[1] = regs->si;
	st->args[2] = regs->dx;
	st->args[3] = regs->r10;
	st->args[4] = regs->r8;
	st->args[5] = regs->r9;
	st->has_file = 0;
	st->has_off = 0;
	st->match = 1;
	if (detailed && m->fd_how == DIO_FD_ARG_ENTRY) {
		__u64 addr = 0;
		struct file *f = fd_file_addr(task, (int)arg(st, m->fd_arg), &addr);

		if (f) {
			struct scratch *sc = get_scratch();

			st->ftype = file_tag(f, &st->tag);
			st->ofd = task_ofd(st, addr);
			st->has_file = 1;
			if (sc)
				st->match = ensure_path(sc, task, f, &st->tag, st->ftype,
							 pid_tgid >> 32);
		}
	}
	if (detailed && m->off_how == DIO_OFF_PTR) {
		__u64 p = arg(st, m->off_arg);

		if (p && !bpf_probe_read_user(&st->off, sizeof(st->off), (void *)p))
			st->has_off = 1;
	}
	if (m->flags & DIO_MF_MUNMAP) {
		struct dio_mapkey k = { .addr = st->args[0], .tgid = pid_tgid >> 32 };
		struct mapval *v = bpf_map_lookup_elem(&mappings, &k);

		if (!v)
			return 0;	/* not a file mapping */
		st->tag = v->tag;
		st->ftype = v->ftype;
		st->has_file = v->has_file;
		st->ofd = 0;
		bpf_map_delete_elem(&mappings, &k);
	}
	st->active = 1;
	return 0;
}

/*
 * The file part of a call's exit: its file, tag, type and offset, and whether
 * its path passes --path (ensuring the path was sent). Returns the DIO_SF_*
 * flags it learnt.
 */
static __always_inline __u8 exit_file(struct task_struct *task, struct scratch *sc,
				      const struct dio_sysmeta *m, struct inflight *st, __s64 ret,
				      struct dio_file_tag *tag, __u8 *ftype, __s64 *off, __s32 *fd,
				      __u32 *ofd, __u8 *match)
{
	struct dentry *d;
	struct file *f;
	__u64 parent, hash, addr = 0;
	__u8 flags = 0;

	/* close and munmap: the file was looked up at entry */
	if (m->fd_how == DIO_FD_ARG_ENTRY || (m->flags & DIO_MF_MUNMAP)) {
		if (!st->has_file)
			return 0;
		*tag = st->tag;
		*ftype = st->ftype;
		*fd = m->fd_how == DIO_FD_ARG_ENTRY ? (int)arg(st, m->fd_arg) : -1;
		*ofd = st->ofd;
		*match = st->match;
		return DIO_SF_FILE;
	}
	f = call_file(task, m, st, ret, fd, &addr);
	if (!f)
		return 0;
	*ftype = file_tag(f, tag);
	*ofd = task_ofd(st, addr);
	flags = DIO_SF_FILE;
	if (dropped_type(*ftype))
		return flags;
	if (call_offset(f, *ftype, m, st, ret, off))
		flags |= DIO_SF_OFFSET;
	/* most calls repeat the task's last file: then its path is known to be sent */
	d = KLOAD(f, f_path.dentry);
	parent = (__u64)KLOAD(d, d_parent);
	hash = KLOAD(d, d_name.hash_len);
	if (st->last_valid && st->last_parent == parent && st->last_hash == hash &&
	    st->last_tag.ino == tag->ino && st->last_tag.dev == tag->dev &&
	    st->last_tag.gen == tag->gen) {
		*match = st->last_match;
	} else {
		*match = ensure_path(sc, task, f, tag, *ftype, task->tgid);
		st->last_tag = *tag;
		st->last_parent = parent;
		st->last_hash = hash;
		st->last_match = *match;
		st->last_valid = 1;
	}
	return flags;
}

static __always_inline int on_exit(struct task_struct *task, __u32 cur_nr, __s64 ret)
{
	struct dio_file_tag tag = {};
	struct dio_sysmeta *m;
	struct scratch *sc;
	struct inflight *st;
	__u8 flags = 0, ftype = 0, match = 1;
	__s64 off = 0;
	__u16 n0 = 0, n1 = 0;
	__s32 fd = -1;
	__u32 nr, size, ofd = 0;

	st = bpf_task_storage_get(&inflight, task, 0, 0);
	if (!st || !st->active)
		return 0;
	st->active = 0;
	nr = st->nr;
	if (nr != cur_nr)
		return 0;
	m = bpf_map_lookup_elem(&sysmeta, &nr);
	sc = get_scratch();
	if (!m || !sc)
		return 0;

	if (detailed) {
		flags = exit_file(task, sc, m, st, ret, &tag, &ftype, &off, &fd, &ofd, &match);
		if ((flags & DIO_SF_FILE) && dropped_type(ftype))
			return 0;
	}
	/*
	 * mmap of anonymous memory is malloc's business, not storage I/O: keep
	 * mappings of an fd (MAP_ANONYMOUS clear), and remember them so that
	 * their munmap is traced too.
	 */
	if (m->flags & DIO_MF_NEED_FILE) {
		if ((int)arg(st, m->fd_arg) < 0 || (arg(st, 3) & 0x20 /* MAP_ANONYMOUS */))
			return 0;
	}
	if ((m->flags & DIO_MF_MMAP) && match && (__u64)ret < (__u64)-4095L) {
		struct dio_mapkey k = { .addr = ret, .tgid = task->tgid };
		struct mapval v = { .tag = tag, .ftype = ftype, .has_file = !!(flags & DIO_SF_FILE) };

		if (bpf_map_update_elem(&mappings, &k, &v, BPF_ANY))
			count(DIO_LOST_MAPPINGS);
	}
	if (!match)
		return 0;
	/* dio top: counted, no record; the path arguments matter only to --path */
	if (count_mode && !n_prefix && !n_exclude) {
		top_call(task, m, st, ret, &tag, flags & DIO_SF_FILE, ftype);
		return 0;
	}

	if (m->str0) {
		n0 = read_str((char *)sc->ev + EV_STR_OFF, arg(st, (m->str0 - 1)), &flags,
			      DIO_SF_STR0_TRUNC, DIO_SF_STR0_FAULT);
		if (n0 > DIO_PATH_MAX)
			n0 = DIO_PATH_MAX;
	}
	if (m->str1) {
		n1 = read_str((char *)sc->ev + EV_STR_OFF + (n0 & (2 * DIO_PATH_MAX - 1)),
			      arg(st, (m->str1 - 1)), &flags, DIO_SF_STR1_TRUNC, DIO_SF_STR1_FAULT);
		if (n1 > DIO_PATH_MAX)
			n1 = DIO_PATH_MAX;
	}
	/* with --path, a call with neither a file nor a path cannot be under it */
	if ((n_prefix) && !(flags & DIO_SF_FILE) && !n0)
		return 0;
	/* calls without an fd that name a path: filter on the argument */
	if (!(flags & DIO_SF_FILE) && n0 && (n_prefix || n_exclude)) {
		long dirfd = m->dirfd0 ? (long)arg(st, (m->dirfd0 - 1)) : AT_FDCWD;

		if (!arg_match(sc, task, (char *)sc->ev + EV_STR_OFF, n0, dirfd))
			return 0;
	}
	if (count_mode) {
		top_call(task, m, st, ret, &tag, flags & DIO_SF_FILE, ftype);
		return 0;
	}

	size = EV_STR_OFF + n0 + n1;
	if (hash_mode && m->data && ret > 0 && size <= EV_STR_OFF + 2 * DIO_PATH_MAX) {
		__u32 added = add_content(sc, sc->ev + size, arg(st, 1), ret);

		if (added) {
			flags |= DIO_SF_HASH;
			size += added;
		}
	}
	emit_syscall((void *)sc->ev, size, task, st, ret, &tag, off, ftype, flags, n0, n1, fd, ofd);
	return 0;
}

SEC("tracepoint")
int dio_sys_enter(void *ctx)
{
	if (bench_floor)
		return 0;
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);

	return on_enter(task, regs, regs->orig_ax);
}

SEC("tracepoint")
int dio_sys_exit(struct trace_event_raw_sys_exit *ctx)
{
	if (bench_floor)
		return 0;
	return on_exit(bpf_get_current_task_btf(), ctx->id, ctx->ret);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(dio_raw_enter, struct pt_regs *regs, long id)
{
	if (bench_floor)
		return 0;
	return on_enter(bpf_get_current_task_btf(), regs, id);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(dio_raw_exit, struct pt_regs *regs, long ret)
{
	if (bench_floor)
		return 0;
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 nr = regs->orig_ax;
	struct dio_sysmeta *m = bpf_map_lookup_elem(&sysmeta, &nr);

	/* most calls are not storage calls: leave before touching task storage */
	if (!m || !m->enabled)
		return 0;
	return on_exit(task, nr, ret);
}

/* ---- processes and threads ---------------------------------------------- */

SEC("tp_btf/sched_process_fork")
int BPF_PROG(dio_fork, struct task_struct *parent, struct task_struct *child)
{
	if (bench_floor)
		return 0;
	__u32 ctgid = BPF_CORE_READ(child, tgid), ptgid = BPF_CORE_READ(parent, tgid);
	__u8 one = 1;

	/* the child joins the traced set whatever --tid, --comm or --cgroup say of its parent */
	if (!proc_traced(ptgid))
		return 0;
	if (!trace_all && ctgid != ptgid &&
	    bpf_map_update_elem(&traced, &ctgid, &one, BPF_ANY))
		count(DIO_LOST_PROCS);
	if (task_selected(parent))
		emit_proc(parent, DIO_PROC_FORK, ctgid == ptgid ? DIO_PROCF_THREAD : 0, ctgid,
			  BPF_CORE_READ(child, pid), 0, NULL);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(dio_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	if (bench_floor)
		return 0;
	if (is_traced(p))
		emit_proc(p, DIO_PROC_EXEC, 0, 0, old_pid, 0, NULL);
	return 0;
}

static __always_inline int proc_exit(struct task_struct *p, int group_dead)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);

	if (!is_traced(p))
		return 0;
	emit_proc(p, DIO_PROC_EXIT, group_dead ? DIO_PROCF_GROUP_DEAD : 0, 0, 0,
		  BPF_CORE_READ(p, exit_code), NULL);
	if (group_dead && !trace_all)
		bpf_map_delete_elem(&traced, &tgid);
	return 0;
}

/* Linux 6.16 and later pass group_dead; the host loads one of these two. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(dio_exit, struct task_struct *p, bool group_dead)
{
	if (bench_floor)
		return 0;
	return proc_exit(p, group_dead);
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(dio_exit_live, struct task_struct *p)
{
	if (bench_floor)
		return 0;
	return proc_exit(p, exit_group_dead(p));
}

SEC("tp_btf/task_rename")
int BPF_PROG(dio_rename, struct task_struct *t, const char *comm)
{
	if (bench_floor)
		return 0;
	/* exec renames the task too: that one is reported as the exec */
	if (BPF_CORE_READ_BITFIELD_PROBED(t, in_execve))
		return 0;
	if (is_traced(t))
		emit_proc(t, DIO_PROC_RENAME, 0, 0, 0, 0, comm);
	return 0;
}

/* ---- io_uring requests -------------------------------------------------- */

static __always_inline int uring_rw(__u8 op)
{
	/* IORING_OP_READV, WRITEV, READ_FIXED, WRITE_FIXED, READ, WRITE */
	return op == 1 || op == 2 || op == 4 || op == 5 || op == 22 || op == 23;
}

static __always_inline int uring_submit(struct io_kiocb *req)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), key = (__u64)req;
	struct dio_uring_pending p = {};

	if (!is_traced(bpf_get_current_task_btf()))
		return 0;
	p.ts = bpf_ktime_get_ns();
	p.pid = pid_tgid >> 32;
	p.tid = (__u32)pid_tgid;
	p.opcode = BPF_CORE_READ(req, opcode);
	p.fd = BPF_CORE_READ(req, cqe.fd);
	p.user_data = BPF_CORE_READ(req, cqe.user_data);
	if (uring_req_flags(req) & (1ULL << REQ_F_FIXED_FILE_BIT))
		p.flags |= DIO_IF_FIXED;
	if (uring_rw(p.opcode)) {
		struct io_rw *rw = (void *)req;

		p.offset = BPF_CORE_READ(rw, kiocb.ki_pos);
		p.len = BPF_CORE_READ(rw, len);
	}
	bpf_get_current_comm(p.comm, sizeof(p.comm));
	if (p.comm[0] == 'i' && p.comm[1] == 'o' && p.comm[2] == 'u' && p.comm[3] == '-' &&
	    p.comm[4] == 's')
		p.flags |= DIO_IF_SQPOLL;
	/*
	 * A request's memory is used again only after it completed: an entry
	 * still there is a completion dio never saw.
	 */
	if (bpf_map_lookup_elem(&uring, &key))
		count(DIO_LOST_IOURING_UNSEEN);
	if (bpf_map_update_elem(&uring, &key, &p, BPF_ANY))
		count(DIO_LOST_IOURING);
	return 0;
}

/* The submit tracepoint is io_uring_submit_req since 6.2 (io_uring_submit_sqe before). */
SEC("tp_btf/io_uring_submit_req")
int BPF_PROG(dio_uring_submit, struct io_kiocb *req)
{
	if (bench_floor)
		return 0;
	return uring_submit(req);
}

SEC("tp_btf/io_uring_submit_sqe")
int BPF_PROG(dio_uring_submit_sqe, struct io_kiocb *req)
{
	if (bench_floor)
		return 0;
	return uring_submit(req);
}

static __always_inline int uring_complete(struct io_kiocb *req, __s32 res)
{
	__u64 key = (__u64)req;
	struct dio_uring_pending *p = bpf_map_lookup_elem(&uring, &key);
	struct task_struct *task = bpf_get_current_task_btf();
	struct dio_ev_iouring *e;
	void *r;
	struct dio_file_tag tag = {};
	struct file *f = NULL;
	struct scratch *sc;
	__u8 ftype = 0, flags;

	if (!p)
		return 0;
	flags = p->flags;
	if (detailed) {
		f = typed_file(BPF_CORE_READ(req, file));
		if (f && (sc = get_scratch())) {
			ftype = file_tag(f, &tag);
			flags |= DIO_IF_FILE;
			/*
			 * Completions may run in a worker or in interrupt context:
			 * the root to see the path from is the submitter's only when
			 * the current task is of its process.
			 */
			if (dropped_type(ftype) ||
			    !ensure_path(sc, task->tgid == p->pid ? task : NULL, f, &tag, ftype, p->pid)) {
				bpf_map_delete_elem(&uring, &key);
				return 0;
			}
		}
	}
	e = (r = ring()) ? bpf_ringbuf_reserve(r, sizeof(*e), 0) : NULL;
	if (!e) {
		count(DIO_LOST_RINGBUF);
		bpf_map_delete_elem(&uring, &key);
		return 0;
	}
	e->hdr.type = DIO_EV_IOURING;
	e->hdr.size = sizeof(*e);
	e->hdr.cpu = bpf_get_smp_processor_id();
	e->hdr.ts = p->ts;
	e->pid = p->pid;
	e->tid = p->tid;
	e->duration = bpf_ktime_get_ns() - p->ts;
	e->res = res;
	e->offset = p->offset;
	e->user_data = p->user_data;
	__builtin_memcpy(e->comm, p->comm, sizeof(e->comm));
	e->tag = tag;
	e->len = p->len;
	e->fd = p->fd;
	e->opcode = p->opcode;
	e->ftype = ftype;
	e->flags = flags;
	__builtin_memset(e->pad, 0, sizeof(e->pad));
	bpf_ringbuf_submit(e, rb_flags(r));
	bpf_map_delete_elem(&uring, &key);
	return 0;
}

/* Kernels after 6.12 hand the cqe to io_uring_complete; 6.12 and before its fields. */
SEC("tp_btf/io_uring_complete")
int BPF_PROG(dio_uring_complete, void *ctx_, void *req, struct io_uring_cqe *cqe)
{
	if (bench_floor)
		return 0;
	return uring_complete(req, cqe ? BPF_CORE_READ(cqe, res) :
				   BPF_CORE_READ((struct io_kiocb *)req, cqe.res));
}

SEC("tp_btf/io_uring_complete")
int BPF_PROG(dio_uring_complete_res, void *ctx_, void *req, __u64 user_data, int res)
{
	if (bench_floor)
		return 0;
	return uring_complete(req, res);
}

/* ---- block requests ----------------------------------------------------- */

#define PF_KTHREAD	0x00200000

/* the request's partition (what a file system's s_dev names), else its disk */
static __always_inline __u32 blk_dev(struct request *rq)
{
	struct block_device *part = rq->part;
	struct gendisk *disk = rq->q->disk;

	if (part)
		return part->bd_dev;
	return disk ? (__u32)disk->major << 20 | (__u32)disk->first_minor : 0;
}

/*
 * Who submits: the current task. Wanted when it is traced, or when it is a
 * kernel thread writing for the file systems traced processes use (or any,
 * with -a): writeback and journal I/O is done by kernel threads.
 */
static __always_inline void blk_submitter(struct dio_blk_pending *p, struct request *rq)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct inflight *st = traced_storage(t);

	p->pid = t->tgid;
	p->tid = t->pid;
	BPF_CORE_READ_STR_INTO(&p->comm, t, comm);
	if (st) {
		p->wanted = 1;
		if (st->active) {
			p->flags |= DIO_BF_SYSCALL;
			p->nr = st->nr;
			p->sys_ts = st->ts;
		}
	} else if (t->flags & PF_KTHREAD) {
		__u32 dev = blk_dev(rq);

		p->wanted = trace_all || bpf_map_lookup_elem(&blkdevs, &dev);
		p->flags |= DIO_BF_KTHREAD;
	} else {
		p->wanted = trace_all && proc_traced(p->pid);
	}
}

/*
 * An entry of a request that went to the driver before: its completion never
 * reached dio (a struct request is used again only after it completed), a
 * record lost. Counted when the request was wanted.
 */
static __always_inline void blk_unseen(const struct dio_blk_pending *p)
{
	if (p->issue_ts && p->wanted)
		count(DIO_LOST_BLOCK_UNSEEN);
}

SEC("tp_btf/block_rq_insert")
int BPF_PROG(dio_blk_insert, struct request *rq)
{
	if (bench_floor)
		return 0;
	__u64 key = (__u64)rq;
	struct dio_blk_pending p = {}, *old = bpf_map_lookup_elem(&blk, &key);

	if (old && old->requeued && !old->issue_ts) {
		/* back from the driver: still the submitter's request */
		old->insert_ts = bpf_ktime_get_ns();
		old->requeued = 0;
		return 0;
	}
	if (old)
		blk_unseen(old);
	p.insert_ts = bpf_ktime_get_ns();
	p.flags = DIO_BF_QUEUED;
	blk_submitter(&p, rq);
	/* kept even when not wanted: the issue, often by a kworker, must not adopt it */
	if (bpf_map_update_elem(&blk, &key, &p, BPF_ANY) && p.wanted)
		count(DIO_LOST_BLOCK);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(dio_blk_issue, struct request *rq)
{
	if (bench_floor)
		return 0;
	__u64 key = (__u64)rq;
	struct dio_blk_pending *p = bpf_map_lookup_elem(&blk, &key), n = {};

	if (!p) {
		/* issued without passing the scheduler: the issuer is the submitter */
		blk_submitter(&n, rq);
		if (!n.wanted)
			return 0;
		p = &n;
	} else if (!p->wanted) {
		bpf_map_delete_elem(&blk, &key);
		return 0;
	} else {
		blk_unseen(p);
	}
	p->issue_ts = bpf_ktime_get_ns();
	p->bytes = rq->__data_len;
	if (p == &n && bpf_map_update_elem(&blk, &key, &n, BPF_ANY))
		count(DIO_LOST_BLOCK);
	return 0;
}

/*
 * The driver gave the request back (busy, or a flush sequence): it is issued
 * again later, after another insert, and completes once.
 */
SEC("tp_btf/block_rq_requeue")
int BPF_PROG(dio_blk_requeue, struct request *rq)
{
	if (bench_floor)
		return 0;
	__u64 key = (__u64)rq;
	struct dio_blk_pending *p = bpf_map_lookup_elem(&blk, &key);

	if (p) {
		p->issue_ts = 0;
		p->requeued = 1;
	}
	return 0;
}

/* blk_status_t to -errno, as blk_status_to_errno() */
static __always_inline __s32 blk_errno(__u8 st)
{
	switch (st) {
	case 0: return 0;
	case 1: return -95;	/* BLK_STS_NOTSUPP: EOPNOTSUPP */
	case 2: return -110;	/* TIMEOUT: ETIMEDOUT */
	case 3: return -28;	/* NOSPC: ENOSPC */
	case 4: return -67;	/* TRANSPORT: ENOLINK */
	case 5: return -121;	/* TARGET: EREMOTEIO */
	case 6: return -52;	/* RESV_CONFLICT: EBADE */
	case 7: return -61;	/* MEDIUM: ENODATA */
	case 8: return -84;	/* PROTECTION: EILSEQ */
	case 9: return -12;	/* RESOURCE: ENOMEM */
	case 12: return -11;	/* AGAIN: EAGAIN */
	default: return -5;	/* EIO */
	}
}

/* rwbs as blk_fill_rwbs() writes it */
static __always_inline void fill_rwbs(char *r, __u32 opf)
{
	__u32 op = opf & 0xff;
	int i = 0;

	if (opf & (1u << bpf_core_enum_value(enum req_flag_bits, __REQ_PREFLUSH)))
		r[i++] = 'F';
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_WRITE)) {
		r[i++] = 'W';
	} else if (op == bpf_core_enum_value(enum req_op, REQ_OP_DISCARD)) {
		r[i++] = 'D';
	} else if (op == bpf_core_enum_value(enum req_op, REQ_OP_SECURE_ERASE)) {
		r[i++] = 'D';
		r[i++] = 'E';
	} else if (op == bpf_core_enum_value(enum req_op, REQ_OP_FLUSH)) {
		r[i++] = 'F';
	} else if (op == bpf_core_enum_value(enum req_op, REQ_OP_READ)) {
		r[i++] = 'R';
	} else {
		r[i++] = 'N';
	}
	if (opf & (1u << bpf_core_enum_value(enum req_flag_bits, __REQ_FUA)))
		r[i++] = 'F';
	if (opf & (1u << bpf_core_enum_value(enum req_flag_bits, __REQ_RAHEAD)))
		r[i++] = 'A';
	if (opf & (1u << bpf_core_enum_value(enum req_flag_bits, __REQ_SYNC)))
		r[i++] = 'S';
	if (opf & (1u << bpf_core_enum_value(enum req_flag_bits, __REQ_META)))
		r[i] = 'M';
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(dio_blk_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	if (bench_floor)
		return 0;
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct dio_blk_pending *p = bpf_map_lookup_elem(&blk, &key);
	struct dio_ev_block *e;
	void *r;

	if (!p || !p->issue_ts)
		return 0;
	if (count_mode) {
		top_wait(p->pid, 1, p->bytes, now - p->issue_ts);
		bpf_map_delete_elem(&blk, &key);
		return 0;
	}
	e = (r = ring()) ? bpf_ringbuf_reserve(r, sizeof(*e), 0) : NULL;
	if (!e) {
		count(DIO_LOST_RINGBUF);
		bpf_map_delete_elem(&blk, &key);
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->hdr.type = DIO_EV_BLOCK;
	e->hdr.size = sizeof(*e);
	e->hdr.cpu = bpf_get_smp_processor_id();
	e->hdr.ts = p->issue_ts;
	e->pid = p->pid;
	e->tid = p->tid;
	e->duration = now - p->issue_ts;
	if (p->insert_ts && p->issue_ts >= p->insert_ts)
		e->queue_ns = p->issue_ts - p->insert_ts;
	/* a flush has no position: -1 in the request, 0 as blktrace shows it */
	e->sector = rq->__sector == (sector_t)-1 ? 0 : rq->__sector;
	e->sys_ts = p->sys_ts;
	__builtin_memcpy(e->comm, p->comm, sizeof(e->comm));
	e->dev = blk_dev(rq);
	e->bytes = p->bytes;
	e->error = blk_errno(error);
	e->nr = p->nr;
	e->flags = p->flags;
	fill_rwbs(e->rwbs, rq->cmd_flags);
	bpf_ringbuf_submit(e, rb_flags(r));
	bpf_map_delete_elem(&blk, &key);
	return 0;
}

/* ---- run-queue delay ---------------------------------------------------- */

static __always_inline void runnable(struct task_struct *p, __u8 preempted)
{
	struct inflight *st = traced_storage(p);

	if (st) {
		st->runq_ts = bpf_ktime_get_ns();
		st->runq_preempted = preempted;
	}
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(dio_wakeup, struct task_struct *p)
{
	if (bench_floor)
		return 0;
	runnable(p, 0);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(dio_wakeup_new, struct task_struct *p)
{
	if (bench_floor)
		return 0;
	runnable(p, 0);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(dio_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	if (bench_floor)
		return 0;
	struct inflight *st;
	struct dio_ev_runq *e;
	void *r;
	__u64 now, delay;

	/* preempted while runnable: it waits in the run queue from now */
	if (prev_state == 0)
		runnable(prev, 1);
	st = traced_storage(next);
	if (!st || !st->runq_ts)
		return 0;
	now = bpf_ktime_get_ns();
	delay = now - st->runq_ts;
	/* dio top: every wait counts towards the total */
	if (count_mode) {
		top_wait(next->tgid, 0, 0, delay);
		st->runq_ts = 0;
		return 0;
	}
	if (delay < runq_min_ns) {
		st->runq_ts = 0;
		return 0;
	}
	e = (r = ring()) ? bpf_ringbuf_reserve(r, sizeof(*e), 0) : NULL;
	if (!e) {
		count(DIO_LOST_RINGBUF);
		st->runq_ts = 0;
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->hdr.type = DIO_EV_RUNQ;
	e->hdr.size = sizeof(*e);
	e->hdr.cpu = bpf_get_smp_processor_id();
	e->hdr.ts = st->runq_ts;
	e->pid = next->tgid;
	e->tid = next->pid;
	e->delay = delay;
	BPF_CORE_READ_STR_INTO(&e->comm, next, comm);
	e->prev_pid = prev->tgid;
	e->prev_tid = prev->pid;
	BPF_CORE_READ_STR_INTO(&e->prev_comm, prev, comm);
	if (st->runq_preempted)
		e->flags |= DIO_RF_PREEMPTED;
	if (st->active) {
		e->flags |= DIO_RF_SYSCALL;
		e->nr = st->nr;
		e->sys_ts = st->ts;
	}
	st->runq_ts = 0;
	bpf_ringbuf_submit(e, rb_flags(r));
	return 0;
}
