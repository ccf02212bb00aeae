// SPDX-License-Identifier: GPL-2.0-or-later
/* A bounded recursive-descent JSON reader (RFC 8259). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jsonread.h"

#define MAX_DEPTH	64
/*
 * The tree may take this many times the text, and MEM_MIN more: a SARIF log
 * dio wrote takes about 3 times, 4.6 for results of the shortest texts (its
 * values are long strings and objects); "[0,0,0,...]" would take 16 to 32
 * times (32 bytes a value for each 2 of text) and is refused instead.
 */
#define MEM_FACTOR	8
#define MEM_MIN		(1u << 20)
#define MALLOC_COST	16	/* what malloc keeps beside each block */

struct parser {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	int failed;	/* errno of the first failure */
	size_t used, budget;	/* bytes of the tree so far, and at most */
};

static int fail(struct parser *ps, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *ps, int e, const char *fmt, ...)
{
	char msg[256];
	unsigned int line = 1;
	va_list ap;

	if (ps->failed)
		return -ps->failed;
	for (const char *c = ps->start; c < ps->p && c < ps->end; c++)
		line += *c == '\n';
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "line %u: %s", line, msg);
	ps->failed = e;
	return -e;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
				   *ps->p == '\r'))
		ps->p++;
}

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, EINVAL, "expected a value");
	ps->p += n;
	return 0;
}

static int hex4(const char *s, unsigned int *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				  c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		*out = *out << 4 | (unsigned int)d;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* n more bytes for the tree: within the budget, or the parse fails */
static int charge(struct parser *ps, size_t n)
{
	ps->used += n;
	if (ps->used <= ps->budget)
		return 0;
	return fail(ps, E2BIG, "its values would take more than %zu bytes, %d times the text: "
		    "too many small values for a file of this size", ps->budget, MEM_FACTOR);
}

/* A string at ps->p (its opening quote): unescaped into a new buffer. */
static int string(struct parser *ps, char **out, size_t *outlen)
{
	const char *s = ++ps->p;
	size_t n = 0;
	char *buf;

	/* the unescaped text is never longer than the escaped one */
	while (ps->p < ps->end && *ps->p != '"') {
		if ((unsigned char)*ps->p < 0x20)
			return fail(ps, EINVAL, "control character in a string");
		ps->p += *ps->p == '\\' ? 2 : 1;
	}
	if (ps->p >= ps->end)
		return fail(ps, EINVAL, "unterminated string");
	if (charge(ps, (size_t)(ps->p - s) + 1 + MALLOC_COST))
		return -E2BIG;
	buf = malloc((size_t)(ps->p - s) + 1);
	if (!buf)
		return fail(ps, ENOMEM, "out of memory");
	for (const char *c = s; c < ps->p; ) {
		unsigned int cp, lo;

		if (*c != '\\') {
			buf[n++] = *c++;
			continue;
		}
		c++;
		switch (*c) {
		case '"': case '\\': case '/':
			buf[n++] = *c++;
			continue;
		case 'b': buf[n++] = '\b'; c++; continue;
		case 'f': buf[n++] = '\f'; c++; continue;
		case 'n': buf[n++] = '\n'; c++; continue;
		case 'r': buf[n++] = '\r'; c++; continue;
		case 't': buf[n++] = '\t'; c++; continue;
		case 'u':
			if (ps->p - c < 5 || hex4(c + 1, &cp))
				goto bad;
			c += 5;
			if (cp >= 0xd800 && cp < 0xdc00 && ps->p - c >= 6 && c[0] == '\\' &&
			    c[1] == 'u' && !hex4(c + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				c += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;	/* a lone surrogate */
			}
			/* 6 escaped bytes at least for 3 or 4 written: it fits */
			n += put_utf8(buf + n, cp);
			continue;
		default:
			goto bad;
		}
	}
	buf[n] = 0;
	ps->p++;
	*out = buf;
	*outlen = n;
	return 0;
bad:
	free(buf);
	return fail(ps, EINVAL, "bad escape in a string");
}

static int value(struct parser *ps, struct json_value *v, int depth);

/* append a zeroed item (and a key slot for objects) */
static struct json_value *grow(struct parser *ps, struct json_value *v, size_t *cap)
{
	if (v->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4;
		struct json_value *items;
		char **keys;

		if (charge(ps, (nc - *cap) * (sizeof(*items) +
					     (v->type == JSON_OBJECT ? sizeof(*keys) : 0)) +
			   MALLOC_COST))
			return NULL;
		items = realloc(v->items, nc * sizeof(*items));
		if (!items)
			return fail(ps, ENOMEM, "out of memory"), NULL;
		v->items = items;
		if (v->type == JSON_OBJECT) {
			keys = realloc(v->keys, nc * sizeof(*keys));
			if (!keys)
				return fail(ps, ENOMEM, "out of memory"), NULL;
			v->keys = keys;
		}
		*cap = nc;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	if (v->keys)
		v->keys[v->n] = NULL;
	return &v->items[v->n++];
}

/* the room grow() doubled and did not use, given back */
static void fit(struct json_value *v, size_t cap)
{
	struct json_value *items;
	char **keys;

	if (v->n == cap || !v->n)
		return;
	items = realloc(v->items, v->n * sizeof(*items));
	if (items)
		v->items = items;
	if (v->keys && (keys = realloc(v->keys, v->n * sizeof(*keys))))
		v->keys = keys;
}

static int container(struct parser *ps, struct json_value *v, int depth)
{
	char close = *ps->p == '{' ? '}' : ']';
	size_t cap = 0;
	int e;

	v->type = close == '}' ? JSON_OBJECT : JSON_ARRAY;
	if (depth >= MAX_DEPTH)
		return fail(ps, EINVAL, "nested deeper than %d", MAX_DEPTH);
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct json_value *item = grow(ps, v, &cap);
		size_t klen;

		if (!item)
			return -ENOMEM;
		skip_ws(ps);
		if (v->type == JSON_OBJECT) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, EINVAL, "expected a member name in quotes");
			if ((e = string(ps, &v->keys[v->n - 1], &klen)))
				return e;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, EINVAL, "expected ':' after a member name");
			ps->p++;
		}
		if ((e = value(ps, item, depth + 1)))
			return e;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			fit(v, cap);
			return 0;
		}
		return fail(ps, EINVAL, "expected ',' or '%c'", close);
	}
}

