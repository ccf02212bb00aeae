/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Paths, walked in the kernel as d_path() writes them: from the file's dentry
 * up to the task's own root (chroot, container), across mounts, and the
 * --path/--exclude-path prefix match on the result.
 */
#ifndef DIO_PATH_BPF_H
#define DIO_PATH_BPF_H

#define AT_FDCWD	-100

static long walk_step(__u32 i, void *ctx)
{
	struct walk *w = *(struct walk **)ctx;
	struct dentry *d = w->d, *parent;
	struct mount *mnt = w->mnt;
	__u32 depth = w->depth;

	if (w->root_d && d == w->root_d && mnt == w->root_mnt)
		return 1;
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
 * The root the task sees paths from (its fs->root), so that a process under
 * chroot or in a container gets "/etc/hostname" as /proc/PID/fd shows it, not
 * the path from the root of the whole mount tree. NULL task: no such root.
 */
static __always_inline void walk_root(struct walk *w, struct task_struct *task)
{
	struct fs_struct *fs = task ? task->fs : NULL;
	struct vfsmount *vmnt = fs ? fs->root.mnt : NULL;

	w->root_d = vmnt ? fs->root.dentry : NULL;
	w->root_mnt = (struct mount *)((void *)vmnt - bpf_core_field_offset(struct mount, mnt));
}

/*
 * Write the path of (dentry, vfsmount) as task sees it into buf (PATH_BUF
 * bytes) and return its length without the NUL. *trunc: bit 0 when its end
 * was cut (too long), bit 1 when its start was (too deep to walk).
 */
static __always_inline __u32 walk_path(struct walk *w, struct task_struct *task, struct dentry *d,
				       struct vfsmount *vmnt, char *buf, __u32 *trunc)
{
	struct build_ctx b = { .w = w, .buf = buf };
	struct walk *wp = w;

	walk_root(w, task);
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
	*trunc = b.trunc | w->trunc << 1;
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
	dlen = walk_path(&sc->w, task, d, mnt, sc->cmp, &trunc);
	if (dlen > DIO_PATH_MAX - 2)
		return 1;
	sc->cmp[dlen & (DIO_PATH_MAX - 1)] = '/';
	if (bpf_probe_read_kernel_str(sc->cmp + ((dlen + 1) & (DIO_PATH_MAX - 1)), DIO_PATH_MAX, arg) < 0)
		return 1;
	return path_match(sc->cmp, dlen + alen);
}

/*
 * Make sure the path of f's tag, as task sees it, has been sent (again, if the
 * file moved or the root it is seen from changed) and return the path
 * filter's verdict for it. One path is kept per tag: processes with other
 * roots (host and chroot) that take turns on one file send it at each turn,
 * and a task's last-file cache (exit_file) may then name it as the other saw it.
 */
static __always_inline __u8 ensure_path(struct scratch *sc, struct task_struct *task, struct file *f,
					const struct dio_file_tag *tag, __u8 ftype, __u32 pid)
{
	struct dentry *d = KLOAD(f, f_path.dentry);
	struct tagseen *seen, nv = {};
	struct dio_ev_path *rec;
	__u32 len, trunc = 0;
	__u8 flags = 0;

	nv.parent = (__u64)KLOAD(d, d_parent);
	nv.hash_len = KLOAD(d, d_name.hash_len);
	nv.root = task ? (__u64)BPF_CORE_READ(task, fs, root.dentry) : 0;
	seen = bpf_map_lookup_elem(&tagseen, tag);
	if (seen) {
		if (seen->parent == nv.parent && seen->hash_len == nv.hash_len &&
		    seen->root == nv.root)
			return seen->match;
		flags |= DIO_PF_RENAMED;
	}
	rec = (void *)sc->pathrec;
	len = walk_path(&sc->w, task, d, KLOAD(f, f_path.mnt), (char *)sc->pathrec + sizeof(*rec),
			&trunc);
	nv.match = path_match((char *)sc->pathrec + sizeof(*rec), len);
	/*
	 * An LRU takes every new tag in, forgetting the least recently used
	 * (counted as taken in, the host tells how many were forgotten). An
	 * insert fails only when the LRU found no node to reuse: the path is
	 * sent all the same and sent again at the file's next use, nothing lost.
	 */
	if (!bpf_map_update_elem(&tagseen, tag, &nv, BPF_ANY) && !seen)
		count(DIO_CNT_TAG_NEW);
	if (trunc) {
		flags |= DIO_PF_TRUNC | (trunc & 2 ? DIO_PF_TRUNC_HEAD : 0) |
			 (trunc & 1 ? DIO_PF_TRUNC_TAIL : 0);
		count(DIO_CNT_PATH_TRUNC);
	}
	if (!KLOAD(f, f_inode, __i_nlink))
		flags |= DIO_PF_DELETED;
	/* filtered-out files need no path in user space */
	if (!nv.match)
		return 0;
	/* with -a every device's requests are wanted: the table is not read */
	if (!trace_all && (ftype == DIO_FT_REG || ftype == DIO_FT_DIR) &&
	    !bpf_map_lookup_elem(&blkdevs, &tag->dev)) {
		__u8 one = 1;

		/* failing because another CPU inserted it meanwhile is as good */
		if (bpf_map_update_elem(&blkdevs, &tag->dev, &one, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&blkdevs, &tag->dev))
			count(DIO_LOST_BLKDEVS);
	}
	/*
	 * The tag is remembered as sent: a path record the ring had no room for
	 * (counted there too) leaves the file's calls with a tag until the file
	 * is renamed or the tag table forgets it.
	 */
	if (emit_path(rec, tag, len, flags, ftype, pid))
		count(DIO_LOST_PATHTAB);
	return 1;
}

#endif
