/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which tasks are traced: the traced set, --tid, --comm and --cgroup. */
#ifndef DIO_TASK_BPF_H
#define DIO_TASK_BPF_H

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

/* the traced verdict a task's last system call left in its storage */
static __always_inline struct inflight *traced_storage(struct task_struct *t)
{
	struct inflight *st = bpf_task_storage_get(&inflight, t, 0, 0);

	return st && st->traced && st->selected ? st : NULL;
}

/* The mount namespace a task sees files through (its inode number, as in /proc/PID/ns/mnt). */
static __always_inline __u32 task_mnt_ns(struct task_struct *t)
{
	return BPF_CORE_READ(t, nsproxy, mnt_ns, ns.inum);
}

#endif
