// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dio/event.h>
#include "dio.skel.h"
#include "bpf/topcount.h"
#include "features.h"
#include "probe.h"
#include "record.h"
#include "ringrd.h"
#include "syscalls.h"
#include "util.h"
#include "weight.h"

#define TRACEFS "/sys/kernel/tracing"

struct probe {
	struct dio_bpf *skel;
	uint64_t swept[DIO_CNT_MAX];	/* losses the sweeps found, added to the kernel's */
	struct bpf_link **links;
	int nlinks;
	int cap;
	struct ringrd *rb;
	int *rings;			/* one ring map a CPU, in rbs */
	int nrings;
	int cgroup_fd;
	struct features feat;
};

static int debug_libbpf;
/* 0 when tracefs can be read, else why not (EACCES: mode 0700 and no CAP_DAC_READ_SEARCH) */
static int tracefs_errno;

/*
 * libbpf speaks in its own voice; keep its warnings (they explain verifier
 * failures) but drop the "ulimit -l" hint, which is wrong on memcg-accounted
 * kernels and only misleads.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];

	if (level == LIBBPF_DEBUG && !debug_libbpf)
		return 0;
	if (level == LIBBPF_INFO && !debug_libbpf)
		return 0;
	/* asked for: all of it (a verifier log is one message of many lines) */
	if (debug_libbpf)
		return vfprintf(stderr, fmt, ap);
	vsnprintf(line, sizeof(line), fmt, ap);
	if (strstr(line, "ulimit") || strstr(line, "RLIMIT_MEMLOCK"))
		return 0;
	return fprintf(stderr, "%s", line);
}

static int has_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return 0;
	return !!(d[cap / 32].effective & (1u << (cap % 32)));
}

int probe__check_machine(char *err, size_t errlen)
{
	struct stat st;

	if (!has_cap(CAP_SYS_ADMIN) && !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON))) {
		snprintf(err, errlen,
			 "dio needs root or the CAP_BPF and CAP_PERFMON capabilities: run it with sudo");
		return -EPERM;
	}
	if (stat("/sys/kernel/btf/vmlinux", &st)) {
		snprintf(err, errlen,
			 "this kernel has no BTF (/sys/kernel/btf/vmlinux is missing): dio needs a kernel built with CONFIG_DEBUG_INFO_BTF=y");
		return -ENOENT;
	}
	/*
	 * Per-syscall tracepoints are attached by the ids tracefs gives. Without
	 * it (not mounted and no CAP_SYS_ADMIN to mount it, as perf does, or mode
	 * 0700 and only CAP_BPF and CAP_PERFMON) the raw syscall tracepoints,
	 * attached by name, do the work instead.
	 */
	tracefs_errno = 0;
	if (stat(TRACEFS "/events/syscalls", &st)) {
		tracefs_errno = errno;
		if (errno == ENOENT && !mount("nodev", TRACEFS, "tracefs", 0, NULL) &&
		    !stat(TRACEFS "/events/syscalls", &st))
			tracefs_errno = 0;
	}
	return 0;
}

/* why per-syscall tracepoints cannot be used, for messages */
static const char *tracefs_problem(void)
{
	return tracefs_errno == EACCES ?
	       "tracefs (" TRACEFS ") is not readable without root or CAP_DAC_READ_SEARCH" :
	       tracefs_errno == ENOENT ? "tracefs is not mounted at " TRACEFS :
	       "tracefs (" TRACEFS ") cannot be read";
}

static int tracepoint_exists(const char *cat, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s", cat, name);
	/* with dio's own capabilities (file capabilities), not the real user's as access() */
	return !faccessat(AT_FDCWD, path, F_OK, AT_EACCESS);
}

