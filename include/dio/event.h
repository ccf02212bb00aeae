/* SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause) */
/*
 * Wire format of the records that dio's BPF programs put into the ring buffer.
 * The same structs reach analyzer and sink modules unchanged, so they hold only
 * fixed-width fields; each is pinned with a static assertion that both the BPF
 * and the host compiler check.
 */
#ifndef DIO_EVENT_H
#define DIO_EVENT_H

#ifdef __bpf__
/* vmlinux.h provides __u8..__u64 */
#else
#include <linux/types.h>
#endif

/* Record types: hdr.type. Modules subscribe with DIO_EV_MASK(type). */
#define DIO_EV_SYSCALL	1	/* struct dio_ev_syscall: one system call, entry and exit */
#define DIO_EV_PATH	2	/* struct dio_ev_path: path of a file tag, sent once per tag */
#define DIO_EV_IOURING	3	/* struct dio_ev_iouring: one io_uring request */
#define DIO_EV_PROC	4	/* struct dio_ev_proc: fork, exec, exit, thread rename */
#define DIO_EV_BLOCK	5	/* struct dio_ev_block: one block request, issue to completion */
#define DIO_EV_RUNQ	6	/* struct dio_ev_runq: a traced thread waited for a CPU */
#define DIO_EV_OFD	7	/* struct dio_ev_ofd: an open file description ended (made by the host) */
#define DIO_EV_MAX	8
#define DIO_EV_MASK(t)	(1ULL << (t))

#define DIO_COMM_LEN	16
#define DIO_NR_MAX	512	/* x86_64 system call numbers are below this (dio_ev_syscall.nr) */
#define DIO_PATH_MAX	4096	/* longest path or path argument kept */

/* Common header of every record. */
struct dio_ev_hdr {
	__u16 type;	/* DIO_EV_* */
	__u16 size;	/* bytes of the whole record, variable tail included */
	__u32 cpu;	/* CPU that produced the record */
	__u64 ts;	/* CLOCK_MONOTONIC ns: syscall entry, request submit, or event time */
};

/*
 * A file tag names one file for the life of the trace. dev+ino alone is not
 * enough: file systems hand a freed inode number out again, and the inode's
 * generation (i_generation) is what tells the new file from the old one.
 */
struct dio_file_tag {
	__u64 ino;
	__u32 dev;	/* kernel dev_t: major << 20 | minor */
	__u32 gen;	/* inode generation */
};

/* The parts of a kernel dev_t, as in file tags and block records */
#define DIO_DEV_MAJOR(dev)	((__u32)(dev) >> 20)
#define DIO_DEV_MINOR(dev)	((__u32)(dev) & 0xfffff)
#define DIO_DEV_MAJOR_MAX	0xfff
#define DIO_DEV_MINOR_MAX	0xfffff
#define DIO_DEV(major, minor)	((__u32)(major) << 20 | (__u32)(minor))

/* File types: (i_mode & S_IFMT) >> 12, plus 0 for "no file". */
#define DIO_FT_NONE	0
#define DIO_FT_FIFO	1
#define DIO_FT_CHR	2
#define DIO_FT_DIR	4
#define DIO_FT_BLK	6
#define DIO_FT_REG	8
#define DIO_FT_LNK	10
#define DIO_FT_SOCK	12
#define DIO_FT_ANON	15	/* anon inode (eventfd, io_uring, epoll, ...): i_mode type 0 */

/* dio_ev_syscall.flags */
#define DIO_SF_FILE	0x01	/* tag and ftype describe the file the call used */
#define DIO_SF_OFFSET	0x02	/* offset is valid */
#define DIO_SF_STR0_TRUNC 0x04	/* first string argument was cut at DIO_PATH_MAX */
#define DIO_SF_STR1_TRUNC 0x08	/* second string argument was cut */
#define DIO_SF_STR0_FAULT 0x10	/* first string argument could not be read */
#define DIO_SF_STR1_FAULT 0x20	/* second string argument could not be read */
#define DIO_SF_HASH	0x40	/* a struct dio_ev_content tail follows the strings */

