// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * errors: bursts of system calls that fail the same way: a stat or open of a
 * missing file in a loop (ENOENT), a read of a non-blocking fd that spins on
 * EAGAIN, calls on a closed fd (EBADF), writes that meet a full disk.
 *
 * A failure whose errno is the normal answer of the question the call asks
 * ("is this a symbolic link?", "is there data yet?", "is this name in this
 * directory?") is not a failure: the table `answers` says which are, and
 * when. Such an answer counts only when the thread asks the same again with
 * no call succeeding in between: a retry loop, not a program at work.
 *
 * Failures are grouped by process, system call, errno and what the call was
 * about: the file (by tag) for calls through an fd, the path argument for
 * calls that take one, nothing else. A group is counted in fixed windows that
 * open at a failure and last window_ms; a window with min_failures or more is
 * a burst. The groups with bursts of one program (analyzers/common/prog.h),
 * in all its processes, are one finding at the end of the trace, with the
 * time the failing calls took and its share of the program's time in system
 * calls; under min_share it is left out, unless data was likely lost.
 * With --report-every, the same judgement runs on the windows closed so far
 * (tick): a program reported then is reported again at the end, with its
 * final figures, whatever its share by then.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/expool.h"
#include "analyzers/common/prog.h"
#include "analyzers/common/table.h"

enum {
	O_WINDOW_MS, O_MIN_FAILURES, O_MIN_SHARE, O_MAX_GROUPS, O_EXCERPTS, O_MAX_PROCS,
	O_MAX_THREADS, O_MAX_PROGS, O_MAX_SUMMARIES, O_MAX_FDS,
};

static const struct dio_option options[] = {
	[O_WINDOW_MS] = { "window_ms", DIO_OPT_INT, "1000",
			  "length of a window, from the failure that opens it (ms)" },
	[O_MIN_FAILURES] = { "min_failures", DIO_OPT_INT, "100",
			     "failures of one group in one window that make a burst" },
	[O_MIN_SHARE] = { "min_share", DIO_OPT_DOUBLE, "0.01",
			  "share of the program's time in system calls its failing calls in "
			  "bursts must take for a warning (0 to 1)" },
	[O_MAX_GROUPS] = { "max_groups", DIO_OPT_INT, "4096",
			   "groups (process, call, errno, file or path) tracked" },
	[O_EXCERPTS] = { "excerpts", DIO_OPT_INT, "256",
			 "evidence excerpts kept for the groups with the most failures" },
	[O_MAX_PROCS] = { "max_procs", DIO_OPT_INT, "4096",
			  "processes followed: their program and time in system calls" },
	[O_MAX_THREADS] = { "max_threads", DIO_OPT_INT, "4096",
			    "threads followed: when a call of theirs last succeeded" },
	[O_MAX_PROGS] = { "max_progs", DIO_OPT_INT, "1024",
			  "programs whose time in system calls is added up" },
	[O_MAX_SUMMARIES] = { "max_summaries", DIO_OPT_INT, "64",
			      "programs that keep the groups pushed out of the group table" },
	[O_MAX_FDS] = { "max_fds", DIO_OPT_INT, "4096",
			"fds followed: written to since opened, known to block" },
	{ NULL, 0, NULL, NULL },
};

/* the code, as README.md explains it */
static const struct dio_rule rules[] = {
	{
		"errors.burst", DIO_SEV_WARNING, 0,
		"A system call that fails the same way again and again",
		"At least min_failures (100) failures within window_ms (1000 ms) of the same "
		"system call with the same errno on the same file or path, in one process, "
		"that took at least min_share (1 %) of the program's time in system calls; "
		"one finding per program, however many of its processes did it. A failure "
		"whose errno answers the question the call asks (readlink EINVAL: not a "
		"symbolic link; ENOENT of a lookup: not there; EAGAIN of a non-blocking "
		"socket or pipe: no data yet; mkdir EEXIST; getxattr ENODATA; ...) counts "
		"only when the thread asks again with no call succeeding in between. An "
		"error rather than a warning, whatever its share, when writes or syncs (or a "
		"close after writes) failed with EIO, ENOSPC, EDQUOT, EBADF, EFBIG or EROFS: "
		"their data likely did not reach the file.",
		"One failure is normal; hundreds a second of the same one are a program retrying "
		"without changing anything, which burns CPU and system calls, often hides a bug, "
		"and when the calls were writes, loses data: after a failed fsync, only writing "
		"the data again is a safe retry.\n\n"
		"Find the cause once and stop retrying, or back off. ENOENT: check once and "
		"remember the answer, create the file first, or wait with inotify. EAGAIN: wait "
		"with poll, select or epoll instead of spinning. EBADF: find where the fd is "
		"closed early. ENOSPC, EDQUOT: back off, free space, or fail the operation.",
	},
	TABLE_FULL_RULE("errors", "max_groups, max_summaries, max_fds"),
	{ NULL, 0, 0, NULL, NULL, NULL },
};

#define PATH_KEEP	256	/* bytes of a path argument kept for the finding */
#define WHAT_KEEP	(PATH_KEEP + 8)	/* what a group was about, as a finding names it */
#define EXCERPT_LINES	8
#define FD_LOOKS_MAX	(1u << 24)	/* fds are small numbers; pointers are not */
#define TOP		5	/* ways and processes a finding names */
#define SEEN_BITS	4096	/* filter of the ways of groups pushed out, per program */

/* x86_64 values, as the records carry them whatever the host that replays them */
#define X_O_ACCMODE	03
#define X_O_CREAT	0100
#define X_O_NONBLOCK	04000
#define X_O_TMPFILE	020000000
#define X_F_SETFL	4
#define X_F_SETLK	6
#define X_F_OFD_SETLK	37
#define X_LOCK_NB	4
#define X_RWF_NOWAIT	0x8
#define X_TCGETS	0x5401
#define X_TIOCGWINSZ	0x5413

/* ---- answers ---------------------------------------------------------------- */

/* when a failure the table holds is an answer */
enum when {
	ALWAYS,		/* whatever came before */
	ONCE,		/* unless the thread asks again with no call succeeding in between */
	LOOKUP,		/* ONCE; an open only when it opens to read, without O_CREAT */
	CAN_BLOCK,	/* ONCE; on a file that can block and is not known to be blocking */
	NOWAIT,		/* ONCE; with RWF_NOWAIT */
	LOCK_NB,	/* ONCE; flock with LOCK_NB */
	SETLK,		/* ONCE; fcntl F_SETLK or F_OFD_SETLK */
	TTY,		/* ONCE; ioctl TCGETS or TIOCGWINSZ */
};

struct answer {
	const char *calls;	/* names, each followed by a space */
	int errs[5];		/* ends with 0 */
	enum when when;
};

/*
 * Failures that answer the question the call asks: README.md's table, with
 * why each is an answer. A call dio does not trace (ioctl, execve) never
 * comes; its entry is for a host that does.
 */
static const struct answer answers[] = {
	/* "is it a symbolic link?" no: realpath() asks each component of each path */
	{ "readlink readlinkat ", { EINVAL }, ALWAYS },
	/* "is the name there?" no: searches over -I dirs, library and $PATH dirs, locale
	 * and translation files; checks of optional files; check-then-create */
	{ "stat lstat newfstatat statx access faccessat faccessat2 readlink readlinkat open "
	  "openat getxattr lgetxattr listxattr llistxattr statfs chdir execve execveat ",
	  { ENOENT, ENOTDIR }, LOOKUP },
	/* access() asks "would this be allowed?" and no is an answer */
	{ "access faccessat faccessat2 ", { EACCES, EROFS, ETXTBSY }, ONCE },
	/* gone already: what the removal wanted holds (rm -f, a stale socket or lock) */
	{ "unlink unlinkat rmdir ", { ENOENT }, ONCE },
	/* there already: mkdir -p, and a directory made sure of before writing into it */
	{ "mkdir mkdirat ", { EEXIST }, ONCE },
	/* the attribute is not set, or the file system keeps none: ls asks each file for
	 * its security label and ACL */
	{ "getxattr lgetxattr fgetxattr ", { ENODATA, EOPNOTSUPP }, ONCE },
	{ "listxattr llistxattr flistxattr ", { EOPNOTSUPP }, ONCE },
	/* a pipe, socket or tty cannot seek: programs ask to learn whether they can */
	{ "lseek ", { ESPIPE }, ONCE },
	/* a newer call the kernel or a sandbox refuses: the library falls back */
	{ "statx faccessat2 openat2 close_range ", { ENOSYS, EPERM }, ONCE },
	/* cp and install try it; where the file systems cannot, they read and write */
	{ "copy_file_range ", { ENOSYS, EXDEV, EOPNOTSUPP, EINVAL }, ONCE },
	/* posix_fallocate() writes zeros where the file system cannot allocate */
	{ "fallocate ", { EOPNOTSUPP }, ONCE },
	/* no data yet, or no room: what an event loop reads or writes until */
	{ "read readv write writev ", { EAGAIN }, CAN_BLOCK },
	/* the non-blocking socket or pipe written to is full */
	{ "sendfile splice ", { EAGAIN }, ONCE },
	/* RWF_NOWAIT asks "is it cached?" */
	{ "preadv2 pwritev2 ", { EAGAIN }, NOWAIT },
	/* a lock tried without waiting is held by another */
	{ "flock ", { EWOULDBLOCK }, LOCK_NB },
	{ "fcntl ", { EAGAIN, EACCES }, SETLK },
	/* isatty(): not a terminal */
	{ "ioctl ", { ENOTTY }, TTY },
};

#define NANSWERS (sizeof(answers) / sizeof(answers[0]))
_Static_assert(NANSWERS <= 32, "answer_of holds a bit an entry");

/* roles of calls besides their kind, by number */
#define ROLE_FLAGS1	1	/* open: its flags are argument 1 */
#define ROLE_FLAGS2	2	/* openat: argument 2 */
#define ROLE_FCNTL	3
#define ROLE_DUP2	4	/* dup2, dup3: the fd returned was closed first */

/* ---- state ------------------------------------------------------------------ */

/* what a group's failures were about */
#define BY_CALL	0	/* neither a file nor a path: the call alone */
#define BY_TAG	1
#define BY_PATH	2

struct gkey {
	uint32_t pid;
	uint16_t nr;
	uint16_t err;
	uint64_t what;		/* hash of the tag or of the path; 0 for BY_CALL */
	uint32_t lost;		/* the data of the calls likely did not reach the file */
	uint32_t pad;
};

struct group {
	uint64_t total;		/* failures of the group, in bursts or not, answers too */
	uint64_t counted;	/* failures counted in windows: not answers */
	uint64_t win_start, win_last, win_count, win_cost;
	uint64_t bursts, burst_failures, burst_ns, cost_ns, peak;
	uint64_t ts_first, ts_last;	/* first and last failure in a burst */
	/* the last answer: by which thread, when, and that thread's last success then */
	uint64_t q_seq, q_ts, q_dur;
	uint32_t q_tid, q_state;	/* Q_* */
	uint32_t tid, win_tid;	/* first burst's first failure; the current window's */
	uint32_t by;
	int32_t fd;		/* of the first failure */
	uint32_t ex;		/* excerpt: the current window's calls, kept once frozen */
	uint32_t frozen;	/* the excerpt holds calls of a burst */
	struct dio_file_tag tag;
	char comm[DIO_COMM_LEN], win_comm[DIO_COMM_LEN];
	char prog[DIO_COMM_LEN], win_prog[DIO_COMM_LEN];	/* the program, as comm */
	char path[PATH_KEEP];
	uint32_t path_cut;
	uint32_t pad;
};

#define Q_NONE		0	/* no answer yet */
#define Q_ASKED		1	/* the last failure was an answer, not counted */
#define Q_COUNTED	2	/* it was counted: asked again with nothing in between */

/* a process: its program and its time in system calls not yet added to the program's */
struct proc {
	struct prog prog;
	uint8_t pad[3];
	uint32_t counted;	/* the program it was counted for in a summary (name hash) */
	uint64_t sys_ns;
};

/* a program's time in system calls */
struct progtime {
	uint64_t sys_ns;
};

/* the failures of a program in one way (call, errno, loss, file or path), in all its processes */
struct way {
	uint64_t key;		/* way_key() */
	uint64_t n, bursts, peak, total;
	uint32_t sev, by;
	uint16_t nr, err;
	uint32_t pad;
	char what[WHAT_KEEP];
};

/* a process among those of a program with the most failures in bursts */
struct pcount {
	uint32_t pid, pad;
	uint64_t n;
};

/* the groups with bursts of one program, added up */
struct psum {
	char name[DIO_COMM_LEN];
	uint64_t n, bursts, total, burst_ns, cost_ns, ways;
	uint64_t ts_first, ts_last;
	uint32_t sev;		/* the highest of its ways */
	uint32_t same;		/* SAME_* its ways all share */
	uint32_t processes;
	uint16_t nr, err;	/* of the first way */
	uint32_t by, sev0;	/* of the first way */
	struct way top[TOP];	/* worst first: severity, then failures; of equals the first */
	struct pcount procs[TOP];	/* most failures first; of equals the lower pid */
	uint64_t seen[SEEN_BITS / 64];	/* ways of groups pushed out (two bits a way) */
	/* the worst way's evidence: its group with the most failures in bursts */
	uint64_t ev_key, ev_n;
	uint32_t pid, tid, has_tag, has_x;
	char comm[DIO_COMM_LEN];
	struct dio_file_tag tag;
	char path[WHAT_KEEP];
	struct excerpt x;
};

#define SAME_NR		0x1
#define SAME_ERR	0x2
#define SAME_BY		0x4
#define SAME_SEV	0x8

struct ref {
	const struct gkey *key;
	struct group *g;
	uint64_t way;
};

/* a program to report: its groups still in the table are refs[ref0, ref0 + nrefs) */
struct pref {
	uint64_t first;
	size_t ref0, nrefs;
	const char *name;
};

/* a window this much older than a tick's now may still get a call that ran long: left open */
#define TICK_LATE_NS	1000000000ULL
/* programs a tick reported, remembered to report them at the end too; past that, the end judges */
#define TICKED_MAX	64

/*
 * A program a tick reported, and what its finding was named by then (the
 * fingerprint is made of them): its later reports keep them, so that they
 * are updates of that finding, whichever way is the worst by then.
 */
struct ticked {
	char name[DIO_COMM_LEN];
	char comm[DIO_COMM_LEN];
	char path[WHAT_KEEP];
	uint32_t has_path;
};

struct errs {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	struct call_kinds kinds;
	struct table groups, procs, threads, progs, sums, fds;
	struct expool pool;
	uint64_t window_ns, min_failures, seq;
	double min_share;
	int err;
	uint32_t cache_pid;	/* procs: the entry of the last record's process */
	struct proc *cache;
	struct ref *refs;
	struct pref *prefs;
	size_t nrefs_max, nprefs_max;
	uint32_t answer_of[DIO_NR_MAX];	/* bit i: answers[i] names the call */
	uint8_t role[DIO_NR_MAX];
	struct psum scratch;	/* the program being reported */
	/* ticks: the programs reported (name keys), allocated at the first */
	struct ticked *ticked;
	size_t nticked;
	int in_tick, ending;
};

/* fds table values */
#define FD_WROTE	0x1	/* written to since it was opened */
#define FD_BLOCKING	0x2	/* opened, or set with F_SETFL, without O_NONBLOCK */

/* what a group is about, as a key: 0 is kept for "nothing" */
static uint64_t what_hash(const void *p, size_t n)
{
	uint64_t h = table_hash(p, n);

	return h ? h : 1;
}

/* a program's name as a nonzero 32-bit mark (struct proc.counted) */
static uint32_t name_mark(const char *name)
{
	uint32_t h = (uint32_t)table_hash(name, strnlen(name, DIO_COMM_LEN));

	return h ? h : 1;
}

/* the ways of different processes are the same when call, errno, loss and what are */
static uint64_t way_key(const struct gkey *k)
{
	struct gkey w = *k;

	w.pid = 0;
	return table_hash(&w, sizeof(w));
}

/* ---- programs and processes ------------------------------------------------- */

/* a program's name as a table key: what follows its NUL is zeros, whatever it was */
static void name_key(char key[DIO_COMM_LEN], const char *name)
{
	size_t n = strnlen(name, DIO_COMM_LEN - 1);

	memset(key, 0, DIO_COMM_LEN);
	memcpy(key, name, n);
}

static void proc_flush_to(struct errs *s, const char *name, struct proc *ps)
{
	struct progtime *t;
	char key[DIO_COMM_LEN];

	if (!ps->sys_ns || !name[0])
		return;
	name_key(key, name);
	t = table_put(&s->progs, key, NULL);
	t->sys_ns += ps->sys_ns;
	ps->sys_ns = 0;
}

/* a process pushed out, or gone: its time goes to its program */
static void proc_evicted(void *key, void *val, void *ud)
{
	struct errs *s = ud;
	struct proc *ps = val;

	(void)key;
	proc_flush_to(s, ps->prog.name, ps);
}

static struct proc *proc_of(struct errs *s, uint32_t pid)
{
	if (!s->cache || s->cache_pid != pid) {
		s->cache = table_put(&s->procs, &pid, NULL);
		s->cache_pid = pid;
	}
	return s->cache;
}

/* learn the program of a process from a record; a new name takes the time so far to the old */
static void proc_see(struct errs *s, struct proc *ps, const struct dio_ev_hdr *ev)
{
	char old[DIO_COMM_LEN];

	memcpy(old, ps->prog.name, sizeof(old));
	prog_see_record(&ps->prog, ev);
	if (memcmp(old, ps->prog.name, sizeof(old)))
		proc_flush_to(s, old, ps);
}

static void on_proc(struct errs *s, const struct dio_ev_proc *e)
{
	struct proc *ps;

	if (e->kind == DIO_PROC_EXEC) {
		proc_see(s, proc_of(s, e->pid), &e->hdr);
	} else if (e->kind == DIO_PROC_EXIT) {
		/* a new thread given this tid later has made no call yet */
		table_del(&s->threads, &e->tid);
		ps = s->procs.n ? table_get(&s->procs, &e->pid) : NULL;
		if (ps && (e->flags & DIO_PROCF_GROUP_DEAD))
			proc_flush_to(s, ps->prog.name, ps);
	}
}

/* the program's time in system calls, as far as it is known */
static uint64_t prog_time(struct errs *s, const char *name)
{
	char key[DIO_COMM_LEN];
	const struct progtime *t;

	name_key(key, name);
	t = table_get(&s->progs, key);

	return t ? t->sys_ns : 0;
}

/* ---- findings --------------------------------------------------------------- */

/* why this errno comes back in a loop, and what to do instead */
static const char *fix_for(int err)
{
	switch (err) {
	case ENOENT:
		return "The file is looked for again and again and is not there. Check once and "
		       "remember the answer (cache the miss), create the file before it is "
		       "polled for, or wait for it with inotify instead of polling the path.";
	case EAGAIN:
		return "The fd is non-blocking and the loop calls again at once, spinning on the "
		       "CPU. Wait until the fd is ready with poll, select or epoll (or make it "
		       "blocking) before calling again.";
	case EBADF:
		return "The fd is not open: a use after close, or a double close. Another thread "
		       "may be given the same fd number for another file in between; find where "
		       "the fd is closed early and stop using it after its close.";
	case EACCES:
	case EPERM:
		return "Permission is refused every time; retrying changes nothing. Fix the "
		       "permissions or the path, or remember the failure instead of retrying.";
	case EEXIST:
		return "The file exists already, so an exclusive create (O_EXCL, mkdir, link) "
		       "fails every time: check once, or take EEXIST as success where the file "
		       "is what was wanted.";
	case ENOTDIR:
	case EISDIR:
		return "The path names a file where a directory is expected, or a directory where "
		       "a file is: it is built wrongly, and retrying will not help.";
	case EINVAL:
		return "The arguments are invalid (an unaligned O_DIRECT buffer, a flag the file "
		       "does not support, ...); the same call will fail again: fix the call.";
	case ENOSPC:
	case EDQUOT:
		return "The file system or the quota is full; retrying at once frees nothing: "
		       "back off, free space, or fail the operation.";
	case EINTR:
		return "Signals interrupt the call over and over: install the handlers with "
		       "SA_RESTART, or find what sends so many signals.";
	case EMFILE:
	case ENFILE:
		return "No fd can be opened: fds leak, or the limit (ulimit -n) is too low for "
		       "the program.";
	default:
		return "The same call fails the same way again and again, and retrying without a "
		       "change will not succeed: find the cause once and stop retrying, or back "
		       "off between tries.";
	}
}

/* said first of a group whose data likely did not reach its file */
static const char *const lost_text =
	"These calls write or sync data: what they carried likely did not reach the file, "
	"and after a failed fsync the kernel may have dropped the unwritten pages, so only "
	"writing them again is a safe retry. ";

static const char *what_text(struct errs *s, const struct group *g, char *buf, size_t len)
{
	if (g->by == BY_TAG)
		return file_label(s->host, s->ctx, &g->tag, buf, len);
	if (g->by == BY_PATH) {
		char esc[PATH_KEEP];

		/* cut shorter than buf, so that the closing quote always fits */
		dio_escape(g->path, sizeof(g->path), DIO_ESC_QUOTE, esc, sizeof(esc));
		snprintf(buf, len, "\"%s\"%s", esc, g->path_cut ? "..." : "");
	} else if (g->fd >= 0)
		snprintf(buf, len, "fd %d", g->fd);
	else
		snprintf(buf, len, "no file or path");
	return buf;
}

/* "ENOENT" from the host's table; "errno N" for a number it has no name for */
static const char *err_text(const struct errs *s, int err, char *buf, size_t len)
{
	const char *name = DIO_HOST_HAS(s->host, name_of) ?
			   s->host->name_of(s->ctx, DIO_NAME_ERRNO, (uint32_t)err) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "errno %d", err);
	return buf;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* what the ways of p are about, for "on N ..." */
static const char *things(const struct psum *p)
{
	if (!(p->same & SAME_BY))
		return "files, paths or fds";
	return p->by == BY_TAG ? "files" : p->by == BY_PATH ? "paths" : "fds";
}

/* a share as a title says it: "0.4 %", "12 %" */
static const char *share_text(double share, char *buf, size_t len)
{
	snprintf(buf, len, share < 0.1 ? "%.1f %%" : "%.0f %%", share * 100);
	return buf;
}

/* the title of a program's finding: as a way's when it has one */
static void title_of(struct errs *s, const struct psum *p, const char *share, char *buf,
		     size_t len)
{
	const struct way *w = &p->top[0];
	const char *most = (p->same & SAME_SEV) ? "most" : "worst";
	char rate[96], span[32], e1[16], procs[48] = "";
	const char *call = s->host->syscall_name(w->nr);
	const char *ename = err_text(s, w->err, e1, sizeof(e1));

	if (p->burst_ns)
		snprintf(rate, sizeof(rate), " (%.0f/s, %s of the program's system-call time)",
			 (double)p->n / ((double)p->burst_ns / 1e9), share);
	else
		snprintf(rate, sizeof(rate), " (%s of the program's system-call time)", share);
	if (p->processes > 1)
		snprintf(procs, sizeof(procs), " in %u processes", p->processes);
	span_text(p->burst_ns, span, sizeof(span));
	if (p->ways == 1)
		snprintf(buf, len, "%" PRIu64 " %s calls failed with %s%s in %s%s: %s", p->n, call,
			 ename, procs, span, rate, w->what);
	else if ((p->same & SAME_NR) && (p->same & SAME_ERR))
		snprintf(buf, len, "%" PRIu64 " %s calls failed with %s%s in %s%s on %" PRIu64
			 " %s, %s on %s", p->n, call, ename, procs, span, rate, p->ways,
			 things(p), most, w->what);
	else
		snprintf(buf, len, "%" PRIu64 " calls failed in %" PRIu64 " ways%s in %s%s, %s %"
			 PRIu64 " %s calls with %s on %s", p->n, p->ways, procs, span, rate, most,
			 w->n, call, ename, w->what);
}

/* "Process 12 (make)" or "17 processes of cc1 (the most: 12 with 240, ...)" */
static size_t who_text(const struct psum *p, char *buf, size_t len)
{
	char name[COMM_LABEL_LEN];
	size_t at;

	comm_label(p->name, name);
	if (p->processes <= 1)
		return (size_t)snprintf(buf, len, "Process %u (%s)", p->pid, name);
	at = (size_t)snprintf(buf, len, "%u processes of %s (the most:", p->processes, name);
	for (int i = 0; i < TOP && p->procs[i].pid && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s %u with %" PRIu64, i ? "," : "",
				       p->procs[i].pid, p->procs[i].n);
	if (at < len)
		at += (size_t)snprintf(buf + at, len - at, "%s)",
				       p->processes > TOP ? ", ..." : "");
	return at;
}

/* what a tick reported of program name, or NULL */
static const struct ticked *ticked(const struct errs *s, const char *name)
{
	char key[DIO_COMM_LEN];

	name_key(key, name);
	for (size_t i = 0; i < s->nticked; i++)
		if (!memcmp(s->ticked[i].name, key, sizeof(key)))
			return &s->ticked[i];
	return NULL;
}

/* report p unless it is under the floors; 0 or -errno */
static int report(struct errs *s, const struct psum *p)
{
	struct dio_finding fd = { .size = sizeof(fd) };
	const struct way *w = &p->top[0];
	char title[1024], msg[4096], e1[16], share[16], span[32], sysspan[32];
	uint64_t sys = prog_time(s, p->name);
	double frac;
	const struct ticked *tk;
	size_t at;
	int err;

	/* the failing calls are among the program's calls: never more than all of them */
	if (sys < p->cost_ns)
		sys = p->cost_ns;
	frac = sys ? (double)p->cost_ns / (double)sys : 1;
	if (p->sev < DIO_SEV_ERROR && frac < s->min_share && !(s->ending && ticked(s, p->name)))
		return 0;
	/* a program a tick reports must be reported at the end: remembered, or left to the end */
	tk = ticked(s, p->name);
	if (s->in_tick && !tk) {
		struct ticked *n = &s->ticked[s->nticked];

		if (s->nticked == TICKED_MAX)
			return 0;
		name_key(n->name, p->name);
		memcpy(n->comm, p->comm, sizeof(n->comm));
		memcpy(n->path, p->path, sizeof(n->path));
		n->has_path = p->path[0] != 0;
		tk = n;
		s->nticked++;
	}
	share_text(frac, share, sizeof(share));
	title_of(s, p, share, title, sizeof(title));
	at = who_text(p, msg, sizeof(msg));
	if (p->ways == 1 && at < sizeof(msg)) {
		at += (size_t)snprintf(msg + at, sizeof(msg) - at,
				       " made %" PRIu64 " %s calls on %s that failed with "
				       "%s, in %" PRIu64 " burst%s of %" PRIu64 " or more within %" PRIu64
				       " ms (at most %" PRIu64 " in one); %" PRIu64
				       " failed the same way in all.\n",
				       p->n, s->host->syscall_name(w->nr), w->what,
				       err_text(s, w->err, e1, sizeof(e1)), p->bursts,
				       plural(p->bursts), s->min_failures, s->window_ns / 1000000,
				       w->peak, p->total);
	} else if (at < sizeof(msg)) {
		at += (size_t)snprintf(msg + at, sizeof(msg) - at,
				       " made %" PRIu64 " calls that failed in bursts of %"
				       PRIu64 " or more within %" PRIu64 " ms, in %" PRIu64 " ways "
				       "(call, errno, file or path); %" PRIu64 " failed the same ways "
				       "in all. The worst:\n",
				       p->n, s->min_failures, s->window_ns / 1000000,
				       p->ways, p->total);
		for (int i = 0; i < TOP && (uint64_t)i < p->ways && at < sizeof(msg); i++) {
			const struct way *t = &p->top[i];

			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  %" PRIu64 " %s calls with %s on %s%s: %" PRIu64
					       " burst%s, at most %" PRIu64 " in one, %" PRIu64
					       " in all\n",
					       t->n, s->host->syscall_name(t->nr),
					       err_text(s, t->err, e1, sizeof(e1)), t->what,
					       t->sev == DIO_SEV_ERROR ? " (data likely lost)" : "",
					       t->bursts, plural(t->bursts), t->peak, t->total);
		}
		if (p->ways > TOP && at < sizeof(msg))
			at += (size_t)snprintf(msg + at, sizeof(msg) - at,
					       "  and %" PRIu64 " more ways\n", p->ways - TOP);
	}
	if (at < sizeof(msg))
		at += (size_t)snprintf(msg + at, sizeof(msg) - at,
				       "The failing calls took %s, %s of the %s %s spent in "
				       "system calls.\n",
				       span_text(p->cost_ns, span, sizeof(span)), share,
				       span_text(sys, sysspan, sizeof(sysspan)),
				       p->processes > 1 ? "the program's processes" : "the program");
	if (at < sizeof(msg))
		snprintf(msg + at, sizeof(msg) - at, "%s%s",
			 w->sev == DIO_SEV_ERROR ? lost_text : "", fix_for(w->err));
	fd.severity = p->sev;
	fd.code = "errors.burst";
	fd.title = title;
	fd.message = msg;
	fd.pid = p->pid;
	fd.tid = p->tid;
	fd.comm = tk ? tk->comm : p->comm;
	fd.path = tk ? (tk->has_path ? tk->path : NULL) : p->path[0] ? p->path : NULL;
	fd.tag = p->tag;
	fd.has_tag = p->has_tag;
	fd.ts_first = p->ts_first;
	fd.ts_last = p->ts_last;
	fd.count = p->n;
	fd.excerpt = p->has_x ? p->x.text : NULL;
	fd.cost_ns = p->cost_ns;
	fd.processes = p->processes;
	err = s->host->emit_finding(s->ctx, &fd);
	if (err && !s->err)
		s->err = err;
	return err;
}

