/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The clickhouse sink's way to the server: HTTP with libcurl, a thread that
 * sends batches so that the ring consumer never waits for the network, and a
 * bounded on-disk spool for the batches the server could not take.
 *
 * A batch is one INSERT of RowBinary rows, gzip-compressed, with the session
 * and batch number its rows carry: (session, table, batch) names it. A batch
 * that may have reached the server (the connection broke after the body
 * went out, no answer, or an error answer, which a proxy may give for an
 * INSERT the server carried out) is looked up by its session and batch
 * number before it is sent again: none of it is stored twice. The server
 * keeps an INSERT whole or not at all, but for one case: a body cut at a
 * row's end, with the connection closed cleanly, keeps the rows before the
 * cut. Then only the rows after them are sent again.
 *
 * Only one dio at a time sends a session's batches: each holds a lock on
 * its session in the spool directory (waiting for it if another dio has it),
 * and takes on the batches earlier runs left there for the same server and
 * database, of sessions no running dio holds.
 */
#ifndef DIO_CLICKHOUSE_SENDER_H
#define DIO_CLICKHOUSE_SENDER_H

#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>
#include <dio/sink.h>

#include "sinks/clickhouse/reply.h"

struct ch_conf {
	const char *url;		/* http://host:8123 */
	char shown[256];		/* url without a user and password: for messages */
	const char *database;
	const char *user;		/* NULL: the server's default */
	char *password;			/* from password_file, NULL if none */
	const char *spool;		/* directory */
	uint64_t spool_max;		/* bytes */
	uint64_t memory_max;		/* bytes of batches waiting in memory, queued or past the
					 * spool, each */
	unsigned int timeout_s;		/* one request */
	unsigned int connect_s;		/* to connect; 0: 5 s */
	uint64_t dest;			/* of url and database: whose batches in the spool are ours */
};

struct ch_batch {
	struct ch_batch *next;
	char *query;			/* INSERT INTO `db`.`t` FORMAT RowBinary */
	char *table;			/* `db`.`t`, for the look-up */
	char tshort[72];		/* t: its name in the spool */
	char session[CH_ID_MAX + 1];
	int kind;			/* enum ch_table, for reading its rows back */
	uint64_t batch, rows, seq;	/* seq: the first row's */
	unsigned char *body;		/* gzip; NULL while it is only in its spool file */
	size_t len;
	size_t mem;			/* its bytes as counted in memory (len may shrink since) */
	int tried;			/* may have reached the server: look it up first */
	int final;			/* the session's end row: not sent if rows of it were lost */
	char spooled[192];		/* its spool file's name, "" if none */
};

struct ch_counts {
	uint64_t sent_rows, sent_batches, dup_batches, partial_batches;
	uint64_t spooled_batches, dropped_rows, left_rows, left_batches;
	uint64_t failures;
	int spool_errno;		/* the first batch the spool could not take: why (errno) */
	int spool_full;			/* a batch found the spool at spool_max */
	int final_held;			/* the session's end row held back: rows of it were lost */
};

struct sender;

/*
 * One request: sql as the query, body (may be NULL) gzip-compressed or not;
 * the response into *out (malloc'd, NUL-terminated) when out is set, its
 * length into *outlen when that is set too (RowBinary holds NULs).
 * 0, or -errno with a one-line reason in err.
 */
int ch_request(const struct ch_conf *c, const char *sql, const void *body, size_t len, int gz,
	       char **out, size_t *outlen, char *err, size_t errlen);

/*
 * h reset and set up for the query sql to c's server: the URL with the
 * query, no redirects, HTTP and HTTPS only, c's user and password, the
 * connect timeout. The caller sets what to do with the answer. 0, or
 * -ENOMEM with err said.
 */
int ch_setup(CURL *h, const struct ch_conf *c, const char *sql, char *err, size_t errlen);
/*
 * What a failed request of h says, into err: "URL: why" when it got no
 * answer (e), or "URL answered CODE: the first line of body".
 */
void ch_failure(CURL *h, const struct ch_conf *c, CURLcode e, const char *body, size_t len,
		char *err, size_t errlen);
/* CLOCK_MONOTONIC in ms */
uint64_t ch_now_ms(void);

/* in, gzip-compressed (level 1: the wire, not the archive), into malloc'd *out; 0 or -errno */
int ch_gzip(const unsigned char *in, size_t len, unsigned char **out, size_t *olen);

/* s quoted for a ClickHouse string literal into buf ('...'); its length, or -1 if too long */
int ch_quote(const char *s, char *buf, size_t len);

/*
 * Open the spool and take the lock of session (waiting, and saying so, while
 * another dio holds it); the batches earlier runs left there for this
 * server and database, of session and of sessions no running dio holds,
 * are queued to go first. Nothing is sent before sender_run. 0 or -errno
 * (said through host->log).
 */
int sender_open(struct sender **out, const struct ch_conf *c, const struct dio_host *host,
		struct dio_ctx *ctx, const char *session);
/* batch of table t (its name without the database) of the session waits in the spool */
int sender_spooled(const struct sender *s, const char *t, uint64_t batch);
/*
 * What must succeed before the first batch goes out (made here only when the
 * server did not answer at the start): 0, or request()'s -errno with a line
 * in err. -ECONNREFUSED, -EIO and -EPROTO mean "away": tried again as a batch
 * is, batches waiting in the spool meanwhile; any other error keeps every
 * batch in the spool, said once, for a later dio to send.
 */
typedef int (*sender_ready_fn)(void *ud, char *err, size_t errlen);

/* Start the thread; ready (NULL: none) is called in it first. 0 or -errno. */
int sender_run(struct sender *s, sender_ready_fn ready, void *ud);
/* Hand a batch over (the sender frees it). Never waits for the network. */
void sender_put(struct sender *s, struct ch_batch *b);
/*
 * Stop: send what is queued, for at most drain_s seconds, then leave the rest
 * in the spool; the counts of the whole run into *n. Lets go of the locks.
 */
void sender_stop(struct sender *s, unsigned int drain_s, struct ch_counts *n);
void ch_batch_free(struct ch_batch *b);

#endif /* DIO_CLICKHOUSE_SENDER_H */