static int add_link(struct probe *p, struct bpf_link *l)
{
	if (p->nlinks == p->cap) {
		int cap = p->cap ? p->cap * 2 : 256;
		struct bpf_link **n = realloc(p->links, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->links = n;
		p->cap = cap;
	}
	p->links[p->nlinks++] = l;
	return 0;
}

static void fill_meta(const struct dio_syscall *sc, struct dio_sysmeta *m)
{
	int nstr = 0;

	memset(m, 0, sizeof(*m));
	m->enabled = 1;
	m->fd_how = sc->fd_how;
	m->fd_arg = sc->fd_arg;
	m->off_how = sc->off_how;
	m->off_arg = sc->off_arg;
	m->data = sc->data;
	for (int i = 0; i < sc->nargs && i < 6; i++) {
		if (sc->args[i] != A_STR || nstr == 2)
			continue;
		if (nstr == 0) {
			m->str0 = i + 1;
			if (i > 0 && sc->args[i - 1] == A_DIRFD)
				m->dirfd0 = i;
		} else {
			m->str1 = i + 1;
			if (i > 0 && sc->args[i - 1] == A_DIRFD)
				m->dirfd1 = i;
		}
		nstr++;
	}
	/* what dio top counts as bytes read or written: a data call's size */
	m->io = syscall_io(sc);
	if (!strcmp(sc->name, "mmap"))
		m->flags = DIO_MF_NEED_FILE | DIO_MF_MMAP;
	else if (!strcmp(sc->name, "munmap"))
		m->flags = DIO_MF_MUNMAP;
}

static int use_raw(const struct options *o);

/*
 * Opens the --cgroup directory into p->cgroup_fd, or says in err what is wrong
 * and where cgroup v2 is mounted: on a hybrid system (v1 controllers under
 * /sys/fs/cgroup, v2 at /sys/fs/cgroup/unified) the usual example is a v1
 * path, and the kernel answers a v1 or plain directory with EBADF only.
 */
static int open_cgroup(struct probe *p, const char *path, char *err, size_t errlen)
{
	char mnt[4096] = "";
	struct statfs sf = { 0 };
	const char *what;
	struct mntent *m;
	FILE *f;
	int e;

	p->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->cgroup_fd < 0 || fstatfs(p->cgroup_fd, &sf)) {
		e = -errno;
		what = strerror(errno);
	} else if (sf.f_type == CGROUP2_SUPER_MAGIC) {
		return 0;
	} else {
		e = -EINVAL;
		what = sf.f_type == CGROUP_SUPER_MAGIC ? "a cgroup v1 directory, not v2" :
							 "not a cgroup v2 directory";
	}
	f = setmntent("/proc/self/mounts", "r");
	while (f && (m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup2")) {
			snprintf(mnt, sizeof(mnt), "%s", m->mnt_dir);
			break;
		}
	}
	if (f)
		endmntent(f);
	if (mnt[0])
		snprintf(err, errlen,
			 "--cgroup %s: %s (give a directory under %s, where cgroup v2 is mounted, e.g. %s/system.slice/redis.service)",
			 path, what, mnt, mnt);
	else
		snprintf(err, errlen,
			 "--cgroup %s: %s (no cgroup v2 file system is mounted: 'mount -t cgroup2 none /sys/fs/cgroup', or on /sys/fs/cgroup/unified where cgroup v1 is on /sys/fs/cgroup)",
			 path, what);
	return e;
}

/*
 * Of the programs that exist once per kernel variant, keep the one the
 * running kernel's prototypes fit (features.c read them).
 */
static void set_variants(struct probe *p, const struct options *o)
{
	struct dio_bpf *sk = p->skel;
	int uring = o->iouring && p->feat.state[FEAT_IOURING] != FEAT_MISSING;

	sk->rodata->btf_loads = p->feat.state[FEAT_FIELD_LOADS] == FEAT_NATIVE;
	/* the key of open file description ids: new for each session, never written down */
	if (getrandom((void *)sk->rodata->ofd_key, sizeof(sk->rodata->ofd_key), 0) !=
	    sizeof(sk->rodata->ofd_key)) {
		uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

		sk->rodata->ofd_key[0] = t * 0x9e3779b97f4a7c15ULL;
		sk->rodata->ofd_key[1] = (uint64_t)(uintptr_t)p ^ ~t;
	}
	bpf_program__set_autoload(p->feat.state[FEAT_EXIT_GROUP] == FEAT_NATIVE ?
				  sk->progs.dio_exit_live : sk->progs.dio_exit, false);
	bpf_program__set_autoload(sk->progs.dio_uring_submit, uring && !p->feat.uring_submit_sqe);
	bpf_program__set_autoload(sk->progs.dio_uring_submit_sqe, uring && p->feat.uring_submit_sqe);
	bpf_program__set_autoload(sk->progs.dio_uring_complete,
				  uring && !p->feat.uring_complete_res);
	bpf_program__set_autoload(sk->progs.dio_uring_complete_res,
				  uring && p->feat.uring_complete_res);
}