/* ---- groups into their programs --------------------------------------------- */

static void way_of(struct errs *s, const struct gkey *k, const struct group *g,
		   struct way *w)
{
	memset(w, 0, sizeof(*w));
	w->key = way_key(k);
	w->n = g->burst_failures;
	w->bursts = g->bursts;
	w->peak = g->peak;
	w->total = g->total;
	w->nr = k->nr;
	w->err = k->err;
	w->by = g->by;
	w->sev = k->lost ? DIO_SEV_ERROR : DIO_SEV_WARNING;
	what_text(s, g, w->what, sizeof(w->what));
}

static void way_add(struct way *to, const struct way *w)
{
	to->n += w->n;
	to->bursts += w->bursts;
	to->total += w->total;
	if (w->peak > to->peak)
		to->peak = w->peak;
}

static int worse(const struct way *a, const struct way *b)
{
	return a->sev > b->sev || (a->sev == b->sev && a->n > b->n);
}

/* the evidence of p is g's, a group of its worst way */
static void evidence(struct errs *s, struct psum *p, const struct gkey *k, const struct group *g)
{
	struct excerpt *x = expool_excerpt(&s->pool, g->ex);

	p->ev_key = way_key(k);
	p->ev_n = g->burst_failures;
	p->pid = k->pid;
	p->tid = g->tid;
	memcpy(p->comm, g->comm, sizeof(p->comm));
	p->has_tag = g->by == BY_TAG;
	p->tag = p->has_tag ? g->tag : (struct dio_file_tag){ 0 };
	if (g->by == BY_TAG) {
		/* the path as it is: what_text escapes it for the text */
		const char *path = s->host->tag_path(s->ctx, &g->tag);

		if (path)
			snprintf(p->path, sizeof(p->path), "%s", path);
		else
			what_text(s, g, p->path, sizeof(p->path));
	} else if (g->by == BY_PATH)
		snprintf(p->path, sizeof(p->path), "%s", g->path);
	else
		p->path[0] = 0;
	p->has_x = x && x->lines;
	if (p->has_x) {
		p->x = *x;
		/* the lines are the start of a burst: "... N more" counts the rest of them */
		if (g->frozen && g->burst_failures > p->x.lines)
			p->x.more = g->burst_failures - p->x.lines;
		excerpt_text(&p->x);
	}
}

