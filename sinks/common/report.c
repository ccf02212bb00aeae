// SPDX-License-Identifier: GPL-2.0-or-later
/* What the report sinks share: see report.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sinks/common/report.h"

/* ---- text buffer ------------------------------------------------------------- */

/* room for n more bytes and a NUL: 0, or -1 once out of memory */
static int reserve(struct rbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->oom)
		return -1;
	if (b->len + n + 1 <= b->cap)
		return 0;
	while (cap < b->len + n + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void rbuf_mem(struct rbuf *b, const void *s, size_t n)
{
	if (reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void rbuf_str(struct rbuf *b, const char *s)
{
	rbuf_mem(b, s, strlen(s));
}

void rbuf_fmt(struct rbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void put_xml_ascii(struct rbuf *b, unsigned char c, int attr)
{
	switch (c) {
	case '&': rbuf_str(b, "&amp;"); break;
	case '<': rbuf_str(b, "&lt;"); break;
	case '>': rbuf_str(b, "&gt;"); break;
	case '"': rbuf_str(b, attr ? "&quot;" : "\""); break;
	case '\r': rbuf_str(b, "&#13;"); break;	/* a parser turns a raw CR into LF */
	case '\t': rbuf_str(b, attr ? "&#9;" : "\t"); break;
	case '\n': rbuf_str(b, attr ? "&#10;" : "\n"); break;
	default: rbuf_mem(b, &c, 1);
	}
}

/* whether the UTF-8 sequence at s (len u, well-formed) is a character XML 1.0 allows */
static int xml_char(const unsigned char *s, size_t u)
{
	if (u == 1)
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' || s[0] == '\r';
	/* U+FFFE and U+FFFF: EF BF BE, EF BF BF; surrogates are not well-formed already */
	return !(u == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe);
}

/*
 * str, character by character, as XML text: what XML cannot hold (malformed
 * UTF-8 and the characters it forbids) as \xNN per byte, other characters
 * above ASCII as they are, ASCII through XML's own escaping.
 */
static void put_xml_escaped(struct rbuf *b, const char *str, int attr)
{
	const char *s = str ? str : "";
	size_t n = strlen(s);

	for (size_t i = 0; i < n; ) {
		size_t u = dio_utf8_len(s + i, n - i);

		if (!u || !xml_char((const unsigned char *)s + i, u)) {
			for (size_t k = 0; k < (u ? u : 1); k++)
				rbuf_fmt(b, "\\x%02x", (unsigned char)s[i + k]);
			i += u ? u : 1;
		} else if (u > 1) {
			rbuf_mem(b, s + i, u);
			i += u;
		} else {
			put_xml_ascii(b, (unsigned char)s[i], attr);
			i++;
		}
	}
}

/* JSON for people: a byte outside UTF-8 as the text \xNN (dio_json_escape) */
void rbuf_json(struct rbuf *b, const char *s)
{
	size_t n = strlen(s ? s : "");

	if (reserve(b, DIO_JSON_ESC_MAX * n + 2))
		return;
	b->p[b->len++] = '"';
	b->len += dio_json_escape(s ? s : "", n, DIO_JSON_XBYTES, b->p + b->len, b->cap - b->len);
	b->p[b->len++] = '"';
	b->p[b->len] = 0;
}

void rbuf_xml(struct rbuf *b, const char *s, int attr)
{
	put_xml_escaped(b, s, attr);
}

int rbuf_write(const struct rbuf *b, int fd)
{
	size_t off = 0;

	if (b->oom)
		return -ENOMEM;
	while (off < b->len) {
		ssize_t n = write(fd, b->p + off, b->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		off += (size_t)n;
	}
	return 0;
}

void rbuf_free(struct rbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int report_time(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	char day[32];

	if (!gmtime_r(&sec, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm))
		return snprintf(buf, len, "1970-01-01T00:00:00Z");
	return snprintf(buf, len, "%s.%06uZ", day, (unsigned int)(ns % 1000000000 / 1000));
}

void report_normalise(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (; s && *s && o + 1 < len; s++) {
		buf[o++] = *s >= '0' && *s <= '9' ? 'N' : *s;
		while (*s >= '0' && *s <= '9' && s[1] >= '0' && s[1] <= '9')
			s++;
	}
	buf[o] = 0;
}

/* ---- findings ------------------------------------------------------------------ */

/* the string fields of a finding that sinks read, as far as the producer's size has them */
static const char **field(struct dio_finding *f, int i)
{
	const char **all[] = {
		&f->code, &f->title, &f->message, &f->analyzer, &f->comm, &f->path, &f->excerpt,
		&f->subject, &f->fingerprint, &f->uri, &f->uri_base, &f->suppress_reason,
		&f->rule_title,
	};

	return i < (int)(sizeof(all) / sizeof(all[0])) ? all[i] : NULL;
}

int rfindings_add(struct rfindings *fs, const struct dio_finding *f)
{
	struct rfinding *e;
	size_t size = f->size < sizeof(e->f) ? f->size : sizeof(e->f), total = 0;
	const char **s;
	char *p;

	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct rfinding *v = realloc(fs->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		fs->v = v;
		fs->cap = cap;
	}
	e = &fs->v[fs->n];
	memset(e, 0, sizeof(*e));
	memcpy(&e->f, f, size);	/* what the producer did not have stays zero */
	e->f.size = sizeof(e->f);
	for (int i = 0; (s = field(&e->f, i)); i++)
		if (*s)
			total += strlen(*s) + 1;
	e->copies = p = malloc(total ? total : 1);
	if (!p)
		return -ENOMEM;
	for (int i = 0; (s = field(&e->f, i)); i++)
		if (*s) {
			size_t n = strlen(*s) + 1;

			memcpy(p, *s, n);
			*s = p;
			p += n;
		}
	fs->n++;
	return 0;
}

void rfindings_free(struct rfindings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].copies);
		free(fs->v[i].where);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

static int add_rule(struct rrule **v, size_t *n, const struct rrule *r)
{
	struct rrule *more = realloc(*v, (*n + 1) * sizeof(*more));

	if (!more)
		return -ENOMEM;
	*v = more;
	more[(*n)++] = *r;
	return 0;
}

int report_rules(const struct dio_host *host, struct dio_ctx *ctx, const struct rfindings *fs,
		 struct rrule **out, size_t *n)
{
	const struct dio_rule *r;
	struct rrule *v = NULL;
	size_t nv = 0;

	for (unsigned int i = 0; DIO_HOST_HAS(host, rule) && (r = host->rule(ctx, i, NULL)); i++) {
		const char *an = NULL;
		size_t k;

		host->rule(ctx, i, &an);
		for (k = 0; k < nv && strcmp(v[k].code, r->code); k++)
			;
		if (k < nv)
			continue;	/* two analyzers with one code: the first one's */
		if (add_rule(&v, &nv, &(struct rrule){ r->code, an ? an : "?", r, r->severity }))
			goto oom;
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct dio_finding *f = &fs->v[i].f;
		const char *code = f->code ? f->code : "?";
		size_t k;

		for (k = 0; k < nv && strcmp(v[k].code, code); k++)
			;
		if (k < nv)
			continue;
		if (add_rule(&v, &nv, &(struct rrule){ code, f->analyzer ? f->analyzer : "?", NULL,
						       f->severity }))
			goto oom;
	}
	*out = v;
	*n = nv;
	return 0;
oom:
	free(v);
	return -ENOMEM;
}

const char *report_info(const struct dio_host *host, struct dio_ctx *ctx, const char *key)
{
	return DIO_HOST_HAS(host, info) ? host->info(ctx, key) : NULL;
}

int report_init(struct report *r, const struct dio_host *host, struct dio_ctx *ctx,
		const char *path)
{
	memset(r, 0, sizeof(*r));
	r->host = host;
	r->ctx = ctx;
	r->fd = -1;
	if (!path || !*path) {
		host->log(ctx, "give the file to write: file=FILE");
		return -EINVAL;
	}
	if (!DIO_HOST_HAS(host, create_output)) {
		host->log(ctx, "this dio cannot create output files for modules");
		return -ENOSYS;
	}
	r->path = strdup(path);
	if (!r->path)
		return -ENOMEM;
	/* the host says why when it cannot */
	r->fd = host->create_output(ctx, path);
	return r->fd < 0 ? r->fd : 0;
}

int report_keep(struct report *r, const struct dio_finding *f)
{
	if (f->size < offsetof(struct dio_finding, excerpt) + sizeof(f->excerpt))
		return -EINVAL;
	return rfindings_add(&r->found, f);
}

int report_write(struct report *r, const struct rbuf *b)
{
	int err = rbuf_write(b, r->fd);

	if (close(r->fd) && !err)
		err = -errno;
	r->fd = -1;
	if (err)
		r->host->log(r->ctx, "cannot write '%s': %s", r->path, strerror(-err));
	return err;
}

void report_fini(struct report *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	rfindings_free(&r->found);
	free(r->path);
	r->path = NULL;
}
