// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio analyze --from clickhouse:url=URL,session=ID: a session stored by the
 * clickhouse sink, read back as records: this module's source (dio/source.h,
 * the `dio_source` beside its `dio_sink`). Each table's rows of
 * the session are fetched as RowBinary, in the order of their record number
 * (rec), and the five tables are merged on it: the records come back in the
 * order dio first saw them, and analyzers find what they found then.
 *
 * The five answers are streamed side by side (libcurl's multi interface):
 * a table whose rows are ahead of the others' waits, its transfer paused,
 * with at most BUF_PAUSE bytes in memory, so that a session of any size
 * takes a few MiB. A server that sends nothing for timeout_s while dio
 * waits for a table's rows is given up. The requests are made as the
 * sink's (sender.c: ch_setup, ch_request).
 */
#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/source.h>

#include "sinks/clickhouse/schema.h"
#include "sinks/clickhouse/sender.h"
#include "sinks/clickhouse/source.h"

#define BUF_PAUSE	(1u << 20)	/* a table's bytes waiting: past this its transfer pauses */
#define ROW_MAX		(64u << 10)	/* no row dio writes is longer: past it, not a row */

_Static_assert(sizeof(struct dio_ev_syscall) + 2 * DIO_PATH_MAX <= CHSOURCE_REC_MAX,
	       "a call with two whole path arguments fits CHSOURCE_REC_MAX");

/* the tables that hold records, and their record types */
static const struct {
	enum ch_table t;
	uint16_t type;
} sources[] = {
	{ CH_CALLS, DIO_EV_SYSCALL }, { CH_PATHS, DIO_EV_PATH }, { CH_PROCS, DIO_EV_PROC },
	{ CH_BLOCK, DIO_EV_BLOCK }, { CH_RUNQ, DIO_EV_RUNQ },
};
#define NSRC (sizeof(sources) / sizeof(sources[0]))

/* one table's answer as it comes, and its next record */
struct cursor {
	struct chsource *s;
	CURL *h;
	unsigned char *p;
	size_t len, off, cap;
	uint64_t got;			/* bytes received so far */
	uint64_t last_ms;		/* when bytes last came (or dio last waited from) */
	int paused, done, added;
	CURLcode result;		/* when done */
	int have;			/* rec below holds its next record */
	uint64_t rn;			/* its record number */
	size_t size;
	unsigned char rec[CHSOURCE_REC_MAX];
};

struct chsource {
	char *url, *database, *prefix, *user, *session;
	struct ch_conf conf;		/* url, user, timeout_s as the requests take them */
	char host[256], boot_id[64], command[4096];
	char info[8192];		/* the row's key=value lines (schema 2) */
	char tracer_pid[16], fstypes[4096];
	char trace[512];		/* the source as reports name it: the URL without a password */
	int64_t realtime_off;
	CURLM *m;
	struct cursor c[NSRC];
	char err[512];
};

/* ---- RowBinary ----------------------------------------------------------------------- */

struct rd {
	const unsigned char *p;
	size_t len, off;
	int bad;		/* -EAGAIN: the row goes on past len; -EINVAL: not a row */
};

static uint64_t rd_n(struct rd *r, size_t n)
{
	uint64_t v = 0;

	if (r->bad)
		return 0;
	if (n > r->len - r->off) {
		r->bad = -EAGAIN;
		return 0;
	}
	memcpy(&v, r->p + r->off, n);	/* little-endian, as x86_64 is */
	r->off += n;
	return v;
}

/* a String into buf (cut at len - 1, NUL-terminated); its length as kept */
static size_t rd_str(struct rd *r, char *buf, size_t len)
{
	uint64_t l = 0;
	unsigned int sh = 0;
	unsigned char b;

	if (len)
		buf[0] = 0;
	do {
		b = (unsigned char)rd_n(r, 1);
		if (sh > 63)
			r->bad = r->bad ? r->bad : -EINVAL;
		else
			l |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
	} while ((b & 0x80) && !r->bad);
	if (!r->bad && l > ROW_MAX)
		r->bad = -EINVAL;
	if (!r->bad && l > r->len - r->off)
		r->bad = -EAGAIN;
	if (r->bad)
		return 0;
	if (len) {
		size_t n = l < len - 1 ? l : len - 1;

		memcpy(buf, r->p + r->off, n);
		buf[n] = 0;
	}
	r->off += l;
	return l < len ? l : len ? len - 1 : 0;
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

static uint64_t mono(int64_t realtime_off, uint64_t real)
{
	return real ? real - (uint64_t)realtime_off : 0;
}

long chsource__row(unsigned int k, const unsigned char *in, size_t len, int64_t realtime_off,
		   void *out, size_t outlen, uint64_t *rec, size_t *used)
{
	struct rd r = { in, len, 0, 0 };
	uint64_t ts;
	long size = 0;

	if (k >= NSRC || outlen < CHSOURCE_REC_MAX)
		return -EINVAL;
	common(&r, rec, &ts);
	memset(out, 0, CHSOURCE_REC_MAX);
	switch (sources[k].type) {
	case DIO_EV_SYSCALL: {
		struct dio_ev_syscall *e = out;
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
		e->hdr.ts = mono(realtime_off, ts);
		size = (long)(sizeof(*e) + e->str_len[0] + e->str_len[1]);
		break;
	}
	case DIO_EV_PATH: {
		struct dio_ev_path *p = out;
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
		p->hdr.ts = mono(realtime_off, ts);
		size = (long)(sizeof(*p) + p->len);
		break;
	}
	case DIO_EV_PROC: {
		struct dio_ev_proc *p = out;

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
		p->hdr.ts = mono(realtime_off, ts);
		size = (long)sizeof(*p);
		break;
	}
	case DIO_EV_BLOCK: {
		struct dio_ev_block *b = out;
		char rwbs[16];

		b->hdr.cpu = (uint32_t)rd_n(&r, 4);
		b->pid = (uint32_t)rd_n(&r, 4);
		b->tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, b->comm, DIO_COMM_LEN);
		b->duration = rd_n(&r, 8);
		b->queue_ns = rd_n(&r, 8);
		b->sector = rd_n(&r, 8);
		b->sys_ts = mono(realtime_off, rd_n(&r, 8));
		b->dev = (uint32_t)rd_n(&r, 4);
		b->bytes = (uint32_t)rd_n(&r, 4);
		b->error = (int32_t)rd_n(&r, 4);
		b->nr = (uint16_t)rd_n(&r, 2);
		b->flags = (uint8_t)rd_n(&r, 1);
		rd_str(&r, rwbs, sizeof(rwbs));
		memcpy(b->rwbs, rwbs, sizeof(b->rwbs));
		b->hdr.type = DIO_EV_BLOCK;
		b->hdr.ts = mono(realtime_off, ts);
		size = (long)sizeof(*b);
		break;
	}
	case DIO_EV_RUNQ: {
		struct dio_ev_runq *q = out;

		q->hdr.cpu = (uint32_t)rd_n(&r, 4);
		q->pid = (uint32_t)rd_n(&r, 4);
		q->tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, q->comm, DIO_COMM_LEN);
		q->delay = rd_n(&r, 8);
		q->sys_ts = mono(realtime_off, rd_n(&r, 8));
		q->prev_pid = (uint32_t)rd_n(&r, 4);
		q->prev_tid = (uint32_t)rd_n(&r, 4);
		rd_str(&r, q->prev_comm, DIO_COMM_LEN);
		q->nr = (uint16_t)rd_n(&r, 2);
		q->flags = (uint8_t)rd_n(&r, 1);
		q->hdr.type = DIO_EV_RUNQ;
		q->hdr.ts = mono(realtime_off, ts);
		size = (long)sizeof(*q);
		break;
	}
	}
	if (r.bad)
		return r.bad;
	((struct dio_ev_hdr *)out)->size = (uint16_t)size;
	*used = r.off;
	return size;
}

