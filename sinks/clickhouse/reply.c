// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Answers of a ClickHouse server and names from trace files, checked
 * (reply.h). Numbers are read digit by digit with an overflow check: strtoull
 * takes a sign, spaces and "0x", and saturates where a reply must be refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/clickhouse/reply.h"

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int ch_valid_name(const char *s, int empty_ok)
{
	if (!*s)
		return empty_ok;
	for (; *s; s++)
		if (!word_char(*s))
			return 0;
	return 1;
}

int ch_valid_id(const char *s)
{
	return s && ch_valid_name(s, 0) && strlen(s) <= CH_ID_MAX;
}

/* a decimal number at *p, up to the first byte that is not a digit: 0 or -EPROTO */
static int number(const char **p, uint64_t *v)
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

int ch_reply_numbers(const char *text, uint64_t *v, int n)
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

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ch_reply_batches(const char *text, uint64_t max, uint64_t **out, size_t *n)
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

int ch_has(const uint64_t *a, size_t n, uint64_t v)
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

void ch_url_shown(const char *url, char *buf, size_t len)
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

void ch_first_line(const char *text, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (size_t i = 0; i < n && text[i] != '\n' && text[i] != '\r' && o + 1 < len; i++)
		buf[o++] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
	buf[o] = 0;
}
