// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * durability: will the data survive a power cut? The calls that decide it are
 * all in the trace: the writes to a file, the syncs (or none) of its data,
 * the rename that puts it in place of its old version, the sync (or none) of
 * the directory that holds the new name, an fsync that failed and what the
 * program did next, a write that came back short. Five rules, each the crash
 * it predicts (README.md):
 *
 *  - unsynced-replace: a file renamed over an existing name with data written
 *    since it was opened that no fsync or fdatasync made durable;
 *  - unsynced-new-name: a program that syncs file data creates, renames or
 *    unlinks a name and never syncs the directory afterwards;
 *  - truncate-rewrite: a file holding data truncated, written again and
 *    closed without a sync;
 *  - fsync-error: a failed fsync (EIO, ENOSPC, EDQUOT) followed by more
 *    writes or a "successful" sync, without the lost data written again;
 *  - short-write: a write that came back short whose rest was never written.
 *
 * Files on memory file systems (tmpfs, proc, sysfs, ...: host->fs_type) are
 * not judged. Findings are one per rule and program (analyzers/common/prog.h),
 * made at the end, with the bytes at risk as their count.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

enum { O_MAX_FILES, O_MAX_DESCS, O_MAX_NAMES, O_MAX_PROCS, O_MAX_REPORTS, O_MAX_PENDING };

static const struct dio_option options[] = {
	[O_MAX_FILES] = { "max_files", DIO_OPT_INT, "4096",
			  "files followed: unsynced writes, truncations, failed syncs" },
	[O_MAX_DESCS] = { "max_descs", DIO_OPT_INT, "4096",
			  "open file descriptions followed: O_SYNC, a short write" },
	[O_MAX_NAMES] = { "max_names", DIO_OPT_INT, "16384",
			  "paths of files seen, to know a rename's target existed" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "4096",
			  "processes followed: their program" },
	[O_MAX_REPORTS] = { "max_reports", DIO_OPT_INT, "256",
			    "(program, rule) pairs that can make a finding" },
	[O_MAX_PENDING] = { "max_pending", DIO_OPT_INT, "1024",
			    "(program, directory) pairs with names not synced yet" },
	{ NULL, 0, NULL, NULL },
};

enum { R_REPLACE, R_NEW_NAME, R_TRUNCATE, R_FSYNC_ERROR, R_SHORT_WRITE, R_TABLE_FULL, RULES };

static const struct dio_rule rules[RULES + 1] = {
	[R_REPLACE] = {
		"durability.unsynced-replace", DIO_SEV_WARNING, 0,
		"A file renamed over an existing one before its data was synced",
		"A regular file on a disk file system written and then renamed (rename, renameat, "
		"renameat2) over a name that held a file, while bytes written to it since it was "
		"opened had been made durable by no fsync or fdatasync of it, no syncfs or sync, "
		"and it was not opened O_SYNC or O_DSYNC. One finding per program; its count is "
		"the bytes at risk.",
		"Crash predicted: the rename is atomic, but nothing orders it after the data. The "
		"file system may commit the new name before it writes the data blocks; after a "
		"power cut the name points to an empty or partly written file, and the old "
		"version is gone too (the zero-length files of XFS and ext4 in 2009).\n\n"
		"Where: XFS, btrfs, f2fs, ext4 mounted noauto_da_alloc, ext3/ext4 data=writeback, "
		"and every file system POSIX describes. ext4's default auto_da_alloc starts the "
		"data's writeback at such a rename, which narrows the window on ext4 only.\n\n"
		"Fix: fsync (or fdatasync) the temporary file before the rename, then fsync the "
		"directory after it; or write through O_TMPFILE and linkat; or use a library that "
		"does it (g_file_set_contents, python-atomicwrites, renameio).",
	},
	[R_NEW_NAME] = {
		"durability.unsynced-new-name", DIO_SEV_INFO, 0,
		"A new, renamed or removed name whose directory was never synced",
		"A program that syncs file data (so it wants it durable) created a file, renamed "
		"one or unlinked one on a disk file system, and no fsync or fdatasync of that "
		"directory (or syncfs, sync) came afterwards. One finding per program; its count "
		"is the names not made durable. Info: what comes back after a crash is whole, "
		"only older, and many programs accept that (SQLite's default synchronous=FULL "
		"for the unlink that commits a transaction, rsync --fsync).",
		"Crash predicted: the directory entry lives in the directory, not in the file. "
		"Syncing the file makes its data durable, not its name: after a power cut a new "
		"file can be missing, a rename undone (the old version is back) or a removed file "
		"back (a journal that rolls a committed transaction back).\n\n"
		"Where: any file system where a file's fsync does not commit its directory "
		"(ext2, ext4 without a journal, and POSIX in general); ext4 and XFS with "
		"journals usually commit it with the file's fsync, but do not promise it.\n\n"
		"Fix: open the directory (O_RDONLY|O_DIRECTORY) and fsync it after the create, "
		"rename or unlink, before telling anyone the change is done.",
	},
	[R_TRUNCATE] = {
		"durability.truncate-rewrite", DIO_SEV_WARNING, 0,
		"A file holding data truncated and written again in place without a sync",
		"A regular file on a disk file system whose data dio saw (read or written in the "
		"trace) truncated (open with O_TRUNC, ftruncate, truncate), written again and "
		"closed with no fsync or fdatasync of the new data. One finding per program; "
		"its count is the bytes the file held before.",
		"Crash predicted: the truncation is metadata and reaches the disk with the next "
		"journal commit, the new data only when writeback gets to it; after a power cut "
		"the file can be empty or hold part of the new data, and the old data is gone.\n\n"
		"Where: XFS, btrfs, ext4 mounted noauto_da_alloc, and others; ext4's default "
		"auto_da_alloc flushes a file truncated to 0 when it is closed, which narrows the "
		"window on ext4 only.\n\n"
		"Fix: write the new contents to a temporary file, fsync it, rename it over the "
		"old one and fsync the directory; or at least fsync the file before closing it.",
	},
	[R_FSYNC_ERROR] = {
		"durability.fsync-error", DIO_SEV_ERROR, 0,
		"A failed fsync treated as transient",
		"fsync, fdatasync or sync_file_range of a file failed with EIO, ENOSPC or EDQUOT, "
		"and the program went on: it wrote the file again elsewhere, or a later sync of "
		"it succeeded, without the bytes written before the failure being written again. "
		"One finding per program; its count is the bytes the failed sync was to make "
		"durable.",
		"Crash predicted, or no crash needed: when writeback fails, Linux marks the pages "
		"clean (or drops them) and reports the error once. A later fsync that succeeds "
		"says nothing about the data of the failed one: it may be gone already, and the "
		"file holds what was on the disk before (PostgreSQL's fsyncgate, 2018).\n\n"
		"Where: every Linux file system (ext4, XFS, btrfs) since writeback errors are "
		"reported once per file description (errseq_t, Linux 4.13).\n\n"
		"Fix: treat a failed fsync as the loss of everything written since the last "
		"successful one: write it again from the program's own copy and sync again, or "
		"stop and recover from a log.",
	},
	[R_SHORT_WRITE] = {
		"durability.short-write", DIO_SEV_ERROR, 0,
		"A short write whose rest was never written",
		"write or pwrite64 on a regular file returned fewer bytes than asked, and the "
		"program never wrote the rest: the description was closed with no other write, "
		"or its next write started past the missing bytes. One finding per program; its "
		"count is the bytes never written.",
		"No crash needed: the file has a hole or is cut short where the program believes "
		"its data is. Short writes to a file come with a full file system, a file size "
		"limit (RLIMIT_FSIZE) or a signal.\n\n"
		"Where: every file system.\n\n"
		"Fix: write in a loop until every byte is written or a call fails, and handle the "
		"failure (the next write tells ENOSPC or EFBIG).",
	},
	[R_TABLE_FULL] = TABLE_FULL_RULE("durability",
					 "max_files, max_descs, max_names, max_procs, max_pending"),
	[RULES] = { NULL, 0, 0, NULL, NULL, NULL },
};