/* ---- HTTP ------------------------------------------------------------------------ */

/* a handle for sql, its answer to on_data(ud); NULL if out of memory */
static CURL *handle(const struct chsource *s, const char *sql, curl_write_callback on_data,
		    void *ud)
{
	CURL *h = curl_easy_init();
	char err[64];

	if (!h || ch_setup(h, &s->conf, sql, err, sizeof(err))) {
		curl_easy_cleanup(h);
		return NULL;
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, ud);
	return h;
}

/* a table's rows as they come: kept, or the transfer paused while BUF_PAUSE bytes wait */
static size_t on_rows(char *ptr, size_t size, size_t nmemb, void *ud)
{
	struct cursor *c = ud;
	size_t n = size * nmemb;

	if (c->len - c->off >= BUF_PAUSE) {
		c->paused = 1;
		return CURL_WRITEFUNC_PAUSE;
	}
	if (c->off && (c->off >= c->cap / 2 || c->len + n > c->cap)) {
		memmove(c->p, c->p + c->off, c->len - c->off);
		c->len -= c->off;
		c->off = 0;
	}
	if (c->len + n > c->cap) {
		size_t cap = c->cap ? c->cap : 65536;
		unsigned char *p;

		while (cap < c->len + n)
			cap *= 2;
		p = realloc(c->p, cap);
		if (!p)
			return 0;
		c->p = p;
		c->cap = cap;
	}
	memcpy(c->p + c->len, ptr, n);
	c->len += n;
	c->got += n;
	c->last_ms = ch_now_ms();
	return n;
}

