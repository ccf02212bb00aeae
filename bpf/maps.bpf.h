/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Settings and maps of dio's BPF object, and the small helpers every program
 * uses on them (loss counters, ring wakeups, per-CPU scratch).
 */
#ifndef DIO_MAPS_BPF_H
#define DIO_MAPS_BPF_H

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
/*
 * --bench-floor: every program returns before doing anything, so a run
 * measures what the attached probes alone cost. Tested first in each program:
 * the verifier knows the value and drops the rest.
 */
const volatile __u8 bench_floor = 0;
const volatile char comm_filter[DIO_COMM_LEN] = {};
const volatile char prefix[DIO_MAX_PREFIX][DIO_PREFIX_LEN] = {};
const volatile __u16 prefix_len[DIO_MAX_PREFIX] = {};
const volatile char exclude[DIO_MAX_PREFIX][DIO_PREFIX_LEN] = {};
const volatile __u16 exclude_len[DIO_MAX_PREFIX] = {};

/*
 * One ring a CPU, made and put in by the host (each of the same size): a
 * program writes to its own CPU's ring, so CPUs never share a reserve lock,
 * a producer position or a record's cache lines. The host reads the rings
 * and puts their records back in the order they were made (engine/ringrd.c).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);		/* the host sets one a CPU */
	__type(key, __u32);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_RINGBUF);
		__uint(max_entries, 64 << 20);	/* the host sets the size */
	});
} rbs SEC(".maps");

/* this CPU's ring, or NULL (a CPU that came online after the start: counted as lost) */
static __always_inline void *ring(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&rbs, &cpu);
}

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
	__u32 ofd;			/* close: the description, looked up at entry */
	__u32 last_ofd;			/* ofd_id(last_file), 0: none yet */
	__u64 last_file;		/* the struct file address last_ofd was made from */
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

static __always_inline __u64 arg(const struct inflight *st, __u32 i)
{
	return i < 6 ? st->args[i] : 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct inflight);
} inflight SEC(".maps");

/*
 * Tags whose path was sent. A rename changes the dentry's parent or its name
 * hash, a chroot the root the path is seen from: all are kept so that the path
 * is sent again when one changes. An LRU: a tag it forgets costs its path sent
 * again at the file's next use, no record (DIO_CNT_TAG_NEW counts what it takes in).
 */
struct tagseen {
	__u64 parent;
	__u64 hash_len;
	__u64 root;		/* the root dentry the path was written from */
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

struct mapval {
	struct dio_file_tag tag;
	__u8 ftype;
	__u8 has_file;	/* tag and ftype are known (not in raw mode) */
	__u8 pad[6];
};

/* Sized by the host (--inflight-table); see dio.h for why they are not LRU maps. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, struct dio_mapkey);
	__type(value, struct mapval);
} mappings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, __u64);
	__type(value, struct dio_uring_pending);
} uring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, __u64);
	__type(value, struct dio_blk_pending);
} blk SEC(".maps");

/* Per-CPU scratch space: records with strings and path walks are built here. */
#define MAX_DEPTH	64	/* path components kept */
#define WALK_STEPS	96	/* components plus mount crossings */
#define NAME_MAX_BYTES	256
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
	struct dentry *root_d;		/* the task's root: the walk ends there */
	struct mount *root_mnt;
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
static __always_inline __u64 rb_flags(void *r)
{
	if (!wakeup_bytes)
		return 0;
	if (bpf_ringbuf_query(r, BPF_RB_AVAIL_DATA) >= wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline struct scratch *get_scratch(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&scratch, &zero);
}

#endif