/* the calls it looks at, by name (numbers are the host's business) */
enum {
	K_OTHER, K_OPEN, K_OPENAT, K_CREAT, K_WRITE, K_PWRITE, K_WRITEV, K_READ, K_FSYNC,
	K_SFR, K_SYNC, K_SYNCFS, K_FTRUNCATE, K_TRUNCATE, K_RENAME, K_RENAMEAT, K_UNLINK,
	K_UNLINKAT, K_LINK, K_LINKAT,
};

static const struct {
	const char *name;
	uint8_t kind;
} calls[] = {
	{ "open", K_OPEN }, { "openat", K_OPENAT }, { "creat", K_CREAT },
	{ "write", K_WRITE }, { "pwrite64", K_PWRITE }, { "writev", K_WRITEV },
	{ "pwritev", K_WRITEV }, { "pwritev2", K_WRITEV },
	{ "read", K_READ }, { "pread64", K_READ }, { "readv", K_READ }, { "preadv", K_READ },
	{ "preadv2", K_READ },
	{ "fsync", K_FSYNC }, { "fdatasync", K_FSYNC }, { "sync_file_range", K_SFR },
	{ "sync", K_SYNC }, { "syncfs", K_SYNCFS },
	{ "ftruncate", K_FTRUNCATE }, { "truncate", K_TRUNCATE },
	{ "rename", K_RENAME }, { "renameat", K_RENAMEAT }, { "renameat2", K_RENAMEAT },
	{ "unlink", K_UNLINK }, { "unlinkat", K_UNLINKAT },
	{ "link", K_LINK }, { "linkat", K_LINKAT },
};

/* x86_64 values, as the records carry them whatever the host that replays them */
#define X_O_CREAT	0100
#define X_O_TRUNC	01000
#define X_O_DSYNC	010000
#define X_O_DIRECTORY	0200000
#define X_O_TMPFILE	020000000
#define X_AT_FDCWD	(-100)
#define X_EIO		5
#define X_ENOSPC	28
#define X_EDQUOT	122

#define PATH_KEEP	256	/* bytes of a path kept for a finding */
#define TITLE_LEN	(4 * PATH_KEEP + 256)
#define EXCERPT_LINES	8
#define PIDS_KEPT	16	/* processes a report counts one by one */
#define DEVS_KEPT	64	/* devices whose file system type is cached */

/* ---- state ------------------------------------------------------------------ */

/* file flags */
#define F_SEEN_DATA	0x01	/* dio saw bytes in it: a read that returned some, a write */
#define F_TRUNCATED	0x02	/* truncated below data dio saw, not synced since */
#define F_FAILED	0x04	/* a sync failed; the bytes it was for not written again yet */
#define F_WROTE_AFTER	0x08	/* written elsewhere after the failure */
#define F_REWRITTEN	0x10	/* truncated, rewritten and closed with no sync: reported at
				 * the end unless it was removed (a scratch file) or synced */

/*
 * A file (by tag). Records are valid only during the event call, so the
 * calls a finding shows are kept as copies without their strings.
 */
struct file {
	uint64_t dirty;			/* bytes written since its last sync, not O_SYNC */
	uint64_t dirty_lo, dirty_hi;	/* the offsets they span */
	uint64_t writes;		/* write calls since the last sync */
	uint64_t size;			/* the end of the data dio saw in it */
	uint64_t trunc_size;		/* F_TRUNCATED: the data it held */
	uint64_t trunc_written;		/* bytes its process wrote since the truncation */
	uint64_t trunc_writes;
	uint32_t trunc_pid;		/* the process that truncated it */
	uint32_t trunc_ofd;		/* the description it was truncated through; 0: by path */
	uint32_t closed_pid, closed_tid;	/* F_REWRITTEN: who closed it, when */
	uint64_t closed_ts;
	char closed_comm[DIO_COMM_LEN];
	uint64_t lost, lost_lo, lost_hi;	/* F_FAILED: what the failed sync was for */
	uint64_t cover_lo, cover_hi;	/* written again of that since */
	uint32_t flags;
	uint32_t pad;
	struct dio_ev_syscall first;	/* the first unsynced write, or the truncation */
	struct dio_ev_syscall last;	/* the latest write */
	struct dio_ev_syscall failed;	/* F_FAILED: the failed sync */
};

/* an open file description, by its ofd */
struct desc {
	struct dio_file_tag tag;
	uint32_t osync;			/* opened O_SYNC or O_DSYNC */
	uint32_t short_pending;		/* a short write's rest not written yet */
	uint64_t short_next;		/* where the rest would start */
	uint64_t short_rest;		/* its bytes */
	struct dio_ev_syscall short_rec;
};

/* a path dio saw a file under; by the hash of the path, or of its last component */
struct name_key {
	uint64_t hash;
	uint32_t base;			/* 1: the hash of the last component */
	uint32_t pad;
};

struct name {
	struct dio_file_tag tag;
};

struct proc {
	struct prog prog;
};

/* a finding in the making: a rule and a program */
struct report_key {
	char prog[DIO_COMM_LEN];
	uint32_t rule;
	uint32_t pad;
};

struct report {
	uint64_t bytes;			/* at risk (for unsynced-new-name: names) */
	uint64_t instances;		/* files (or names) */
	uint64_t ts_first, ts_last;
	uint32_t pids[PIDS_KEPT];
	uint32_t npids;			/* up to PIDS_KEPT, then counted in more_pids */
	uint32_t more_pids;
	uint32_t pid, tid;		/* of the first instance */
	char comm[DIO_COMM_LEN];
	struct dio_file_tag tag;
	uint32_t has_tag;
	uint32_t synced;		/* the program synced file data (unsynced-new-name) */
	char path[PATH_KEEP];		/* of the first instance */
	char detail[512];		/* what happened to it, in words */
	char fstype[32];
	struct excerpt x;
};

