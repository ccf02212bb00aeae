// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio analyze --from clickhouse:url=URL,session=ID: a session stored by the
 * clickhouse sink, read back as records (chsource.h). Each table's rows of
 * the session are fetched as RowBinary, in the order of their record number
 * (rec), and the five tables are merged on it: the records come back in the
 * order dio first saw them, and analyzers find what they found then.
 */
#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/event.h>

#include "chsource.h"
#include "sinks/clickhouse/schema.h"

/* the tables that hold records, and their record types */
static const struct {
	enum ch_table t;
	uint16_t type;
} sources[] = {
	{ CH_CALLS, DIO_EV_SYSCALL }, { CH_PATHS, DIO_EV_PATH }, { CH_PROCS, DIO_EV_PROC },
	{ CH_BLOCK, DIO_EV_BLOCK }, { CH_RUNQ, DIO_EV_RUNQ },
};
#define NSRC (sizeof(sources) / sizeof(sources[0]))

struct cursor {
	unsigned char *p;
	size_t len, off;
	uint64_t rec;		/* of the row at off; UINT64_MAX when none is left */
};

struct chsource {
	char *url, *database, *prefix, *user, *session;
	char host[256], boot_id[64], command[4096];
	int64_t realtime_off;
	struct cursor c[NSRC];
	unsigned char buf[sizeof(struct dio_ev_syscall) + 2 * DIO_PATH_MAX + 64];
};

/* ---- HTTP ------------------------------------------------------------------------ */

struct body {
	unsigned char *p;
	size_t len;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ud)
{
	struct body *b = ud;
	size_t n = size * nmemb;
	unsigned char *p = realloc(b->p, b->len + n + 1);

	if (!p)
		return 0;
	memcpy(p + b->len, ptr, n);
	b->p = p;
	b->len += n;
	p[b->len] = 0;
	return n;
}

/* the answer to sql, into *out (NUL-terminated too); 0 or -1 with err set */
static int ask(const struct chsource *s, const char *sql, struct body *out, char *err, size_t errlen)
{
	CURL *h = curl_easy_init();
	char *q = h ? curl_easy_escape(h, sql, 0) : NULL, *url = NULL;
	long code = 0;
	CURLcode e;
	int ret = -1;

	out->p = NULL;
	out->len = 0;
	if (!q || asprintf(&url, "%s/?query=%s", s->url, q) < 0) {
		snprintf(err, errlen, "out of memory");
		url = NULL;
		goto done;
	}
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
	if (s->user) {
		curl_easy_setopt(h, CURLOPT_USERNAME, s->user);
		curl_easy_setopt(h, CURLOPT_PASSWORD, "");
	}
	e = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (e != CURLE_OK)
		snprintf(err, errlen, "%s: %s", s->url, curl_easy_strerror(e));
	else if (code != 200)
		snprintf(err, errlen, "%s answered %ld: %.*s", s->url, code,
			 (int)(out->p ? strcspn((char *)out->p, "\n") : 0), out->p ? (char *)out->p : "");
	else
		ret = 0;
done:
	if (ret) {
		free(out->p);
		out->p = NULL;
	}
	curl_free(q);
	free(url);
	curl_easy_cleanup(h);
	return ret;
}

/* ---- RowBinary ----------------------------------------------------------------------- */

struct rd {
	const unsigned char *p;
	size_t len, off;
	int bad;
};

static uint64_t rd_n(struct rd *r, size_t n)
{
	uint64_t v = 0;

	if (r->bad || n > r->len - r->off) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p + r->off, n);	/* little-endian, as x86_64 is */
	r->off += n;
	return v;
}

/* a String into buf (cut at len - 1, NUL-terminated); its length */
static size_t rd_str(struct rd *r, char *buf, size_t len)
{
	uint64_t l = 0;
	unsigned int sh = 0;
	unsigned char b;

	do {
		b = (unsigned char)rd_n(r, 1);
		l |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
	} while ((b & 0x80) && !r->bad && sh < 64);
	if (r->bad || l > r->len - r->off) {
		r->bad = 1;
		if (len)
			buf[0] = 0;
		return 0;
	}
	if (len) {
		size_t n = l < len - 1 ? l : len - 1;

		memcpy(buf, r->p + r->off, n);
		buf[n] = 0;
	}
	r->off += l;
	return l < len ? l : len - 1;
}