/*
 * One system call. Entry and exit are joined in the kernel. The record is
 * followed by str_len[0] bytes of the first string argument and str_len[1]
 * bytes of the second (each NUL-terminated, counted with the NUL), then, when
 * DIO_SF_HASH is set, a struct dio_ev_content and its data bytes.
 */
struct dio_ev_syscall {
	struct dio_ev_hdr hdr;	/* hdr.ts: entry time */
	__u32 pid;		/* thread group id */
	__u32 tid;
	__u64 duration;		/* exit time - entry time, ns */
	__s64 ret;		/* return value; -errno on failure */
	__u64 args[6];
	char comm[DIO_COMM_LEN]; /* thread name at the time of the call */
	struct dio_file_tag tag; /* valid when DIO_SF_FILE */
	__s64 offset;		/* file offset the call read or wrote at; DIO_SF_OFFSET */
	__u16 nr;		/* x86_64 system call number */
	__u8 ftype;		/* DIO_FT_* when DIO_SF_FILE */
	__u8 flags;		/* DIO_SF_* */
	__u16 str_len[2];
	__s32 fd;		/* the fd the file was found through, -1 if none */
	__u32 ofd;		/* DIO_SF_FILE: its open file description, 0 if unknown (below) */
};

/*
 * Open file descriptions. open() makes one (the kernel's struct file); dup,
 * dup2, dup3, fcntl F_DUPFD, fork and SCM_RIGHTS give it more fds, all
 * sharing its offset and flags; it ends when its last fd is closed. The ofd
 * of a record is a keyed hash of that struct file, with a key made anew for
 * each session and never written down: equal in two records of one session
 * means the same description (while it lives: the kernel reuses the memory
 * of one that ended), and it tells nothing of kernel addresses. It has 32
 * bits, so two descriptions alive at once share one with odds of about n^2
 * in 2^33 for n of them. Records of recordings made before dio knew
 * descriptions have 0; the host then numbers them itself from open and dup
 * calls, in the range DIO_OFD_HOST and above.
 */
#define DIO_OFD_HOST	0x80000000u

/* dio_ev_ofd.how: what closed its last fd */
#define DIO_OFD_CLOSE	1	/* close, or close_range, of its last fd */
#define DIO_OFD_REPLACED 2	/* dup2, dup3 or F_DUPFD onto its last fd closed it */
#define DIO_OFD_EXEC	3	/* its last fds were close-on-exec, and the process ran execve */
#define DIO_OFD_EXIT	4	/* the process that held its last fds ended (tid 0: dio found it
				 * gone from the machine without its exit record) */
#define DIO_OFD_END	5	/* the trace ended with it open (dio analyze, dio trace at exit),
				 * or dio stopped following its process (its table was full) */

/* dio_ev_ofd.flags */
#define DIO_OFDF_OPENED	0x01	/* dio saw the call that made it: open_ts is that call's entry */
#define DIO_OFDF_FILE	0x02	/* tag and ftype are valid */

/*
 * An open file description ended: the host makes this record, after the
 * record of the call that closed its last fd (or the exit or exec that did),
 * from the fds it follows per process: those that records returned (open,
 * dup, fcntl F_DUPFD) or used, copied to the child at fork. A description
 * whose fds dio learnt only by seeing them used (inherited from before the
 * trace, received over a socket) ends when the last fd dio knows goes.
 */
struct dio_ev_ofd {
	struct dio_ev_hdr hdr;	/* hdr.ts: entry of the call that ended it, or the exit's time */
	__u32 pid;		/* the process that held the last fd */
	__u32 tid;		/* the thread whose call ended it (0 for DIO_OFD_END) */
	__u32 ofd;
	__s32 fd;		/* the last fd */
	struct dio_file_tag tag; /* DIO_OFDF_FILE */
	__u64 open_ts;		/* first seen: its open call (DIO_OFDF_OPENED) or first use */
	__u16 nr;		/* the call that ended it; 0 for exit and end */
	__u8 how;		/* DIO_OFD_* */
	__u8 ftype;		/* DIO_OFDF_FILE */
	__u32 flags;		/* DIO_OFDF_* */
};