/* a group's numbers into its program's, but for its way */
static void sum_group(struct psum *p, const struct group *g)
{
	if (!p->n || g->ts_first < p->ts_first)
		p->ts_first = g->ts_first;
	if (g->ts_last > p->ts_last)
		p->ts_last = g->ts_last;
	p->n += g->burst_failures;
	p->bursts += g->bursts;
	p->total += g->total;
	p->burst_ns += g->burst_ns;
	p->cost_ns += g->cost_ns;
}

/* n failures in bursts of process pid join those of the program */
static void sum_proc(struct errs *s, struct psum *p, uint32_t pid, uint64_t n)
{
	struct proc *ps = proc_of(s, pid);
	uint32_t mark = name_mark(p->name);
	int at = 0;

	if (ps->counted != mark) {
		ps->counted = mark;
		p->processes++;
	}
	for (int i = 0; i < TOP && p->procs[i].pid; i++) {
		if (p->procs[i].pid == pid) {
			n += p->procs[i].n;
			memmove(&p->procs[i], &p->procs[i + 1], (TOP - 1 - (size_t)i) *
				sizeof(p->procs[0]));
			memset(&p->procs[TOP - 1], 0, sizeof(p->procs[0]));
			break;
		}
	}
	while (at < TOP && p->procs[at].pid && (p->procs[at].n > n ||
	       (p->procs[at].n == n && p->procs[at].pid < pid)))
		at++;
	if (at == TOP)
		return;
	memmove(&p->procs[at + 1], &p->procs[at], (TOP - 1 - (size_t)at) * sizeof(p->procs[0]));
	p->procs[at] = (struct pcount){ .pid = pid, .n = n };
}