/* the columns after host, boot_id, session, batch, seq, rec, ts: as schema.h lists them */
static void common(struct rd *r, uint64_t *rec, uint64_t *ts)
{
	char skip[64];

	rd_str(r, skip, sizeof(skip));
	rd_str(r, skip, sizeof(skip));
	rd_str(r, skip, sizeof(skip));
	rd_n(r, 8);
	rd_n(r, 8);
	*rec = rd_n(r, 8);
	*ts = rd_n(r, 8);
}

static uint64_t mono(const struct chsource *s, uint64_t real)
{
	return real ? real - (uint64_t)s->realtime_off : 0;
}

/* the row at the cursor as a record in s->buf; its size, 0 at the end, -1 if malformed */
static long row_to_record(struct chsource *s, unsigned int k, uint64_t *rec)
{
	struct cursor *c = &s->c[k];
	struct rd r = { c->p, c->len, c->off, 0 };
	uint64_t ts;
	long size = 0;

	if (c->off >= c->len)
		return 0;
	common(&r, rec, &ts);
	memset(s->buf, 0, sizeof(s->buf));
	switch (sources[k].type) {
	case DIO_EV_SYSCALL: {
		struct dio_ev_syscall *e = (void *)s->buf;
		char *str = (char *)(e + 1);
		size_t l0, l1;
		unsigned int strs;

		e->hdr.cpu = (uint32_t)rd_n(&r, 4);
		e->pid = (uint32_t)rd_n(&r, 4);
		e->tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, e->comm, DIO_COMM_LEN);
		rd_str(&r, NULL, 0);	/* the name: the number says it */
		e->nr = (uint16_t)rd_n(&r, 2);
		for (int i = 0; i < 6; i++)
			e->args[i] = rd_n(&r, 8);
		e->ret = (int64_t)rd_n(&r, 8);
		e->duration = rd_n(&r, 8);
		e->fd = (int32_t)rd_n(&r, 4);
		e->flags = (uint8_t)rd_n(&r, 1);
		e->ftype = (uint8_t)rd_n(&r, 1);
		e->tag.dev = (uint32_t)rd_n(&r, 4);
		e->tag.ino = rd_n(&r, 8);
		e->tag.gen = (uint32_t)rd_n(&r, 4);
		e->offset = (int64_t)rd_n(&r, 8);
		e->ofd = (uint32_t)rd_n(&r, 4);
		strs = (unsigned int)rd_n(&r, 1);
		l0 = rd_str(&r, str, DIO_PATH_MAX);
		l1 = rd_str(&r, str + ((strs & 1) ? l0 + 1 : 0), DIO_PATH_MAX);
		/* a string argument is there when it was read, even empty */
		e->str_len[0] = (uint16_t)((strs & 1) ? l0 + 1 : 0);
		e->str_len[1] = (uint16_t)((strs & 2) ? l1 + 1 : 0);
		e->flags &= (uint8_t)~DIO_SF_HASH;	/* content hashes are not stored */
		e->hdr.type = DIO_EV_SYSCALL;
		e->hdr.ts = mono(s, ts);
		size = (long)(sizeof(*e) + e->str_len[0] + e->str_len[1]);
		break;
	}
	case DIO_EV_PATH: {
		struct dio_ev_path *p = (void *)s->buf;
		size_t l;

		p->tag.dev = (uint32_t)rd_n(&r, 4);
		p->tag.ino = rd_n(&r, 8);
		p->tag.gen = (uint32_t)rd_n(&r, 4);
		p->ftype = (uint8_t)rd_n(&r, 1);
		p->flags = (uint8_t)rd_n(&r, 1);
		p->pid = (uint32_t)rd_n(&r, 4);
		l = rd_str(&r, (char *)(p + 1), DIO_PATH_MAX);
		p->len = (uint16_t)(l + 1);
		p->hdr.type = DIO_EV_PATH;
		p->hdr.ts = mono(s, ts);
		size = (long)(sizeof(*p) + p->len);
		break;
	}
	case DIO_EV_PROC: {
		struct dio_ev_proc *p = (void *)s->buf;

		p->hdr.cpu = (uint32_t)rd_n(&r, 4);
		p->pid = (uint32_t)rd_n(&r, 4);
		p->tid = (uint32_t)rd_n(&r, 4);
		p->other_pid = (uint32_t)rd_n(&r, 4);
		p->other_tid = (uint32_t)rd_n(&r, 4);
		p->exit_code = (int32_t)rd_n(&r, 4);
		p->kind = (uint16_t)rd_n(&r, 2);
		p->flags = (uint16_t)rd_n(&r, 2);
		rd_str(&r, p->comm, DIO_COMM_LEN);
		p->mnt_ns = (uint32_t)rd_n(&r, 4);
		p->hdr.type = DIO_EV_PROC;
		p->hdr.ts = mono(s, ts);
		size = (long)sizeof(*p);
		break;
	}
	case DIO_EV_BLOCK: {
		struct dio_ev_block *b = (void *)s->buf;
		char rwbs[16];

		b->hdr.cpu = (uint32_t)rd_n(&r, 4);
		b->pid = (uint32_t)rd_n(&r, 4);
		b->tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, b->comm, DIO_COMM_LEN);
		b->duration = rd_n(&r, 8);
		b->queue_ns = rd_n(&r, 8);
		b->sector = rd_n(&r, 8);
		b->sys_ts = mono(s, rd_n(&r, 8));
		b->dev = (uint32_t)rd_n(&r, 4);
		b->bytes = (uint32_t)rd_n(&r, 4);
		b->error = (int32_t)rd_n(&r, 4);
		b->nr = (uint16_t)rd_n(&r, 2);
		b->flags = (uint8_t)rd_n(&r, 1);
		rd_str(&r, rwbs, sizeof(rwbs));
		memcpy(b->rwbs, rwbs, sizeof(b->rwbs));
		b->hdr.type = DIO_EV_BLOCK;
		b->hdr.ts = mono(s, ts);
		size = (long)sizeof(*b);
		break;
	}
	case DIO_EV_RUNQ: {
		struct dio_ev_runq *q = (void *)s->buf;

		q->hdr.cpu = (uint32_t)rd_n(&r, 4);
		q->pid = (uint32_t)rd_n(&r, 4);
		q->tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, q->comm, DIO_COMM_LEN);
		q->delay = rd_n(&r, 8);
		q->sys_ts = mono(s, rd_n(&r, 8));
		q->prev_pid = (uint32_t)rd_n(&r, 4);
		q->prev_tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, q->prev_comm, DIO_COMM_LEN);
		q->nr = (uint16_t)rd_n(&r, 2);
		q->flags = (uint8_t)rd_n(&r, 1);
		q->hdr.type = DIO_EV_RUNQ;
		q->hdr.ts = mono(s, ts);
		size = (long)sizeof(*q);
		break;
	}
	}
	if (r.bad)
		return -1;
	((struct dio_ev_hdr *)s->buf)->size = (uint16_t)size;
	c->off = r.off;
	return size;
}

