/* SPDX-License-Identifier: (LGPL-2.1-or-later OR BSD-2-Clause) */
/*
 * What the dio host offers to analyzer and sink modules, and what the two
 * kinds of module have in common: options and findings.
 *
 * Versioning: every descriptor begins with `uint32_t abi; uint32_t size;`.
 * The host refuses a module whose abi differs from its own or whose size is
 * smaller than the host needs. Fields are only ever appended; each one says
 * the ABI version it came in.
 */
#ifndef DIO_PLUGIN_H
#define DIO_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <dio/event.h>

/* Host context handed to a module at init; pass it back to host calls. */
struct dio_ctx;

/* Option types. */
#define DIO_OPT_BOOL	1	/* true/false, yes/no, on/off, 1/0 */
#define DIO_OPT_INT	2	/* integer, suffixes k/M/G (1024-based) accepted */
#define DIO_OPT_STRING	3
#define DIO_OPT_DOUBLE	4

/*
 * One option a module accepts, in its config group (`analyzers: { NAME: { key = ...; } }`)
 * or on the command line (`--analyzer NAME:key=value`). An array of these ends with
 * an entry whose name is NULL. The host rejects keys that are not declared.
 */
struct dio_option {
	const char *name;
	uint32_t type;		/* DIO_OPT_* */
	const char *def;	/* default, written as on the command line; NULL: unset */
	const char *help;
};

/* Parsed option values, in the order of the module's option array. */
struct dio_optval {
	int64_t i;		/* DIO_OPT_INT, DIO_OPT_BOOL (0 or 1) */
	double d;		/* DIO_OPT_DOUBLE */
	const char *s;		/* DIO_OPT_STRING (NULL if unset); owned by the host until destroy */
	uint32_t set;		/* 1 when given by the user rather than the default */
	uint32_t pad;
};

#define DIO_SEV_INFO	0
#define DIO_SEV_WARNING	1
#define DIO_SEV_ERROR	2

/*
 * A finding. Modules fill one on their stack and pass it to host->emit_finding,
 * which copies every string: nothing needs to outlive the call.
 */
struct dio_finding {
	uint32_t size;		/* sizeof(struct dio_finding) as the producer knows it */
	uint32_t severity;	/* DIO_SEV_* */
	const char *code;	/* stable identifier, e.g. "summary.lost-events" */
	const char *title;	/* one line */
	const char *message;	/* explanation and suggested fix */
	const char *analyzer;	/* set by the host */
	/* evidence; zero/NULL where it does not apply */
	uint32_t pid;
	uint32_t tid;
	const char *comm;
	const char *path;
	struct dio_file_tag tag;
	uint32_t has_tag;
	uint32_t pad;
	uint64_t ts_first;	/* CLOCK_MONOTONIC ns, like event timestamps */
	uint64_t ts_last;
	uint64_t count;
	const char *excerpt;	/* a few formatted calls, one per line */
	/*
	 * ABI 1, appended, set by the host for sinks (check size): what makes the
	 * finding the same one in another run of the same workload.
	 */
	const char *subject;	/* the path, normalised: under --srcroot relative to
				 * it, digit runs (pids, file generations) as "N" */
	const char *fingerprint;	/* 16 hex digits: code, subject, process name
					 * with digits as "N"; never pid, tid, fd, time, inode */
	const char *uri;	/* the path as a URI reference: relative to --srcroot
				 * when under it (uri_base then "SRCROOT"), else absolute */
	const char *uri_base;	/* "SRCROOT" or NULL */
	uint32_t baseline;	/* DIO_BASELINE_* */
	uint32_t suppressed;	/* 1: matched a --suppress entry; counts for nothing */
	const char *suppress_reason;	/* that entry's reason */
	const char *rule_title;	/* the rule's title, when its analyzer declared it */
	/*
	 * ABI 1, appended, set by the analyzer (the host keeps them when the
	 * producer's size covers them): what the pattern cost, and how widely
	 * it was seen. 0: not stated.
	 */
	uint64_t cost_ns;	/* time the pattern cost: in the calls a fix would leave out,
				 * in the failing calls, or waiting */
	uint32_t processes;	/* processes that showed the pattern (a program's, or the run's) */
	/*
	 * ABI 1, appended, set by the host for sinks: 1 when the finding counts
	 * against --fail-on (warning when none was given): not suppressed, not
	 * in the baseline, at or above the level, and not about the machine
	 * (DIO_RULE_MACHINE) unless --fail-on names it. A JUnit case fails on it.
	 */
	uint32_t gates;
	/*
	 * ABI 1, appended, set by the analyzer: 1 when the pattern is there but
	 * under the analyzer's floors of what a finding must cost. The host
	 * shows it only to tell a --baseline that it persists: when the baseline
	 * had its fingerprint with at most twice its count, it is reported as
	 * unchanged (the baseline's finding is not fixed, only smaller); else it
	 * is dropped, and the baseline's is fixed.
	 */
	uint32_t below;
	/*
	 * ABI 1, in what was padding (0 from older hosts), set by the host for
	 * sinks that take findings as they come (dio_sink.live): 1 when this
	 * fingerprint went to the sink before in this session. It is the same
	 * finding, as it stands now: its count and cost replace, not add to,
	 * what the sink was given before.
	 */
	uint32_t update;
};