/*
 * The number at ps->p, read by strtod from a NUL-terminated copy of its
 * characters: the text itself has no NUL after it.
 */
static int number(struct parser *ps, double *out)
{
	const char *s = ps->p;
	char small[64], *copy = small, *end;
	size_t n;

	while (ps->p < ps->end && strchr("+-.eE0123456789", *ps->p) && *ps->p)
		ps->p++;
	n = (size_t)(ps->p - s);
	if (n >= sizeof(small) && !(copy = malloc(n + 1)))
		return fail(ps, ENOMEM, "out of memory");
	memcpy(copy, s, n);
	copy[n] = 0;
	*out = strtod(copy, &end);
	if (copy != small)
		free(copy);
	if (end != copy + n) {
		ps->p = s;
		return fail(ps, EINVAL, "bad number");
	}
	return 0;
}

static int value(struct parser *ps, struct json_value *v, int depth)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, EINVAL, "unexpected end of the text");
	switch (*ps->p) {
	case '{':
	case '[':
		return container(ps, v, depth);
	case '"':
		v->type = JSON_STRING;
		return string(ps, &v->string, &v->n);
	case 't':
		v->type = JSON_BOOL;
		v->number = 1;
		return literal(ps, "true");
	case 'f':
		v->type = JSON_BOOL;
		return literal(ps, "false");
	case 'n':
		v->type = JSON_NULL;
		return literal(ps, "null");
	default:
		if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
			return fail(ps, EINVAL, "expected a value");
		v->type = JSON_NUMBER;
		return number(ps, &v->number);
	}
}

static void free_value(struct json_value *v)
{
	if (v->type == JSON_STRING) {
		free(v->string);
		return;
	}
	if (v->type != JSON_ARRAY && v->type != JSON_OBJECT)
		return;
	for (size_t i = 0; i < v->n; i++) {
		free_value(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
}

void json_free(struct json_value *v)
{
	if (!v)
		return;
	free_value(v);
	free(v);
}

struct json_value *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct json_value *v = calloc(1, sizeof(*v));
	struct parser ps = { .err = err, .errlen = errlen,
			     .budget = len > (SIZE_MAX - MEM_MIN) / MEM_FACTOR ? SIZE_MAX :
				       len * MEM_FACTOR + MEM_MIN };

	if (!v) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	ps.p = ps.start = text;
	ps.end = text + len;
	if (!value(&ps, v, 0)) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			fail(&ps, EINVAL, "text after the value");
	}
	if (ps.failed) {
		json_free(v);
		errno = ps.failed;
		return NULL;
	}
	return v;
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (v->keys[i] && !strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *json_str(const struct json_value *v)
{
	return v && v->type == JSON_STRING ? v->string : NULL;
}
