// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The clickhouse sink's sender (sender.h): HTTP requests with libcurl, the
 * thread that sends batches in order, and the spool directory.
 *
 * A spool file holds one batch: a few lines of text (the INSERT, the table,
 * the session, the batch number, its rows, whether it was ever sent), an
 * empty line, then the gzip body exactly as it goes on the wire. It is
 * written under a temporary name and renamed, so a file that is there is
 * whole. Files are named session-table-batch, so that a directory listing
 * sorted by name sends each session's batches in the order they were made.
 */
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "sinks/clickhouse/schema.h"
#include "sinks/clickhouse/sender.h"

#define QUEUE_MAX	(64u << 20)	/* bytes of batches waiting in memory */
#define BACKOFF_MIN_MS	250
#define BACKOFF_MAX_MS	30000
#define REJECTS_MAX	3		/* a batch the server refused: sent again this often */
#define SPOOL_MAGIC	"dio-clickhouse-spool 1\n"

struct sender {
	const struct ch_conf *c;
	const struct dio_host *host;
	struct dio_ctx *ctx;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct ch_batch *qhead, *qtail;		/* new batches */
	struct ch_batch *shead, *stail;		/* batches in the spool, oldest first */
	size_t qbytes;
	uint64_t spool_bytes;
	int dirfd;
	int stopping, started;
	uint64_t deadline_ms;			/* stopping: give up sending then */
	struct ch_counts n;
	uint64_t logged_down;			/* times the server was said to be away */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void ch_batch_free(struct ch_batch *b)
{
	if (!b)
		return;
	free(b->query);
	free(b->table);
	free(b->body);
	free(b);
}

int ch_quote(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (len < 3)
		return -1;
	buf[o++] = '\'';
	for (; *s; s++) {
		if (o + 4 >= len)
			return -1;
		if (*s == '\'' || *s == '\\')
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return (int)o;
}

/* ---- HTTP ------------------------------------------------------------------------ */

struct resp {
	char *p;
	size_t len;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ud)
{
	struct resp *r = ud;
	size_t n = size * nmemb;
	char *p;

	if (r->len + n > (16u << 20))	/* an answer this large is not one of ours */
		return 0;
	p = realloc(r->p, r->len + n + 1);
	if (!p)
		return 0;
	memcpy(p + r->len, ptr, n);
	r->p = p;
	r->len += n;
	p[r->len] = 0;
	return n;
}

/*
 * 0; -ECONNREFUSED when nothing reached the server; -EIO when the request may
 * have reached it but no answer came (a batch so sent is looked up before it
 * is sent again); -EPROTO when the server answered with an error.
 */
static int request(CURL *h, const struct ch_conf *c, const char *sql, const void *body,
		   size_t len, int gz, char **out, char *err, size_t errlen)
{
	struct curl_slist *hdr = NULL;
	struct resp r = { 0 };
	char *q = curl_easy_escape(h, sql, 0);
	char *url = NULL;
	long code = 0;
	CURLcode e;
	int ret = 0;

	/* every table is named with its database: none is set here, as it may not exist yet */
	if (!q || asprintf(&url, "%s/?query=%s", c->url, q) < 0) {
		snprintf(err, errlen, "out of memory");
		url = NULL;
		ret = -ENOMEM;
		goto out;
	}
	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body ? body : "");
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(body ? len : 0));
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 5L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)c->timeout_s);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
	/* only the URL given: no redirects, no other protocols */
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	if (c->user) {
		curl_easy_setopt(h, CURLOPT_USERNAME, c->user);
		curl_easy_setopt(h, CURLOPT_PASSWORD, c->password ? c->password : "");
	}
	if (gz)
		hdr = curl_slist_append(hdr, "Content-Encoding: gzip");
	hdr = curl_slist_append(hdr, "Content-Type: application/octet-stream");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	e = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (e != CURLE_OK) {
		snprintf(err, errlen, "%s: %s", c->url, curl_easy_strerror(e));
		ret = e == CURLE_COULDNT_CONNECT || e == CURLE_COULDNT_RESOLVE_HOST ||
		      e == CURLE_COULDNT_RESOLVE_PROXY ? -ECONNREFUSED : -EIO;
	} else if (code != 200) {
		size_t n = r.p ? strcspn(r.p, "\n") : 0;

		snprintf(err, errlen, "%s answered %ld: %.*s", c->url, code, (int)(n < 300 ? n : 300),
			 r.p ? r.p : "");
		ret = -EPROTO;
	}
	if (!ret && out) {
		*out = r.p ? r.p : strdup("");
		r.p = NULL;
		if (!*out)
			ret = -ENOMEM;
	}