/* Tail of a syscall record with content signatures (--hash, --capture-data). */
struct dio_ev_content {
	__u64 hash;		/* FNV-1a 64 of the first hashed_len bytes */
	__u32 hashed_len;
	__u32 data_len;		/* bytes of data that follow (--capture-data) */
};

/* dio_ev_path.flags */
#define DIO_PF_TRUNC	0x01	/* deeper than the walk limit or longer than DIO_PATH_MAX */
#define DIO_PF_DELETED	0x02	/* the file was unlinked when the path was read */
#define DIO_PF_RENAMED	0x04	/* sent again because the file was renamed or moved */
/* With DIO_PF_TRUNC, which part is missing (neither, in older recordings: the end) */
#define DIO_PF_TRUNC_HEAD 0x08	/* its first components: deeper than the walk limit */
#define DIO_PF_TRUNC_TAIL 0x10	/* its last components: longer than DIO_PATH_MAX */

/* The path of a file tag, followed by len bytes (NUL included). */
struct dio_ev_path {
	struct dio_ev_hdr hdr;
	struct dio_file_tag tag;
	__u16 len;
	__u8 flags;		/* DIO_PF_* */
	__u8 ftype;
	__u32 pid;		/* process whose call caused the lookup */
};

/* One io_uring request, from submission to completion. */
struct dio_ev_iouring {
	struct dio_ev_hdr hdr;	/* hdr.ts: submission time */
	__u32 pid;
	__u32 tid;
	__u64 duration;		/* completion - submission, ns */
	__s64 res;		/* cqe result */
	__u64 offset;
	__u64 user_data;
	char comm[DIO_COMM_LEN];
	struct dio_file_tag tag;
	__u32 len;
	__s32 fd;		/* fd, or fixed-file index when DIO_IF_FIXED */
	__u8 opcode;		/* IORING_OP_* */
	__u8 ftype;
	__u8 flags;		/* DIO_IF_* */
	__u8 pad[5];
};

#define DIO_IF_FILE	0x01	/* tag and ftype are valid */
#define DIO_IF_FIXED	0x02	/* fd is a registered-file index */
#define DIO_IF_SQPOLL	0x04	/* submitted by the SQPOLL kernel thread */

/* dio_ev_proc.kind */
#define DIO_PROC_FORK	1	/* other_pid/other_tid: the new process or thread */
#define DIO_PROC_EXEC	2	/* comm: the new program's name */
#define DIO_PROC_EXIT	3	/* a thread ended; exit_code as wait(2) reports it */
#define DIO_PROC_RENAME	4	/* comm: the new thread name */

/* dio_ev_proc.flags */
#define DIO_PROCF_GROUP_DEAD 0x01	/* DIO_PROC_EXIT: the last thread, the process is gone */
#define DIO_PROCF_THREAD 0x02		/* DIO_PROC_FORK: a new thread, not a new process */

struct dio_ev_proc {
	struct dio_ev_hdr hdr;
	__u32 pid;
	__u32 tid;
	__u32 other_pid;
	__u32 other_tid;
	__s32 exit_code;
	__u16 kind;		/* DIO_PROC_* */
	__u16 flags;		/* DIO_PROCF_* */
	char comm[DIO_COMM_LEN];
	/* appended: a record of an older recording (DIO_EV_PROC_SIZE_V1) reaches modules with 0 */
	__u32 mnt_ns;		/* mount namespace (inode number, as /proc/PID/ns/mnt) */
	__u32 pad;
};
/* the record's size before mnt_ns was appended: the host accepts both */
#define DIO_EV_PROC_SIZE_V1	56

