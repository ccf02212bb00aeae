// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio's kernel side: one program pair for the entry and exit tracepoints of
 * every selected system call (the host attaches the same two programs to each
 * syscalls:sys_{enter,exit}_<name> it wants, so a call nobody asked for has no
 * probe), plus process, thread-name and io_uring request tracking.
 *
 * Entry stores the arguments in task-local storage; exit joins them with the
 * return value, enriches the call from the file behind its fd (file tag, type,
 * offset) and emits one record. A file's path is walked in the kernel only the
 * first time its tag is seen (or after it moved) and sent as a record of its own.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <dio/event.h>
#include "dio.h"

char LICENSE[] SEC("license") = "GPL";

#define AT_FDCWD	-100
#define AT_EMPTY_PATH	0x1000
#define S_IFMT		00170000
#define MAX_DEPTH	64	/* path components kept */
#define WALK_STEPS	96	/* components plus mount crossings */
#define NAME_MAX_BYTES	256

/* Settings, fixed between open and load. */
const volatile __u32 self_tgid = 0;
const volatile __u8 trace_all = 0;
const volatile __u8 filter_tid = 0;
const volatile __u8 filter_comm = 0;
const volatile __u8 filter_cgroup = 0;
const volatile __u8 detailed = 1;
const volatile __u8 only_files = 0;
const volatile __u8 n_prefix = 0;
const volatile __u8 n_exclude = 0;
const volatile __u64 wakeup_bytes = 0;
const volatile __u8 hash_mode = 0;		/* 0 off, 1 user (bytes sent), 2 kernel (hash sent) */
const volatile __u32 hash_bytes = 4096;		/* <= DIO_PATH_MAX */
const volatile __u32 capture_bytes = 0;		/* <= DIO_PATH_MAX */
const volatile __u64 runq_min_ns = 10000;	/* run-queue waits shorter than this are not sent */
const volatile char comm_filter[DIO_COMM_LEN] = {};
const volatile char prefix[DIO_MAX_PREFIX][DIO_PREFIX_LEN] = {};
const volatile __u16 prefix_len[DIO_MAX_PREFIX] = {};
const volatile char exclude[DIO_MAX_PREFIX][DIO_PREFIX_LEN] = {};
const volatile __u16 exclude_len[DIO_MAX_PREFIX] = {};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 << 20);	/* the host sets the size */
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DIO_NR_MAX);
	__type(key, __u32);
	__type(value, struct dio_sysmeta);
} sysmeta SEC(".maps");

/* Traced processes (tgid), kept in step with fork and exit. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} traced SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u8);
} tids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DIO_CNT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* A call in flight: what entry knew. */
struct inflight {
	__u64 ts;
	__u64 args[6];
	struct dio_file_tag tag;	/* close: the file, looked up at entry */
	__s64 off;			/* DIO_OFF_PTR: *offp at entry */
	__u32 nr;
	__u8 active;
	__u8 has_file;
	__u8 ftype;
	__u8 has_off;
	__u8 match;			/* close: path filter verdict at entry */
	__u8 last_match;		/* path filter verdict of last_tag */
	__u8 last_valid;
	__u8 traced;			/* the task's process is in the traced set */
	__u8 selected;			/* its last call passed --tid, --comm, --cgroup */
	__u8 runq_preempted;		/* runq_ts is a preemption, not a wakeup */
	__u8 pad[2];
	__u64 runq_ts;			/* runnable since, 0: running or asleep */
	/*
	 * The last file this task used and its dentry's parent and name hash:
	 * while they stay the same, its path is known to have been sent and the
	 * shared tag table need not be searched (most calls repeat the last file).
	 */
	struct dio_file_tag last_tag;
	__u64 last_parent;
	__u64 last_hash;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct inflight);
} inflight SEC(".maps");

/*
 * Tags whose path was sent. A rename changes the dentry's parent or its name
 * hash: both are kept so that the path is sent again after a move.
 */
struct tagseen {
	__u64 parent;
	__u64 hash_len;
	__u8 match;		/* 1: the path passes --path/--exclude-path */
	__u8 pad[7];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);	/* the host sets the size */
	__type(key, struct dio_file_tag);
	__type(value, struct tagseen);
} tagseen SEC(".maps");

