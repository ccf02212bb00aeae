// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for what dio reads from a ClickHouse server: whatever answers
 * at the URL may send anything. The input's first byte picks the reader,
 * the rest is the answer:
 *
 *	0	a row of counts (ch_reply_numbers: the look-up of a batch, the
 *		schema version, a session's end row)
 *	1	a list of batch numbers (ch_reply_batches: what a push finds stored)
 *	2	a URL and an error text (ch_url_shown, ch_first_line: messages)
 *	3..7	the RowBinary rows of calls, paths, procs, block, runq
 *		(chsource__row, as dio analyze --from reads them, row after row)
 *
 * and checks what each promises: numbers only when the text is numbers,
 * batch numbers sorted, once each and below the bound, messages
 * NUL-terminated, printable and without the URL's password, records no
 * larger than CHSOURCE_REC_MAX with their size in their header and no more
 * bytes used than given. A broken promise aborts, as a sanitizer report does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dio/event.h>
#include "sinks/clickhouse/source.h"
#include "sinks/clickhouse/reply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_chreply: %s\n", what);
		abort();
	}
}

/* the answer as the NUL-terminated text dio's requests keep */
static char *text(const uint8_t *p, size_t n)
{
	char *t = malloc(n + 1);

	check(t != NULL, "out of memory");
	memcpy(t, p, n);
	t[n] = 0;
	return t;
}

static void numbers(const uint8_t *p, size_t n)
{
	char *t = text(p, n);
	uint64_t v[3];

	for (int k = 1; k <= 3; k++)
		if (!ch_reply_numbers(t, v, k))
			check(strchr("0123456789", t[0]) && t[0], "a count from no digits");
	free(t);
}

static void batches(const uint8_t *p, size_t n)
{
	char *t = text(p, n);
	uint64_t *v = NULL, max = n ? (uint64_t)1 << (p[0] % 64) : 1;
	size_t k = 0;

	if (!ch_reply_batches(t, max, &v, &k)) {
		for (size_t i = 0; i < k; i++) {
			check(v[i] < max, "a batch number past the bound");
			check(!i || v[i - 1] < v[i], "batch numbers not sorted, or twice");
			check(ch_has(v, k, v[i]), "a batch number not found");
		}
	} else {
		check(!v && !k, "a refused list left numbers");
	}
	free(v);
	free(t);
}

static void messages(const uint8_t *p, size_t n)
{
	char *t = text(p, n), buf[64], want[64], line[48];
	const char *scheme = strstr(t, "://"), *host = scheme ? scheme + 3 : t, *at = NULL;

	ch_url_shown(t, buf, sizeof(buf));
	check(memchr(buf, 0, sizeof(buf)) != NULL, "a URL shown without its NUL");
	/* SCHEME://user:password@host/...: shown as SCHEME://host/... */
	for (const char *c = host; *c && !strchr("/?#", *c); c++)
		if (*c == '@')
			at = c;
	if (at) {
		snprintf(want, sizeof(want), "%.*s%s", (int)(host - t), t, at + 1);
		check(!strcmp(buf, want), "a URL shown with its user part");
	}
	ch_first_line((const char *)p, n, line, sizeof(line));
	for (const char *c = line; *c; c++)
		check(*c >= 0x20 && *c < 0x7f, "a message byte that is not printable");
	check(strlen(line) < sizeof(line), "a message without its NUL");
	ch_valid_id(t);
	ch_valid_name(t, n % 2);
	free(t);
}

static void rows(unsigned int k, const uint8_t *p, size_t n)
{
	/* a buffer of the answer's own size: a sanitizer sees a read past it */
	uint8_t *in = malloc(n ? n : 1), *out = malloc(CHSOURCE_REC_MAX);
	size_t off = 0;

	check(in && out, "out of memory");
	memcpy(in, p, n);
	for (;;) {
		uint64_t rec;
		size_t used = 0;
		long r = chsource__row(k, in + off, n - off, (int64_t)n << 20, out, CHSOURCE_REC_MAX,
				       &rec, &used);
		struct dio_ev_hdr h;

		if (r <= 0) {
			check(r == -EAGAIN || r == -EINVAL, "a row neither short nor refused");
			break;
		}
		memcpy(&h, out, sizeof(h));
		check((size_t)r <= CHSOURCE_REC_MAX && h.size == r, "a record of another size");
		check(used > 0 && used <= n - off, "a row that used bytes it was not given");
		off += used;
	}
	free(in);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 8) {
	case 0:
		numbers(data + 1, size - 1);
		break;
	case 1:
		batches(data + 1, size - 1);
		break;
	case 2:
		messages(data + 1, size - 1);
		break;
	default:
		rows(data[0] % 8 - 3, data + 1, size - 1);
		break;
	}
	return 0;
}