/* dio_ev_block.flags */
#define DIO_BF_KTHREAD	0x01	/* submitted by a kernel thread (writeback, journal, loop, ...)
				 * to a file system traced processes use (any, with -a):
				 * pid/tid/comm are that thread's, not the data's owner's */
#define DIO_BF_SYSCALL	0x02	/* the submitter was in system call nr, entered at sys_ts */
#define DIO_BF_QUEUED	0x04	/* it went through the I/O scheduler: queue_ns is insert -> issue */

/*
 * One block request, from its issue to the driver to its completion. The
 * request itself (its struct request) joins issue and completion, so merges,
 * splits and requests to the same sector do not get mixed up.
 */
struct dio_ev_block {
	struct dio_ev_hdr hdr;	/* hdr.ts: issue to the driver */
	__u32 pid;		/* the task that queued (or else issued) the request */
	__u32 tid;
	__u64 duration;		/* issue -> completion, ns */
	__u64 queue_ns;		/* insert -> issue, ns (DIO_BF_QUEUED) */
	__u64 sector;		/* first 512-byte sector */
	__u64 sys_ts;		/* entry time of the submitter's system call (DIO_BF_SYSCALL) */
	char comm[DIO_COMM_LEN]; /* the submitter's thread name */
	__u32 dev;		/* major << 20 | minor of the partition (a file system's
				 * dev, as in file tags), else of the disk */
	__u32 bytes;		/* at issue */
	__s32 error;		/* 0, or the completion status as -errno */
	__u16 nr;		/* the submitter's system call (DIO_BF_SYSCALL) */
	__u8 flags;		/* DIO_BF_* */
	__u8 pad;
	char rwbs[8];		/* as blktrace shows it: [F]R|W|D|DE|F|N then F(UA) A(head) S(ync) M(eta) */
};

/* dio_ev_runq.flags */
#define DIO_RF_PREEMPTED 0x01	/* it was preempted while running, not woken up */
#define DIO_RF_SYSCALL	0x02	/* it was in system call nr, entered at sys_ts */

/*
 * A traced thread that was runnable and waited at least the run-queue
 * threshold (dio trace --runq-min) before it got a CPU.
 */
struct dio_ev_runq {
	struct dio_ev_hdr hdr;	/* hdr.ts: when it became runnable */
	__u32 pid;
	__u32 tid;
	__u64 delay;		/* runnable -> running, ns */
	__u64 sys_ts;		/* DIO_RF_SYSCALL */
	char comm[DIO_COMM_LEN];
	__u32 prev_pid;		/* the thread the CPU switched away from to run it */
	__u32 prev_tid;
	char prev_comm[DIO_COMM_LEN];
	__u16 nr;		/* DIO_RF_SYSCALL */
	__u8 flags;		/* DIO_RF_* */
	__u8 pad[5];
};

/*
 * What the host guarantees of every record it hands to a module (the event()
 * of an analyzer or a sink, and what format_event() accepts): dio checks each
 * record once, where it comes in from the kernel or a trace file, and a
 * record that fails is counted as lost and reaches no module. So a module
 * does not check these again:
 *  - hdr.type is one the module subscribed to, and hdr.size bytes are
 *    readable: at least the size of the type's struct in this header (an
 *    older, shorter process record arrives padded with zeros);
 *  - a syscall record is exactly its struct, str_len[0] then str_len[1]
 *    bytes of strings, each at most DIO_PATH_MAX with its last byte a NUL (so
 *    each is a C string; a string that could not be read has length 0), then
 *    with DIO_SF_HASH a struct dio_ev_content and its data_len bytes, at most
 *    DIO_PATH_MAX: dio_ev_syscall_str() and dio_ev_syscall_content() find them;
 *  - a path record is its struct and len bytes, 1 to DIO_PATH_MAX, the last a
 *    NUL: dio_ev_path_str();
 *  - ftype is a DIO_FT_* where its flag says it is valid (always in a path
 *    record), dio_ev_proc.kind a DIO_PROC_*, dio_ev_ofd.how a DIO_OFD_*.
 * Not checked: values (pids, numbers, times, system call numbers, opcodes)
 * and the fixed char arrays (comm, rwbs), which need not end with a NUL.
 */
