// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The clickhouse sink's sender (sender.h): HTTP requests with libcurl, the
 * thread that sends batches in order, the spool directory and the session
 * locks in it.
 *
 * A spool file holds one batch: a few lines of text (the INSERT, the table,
 * the session, the batch number, its rows, whether it may have reached the
 * server, whether it is a session's end row, and which server and database
 * it is for), an empty line, then the gzip body exactly as it goes on the
 * wire. It is written under a temporary name and renamed, so a file that is
 * there is whole. Files are named session-dest-table-batch, so that a
 * directory listing sorted by name sends each session's batches in the
 * order they were made (its end row, in the sessions table, after its
 * other rows), and the same batch made again has the same name.
 *
 * A session's lock is the flock of SESSION.lock in the spool. Its holder
 * removes the file before it lets go; whoever locks a file checks that it
 * is still the one of that name, so that two never hold a session at once.
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

#define BACKOFF_MIN_MS	250
#define BACKOFF_MAX_MS	30000
#define HELD_MAX	256		/* sessions whose batches one dio sends */
#define SPOOL_MAGIC	"dio-clickhouse-spool 2\n"

/* a session this dio sends batches of, and holds the lock of */
struct held {
	char session[CH_ID_MAX + 1];
	int fd;				/* its lock file */
	uint64_t batches;		/* taken from the spool and not done yet */
	int lost;			/* rows of it were lost: its end row is not sent */
};

struct sender {
	const struct ch_conf *c;
	const struct dio_host *host;
	struct dio_ctx *ctx;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct ch_batch *qhead, *qtail;		/* new batches */
	struct ch_batch *shead, *stail;		/* batches in the spool (or held back), oldest first */
	size_t qbytes;
	size_t mbytes;				/* of those in the spool list kept in memory */
	uint64_t spool_bytes;
	int dirfd;
	int stopping, started;
	uint64_t deadline_ms;			/* stopping: give up sending then */
	struct ch_counts n;
	uint64_t logged_down;			/* times the server was said to be away */
	struct held held[HELD_MAX];		/* [0]: the session of this run */
	unsigned int nheld;
	/* the session's batches found in the spool at the start: set before the thread runs */
	struct spooled { char t[72]; uint64_t batch; } *own;
	size_t nown;
	sender_ready_fn ready;			/* NULL once it succeeded (or when none) */
	void *ready_ud;
	int refused;				/* ready failed for good: every batch to the spool */
};

uint64_t ch_now_ms(void)
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

int ch_setup(CURL *h, const struct ch_conf *c, const char *sql, char *err, size_t errlen)
{
	char *q = curl_easy_escape(h, sql, 0), *url = NULL;

	/* every table is named with its database: none is set here, as it may not exist yet */
	if (!q || asprintf(&url, "%s/?query=%s", c->url, q) < 0) {
		snprintf(err, errlen, "out of memory");
		curl_free(q);
		return -ENOMEM;
	}
	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)(c->connect_s ? c->connect_s : 5));
	/* only the URL given: no redirects, no other protocols */
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	if (c->user) {
		curl_easy_setopt(h, CURLOPT_USERNAME, c->user);
		curl_easy_setopt(h, CURLOPT_PASSWORD, c->password ? c->password : "");
	}
	curl_free(q);
	free(url);
	return 0;
}

void ch_failure(CURL *h, const struct ch_conf *c, CURLcode e, const char *body, size_t len,
		char *err, size_t errlen)
{
	char line[320];
	long code = 0;

	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (e != CURLE_OK) {
		snprintf(err, errlen, "%s: %s", c->shown, curl_easy_strerror(e));
	} else {
		ch_first_line(body ? body : "", body ? len : 0, line, sizeof(line));
		snprintf(err, errlen, "%s answered %ld: %s", c->shown, code, line);
	}
}

/*
 * 0; -ECONNREFUSED when nothing reached the server; -EIO when the request may
 * have reached it but no answer came; -EPROTO when an error came back (from
 * the server, or from a proxy that may have passed the request on). A batch
 * so sent is looked up before it is sent again.
 */