/*
 * A way (all of it, or the part a group pushed out brought) joins the worst
 * of its program; g, a group of it, gives the evidence if it is the worst.
 * A way is counted once: seen tells that it was met before.
 */
static void sum_way(struct errs *s, struct psum *p, const struct way *w, int seen,
		    const struct gkey *k, const struct group *g)
{
	struct way it = *w;
	int at = 0, was = -1;

	for (int i = 0; i < TOP && (uint64_t)i < p->ways; i++)
		if (p->top[i].key == w->key)
			was = i;
	if (was < 0 && !seen) {
		if (!p->ways++) {
			p->nr = w->nr;
			p->err = w->err;
			p->by = w->by;
			p->sev0 = w->sev;
			p->same = SAME_NR | SAME_ERR | SAME_BY | SAME_SEV;
		}
		if (w->nr != p->nr)
			p->same &= ~(uint32_t)SAME_NR;
		if (w->err != p->err)
			p->same &= ~(uint32_t)SAME_ERR;
		if (w->by != p->by)
			p->same &= ~(uint32_t)SAME_BY;
		if (w->sev != p->sev0)
			p->same &= ~(uint32_t)SAME_SEV;
	}
	if (w->sev > p->sev)
		p->sev = w->sev;
	if (was >= 0) {
		way_add(&p->top[was], w);
		it = p->top[was];
		memmove(&p->top[was], &p->top[was + 1], (TOP - 1 - (size_t)was) *
			sizeof(p->top[0]));
		memset(&p->top[TOP - 1], 0, sizeof(p->top[0]));
	}
	while (at < TOP && p->top[at].n && !worse(&it, &p->top[at]))
		at++;
	if (at == TOP)
		return;
	memmove(&p->top[at + 1], &p->top[at], (TOP - 1 - (size_t)at) * sizeof(p->top[0]));
	p->top[at] = it;
	if (!at && (p->ev_key != it.key || g->burst_failures > p->ev_n))
		evidence(s, p, k, g);
}