/*
 * Devices (file systems' s_dev) that traced processes have files on: requests
 * kernel threads (writeback, journal) send to them are recorded too.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u8);
} blkdevs SEC(".maps");

/* File mappings, so that munmap of a file (and not of malloc's memory) is traced. */
struct mapkey {
	__u64 addr;
	__u32 tgid;
	__u32 pad;
};

struct mapval {
	struct dio_file_tag tag;
	__u8 ftype;
	__u8 has_file;	/* tag and ftype are known (not in raw mode) */
	__u8 pad[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct mapkey);
	__type(value, struct mapval);
} mappings SEC(".maps");

/* io_uring requests between submission and completion, by request address. */
struct uring_pending {
	__u64 ts;
	__u64 offset;
	__u64 user_data;
	__u32 pid;
	__u32 tid;
	__u32 len;
	__s32 fd;
	__u8 opcode;
	__u8 flags;
	__u8 pad[6];
	char comm[DIO_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct uring_pending);
} uring SEC(".maps");

/* Per-CPU scratch space: records with strings and path walks are built here. */
#define EV_STR_OFF	sizeof(struct dio_ev_syscall)
#define EV_BUF		(EV_STR_OFF + 3 * DIO_PATH_MAX + NAME_MAX_BYTES + 64)
#define DATA_MAX	DIO_PATH_MAX	/* bytes hashed or captured per call */
#define PATH_BUF	(DIO_PATH_MAX + NAME_MAX_BYTES)

struct walk {
	__u64 name[MAX_DEPTH];
	__u32 len[MAX_DEPTH];
	__u32 depth;
	__u32 trunc;
	struct dentry *d;
	struct mount *mnt;
};

struct scratch {
	struct walk w;
	__u8 ev[EV_BUF];
	__u8 pathrec[sizeof(struct dio_ev_path) + PATH_BUF];
	char cmp[PATH_BUF + DIO_PATH_MAX];	/* dir + "/" + relative argument */
	__u8 data[DATA_MAX];			/* buffer hashed in the kernel */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &idx);

	if (c)
		*c += 1;
}