static int request(CURL *h, const struct ch_conf *c, const char *sql, const void *body,
		   size_t len, int gz, char **out, size_t *outlen, char *err, size_t errlen)
{
	struct curl_slist *hdr = NULL;
	struct resp r = { 0 };
	long code = 0;
	CURLcode e;
	int ret;

	ret = ch_setup(h, c, sql, err, errlen);
	if (ret)
		goto out;
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body ? body : "");
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(body ? len : 0));
	/*
	 * libcurl sends a request again by itself when a connection it reused
	 * closes before any answer: a batch the server may have stored would be
	 * stored twice. A batch goes on a connection of its own, so that it never
	 * does, and the look-up decides.
	 */
	if (body) {
		curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
		curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
	}
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)c->timeout_s);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
	if (gz)
		hdr = curl_slist_append(hdr, "Content-Encoding: gzip");
	hdr = curl_slist_append(hdr, "Content-Type: application/octet-stream");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	e = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (e != CURLE_OK || code != 200)
		ch_failure(h, c, e, r.p, r.len, err, errlen);
	if (e != CURLE_OK)
		ret = e == CURLE_COULDNT_CONNECT || e == CURLE_COULDNT_RESOLVE_HOST ||
		      e == CURLE_COULDNT_RESOLVE_PROXY ? -ECONNREFUSED : -EIO;
	else if (code != 200)
		ret = -EPROTO;
	if (!ret && out) {
		*out = r.p ? r.p : strdup("");
		if (outlen)
			*outlen = r.len;
		r.p = NULL;
		if (!*out)
			ret = -ENOMEM;
	}
out:
	curl_slist_free_all(hdr);
	free(r.p);
	return ret;
}

int ch_request(const struct ch_conf *c, const char *sql, const void *body, size_t len, int gz,
	       char **out, size_t *outlen, char *err, size_t errlen)
{
	CURL *h = curl_easy_init();
	int ret;

	if (!h) {
		snprintf(err, errlen, "cannot start libcurl");
		return -ENOMEM;
	}
	ret = request(h, c, sql, body, len, gz, out, outlen, err, errlen);
	curl_easy_cleanup(h);
	return ret;
}

/* ---- the spool directory and the session locks -------------------------------------- */

/*
 * path opened as a directory without following a symbolic link in any of
 * its parts (a link planted in a parent would move the spool, and what root
 * writes there, elsewhere); its last part made (0700) if missing. The fd,
 * or -errno with the part at fault in bad.
 */