/*
 * Whether a way was among those of groups pushed out (set: it is now): two
 * bits of a program's filter. Only pushed-out groups set them, so the ways at
 * the end of the trace, counted once each, are not taken for one another.
 */
static int seen_test(struct psum *p, uint64_t key, int set)
{
	uint32_t a = (uint32_t)key % SEEN_BITS, b = (uint32_t)(key >> 32) % SEEN_BITS;
	int was = (p->seen[a / 64] >> (a % 64) & 1) && (p->seen[b / 64] >> (b % 64) & 1);

	if (set) {
		p->seen[a / 64] |= 1ull << (a % 64);
		p->seen[b / 64] |= 1ull << (b % 64);
	}
	return was;
}

/* the current window ends: a burst if it holds enough failures */
static void window_close(struct errs *s, struct group *g)
{
	if (g->win_count < s->min_failures)
		return;
	if (!g->bursts) {
		g->ts_first = g->win_start;
		g->tid = g->win_tid;
		memcpy(g->comm, g->win_comm, sizeof(g->comm));
		memcpy(g->prog, g->win_prog, sizeof(g->prog));
	}
	g->bursts++;
	g->burst_failures += g->win_count;
	g->burst_ns += g->win_last - g->win_start;
	g->cost_ns += g->win_cost;
	g->ts_last = g->win_last;
	if (g->win_count > g->peak)
		g->peak = g->win_count;
	g->win_count = 0;
}

/* the summary of program name, kept for groups pushed out */
static struct psum *sum_of(struct errs *s, const char *name)
{
	char key[DIO_COMM_LEN];
	struct psum *p;
	int created;

	name_key(key, name);
	p = table_put(&s->sums, key, &created);
	if (created)
		memcpy(p->name, key, sizeof(p->name));
	return p;
}

/* a group pushed out of its table: into its program's summary if it had a burst */
static void evicted(void *key, void *val, void *ud)
{
	struct errs *s = ud;
	const struct gkey *k = key;
	struct group *g = val;
	struct psum *p;
	struct way w;

	window_close(s, g);
	if (g->bursts) {
		p = sum_of(s, g->prog);
		way_of(s, k, g, &w);
		sum_group(p, g);
		sum_proc(s, p, k->pid, g->burst_failures);
		sum_way(s, p, &w, seen_test(p, w.key, 1), k, g);
	}
	expool_put(&s->pool, g->ex);
}