/* ---- the source ------------------------------------------------------------------------ */

static const char *const keys[] = { "url", "session", "database", "table_prefix", "user",
				    "timeout_s" };

/* key's value in spec into *out (malloc'd), NULL if absent: 0, or -1 if out of memory */
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

/* a key of spec that is none of keys[]: its length, 0 if none (*at: where) */
static size_t unknown_key(const char *spec, const char **at)
{
	for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t l = strcspn(p, "=,"), i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strlen(keys[i]) == l && !strncmp(p, keys[i], l))
				break;
		if (i == sizeof(keys) / sizeof(keys[0])) {
			*at = p;
			return l ? l : 1;
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

static void chsource__close(void *state)
{
	struct chsource *s = state;

	if (!s)
		return;
	for (unsigned int k = 0; k < NSRC; k++) {
		if (s->c[k].h) {
			if (s->c[k].added)
				curl_multi_remove_handle(s->m, s->c[k].h);
			curl_easy_cleanup(s->c[k].h);
		}
		free(s->c[k].p);
	}
	if (s->m)
		curl_multi_cleanup(s->m);
	free(s->url);
	free(s->database);
	free(s->prefix);
	free(s->user);
	free(s->session);
	free(s);
}

/* start the transfer of the session's rows of table k, in record order */
static int start(struct chsource *s, unsigned int k, char *err, size_t errlen)
{
	const struct ch_col *cols = ch_tables[sources[k].t].cols;
	struct cursor *c = &s->c[k];
	char sql[4096];
	size_t o;

	o = (size_t)snprintf(sql, sizeof(sql), "SELECT ");
	/* what dio computes from the rest (time, errno, ...) is not read back */
	for (int i = 0, n = 0; cols[i].name; i++)
		if (!cols[i].derived)
			o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s%s", n++ ? ", " : "",
					      cols[i].name);
	snprintf(sql + o, sizeof(sql) - o, " FROM `%s`.`%s%s` WHERE session = '%s' ORDER BY rec "
		 "FORMAT RowBinary", s->database, s->prefix, ch_tables[sources[k].t].name, s->session);
	c->s = s;
	c->h = handle(s, sql, on_rows, c);
	if (!c->h || curl_multi_add_handle(s->m, c->h) != CURLM_OK) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->added = 1;
	c->last_ms = ch_now_ms();
	return 0;
}

static int chsource__meta(void *state, const char *key, char *buf, size_t len);