/* the rings, one a CPU, of size bytes each: put into rbs once it is loaded */
static int make_rings(struct probe *p, __u32 size, char *err, size_t errlen)
{
	p->rings = malloc((size_t)p->nrings * sizeof(*p->rings));
	if (!p->rings) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < p->nrings; i++)
		p->rings[i] = -1;
	for (int i = 0; i < p->nrings; i++) {
		p->rings[i] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dio_ring", 0, 0, size, NULL);
		if (p->rings[i] < 0) {
			int e = errno;

			snprintf(err, errlen, "cannot make the ring of CPU %d (%u bytes): %s", i,
				 size, strerror(e));
			return -e;
		}
	}
	return 0;
}

static int set_rodata(struct probe *p, const struct options *o, char *err, size_t errlen)
{
	struct dio_bpf__rodata *ro = p->skel->rodata;
	uint64_t ring = o->ring_bytes;
	int ncpu = libbpf_num_possible_cpus(), e;

	/* the ring must be a power of two number of pages */
	if (ring & (ring - 1)) {
		snprintf(err, errlen, "--ring-size must be a power of two (like 16M or 64M)");
		return -EINVAL;
	}
	if (ncpu <= 0) {
		snprintf(err, errlen, "cannot tell how many CPUs this machine can have: %s",
			 strerror(ncpu < 0 ? -ncpu : EINVAL));
		return ncpu < 0 ? ncpu : -EINVAL;
	}
	/* one ring a CPU, sharing --ring-size: a power of two each, 64 KiB at least */
	p->nrings = ncpu;
	while ((uint64_t)ncpu > 1 && ring > (64 << 10)) {
		ring /= 2;
		ncpu = (ncpu + 1) / 2;
	}
	ro->self_tgid = getpid();
	ro->trace_all = !!o->trace_all;
	ro->filter_tid = o->ntids > 0;
	ro->filter_comm = o->comm[0] != 0;
	memcpy((char *)ro->comm_filter, o->comm, sizeof(ro->comm_filter));
	ro->filter_cgroup = o->cgroup != NULL;
	ro->detailed = o->mode == MODE_DETAILED;
	ro->only_files = !!o->only_files;
	ro->wakeup_bytes = ring * o->wakeup_pct / 100;
	if (o->hash_bytes > DIO_PATH_MAX || o->capture_bytes > DIO_PATH_MAX) {
		snprintf(err, errlen, "--hash-bytes and --capture-data take at most %d bytes",
			 DIO_PATH_MAX);
		return -EINVAL;
	}
	ro->hash_mode = o->hash == HASH_KERNEL ? 2 : o->hash == HASH_USER ? 1 : 0;
	if (!ro->hash_mode && o->capture_bytes)
		ro->hash_mode = 1;
	ro->hash_bytes = o->hash == HASH_OFF ? 0 : o->hash_bytes;
	ro->capture_bytes = o->capture_bytes;
	ro->runq_min_ns = (uint64_t)o->runq_min_us * 1000;
	ro->count_mode = !!o->count_mode;
	ro->bench_floor = !!o->bench_floor;
	ro->n_prefix = o->nprefix;
	for (int i = 0; i < o->nprefix; i++) {
		snprintf((char *)ro->prefix[i], DIO_PREFIX_LEN, "%s", o->prefix[i]);
		ro->prefix_len[i] = strlen(o->prefix[i]);
	}
	ro->n_exclude = o->nexclude;
	for (int i = 0; i < o->nexclude; i++) {
		snprintf((char *)ro->exclude[i], DIO_PREFIX_LEN, "%s", o->exclude[i]);
		ro->exclude_len[i] = strlen(o->exclude[i]);
	}
	e = make_rings(p, (__u32)ring, err, errlen);
	if (e)
		return e;
	if (bpf_map__set_max_entries(p->skel->maps.rbs, (__u32)p->nrings) ||
	    bpf_map__set_inner_map_fd(p->skel->maps.rbs, p->rings[0]) ||
	    bpf_map__set_max_entries(p->skel->maps.tagseen, o->tag_entries) ||
	    bpf_map__set_max_entries(p->skel->maps.blk, o->inflight_entries) ||
	    bpf_map__set_max_entries(p->skel->maps.uring, o->inflight_entries) ||
	    bpf_map__set_max_entries(p->skel->maps.mappings, o->inflight_entries)) {
		snprintf(err, errlen, "cannot size the BPF maps");
		return -EINVAL;
	}
	if (use_raw(o)) {
		bpf_program__set_autoload(p->skel->progs.dio_sys_enter, false);
		bpf_program__set_autoload(p->skel->progs.dio_sys_exit, false);
	} else {
		bpf_program__set_autoload(p->skel->progs.dio_raw_enter, false);
		bpf_program__set_autoload(p->skel->progs.dio_raw_exit, false);
	}
	set_variants(p, o);
	if (!o->block || p->feat.state[FEAT_BLOCK] == FEAT_MISSING) {
		bpf_program__set_autoload(p->skel->progs.dio_blk_insert, false);
		bpf_program__set_autoload(p->skel->progs.dio_blk_issue, false);
		bpf_program__set_autoload(p->skel->progs.dio_blk_requeue, false);
		bpf_program__set_autoload(p->skel->progs.dio_blk_complete, false);
	}
	if (!o->runq || p->feat.state[FEAT_RUNQ] == FEAT_MISSING) {
		bpf_program__set_autoload(p->skel->progs.dio_wakeup, false);
		bpf_program__set_autoload(p->skel->progs.dio_wakeup_new, false);
		bpf_program__set_autoload(p->skel->progs.dio_switch, false);
	}
	return 0;
}