/* a summary pushed out of its table: reported now */
static void sum_evicted(void *key, void *val, void *ud)
{
	(void)key;
	report(ud, val);
}

static void on_release(const void *owner, void *ud)
{
	struct errs *s = ud;
	struct group *g = table_get(&s->groups, owner);

	if (g)
		g->ex = g->frozen = 0;
}

/* ---- init ------------------------------------------------------------------- */

static void errs_destroy(void *state)
{
	struct errs *s = state;

	if (!s)
		return;
	table_free(&s->groups);
	table_free(&s->procs);
	table_free(&s->threads);
	table_free(&s->progs);
	table_free(&s->sums);
	table_free(&s->fds);
	expool_free(&s->pool);
	free(s->refs);
	free(s->prefs);
	free(s->ticked);
	free(s);
}

/* whether name is one of the space-separated names of list */
static int name_in(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *at = list; *at; at = strchr(at, ' ') + 1)
		if (!strncmp(at, name, n) && at[n] == ' ')
			return 1;
	return 0;
}

static void calls_init(struct errs *s)
{
	call_kinds_init(&s->kinds, s->host);
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const char *n = s->host->syscall_name(nr);

		if (!n)
			continue;
		for (size_t i = 0; i < NANSWERS; i++)
			if (name_in(answers[i].calls, n))
				s->answer_of[nr] |= 1u << i;
		if (!strcmp(n, "open"))
			s->role[nr] = ROLE_FLAGS1;
		else if (!strcmp(n, "openat"))
			s->role[nr] = ROLE_FLAGS2;
		else if (!strcmp(n, "fcntl"))
			s->role[nr] = ROLE_FCNTL;
		else if (!strcmp(n, "dup2") || !strcmp(n, "dup3"))
			s->role[nr] = ROLE_DUP2;
	}
}

static int errs_init(const struct dio_host *host, struct dio_ctx *ctx,
		     const struct dio_optval *o, void **state)
{
	struct errs *s = calloc(1, sizeof(*s));
	int err = -EINVAL;

	if (!s)
		return -ENOMEM;
	s->host = host;
	s->ctx = ctx;
	if (o[O_WINDOW_MS].i < 1 || o[O_WINDOW_MS].i > 86400000 || o[O_MIN_FAILURES].i < 1 ||
	    !(o[O_MIN_SHARE].d >= 0 && o[O_MIN_SHARE].d <= 1) ||
	    o[O_MAX_GROUPS].i < 1 || o[O_MAX_GROUPS].i > (1 << 30) || o[O_EXCERPTS].i < 0 ||
	    o[O_EXCERPTS].i > 65536 || o[O_MAX_PROCS].i < 1 || o[O_MAX_PROCS].i > (1 << 24) ||
	    o[O_MAX_THREADS].i < 1 || o[O_MAX_THREADS].i > (1 << 24) ||
	    o[O_MAX_PROGS].i < 1 || o[O_MAX_PROGS].i > (1 << 24) ||
	    o[O_MAX_SUMMARIES].i < 1 || o[O_MAX_SUMMARIES].i > (1 << 20) ||
	    o[O_MAX_FDS].i < 1 || o[O_MAX_FDS].i > (1 << 24)) {
		host->log(ctx, "window_ms must be from 1 to 86400000, min_failures at least 1, "
			  "min_share from 0 to 1, max_groups from 1 to %d, excerpts from 0 to "
			  "65536, max_summaries from 1 to %d, max_procs, max_threads, max_progs "
			  "and max_fds from 1 to %d", 1 << 30, 1 << 20, 1 << 24);
		goto cleanup;
	}
	s->window_ns = (uint64_t)o[O_WINDOW_MS].i * 1000000;
	s->min_failures = (uint64_t)o[O_MIN_FAILURES].i;
	s->min_share = o[O_MIN_SHARE].d;
	err = table_init(&s->groups, sizeof(struct gkey), sizeof(struct group),
			 (size_t)o[O_MAX_GROUPS].i);
	if (!err)
		err = table_init(&s->procs, sizeof(uint32_t), sizeof(struct proc),
				 (size_t)o[O_MAX_PROCS].i);
	if (!err)
		err = table_init(&s->threads, sizeof(uint32_t), sizeof(uint64_t),
				 (size_t)o[O_MAX_THREADS].i);
	if (!err)
		err = table_init(&s->progs, DIO_COMM_LEN, sizeof(struct progtime),
				 (size_t)o[O_MAX_PROGS].i);
	if (!err)
		err = table_init(&s->sums, DIO_COMM_LEN, sizeof(struct psum),
				 (size_t)o[O_MAX_SUMMARIES].i);
	if (!err)
		err = table_init(&s->fds, sizeof(uint64_t), sizeof(uint64_t),
				 (size_t)o[O_MAX_FDS].i);
	if (!err)
		err = expool_init(&s->pool, (uint32_t)o[O_EXCERPTS].i, sizeof(struct gkey));
	if (err)
		goto cleanup;
	s->groups.evict = evicted;
	s->procs.evict = proc_evicted;
	s->sums.evict = sum_evicted;
	s->groups.ud = s->procs.ud = s->sums.ud = s->pool.ud = s;
	s->pool.release = on_release;
	s->nrefs_max = (size_t)o[O_MAX_GROUPS].i;
	s->nprefs_max = s->nrefs_max + (size_t)o[O_MAX_SUMMARIES].i;
	s->refs = calloc(s->nrefs_max, sizeof(*s->refs));
	s->prefs = calloc(s->nprefs_max, sizeof(*s->prefs));
	if (!s->refs || !s->prefs) {
		err = -ENOMEM;
		goto cleanup;
	}
	calls_init(s);
	*state = s;
	return 0;
cleanup:
	errs_destroy(s);
	return err;
}

/* ---- events ----------------------------------------------------------------- */

/* the first string argument, when the record holds a non-empty one */
static const char *path_arg(const struct dio_ev_syscall *e)
{
	const char *p = dio_ev_syscall_str(e, 0);

	return p && p[0] ? p : NULL;
}

/* (pid, fd) as a key of the table of fds */
static uint64_t fd_key(uint32_t pid, uint64_t fd)
{
	return (uint64_t)pid << 32 | (uint32_t)fd;
}

/* a socket, pipe, tty or anon inode (eventfd, timerfd): a read or write of it can block */
static int can_block(const struct dio_ev_syscall *e)
{
	return !(e->flags & DIO_SF_FILE) || e->ftype == DIO_FT_SOCK || e->ftype == DIO_FT_FIFO ||
	       e->ftype == DIO_FT_CHR || e->ftype == DIO_FT_ANON;
}

/* the open flags of an open or openat record, or -1 when the call has none we know */
static int64_t open_flags(const struct errs *s, const struct dio_ev_syscall *e)
{
	uint8_t r = e->nr < DIO_NR_MAX ? s->role[e->nr] : 0;

	return r == ROLE_FLAGS1 ? (int64_t)(uint32_t)e->args[1] :
	       r == ROLE_FLAGS2 ? (int64_t)(uint32_t)e->args[2] : -1;
}

/*
 * Follow the fds: which were written to since they were opened, and which
 * are known to block (opened, or set with F_SETFL, without O_NONBLOCK); and
 * say whether a failure likely lost data: a write or sync that failed with
 * an errno that means the data did not get to the file, or a close that did
 * after writes (NFS and some FUSE file systems report write-back errors at
 * close).
 */