#if !defined(__bpf__)
#include <stdio.h>
#include <string.h>

/* String argument i (0 or 1) of a syscall record as a C string; NULL when it has none. */
static inline const char *dio_ev_syscall_str(const struct dio_ev_syscall *ev, unsigned int i)
{
	const char *s = (const char *)(ev + 1);

	if (i > 1 || !ev->str_len[i])
		return NULL;
	return i ? s + ev->str_len[0] : s;
}

/*
 * The content tail of a syscall record: copies its struct dio_ev_content to
 * *ct (it is not aligned) and returns its ct->data_len data bytes; NULL, with
 * *ct zeroed, without DIO_SF_HASH.
 */
static inline const char *dio_ev_syscall_content(const struct dio_ev_syscall *ev,
						 struct dio_ev_content *ct)
{
	const char *at = (const char *)(ev + 1) + ev->str_len[0] + ev->str_len[1];

	if (!(ev->flags & DIO_SF_HASH)) {
		memset(ct, 0, sizeof(*ct));
		return NULL;
	}
	memcpy(ct, at, sizeof(*ct));
	return at + sizeof(*ct);
}

/*
 * The largest errno: a syscall's ret (or a completion's res) from -DIO_MAX_ERRNO
 * to -1 is a failure; below, a negative value is a result (lseek, as the kernel's
 * IS_ERR_VALUE).
 */
#define DIO_MAX_ERRNO	4095

/* 1 when ret is a failure's -errno */
static inline int dio_ret_failed(long long ret)
{
	return ret < 0 && ret >= -DIO_MAX_ERRNO;
}

/* 1 when a and b name the same file */
static inline int dio_file_tag_eq(const struct dio_file_tag *a, const struct dio_file_tag *b)
{
	return a->ino == b->ino && a->dev == b->dev && a->gen == b->gen;
}

/* The path of a path record, a C string. */
static inline const char *dio_ev_path_str(const struct dio_ev_path *p)
{
	return (const char *)(p + 1);
}

/* Room for the text of any file tag, NUL included: 4095:1048575|18446744073709551615|4294967295 */
#define DIO_FILE_TAG_LEN	45

/*
 * A file tag as dio writes it everywhere, "8:1|1234|5" (major:minor|inode|
 * generation), into buf; snprintf semantics.
 */
static inline int dio_file_tag_format(const struct dio_file_tag *tag, char *buf, size_t len)
{
	return snprintf(buf, len, "%u:%u|%llu|%u", DIO_DEV_MAJOR(tag->dev), DIO_DEV_MINOR(tag->dev),
			(unsigned long long)tag->ino, tag->gen);
}
#endif

/* Layout checks for C99 (-pedantic), C11 and C++ users of this header alike. */
#ifdef __cplusplus
#define DIO_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define DIO_STATIC_ASSERT(cond, msg) __extension__ _Static_assert(cond, msg)
#endif

DIO_STATIC_ASSERT(sizeof(struct dio_ev_hdr) == 16, "dio_ev_hdr layout");
DIO_STATIC_ASSERT(sizeof(struct dio_file_tag) == 16, "dio_file_tag layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_syscall) == 144, "dio_ev_syscall layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_content) == 16, "dio_ev_content layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_path) == 40, "dio_ev_path layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_iouring) == 104, "dio_ev_iouring layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_proc) == 64, "dio_ev_proc layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_block) == 96, "dio_ev_block layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_runq) == 88, "dio_ev_runq layout");
DIO_STATIC_ASSERT(sizeof(struct dio_ev_ofd) == 64, "dio_ev_ofd layout");

#endif /* DIO_EVENT_H */
