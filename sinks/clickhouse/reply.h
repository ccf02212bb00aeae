/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What dio takes from a ClickHouse server's answers and from the names it
 * is given, checked before it is used: whatever answers at the URL (plain
 * HTTP can be intercepted) and whatever a trace file says must not steer a
 * write, a file name or a statement. No libcurl here: the fuzzer
 * (tests/fuzz/fuzz_chreply.c) and tests/unit/test_chreply.c run these
 * functions alone, header only, the functions static, without the rest of
 * the module (its sink and its source). Numbers are read digit by digit with an
 * overflow check: strtoull takes a sign, spaces and "0x", and saturates where
 * a reply must be refused.
 */
#ifndef DIO_CLICKHOUSE_REPLY_H
#define DIO_CLICKHOUSE_REPLY_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the longest session id the tables and spool file names take */
#define CH_ID_MAX	39

/* s is a session id dio can name files and write SQL with: [A-Za-z0-9_], 1..CH_ID_MAX */
/* s is a database or table name part: [A-Za-z0-9_], empty only when empty_ok */

/*
 * One TabSeparated row of n unsigned decimal numbers (a count, a min, a max)
 * into v: 0, or -EPROTO when text is anything else (fewer or more fields,
 * a sign, a number past 2^64 - 1, bytes after the row's newline).
 */

/*
 * Lines of one unsigned decimal number each, every one below max, into a
 * malloc'd array *out of *n numbers, sorted, without repeats (NULL when
 * there are none): 0, -EPROTO when a line is anything else, -ENOMEM.
 */
/* v is among the n sorted numbers of a */

/*
 * The first line of a server's answer (n bytes at text, not NUL-terminated)
 * into buf, each byte that is not printable ASCII as '?': it goes to a
 * terminal.
 */

/*
 * url without the user and password it may carry (http://user:pw@host ->
 * http://host), for messages; cut to fit buf.
 */

/* ---- the definitions ---------------------------------------------------------- */


static inline int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static inline int ch_valid_name(const char *s, int empty_ok)
{
	if (!*s)
		return empty_ok;
	for (; *s; s++)
		if (!word_char(*s))
			return 0;
	return 1;
}

static inline int ch_valid_id(const char *s)
{
	return s && ch_valid_name(s, 0) && strlen(s) <= CH_ID_MAX;
}

/* a decimal number at *p, up to the first byte that is not a digit: 0 or -EPROTO */
static inline int number(const char **p, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return -EPROTO;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return -EPROTO;
		*v = *v * 10 + d;
	}
	*p = s;
	return 0;
}

static inline int ch_reply_numbers(const char *text, uint64_t *v, int n)
{
	const char *p = text;

	for (int i = 0; i < n; i++) {
		if (number(&p, &v[i]))
			return -EPROTO;
		if (*p != (i + 1 < n ? '\t' : '\n') && !(i + 1 == n && !*p))
			return -EPROTO;
		if (*p)
			p++;
	}
	return *p ? -EPROTO : 0;
}

static inline int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static inline int ch_reply_batches(const char *text, uint64_t max, uint64_t **out, size_t *n)
{
	const char *p = text;
	uint64_t *v = NULL;
	size_t k = 0, cap = 0;

	*out = NULL;
	*n = 0;
	while (*p) {
		uint64_t b;

		if (number(&p, &b) || b >= max || (*p != '\n' && *p)) {
			free(v);
			return -EPROTO;
		}
		if (*p)
			p++;
		if (k == cap) {
			uint64_t *w = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!w) {
				free(v);
				return -ENOMEM;
			}
			v = w;
		}
		v[k++] = b;
	}
	if (k) {
		size_t u = 1;

		qsort(v, k, sizeof(*v), u64_cmp);
		for (size_t i = 1; i < k; i++)
			if (v[i] != v[u - 1])
				v[u++] = v[i];
		k = u;
	}
	*out = v;
	*n = k;
	return 0;
}

static inline int ch_has(const uint64_t *a, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] == v)
			return 1;
		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static inline void ch_url_shown(const char *url, char *buf, size_t len)
{
	const char *host = strstr(url, "://");
	const char *at, *end;

	if (!len)
		return;
	host = host ? host + 3 : url;
	/* the user part ends at the last '@' before the path */
	end = host + strcspn(host, "/?#");
	at = NULL;
	for (const char *p = host; p < end; p++)
		if (*p == '@')
			at = p;
	if (!at) {
		snprintf(buf, len, "%s", url);
		return;
	}
	snprintf(buf, len, "%.*s%s", (int)(host - url), url, at + 1);
}

static inline void ch_first_line(const char *text, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (size_t i = 0; i < n && text[i] != '\n' && text[i] != '\r' && o + 1 < len; i++)
		buf[o++] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
	buf[o] = 0;
}

#endif /* DIO_CLICKHOUSE_REPLY_H */
