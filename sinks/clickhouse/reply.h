/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What dio takes from a ClickHouse server's answers and from the names it
 * is given, checked before it is used: whatever answers at the URL (plain
 * HTTP can be intercepted) and whatever a trace file says must not steer a
 * write, a file name or a statement. No libcurl here: the fuzzer
 * (tests/fuzz/fuzz_chreply.c) runs these functions alone.
 */
#ifndef DIO_CLICKHOUSE_REPLY_H
#define DIO_CLICKHOUSE_REPLY_H

#include <stddef.h>
#include <stdint.h>

/* the longest session id the tables and spool file names take */
#define CH_ID_MAX	39

/* s is a session id dio can name files and write SQL with: [A-Za-z0-9_], 1..CH_ID_MAX */
int ch_valid_id(const char *s);
/* s is a database or table name part: [A-Za-z0-9_], empty only when empty_ok */
int ch_valid_name(const char *s, int empty_ok);

/*
 * One TabSeparated row of n unsigned decimal numbers (a count, a min, a max)
 * into v: 0, or -EPROTO when text is anything else (fewer or more fields,
 * a sign, a number past 2^64 - 1, bytes after the row's newline).
 */
int ch_reply_numbers(const char *text, uint64_t *v, int n);

/*
 * Lines of one unsigned decimal number each, every one below max, into a
 * malloc'd array *out of *n numbers, sorted, without repeats (NULL when
 * there are none): 0, -EPROTO when a line is anything else, -ENOMEM.
 */
int ch_reply_batches(const char *text, uint64_t max, uint64_t **out, size_t *n);
/* v is among the n sorted numbers of a */
int ch_has(const uint64_t *a, size_t n, uint64_t v);

/*
 * The first line of a server's answer (n bytes at text, not NUL-terminated)
 * into buf, each byte that is not printable ASCII as '?': it goes to a
 * terminal.
 */
void ch_first_line(const char *text, size_t n, char *buf, size_t len);

/*
 * url without the user and password it may carry (http://user:pw@host ->
 * http://host), for messages; cut to fit buf.
 */
void ch_url_shown(const char *url, char *buf, size_t len);

#endif /* DIO_CLICKHOUSE_REPLY_H */