static int attach_prog(struct probe *p, struct bpf_program *prog, char *err, size_t errlen);

/*
 * Per-syscall tracepoints cost nothing for calls nobody selected, but each one
 * detached waits for a grace period under the kernel's event mutex (about 60 ms
 * here, 13 s for all 99): past a few, the raw syscall tracepoints (two
 * attachments that filter by number in the program) are the better trade.
 */
static int use_raw(const struct options *o)
{
	size_t n, nsel = 0;
	const struct dio_syscall *tab = syscall_table(&n);

	if (o->attach != ATTACH_AUTO || tracefs_errno)
		return o->attach == ATTACH_RAW || tracefs_errno;
	for (size_t i = 0; i < n; i++)
		nsel += tab[i].nr < DIO_NR_MAX && o->sel[tab[i].nr];
	return nsel > ATTACH_AUTO_MAX;
}

static int attach_syscalls(struct probe *p, const struct options *o, char *err, size_t errlen)
{
	size_t n;
	const struct dio_syscall *tab = syscall_table(&n);
	int fd = bpf_map__fd(p->skel->maps.sysmeta), e, raw = use_raw(o);

	for (size_t i = 0; i < n; i++) {
		const struct dio_syscall *sc = &tab[i];
		char enter[96], exit_[96];
		struct dio_sysmeta m;
		struct bpf_link *l;
		__u32 key = sc->nr;

		if (sc->nr >= DIO_NR_MAX || !o->sel[sc->nr])
			continue;
		snprintf(enter, sizeof(enter), "sys_enter_%s", syscall_tp(sc));
		snprintf(exit_, sizeof(exit_), "sys_exit_%s", syscall_tp(sc));
		/* raw: a call the kernel lacks is never seen; without tracefs, nothing to ask */
		if (!tracefs_errno &&
		    (!tracepoint_exists("syscalls", enter) || !tracepoint_exists("syscalls", exit_))) {
			warn_msg("%s has no tracepoint on this kernel (syscalls:%s): not traced",
				 sc->name, enter);
			continue;
		}
		fill_meta(sc, &m);
		if (bpf_map_update_elem(fd, &key, &m, BPF_ANY)) {
			e = -errno;
			snprintf(err, errlen, "cannot configure %s: %s", sc->name, strerror(errno));
			return e;
		}
		if (raw)
			continue;
		/* exit first: an entry without its exit would leave a slot in flight */
		l = bpf_program__attach_tracepoint(p->skel->progs.dio_sys_exit, "syscalls", exit_);
		if (!l || add_link(p, l))
			goto fail;
		l = bpf_program__attach_tracepoint(p->skel->progs.dio_sys_enter, "syscalls", enter);
		if (!l || add_link(p, l))
			goto fail;
		continue;
fail:
		e = -errno;
		snprintf(err, errlen, "cannot attach to syscalls:%s: %s", enter, strerror(errno));
		return e ? e : -EINVAL;
	}
	if (raw) {
		e = attach_prog(p, p->skel->progs.dio_raw_exit, err, errlen);
		if (!e)
			e = attach_prog(p, p->skel->progs.dio_raw_enter, err, errlen);
		return e;
	}
	return 0;
}