static int open_dir_nofollow(const char *path, char *bad, size_t badlen)
{
	char *copy = strdup(path), *part, *next, *save = NULL;
	int fd, e = 0;

	snprintf(bad, badlen, "%s", path);
	if (!copy)
		return -ENOMEM;
	fd = open(*path == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (part = strtok_r(copy, "/", &save); fd >= 0 && part; part = next) {
		int nfd;

		next = strtok_r(NULL, "/", &save);
		nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && !next && !mkdirat(fd, part, 0700))
			nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			struct stat st;

			e = -errno;
			/* O_DIRECTORY may say ENOTDIR of a link to a directory */
			if (!fstatat(fd, part, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
				e = -ELOOP;
			/* the path up to the part at fault */
			snprintf(bad, badlen, "%.*s", (int)(part - copy + strlen(part)), path);
		}
		close(fd);
		fd = e ? -1 : nfd;
	}
	if (fd < 0 && !e)
		e = -errno;
	free(copy);
	return e ? e : fd;
}

/* the spool directory: made if missing, ours, reached through no link, not open to others */
static int open_spool(const struct ch_conf *c, const struct dio_host *host, struct dio_ctx *ctx)
{
	char bad[4096];
	struct stat st;
	int fd = open_dir_nofollow(c->spool, bad, sizeof(bad));

	if (fd < 0) {
		if (fd == -ELOOP)
			host->log(ctx, "spool=%s: %s is a symbolic link, which dio does not follow: "
				  "give the directory it points to", c->spool, bad);
		else
			host->log(ctx, "cannot open the spool directory %s: %s: %s (give spool=DIR)",
				  c->spool, bad, strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		host->log(ctx, "the spool directory %s is not private to this user: chmod 700 it, "
			  "or give another with spool=DIR", c->spool);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/*
 * The lock of session: 0, -EWOULDBLOCK when another dio holds it and not
 * wait, or -errno. Waiting is said once.
 */
static int lock_session(struct sender *s, struct held *h, const char *session, int wait)
{
	char name[CH_ID_MAX + 8];
	int said = 0;

	snprintf(name, sizeof(name), "%s.lock", session);
	for (;;) {
		struct stat a, b;
		int fd = openat(s->dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd < 0)
			return -errno;
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;

			if (e != EWOULDBLOCK || !wait) {
				close(fd);
				return -e;
			}
			if (!said++)
				s->host->log(s->ctx, "session %s is being sent by another dio (its lock "
					     "%s/%s): waiting for it to finish", session, s->c->spool, name);
			if (flock(fd, LOCK_EX)) {
				e = errno;
				close(fd);
				return -e;
			}
		}
		/* its holder removed it as it let go: then lock the file there now */
		if (!fstat(fd, &a) && !fstatat(s->dirfd, name, &b, AT_SYMLINK_NOFOLLOW) &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			snprintf(h->session, sizeof(h->session), "%s", session);
			h->fd = fd;
			h->batches = 0;
			h->lost = 0;
			return 0;
		}
		close(fd);
	}
}

static void unlock_session(struct sender *s, struct held *h)
{
	char name[CH_ID_MAX + 8];

	if (h->fd < 0)
		return;
	snprintf(name, sizeof(name), "%s.lock", h->session);
	unlinkat(s->dirfd, name, 0);	/* while it is held: see lock_session */
	close(h->fd);
	h->fd = -1;
}

static struct held *held_find(struct sender *s, const char *session)
{
	for (unsigned int i = 0; i < s->nheld; i++)
		if (!strcmp(s->held[i].session, session))
			return &s->held[i];
	return NULL;
}

/* ---- the spool ---------------------------------------------------------------------- */

/* session-dest-table-batch.spool: 0, or -ENAMETOOLONG */
static int spool_name(const struct ch_conf *c, const struct ch_batch *b, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s-%016" PRIx64 "-%s-%020" PRIu64 ".spool", b->session, c->dest,
			 b->tshort, b->batch);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * A spool file's name taken apart (session, dest, table, batch): 0, or
 * -EINVAL when it is not one dio makes. Every part is checked: the session
 * and table become file names and SQL.
 */
static int spool_name_parse(const char *name, struct ch_batch *b, uint64_t *dest)
{
	char copy[sizeof(b->spooled)], *p[4], *save = NULL;
	size_t l = strlen(name);
	uint64_t v;
	int n = 0;

	if (l >= sizeof(copy) || l < 7 || strcmp(name + l - 6, ".spool"))
		return -EINVAL;
	memcpy(copy, name, l - 6);
	copy[l - 6] = 0;
	for (char *t = strtok_r(copy, "-", &save); t; t = strtok_r(NULL, "-", &save))
		if (n < 4)
			p[n++] = t;
		else
			return -EINVAL;
	if (n != 4 || !ch_valid_id(p[0]) || strlen(p[1]) != 16 || !ch_valid_name(p[2], 0) ||
	    strlen(p[2]) >= sizeof(b->tshort) || strlen(p[3]) != 20 || ch_reply_numbers(p[3], &v, 1))
		return -EINVAL;
	*dest = 0;
	for (int i = 0; i < 16; i++) {
		char ch = p[1][i];
		int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;

		if (d < 0)
			return -EINVAL;
		*dest = *dest << 4 | (uint64_t)d;
	}
	snprintf(b->session, sizeof(b->session), "%s", p[0]);
	snprintf(b->tshort, sizeof(b->tshort), "%s", p[2]);
	b->batch = v;
	snprintf(b->spooled, sizeof(b->spooled), "%s", name);
	return 0;
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

/* b (its body in memory) into the spool under its name, whole or not at all; 0 or -errno */
static int spool_write(struct sender *s, struct ch_batch *b)
{
	char head[8192], name[sizeof(b->spooled)], tmp[sizeof(b->spooled) + 8];
	int fd, n, e;

	e = spool_name(s->c, b, name, sizeof(name));
	if (e)
		return e;
	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	n = snprintf(head, sizeof(head), SPOOL_MAGIC "query %s\ntable %s\nkind %d\nsession %s\n"
		     "batch %" PRIu64 "\nseq %" PRIu64 "\nrows %" PRIu64 "\ntried %d\nfinal %d\n"
		     "dest %016" PRIx64 "\n\n", b->query, b->table, b->kind, b->session, b->batch,
		     b->seq, b->rows, b->tried, b->final, s->c->dest);
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
	if (!e && renameat(s->dirfd, tmp, s->dirfd, name))
		e = -errno;
	if (e)
		unlinkat(s->dirfd, tmp, 0);
	else
		snprintf(b->spooled, sizeof(b->spooled), "%s", name);
	return e;
}

/* one "key value" line of a spool header, a number: 0 or -EINVAL */
static int head_number(const char *line, const char *key, uint64_t *v)
{
	size_t k = strlen(key);

	return strncmp(line, key, k) || line[k] != ' ' || ch_reply_numbers(line + k + 1, v, 1) ?
	       -EINVAL : 0;
}

/*
 * A spool file's header, checked against its name (already in b): 0 or
 * -EINVAL. The query must be the INSERT of its table, the table a database
 * and table name dio makes, the rest what the name says.
 */
static int spool_parse(struct sender *s, struct ch_batch *b, char *head)
{
	char *save = NULL, *line, want[256], t[2][72];
	uint64_t v, batch = UINT64_MAX, kind = CH_TABLES, tried = 0, final = 0;
	int got = 0;

	if (strncmp(head, SPOOL_MAGIC, strlen(SPOOL_MAGIC)))
		return -EINVAL;
	for (line = strtok_r(head + strlen(SPOOL_MAGIC), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "query ", 6) && !b->query)
			b->query = strdup(line + 6);
		else if (!strncmp(line, "table ", 6) && !b->table)
			b->table = strdup(line + 6);
		else if (!strncmp(line, "session ", 8))
			got |= strcmp(line + 8, b->session) ? 0x100 : 1;
		else if (!head_number(line, "batch", &v))
			batch = v;
		else if (!head_number(line, "seq", &v))
			b->seq = v;
		else if (!head_number(line, "kind", &v))
			kind = v;
		else if (!head_number(line, "rows", &v))
			b->rows = v;
		else if (!head_number(line, "tried", &v))
			tried = v;
		else if (!head_number(line, "final", &v))
			final = v;
		else if (!strncmp(line, "dest ", 5))
			got |= strtoull(line + 5, NULL, 16) == s->c->dest ? 2 : 0x100;
		else
			got |= 0x100;
	}
	if (got != 3 || !b->query || !b->table || batch != b->batch || kind >= CH_TABLES ||
	    tried > 1 || final > 1 || sscanf(b->table, "`%71[A-Za-z0-9_]`.`%71[A-Za-z0-9_]`%c",
					     t[0], t[1], want) != 2 ||
	    strcmp(t[1], b->tshort) || (size_t)snprintf(want, sizeof(want), "`%s`.`%s`", t[0], t[1]) >=
	    sizeof(want) || strcmp(want, b->table))
		return -EINVAL;
	snprintf(want, sizeof(want), "INSERT INTO %s FORMAT RowBinary", b->table);
	if (strcmp(want, b->query))
		return -EINVAL;
	b->kind = (int)kind;
	b->tried = b->tried || tried;
	b->final = (int)final;
	return 0;
}

/* the body of a spooled batch, read back (and its header, the first time); 0 or -errno */
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
	if (!b->query && spool_parse(s, b, all)) {
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

static void spool_append(struct sender *s, struct ch_batch *b)
{
	b->next = NULL;
	if (s->stail)
		s->stail->next = b;
	else
		s->shead = b;
	s->stail = b;
}

/*
 * The batches earlier runs left for this server and database, of this
 * run's session and of those whose lock can be had, oldest first.
 */
static void spool_scan(struct sender *s)
{
	DIR *d = fdopendir(dup(s->dirfd));
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, taken = 0, foreign = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct stat st;

		if (de->d_name[0] == '.' || l < 7 || strcmp(de->d_name + l - 6, ".spool") ||
		    fstatat(s->dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		s->spool_bytes += (uint64_t)st.st_size;
		if (n == cap) {
			char **v = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!v)
				break;
			names = v;
		}
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct ch_batch *b = calloc(1, sizeof(*b));
		uint64_t dest = 0;
		int bad = !b || spool_name_parse(names[i], b, &dest);
		struct held *h;

		if (bad || dest != s->c->dest) {
			/* another server's or database's are normal; a name dio does not make is not */
			foreign += b && bad;
			free(b);
			free(names[i]);
			continue;
		}
		h = held_find(s, b->session);
		if (!h && s->nheld < HELD_MAX &&
		    !lock_session(s, &s->held[s->nheld], b->session, 0))
			h = &s->held[s->nheld++];
		if (!h) {	/* another dio sends them */
			free(b);
			free(names[i]);
			continue;
		}
		b->tried = 1;	/* not known: look it up first */
		h->batches++;
		if (h == s->held) {
			struct spooled *o = realloc(s->own, (s->nown + 1) * sizeof(*o));

			if (o) {
				s->own = o;
				snprintf(o[s->nown].t, sizeof(o->t), "%s", b->tshort);
				o[s->nown++].batch = b->batch;
			}
		}
		spool_append(s, b);
		taken++;
		free(names[i]);
	}
	free(names);
	if (taken)
		s->host->log(s->ctx, "%zu batches left in the spool %s by an earlier run: sending them first",
			     taken, s->c->spool);
	if (foreign)
		s->host->log(s->ctx, "%zu files in the spool %s are not batches as this dio names them "
			     "(an older dio's?): left there", foreign, s->c->spool);
}

static uint64_t file_size(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) ? 0 : (uint64_t)st.st_size;
}

/* rows of b lost: counted, and its session's end row held back; mu held */
static void lose(struct sender *s, struct ch_batch *b)
{
	struct held *h = held_find(s, b->session);

	s->n.dropped_rows += b->rows;
	s->n.failures++;
	if (h)
		h->lost = 1;
}

/*
 * b, not sent, into the spool; mu held. When the spool cannot take it (full,
 * or a write fails: said once, with the errno), it stays in memory while
 * there is room, and is lost past that.
 */
static void to_spool(struct sender *s, struct ch_batch *b)
{
	int e = 0;

	if (!b->spooled[0] && b->body) {
		if (s->spool_bytes + b->len + 4096 > s->c->spool_max) {
			e = -ENOSPC;
			if (!s->n.spool_full++)
				s->host->log(s->ctx, "the spool %s holds spool_max=%" PRIu64 " bytes: "
					     "batches wait in memory while there is room",
					     s->c->spool, s->c->spool_max);
		} else if ((e = spool_write(s, b))) {
			char name[sizeof(b->spooled)];

			if (!s->n.spool_errno) {
				s->n.spool_errno = -e;
				spool_name(s->c, b, name, sizeof(name));
				s->host->log(s->ctx, "cannot write a batch to the spool: %s/%s: %s: "
					     "batches wait in memory while there is room", s->c->spool,
					     name, strerror(-e));
			}
		}
		if (!e) {
			s->spool_bytes += file_size(s->dirfd, b->spooled);
			s->n.spooled_batches++;
			free(b->body);		/* it is on disk: read back when sent */
			b->body = NULL;
		} else if (s->mbytes + b->len <= s->c->memory_max) {
			b->mem = b->len;
			s->mbytes += b->mem;
		} else {
			lose(s, b);
			ch_batch_free(b);
			return;
		}
	}
	spool_append(s, b);
}

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

			if (cols[i].mat)	/* the server's to compute: not in the body */
				continue;
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
 * the rest), -EBADMSG when the rows there are not what dio sends (refused
 * for good), or request()'s error. Every number of the answer is checked
 * against the batch before it is used.
 */
static int landed(CURL *h, struct sender *s, struct ch_batch *b, char *err, size_t errlen)
{
	char sql[512], q[64], *out = NULL;
	uint64_t v[3];
	int ret;

	if (ch_quote(b->session, q, sizeof(q)) < 0)
		return -EINVAL;
	snprintf(sql, sizeof(sql), "SELECT count(), min(seq), max(seq) FROM %s WHERE session = %s "
		 "AND batch = %" PRIu64 " AND seq >= %" PRIu64 " FORMAT TabSeparated", b->table, q,
		 b->batch, b->seq);
	ret = request(h, s->c, sql, NULL, 0, 0, &out, NULL, err, errlen);
	if (ret)
		return ret;
	ret = ch_reply_numbers(out, v, 3);
	free(out);
	if (ret) {
		snprintf(err, errlen, "%s answered the look-up of batch %" PRIu64 " of %s with "
			 "something that is not a count: is it ClickHouse?", s->c->shown, b->batch,
			 b->table);
		return -EPROTO;
	}
	if (!v[0])
		return 0;
	/* (more than its rows: stored twice by a dio before this one; not a third time) */
	if (v[0] >= b->rows && v[1] == b->seq && v[2] == b->seq + b->rows - 1)
		return 1;
	/* the rows before a cut: the first n, one after another */
	if (v[0] > b->rows || v[1] != b->seq || v[2] != b->seq + v[0] - 1) {
		snprintf(err, errlen, "batch %" PRIu64 " of %s is there in part, and not as its first "
			 "rows: left as it is", b->batch, b->table);
		return -EBADMSG;
	}
	s->n.partial_batches++;
	return drop_head(b, v[0]) ? -EINVAL : 0;
}

/*
 * send b (mu not held): 0 sent or found there; -ECONNREFUSED, -EIO or
 * -EPROTO to try again later; anything else refused for good
 */
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
	e = request(h, s->c, b->query, b->body, b->len, 1, NULL, NULL, err, errlen);
	/* no answer, or an error that a proxy may give for what the server did */
	if (e == -EIO || e == -EPROTO)
		b->tried = 1;
	return e;
}

/* b is done with (sent, or lost): off the list it heads, its file removed; mu held */
static void done(struct sender *s, struct ch_batch *b, int from_spool)
{
	struct held *h = held_find(s, b->session);

	if (from_spool) {
		s->shead = b->next;
		if (!s->shead)
			s->stail = NULL;
		if (b->spooled[0]) {
			s->spool_bytes -= file_size(s->dirfd, b->spooled);
			unlinkat(s->dirfd, b->spooled, 0);
		} else {
			s->mbytes -= b->mem;
		}
	} else {
		s->qhead = b->next;
		if (!s->qhead)
			s->qtail = NULL;
		s->qbytes -= b->mem;
	}
	/* a session taken from the spool is let go once its batches are done */
	if (h && h != s->held && h->batches && !--h->batches)
		unlock_session(s, h);
	ch_batch_free(b);
}

/* the end row of a session whose rows were lost: not stored, so that a push of it again
 * finds it incomplete and sends what is missing */
static int held_back(struct sender *s, const struct ch_batch *b)
{
	const struct held *h = held_find(s, b->session);

	return b->final && h && h->lost;
}

static void *run(void *arg)
{
	struct sender *s = arg;
	CURL *h = curl_easy_init();
	uint64_t backoff = BACKOFF_MIN_MS, retry_at = 0;
	char err[512];

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct ch_batch *b;
		int from_spool, e;

		if (s->stopping && ch_now_ms() >= s->deadline_ms)
			break;
		if (!s->qhead && !s->shead) {
			if (s->stopping)
				break;
			pthread_cond_wait(&s->cv, &s->mu);
			continue;
		}
		/* the server is away: new batches go to the spool until it is time to try */
		if (retry_at && ch_now_ms() < retry_at) {
			struct timespec until;
			uint64_t at = s->stopping && s->deadline_ms < retry_at ? s->deadline_ms : retry_at;
			uint64_t now = ch_now_ms(), wait = at > now ? at - now : 0;

			while ((b = s->qhead)) {
				s->qhead = b->next;
				s->qbytes -= b->mem;
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
		/* the tables first, when the server was away at the start */
		if (s->ready && !s->refused) {
			pthread_mutex_unlock(&s->mu);
			e = s->ready(s->ready_ud, err, sizeof(err));
			pthread_mutex_lock(&s->mu);
			if (!e) {
				s->ready = NULL;
				continue;
			}
			if (e != -ECONNREFUSED && e != -EIO && e != -EPROTO) {
				s->host->log(s->ctx, "batches wait in the spool %s for a dio that can "
					     "send them", s->c->spool);
				s->refused = 1;
				continue;
			}
			s->n.failures++;
			if (!s->logged_down++)
				s->host->log(s->ctx, "%s: batches wait in the spool %s until it takes "
					     "them", err, s->c->spool);
			retry_at = ch_now_ms() + backoff;
			backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
			continue;
		}
		if (s->refused) {
			/* kept as they are for a later run, which looks each up first */
			while ((b = s->qhead)) {
				s->qhead = b->next;
				s->qbytes -= b->mem;
				to_spool(s, b);
			}
			s->qtail = NULL;
			if (s->stopping)
				break;
			pthread_cond_wait(&s->cv, &s->mu);
			continue;
		}
		/* the spool first: its batches are older */
		from_spool = !!s->shead;
		b = from_spool ? s->shead : s->qhead;
		if (held_back(s, b)) {
			s->n.final_held = 1;
			done(s, b, from_spool);
			continue;
		}
		pthread_mutex_unlock(&s->mu);
		e = from_spool && !b->body ? spool_read(s, b) : 0;
		if (e) {
			/* a spool file that cannot be read back: said, and left where it is */
			s->host->log(s->ctx, "spool file %s/%s cannot be read (%s): left there",
				     s->c->spool, b->spooled, strerror(-e));
			pthread_mutex_lock(&s->mu);
			b->spooled[0] = 0;	/* not removed */
			lose(s, b);
			done(s, b, 1);
			continue;
		}
		e = h ? send_batch(h, s, b, err, sizeof(err)) : -ENOMEM;
		pthread_mutex_lock(&s->mu);
		if (e != -ECONNREFUSED && e != -EIO && e != -EPROTO) {
			/* sent, or refused for good: off the queue */
			if (!e) {
				s->n.sent_rows += b->rows;
				s->n.sent_batches++;
				if (s->logged_down) {
					s->host->log(s->ctx, "%s answers again: sending what waited",
						     s->c->shown);
					s->logged_down = 0;
				}
			} else {
				s->host->log(s->ctx, "%" PRIu64 " rows not stored: %s", b->rows, err);
				lose(s, b);
			}
			done(s, b, from_spool);
			retry_at = 0;
			backoff = BACKOFF_MIN_MS;
			continue;
		}
		/*
		 * Away, no answer, or an error answer: keep it, in the spool, and wait
		 * before trying again. A server that refuses a batch for good (a table
		 * of another shape made meanwhile) keeps it there, said, until someone
		 * sees to it: dropping it would lose what was recorded.
		 */
		s->n.failures++;
		if (!s->logged_down++)
			s->host->log(s->ctx, "%s: batches wait in the spool %s until it takes them",
				     err, s->c->spool);
		if (!from_spool) {
			s->qhead = b->next;
			if (!s->qhead)
				s->qtail = NULL;
			s->qbytes -= b->mem;
			to_spool(s, b);
		} else if (b->spooled[0]) {
			/* on disk: read back when tried again (and looked up first, as
			 * every batch a run takes from the spool is) */
			free(b->body);
			b->body = NULL;
		}
		retry_at = ch_now_ms() + backoff;
		backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
	}
	/* what could not be sent in time stays in the spool */
	while (s->qhead) {
		struct ch_batch *b = s->qhead;

		s->qhead = b->next;
		s->qbytes -= b->mem;
		to_spool(s, b);
	}
	s->qtail = NULL;
	/* what the spool could not take is lost: first that, then which end rows to hold back */
	for (struct ch_batch *b = s->shead; b; b = b->next)
		if (!b->spooled[0])
			lose(s, b);
	for (struct ch_batch *b = s->shead, *next; b; b = next) {
		next = b->next;
		if (b->spooled[0] && held_back(s, b)) {
			unlinkat(s->dirfd, b->spooled, 0);
			s->n.final_held = 1;
		} else if (b->spooled[0]) {
			s->n.left_rows += b->rows;
			s->n.left_batches++;
		}
		ch_batch_free(b);
	}
	s->shead = s->stail = NULL;
	pthread_mutex_unlock(&s->mu);
	if (h)
		curl_easy_cleanup(h);
	return NULL;
}

int sender_open(struct sender **out, const struct ch_conf *c, const struct dio_host *host,
		struct dio_ctx *ctx, const char *session)
{
	struct sender *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int e;

	if (!s)
		return -ENOMEM;
	s->c = c;
	s->host = host;
	s->ctx = ctx;
	for (unsigned int i = 0; i < HELD_MAX; i++)
		s->held[i].fd = -1;
	s->dirfd = open_spool(c, host, ctx);
	if (s->dirfd < 0) {
		e = s->dirfd;
		free(s);
		return e;
	}
	/* another dio sending the same session would store its batches twice */
	e = lock_session(s, &s->held[0], session, 1);
	if (e) {
		host->log(ctx, "cannot lock session %s in the spool %s: %s", session, c->spool,
			  strerror(-e));
		close(s->dirfd);
		free(s);
		return e;
	}
	s->nheld = 1;
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	spool_scan(s);
	*out = s;
	return 0;
}

int sender_spooled(const struct sender *s, const char *t, uint64_t batch)
{
	for (size_t i = 0; i < s->nown; i++)
		if (s->own[i].batch == batch && !strcmp(s->own[i].t, t))
			return 1;
	return 0;
}

int sender_run(struct sender *s, sender_ready_fn ready, void *ud)
{
	int e;

	s->ready = ready;
	s->ready_ud = ud;
	e = pthread_create(&s->th, NULL, run, s);

	if (e)
		return -e;
	s->started = 1;
	return 0;
}

void sender_put(struct sender *s, struct ch_batch *b)
{
	pthread_mutex_lock(&s->mu);
	b->mem = b->len;
	if (s->qbytes + b->mem > s->c->memory_max) {
		/* the sender is far behind: to disk, not to more memory */
		to_spool(s, b);
	} else {
		b->next = NULL;
		if (s->qtail)
			s->qtail->next = b;
		else
			s->qhead = b;
		s->qtail = b;
		s->qbytes += b->mem;
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
	s->deadline_ms = ch_now_ms() + (uint64_t)drain_s * 1000;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	if (s->started)
		pthread_join(s->th, NULL);
	for (struct ch_batch *b = s->shead, *next; b; b = next) {
		next = b->next;		/* never run: nothing was taken on */
		ch_batch_free(b);
	}
	*n = s->n;
	for (unsigned int i = 0; i < s->nheld; i++)
		unlock_session(s, &s->held[i]);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	close(s->dirfd);
	free(s->own);
	free(s);
}