static int follow_fds(struct errs *s, const struct dio_ev_syscall *e)
{
	enum call_kind kind = call_kind(&s->kinds, e->nr);
	uint8_t role = e->nr < DIO_NR_MAX ? s->role[e->nr] : 0;
	int failed = dio_ret_failed(e->ret), err = failed ? (int)-e->ret : 0, wrote = 0;
	uint64_t key = fd_key(e->pid, e->args[0]), *v;

	if (!failed && e->ret >= 0 && (kind == CALL_OPEN || role == ROLE_DUP2)) {
		int64_t fl = open_flags(s, e);

		key = fd_key(e->pid, (uint64_t)e->ret);
		table_del(&s->fds, &key);
		if (fl >= 0 && !(fl & X_O_NONBLOCK) && (e->flags & DIO_SF_FILE) && can_block(e))
			*(uint64_t *)table_put(&s->fds, &key, NULL) = FD_BLOCKING;
		return 0;
	}
	if (role == ROLE_FCNTL && !failed && e->args[1] == X_F_SETFL && e->args[0] < FD_LOOKS_MAX) {
		if (e->args[2] & X_O_NONBLOCK) {
			v = s->fds.n ? table_get(&s->fds, &key) : NULL;
			if (v)
				*v &= ~(uint64_t)FD_BLOCKING;
		} else if (can_block(e)) {
			*(uint64_t *)table_put(&s->fds, &key, NULL) |= FD_BLOCKING;
		}
		return 0;
	}
	if (kind == CALL_WRITE && !failed) {
		if (e->args[0] < FD_LOOKS_MAX)
			*(uint64_t *)table_put(&s->fds, &key, NULL) |= FD_WROTE;
		return 0;
	}
	if (kind == CALL_CLOSE) {
		v = s->fds.n ? table_get(&s->fds, &key) : NULL;
		wrote = v && (*v & FD_WROTE);
		table_del(&s->fds, &key);
	}
	if (!failed || (err != EIO && err != ENOSPC && err != EDQUOT && err != EBADF && err != EFBIG &&
			err != EROFS))
		return 0;
	return kind == CALL_WRITE || kind == CALL_SYNC || (kind == CALL_CLOSE && wrote);
}

/* whether e's arguments and file make it the question an entry of answers asks "when" */
static int asks(struct errs *s, const struct dio_ev_syscall *e, enum when when)
{
	int64_t fl;
	uint64_t key, *v;

	switch (when) {
	case LOOKUP:
		fl = open_flags(s, e);
		/* open and openat look a name up only to read; other calls always do */
		return fl < 0 || (!(fl & (X_O_CREAT | X_O_TMPFILE)) && (fl & X_O_ACCMODE) == 0);
	case CAN_BLOCK:
		if (!can_block(e))
			return 0;
		key = fd_key(e->pid, e->args[0]);
		v = s->fds.n ? table_get(&s->fds, &key) : NULL;
		return !v || !(*v & FD_BLOCKING);
	case NOWAIT:
		return !!(e->args[5] & X_RWF_NOWAIT);
	case LOCK_NB:
		return !!(e->args[1] & X_LOCK_NB);
	case SETLK:
		return e->args[1] == X_F_SETLK || e->args[1] == X_F_OFD_SETLK;
	case TTY:
		return e->args[1] == X_TCGETS || e->args[1] == X_TIOCGWINSZ;
	default:
		return 1;
	}
}

/*
 * A lookup of a locale or a translation catalog (.../locale/..., .../LC_MESSAGES/...,
 * *.mo): gettext and setlocale ask for every message and every variant of the
 * language name, and no catalog there is the answer every time (Python's
 * argparse looks for its catalog again for each message it translates)
 */
static int locale_lookup(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return path && (strstr(path, "/locale/") || strstr(path, "/LC_MESSAGES/") ||
			(n > 3 && !strcmp(path + n - 3, ".mo")));
}

/* the entry of answers that makes failure e an answer, or -1 */
static int answer(struct errs *s, const struct dio_ev_syscall *e, int err)
{
	uint32_t m = e->nr < DIO_NR_MAX ? s->answer_of[e->nr] : 0;

	for (int i = 0; m; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		for (const int *x = answers[i].errs; *x; x++)
			if (*x == err && asks(s, e, answers[i].when))
				return i;
	}
	return -1;
}

/* a failure at ts joins its group's window; with excerpt set, e goes to the excerpt too */
static void count(struct errs *s, const struct gkey *k, struct group *g, uint64_t ts,
		  uint64_t dur, const struct dio_ev_syscall *e, const char *prog, int excerpt)
{
	struct excerpt *x;

	g->counted++;
	if (g->win_count && ts - g->win_start < s->window_ns) {
		g->win_count++;
		g->win_last = ts;
		g->win_cost += dur;
	} else {
		window_close(s, g);
		g->win_start = g->win_last = ts;
		g->win_count = 1;
		g->win_cost = dur;
		g->win_tid = e->tid;
		memcpy(g->win_comm, e->comm, sizeof(g->win_comm));
		memcpy(g->win_prog, prog, sizeof(g->win_prog));
		if (g->ex && !g->frozen)
			excerpt_reset(expool_excerpt(&s->pool, g->ex));
	}
	if (!g->ex && expool_worth_asking(g->counted))
		g->ex = expool_take(&s->pool, k, g->counted);	/* release only gets */
	expool_score(&s->pool, g->ex, g->counted);
	x = expool_excerpt(&s->pool, g->ex);
	if (x && !g->frozen && excerpt) {
		excerpt_add(x, s->host, s->ctx, &e->hdr, EXCERPT_LINES);
		g->frozen = g->win_count >= s->min_failures;
	}
}

static int errs_event(void *state, const struct dio_ev_hdr *ev)
{
	struct errs *s = state;
	const struct dio_ev_syscall *e = (const void *)ev;
	const char *path = NULL;
	char prog[DIO_COMM_LEN];
	struct proc *ps;
	struct gkey k;
	struct group *g;
	uint64_t *seen;
	int created, lost, ans, err;

	if (ev->type == DIO_EV_PROC)
		on_proc(s, (const void *)ev);
	if (ev->type != DIO_EV_SYSCALL)
		return s->err;
	s->seq++;
	ps = proc_of(s, e->pid);
	proc_see(s, ps, ev);
	ps->sys_ns += e->duration;
	/* ps goes stale once a group pushed out has its process looked up */
	memcpy(prog, ps->prog.name, sizeof(prog));
	lost = follow_fds(s, e);
	if (!dio_ret_failed(e->ret)) {
		/* the thread got somewhere: what it asks next is a new question */
		seen = s->threads.n ? table_get(&s->threads, &e->tid) : NULL;
		if (seen)
			*seen = s->seq;
		return s->err;
	}
	err = (int)-e->ret;
	ans = answer(s, e, err);
	if (ans >= 0 && (answers[ans].when == ALWAYS ||
			 (answers[ans].when == LOOKUP && locale_lookup(path_arg(e)))))
		return s->err;
	memset(&k, 0, sizeof(k));
	k.pid = e->pid;
	k.nr = e->nr;
	k.err = (uint16_t)err;
	k.lost = (uint32_t)lost;
	if (e->flags & DIO_SF_FILE)
		k.what = what_hash(&e->tag, sizeof(e->tag));
	else if ((path = path_arg(e)))
		k.what = what_hash(path, strlen(path));
	g = table_put(&s->groups, &k, &created);
	if (created) {
		g->by = (e->flags & DIO_SF_FILE) ? BY_TAG : path ? BY_PATH : BY_CALL;
		g->tag = e->tag;
		/* the first argument, when it looks like an fd (not a pointer) */
		g->fd = e->args[0] < FD_LOOKS_MAX ? (int32_t)e->args[0] : -1;
		if (path) {
			size_t n = strlen(path);

			g->path_cut = n >= sizeof(g->path) ||
				      (e->flags & DIO_SF_STR0_TRUNC);
			snprintf(g->path, sizeof(g->path), "%s", path);
		}
	}
	g->total++;
	if (ans >= 0) {
		/* a thread first seen failing: what it did before is not known, so it got somewhere */
		seen = table_put(&s->threads, &e->tid, &created);
		if (created)
			*seen = s->seq;
		if (g->q_state == Q_NONE || g->q_tid != e->tid || g->q_seq != *seen) {
			g->q_state = Q_ASKED;
			g->q_tid = e->tid;
			g->q_seq = *seen;
			g->q_ts = e->hdr.ts;
			g->q_dur = e->duration;
			return s->err;
		}
		/* asked again with nothing in between: a retry, from the first of them */
		if (g->q_state == Q_ASKED)
			count(s, &k, g, g->q_ts, g->q_dur, e, prog, 0);
		g->q_state = Q_COUNTED;
	}
	count(s, &k, g, e->hdr.ts, e->duration, e, prog, 1);
	return s->err;
}