static int attach_prog(struct probe *p, struct bpf_program *prog, char *err, size_t errlen)
{
	struct bpf_link *l;

	if (!bpf_program__autoload(prog))
		return 0;
	l = bpf_program__attach(prog);
	if (!l || add_link(p, l)) {
		int e = -errno;

		snprintf(err, errlen, "cannot attach %s: %s", bpf_program__name(prog), strerror(errno));
		return e ? e : -EINVAL;
	}
	return 0;
}

struct probe *probe__new(const struct options *o, ring_buffer_sample_fn cb, void *ctx, char *err,
			 size_t errlen)
{
	struct probe *p;
	int e;

	e = probe__check_machine(err, errlen);
	if (!e && tracefs_errno && o->attach == ATTACH_SYSCALL) {
		snprintf(err, errlen, "--attach syscall: %s (%s): use --attach raw or run dio as root",
			 tracefs_problem(), strerror(tracefs_errno));
		e = -tracefs_errno;
	}
	if (e) {
		errno = -e;
		return NULL;
	}
	if (tracefs_errno && o->attach == ATTACH_AUTO)
		warn_msg("%s: system calls are traced through the raw syscall tracepoints (--attach raw)",
			 tracefs_problem());
	debug_libbpf = secure_getenv("DIO_DEBUG_LIBBPF") != NULL;
	libbpf_set_print(libbpf_print);
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	p->cgroup_fd = -1;
	e = features__probe(&p->feat, err, errlen);
	if (!e)
		e = features__check_helpers(&p->feat, err, errlen);
	if (e)
		goto fail;
	{
		const int wanted[FEAT_MAX] = {
			[FEAT_FIELD_LOADS] = o->mode == MODE_DETAILED,
			[FEAT_EXIT_GROUP] = 1,
			[FEAT_IOURING] = o->iouring,
			[FEAT_BLOCK] = o->block,
			[FEAT_RUNQ] = o->runq,
		};

		features__warn(&p->feat, wanted);
	}
	p->skel = dio_bpf__open();
	if (!p->skel) {
		e = -errno;
		snprintf(err, errlen, "cannot open the BPF object: %s", strerror(errno));
		goto fail;
	}
	e = set_rodata(p, o, err, errlen);
	if (e)
		goto fail;
	/* before the load, which takes a while: a mistyped path fails at once */
	if (o->cgroup) {
		e = open_cgroup(p, o->cgroup, err, errlen);
		if (e)
			goto fail;
	}
	e = dio_bpf__load(p->skel);
	if (e) {
		snprintf(err, errlen,
			 "the kernel refused dio's BPF programs: %s (run with DIO_DEBUG_LIBBPF=1 for the verifier log)",
			 strerror(-e));
		goto fail;
	}
	if (o->cgroup) {
		__u32 zero = 0;

		if (bpf_map_update_elem(bpf_map__fd(p->skel->maps.cgroup), &zero, &p->cgroup_fd, BPF_ANY)) {
			e = -errno;
			snprintf(err, errlen, "--cgroup %s: the kernel refused it as a cgroup: %s",
				 o->cgroup, strerror(errno));
			goto fail;
		}
	}
	for (int i = 0; i < o->ntids; i++) {
		__u32 tid = o->tids[i];
		__u8 one = 1;

		if (bpf_map_update_elem(bpf_map__fd(p->skel->maps.tids), &tid, &one, BPF_ANY)) {
			e = -errno;
			snprintf(err, errlen, "cannot add thread %d: %s", tid, strerror(errno));
			goto fail;
		}
	}
	for (int i = 0; i < p->nrings; i++) {
		__u32 key = (__u32)i;

		if (bpf_map_update_elem(bpf_map__fd(p->skel->maps.rbs), &key, &p->rings[i], BPF_ANY)) {
			e = -errno;
			snprintf(err, errlen, "cannot give CPU %d its ring: %s", i, strerror(errno));
			goto fail;
		}
	}
	p->rb = ringrd__new(p->rings, p->nrings, cb, record__made_at, ctx);
	if (!p->rb) {
		e = -errno;
		snprintf(err, errlen, "cannot open the ring buffer: %s", strerror(errno));
		goto fail;
	}
	/* process tracking first, so no fork between attach steps is missed */
	e = attach_prog(p, p->skel->progs.dio_fork, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_exit, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_exit_live, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_exec, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_rename, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_uring_submit, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_uring_submit_sqe, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_uring_complete, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_uring_complete_res, err, errlen);
	/* completion before issue before insert: no request is half seen */
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_blk_complete, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_blk_requeue, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_blk_issue, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_blk_insert, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_switch, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_wakeup, err, errlen);
	if (!e)
		e = attach_prog(p, p->skel->progs.dio_wakeup_new, err, errlen);
	if (!e)
		e = attach_syscalls(p, o, err, errlen);
	if (e)
		goto fail;
	/*
	 * The thread that reads the ring, against a program of many runnable
	 * threads (weight.h). The command dio starts was forked before: it
	 * keeps its own nice value. Without CAP_SYS_NICE dio keeps its own too:
	 * --stats shows it, and records lost for it are said with their cause.
	 */
	weight__raise();
	return p;