/*
 * A kind of finding: one code, as the analyzer's README explains it. The
 * strings are plain text; help may hold several paragraphs.
 */
struct dio_rule {
	const char *code;		/* "redundant-open.churn" */
	uint32_t severity;		/* DIO_SEV_* it is usually reported with */
	uint32_t flags;			/* ABI 1, in what was padding: DIO_RULE_* */
	const char *title;		/* what it is, one line */
	const char *description;	/* what it detects and how */
	const char *help;		/* why it matters and how to fix it */
};

/* dio_rule.flags */
/*
 * What it measures is the machine (CPUs, a disk shared with other work), not
 * the program: --fail-on counts it only when it names the analyzer or the
 * code (--fail-on warning,latency).
 */
#define DIO_RULE_MACHINE	0x1

/* finding->baseline: against the --baseline log */
#define DIO_BASELINE_NONE	0	/* no baseline given */
#define DIO_BASELINE_NEW	1	/* not in the baseline */
#define DIO_BASELINE_UNCHANGED	2	/* in the baseline too */
#define DIO_BASELINE_ABSENT	3	/* in the baseline only: fixed since (made by the host) */

/* Counters a session keeps; see host->stats. */
struct dio_stats {
	uint64_t events;		/* records received from the kernel */
	uint64_t lost_ringbuf;		/* ring buffer full */
	uint64_t lost_inflight;		/* no per-thread slot for a call in flight */
	uint64_t lost_pathtab;		/* path records lost to a full ring after their tag
					 * was remembered: those files show as a tag */
	uint64_t lost_iouring;		/* io_uring request table full */
	uint64_t lost_other;
	uint64_t path_truncated;	/* paths cut at the walk limit */
	/*
	 * ABI 1, appended: filled only through host->stats_sized (host->stats
	 * stops at path_truncated, the size modules built before had).
	 */
	uint64_t lost_block;		/* block request table full (--inflight-table) */
	uint64_t lost_block_unseen;	/* block requests whose completion never reached dio */
	uint64_t lost_mappings;		/* file-mapping table full: munmap of those not traced */
	uint64_t lost_iouring_unseen;	/* io_uring requests whose completion never reached dio */
	uint64_t lost_procs;		/* traced-process table full: children not traced */
	uint64_t lost_writer;		/* records dio record's writer thread could not keep */
	uint32_t writer_cause;		/* DIO_WRITER_*: what held that thread back */
	uint32_t pad;
	/* ABI 1, appended: */
	uint64_t paths_evicted;		/* paths the host forgot to bound its tag table:
					 * tag_path gives NULL for those files from then on,
					 * until the kernel sends their path again */
	/* ABI 1, appended: */
	uint64_t lost_blkdevs;		/* paths sent of files on devices past the kernel's
					 * device table: kernel threads' block requests to
					 * those devices (writeback, journal) not recorded */
	uint64_t kernel_paths_evicted;	/* tags the kernel's tag table (--tag-table) forgot,
					 * at least: their path is sent again (no loss) */
};