/* ---- finish ----------------------------------------------------------------- */

struct collect {
	struct errs *s;
	size_t n;
	uint64_t until;		/* windows that began before until - window_ns are over */
};

static void collect(void *key, void *val, void *ud)
{
	struct collect *c = ud;
	struct group *g = val;

	/* a window still open at a tick may yet grow: the next failure would close the others */
	if (g->win_count && g->win_start + c->s->window_ns <= c->until)
		window_close(c->s, g);
	if (g->bursts && c->n < c->s->nrefs_max)
		c->s->refs[c->n++] = (struct ref){ key, g, way_key(key) };
}

static void flush_proc(void *key, void *val, void *ud)
{
	proc_evicted(key, val, ud);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int name_cmp(const char *a, const char *b)
{
	return strncmp(a, b, DIO_COMM_LEN);
}

/* by program, then process, then first burst first; the rest of the key breaks ties */
static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = name_cmp(x->g->prog, y->g->prog);

	if (!c)
		c = cmp_u64(x->key->pid, y->key->pid);
	if (!c)
		c = cmp_u64(x->g->ts_first, y->g->ts_first);
	if (!c)
		c = cmp_u64(x->key->nr, y->key->nr);
	if (!c)
		c = cmp_u64(x->key->err, y->key->err);
	if (!c)
		c = cmp_u64(x->key->lost, y->key->lost);
	return c ? c : cmp_u64(x->key->what, y->key->what);
}

/* the groups of one program by way, then by process */
static int ref_way_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = cmp_u64(x->way, y->way);

	return c ? c : cmp_u64(x->key->pid, y->key->pid);
}

/* programs in the order of their first burst, then by name */
static int pref_cmp(const void *a, const void *b)
{
	const struct pref *x = a, *y = b;
	int c = cmp_u64(x->first, y->first);

	return c ? c : name_cmp(x->name, y->name);
}

static int pref_name_cmp(const void *key, const void *elt)
{
	return name_cmp(key, ((const struct pref *)elt)->name);
}

struct summaries {
	struct errs *s;
	size_t n, with_groups;
};

/* a summary of a program whose groups are all gone from the table, or its first burst */
static void add_summary(void *key, void *val, void *ud)
{
	struct summaries *c = ud;
	const struct psum *p = val;
	struct pref *in = bsearch(key, c->s->prefs, c->with_groups, sizeof(*c->s->prefs),
				  pref_name_cmp);

	if (in) {
		if (p->ts_first < in->first)
			in->first = p->ts_first;
		return;
	}
	c->s->prefs[c->n++] = (struct pref){ .first = p->ts_first, .name = p->name };
}

/* the groups still in the table of one program into p: its processes, then its ways */
static void sum_refs(struct errs *s, struct psum *p, struct ref *r, size_t n)
{
	struct way cur, w;
	size_t best = 0;

	for (size_t i = 0, j; i < n; i = j) {
		uint64_t sum = 0;

		for (j = i; j < n && r[j].key->pid == r[i].key->pid; j++) {
			sum_group(p, r[j].g);
			sum += r[j].g->burst_failures;
		}
		sum_proc(s, p, r[i].key->pid, sum);
	}
	qsort(r, n, sizeof(*r), ref_way_cmp);
	for (size_t i = 0; i < n; i++) {
		way_of(s, r[i].key, r[i].g, &w);
		if (!i || r[i].way != r[i - 1].way) {
			cur = w;
			best = i;
		} else {
			way_add(&cur, &w);
			if (r[i].g->burst_failures > r[best].g->burst_failures)
				best = i;
		}
		if (i + 1 == n || r[i + 1].way != r[i].way)
			sum_way(s, p, &cur, seen_test(p, cur.key, 0), r[best].key, r[best].g);
	}
}

/* the programs with bursts in the windows over by until, reported */
static void judge(struct errs *s, uint64_t until)
{
	struct collect c = { s, 0, until };
	struct summaries sum = { s, 0, 0 };

	table_each(&s->procs, flush_proc, s);
	table_each(&s->groups, collect, &c);
	qsort(s->refs, c.n, sizeof(*s->refs), ref_cmp);
	for (size_t i = 0; i < c.n; i++) {
		struct pref *last = sum.n ? &s->prefs[sum.n - 1] : NULL;

		if (!last || name_cmp(last->name, s->refs[i].g->prog)) {
			s->prefs[sum.n++] = (struct pref){ .first = s->refs[i].g->ts_first,
							   .ref0 = i, .name = s->refs[i].g->prog };
			last = &s->prefs[sum.n - 1];
		}
		last->nrefs++;
		if (s->refs[i].g->ts_first < last->first)
			last->first = s->refs[i].g->ts_first;
	}
	sum.with_groups = sum.n;
	table_each(&s->sums, add_summary, &sum);
	qsort(s->prefs, sum.n, sizeof(*s->prefs), pref_cmp);
	for (size_t i = 0; i < sum.n; i++) {
		const struct pref *r = &s->prefs[i];
		char key[DIO_COMM_LEN];
		const struct psum *kept;

		name_key(key, r->name);
		kept = table_get(&s->sums, key);
		if (kept)
			s->scratch = *kept;
		else
			memset(&s->scratch, 0, sizeof(s->scratch));
		memcpy(s->scratch.name, key, sizeof(s->scratch.name));
		sum_refs(s, &s->scratch, s->refs + r->ref0, r->nrefs);
		report(s, &s->scratch);
	}
}

/*
 * --report-every: the bursts of the windows over by now. A window stays
 * open TICK_LATE_NS longer, for the calls that began in it and are still
 * running (their records come when they return).
 */
static int errs_tick(void *state, uint64_t now_ns)
{
	struct errs *s = state;

	if (s->err || now_ns < TICK_LATE_NS)
		return s->err;
	if (!s->ticked && !(s->ticked = calloc(TICKED_MAX, sizeof(*s->ticked))))
		return -ENOMEM;
	s->in_tick = 1;
	judge(s, now_ns - TICK_LATE_NS);
	s->in_tick = 0;
	return s->err;
}

static int errs_finish(void *state)
{
	struct errs *s = state;

	s->ending = 1;
	judge(s, UINT64_MAX);
	if (!s->err) {
		const struct table_use u[] = {
			/* a group pushed out is kept in its program's tally: only that one counts */
			TABLE_USE(&s->sums, "programs with groups pushed out", "max_summaries"),
			TABLE_USE(&s->fds, "fds followed", "max_fds"),
		};

		s->err = tables_report(s->host, s->ctx, rules[1].code, "errors", u,
				       sizeof(u) / sizeof(u[0]));
	}
	return s->err;
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "errors",
	.description = "bursts of calls failing the same way, per program: ENOENT storms, EAGAIN "
		       "spins, EBADF, writes that lose data; answers (not a symlink, not there, "
		       "no data yet) are not failures",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PROC),
	.options = options,
	.init = errs_init,
	.event = errs_event,
	.finish = errs_finish,
	.destroy = errs_destroy,
	.rules = rules,
	.tick = errs_tick,
};