static void *chsource__open(const char *spec, char *err, size_t errlen)
{
	struct chsource *s = calloc(1, sizeof(*s));
	char sql[1024], *timeout = NULL, *end = NULL, *row = NULL;
	const char *at = NULL;
	size_t l, rowlen = 0;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	spec += strlen("clickhouse:");
	if ((l = unknown_key(spec, &at))) {
		snprintf(err, errlen, "--from clickhouse: unknown key '%.*s' (it takes url=, "
			 "session=, database=, table_prefix=, user=, timeout_s=)", (int)(l < 64 ? l : 64), at);
		goto fail;
	}
	if (option(spec, "url", &s->url) || option(spec, "session", &s->session) ||
	    option(spec, "database", &s->database) || option(spec, "table_prefix", &s->prefix) ||
	    option(spec, "user", &s->user) || option(spec, "timeout_s", &timeout)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (!s->url || !s->session) {
		snprintf(err, errlen, "--from clickhouse: give url= and session= "
			 "(clickhouse:url=http://HOST:8123,session=ID; dio info shows a recording's session_id)");
		goto fail;
	}
	s->conf.url = s->url;
	s->conf.user = s->user;		/* with no password, as the server's default has none */
	ch_url_shown(s->url, s->conf.shown, sizeof(s->conf.shown));
	if (strncmp(s->url, "http://", 7) && strncmp(s->url, "https://", 8)) {
		snprintf(err, errlen, "--from clickhouse: url=%s: give the server's HTTP interface, "
			 "http://HOST:8123", s->conf.shown);
		goto fail;
	}
	s->conf.timeout_s = 30;
	if (timeout) {
		unsigned long t = strtoul(timeout, &end, 10);

		if (!*timeout || *end || t < 1 || t > 86400) {
			snprintf(err, errlen, "--from clickhouse: timeout_s=%.32s: seconds, 1 to 86400",
				 timeout);
			free(timeout);
			goto fail;
		}
		s->conf.timeout_s = (unsigned int)t;
		free(timeout);
	}
	s->conf.connect_s = s->conf.timeout_s;
	if (!s->database)
		s->database = strdup("dio");
	if (!s->prefix)
		s->prefix = strdup("");
	if (!s->database || !s->prefix || !valid_word(s->session) || !valid_word(s->database) ||
	    !valid_word(s->prefix) || strlen(s->session) > 64) {
		snprintf(err, errlen, "--from clickhouse: session=, database= and table_prefix= take "
			 "letters, digits, '_' and '-' only");
		goto fail;
	}
	snprintf(s->trace, sizeof(s->trace), "clickhouse:url=%s,session=%s,database=%s%s%s", s->conf.shown,
		 s->session, s->database, *s->prefix ? ",table_prefix=" : "", s->prefix);
	snprintf(sql, sizeof(sql), "SELECT host, boot_id, command, realtime_offset, info FROM `%s`.`%ssessions` "
		 "WHERE session = '%s' ORDER BY complete DESC LIMIT 1 FORMAT RowBinary",
		 s->database, s->prefix, s->session);
	if (ch_request(&s->conf, sql, NULL, 0, 0, &row, &rowlen, err, errlen))
		goto fail;
	{
		struct rd r = { (const unsigned char *)row, rowlen, 0, 0 };

		rd_str(&r, s->host, sizeof(s->host));
		rd_str(&r, s->boot_id, sizeof(s->boot_id));
		rd_str(&r, s->command, sizeof(s->command));
		s->realtime_off = (int64_t)rd_n(&r, 8);
		rd_str(&r, s->info, sizeof(s->info));
		free(row);
		if (!rowlen || r.bad || r.off != rowlen) {
			snprintf(err, errlen, "--from clickhouse: no session %s in %s at %s%s",
				 s->session, s->database, s->conf.shown,
				 rowlen ? " (its row is not as dio writes it)" : "");
			goto fail;
		}
	}
	chsource__meta(s, "tracer_pid", s->tracer_pid, sizeof(s->tracer_pid));
	chsource__meta(s, "fstypes", s->fstypes, sizeof(s->fstypes));
	s->m = curl_multi_init();
	if (!s->m) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (unsigned int k = 0; k < NSRC; k++)
		if (start(s, k, err, errlen))
			goto fail;
	return s;
fail:
	chsource__close(s);
	return NULL;
}

/* realtime_offset_ns, or a key of the session row's info: tracer_pid, fstypes, the losses */
static int chsource__meta(void *state, const char *key, char *buf, size_t len)
{
	const struct chsource *s = state;
	size_t kl = strlen(key);

	if (!strcmp(key, "realtime_offset_ns")) {
		snprintf(buf, len, "%" PRId64, s->realtime_off);
		return 0;
	}
	for (const char *l = s->info; *l; ) {
		const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);

		if ((size_t)(end - l) > kl && !strncmp(l, key, kl) && l[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)(end - l - kl - 1), l + kl + 1);
			return 0;
		}
		l = nl ? nl + 1 : end;
	}
	if (len)
		buf[0] = 0;
	return -ENOENT;
}

static const char *chsource__info(void *state, const char *key)
{
	const struct chsource *s = state;

	if (!strcmp(key, "hostname"))
		return s->host;
	if (!strcmp(key, "boot_id"))
		return s->boot_id;
	if (!strcmp(key, "command"))
		return s->command;
	if (!strcmp(key, "session_id"))
		return s->session;
	if (!strcmp(key, "trace"))
		return s->trace;
	if (!strcmp(key, "tracer_pid"))
		return *s->tracer_pid ? s->tracer_pid : NULL;
	if (!strcmp(key, "fstypes"))
		return *s->fstypes ? s->fstypes : NULL;
	return NULL;
}

