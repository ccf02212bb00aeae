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
};

/* Counters a session keeps; see host->stats. */
struct dio_stats {
	uint64_t events;		/* records received from the kernel */
	uint64_t lost_ringbuf;		/* ring buffer full */
	uint64_t lost_inflight;		/* no per-thread slot for a call in flight */
	uint64_t lost_pathtab;		/* file-tag table full: path not sent */
	uint64_t lost_iouring;		/* io_uring request table full */
	uint64_t lost_other;
	uint64_t path_truncated;	/* paths cut at the walk limit */
};

/* Flags for host->format_event. */
#define DIO_FMT_TID	0x01	/* prefix [pid/tid comm] */
#define DIO_FMT_DURATION 0x02	/* append <seconds> as strace -T */
#define DIO_FMT_DETAILS	0x04	/* append {off= type= tag=} */
#define DIO_FMT_TIME_T	0x10	/* prefix HH:MM:SS (strace -t) */
#define DIO_FMT_TIME_TT	0x20	/* prefix HH:MM:SS.micro (strace -tt) */
#define DIO_FMT_TIME_TTT 0x40	/* prefix epoch seconds.micro (strace -ttt) */

struct dio_host {
	uint32_t abi;		/* DIO_PLUGIN_ABI of the host */
	uint32_t size;		/* sizeof(struct dio_host) */
	/* ABI 1 */
	/* Name of a system call number (x86_64), "syscall_NNN" for unknown ones.
	 * The string is static. */
	const char *(*syscall_name)(uint32_t nr);
	/* Last path seen for a file tag, NULL if none; valid until the session ends. */
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
	 * symbolic link in the last component, close-on-exec. Returns the fd, or
	 * -errno after logging a one-line reason.
	 */
	int (*create_output)(struct dio_ctx *ctx, const char *path);
};

/* Whether the host offers a function appended after ABI 1 began. */
#define DIO_HOST_HAS(host, fn) \
	((host)->size >= offsetof(struct dio_host, fn) + sizeof((host)->fn) && (host)->fn)

#define DIO_PLUGIN_ABI	1

#endif /* DIO_PLUGIN_H */