/* Batch wakeups: the consumer drains on a timer; wake it only when the ring fills up. */
static __always_inline __u64 rb_flags(void)
{
	if (!wakeup_bytes)
		return 0;
	if (bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline struct scratch *get_scratch(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&scratch, &zero);
}

static __always_inline int comm_eq(const char *a)
{
	for (int i = 0; i < DIO_COMM_LEN; i++) {
		if (a[i] != comm_filter[i])
			return 0;
		if (!a[i])
			return 1;
	}
	return 1;
}

/* The process part of the verdict: fixed for a task's life once it is true. */
static __always_inline int proc_traced(__u32 tgid)
{
	if (tgid == self_tgid)
		return 0;
	return trace_all || bpf_map_lookup_elem(&traced, &tgid);
}

/*
 * The rest: thread, cgroup and name, which can change under a traced process.
 * t is a BTF task pointer. The cgroup is the current task's: t is current in
 * every caller but a rename, which another thread of t's process (same cgroup)
 * or, rarely, another process writing /proc/PID/comm may do.
 */
static __always_inline int task_selected(struct task_struct *t)
{
	__u32 tid = t->pid;

	if (filter_tid && !bpf_map_lookup_elem(&tids, &tid))
		return 0;
	if (filter_cgroup && bpf_current_task_under_cgroup(&cgroup, 0) != 1)
		return 0;
	if (filter_comm) {
		char c[DIO_COMM_LEN];

		BPF_CORE_READ_STR_INTO(&c, t, comm);
		if (comm_eq(c))
			return 1;
		BPF_CORE_READ_STR_INTO(&c, t, group_leader, comm);
		return comm_eq(c);
	}
	return 1;
}

static __always_inline int is_traced(struct task_struct *t)
{
	return proc_traced(t->tgid) && task_selected(t);
}

/* Type a kernel pointer read as a number so its fields can be loaded directly. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/*
 * The file behind fd. Fields are loaded through BTF-typed pointers rather
 * than bpf_probe_read calls: this runs for every call on an fd, and a helper
 * call per field cost more than the rest of the probe.
 */
static __always_inline struct file *fd_file(struct task_struct *task, long fd)
{
	struct fdtable *fdt;
	struct file *f = NULL;

	if (fd < 0)
		return NULL;
	fdt = task->files->fdt;
	if ((unsigned long)fd >= fdt->max_fds)
		return NULL;
	if (bpf_probe_read_kernel(&f, sizeof(f), &fdt->fd[fd]) || !f)
		return NULL;
	return bpf_rdonly_cast(f, bpf_core_type_id_kernel(struct file));
}

static __always_inline __u8 file_tag(struct file *f, struct dio_file_tag *tag)
{
	struct inode *ino = f->f_inode;
	__u8 ft = (ino->i_mode & S_IFMT) >> 12;

	tag->ino = ino->i_ino;
	tag->dev = ino->i_sb->s_dev;
	tag->gen = ino->i_generation;
	return ft ? ft : DIO_FT_ANON;
}

/* ---- path walk ---------------------------------------------------------- */

static long walk_step(__u32 i, void *ctx)
{
	struct walk *w = *(struct walk **)ctx;
	struct dentry *d = w->d, *parent;
	struct mount *mnt = w->mnt;
	__u32 depth = w->depth;

	parent = BPF_CORE_READ(d, d_parent);
	if (d == BPF_CORE_READ(mnt, mnt.mnt_root) || d == parent) {
		struct mount *mp = BPF_CORE_READ(mnt, mnt_parent);

		if (mp == mnt || !mp) {
			/*
			 * The root of the mount tree. A file that is the root of its
			 * own internal mount (anon inodes: "[eventfd]", "[io_uring]")
			 * has only its own name; the real root is named "/".
			 */
			const unsigned char *name = BPF_CORE_READ(d, d_name.name);
			__u32 len = BPF_CORE_READ(d, d_name.len);
			char c = '/';

			bpf_probe_read_kernel(&c, 1, name);
			if (depth == 0 && len && c != '/') {
				w->name[0] = (__u64)name;
				w->len[0] = len;
				w->depth = 1;
			}
			return 1;
		}
		w->d = BPF_CORE_READ(mnt, mnt_mountpoint);
		w->mnt = mp;
		return 0;
	}
	if (depth >= MAX_DEPTH) {
		w->trunc = 1;
		return 1;
	}
	w->name[depth & (MAX_DEPTH - 1)] = (__u64)BPF_CORE_READ(d, d_name.name);
	w->len[depth & (MAX_DEPTH - 1)] = BPF_CORE_READ(d, d_name.len);
	w->depth = depth + 1;
	w->d = parent;
	return 0;
}

struct build_ctx {
	struct walk *w;
	char *buf;
	__u32 pos;
	__u32 trunc;
};

static long build_step(__u32 i, void *ctx)
{
	struct build_ctx *b = ctx;
	struct walk *w = b->w;
	__u32 k, len, pos = b->pos;
	long n;

	if (i >= w->depth)
		return 1;
	k = (w->depth - 1 - i) & (MAX_DEPTH - 1);
	len = w->len[k];
	if (len >= NAME_MAX_BYTES || pos + 1 + len >= DIO_PATH_MAX) {
		b->trunc = 1;
		return 1;
	}
	pos &= DIO_PATH_MAX - 1;
	b->buf[pos] = '/';
	n = bpf_probe_read_kernel_str(b->buf + pos + 1, (len + 1) & (2 * NAME_MAX_BYTES - 1),
				      (void *)w->name[k]);
	if (n < 0)
		return 1;
	b->pos = pos + 1 + len;
	return 0;
}

/*
 * Write the absolute path of (dentry, vfsmount) into buf (PATH_BUF bytes) and
 * return its length without the NUL; *trunc is set when it was cut.
 */
static __always_inline __u32 walk_path(struct walk *w, struct dentry *d, struct vfsmount *vmnt,
				       char *buf, __u32 *trunc)
{
	struct build_ctx b = { .w = w, .buf = buf };
	struct walk *wp = w;

	w->d = d;
	w->mnt = (struct mount *)((void *)vmnt - bpf_core_field_offset(struct mount, mnt));
	w->depth = 0;
	w->trunc = 0;
	bpf_loop(WALK_STEPS, walk_step, &wp, 0);
	bpf_loop(MAX_DEPTH, build_step, &b, 0);
	if (b.pos == 0) {
		buf[0] = '/';
		b.pos = 1;
	}
	b.pos &= DIO_PATH_MAX - 1;
	buf[b.pos] = 0;
	*trunc = b.trunc | w->trunc;
	return b.pos;
}

struct cmp_ctx {
	const char *s;
	__u32 slen;
	__u32 k;
	int exclude;
	int result;
};

static long prefix_step(__u32 i, void *ctx)
{
	struct cmp_ctx *c = ctx;
	__u32 k = c->k & (DIO_MAX_PREFIX - 1);
	__u32 plen = c->exclude ? exclude_len[k] : prefix_len[k];
	char pc;

	if (i >= plen) {
		/* whole prefix matched: at a component boundary? */
		c->result = (i >= c->slen || c->s[i & (PATH_BUF - 1)] == '/' ||
			     (plen && (c->exclude ? exclude[k][(plen - 1) & (DIO_PREFIX_LEN - 1)]
					       : prefix[k][(plen - 1) & (DIO_PREFIX_LEN - 1)]) == '/'));
		return 1;
	}
	if (i >= c->slen)
		return 1;
	pc = c->exclude ? exclude[k][i & (DIO_PREFIX_LEN - 1)] : prefix[k][i & (DIO_PREFIX_LEN - 1)];
	if (c->s[i & (PATH_BUF - 1)] != pc)
		return 1;
	return 0;
}

static __always_inline int has_prefix(const char *s, __u32 slen, __u32 k, int excl)
{
	struct cmp_ctx c = { .s = s, .slen = slen, .k = k, .exclude = excl };

	bpf_loop(DIO_PREFIX_LEN, prefix_step, &c, 0);
	return c.result;
}

/* --path / --exclude-path verdict for an absolute path. */
static __always_inline __u8 path_match(const char *s, __u32 slen)
{
	__u8 ok = n_prefix == 0;

	for (__u32 k = 0; k < DIO_MAX_PREFIX; k++) {
		if (k >= n_prefix)
			break;
		if (has_prefix(s, slen, k, 0)) {
			ok = 1;
			break;
		}
	}
	if (!ok)
		return 0;
	for (__u32 k = 0; k < DIO_MAX_PREFIX; k++) {
		if (k >= n_exclude)
			break;
		if (has_prefix(s, slen, k, 1))
			return 0;
	}
	return 1;
}

/*
 * Make sure the path of f's tag has been sent (again, if the file moved) and
 * return the path filter's verdict for it.
 */
static __always_inline __u8 ensure_path(struct scratch *sc, struct file *f,
					const struct dio_file_tag *tag, __u8 ftype, __u32 pid)
{
	struct dentry *d = f->f_path.dentry;
	struct tagseen *seen, nv = {};
	struct dio_ev_path *rec;
	__u32 len, trunc = 0;
	__u8 flags = 0;

	nv.parent = (__u64)d->d_parent;
	nv.hash_len = d->d_name.hash_len;
	seen = bpf_map_lookup_elem(&tagseen, tag);
	if (seen) {
		if (seen->parent == nv.parent && seen->hash_len == nv.hash_len)
			return seen->match;
		flags |= DIO_PF_RENAMED;
	}
	rec = (void *)sc->pathrec;
	len = walk_path(&sc->w, d, f->f_path.mnt, (char *)sc->pathrec + sizeof(*rec),
			&trunc);
	nv.match = path_match((char *)sc->pathrec + sizeof(*rec), len);
	if (bpf_map_update_elem(&tagseen, tag, &nv, BPF_ANY))
		count(DIO_LOST_PATHTAB);
	if (trunc) {
		flags |= DIO_PF_TRUNC;
		count(DIO_CNT_PATH_TRUNC);
	}
	if (!f->f_inode->__i_nlink)
		flags |= DIO_PF_DELETED;
	/* filtered-out files need no path in user space */
	if (!nv.match)
		return 0;
	if (ftype == DIO_FT_REG || ftype == DIO_FT_DIR) {
		__u8 one = 1;

		bpf_map_update_elem(&blkdevs, &tag->dev, &one, BPF_NOEXIST);
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
	if (bpf_ringbuf_output(&rb, rec, (sizeof(*rec) + len + 1) & (2 * DIO_PATH_MAX - 1), rb_flags()))
		count(DIO_LOST_RINGBUF);
	return 1;
}

/* ---- content signatures ------------------------------------------------- */

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
		if (bpf_probe_read_user(sc->data, hn, (void *)ubuf))
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
	if (cn && bpf_probe_read_user(tail + sizeof(*ct), cn, (void *)ubuf))
		return 0;
	return sizeof(*ct) + cn;
}

/* ---- system calls ------------------------------------------------------- */

static __always_inline __u64 arg(const struct inflight *st, __u32 i)
{
	return i < 6 ? st->args[i] : 0;
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
		struct file *f = fd_file(task, (int)arg(st, m->fd_arg));

		if (f) {
			struct scratch *sc = get_scratch();

			st->ftype = file_tag(f, &st->tag);
			st->has_file = 1;
			if (sc)
				st->match = ensure_path(sc, f, &st->tag, st->ftype, pid_tgid >> 32);
		}
	}
	if (detailed && m->off_how == DIO_OFF_PTR) {
		__u64 p = arg(st, m->off_arg);

		if (p && !bpf_probe_read_user(&st->off, sizeof(st->off), (void *)p))
			st->has_off = 1;
	}
	if (m->flags & DIO_MF_MUNMAP) {
		struct mapkey k = { .addr = st->args[0], .tgid = pid_tgid >> 32 };
		struct mapval *v = bpf_map_lookup_elem(&mappings, &k);

		if (!v)
			return 0;	/* not a file mapping */
		st->tag = v->tag;
		st->ftype = v->ftype;
		st->has_file = v->has_file;
		bpf_map_delete_elem(&mappings, &k);
	}
	st->active = 1;
	return 0;
}