/* names of one (program, directory) not synced yet */
struct pending_key {
	char prog[DIO_COMM_LEN];
	uint64_t dir;			/* hash of the directory's path */
};

struct pending {
	uint64_t names;
	uint32_t pid, tid;
	uint32_t cleared;		/* its directory was synced after the last name */
	uint64_t ts;			/* of the latest name */
	char comm[DIO_COMM_LEN];
	char path[PATH_KEEP];		/* the first name */
	struct dio_ev_syscall rec;	/* the first call */
	struct dio_file_tag tag;	/* a file of the directory, for its device */
};

struct dev_type {
	uint32_t dev;
	int32_t judged;			/* 1 disk, 0 memory, -1 unknown */
};

struct state {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	uint8_t kind[DIO_NR_MAX];
	struct table files, descs, names, procs, reports, pending;
	struct table progs;		/* program name -> it synced file data */
	struct dev_type devs[DEVS_KEPT];
	uint32_t ndevs;
	uint64_t reports_lost;		/* instances of (program, rule) pairs with no room */
};

/* ---- helpers ---------------------------------------------------------------- */

static uint64_t str_hash(const char *p, size_t n)
{
	uint64_t h = table_hash(p, n);

	return h ? h : 1;
}

/* the hash of a path's directory ("/" for "/x") */
static uint64_t dir_hash(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return 0;
	if (slash == path)
		return str_hash("/", 1);
	return str_hash(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Memory file systems: their files die with the machine whatever the program
 * does, so they are not judged.
 */
static const char *const memory_fs[] = {
	"tmpfs", "ramfs", "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs",
	"tracefs", "securityfs", "bpf", "mqueue", "hugetlbfs", "configfs", "fusectl", "pstore",
	"efivarfs", "autofs", "binfmt_misc", "nsfs", "pipefs", "sockfs", "rpc_pipefs",
	"selinuxfs", "anon_inodefs", NULL,
};

/*
 * Paths that are memory file systems on every Linux machine: what is left to
 * judge by when the host does not know a device's type (a recording made
 * before dio kept the types, a file system mounted later).
 */
static const char *const memory_dirs[] = { "/proc/", "/sys/", "/dev/", "/run/", NULL };

/*
 * Caches: data a program can make again from elsewhere, by the conventions
 * of the XDG base directories (~/.cache) and the FHS (/var/cache), on any
 * file system: what a crash takes from them costs time, not data.
 */
static int in_cache(const char *path)
{
	return path && (strstr(path, "/.cache/") || !strncmp(path, "/var/cache/", 11));
}

static int fs_judged(struct state *s, uint32_t dev, char *type, size_t tlen)
{
	char buf[32];
	int judged;
	uint32_t i;

	if (tlen)
		type[0] = 0;
	if (!DIO_HOST_HAS(s->host, fs_type) || s->host->fs_type(s->ctx, dev, buf, sizeof(buf)))
		return -1;
	snprintf(type, tlen, "%s", buf);
	for (i = 0; i < s->ndevs; i++)
		if (s->devs[i].dev == dev)
			return s->devs[i].judged;
	judged = 1;
	for (i = 0; memory_fs[i]; i++)
		if (!strcmp(buf, memory_fs[i]))
			judged = 0;
	if (s->ndevs < DEVS_KEPT) {
		s->devs[s->ndevs].dev = dev;
		s->devs[s->ndevs++].judged = judged;
	}
	return judged;
}

/* whether a file with this tag (and path, NULL if unknown) is on a disk file system */
static int judged(struct state *s, const struct dio_file_tag *tag, const char *path,
		  char *type, size_t tlen)
{
	int j = fs_judged(s, tag->dev, type, tlen);

	if (in_cache(path))
		return 0;
	if (j >= 0)
		return j;
	for (int i = 0; path && memory_dirs[i]; i++)
		if (!strncmp(path, memory_dirs[i], strlen(memory_dirs[i])))
			return 0;
	return 1;
}

static int errno_is_io(int64_t ret)
{
	return ret == -X_EIO || ret == -X_ENOSPC || ret == -X_EDQUOT;
}

static void keep(struct dio_ev_syscall *dst, const struct dio_ev_syscall *e)
{
	rec_copy(dst, sizeof(*dst), &e->hdr);
}

static struct proc *proc_of(struct state *s, const struct dio_ev_syscall *e)
{
	struct proc *p = table_put(&s->procs, &e->pid, NULL);

	prog_see(&p->prog, e->pid, e->tid, e->comm);
	return p;
}

static struct report *report_of(struct state *s, const char *prog, uint32_t rule, int *created)
{
	struct report_key k;

	memset(&k, 0, sizeof(k));
	memcpy(k.prog, prog, DIO_COMM_LEN);
	k.rule = rule;
	if (!table_get(&s->reports, &k) && s->reports.n >= s->reports.max) {
		s->reports_lost++;
		return NULL;
	}
	return table_put(&s->reports, &k, created);
}

/*
 * One instance of a rule in a program: counted in its report; the first one's
 * file, calls and words are what the finding shows. e is the call that made it
 * unsafe (the rename, the close), since when the sequence began (the first
 * unsynced write, the truncation, the failed sync): the finding's time span
 * runs from the first instance's beginning, so that a report's timeline marks
 * the whole sequence.
 */
static struct report *instance(struct state *s, const struct dio_ev_syscall *e, uint32_t rule,
			       uint64_t bytes, const struct dio_file_tag *tag, const char *path,
			       const char *type, uint64_t since)
{
	struct proc *p = proc_of(s, e);
	int created = 0;
	struct report *r = report_of(s, p->prog.name, rule, &created);
	uint32_t i;

	if (!r)
		return NULL;
	if (created) {
		r->pid = e->pid;
		r->tid = e->tid;
		memcpy(r->comm, e->comm, DIO_COMM_LEN);
		r->ts_first = since && since < e->hdr.ts ? since : e->hdr.ts;
		if (tag) {
			r->tag = *tag;
			r->has_tag = 1;
		}
		snprintf(r->path, sizeof(r->path), "%s", path ? path : "");
		snprintf(r->fstype, sizeof(r->fstype), "%s", type ? type : "");
		excerpt_reset(&r->x);
	}
	r->ts_last = e->hdr.ts;
	r->bytes += bytes;
	r->instances++;
	for (i = 0; i < r->npids && r->pids[i] != e->pid; i++)
		;
	if (i == r->npids) {
		if (r->npids < PIDS_KEPT)
			r->pids[r->npids++] = e->pid;
		else
			r->more_pids++;
	}
	return created ? r : NULL;
}

static void add_call(struct state *s, struct report *r, const struct dio_ev_syscall *e)
{
	if (e->hdr.type == DIO_EV_SYSCALL)
		excerpt_add(&r->x, s->host, s->ctx, &e->hdr, EXCERPT_LINES);
}

/* string argument i of a record, NULL when missing, cut or unreadable */
static const char *str_arg(const struct dio_ev_syscall *e, unsigned int i)
{
	if (e->flags & (i ? DIO_SF_STR1_TRUNC | DIO_SF_STR1_FAULT :
			DIO_SF_STR0_TRUNC | DIO_SF_STR0_FAULT))
		return NULL;
	return dio_ev_syscall_str(e, i);
}

static const char *skip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/* remember that a file is under path (absolute) */
static void name_put(struct state *s, const char *path, const struct dio_file_tag *tag)
{
	struct name_key k = { .hash = str_hash(path, strlen(path)) };
	const char *b = base_of(path);
	struct name *n;

	n = table_put(&s->names, &k, NULL);
	n->tag = *tag;
	k.hash = str_hash(b, strlen(b));
	k.base = 1;
	n = table_put(&s->names, &k, NULL);
	n->tag = *tag;
}

static void name_del(struct state *s, const char *path)
{
	struct name_key k = { .hash = str_hash(path, strlen(path)) };

	table_del(&s->names, &k);
}

/*
 * The file a path argument names, and its absolute path (into abs): an
 * absolute argument by itself, a relative one by its last component, when the
 * latest file seen with that last component has a path that ends with the
 * argument. Returns NULL when dio knows no such file.
 */
static const struct name *name_find(struct state *s, const char *arg, char *abs, size_t len)
{
	struct name_key k;
	const struct name *n;
	const char *p;
	size_t lp, la;

	memset(&k, 0, sizeof(k));
	if (arg[0] == '/') {
		k.hash = str_hash(arg, strlen(arg));
		n = table_get(&s->names, &k);
		if (n)
			snprintf(abs, len, "%s", arg);
		return n;
	}
	arg = skip_dot(arg);
	k.hash = str_hash(base_of(arg), strlen(base_of(arg)));
	k.base = 1;
	n = table_get(&s->names, &k);
	if (!n || !(p = s->host->tag_path(s->ctx, &n->tag)))
		return NULL;
	lp = strlen(p);
	la = strlen(arg);
	if (!la || la >= lp || p[lp - la - 1] != '/' || strcmp(p + lp - la, arg))
		return NULL;
	snprintf(abs, len, "%s", p);
	return n;
}

/* ---- names not synced ------------------------------------------------------- */

static void pending_add(struct state *s, const struct dio_ev_syscall *e, const char *path,
			const struct dio_file_tag *tag)
{
	struct proc *p = proc_of(s, e);
	struct pending_key k;
	struct pending *pe;
	char type[32];
	int created = 0;

	if (!path || !tag || !judged(s, tag, path, type, sizeof(type)))
		return;
	memset(&k, 0, sizeof(k));
	memcpy(k.prog, p->prog.name, DIO_COMM_LEN);
	k.dir = dir_hash(path);
	if (!k.dir)
		return;
	pe = table_put(&s->pending, &k, &created);
	if (created || pe->cleared) {
		pe->names = 0;
		pe->cleared = 0;
		pe->pid = e->pid;
		pe->tid = e->tid;
		memcpy(pe->comm, e->comm, DIO_COMM_LEN);
		snprintf(pe->path, sizeof(pe->path), "%s", path);
		keep(&pe->rec, e);
		pe->tag = *tag;
	}
	pe->names++;
	pe->ts = e->hdr.ts;
}

struct dir_sync {
	uint64_t dir;		/* 0: every directory (sync) */
	uint32_t dev;		/* with all_dev: every directory of this device (syncfs) */
	uint32_t all_dev;
	uint64_t ts;
};

static void pending_clear_one(void *key, void *val, void *ud)
{
	const struct pending_key *k = key;
	struct pending *pe = val;
	const struct dir_sync *d = ud;

	if (pe->ts > d->ts)
		return;
	if ((d->all_dev && pe->tag.dev == d->dev) || (!d->all_dev && (!d->dir || k->dir == d->dir)))
		pe->cleared = 1;
}

/* ---- files ------------------------------------------------------------------ */

static struct file *file_get(struct state *s, const struct dio_file_tag *tag)
{
	return table_get(&s->files, tag);
}

static struct file *file_put(struct state *s, const struct dio_file_tag *tag)
{
	return table_put(&s->files, tag, NULL);
}

/* a truncation of f to length, by the call e */
static void truncated(struct file *f, const struct dio_ev_syscall *e, uint64_t length)
{
	if ((f->flags & F_SEEN_DATA) && length < f->size && !(f->flags & F_TRUNCATED)) {
		f->flags |= F_TRUNCATED;
		f->trunc_size = f->size;
		f->trunc_written = f->trunc_writes = 0;
		f->trunc_pid = e->pid;
		/* open(O_TRUNC) and ftruncate: that description; truncate(2) names a path */
		f->trunc_ofd = (e->flags & DIO_SF_FILE) ? e->ofd : 0;
		keep(&f->first, e);
	}
	f->size = length;
	if (f->dirty_hi > length)
		f->dirty_hi = length > f->dirty_lo ? length : f->dirty_lo;
}

static void synced(struct file *f)
{
	f->dirty = 0;
	f->dirty_lo = f->dirty_hi = 0;
	f->writes = 0;
	f->flags &= ~(F_TRUNCATED | F_REWRITTEN);
}

static void sync_all_one(void *key, void *val, void *ud)
{
	const struct dio_file_tag *tag = key;
	struct file *f = val;
	const struct dir_sync *d = ud;

	if (!d->all_dev || tag->dev == d->dev)
		synced(f);
}

/* the failed sync of f was treated as transient: e is what showed it */
static void fsync_error(struct state *s, struct file *f, const struct dio_ev_syscall *e,
			const struct dio_file_tag *tag, const char *how)
{
	const char *path = s->host->tag_path(s->ctx, tag);
	char type[32];
	struct report *r;

	if (judged(s, tag, path, type, sizeof(type))) {
		r = instance(s, e, R_FSYNC_ERROR, f->lost, tag, path, type, f->failed.hdr.ts);
		if (r) {
			snprintf(r->detail, sizeof(r->detail),
				 "%s of it failed with %s with %" PRIu64 " bytes written since the "
				 "last successful sync (offsets %" PRIu64 " to %" PRIu64 "); then %s, "
				 "and those bytes were never written again",
				 s->host->syscall_name(f->failed.nr),
				 s->host->name_of(s->ctx, DIO_NAME_ERRNO,
						  (uint64_t)-f->failed.ret) ?: "an error",
				 f->lost, f->lost_lo, f->lost_hi, how);
			add_call(s, r, &f->failed);
			add_call(s, r, e);
		}
	}
	f->flags &= ~(F_FAILED | F_WROTE_AFTER);
}

static void on_write(struct state *s, const struct dio_ev_syscall *e, unsigned int kind)
{
	struct desc *d = e->ofd ? table_get(&s->descs, &e->ofd) : NULL;
	uint64_t off = (e->flags & DIO_SF_OFFSET) ? (uint64_t)e->offset : 0;
	uint64_t n = e->ret > 0 ? (uint64_t)e->ret : 0, asked = e->args[2];
	struct file *f;

	if (d && d->short_pending) {
		/* a write that starts past the rest leaves a hole; any other deals with it */
		if ((e->flags & DIO_SF_OFFSET) && off > d->short_next) {
			const char *path = s->host->tag_path(s->ctx, &e->tag);
			char type[32];
			struct report *r = NULL;

			if (judged(s, &e->tag, path, type, sizeof(type)))
				r = instance(s, e, R_SHORT_WRITE, d->short_rest, &e->tag, path,
					     type, d->short_rec.hdr.ts);
			if (r) {
				snprintf(r->detail, sizeof(r->detail),
					 "a write of it came back short: the %" PRIu64 " bytes from "
					 "offset %" PRIu64 " on were never written, and the next "
					 "write started at offset %" PRIu64 ", past them",
					 d->short_rest, d->short_next, off);
				add_call(s, r, &d->short_rec);
				add_call(s, r, e);
			}
		}
		d->short_pending = 0;
	}
	if (dio_ret_failed(e->ret) || !n)
		return;
	f = file_put(s, &e->tag);
	if (!d || !d->osync) {
		if (!f->dirty) {
			f->dirty_lo = off;
			f->dirty_hi = off + n;
			keep(&f->first, e);
		}
		f->dirty += n;
		if (off < f->dirty_lo)
			f->dirty_lo = off;
		if (off + n > f->dirty_hi)
			f->dirty_hi = off + n;
		f->writes++;
		keep(&f->last, e);
	}
	f->flags |= F_SEEN_DATA;
	if (off + n > f->size)
		f->size = off + n;
	/*
	 * rewritten through the description that truncated it (by the process
	 * that truncated it by path): a log another process goes on writing after
	 * a rotation truncated it (copytruncate), or one emptied (`: > log`) and
	 * then appended to through new opens, is no rewrite in place
	 */
	if ((f->flags & F_TRUNCATED) && e->pid == f->trunc_pid &&
	    (!f->trunc_ofd || e->ofd == f->trunc_ofd) && (!d || !d->osync)) {
		f->trunc_written += n;
		f->trunc_writes++;
	}
	if (f->flags & F_FAILED) {
		/* the lost bytes written again, in one growing range from anywhere in them */
		if (off <= f->cover_hi && off + n >= f->cover_lo && f->cover_hi > f->cover_lo) {
			if (off < f->cover_lo)
				f->cover_lo = off;
			if (off + n > f->cover_hi)
				f->cover_hi = off + n;
		} else if (f->cover_hi == f->cover_lo && off < f->lost_hi && off + n > f->lost_lo) {
			f->cover_lo = off;
			f->cover_hi = off + n;
		} else if (off >= f->lost_hi || off + n <= f->lost_lo) {
			f->flags |= F_WROTE_AFTER;
		}
	}
	/* a short write: count known for write and pwrite64 only */
	if (d && (kind == K_WRITE || kind == K_PWRITE) && n < asked && asked - n < (1ULL << 40)) {
		d->short_pending = 1;
		d->short_next = off + n;
		d->short_rest = asked - n;
		keep(&d->short_rec, e);
	}
}

static void on_sync(struct state *s, const struct dio_ev_syscall *e, unsigned int kind)
{
	struct file *f;

	if (!(e->flags & DIO_SF_FILE))
		return;
	if (e->ftype == DIO_FT_DIR && !dio_ret_failed(e->ret) && kind == K_FSYNC) {
		const char *p = s->host->tag_path(s->ctx, &e->tag);
		struct dir_sync d = { .dir = p ? str_hash(p, strlen(p)) : 0, .ts = e->hdr.ts };

		if (d.dir)
			table_each(&s->pending, pending_clear_one, &d);
		return;
	}
	if (e->ftype != DIO_FT_REG)
		return;
	if (dio_ret_failed(e->ret)) {
		f = file_get(s, &e->tag);
		if (f && errno_is_io(e->ret) && f->dirty && !(f->flags & F_FAILED)) {
			f->flags |= F_FAILED;
			f->flags &= ~F_WROTE_AFTER;
			f->lost = f->dirty;
			f->lost_lo = f->dirty_lo;
			f->lost_hi = f->dirty_hi;
			f->cover_lo = f->cover_hi = 0;
			keep(&f->failed, e);
		}
		return;
	}
	/* sync_file_range starts or waits for writeback: the data is not durable by it */
	if (kind != K_FSYNC)
		return;
	{
		struct proc *p = proc_of(s, e);
		struct report_key k;

		memset(&k, 0, sizeof(k));
		memcpy(k.prog, p->prog.name, DIO_COMM_LEN);
		table_put(&s->progs, k.prog, NULL);
	}
	f = file_get(s, &e->tag);
	if (!f)
		return;
	if (f->flags & F_FAILED) {
		if (f->cover_lo <= f->lost_lo && f->cover_hi >= f->lost_hi &&
		    f->cover_hi > f->cover_lo)
			f->flags &= ~(F_FAILED | F_WROTE_AFTER);
		else
			fsync_error(s, f, e, &e->tag, "a later sync of it succeeded");
	}
	synced(f);
}

/* the end of a description (its last fd closed), from the host's record */
static void on_ofd(struct state *s, const struct dio_ev_ofd *o)
{
	struct desc *d = table_get(&s->descs, &o->ofd);
	struct file *f;
	struct dio_ev_syscall e;

	if (!(o->flags & DIO_OFDF_FILE) || o->ftype != DIO_FT_REG) {
		if (d)
			table_del(&s->descs, &o->ofd);
		return;
	}
	/* a syscall-like record of the close for the counts and the report */
	memset(&e, 0, sizeof(e));
	e.hdr = o->hdr;
	e.pid = o->pid;
	e.tid = o->tid ? o->tid : o->pid;
	e.tag = o->tag;
	{
		struct proc *p = table_get(&s->procs, &o->pid);

		if (p)
			memcpy(e.comm, p->prog.name, DIO_COMM_LEN);
	}
	if (d && d->short_pending) {
		const char *path = s->host->tag_path(s->ctx, &o->tag);
		char type[32];
		struct report *r = NULL;

		if (judged(s, &o->tag, path, type, sizeof(type)))
			r = instance(s, &e, R_SHORT_WRITE, d->short_rest, &o->tag, path, type,
				     d->short_rec.hdr.ts);
		if (r) {
			snprintf(r->detail, sizeof(r->detail),
				 "a write of it came back short: the %" PRIu64 " bytes from offset "
				 "%" PRIu64 " on were never written, and the file was closed with no "
				 "other write", d->short_rest, d->short_next);
			add_call(s, r, &d->short_rec);
		}
	}
	if (d)
		table_del(&s->descs, &o->ofd);
	f = file_get(s, &o->tag);
	if (!f)
		return;
	/*
	 * the description that truncated it ended with nothing written through
	 * it: the file was emptied (a log reset, `: > log`), not rewritten; what
	 * comes through later opens is new data (and a later description may
	 * even get the same ofd, the kernel reusing the struct file)
	 */
	if ((f->flags & F_TRUNCATED) && f->trunc_ofd && o->ofd == f->trunc_ofd &&
	    !f->trunc_written)
		f->flags &= ~F_TRUNCATED;
	if ((f->flags & F_TRUNCATED) && f->trunc_written && o->pid == f->trunc_pid &&
	    (!f->trunc_ofd || o->ofd == f->trunc_ofd)) {
		f->flags &= ~F_TRUNCATED;
		f->flags |= F_REWRITTEN;
		f->closed_pid = e.pid;
		f->closed_tid = e.tid;
		f->closed_ts = e.hdr.ts;
		memcpy(f->closed_comm, e.comm, DIO_COMM_LEN);
	}
	if ((f->flags & F_FAILED) && (f->flags & F_WROTE_AFTER))
		fsync_error(s, f, &e, &o->tag, "the program wrote on elsewhere in it and closed it");
}

static void on_open(struct state *s, const struct dio_ev_syscall *e, unsigned int kind)
{
	uint64_t flags = kind == K_OPEN ? e->args[1] : kind == K_OPENAT ? e->args[2] :
			 X_O_CREAT | X_O_TRUNC | 1;
	const char *path;
	struct file *f;
	int known;

	if (dio_ret_failed(e->ret) || !(e->flags & DIO_SF_FILE) || e->ftype != DIO_FT_REG)
		return;
	if (e->ofd) {
		struct desc *d = table_put(&s->descs, &e->ofd, NULL);

		memset(d, 0, sizeof(*d));
		d->tag = e->tag;
		d->osync = !!(flags & X_O_DSYNC);	/* O_SYNC holds the O_DSYNC bit */
	}
	path = s->host->tag_path(s->ctx, &e->tag);
	f = file_get(s, &e->tag);
	known = f || (path && name_find(s, path, (char[8]){ 0 }, 0));
	if (path && (flags & X_O_TMPFILE) != X_O_TMPFILE)
		name_put(s, path, &e->tag);
	if (flags & X_O_TRUNC) {
		if (f)
			truncated(f, e, 0);
	}
	/* a name made: one dio had not seen a file under */
	if ((flags & X_O_CREAT) && (flags & X_O_TMPFILE) != X_O_TMPFILE && !known && path)
		pending_add(s, e, path, &e->tag);
}

static void on_truncate(struct state *s, const struct dio_ev_syscall *e, unsigned int kind)
{
	struct file *f = NULL;

	if (dio_ret_failed(e->ret))
		return;
	if (kind == K_FTRUNCATE && (e->flags & DIO_SF_FILE) && e->ftype == DIO_FT_REG) {
		f = file_get(s, &e->tag);
	} else if (kind == K_TRUNCATE) {
		const char *arg = str_arg(e, 0);
		char abs[8];
		const struct name *n = arg ? name_find(s, arg, abs, 0) : NULL;

		if (n)
			f = file_get(s, &n->tag);
	}
	if (f)
		truncated(f, e, e->args[1]);
}

static void on_rename(struct state *s, const struct dio_ev_syscall *e, unsigned int kind)
{
	const char *from = str_arg(e, 0), *to = str_arg(e, 1);
	char src[DIO_PATH_MAX], dst[DIO_PATH_MAX];
	const struct name *n, *over;
	struct dio_file_tag tag;
	struct name_key k;
	struct file *f;
	char type[32];
	int same_dir;

	if (dio_ret_failed(e->ret) || !from || !to)
		return;
	n = name_find(s, from, src, sizeof(src));
	if (!n)
		return;
	tag = n->tag;
	/* a relative new name is in the source's directory when both are relative to one */
	to = skip_dot(to);
	same_dir = kind == K_RENAME || kind == K_LINK || (int32_t)e->args[0] == (int32_t)e->args[2];
	if (to[0] == '/') {
		snprintf(dst, sizeof(dst), "%s", to);
	} else if (same_dir && from[0] != '/' && strrchr(src, '/')) {
		const char *f0 = skip_dot(from);
		size_t dirlen = strlen(src) - strlen(f0);

		snprintf(dst, sizeof(dst), "%.*s%s", (int)dirlen, src, to);
	} else {
		dst[0] = 0;
	}
	memset(&k, 0, sizeof(k));
	over = NULL;
	if (dst[0]) {
		k.hash = str_hash(dst, strlen(dst));
		over = table_get(&s->names, &k);
		if (over && dio_file_tag_eq(&over->tag, &tag))
			over = NULL;
	}
	if (over) {
		struct file *old = file_get(s, &over->tag);

		/* what replaced it is the new name's data now, judged as such */
		if (old && kind != K_LINK && kind != K_LINKAT)
			old->flags &= ~F_REWRITTEN;
	}
	f = file_get(s, &tag);
	if (kind != K_LINK && kind != K_LINKAT && over && f && f->dirty &&
	    judged(s, &tag, src, type, sizeof(type))) {
		struct report *r = instance(s, e, R_REPLACE, f->dirty, &tag, dst, type,
					    f->first.hdr.ts);

		if (r) {
			snprintf(r->detail, sizeof(r->detail),
				 "%.200s was written (%" PRIu64 " bytes in %" PRIu64 " calls) and "
				 "renamed over the existing %.200s with no fsync or fdatasync of it "
				 "in between", src, f->dirty, f->writes, dst);
			add_call(s, r, &f->first);
			if (f->writes > 1)
				add_call(s, r, &f->last);
			add_call(s, r, e);
		}
	}
	if (f && kind != K_LINK && kind != K_LINKAT)
		synced(f);	/* reported once: the file is the new name's now */
	if (kind != K_LINK && kind != K_LINKAT)
		name_del(s, src);
	if (dst[0]) {
		name_put(s, dst, &tag);
		pending_add(s, e, dst, &tag);
		if (dir_hash(dst) != dir_hash(src))
			pending_add(s, e, src, &tag);
	}
}

static void on_unlink(struct state *s, const struct dio_ev_syscall *e, unsigned int kind)
{
	const char *arg = str_arg(e, 0);
	char abs[DIO_PATH_MAX];
	const struct name *n;
	struct dio_file_tag tag;

	if (dio_ret_failed(e->ret) || !arg)
		return;
	/* relative to a directory fd (whose path the record does not hold): found by the
	 * tail of a path dio saw, as a relative name always is */
	n = name_find(s, arg, abs, sizeof(abs));
	if (!n)
		return;
	tag = n->tag;
	name_del(s, abs);
	/* a file removed was scratch data: a crash could not have lost anything kept */
	{
		struct file *f = file_get(s, &tag);

		if (f)
			f->flags &= ~F_REWRITTEN;
	}
	pending_add(s, e, abs, &tag);
}

/* ---- the module ------------------------------------------------------------- */

static void du_destroy(void *p)
{
	struct state *s = p;

	if (!s)
		return;
	table_free(&s->files);
	table_free(&s->descs);
	table_free(&s->names);
	table_free(&s->procs);
	table_free(&s->reports);
	table_free(&s->pending);
	table_free(&s->progs);
	free(s);
}

static int du_init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		   void **out)
{
	struct state *s;
	int err;

	for (int i = O_MAX_FILES; i <= O_MAX_PENDING; i++) {
		if (o[i].i < 1 || o[i].i > (1 << 24)) {
			host->log(ctx, "%s must be between 1 and %d, not %" PRId64,
				  options[i].name, 1 << 24, o[i].i);
			return -EINVAL;
		}
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const char *name = host->syscall_name(nr);

		for (size_t i = 0; name && i < sizeof(calls) / sizeof(calls[0]); i++)
			if (!strcmp(name, calls[i].name))
				s->kind[nr] = calls[i].kind;
	}
	err = table_init(&s->files, sizeof(struct dio_file_tag), sizeof(struct file),
			 (size_t)o[O_MAX_FILES].i);
	err = err ?: table_init(&s->descs, sizeof(uint32_t), sizeof(struct desc),
				(size_t)o[O_MAX_DESCS].i);
	err = err ?: table_init(&s->names, sizeof(struct name_key), sizeof(struct name),
				(size_t)o[O_MAX_NAMES].i);
	err = err ?: table_init(&s->procs, sizeof(uint32_t), sizeof(struct proc),
				(size_t)o[O_MAX_PROCS].i);
	err = err ?: table_init(&s->progs, DIO_COMM_LEN, sizeof(uint32_t),
				(size_t)o[O_MAX_PROCS].i);
	err = err ?: table_init(&s->reports, sizeof(struct report_key), sizeof(struct report),
				(size_t)o[O_MAX_REPORTS].i);
	err = err ?: table_init(&s->pending, sizeof(struct pending_key), sizeof(struct pending),
				(size_t)o[O_MAX_PENDING].i);
	if (err) {
		du_destroy(s);
		return err;
	}
	*out = s;
	return 0;
}

static int du_event(void *p, const struct dio_ev_hdr *ev)
{
	struct state *s = p;
	const struct dio_ev_syscall *e = (const void *)ev;
	unsigned int kind;

	if (ev->type == DIO_EV_PROC) {
		const struct dio_ev_proc *pr = (const void *)ev;

		if (pr->kind == DIO_PROC_EXEC) {
			struct proc *pp = table_put(&s->procs, &pr->pid, NULL);

			prog_see_record(&pp->prog, ev);
		} else if (pr->kind == DIO_PROC_FORK && !(pr->flags & DIO_PROCF_THREAD)) {
			/* a new process under a pid seen before: not the old one's program;
			 * an exited one's is kept for the records of its fds' ends after it */
			table_del(&s->procs, &pr->other_pid);
		}
		return 0;
	}
	if (ev->type == DIO_EV_OFD) {
		on_ofd(s, (const void *)ev);
		return 0;
	}
	if (ev->type != DIO_EV_SYSCALL || e->nr >= DIO_NR_MAX)
		return 0;
	kind = s->kind[e->nr];
	if (kind == K_OTHER)
		return 0;
	proc_of(s, e);
	switch (kind) {
	case K_OPEN: case K_OPENAT: case K_CREAT:
		on_open(s, e, kind);
		break;
	case K_WRITE: case K_PWRITE: case K_WRITEV:
		if ((e->flags & DIO_SF_FILE) && e->ftype == DIO_FT_REG)
			on_write(s, e, kind);
		break;
	case K_READ:
		if ((e->flags & DIO_SF_FILE) && e->ftype == DIO_FT_REG && e->ret > 0 &&
		    (e->flags & DIO_SF_OFFSET)) {
			struct file *f = file_get(s, &e->tag);

			/* a file read holds data: a truncation of it later loses that */
			if (!f)
				f = file_put(s, &e->tag);
			f->flags |= F_SEEN_DATA;
			if ((uint64_t)e->offset + (uint64_t)e->ret > f->size)
				f->size = (uint64_t)e->offset + (uint64_t)e->ret;
		}
		break;
	case K_FSYNC: case K_SFR:
		on_sync(s, e, kind);
		break;
	case K_SYNC: case K_SYNCFS:
		if (!dio_ret_failed(e->ret) && (kind == K_SYNC || (e->flags & DIO_SF_FILE))) {
			struct dir_sync d = { .ts = e->hdr.ts, .all_dev = kind == K_SYNCFS,
					      .dev = e->tag.dev };

			table_each(&s->files, sync_all_one, &d);
			table_each(&s->pending, pending_clear_one, &d);
		}
		break;
	case K_FTRUNCATE: case K_TRUNCATE:
		on_truncate(s, e, kind);
		break;
	case K_RENAME: case K_RENAMEAT: case K_LINK: case K_LINKAT:
		on_rename(s, e, kind);
		break;
	case K_UNLINK: case K_UNLINKAT:
		on_unlink(s, e, kind);
		break;
	}
	return 0;
}

/* ---- findings --------------------------------------------------------------- */

/* a file truncated and rewritten with no sync, still there at the end: an instance */
static void rewritten_report_one(void *key, void *val, void *ud)
{
	const struct dio_file_tag *tag = key;
	struct file *f = val;
	struct state *s = ud;
	const char *path;
	struct dio_ev_syscall e;
	struct report *r = NULL;
	char type[32];

	if (!(f->flags & F_REWRITTEN))
		return;
	path = s->host->tag_path(s->ctx, tag);
	memset(&e, 0, sizeof(e));
	e.hdr.type = DIO_EV_SYSCALL;
	e.hdr.ts = f->closed_ts;
	e.pid = f->closed_pid;
	e.tid = f->closed_tid;
	memcpy(e.comm, f->closed_comm, DIO_COMM_LEN);
	if (judged(s, tag, path, type, sizeof(type)))
		r = instance(s, &e, R_TRUNCATE, f->trunc_size, tag, path, type, f->first.hdr.ts);
	if (r) {
		snprintf(r->detail, sizeof(r->detail),
			 "it held %" PRIu64 " bytes; it was truncated, %" PRIu64 " bytes were "
			 "written in %" PRIu64 " calls, and it was closed with no fsync or "
			 "fdatasync", f->trunc_size, f->trunc_written, f->trunc_writes);
		add_call(s, r, &f->first);
		add_call(s, r, &f->last);
	}
}

static void pending_report_one(void *key, void *val, void *ud)
{
	const struct pending_key *k = key;
	struct pending *pe = val;
	struct state *s = ud;
	struct report *r;
	int created = 0;
	char type[32];

	/* only a program that syncs file data cares about its names */
	if (pe->cleared || !table_get(&s->progs, k->prog))
		return;
	r = report_of(s, k->prog, R_NEW_NAME, &created);
	if (!r)
		return;
	if (created) {
		r->pid = pe->pid;
		r->tid = pe->tid;
		memcpy(r->comm, pe->comm, DIO_COMM_LEN);
		r->ts_first = pe->rec.hdr.ts;
		r->tag = pe->tag;
		snprintf(r->path, sizeof(r->path), "%s", pe->path);
		judged(s, &pe->tag, pe->path, type, sizeof(type));
		snprintf(r->fstype, sizeof(r->fstype), "%s", type);
		excerpt_reset(&r->x);
		snprintf(r->detail, sizeof(r->detail),
			 "%s of %.200s, and no fsync of its directory came after it",
			 s->host->syscall_name(pe->rec.nr), pe->path);
		add_call(s, r, &pe->rec);
	}
	if (pe->ts > r->ts_last)
		r->ts_last = pe->ts;
	r->bytes += pe->names;
	r->instances++;
	if (r->npids < PIDS_KEPT) {
		uint32_t i;

		for (i = 0; i < r->npids && r->pids[i] != pe->pid; i++)
			;
		if (i == r->npids)
			r->pids[r->npids++] = pe->pid;
	}
}

/* a report that the fake or real host could not take is an error of the session */
struct emit_ctx {
	struct state *s;
	int err;
};

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static void emit_one(void *key, void *val, void *ud)
{
	const struct report_key *k = key;
	struct report *r = val;
	struct emit_ctx *c = ud;
	struct state *s = c->s;
	const struct dio_rule *rule = &rules[k->rule];
	char title[TITLE_LEN], msg[2048], comm[COMM_LABEL_LEN], prog[COMM_LABEL_LEN];
	char label[PATH_KEEP * 4 + 8], fs[96], procs[64];
	uint32_t nproc = r->npids + r->more_pids;
	int err;
	struct dio_finding f = {
		.size = sizeof(f),
		.severity = rule->severity,
		.code = rule->code,
		.title = title,
		.message = msg,
		.pid = r->pid,
		.tid = r->tid,
		.comm = r->comm,
		.path = r->path[0] ? r->path : NULL,
		.tag = r->tag,
		.has_tag = r->has_tag,
		.ts_first = r->ts_first,
		.ts_last = r->ts_last,
		.count = r->bytes,
		.excerpt = excerpt_text(&r->x),
		.processes = nproc,
	};

	if (!r->instances)
		return;
	comm_label(r->comm, comm);
	comm_label(k->prog, prog);
	dio_escape(r->path, strlen(r->path), 0, label, sizeof(label));
	if (r->fstype[0])
		snprintf(fs, sizeof(fs), " (file system %s)", r->fstype);
	else
		fs[0] = 0;
	if (nproc > 1)
		snprintf(procs, sizeof(procs), "%s%u processes of ", r->more_pids ? "at least " : "",
			 nproc);
	else
		snprintf(procs, sizeof(procs), "pid %u ", r->pid);
	switch (k->rule) {
	case R_REPLACE:
		snprintf(title, sizeof(title),
			 "%s%s replaced %" PRIu64 " file%s by rename with no fsync: %" PRIu64
			 " byte%s at risk (%s)", procs, prog, r->instances, plural(r->instances),
			 r->bytes, plural(r->bytes), label);
		break;
	case R_NEW_NAME:
		snprintf(title, sizeof(title),
			 "%s%s syncs file data but not the directories of %" PRIu64 " name%s it "
			 "made, moved or removed (%s)", procs, prog, r->bytes, plural(r->bytes),
			 label);
		break;
	case R_TRUNCATE:
		snprintf(title, sizeof(title),
			 "%s%s truncated and rewrote %" PRIu64 " file%s in place with no fsync: %"
			 PRIu64 " byte%s they held at risk (%s)", procs, prog, r->instances,
			 plural(r->instances), r->bytes, plural(r->bytes), label);
		break;
	case R_FSYNC_ERROR:
		snprintf(title, sizeof(title),
			 "%s%s went on after a failed sync of %" PRIu64 " file%s: %" PRIu64
			 " byte%s lost (%s)", procs, prog, r->instances, plural(r->instances),
			 r->bytes, plural(r->bytes), label);
		break;
	default:
		snprintf(title, sizeof(title),
			 "%s%s left %" PRIu64 " short write%s short: %" PRIu64 " byte%s never "
			 "written (%s)", procs, prog, r->instances, plural(r->instances), r->bytes,
			 plural(r->bytes), label);
		break;
	}
	/* the crash and where it happens are the rule's help (SARIF, dio list rules) */
	snprintf(msg, sizeof(msg), "%s%s: %s (pid %u, %s).\n%s%s",
		 label, fs, r->detail, r->pid, comm,
		 r->instances > 1 ? "The other instances are counted in the title.\n" : "",
		 strstr(rule->help, "Fix:") ?: rule->help);
	err = s->host->emit_finding(s->ctx, &f);
	if (err && !c->err)
		c->err = err;
}

static int du_finish(void *p)
{
	struct state *s = p;
	struct emit_ctx c = { .s = s };
	struct table_use u[] = {
		TABLE_USE(&s->files, "files", "max_files"),
		TABLE_USE(&s->descs, "open file descriptions", "max_descs"),
		TABLE_USE(&s->names, "paths", "max_names"),
		TABLE_USE(&s->procs, "processes", "max_procs"),
		TABLE_USE(&s->pending, "(program, directory) pairs", "max_pending"),
	};

	table_each(&s->files, rewritten_report_one, s);
	table_each(&s->pending, pending_report_one, s);
	table_each(&s->reports, emit_one, &c);
	if (c.err)
		return c.err;
	return tables_report(s->host, s->ctx, rules[R_TABLE_FULL].code, "durability", u,
			     sizeof(u) / sizeof(u[0]));
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "durability",
	.description = "data a power cut would lose: renames, truncations, syncs that failed",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC) |
		  DIO_EV_MASK(DIO_EV_OFD),
	.options = options,
	.init = du_init,
	.event = du_event,
	.finish = du_finish,
	.destroy = du_destroy,
	.rules = rules,
};
