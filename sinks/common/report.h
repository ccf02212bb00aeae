/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the report sinks (sarif, junit) share, compiled into each of them: a
 * module calls nothing of dio but through struct dio_host. A report is one
 * document written when the session is over, so the findings are kept (with
 * copies of their strings) until then, and the document is built in memory
 * and written with one loop of write(2) that reports the first error.
 */
#ifndef DIO_SINKS_REPORT_H
#define DIO_SINKS_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <dio/sink.h>

/* ---- a growing text buffer ------------------------------------------------ */

struct rbuf {
	char *p;
	size_t len, cap;
	int oom;		/* a byte could not be added: the text is incomplete */
};

void rbuf_mem(struct rbuf *b, const void *s, size_t n);
void rbuf_str(struct rbuf *b, const char *s);
void rbuf_fmt(struct rbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * s (NULL: "") as a JSON string, quotes included. Control characters, '"'
 * and '\\' are escaped; a byte that is not part of well-formed UTF-8 is
 * written as the four characters \xNN, so that the text stays valid Unicode
 * for every consumer.
 */
void rbuf_json(struct rbuf *b, const char *s);
/*
 * s (NULL: "") as XML 1.0 character data, or an attribute value when attr is
 * set (there tab, newline and carriage return become character references,
 * which attribute normalization keeps). Characters XML 1.0 does not allow at
 * all (most controls, U+FFFE, U+FFFF) and bytes that are not well-formed UTF-8
 * are written as \xNN, byte by byte.
 */
void rbuf_xml(struct rbuf *b, const char *s, int attr);
/* The whole buffer to fd: 0, or -errno (-ENOMEM when the buffer is incomplete). */
int rbuf_write(const struct rbuf *b, int fd);
void rbuf_free(struct rbuf *b);

/* ns since the epoch as RFC 3339 UTC with microseconds, "2024-01-02T03:04:05.000006Z". */
int report_time(uint64_t ns, char *buf, size_t len);

/* s with every run of digits as one "N" (pids, generations): a name that is the same next run */
void report_normalise(const char *s, char *buf, size_t len);

/* ---- the findings of a session -------------------------------------------- */

/* A finding kept until the end. f's strings point to copies owned by the entry. */
struct rfinding {
	struct dio_finding f;
	char *copies;		/* every string of f, one allocation */
	char *where;		/* a sink's own note on the finding (sarif: its location), or NULL */
	const char *where_base;	/* static */
	const char *where_what;	/* static */
};

struct rfindings {
	struct rfinding *v;
	size_t n, cap;
};

/* Keep a copy of f; the caller's f need not outlive the call. 0 or -ENOMEM. */
int rfindings_add(struct rfindings *fs, const struct dio_finding *f);
void rfindings_free(struct rfindings *fs);

/*
 * A kind of finding in the report: a rule the session's analyzers (or dio)
 * declared, or a code seen in findings that no rule declares (r NULL).
 */
struct rrule {
	const char *code;
	const char *analyzer;
	const struct dio_rule *r;	/* the host's; NULL for an undeclared code */
	uint32_t severity;		/* r's, or that of the code's first finding */
};

/*
 * The rules of host->rule in its order, then the undeclared codes of fs in
 * the order they came. *out is malloc'ed (the strings are the host's or fs's).
 * 0 or -ENOMEM.
 */
int report_rules(const struct dio_host *host, struct dio_ctx *ctx, const struct rfindings *fs,
		 struct rrule **out, size_t *n);

/* host->info(key) when the host has it, else NULL */
const char *report_info(const struct dio_host *host, struct dio_ctx *ctx, const char *key);

/* What a report sink holds: its file, open from init, and the findings so far. */
struct report {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	int fd;			/* -1 once written */
	char *path;
	struct rfindings found;
};

/*
 * Create the report's file now, so that a bad path stops dio before the
 * trace (0600, never through a symbolic link: host->create_output). 0, or
 * -errno after one logged line; r is then still to be given to report_fini.
 */
int report_init(struct report *r, const struct dio_host *host, struct dio_ctx *ctx,
		const char *path);
/* Keep a finding of a producer of any size (at least up to its excerpt). 0 or -errno. */
int report_keep(struct report *r, const struct dio_finding *f);
/* Write the document and close the file; the first error is logged. 0 or -errno. */
int report_write(struct report *r, const struct rbuf *b);
void report_fini(struct report *r);

#endif /* DIO_SINKS_REPORT_H */