static __always_inline int dropped_type(__u8 ft)
{
	return only_files && (ft == DIO_FT_SOCK || ft == DIO_FT_FIFO || ft == DIO_FT_ANON);
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
	if (n <= 0) {
		*flags |= fault_flag;
		return 0;
	}
	if (n >= DIO_PATH_MAX)
		*flags |= trunc_flag;
	return n;
}

/*
 * --path for a call that names a file but has no fd: the argument itself when
 * absolute, else the directory it is relative to (dirfd or cwd) + "/" + argument.
 */
static __always_inline __u8 arg_match(struct scratch *sc, struct task_struct *task, const char *arg,
				      __u16 alen, long dirfd)
{
	__u32 trunc = 0, dlen;
	struct dentry *d;
	struct vfsmount *mnt;

	if (!n_prefix && !n_exclude)
		return 1;
	if (!alen)
		return 1;
	if (arg[0] == '/')
		return path_match(arg, alen - 1);
	if (dirfd == AT_FDCWD || (int)dirfd == AT_FDCWD) {
		d = BPF_CORE_READ(task, fs, pwd.dentry);
		mnt = BPF_CORE_READ(task, fs, pwd.mnt);
	} else {
		struct file *f = fd_file(task, (int)dirfd);

		if (!f)
			return 1;
		d = BPF_CORE_READ(f, f_path.dentry);
		mnt = BPF_CORE_READ(f, f_path.mnt);
	}
	dlen = walk_path(&sc->w, d, mnt, sc->cmp, &trunc);
	if (dlen > DIO_PATH_MAX - 2)
		return 1;
	sc->cmp[dlen & (DIO_PATH_MAX - 1)] = '/';
	if (bpf_probe_read_kernel_str(sc->cmp + ((dlen + 1) & (DIO_PATH_MAX - 1)), DIO_PATH_MAX, arg) < 0)
		return 1;
	return path_match(sc->cmp, dlen + alen);
}