static const char *chsource__error(void *state)
{
	const struct chsource *s = state;

	return s->err;
}

/* the transfers that ended, marked so */
static void reap(struct chsource *s)
{
	CURLMsg *msg;
	int left;

	while ((msg = curl_multi_info_read(s->m, &left)))
		for (unsigned int k = 0; k < NSRC; k++)
			if (msg->msg == CURLMSG_DONE && msg->easy_handle == s->c[k].h) {
				s->c[k].done = 1;
				s->c[k].result = msg->data.result;
			}
}

/*
 * Until cursor c has more bytes than it had, or its transfer ended: 0, or
 * -ETIMEDOUT (s->err says so) when the server sent nothing for timeout_s.
 */
static int more(struct chsource *s, struct cursor *c)
{
	uint64_t got = c->got;
	int running;

	if (c->paused) {
		/* its rows were taken: it may go on (a pause is not the server's time) */
		c->paused = 0;
		c->last_ms = ch_now_ms();
		curl_easy_pause(c->h, CURLPAUSE_CONT);
	}
	for (;;) {
		curl_multi_perform(s->m, &running);
		reap(s);
		if (c->got != got || c->done)
			return 0;
		if (ch_now_ms() - c->last_ms >= (uint64_t)s->conf.timeout_s * 1000) {
			snprintf(s->err, sizeof(s->err), "%s sent nothing for %u s (timeout_s=%u) while "
				 "dio waited for the rows of %s", s->conf.shown, s->conf.timeout_s, s->conf.timeout_s,
				 ch_tables[sources[c - s->c].t].name);
			return -ETIMEDOUT;
		}
		curl_multi_poll(s->m, NULL, 0, 100, NULL);
	}
}

/* the next record of table k into its cursor (have set), or none left: 0, or -errno */
static int fill(struct chsource *s, unsigned int k)
{
	struct cursor *c = &s->c[k];
	const char *name = ch_tables[sources[k].t].name;

	while (!c->have) {
		size_t used = 0;
		long n = -EAGAIN, code = 0;
		int e;

		/* the status comes before the rows: an error's text is no row */
		curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &code);
		if (c->done && (c->result != CURLE_OK || code != 200)) {
			ch_failure(c->h, &s->conf, c->result, c->p ? (const char *)c->p + c->off : NULL,
				   c->len - c->off, s->err, sizeof(s->err));
			return -EIO;
		}
		if (code == 200 && c->off < c->len)
			n = chsource__row(k, c->p + c->off, c->len - c->off, s->realtime_off, c->rec,
					  sizeof(c->rec), &c->rn, &used);
		if (n > 0) {
			c->off += used;
			c->size = (size_t)n;
			c->have = 1;
			continue;
		}
		if (n == -EINVAL || (code == 200 && c->len - c->off > ROW_MAX + 64)) {
			snprintf(s->err, sizeof(s->err), "%s sent a row of %s that is not as dio writes it",
				 s->conf.shown, name);
			return -EINVAL;
		}
		if (c->done) {
			if (c->off == c->len)
				return 0;	/* none left */
			snprintf(s->err, sizeof(s->err), "%s ended the rows of %s in the middle of one",
				 s->conf.shown, name);
			return -EINVAL;
		}
		e = more(s, c);
		if (e)
			return e;
	}
	return 0;
}

/* the record of lowest record number among the tables' next ones */
static int chsource__next(void *state, const void **rec, size_t *size)
{
	struct chsource *s = state;
	unsigned int best = NSRC;

	for (unsigned int k = 0; k < NSRC; k++) {
		int e = fill(s, k);

		if (e)
			return e;
		if (s->c[k].have && (best == NSRC || s->c[k].rn < s->c[best].rn))
			best = k;
	}
	if (best == NSRC)
		return 0;
	s->c[best].have = 0;
	*rec = s->c[best].rec;
	*size = s->c[best].size;
	return 1;
}

const struct dio_source dio_source = {
	.abi = DIO_SOURCE_ABI,
	.size = sizeof(struct dio_source),
	.name = "clickhouse",
	.description = "a session the clickhouse sink stored: --from clickhouse:url=URL,session=ID",
	.scheme = "clickhouse",
	.open = chsource__open,
	.next = chsource__next,
	.error = chsource__error,
	.info = chsource__info,
	.meta = chsource__meta,
	.close = chsource__close,
};