/* dio_stats.writer_cause */
#define DIO_WRITER_UNKNOWN	0	/* not measured (a recording made before dio said) */
#define DIO_WRITER_CPU		1	/* its own CPU time: compressing (--level) and copying */
#define DIO_WRITER_CPU_WAIT	2	/* waiting for a CPU other threads held */
#define DIO_WRITER_DISK		3	/* waiting for its writes to the trace file */

/* Flags for host->format_event. */
#define DIO_FMT_TID	0x01	/* prefix [pid/tid comm] */
#define DIO_FMT_DURATION 0x02	/* append <seconds> as strace -T */
#define DIO_FMT_DETAILS	0x04	/* append {off= type= tag=} */
#define DIO_FMT_TIME_T	0x10	/* prefix HH:MM:SS (strace -t) */
#define DIO_FMT_TIME_TT	0x20	/* prefix HH:MM:SS.micro (strace -tt) */
#define DIO_FMT_TIME_TTT 0x40	/* prefix epoch seconds.micro (strace -ttt) */
/*
 * ABI 1, appended: the time of day of DIO_FMT_TIME_T/TT in UTC, marked "Z",
 * not in the local time zone: for text kept in files, which must read the
 * same wherever the trace is replayed (an older host prints local time).
 */
#define DIO_FMT_UTC	0x80
/*
 * ABI 1, appended: at most n bytes (up to 65535) of a buffer's captured data
 * (data="..."), cut with "..." as strace -s; 0: all of it. Paths are whole.
 * An older host shows all.
 */
#define DIO_FMT_STRSIZE(n)	(((uint32_t)(n) & 0xffff) << 16)
#define DIO_FMT_STRSIZE_OF(flags)	((uint32_t)(flags) >> 16)

/*
 * What dio knows of a system call: host->syscall_info. Fields are only ever
 * appended; the host fills as many bytes as the module asks for.
 */
struct dio_syscall_info {
	const char *name;	/* "openat"; static */
	uint32_t nargs;		/* the arguments it takes, at most 6 */
	uint32_t classes;	/* DIO_SC_*: the groups of --syscalls it is in */
	uint32_t str_args;	/* bit i: argument i is a string (a path, a name); the
				 * record holds the first two, dio_ev_syscall_str(ev, 0)
				 * and (ev, 1), in argument order */
	uint32_t io;		/* ABI 1, in what was padding (0 from older hosts):
				 * DIO_IO_* , which way a positive result moved bytes */
};

/* dio_syscall_info.io: the bytes a data call's positive return value counts */
#define DIO_IO_NONE	0	/* not a count of bytes (or an older host) */
#define DIO_IO_READ	1	/* read from its file: read, pread64, readv, sendfile's input, ... */
#define DIO_IO_WRITE	2	/* written to it: write, pwrite64, writev, ... */

/* dio_syscall_info.classes: as strace's -e trace=%data, ... */
#define DIO_SC_DATA	0x01	/* reads and writes data: read, pwrite64, fallocate, ... */
#define DIO_SC_SYNC	0x02	/* fsync, fdatasync, sync_file_range, ... */
#define DIO_SC_META	0x04	/* open, close, dup, stat, rename, link, lseek, chmod, ... */
#define DIO_SC_DIR	0x08	/* mkdir, rmdir, mknod, getdents64, chdir, ... */
#define DIO_SC_XATTR	0x10	/* extended attributes */
#define DIO_SC_ASYNC	0x20	/* libaio, io_uring, mmap, msync, munmap */

/* host->name_of: the tables a value can be named from */
#define DIO_NAME_ERRNO		1	/* 2: "ENOENT" (the positive number) */
#define DIO_NAME_ERRNO_TEXT	2	/* 2: "No such file or directory" */
#define DIO_NAME_FTYPE		3	/* DIO_FT_REG: "reg"; also "dir", "sock", "fifo",
					 * "chr", "blk", "lnk", "anon"; NULL for DIO_FT_NONE */