static __always_inline int on_exit(struct task_struct *task, __u32 cur_nr, __s64 ret)
{
	__u64 pid_tgid = (__u64)task->tgid << 32 | (__u32)task->pid;
	struct dio_file_tag tag = {};
	struct dio_ev_syscall *ev;
	struct dio_sysmeta *m;
	struct scratch *sc;
	struct inflight *st;
	struct file *f = NULL;
	__u8 flags = 0, ftype = 0, match = 1;
	__s64 off = 0;
	__u16 n0 = 0, n1 = 0;
	__s32 fd = -1;
	__u32 nr, size;

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
		long fdv = -1;

		switch (m->fd_how) {
		case DIO_FD_ARG:
			fdv = (int)arg(st, m->fd_arg);
			break;
		case DIO_FD_RET:
			fdv = ret;
			break;
		case DIO_FD_EMPTY_PATH: {
			char c = 1;
			__u64 p = arg(st, m->str0 ? m->str0 - 1 : 1);

			if (!p || (!bpf_probe_read_user(&c, 1, (void *)p) && c == 0))
				fdv = (int)arg(st, m->fd_arg);
			break;
		}
		}
		if (m->fd_how == DIO_FD_ARG_ENTRY || (m->flags & DIO_MF_MUNMAP)) {
			if (st->has_file) {
				tag = st->tag;
				ftype = st->ftype;
				flags |= DIO_SF_FILE;
				fd = m->fd_how == DIO_FD_ARG_ENTRY ? (int)arg(st, m->fd_arg) : -1;
				match = st->match;
			}
		} else if (fdv >= 0 && (f = fd_file(task, fdv))) {
			ftype = file_tag(f, &tag);
			flags |= DIO_SF_FILE;
			fd = fdv;
		}
		if ((flags & DIO_SF_FILE) && dropped_type(ftype))
			return 0;
		if (f && ret >= 0 && (ftype == DIO_FT_REG || ftype == DIO_FT_BLK || ftype == DIO_FT_DIR)) {
			switch (m->off_how) {
			case DIO_OFF_POS:
				off = f->f_pos - (ret > 0 ? ret : 0);
				flags |= DIO_SF_OFFSET;
				break;
			case DIO_OFF_ARG:
				off = arg(st, m->off_arg);
				if (off == -1)	/* preadv2/pwritev2: current position */
					off = f->f_pos - (ret > 0 ? ret : 0);
				flags |= DIO_SF_OFFSET;
				break;
			case DIO_OFF_RET:
				off = ret;
				flags |= DIO_SF_OFFSET;
				break;
			case DIO_OFF_PTR:
				off = st->has_off ? st->off : f->f_pos - (ret > 0 ? ret : 0);
				flags |= DIO_SF_OFFSET;
				break;
			}
		}
		if (f) {
			struct dentry *d = f->f_path.dentry;
			__u64 parent = (__u64)d->d_parent, hash = d->d_name.hash_len;

			if (st->last_valid && st->last_parent == parent && st->last_hash == hash &&
			    st->last_tag.ino == tag.ino && st->last_tag.dev == tag.dev &&
			    st->last_tag.gen == tag.gen) {
				match = st->last_match;
			} else {
				match = ensure_path(sc, f, &tag, ftype, pid_tgid >> 32);
				st->last_tag = tag;
				st->last_parent = parent;
				st->last_hash = hash;
				st->last_match = match;
				st->last_valid = 1;
			}
		}
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
		struct mapkey k = { .addr = ret, .tgid = pid_tgid >> 32 };
		struct mapval v = { .tag = tag, .ftype = ftype, .has_file = !!(flags & DIO_SF_FILE) };

		bpf_map_update_elem(&mappings, &k, &v, BPF_ANY);
	}
	if (!match)
		return 0;

	ev = (void *)sc->ev;
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

	size = EV_STR_OFF + n0 + n1;
	if (hash_mode && m->data && ret > 0 && size <= EV_STR_OFF + 2 * DIO_PATH_MAX) {
		__u32 added = add_content(sc, sc->ev + size, arg(st, 1), ret);

		if (added) {
			flags |= DIO_SF_HASH;
			size += added;
		}
	}

	/* the common case, no strings: fill the reserved ring slot itself */
	if (size == EV_STR_OFF) {
		ev = bpf_ringbuf_reserve(&rb, sizeof(*ev), 0);
		if (!ev) {
			count(DIO_LOST_RINGBUF);
			return 0;
		}
	}
	ev->hdr.type = DIO_EV_SYSCALL;
	ev->hdr.cpu = bpf_get_smp_processor_id();
	ev->hdr.ts = st->ts;
	ev->hdr.size = size;
	ev->pid = pid_tgid >> 32;
	ev->tid = (__u32)pid_tgid;
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
	ev->tag = tag;
	ev->offset = off;
	ev->nr = nr;
	ev->ftype = ftype;
	ev->flags = flags;
	ev->str_len[0] = n0;
	ev->str_len[1] = n1;
	ev->fd = fd;
	ev->pad = 0;
	if (size == EV_STR_OFF) {
		bpf_ringbuf_submit(ev, rb_flags());
		return 0;
	}
	if (bpf_ringbuf_output(&rb, ev, size & (4 * DIO_PATH_MAX - 1), rb_flags()))
		count(DIO_LOST_RINGBUF);
	return 0;
}