out:
	curl_slist_free_all(hdr);
	curl_free(q);
	free(url);
	free(r.p);
	return ret;
}

int ch_request(const struct ch_conf *c, const char *sql, const void *body, size_t len, int gz,
	       char **out, char *err, size_t errlen)
{
	CURL *h = curl_easy_init();
	int ret;

	if (!h) {
		snprintf(err, errlen, "cannot start libcurl");
		return -ENOMEM;
	}
	ret = request(h, c, sql, body, len, gz, out, err, errlen);
	curl_easy_cleanup(h);
	return ret;
}

/* ---- the spool ---------------------------------------------------------------------- */

static void spool_name(const struct ch_batch *b, char *buf, size_t len)
{
	const char *t = strrchr(b->table, '.');

	/* `db`.`prefix_calls` -> prefix_calls: the table names are [A-Za-z0-9_] */
	snprintf(buf, len, "%s-%.*s-%020" PRIu64 ".spool", b->session,
		 (int)strcspn(t ? t + 2 : b->table, "`"), t ? t + 2 : b->table, b->batch);
}

/* write all of buf to fd: 0 or -errno */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* b into the spool (mu held or not: only the file system is touched); 0 or -errno */
static int spool_write(struct sender *s, struct ch_batch *b)
{
	char head[8192], tmp[128];
	int fd, n, e;

	spool_name(b, b->spooled, sizeof(b->spooled));
	snprintf(tmp, sizeof(tmp), ".%s.tmp", b->spooled);
	n = snprintf(head, sizeof(head), SPOOL_MAGIC "query %s\ntable %s\nkind %d\nsession %s\n"
		     "batch %" PRIu64 "\nseq %" PRIu64 "\nrows %" PRIu64 "\ntried %d\n\n", b->query,
		     b->table, b->kind, b->session, b->batch, b->seq, b->rows, b->tried);
	if (n < 0 || (size_t)n >= sizeof(head))
		return -ENAMETOOLONG;
	fd = openat(s->dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	e = write_all(fd, head, (size_t)n);
	if (!e)
		e = write_all(fd, b->body, b->len);
	if (!e && fsync(fd))
		e = -errno;
	close(fd);
	if (!e && renameat(s->dirfd, tmp, s->dirfd, b->spooled))
		e = -errno;
	if (e) {
		unlinkat(s->dirfd, tmp, 0);
		b->spooled[0] = 0;
	}
	return e;
}

/* a spool file's header into b (body not read); 0 or -EINVAL */
static int spool_parse(struct ch_batch *b, char *head)
{
	char *save = NULL, *line;

	if (strncmp(head, SPOOL_MAGIC, strlen(SPOOL_MAGIC)))
		return -EINVAL;
	for (line = strtok_r(head + strlen(SPOOL_MAGIC), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "query ", 6))
			b->query = strdup(line + 6);
		else if (!strncmp(line, "table ", 6))
			b->table = strdup(line + 6);
		else if (!strncmp(line, "session ", 8))
			snprintf(b->session, sizeof(b->session), "%s", line + 8);
		else if (!strncmp(line, "batch ", 6))
			b->batch = strtoull(line + 6, NULL, 10);
		else if (!strncmp(line, "seq ", 4))
			b->seq = strtoull(line + 4, NULL, 10);
		else if (!strncmp(line, "kind ", 5))
			b->kind = atoi(line + 5);
		else if (!strncmp(line, "rows ", 5))
			b->rows = strtoull(line + 5, NULL, 10);
		else if (!strncmp(line, "tried ", 6))
			b->tried = atoi(line + 6);
	}
	return b->query && b->table && b->session[0] && b->kind >= 0 && b->kind < CH_TABLES ?
	       0 : -EINVAL;
}