#define DIO_NAME_URING_OP	4	/* IORING_OP_READ (22): "READ", without the prefix */

struct dio_host {
	uint32_t abi;		/* DIO_PLUGIN_ABI of the host */
	uint32_t size;		/* sizeof(struct dio_host) */
	/* ABI 1 */
	/* Name of a system call number (x86_64), "syscall_NNN" for unknown ones.
	 * The string is static. */
	const char *(*syscall_name)(uint32_t nr);
	/*
	 * Last path seen for a file tag, NULL if none. Valid until the module
	 * returns from the call it was asked in (event, finding, flush, finish):
	 * the host keeps a bounded number of paths, so a path may be forgotten
	 * or replaced (a rename) with the next record. Copy what is kept.
	 */
	const char *(*tag_path)(struct dio_ctx *ctx, const struct dio_file_tag *tag);
	/* strace-like rendering of a record into buf (snprintf semantics, no newline);
	 * -EINVAL, with buf empty, for a record that breaks a promise of dio/event.h. */
	int (*format_event)(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
			    char *buf, size_t len);
	/* CLOCK_MONOTONIC ns of an event to ns since the Unix epoch. */
	uint64_t (*realtime_ns)(struct dio_ctx *ctx, uint64_t mono_ns);
	/* Report a finding; the host copies it. 0 or -errno. */
	int (*emit_finding)(struct dio_ctx *ctx, const struct dio_finding *f);
	/* Session counters so far. */
	void (*stats)(struct dio_ctx *ctx, struct dio_stats *out);
	/* Diagnostic message to stderr, prefixed with the module name. */
	void (*log)(struct dio_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	/*
	 * ABI 1, appended (check with DIO_HOST_HAS): create or truncate an output
	 * file the way dio creates its own: mode 0600 (also an existing file: what
	 * dio writes holds paths and data of every traced file), never through a
	 * symbolic link in the last component, close-on-exec. A path a module
	 * of this session created already is shared, not truncated: a new fd of
	 * the same open file, writing after what the other writes. Returns the
	 * fd, or -errno after logging a one-line reason.
	 */
	int (*create_output)(struct dio_ctx *ctx, const char *path);
	/*
	 * ABI 1, appended: the rules of the session's analyzers (and the host's
	 * own, "dio.*"), i from 0 until NULL; *analyzer names whose rule it is.
	 */
	const struct dio_rule *(*rule)(struct dio_ctx *ctx, unsigned int i, const char **analyzer);
	/*
	 * ABI 1, appended: facts about the run, NULL when unknown: "version"
	 * (dio's), "command" (what was traced, as a command line), "start" and
	 * "end" (RFC 3339 UTC; in a replay, the times of its earliest and latest
	 * records, "end" set before the sinks' finish), "srcroot" (--srcroot,
	 * absolute), "trace" (the trace file or stored session being replayed: set
	 * in a replay only, from the modules' init on), "hostname" (the traced
	 * machine's), "fail_on" (info, warning, error),
	 * "boot_id" (the traced machine's, /proc/sys/kernel/random/boot_id) and
	 * "session_id" (32 hex digits, new for each live session and kept in its
	 * recording, so that the rows of one session in a database are one set),
	 * "part" (replaying FILE.K of a --max-size recording: K; its records are
	 * the Kth part of the session's), "tracer_pid" (the pid of the dio that
	 * traced: its threads are not the program's; unknown in a replay of a
	 * recording made before dio kept it), "fstypes" (the devices and their
	 * file system types, "MAJ:MIN=TYPE" separated by spaces, what fs_type
	 * reads).
	 */
	const char *(*info)(struct dio_ctx *ctx, const char *key);
	/*
	 * ABI 1, appended (check with DIO_HOST_HAS): the session's counters into
	 * the first size bytes of out; pass sizeof(*out). Fields past what the
	 * host knows are set to 0.
	 */
	void (*stats_sized)(struct dio_ctx *ctx, struct dio_stats *out, size_t size);
	/*
	 * ABI 1, appended (check with DIO_HOST_HAS): what dio knows of system
	 * call nr, into the first size bytes of out; pass sizeof(*out). 0, or
	 * -ENOENT, with those bytes zeroed, for a number dio does not know
	 * (host->syscall_name calls it "syscall_NNN").
	 */
	int (*syscall_info)(struct dio_ctx *ctx, uint32_t nr, struct dio_syscall_info *out,
			    size_t size);
	/*
	 * ABI 1, appended (check with DIO_HOST_HAS): the name dio gives
	 * argument i of a syscall record (only its nr and args are read) when
	 * the argument is a flag word, a mode or a constant: "O_WRONLY|O_CREAT|
	 * O_TRUNC", "0644", "SEEK_END", "AT_FDCWD" for the current directory as a
	 * directory fd; bits without a name are written as |0x... . Into buf,
	 * snprintf semantics (buf always ends with a NUL when len > 0, and buf
	 * may be NULL when len is 0). -ENOENT, with buf empty, when the argument
	 * is a plain number, an fd, a pointer or a string (dio_ev_syscall_str),
	 * when the call takes fewer arguments and when dio does not know the
	 * call; -EINVAL for i > 5.
	 */
	int (*decode_arg)(struct dio_ctx *ctx, const struct dio_ev_syscall *ev, unsigned int i,
			  char *buf, size_t len);
	/*
	 * ABI 1, appended (check with DIO_HOST_HAS): the name of value in the
	 * table what (DIO_NAME_*); NULL for a value the table does not hold and
	 * for a table this dio does not have. The string is static.
	 */
	const char *(*name_of)(struct dio_ctx *ctx, uint32_t what, uint64_t value);
	/*
	 * ABI 1, appended (check with DIO_HOST_HAS): the type of the file system
	 * on device dev (a file tag's dev), as the traced machine's
	 * /proc/self/mountinfo named it when the trace began ("ext4", "xfs",
	 * "tmpfs", "proc"), the same in a replay anywhere (a recording keeps the
	 * types); into buf, snprintf semantics. 0, or -ENOENT with buf empty when
	 * it is not known: a file system mounted after the trace began, one
	 * mounted in another mount namespace, a recording made before dio kept
	 * the types.
	 */
	int (*fs_type)(struct dio_ctx *ctx, uint32_t dev, char *buf, size_t len);
};

/* Whether the host offers a function appended after ABI 1 began. */
#define DIO_HOST_HAS(host, fn) \
	((host)->size >= offsetof(struct dio_host, fn) + sizeof((host)->fn) && (host)->fn)

/*
 * Thread groups, as the contention analyzer and the html report make them: a
 * thread name without its trailing number (and the ':', '-', '_', '.' or ' '
 * before it), so that rocksdb:low0..7 are "rocksdb:low" and worker-12 is
 * "worker"; a name of digits only stays as it is. A group whose name starts
 * with one of DIO_BACKGROUND_GROUPS (comma-separated, case-insensitive) is
 * background work: compaction and flush threads.
 */
#define DIO_BACKGROUND_GROUPS "rocksdb:low,rocksdb:high,rocksdb:bottom,compact,flush,bg"

static inline void dio_thread_group(const char *comm, char out[DIO_COMM_LEN])
{
	unsigned int len = 0, n;

	while (len < DIO_COMM_LEN - 1 && comm[len])
		len++;
	n = len;
	while (n && comm[n - 1] >= '0' && comm[n - 1] <= '9')
		n--;
	if (n < len && n && (comm[n - 1] == ':' || comm[n - 1] == '-' || comm[n - 1] == '_' ||
			     comm[n - 1] == '.' || comm[n - 1] == ' '))
		n--;
	if (!n)
		n = len;
	for (unsigned int i = 0; i < n; i++)
		out[i] = comm[i];
	out[n] = 0;
}

/*
 * The files dio names by their inode, a name of their own each (pipe:[N],
 * socket:[N], as /proc/PID/fd shows them), that the summary and the html
 * report add up in one row per kind: dio_path_kind() of a path the host
 * gave is DIO_PATH_SOCKET, DIO_PATH_PIPE, or DIO_PATH_NAMED for any other
 * (a named FIFO has its path, an anonymous file the name of its kind).
 */
#define DIO_PATH_NAMED	0
#define DIO_PATH_SOCKET	1
#define DIO_PATH_PIPE	2

static inline int dio_path_kind(const char *path)
{
	/* by DIO_PATH_* less one; no <string.h> in this header */
	static const char *const prefix[] = { "socket:[", "pipe:[" };

	for (int k = 0; k < 2; k++) {
		const char *p = path, *q = prefix[k];

		while (*q && *p == *q) {
			p++;
			q++;
		}
		if (!*q)
			return k + 1;
	}
	return DIO_PATH_NAMED;
}

/* dio_escape() flags */
#define DIO_ESC_QUOTE	0x1	/* the text goes inside "...": '"' is escaped too */
#define DIO_ESC_BIN	0x2	/* all n bytes: a NUL is written as \0, not the end */
#define DIO_ESC_TEXT	0x4	/* text dio made, whose names are escaped already:
				 * '\\' is kept, so that escaping it again changes nothing */

/*
 * A name a traced program chose (a thread name, a path, a string argument)
 * made safe for a terminal, as dio dump writes it: C escapes (\n, \t, \\,
 * \033 ...) for control bytes, backslashes and every byte past ASCII, so
 * that no escape sequence, OSC title or line break of the program's reaches
 * the screen or splits a line. Every text dio and its modules print for a
 * person goes through this one function. At most n bytes of s, stopping at a
 * NUL unless DIO_ESC_BIN; into buf with snprintf semantics: returns the
 * length the whole text needs, and buf (NULL when len is 0) always ends with
 * a NUL. An octal escape takes all three digits when a digit follows, so that
 * "\0" "1" is not read back as "\01".
 */
static inline size_t dio_escape(const char *s, size_t n, unsigned int flags, char *buf,
				size_t len)
{
	size_t off = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i], next;
		char e[4];
		unsigned int k = 0;