SEC("tracepoint")
int dio_sys_enter(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);

	return on_enter(task, regs, regs->orig_ax);
}

SEC("tracepoint")
int dio_sys_exit(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit(bpf_get_current_task_btf(), ctx->id, ctx->ret);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(dio_raw_enter, struct pt_regs *regs, long id)
{
	return on_enter(bpf_get_current_task_btf(), regs, id);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(dio_raw_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 nr = regs->orig_ax;
	struct dio_sysmeta *m = bpf_map_lookup_elem(&sysmeta, &nr);

	/* most calls are not storage calls: leave before touching task storage */
	if (!m || !m->enabled)
		return 0;
	return on_exit(task, nr, ret);
}

/* ---- processes and threads ---------------------------------------------- */

static __always_inline void emit_proc(struct task_struct *t, __u16 kind, __u16 pflags,
				      __u32 opid, __u32 otid, __s32 code, const char *comm)
{
	struct dio_ev_proc *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

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
	bpf_ringbuf_submit(e, rb_flags());
}


SEC("tp_btf/sched_process_fork")
int BPF_PROG(dio_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ctgid = BPF_CORE_READ(child, tgid), ptgid = BPF_CORE_READ(parent, tgid);
	__u8 one = 1;

	/* the child joins the traced set whatever --tid, --comm or --cgroup say of its parent */
	if (!proc_traced(ptgid))
		return 0;
	if (!trace_all && ctgid != ptgid &&
	    bpf_map_update_elem(&traced, &ctgid, &one, BPF_ANY))
		count(DIO_LOST_OTHER);
	if (task_selected(parent))
		emit_proc(parent, DIO_PROC_FORK, ctgid == ptgid ? DIO_PROCF_THREAD : 0, ctgid,
			  BPF_CORE_READ(child, pid), 0, NULL);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(dio_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	if (is_traced(p))
		emit_proc(p, DIO_PROC_EXEC, 0, 0, old_pid, 0, NULL);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(dio_exit, struct task_struct *p, bool group_dead)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);

	if (!is_traced(p))
		return 0;
	/* group_dead arrived as a tracepoint argument in 6.16; older kernels: compare ids */
	emit_proc(p, DIO_PROC_EXIT, group_dead ? DIO_PROCF_GROUP_DEAD : 0, 0, 0,
		  BPF_CORE_READ(p, exit_code), NULL);
	if (group_dead && !trace_all)
		bpf_map_delete_elem(&traced, &tgid);
	return 0;
}

SEC("tp_btf/task_rename")
int BPF_PROG(dio_rename, struct task_struct *t, const char *comm)
{
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

SEC("tp_btf/io_uring_submit_req")
int BPF_PROG(dio_uring_submit, struct io_kiocb *req)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), key = (__u64)req;
	struct uring_pending p = {};

	if (!is_traced(bpf_get_current_task_btf()))
		return 0;
	p.ts = bpf_ktime_get_ns();
	p.pid = pid_tgid >> 32;
	p.tid = (__u32)pid_tgid;
	p.opcode = BPF_CORE_READ(req, opcode);
	p.fd = BPF_CORE_READ(req, cqe.fd);
	p.user_data = BPF_CORE_READ(req, cqe.user_data);
	if (BPF_CORE_READ(req, flags) & (1ULL << REQ_F_FIXED_FILE_BIT))
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
	if (bpf_map_update_elem(&uring, &key, &p, BPF_ANY))
		count(DIO_LOST_IOURING);
	return 0;
}

SEC("tp_btf/io_uring_complete")
int BPF_PROG(dio_uring_complete, void *ctx_, void *reqp, struct io_uring_cqe *cqe)
{
	__u64 key = (__u64)reqp;
	struct io_kiocb *req = reqp;
	struct uring_pending *p = bpf_map_lookup_elem(&uring, &key);
	struct dio_ev_iouring *e;
	struct dio_file_tag tag = {};
	struct file *f = NULL;
	struct scratch *sc;
	__u8 ftype = 0, flags;

	if (!p)
		return 0;
	flags = p->flags;
	if (detailed) {
		f = BPF_CORE_READ(req, file);
		if (f)
			f = bpf_rdonly_cast(f, bpf_core_type_id_kernel(struct file));
		if (f && (sc = get_scratch())) {
			ftype = file_tag(f, &tag);
			flags |= DIO_IF_FILE;
			if (dropped_type(ftype) || !ensure_path(sc, f, &tag, ftype, p->pid)) {
				bpf_map_delete_elem(&uring, &key);
				return 0;
			}
		}
	}
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
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
	e->res = cqe ? BPF_CORE_READ(cqe, res) : BPF_CORE_READ(req, cqe.res);
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
	bpf_ringbuf_submit(e, rb_flags());
	bpf_map_delete_elem(&uring, &key);
	return 0;
}

/* ---- block requests ----------------------------------------------------- */

/*
 * A request between its insert (or issue) and its completion, by the address
 * of its struct request: the request itself joins the two ends.
 */
struct blk_pending {
	__u64 insert_ts;	/* 0: not seen at insert */
	__u64 issue_ts;		/* 0: not issued yet */
	__u64 sys_ts;
	__u32 pid;
	__u32 tid;
	__u32 bytes;
	__u16 nr;
	__u8 flags;		/* DIO_BF_* */
	__u8 wanted;		/* submitter traced, or a kernel thread */
	char comm[DIO_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct blk_pending);
} blk SEC(".maps");

#define PF_KTHREAD	0x00200000

/* the traced verdict a task's last system call left in its storage */
static __always_inline struct inflight *traced_storage(struct task_struct *t)
{
	struct inflight *st = bpf_task_storage_get(&inflight, t, 0, 0);

	return st && st->traced && st->selected ? st : NULL;
}

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
static __always_inline void blk_submitter(struct blk_pending *p, struct request *rq)
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

SEC("tp_btf/block_rq_insert")
int BPF_PROG(dio_blk_insert, struct request *rq)
{
	__u64 key = (__u64)rq;
	struct blk_pending p = {};

	p.insert_ts = bpf_ktime_get_ns();
	p.flags = DIO_BF_QUEUED;
	blk_submitter(&p, rq);
	/* kept even when not wanted: the issue, often by a kworker, must not adopt it */
	if (bpf_map_update_elem(&blk, &key, &p, BPF_ANY))
		count(DIO_LOST_OTHER);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(dio_blk_issue, struct request *rq)
{
	__u64 key = (__u64)rq;
	struct blk_pending *p = bpf_map_lookup_elem(&blk, &key), n = {};

	if (!p) {
		/* issued without passing the scheduler: the issuer is the submitter */
		blk_submitter(&n, rq);
		if (!n.wanted)
			return 0;
		p = &n;
	} else if (!p->wanted) {
		bpf_map_delete_elem(&blk, &key);
		return 0;
	}
	p->issue_ts = bpf_ktime_get_ns();
	p->bytes = rq->__data_len;
	if (p == &n && bpf_map_update_elem(&blk, &key, &n, BPF_ANY))
		count(DIO_LOST_OTHER);
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
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct blk_pending *p = bpf_map_lookup_elem(&blk, &key);
	struct dio_ev_block *e;

	if (!p || !p->issue_ts)
		return 0;
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
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
	bpf_ringbuf_submit(e, rb_flags());
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
	runnable(p, 0);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(dio_wakeup_new, struct task_struct *p)
{
	runnable(p, 0);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(dio_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	struct inflight *st;
	struct dio_ev_runq *e;
	__u64 now, delay;

	/* preempted while runnable: it waits in the run queue from now */
	if (prev_state == 0)
		runnable(prev, 1);
	st = traced_storage(next);
	if (!st || !st->runq_ts)
		return 0;
	now = bpf_ktime_get_ns();
	delay = now - st->runq_ts;
	if (delay < runq_min_ns) {
		st->runq_ts = 0;
		return 0;
	}
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
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
	bpf_ringbuf_submit(e, rb_flags());
	return 0;
}