/* ---- the source ------------------------------------------------------------------------ */

static int option(const char *spec, const char *key, char **out)
{
	size_t kl = strlen(key);

	for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			*out = strndup(p + kl + 1, strcspn(p + kl + 1, ","));
			return *out ? 0 : -1;
		}
	}
	return 0;
}

static int valid_word(const char *s)
{
	for (; s && *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-'))
			return 0;
	return 1;
}

void chsource__close(struct chsource *s)
{
	if (!s)
		return;
	for (unsigned int k = 0; k < NSRC; k++)
		free(s->c[k].p);
	free(s->url);
	free(s->database);
	free(s->prefix);
	free(s->user);
	free(s->session);
	free(s);
}

/* the session's rows of table k, in record order */
static int fetch(struct chsource *s, unsigned int k, char *err, size_t errlen)
{
	const struct ch_col *cols = ch_tables[sources[k].t].cols;
	char sql[4096];
	size_t o;
	struct body b;

	o = (size_t)snprintf(sql, sizeof(sql), "SELECT ");
	for (int i = 0; cols[i].name; i++)
		o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s%s", i ? ", " : "", cols[i].name);
	snprintf(sql + o, sizeof(sql) - o, " FROM `%s`.`%s%s` WHERE session = '%s' ORDER BY rec "
		 "FORMAT RowBinary", s->database, s->prefix, ch_tables[sources[k].t].name, s->session);
	if (ask(s, sql, &b, err, errlen))
		return -1;
	s->c[k].p = b.p;
	s->c[k].len = b.len;
	return 0;
}

struct chsource *chsource__open(const char *spec, char *err, size_t errlen)
{
	struct chsource *s = calloc(1, sizeof(*s));
	struct body b;
	char sql[1024];

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	spec += strlen("clickhouse:");
	if (option(spec, "url", &s->url) || option(spec, "session", &s->session) ||
	    option(spec, "database", &s->database) || option(spec, "table_prefix", &s->prefix) ||
	    option(spec, "user", &s->user)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (!s->url || !s->session) {
		snprintf(err, errlen, "--from clickhouse: give url= and session= "
			 "(clickhouse:url=http://HOST:8123,session=ID; dio info shows a recording's session_id)");
		goto fail;
	}
	if (!s->database)
		s->database = strdup("dio");
	if (!s->prefix)
		s->prefix = strdup("");
	if (!s->database || !s->prefix || !valid_word(s->session) || !valid_word(s->database) ||
	    !valid_word(s->prefix)) {
		snprintf(err, errlen, "--from clickhouse: session=, database= and table_prefix= take "
			 "letters, digits, '_' and '-' only");
		goto fail;
	}
	snprintf(sql, sizeof(sql), "SELECT host, boot_id, command, realtime_offset FROM `%s`.`%ssessions` "
		 "WHERE session = '%s' ORDER BY complete DESC LIMIT 1 FORMAT TabSeparated",
		 s->database, s->prefix, s->session);
	if (ask(s, sql, &b, err, errlen))
		goto fail;
	if (!b.len || sscanf((char *)b.p, "%255[^\t]\t%63[^\t]\t%4095[^\t]\t%" SCNd64, s->host,
			     s->boot_id, s->command, &s->realtime_off) != 4) {
		snprintf(err, errlen, "--from clickhouse: no session %s in %s at %s", s->session,
			 s->database, s->url);
		free(b.p);
		goto fail;
	}
	free(b.p);
	for (unsigned int k = 0; k < NSRC; k++)
		if (fetch(s, k, err, errlen))
			goto fail;
	return s;
fail:
	chsource__close(s);
	return NULL;
}

const char *chsource__info(const struct chsource *s, const char *key)
{
	if (!strcmp(key, "hostname"))
		return s->host;
	if (!strcmp(key, "boot_id"))
		return s->boot_id;
	if (!strcmp(key, "command"))
		return s->command;
	if (!strcmp(key, "session_id"))
		return s->session;
	return NULL;
}

int64_t chsource__realtime_off(const struct chsource *s)
{
	return s->realtime_off;
}

int chsource__next(struct chsource *s, const void **rec, size_t *size)
{
	unsigned int best = NSRC;
	uint64_t best_rec = UINT64_MAX;

	for (unsigned int k = 0; k < NSRC; k++) {
		struct cursor *c = &s->c[k];
		struct rd r = { c->p, c->len, c->off, 0 };
		uint64_t rn, ts;

		if (c->off >= c->len)
			continue;
		common(&r, &rn, &ts);
		if (r.bad)
			return -EINVAL;
		if (rn < best_rec) {
			best_rec = rn;
			best = k;
		}
	}
	if (best == NSRC)
		return 0;
	{
		uint64_t rn;
		long n = row_to_record(s, best, &rn);

		if (n <= 0)
			return -EINVAL;
		*rec = s->buf;
		*size = (size_t)n;
	}
	return 1;
}