/* the body of a spooled batch, read back; 0 or -errno */
static int spool_read(struct sender *s, struct ch_batch *b)
{
	int fd = openat(s->dirfd, b->spooled, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char *all = NULL, *sep;
	size_t got = 0;
	int e = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (1LL << 32)) {
		close(fd);
		return -EINVAL;
	}
	all = malloc((size_t)st.st_size + 1);
	while (all && got < (size_t)st.st_size) {
		ssize_t n = read(fd, all + got, (size_t)st.st_size - got);

		if (n <= 0) {
			e = n < 0 ? -errno : -EINVAL;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (!all)
		return -ENOMEM;
	all[got] = 0;
	sep = e ? NULL : strstr(all, "\n\n");
	if (!sep) {
		free(all);
		return e ? e : -EINVAL;
	}
	*sep = 0;
	if (!b->query && spool_parse(b, all)) {
		free(all);
		return -EINVAL;
	}
	b->len = got - (size_t)(sep + 2 - all);
	b->body = malloc(b->len ? b->len : 1);
	if (b->body)
		memcpy(b->body, sep + 2, b->len);
	free(all);
	return b->body ? 0 : -ENOMEM;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the batches an earlier run left in the spool, oldest first */
static void spool_scan(struct sender *s)
{
	DIR *d = fdopendir(dup(s->dirfd));
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct stat st;

		if (de->d_name[0] == '.' || l < 7 || strcmp(de->d_name + l - 6, ".spool") ||
		    l >= sizeof(((struct ch_batch *)0)->spooled) ||
		    fstatat(s->dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			char **v = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!v)
				break;
			names = v;
		}
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
		s->spool_bytes += (uint64_t)st.st_size;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct ch_batch *b = calloc(1, sizeof(*b));

		if (b) {
			snprintf(b->spooled, sizeof(b->spooled), "%s", names[i]);
			b->tried = 1;	/* not known: look it up first */
			if (s->stail)
				s->stail->next = b;
			else
				s->shead = b;
			s->stail = b;
		}
		free(names[i]);
	}
	free(names);
	if (n)
		s->host->log(s->ctx, "%zu batches left in the spool %s by an earlier run: sending them first",
			     n, s->c->spool);
}

static uint64_t file_size(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) ? 0 : (uint64_t)st.st_size;
}

/* b, not sent, into the spool if there is room (else dropped and counted); mu held */
static void to_spool(struct sender *s, struct ch_batch *b)
{
	if (!b->spooled[0]) {
		if (s->spool_bytes + b->len + 4096 > s->c->spool_max || spool_write(s, b)) {
			s->n.dropped_rows += b->rows;
			ch_batch_free(b);
			return;
		}
		s->spool_bytes += file_size(s->dirfd, b->spooled);
		s->n.spooled_batches++;
		free(b->body);		/* it is on disk: read back when sent */
		b->body = NULL;
	}
	b->next = NULL;
	if (s->stail)
		s->stail->next = b;
	else
		s->shead = b;
	s->stail = b;
}

/* ---- the thread ------------------------------------------------------------------------ */

/* ---- a batch the server kept part of ------------------------------------------------ */

/* gzip body <-> RowBinary rows */
static int gunzip(const unsigned char *in, size_t len, unsigned char **out, size_t *olen)
{
	z_stream z = { 0 };
	size_t cap = len * 4 + 4096;
	int e = Z_OK;

	if (inflateInit2(&z, 31) != Z_OK)
		return -ENOMEM;
	*out = NULL;
	*olen = 0;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	while (e != Z_STREAM_END) {
		unsigned char *p = realloc(*out, cap);

		if (!p) {
			e = Z_MEM_ERROR;
			break;
		}
		*out = p;
		z.next_out = p + *olen;
		z.avail_out = (uInt)(cap - *olen);
		e = inflate(&z, Z_NO_FLUSH);
		*olen = cap - z.avail_out;
		if (e != Z_OK && e != Z_STREAM_END)
			break;
		cap *= 2;
	}
	inflateEnd(&z);
	if (e != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return -EINVAL;
	}
	return 0;
}

int ch_gzip(const unsigned char *in, size_t len, unsigned char **out, size_t *olen)
{
	z_stream z = { 0 };
	size_t cap;
	int e;

	if (deflateInit2(&z, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	cap = deflateBound(&z, len) + 64;
	*out = malloc(cap);
	if (!*out) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	z.next_out = *out;
	z.avail_out = (uInt)cap;
	e = deflate(&z, Z_FINISH);
	*olen = cap - z.avail_out;
	deflateEnd(&z);
	if (e != Z_STREAM_END) {
		free(*out);
		return -EIO;
	}
	return 0;
}

/* the bytes the first n rows of a table's RowBinary take at p (len bytes); -1 if fewer */
static ssize_t rows_len(int kind, const unsigned char *p, size_t len, uint64_t n)
{
	const struct ch_col *cols = ch_tables[kind].cols;
	size_t o = 0;

	for (uint64_t r = 0; r < n; r++)
		for (int i = 0; cols[i].name; i++) {
			const char *t = cols[i].type;

			if (!strcmp(t, "String")) {
				uint64_t l = 0;
				unsigned int sh = 0;

				do {
					if (o >= len || sh > 63)
						return -1;
					l |= (uint64_t)(p[o] & 0x7f) << sh;
					sh += 7;
				} while (p[o++] & 0x80);
				if (l > len - o)
					return -1;
				o += l;
			} else {
				size_t w = strstr(t, "64") ? 8 : strstr(t, "32") ? 4 : strstr(t, "16") ? 2 : 1;

				if (w > len - o)
					return -1;
				o += w;
			}
		}
	return (ssize_t)o;
}

/* b less its first k rows, which the server kept: 0 or -errno */
static int drop_head(struct ch_batch *b, uint64_t k)
{
	unsigned char *raw, *gz;
	size_t rlen, glen;
	ssize_t skip;
	int e = gunzip(b->body, b->len, &raw, &rlen);

	if (e)
		return e;
	skip = rows_len(b->kind, raw, rlen, k);
	e = skip < 0 ? -EINVAL : ch_gzip(raw + skip, rlen - (size_t)skip, &gz, &glen);
	free(raw);
	if (e)
		return e;
	free(b->body);
	b->body = gz;
	b->len = glen;
	b->rows -= k;
	b->seq += k;
	return 0;
}

/*
 * How much of batch b of its session is in its table already: 1 all of it,
 * 0 none (or, after a cut at a row's end, its first rows: b is then cut to
 * the rest), or -errno (the server away)
 */
static int landed(CURL *h, struct sender *s, struct ch_batch *b, char *err, size_t errlen)
{
	char sql[512], q[64], *out = NULL;
	unsigned long long n = 0, lo = 0, hi = 0;
	int ret;

	if (ch_quote(b->session, q, sizeof(q)) < 0)
		return -EINVAL;
	snprintf(sql, sizeof(sql), "SELECT count(), min(seq), max(seq) FROM %s WHERE session = %s "
		 "AND batch = %" PRIu64 " AND seq >= %" PRIu64 " FORMAT TabSeparated", b->table, q,
		 b->batch, b->seq);
	ret = request(h, s->c, sql, NULL, 0, 0, &out, err, errlen);
	if (ret)
		return ret;
	sscanf(out, "%llu\t%llu\t%llu", &n, &lo, &hi);
	free(out);
	if (!n)
		return 0;
	if (n >= b->rows)
		return 1;
	/* the rows before a cut: the first n, one after another */
	if (lo != b->seq || hi != b->seq + n - 1) {
		snprintf(err, errlen, "batch %" PRIu64 " of %s is in part, and not its first rows: "
			 "left as it is", b->batch, b->table);
		return -EPROTO;
	}
	s->n.partial_batches++;
	return drop_head(b, n) ? -EINVAL : 0;
}

/* send b (mu not held): 0 sent or found there, else request()'s error */
static int send_batch(CURL *h, struct sender *s, struct ch_batch *b, char *err, size_t errlen)
{
	int e;

	if (b->tried) {
		e = landed(h, s, b, err, errlen);
		if (e < 0)
			return e;
		if (e > 0) {
			s->n.dup_batches++;
			b->rows = 0;	/* none sent now */
			return 0;
		}
	}
	e = request(h, s->c, b->query, b->body, b->len, 1, NULL, err, errlen);
	if (e == -EIO)
		b->tried = 1;
	return e;
}

static void *run(void *arg)
{
	struct sender *s = arg;
	CURL *h = curl_easy_init();
	uint64_t backoff = BACKOFF_MIN_MS, retry_at = 0;
	unsigned int rejects = 0;
	char err[512];

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct ch_batch *b;
		int from_spool, e;

		if (s->stopping && now_ms() >= s->deadline_ms)
			break;
		if (!s->qhead && !s->shead) {
			if (s->stopping)
				break;
			pthread_cond_wait(&s->cv, &s->mu);
			continue;
		}
		/* the server is away: new batches go to the spool until it is time to try */
		if (retry_at && now_ms() < retry_at) {
			struct timespec until;
			uint64_t at = s->stopping && s->deadline_ms < retry_at ? s->deadline_ms : retry_at;
			uint64_t now = now_ms(), wait = at > now ? at - now : 0;

			while ((b = s->qhead)) {
				s->qhead = b->next;
				s->qbytes -= b->len;
				to_spool(s, b);
			}
			s->qtail = NULL;
			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_sec += (time_t)(wait / 1000);
			until.tv_nsec += (long)(wait % 1000) * 1000000;
			if (until.tv_nsec >= 1000000000) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->cv, &s->mu, &until);
			continue;
		}
		/* the spool first: its batches are older */
		from_spool = !!s->shead;
		b = from_spool ? s->shead : s->qhead;
		pthread_mutex_unlock(&s->mu);
		e = from_spool && !b->body ? spool_read(s, b) : 0;
		if (e) {
			/* a spool file that cannot be read back: said, and left where it is */
			s->host->log(s->ctx, "spool file %s/%s cannot be read (%s): left there",
				     s->c->spool, b->spooled, strerror(-e));
			pthread_mutex_lock(&s->mu);
			s->shead = b->next;
			if (!s->shead)
				s->stail = NULL;
			s->n.failures++;
			ch_batch_free(b);
			continue;
		}
		e = h ? send_batch(h, s, b, err, sizeof(err)) : -ENOMEM;
		pthread_mutex_lock(&s->mu);
		if (e == -EPROTO && ++rejects <= REJECTS_MAX)
			e = -EAGAIN;	/* as if away: tried again after a while */
		if (!e || e == -EPROTO || e == -ENOMEM || e == -EINVAL) {
			/* sent, or refused for good: off the queue */
			if (from_spool) {
				s->shead = b->next;
				if (!s->shead)
					s->stail = NULL;
				s->spool_bytes -= file_size(s->dirfd, b->spooled);
				unlinkat(s->dirfd, b->spooled, 0);
			} else {
				s->qhead = b->next;
				if (!s->qhead)
					s->qtail = NULL;
				s->qbytes -= b->len;
			}
			if (!e) {
				s->n.sent_rows += b->rows;
				s->n.sent_batches++;
				if (s->logged_down) {
					s->host->log(s->ctx, "%s answers again: sending what waited",
						     s->c->url);
					s->logged_down = 0;
				}
			} else {
				s->host->log(s->ctx, "%" PRIu64 " rows not stored: %s", b->rows, err);
				s->n.dropped_rows += b->rows;
				s->n.failures++;
			}
			ch_batch_free(b);
			retry_at = 0;
			backoff = BACKOFF_MIN_MS;
			rejects = 0;
			continue;
		}
		/* away, or no answer: keep it, in the spool, and wait before trying again */
		s->n.failures++;
		if (!s->logged_down++)
			s->host->log(s->ctx, "%s: batches wait in the spool %s until it answers",
				     err, s->c->spool);
		if (!from_spool) {
			s->qhead = b->next;
			if (!s->qhead)
				s->qtail = NULL;
			s->qbytes -= b->len;
			to_spool(s, b);
		} else if (b->tried && b->body) {
			/* remember that it may have been sent: rewrite its header */
			char name[sizeof(b->spooled)];

			snprintf(name, sizeof(name), "%s", b->spooled);
			if (!spool_write(s, b))
				snprintf(b->spooled, sizeof(b->spooled), "%s", name);
			free(b->body);
			b->body = NULL;
		} else {
			free(b->body);
			b->body = NULL;
		}
		retry_at = now_ms() + backoff;
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
	/* what could not be sent in time stays in the spool */
	while (s->qhead) {
		struct ch_batch *b = s->qhead;

		s->qhead = b->next;
		s->qbytes -= b->len;
		to_spool(s, b);
	}
	s->qtail = NULL;
	for (struct ch_batch *b = s->shead, *next; b; b = next) {
		next = b->next;
		s->n.left_rows += b->rows;
		s->n.left_batches++;
		ch_batch_free(b);
	}
	s->shead = s->stail = NULL;
	pthread_mutex_unlock(&s->mu);
	if (h)
		curl_easy_cleanup(h);
	return NULL;
}

/* the spool directory: made if missing, ours, not a link, not open to others */
static int open_spool(const struct ch_conf *c, const struct dio_host *host, struct dio_ctx *ctx)
{
	struct stat st;
	int fd;

	if (mkdir(c->spool, 0700) && errno != EEXIST) {
		host->log(ctx, "cannot make the spool directory %s: %s (give spool=DIR)", c->spool,
			  strerror(errno));
		return -errno;
	}
	fd = open(c->spool, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		host->log(ctx, "cannot open the spool directory %s: %s%s", c->spool, strerror(e),
			  e == ELOOP || e == ENOTDIR ? " (a symbolic link or not a directory)" : "");
		return -e;
	}
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		host->log(ctx, "the spool directory %s is not private to this user: chmod 700 it, "
			  "or give another with spool=DIR", c->spool);
		close(fd);
		return -EPERM;
	}
	return fd;
}

int sender_start(struct sender **out, const struct ch_conf *c, const struct dio_host *host,
		 struct dio_ctx *ctx)
{
	struct sender *s = calloc(1, sizeof(*s));
	int e;

	if (!s)
		return -ENOMEM;
	s->c = c;
	s->host = host;
	s->ctx = ctx;
	s->dirfd = open_spool(c, host, ctx);
	if (s->dirfd < 0) {
		e = s->dirfd;
		free(s);
		return e;
	}
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	/* another dio sending from the same spool would send its batches twice */
	if (!flock(s->dirfd, LOCK_EX | LOCK_NB))
		spool_scan(s);
	else
		host->log(ctx, "the spool %s is in use by another dio: its batches are left to it",
			  c->spool);
	e = pthread_create(&s->th, NULL, run, s);
	if (e) {
		close(s->dirfd);
		free(s);
		return -e;
	}
	s->started = 1;
	*out = s;
	return 0;
}

void sender_put(struct sender *s, struct ch_batch *b)
{
	pthread_mutex_lock(&s->mu);
	if (s->qbytes + b->len > QUEUE_MAX) {
		/* the sender is far behind: to disk, not to more memory */
		to_spool(s, b);
	} else {
		b->next = NULL;
		if (s->qtail)
			s->qtail->next = b;
		else
			s->qhead = b;
		s->qtail = b;
		s->qbytes += b->len;
	}
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void sender_stop(struct sender *s, unsigned int drain_s, struct ch_counts *n)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->stopping = 1;
	s->deadline_ms = now_ms() + (uint64_t)drain_s * 1000;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	if (s->started)
		pthread_join(s->th, NULL);
	*n = s->n;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	close(s->dirfd);
	free(s);
}