		if (c >= 0x20 && c < 0x7f && (c != '\\' || (flags & DIO_ESC_TEXT)) &&
		    (c != '"' || !(flags & DIO_ESC_QUOTE))) {
			if (off < len)
				buf[off] = (char)c;
			off++;
			continue;
		}
		if (!c && !(flags & DIO_ESC_BIN))
			break;
		next = i + 1 < n ? (unsigned char)s[i + 1] : 0;
		e[k++] = '\\';
		switch (c) {
		case '\t': e[k++] = 't'; break;
		case '\n': e[k++] = 'n'; break;
		case '\v': e[k++] = 'v'; break;
		case '\f': e[k++] = 'f'; break;
		case '\r': e[k++] = 'r'; break;
		case '\\': e[k++] = '\\'; break;
		case '"': e[k++] = '"'; break;
		default:
			if (c >= 0100 || (next >= '0' && next <= '7'))
				e[k++] = (char)('0' + (c >> 6));
			if (c >= 010 || (next >= '0' && next <= '7'))
				e[k++] = (char)('0' + ((c >> 3) & 7));
			e[k++] = (char)('0' + (c & 7));
		}
		for (unsigned int j = 0; j < k; j++, off++)
			if (off < len)
				buf[off] = e[j];
	}
	if (len)
		buf[off < len ? off : len - 1] = 0;
	return off;
}

