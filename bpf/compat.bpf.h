/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where kernels differ, in one place. The host reads the running kernel's BTF,
 * picks the programs whose tracepoint prototypes it has (sched_process_exit,
 * io_uring_*) and sets these switches before load; the verifier then drops the
 * branch a switch turns off, so no kernel sees code it cannot check.
 */
#ifndef DIO_COMPAT_BPF_H
#define DIO_COMPAT_BPF_H

/*
 * 1: the kfunc bpf_rdonly_cast exists (Linux 6.2): a pointer read from memory
 * becomes a typed one whose fields load directly. 0: each field is a
 * bpf_probe_read_kernel, the same values at a higher cost per call.
 */
const volatile __u8 btf_loads = 0;

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* A struct file pointer read from memory, typed where the kernel allows it. */
static __always_inline struct file *typed_file(struct file *raw)
{
	if (btf_loads && raw)
		return bpf_rdonly_cast(raw, bpf_core_type_id_kernel(struct file));
	return raw;
}

/*
 * KLOAD(f, a, b): f->a->b for a pointer from typed_file(), by direct loads
 * when the kernel typed it, else by BPF_CORE_READ.
 */
#define KLOAD(src, ...) (btf_loads ? ___arrow(src, __VA_ARGS__) : BPF_CORE_READ(src, __VA_ARGS__))

/*
 * Whether the exiting task is the last of its thread group. sched_process_exit
 * passes it since 6.16; before, do_exit() has already decremented signal->live when the tracepoint
 * fires, so a count of 0 says the same.
 */
static __always_inline int exit_group_dead(struct task_struct *p)
{
	return BPF_CORE_READ(p, signal, live.counter) == 0;
}

/*
 * io_kiocb.flags is 32 bits wide on 6.1 and 64 bits on 6.12: read it at the
 * running kernel's size.
 */
static __always_inline __u64 uring_req_flags(struct io_kiocb *req)
{
	return BPF_CORE_READ_BITFIELD_PROBED(req, flags);
}

/*
 * v & mask, for a length already clamped below mask: the AND changes nothing,
 * but 6.1's verifier loses a clamp's bounds when the compiler reloads the
 * value from the stack, and refuses the helper call ("R2 min value is
 * negative"); the barrier keeps the compiler from dropping the AND.
 */
static __always_inline __u32 bounded(__u32 v, __u32 mask)
{
	asm volatile("" : "+r"(v));
	return v & mask;
}

/*
 * Bytes bpf_probe_read_user_str() copied, NUL included. On 6.1 and 6.12 it
 * returns 0, not 1 as on 6.18, for an empty string: the "" that glibc's
 * fstat() passes to newfstatat. 0 is never a fault (that is -EFAULT), so it
 * is the empty string.
 */
static __always_inline long str_len_read(char *buf, long n)
{
	if (n == 0) {
		buf[0] = 0;
		return 1;
	}
	return n;
}

#endif