fail:
	probe__free(p);
	errno = e < 0 ? -e : EINVAL;
	return NULL;
}

struct detach_job {
	struct probe *p;
	int first, step;
};

static void *detach_thread(void *arg)
{
	struct detach_job *j = arg;

	for (int i = j->first; i < j->p->nlinks; i += j->step)
		bpf_link__destroy(j->p->links[i]);
	return NULL;
}

/*
 * Each detach from a syscall tracepoint waits for an RCU grace period (the
 * tracepoints may fault, so their readers are RCU-tasks-trace readers): one
 * after the other, 200 of them took 13 s here. Detached from many threads at
 * once, the waits overlap.
 */
static void detach_all(struct probe *p)
{
	enum { NTHREADS = 64 };
	struct detach_job jobs[NTHREADS];
	pthread_t th[NTHREADS];
	int started[NTHREADS] = { 0 };
	int n = p->nlinks < NTHREADS ? p->nlinks : NTHREADS;

	for (int k = 0; k < n; k++) {
		jobs[k] = (struct detach_job){ .p = p, .first = k, .step = n };
		started[k] = !pthread_create(&th[k], NULL, detach_thread, &jobs[k]);
	}
	for (int k = 0; k < n; k++) {
		if (started[k])
			pthread_join(th[k], NULL);
		else
			detach_thread(&jobs[k]);
	}
}

void probe__free(struct probe *p)
{
	if (!p)
		return;
	detach_all(p);
	free(p->links);
	ringrd__free(p->rb);
	for (int i = 0; p->rings && i < p->nrings; i++)
		if (p->rings[i] >= 0)
			close(p->rings[i]);
	free(p->rings);
	dio_bpf__destroy(p->skel);
	if (p->cgroup_fd >= 0)
		close(p->cgroup_fd);
	free(p);
}

int probe__trace_pid(struct probe *p, pid_t pid)
{
	__u32 key = pid;
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(p->skel->maps.traced), &key, &one, BPF_ANY))
		return -errno;
	return 0;
}

int probe__poll(struct probe *p, int timeout_ms)
{
	int e = ringrd__wait(p->rb, timeout_ms);

	if (e < 0)
		return e;
	/* records submitted without a wakeup wake no one: the read takes them too,
	 * up to the time the wait ended */
	return ringrd__consume(p->rb, util__mono_ns());
}

int probe__drain(struct probe *p)
{
	/* all made before now; not later ones, which could pass a record of their thread */
	return ringrd__consume(p->rb, util__mono_ns());
}

int probe__counters(struct probe *p, uint64_t *out)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(p->skel->maps.counters);
	uint64_t *vals;

	if (ncpu <= 0)
		return -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (__u32 k = 0; k < DIO_CNT_MAX; k++) {
		out[k] = 0;
		if (bpf_map_lookup_elem(fd, &k, vals))
			continue;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
		out[k] += p->swept[k];
	}
	free(vals);
	return 0;
}