/*
 * The bytes of the well-formed UTF-8 character at s (n >= 1 bytes left): 1 for
 * ASCII, 2 to 4, or 0 when the bytes there are not one (overlong forms,
 * surrogates and code points past U+10FFFF are not: Unicode 15, table 3-7).
 */
static inline size_t dio_utf8_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;	/* the second byte's range */
	size_t want;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	want = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* no overlong 3-byte forms */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* no surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* no overlong 4-byte forms */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* nothing past U+10FFFF */
	if (n < want || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < want; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return want;
}

/* dio_json_escape() flags */
#define DIO_JSON_XBYTES	0x1	/* a byte outside UTF-8 as the text \xNN (for people:
				 * SARIF, JUnit), not as \udcXX */

/* the most bytes dio_json_escape() writes for one byte of its input */
#define DIO_JSON_ESC_MAX	6

/*
 * n bytes of s as the inside of a JSON string (no quotes), as every JSON dio
 * writes holds a name: well-formed UTF-8 as it is; '"', '\\' and the control
 * characters escaped (\n \r \t \b \f, others and DEL as \u00XX); each byte
 * that is not part of well-formed UTF-8 as \udcXX, a lone low surrogate that
 * Python's "surrogateescape" turns back into the byte, or with DIO_JSON_XBYTES
 * as the text \xNN. A NUL among the n bytes is \u0000. Into buf with
 * snprintf semantics: returns the length the whole text needs (at most
 * DIO_JSON_ESC_MAX * n), and buf (NULL when len is 0) always ends with a NUL.
 */
