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
	return typed_file(f);
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
					      const struct inflight *st, __s64 ret, __s32 *fd)
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
	return fd_file(task, fdv);
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
		return 1;
	case DIO_OFF_ARG:
		*off = arg(st, m->off_arg);
		if (*off == -1)	/* preadv2/pwritev2: current position */
			*off = KLOAD(f, f_pos) - moved;
		return 1;
	case DIO_OFF_RET:
		*off = ret;
		return 1;
	case DIO_OFF_PTR:
		*off = st->has_off ? st->off : KLOAD(f, f_pos) - moved;
		return 1;
	}
	return 0;
}

static __always_inline int dropped_type(__u8 ft)
{
	return only_files && (ft == DIO_FT_SOCK || ft == DIO_FT_FIFO || ft == DIO_FT_ANON);
}

#endif