uint32_t probe__tag_entries(const struct probe *p)
{
	return bpf_map__max_entries(p->skel->maps.tagseen);
}

int probe__map_fd(const struct probe *p, const char *name)
{
	int fd = bpf_object__find_map_fd_by_name(p->skel->obj, name);

	return fd < 0 ? -ENOENT : fd;
}

const struct features *probe__features(const struct probe *p)
{
	return &p->feat;
}

int probe__attached(const struct probe *p)
{
	return p->nlinks;
}

struct bpf_object *probe__object(const struct probe *p)
{
	return p->skel->obj;
}

/*
 * Delete the entries of a hash map that drop() picks, read a chunk of
 * buckets at a time. The walk's position is a bucket, so deleting what it
 * returned does not disturb it. Returns the entries deleted, or -errno.
 */
static long sweep_map(struct bpf_map *map, int (*drop)(const void *key, const void *val, void *ud),
		      void *ud)
{
	size_t ksize = bpf_map__key_size(map), vsize = bpf_map__value_size(map);
	int fd = bpf_map__fd(map), e = 0;
	uint32_t chunk = 1024, token = 0, n;
	uint8_t *keys = malloc(chunk * ksize), *vals = malloc(chunk * vsize);
	long deleted = 0;

	for (int first = 1; keys && vals; first = 0) {
		n = chunk;
		e = bpf_map_lookup_batch(fd, first ? NULL : &token, &token, keys, vals, &n, NULL);
		if (e && errno != ENOENT) {
			e = -errno;
			break;
		}
		for (uint32_t i = 0; i < n; i++)
			if (drop(keys + i * ksize, vals + i * vsize, ud))
				deleted += !bpf_map_delete_elem(fd, keys + i * ksize);
		if (e) {	/* ENOENT: the last bucket was read */
			e = 0;
			break;
		}
	}
	if (!keys || !vals)
		e = -ENOMEM;
	free(keys);
	free(vals);
	return e ? e : deleted;
}

/* whether a process is gone, remembered for a sweep: a process has many entries */
struct alive_cache {
	uint32_t tgid[64];
	uint8_t gone[64];
};

static int gone(struct alive_cache *c, uint32_t tgid)
{
	uint32_t i = tgid % 64;

	if (c->tgid[i] != tgid || !tgid) {
		c->tgid[i] = tgid;
		c->gone[i] = kill((pid_t)tgid, 0) && errno == ESRCH;
	}
	return c->gone[i];
}

static int mapping_gone(const void *key, const void *val, void *ud)
{
	(void)val;
	return gone(ud, ((const struct dio_mapkey *)key)->tgid);
}

static int uring_gone(const void *key, const void *val, void *ud)
{
	(void)key;
	return gone(ud, ((const struct dio_uring_pending *)val)->pid);
}

struct blk_sweep {
	uint64_t before;	/* CLOCK_MONOTONIC ns: entries older are dropped */
	uint64_t unseen;	/* wanted requests issued and never completed */
};

static int blk_stale(const void *key, const void *val, void *ud)
{
	const struct dio_blk_pending *b = val;
	struct blk_sweep *w = ud;
	uint64_t ts = b->issue_ts ? b->issue_ts : b->insert_ts;

	(void)key;
	if (ts >= w->before)
		return 0;
	w->unseen += b->issue_ts && b->wanted;
	return 1;
}

int probe__sweep(struct probe *p, uint64_t block_age_ns)
{
	struct blk_sweep w = { 0 };
	struct alive_cache alive;
	struct timespec now;
	long e;

	memset(&alive, 0, sizeof(alive));
	e = sweep_map(p->skel->maps.mappings, mapping_gone, &alive);
	if (e >= 0)
		e = sweep_map(p->skel->maps.uring, uring_gone, &alive);
	clock_gettime(CLOCK_MONOTONIC, &now);
	w.before = (uint64_t)now.tv_sec * 1000000000ULL + now.tv_nsec;
	w.before = w.before > block_age_ns ? w.before - block_age_ns : 0;
	if (e >= 0)
		e = sweep_map(p->skel->maps.blk, blk_stale, &w);
	p->swept[DIO_LOST_BLOCK_UNSEEN] += w.unseen;
	return e < 0 ? (int)e : 0;
}