static inline size_t dio_json_escape(const char *s, size_t n, unsigned int flags, char *buf,
				     size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t off = 0;

	for (size_t i = 0; i < n; ) {
		unsigned char c = (unsigned char)s[i];
		size_t u = dio_utf8_len(s + i, n - i);
		char e[DIO_JSON_ESC_MAX];
		unsigned int k = 0;
		int hexbyte = 0;

		if (u > 1 || (u == 1 && c >= 0x20 && c != 0x7f && c != '"' && c != '\\')) {
			for (size_t j = 0; j < u; j++, off++)
				if (off < len)
					buf[off] = s[i + j];
			i += u;
			continue;
		}
		e[k++] = '\\';
		if (!u && (flags & DIO_JSON_XBYTES)) {
			e[k++] = '\\';
			e[k++] = 'x';
			hexbyte = 1;
		} else if (!u) {
			e[k++] = 'u';
			e[k++] = 'd';
			e[k++] = 'c';
			hexbyte = 1;
		} else {
			switch (c) {
			case '"': e[k++] = '"'; break;
			case '\\': e[k++] = '\\'; break;
			case '\b': e[k++] = 'b'; break;
			case '\f': e[k++] = 'f'; break;
			case '\n': e[k++] = 'n'; break;
			case '\r': e[k++] = 'r'; break;
			case '\t': e[k++] = 't'; break;
			default:
				e[k++] = 'u';
				e[k++] = '0';
				e[k++] = '0';
				hexbyte = 1;
			}
		}
		if (hexbyte) {
			e[k++] = hex[c >> 4];
			e[k++] = hex[c & 15];
		}
		for (unsigned int j = 0; j < k; j++, off++)
			if (off < len)
				buf[off] = e[j];
		i++;
	}
	if (len)
		buf[off < len ? off : len - 1] = 0;
	return off;
}

/*
 * s into buf (len bytes, always NUL-terminated) with the password of every
 * URL's user information replaced by "***" (scheme://user:***@host): a command
 * line kept in a trace file, a report or a database must not carry one.
 * Returns the length written.
 */
static inline size_t dio_redact_password(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return 0;
	while (*s && o + 1 < len) {
		const char *auth, *end, *at = NULL, *colon = NULL;

		if (s[0] != ':' || s[1] != '/' || s[2] != '/') {
			buf[o++] = *s++;
			continue;
		}
		auth = s + 3;
		for (end = auth; *end && *end != '/' && *end != ' ' && *end != ',' && *end != '?' &&
		     *end != '#'; end++)
			if (*end == '@')
				at = end;
		for (const char *c = auth; at && c < at && !colon; c++)
			if (*c == ':')
				colon = c;
		if (!colon) {
			buf[o++] = *s++;
			continue;
		}
		/* "://user:" as it is, then the stars, then from the '@' on */
		for (const char *c = s; c <= colon && o + 1 < len; c++)
			buf[o++] = *c;
		for (int k = 0; k < 3 && o + 1 < len; k++)
			buf[o++] = '*';
		s = at;
	}
	buf[o] = 0;
	return o;
}

#define DIO_PLUGIN_ABI	1

#endif /* DIO_PLUGIN_H */
