/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file behind a call: from its fd to its tag, type and offset. */
#ifndef DIO_FILE_BPF_H
#define DIO_FILE_BPF_H

#define S_IFMT		00170000

/*
 * The file behind fd, typed (compat.bpf.h) where the kernel allows. This runs
 * for every call on an fd: a helper call per field cost more than the rest of
 * the probe, hence the direct loads where they are possible.
 */
static __always_inline struct file *fd_file_addr(struct task_struct *task, long fd, __u64 *addr)
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
	/* the address as a number, read before the verifier types it (ofd_id) */
	*addr = (__u64)f;
	return typed_file(f);
}

static __always_inline struct file *fd_file(struct task_struct *task, long fd)
{
	__u64 addr;

	return fd_file_addr(task, fd, &addr);
}

/* Fill tag from f's inode; returns its DIO_FT_* type. */
static __always_inline __u8 file_tag(struct file *f, struct dio_file_tag *tag)
{
	struct inode *ino = KLOAD(f, f_inode);
	__u8 ft = (KLOAD(ino, i_mode) & S_IFMT) >> 12;

	tag->ino = KLOAD(ino, i_ino);
	tag->dev = KLOAD(ino, i_sb, s_dev);
	tag->gen = KLOAD(ino, i_generation);
	return ft ? ft : DIO_FT_ANON;
}

/*
 * The file a call used, by the way sysmeta says it names one (DIO_FD_*); NULL
 * for none. fd gets the descriptor it was found through.
 */
static __always_inline struct file *call_file(struct task_struct *task, const struct dio_sysmeta *m,
					      const struct inflight *st, __s64 ret, __s32 *fd,
					      __u64 *addr)
{
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
	if (fdv < 0)
		return NULL;
	*fd = fdv;
	return fd_file_addr(task, fdv, addr);
}

/*
 * Where the call read or wrote (DIO_OFF_*), for files that have offsets.
 * Returns 1 and sets *off when known.
 */
static __always_inline int call_offset(struct file *f, __u8 ftype, const struct dio_sysmeta *m,
				       const struct inflight *st, __s64 ret, __s64 *off)
{
	__s64 moved = ret > 0 ? ret : 0;

	if (ret < 0 || !(ftype == DIO_FT_REG || ftype == DIO_FT_BLK || ftype == DIO_FT_DIR))
		return 0;
	switch (m->off_how) {
	case DIO_OFF_POS:
		*off = KLOAD(f, f_pos) - moved;
		break;
	case DIO_OFF_ARG:
		*off = arg(st, m->off_arg);
		if (*off == -1)	/* preadv2/pwritev2: current position */
			*off = KLOAD(f, f_pos) - moved;
		break;
	case DIO_OFF_RET:
		*off = ret;
		break;
	case DIO_OFF_PTR:
		*off = st->has_off ? st->off : KLOAD(f, f_pos) - moved;
		break;
	default:
		return 0;
	}
	/*
	 * A file whose read does not move f_pos (/proc/kmsg: the kernel log's
	 * own cursor) gives a position below what the call moved: no offset.
	 */
	return *off >= 0;
}

/*
 * Open file description ids: SipHash-1-3 of the struct file's address (from
 * fd_file_addr: a number, which the verifier lets us hash) under
 * a key the host makes for each session (ofd_key), cut to 32 bits, never 0.
 * A keyed hash and not the address itself: records are kept and shared, and
 * kernel addresses must not leak through them.
 */
const volatile __u64 ofd_key[2] = { 0, 0 };

#define SIP_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIP_ROUND(v0, v1, v2, v3) do {					\
	v0 += v1; v1 = SIP_ROTL(v1, 13); v1 ^= v0; v0 = SIP_ROTL(v0, 32); \
	v2 += v3; v3 = SIP_ROTL(v3, 16); v3 ^= v2;			\
	v0 += v3; v3 = SIP_ROTL(v3, 21); v3 ^= v0;			\
	v2 += v1; v1 = SIP_ROTL(v1, 17); v1 ^= v2; v2 = SIP_ROTL(v2, 32); \
} while (0)

static __always_inline __u32 ofd_id(__u64 m)
{
	__u64 b = 8ULL << 56;
	__u64 v0 = ofd_key[0] ^ 0x736f6d6570736575ULL, v1 = ofd_key[1] ^ 0x646f72616e646f6dULL;
	__u64 v2 = ofd_key[0] ^ 0x6c7967656e657261ULL, v3 = ofd_key[1] ^ 0x7465646279746573ULL;
	__u32 h;

	v3 ^= m;
	SIP_ROUND(v0, v1, v2, v3);
	v0 ^= m;
	v3 ^= b;
	SIP_ROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIP_ROUND(v0, v1, v2, v3);
	SIP_ROUND(v0, v1, v2, v3);
	SIP_ROUND(v0, v1, v2, v3);
	h = (__u32)(v0 ^ v1 ^ v2 ^ v3);
	return h ? h : 1;
}

static __always_inline int dropped_type(__u8 ft)
{
	return only_files && (ft == DIO_FT_SOCK || ft == DIO_FT_FIFO || ft == DIO_FT_ANON);
}

#endif
