// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings for CI: stable subjects and fingerprints, URIs, suppressions and
 * baselines. A fingerprint must not change between two runs of one
 * workload, so it is made of what does not: the finding's code, the path
 * with its run-specific parts taken out (the --srcroot prefix, which holds
 * temporary directory names; every digit run, which holds pids and file
 * generations such as 000123.log), and the process name likewise.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/findings.h"
#include "engine/jsonread.h"

#define BASELINE_MAX	(256u << 20)	/* bytes of SARIF read */

const char *findings_severity(uint32_t sev)
{
	static const char *const level[] = { "info", "warning", "error" };

	return sev <= DIO_SEV_ERROR ? level[sev] : "?";
}

const struct dio_rule findings_host_rules[] = {
	{ "dio.findings-left-out", DIO_SEV_INFO, 0, "Findings left out by --max-findings",
	  "dio reports at most --max-findings findings of each code (10 by default) and says "
	  "how many more it found in this one, with the highest severity among them.",
	  "Give --max-findings 0 to see every finding, or narrow the trace with -p, --comm or "
	  "--path so that fewer processes and files are looked at." },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

/* the part of path under srcroot ("" for srcroot itself), or NULL */
static const char *under(const char *path, const char *srcroot)
{
	size_t n = srcroot ? strlen(srcroot) : 0;

	if (!n || !path || strncmp(path, srcroot, n))
		return NULL;
	if (path[n] == '/')
		return path + n + 1;
	return path[n] ? NULL : path + n;
}

int findings_subject(const char *path, const char *srcroot, char *buf, size_t len)
{
	const char *rel = under(path, srcroot);
	const char *s = rel ? rel : path ? path : "";
	size_t o = 0;

	if (!len)
		return !!rel;
	for (; *s && o + 1 < len; s++) {
		if (*s >= '0' && *s <= '9') {
			while (s[1] >= '0' && s[1] <= '9')
				s++;
			buf[o++] = 'N';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = 0;
	return !!rel;
}

#define FNV_START	0xcbf29ce484222325ULL

/* FNV-1a 64 of h so far and s with its NUL */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	const unsigned char *c = (const unsigned char *)s;

	do {
		h ^= *c;
		h *= 0x100000001b3ULL;
	} while (*c++);
	return h;
}

void findings_fingerprint(const char *code, const char *subject, const char *comm, char out[17])
{
	uint64_t h = FNV_START;
	char name[64];

	findings_subject(comm ? comm : "", NULL, name, sizeof(name));
	h = fnv1a(h, code ? code : "");
	h = fnv1a(h, subject ? subject : "");
	h = fnv1a(h, name);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int findings_uri(const char *path, const char *srcroot, char *buf, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *rel = under(path, srcroot);
	const char *s = rel ? rel : path;
	size_t o = 0;

	if (!len)
		return !!rel;
	if (!rel) {
		o = (size_t)snprintf(buf, len, "file://");
		if (o >= len)
			o = len - 1;
	}
	for (; *s && o + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			buf[o++] = (char)c;
		} else {
			buf[o++] = '%';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	buf[o] = 0;
	return !!rel;
}

/* ---- suppressions ------------------------------------------------------- */

struct suppression {
	char *reason;
	char *fingerprint;	/* or the three globs (NULL: any) */
	char *code, *path, *process;
};

struct suppressions {
	size_t n;
	struct suppression *e;
};

void suppressions__free(struct suppressions *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->e[i].reason);
		free(s->e[i].fingerprint);
		free(s->e[i].code);
		free(s->e[i].path);
		free(s->e[i].process);
	}
	free(s->e);
	free(s);
}

/* A regular file opened for reading, without waiting on a FIFO. */
static FILE *open_input(const char *path, const char *what, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	FILE *f;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (give %s)", path, what);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* an entry's string member: 0, or -EINVAL with FILE:LINE in err */
static int member(const config_setting_t *e, const char *key, char **out, const char *file,
		  char *err, size_t errlen)
{
	const config_setting_t *m = config_setting_get_member(e, key);

	*out = NULL;
	if (!m)
		return 0;
	if (config_setting_type(m) != CONFIG_TYPE_STRING || !*config_setting_get_string(m)) {
		snprintf(err, errlen, "%s:%u: %s: expected a non-empty string", file,
			 config_setting_source_line(m), key);
		return -EINVAL;
	}
	*out = strdup(config_setting_get_string(m));
	return *out ? 0 : -ENOMEM;
}

static int load_entry(const config_setting_t *e, struct suppression *s, const char *file,
		      char *err, size_t errlen)
{
	static const char *const keys[] = { "reason", "fingerprint", "code", "path", "process" };
	unsigned int line = config_setting_source_line(e);
	int r;

	if (!config_setting_is_group(e)) {
		snprintf(err, errlen, "%s:%u: expected { reason = \"...\"; code = \"...\"; ... }",
			 file, line);
		return -EINVAL;
	}
	for (int i = 0; i < config_setting_length(e); i++) {
		const char *name = config_setting_name(config_setting_get_elem(e, i));
		size_t k = 0;

		while (k < 5 && strcmp(name, keys[k]))
			k++;
		if (k == 5) {
			snprintf(err, errlen,
				 "%s:%u: unknown key '%s' (reason, fingerprint, code, path, process)",
				 file, config_setting_source_line(config_setting_get_elem(e, i)), name);
			return -EINVAL;
		}
	}
	if ((r = member(e, "reason", &s->reason, file, err, errlen)) ||
	    (r = member(e, "fingerprint", &s->fingerprint, file, err, errlen)) ||
	    (r = member(e, "code", &s->code, file, err, errlen)) ||
	    (r = member(e, "path", &s->path, file, err, errlen)) ||
	    (r = member(e, "process", &s->process, file, err, errlen)))
		return r;
	if (!s->reason) {
		snprintf(err, errlen, "%s:%u: every suppression needs a reason = \"...\";", file, line);
		return -EINVAL;
	}
	if (!s->fingerprint && !s->code) {
		snprintf(err, errlen, "%s:%u: give fingerprint = \"...\" or code = \"...\"", file, line);
		return -EINVAL;
	}
	if (s->fingerprint && (s->code || s->path || s->process)) {
		snprintf(err, errlen, "%s:%u: a fingerprint names one finding: drop code, path and process",
			 file, line);
		return -EINVAL;
	}
	return 0;
}

struct suppressions *suppressions__load(const char *path, char *err, size_t errlen)
{
	struct suppressions *s = calloc(1, sizeof(*s));
	const config_setting_t *list;
	FILE *f = open_input(path, "a suppression file", err, errlen);
	config_t cf;
	int e = 0, n;

	if (!s || !f) {
		if (!s)
			snprintf(err, errlen, "out of memory");
		e = s ? -errno : -ENOMEM;
		free(s);
		if (f)
			fclose(f);
		errno = -e;
		return NULL;
	}
	config_init(&cf);
	if (!config_read(&cf, f)) {
		snprintf(err, errlen, "%s:%d: syntax error: %s", path, config_error_line(&cf),
			 config_error_text(&cf));
		e = -EINVAL;
		goto cleanup;
	}
	list = config_lookup(&cf, "suppress");
	/* an empty file (or comments only) accepts nothing: a repository's file not yet filled */
	if (!list && !config_setting_length(config_root_setting(&cf)))
		goto cleanup;
	if (!list || !config_setting_is_aggregate(list)) {
		snprintf(err, errlen, "%s: expected suppress = ( { reason = \"...\"; code = \"...\"; }, ... );",
			 path);
		e = -EINVAL;
		goto cleanup;
	}
	n = config_setting_length(list);
	s->e = calloc(n ? (size_t)n : 1, sizeof(*s->e));
	if (!s->e) {
		snprintf(err, errlen, "out of memory");
		e = -ENOMEM;
		goto cleanup;
	}
	for (int i = 0; i < n && !e; i++) {
		e = load_entry(config_setting_get_elem(list, i), &s->e[i], path, err, errlen);
		s->n++;
	}
cleanup:
	config_destroy(&cf);
	fclose(f);
	if (e) {
		suppressions__free(s);
		errno = -e;
		return NULL;
	}
	return s;
}

static int glob_ok(const char *pattern, const char *s)
{
	return !pattern || (s && !fnmatch(pattern, s, 0));
}

const char *suppressions__match(const struct suppressions *s, const struct dio_finding *f)
{
	for (size_t i = 0; s && i < s->n; i++) {
		const struct suppression *e = &s->e[i];

		if (e->fingerprint) {
			if (f->fingerprint && !strcmp(e->fingerprint, f->fingerprint))
				return e->reason;
			continue;
		}
		if (glob_ok(e->code, f->code) && glob_ok(e->process, f->comm) &&
		    (glob_ok(e->path, f->path) || glob_ok(e->path, f->subject)))
			return e->reason;
	}
	return NULL;
}

/* ---- baselines ---------------------------------------------------------- */

struct base_result {
	const char *fingerprint, *code, *title, *subject, *uri, *uri_base, *comm;
	uint64_t count;		/* its "count" property; 0: none */
	uint32_t severity;
	uint32_t first;		/* the first result of its fingerprint: the one that counts */
	uint32_t seen;		/* (of a first) this run had it too */
	uint32_t pad;
};

/*
 * The results, and their fingerprints hashed (open addressing, at most half
 * full): a finding is classified in constant time, not by a walk of every
 * result, so that a baseline of 100 000 results costs no more per finding
 * than one of 10.
 */
struct baseline {
	struct json_value *doc;
	size_t n;
	struct base_result *r;
	size_t *slot;		/* index + 1 of the first result of a fingerprint; 0: free */
	size_t mask;		/* slots - 1 */
};

void baseline__free(struct baseline *b)
{
	if (!b)
		return;
	json_free(b->doc);
	free(b->r);
	free(b->slot);
	free(b);
}

/* the slot of fingerprint fp: its first result's, or the free one where it would go */
static size_t *find_slot(const struct baseline *b, const char *fp)
{
	size_t i = (size_t)fnv1a(FNV_START, fp) & b->mask;

	while (b->slot[i] && strcmp(b->r[b->slot[i] - 1].fingerprint, fp))
		i = (i + 1) & b->mask;
	return &b->slot[i];
}

/* the results' fingerprints into the table; each result's first set */
static int hash_results(struct baseline *b)
{
	size_t slots = 16;

	while (slots < 2 * b->n)
		slots *= 2;
	b->slot = calloc(slots, sizeof(*b->slot));
	if (!b->slot)
		return -ENOMEM;
	b->mask = slots - 1;
	for (size_t i = 0; i < b->n; i++) {
		size_t *s = find_slot(b, b->r[i].fingerprint);

		b->r[i].first = !*s;
		if (!*s)
			*s = i + 1;
	}
	return 0;
}

static uint32_t severity_of(const char *level)
{
	return !level ? DIO_SEV_WARNING : !strcmp(level, "error") ? DIO_SEV_ERROR :
	       !strcmp(level, "warning") ? DIO_SEV_WARNING : DIO_SEV_INFO;
}

static void take_result(struct baseline *b, const struct json_value *res)
{
	const struct json_value *props = json_get(res, "properties");
	const struct json_value *locs = json_get(res, "locations");
	const struct json_value *art = NULL;
	struct base_result *r = &b->r[b->n];

	r->fingerprint = json_str(json_get(json_get(res, "partialFingerprints"), "dio/v1"));
	if (!r->fingerprint)
		return;		/* not dio's: nothing to match it with */
	r->code = json_str(json_get(res, "ruleId"));
	r->title = json_str(json_get(json_get(res, "message"), "text"));
	r->severity = severity_of(json_str(json_get(res, "level")));
	r->subject = json_str(json_get(props, "subject"));
	r->comm = json_str(json_get(props, "process"));
	{
		const struct json_value *n = json_get(props, "count");

		r->count = n && n->type == JSON_NUMBER && n->number > 0 && n->number < 1e18 ?
			   (uint64_t)n->number : 0;
	}
	if (locs && locs->type == JSON_ARRAY && locs->n)
		art = json_get(json_get(&locs->items[0], "physicalLocation"), "artifactLocation");
	r->uri = json_str(json_get(art, "uri"));
	r->uri_base = json_str(json_get(art, "uriBaseId"));
	b->n++;
}

struct baseline *baseline__load(const char *path, char *err, size_t errlen)
{
	struct baseline *b = calloc(1, sizeof(*b));
	FILE *f = open_input(path, "a SARIF log dio wrote", err, errlen);
	const struct json_value *runs;
	char *text = NULL, why[256];
	size_t len = 0, total = 0;
	int e = 0;

	if (!b || !f) {
		if (!b)
			snprintf(err, errlen, "out of memory");
		e = b ? -errno : -ENOMEM;
		goto cleanup;
	}
	text = malloc(BASELINE_MAX);
	if (!text) {
		snprintf(err, errlen, "out of memory");
		e = -ENOMEM;
		goto cleanup;
	}
	while ((len = fread(text + total, 1, BASELINE_MAX - total, f)) > 0)
		total += len;
	if (ferror(f) || total == BASELINE_MAX) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ? strerror(errno) :
			 "larger than 256 MiB: not a SARIF log dio wrote");
		e = -EINVAL;
		goto cleanup;
	}
	b->doc = json_parse(text, total, why, sizeof(why));
	if (!b->doc) {
		e = -errno;
		if (e == -E2BIG)
			snprintf(err, errlen, "%s: %s: give a SARIF log dio wrote", path, why);
		else
			snprintf(err, errlen, "%s: not valid JSON (%s): give a SARIF log dio wrote",
				 path, why);
		goto cleanup;
	}
	runs = json_get(b->doc, "runs");
	if (!json_str(json_get(b->doc, "version")) || !runs || runs->type != JSON_ARRAY) {
		snprintf(err, errlen, "%s: not a SARIF log (no version and runs): give one dio wrote",
			 path);
		e = -EINVAL;
		goto cleanup;
	}
	for (size_t i = 0; i < runs->n; i++) {
		const struct json_value *res = json_get(&runs->items[i], "results");
		struct base_result *more;

		if (!res || res->type != JSON_ARRAY)
			continue;
		more = realloc(b->r, (b->n + res->n + 1) * sizeof(*more));

		if (!more) {
			snprintf(err, errlen, "out of memory");
			e = -ENOMEM;
			goto cleanup;
		}
		b->r = more;
		for (size_t k = 0; k < res->n; k++) {
			memset(&b->r[b->n], 0, sizeof(b->r[0]));
			/* results a baseline had as absent were gone then already */
			if (!json_str(json_get(&res->items[k], "baselineState")) ||
			    strcmp(json_str(json_get(&res->items[k], "baselineState")), "absent"))
				take_result(b, &res->items[k]);
		}
	}
	e = hash_results(b);
	if (e)
		snprintf(err, errlen, "out of memory");
cleanup:
	free(text);
	if (f)
		fclose(f);
	if (e) {
		baseline__free(b);
		errno = -e;
		return NULL;
	}
	return b;
}

int baseline__classify(struct baseline *b, const char *fingerprint)
{
	size_t *s = find_slot(b, fingerprint);

	if (!*s)
		return DIO_BASELINE_NEW;
	b->r[*s - 1].seen = 1;
	return DIO_BASELINE_UNCHANGED;
}

int baseline__persists(struct baseline *b, const char *fingerprint, uint64_t count)
{
	size_t *s = find_slot(b, fingerprint);
	struct base_result *r;

	if (!*s)
		return DIO_BASELINE_NONE;
	r = &b->r[*s - 1];
	if (r->count && count * 2 < r->count)
		return DIO_BASELINE_NONE;
	r->seen = 1;
	return DIO_BASELINE_UNCHANGED;
}

int baseline__next_absent(struct baseline *b, size_t *i, struct dio_finding *f)
{
	for (; *i < b->n; (*i)++) {
		const struct base_result *r = &b->r[*i];

		/* one absent result per fingerprint, however often the baseline had it */
		if (r->seen || !r->first)
			continue;
		memset(f, 0, sizeof(*f));
		f->size = sizeof(*f);
		f->code = r->code ? r->code : "?";
		f->title = r->title ? r->title : "";
		f->message = "";
		f->severity = r->severity;
		f->count = r->count;
		f->comm = r->comm;
		f->subject = r->subject;
		f->fingerprint = r->fingerprint;
		f->uri = r->uri;
		f->uri_base = r->uri_base;
		f->baseline = DIO_BASELINE_ABSENT;
		(*i)++;
		return 1;
	}
	return 0;
}

/* ---- findings held until the end ------------------------------------------ */

struct held_one {
	struct dio_finding f;	/* strings owned: copies */
	uint64_t merged;	/* results of the run it stands for */
	uint64_t pass;		/* the round of judgement that stated it whole; 0: none */
};

/* grown as findings come, up to max: a session holds a few findings, or none */
struct held {
	struct held_one *v;
	size_t n, cap, max;
	size_t *slot;		/* index + 1 of the finding of a fingerprint; 0: free */
	size_t mask;		/* slots - 1: at least twice cap */
};

struct held *held__new(size_t max)
{
	struct held *h = calloc(1, sizeof(*h));

	if (!h) {
		errno = ENOMEM;
		return NULL;
	}
	h->max = max;
	return h;
}

/* room for twice the findings held: the array, and the slots hashed anew */
static int held_grow(struct held *h)
{
	size_t cap = h->cap ? 2 * h->cap : 16, slots = 4 * cap;
	struct held_one *v = realloc(h->v, cap * sizeof(*v));
	size_t *slot;

	if (!v)
		return -ENOMEM;
	h->v = v;
	slot = calloc(slots, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	free(h->slot);
	h->slot = slot;
	h->mask = slots - 1;
	h->cap = cap;
	for (size_t k = 0; k < h->n; k++) {
		size_t i = (size_t)fnv1a(FNV_START, h->v[k].f.fingerprint) & h->mask;

		while (h->slot[i])
			i = (i + 1) & h->mask;
		h->slot[i] = k + 1;
	}
	return 0;
}

/* the string fields of a finding a producer fills, for copying and freeing */
static const char **held_str(struct dio_finding *f, int i)
{
	const char **all[] = { &f->code, &f->title, &f->message, &f->analyzer, &f->comm,
			       &f->path, &f->excerpt, &f->subject, &f->fingerprint };

	return i < (int)(sizeof(all) / sizeof(all[0])) ? all[i] : NULL;
}

static void held_one_free(struct held_one *o)
{
	const char **p;

	for (int i = 0; (p = held_str(&o->f, i)); i++)
		free((char *)*p);
	memset(o, 0, sizeof(*o));
}

void held__free(struct held *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		held_one_free(&h->v[i]);
	free(h->v);
	free(h->slot);
	free(h);
}

static int held_copy(struct held_one *o, const struct dio_finding *f)
{
	const char **p;

	o->f = *f;
	o->f.size = sizeof(o->f);
	o->merged = 1;
	o->pass = 0;
	for (int i = 0; (p = held_str(&o->f, i)); i++)
		if (*p && !(*p = strdup(*p))) {
			for (int k = i + 1; (p = held_str(&o->f, k)); k++)
				*p = NULL;
			held_one_free(o);
			return -ENOMEM;
		}
	return 0;
}

/* another result with o's fingerprint: the sums, and the text of the worse */
static int held_merge(struct held_one *o, const struct dio_finding *f)
{
	struct held_one in;
	uint64_t count = o->f.count + f->count, cost = o->f.cost_ns + f->cost_ns;
	uint64_t first = o->f.ts_first, last = o->f.ts_last, merged = o->merged + 1, pass = o->pass;
	uint32_t procs = (o->f.processes ? o->f.processes : 1) + (f->processes ? f->processes : 1);
	uint64_t ffirst = f->ts_first ? f->ts_first : f->ts_last;

	if (f->severity > o->f.severity || (f->severity == o->f.severity && f->count > o->f.count)) {
		if (held_copy(&in, f))
			return -ENOMEM;
		held_one_free(o);
		*o = in;
	}
	o->merged = merged;
	o->pass = pass;
	o->f.count = count;
	o->f.cost_ns = cost;
	o->f.processes = procs;
	if (ffirst && (!first || ffirst < first))
		first = ffirst;
	o->f.ts_first = first;
	o->f.ts_last = f->ts_last > last ? f->ts_last : last;
	return 0;
}

/* a round of judgement states the finding whole: what an earlier one said is replaced */
static int held_replace(struct held_one *o, const struct dio_finding *f)
{
	struct held_one in;

	if (held_copy(&in, f))
		return -ENOMEM;
	held_one_free(o);
	*o = in;
	return 0;
}

int held__add(struct held *h, const struct dio_finding *f, uint64_t pass)
{
	size_t i;
	int e;

	if (h->n == h->cap && h->n < h->max && held_grow(h))
		return -ENOMEM;
	i = h->cap ? (size_t)fnv1a(FNV_START, f->fingerprint) & h->mask : 0;
	while (h->cap && h->slot[i] && strcmp(h->v[h->slot[i] - 1].f.fingerprint, f->fingerprint))
		i = (i + 1) & h->mask;
	if (h->cap && h->slot[i]) {
		struct held_one *o = &h->v[h->slot[i] - 1];

		if (pass && o->pass && o->pass != pass)
			e = held_replace(o, f);
		else
			e = held_merge(o, f);
		if (!e && pass)
			o->pass = pass;
		return e ? e : (int)(h->slot[i] - 1);
	}
	if (h->n == h->max)
		return -ENOSPC;
	if (held_copy(&h->v[h->n], f))
		return -ENOMEM;
	h->v[h->n].pass = pass;
	h->slot[i] = ++h->n;
	return (int)(h->n - 1);
}

struct dio_finding *held__get(struct held *h, size_t i)
{
	return i < h->n ? &h->v[i].f : NULL;
}

int held__each(struct held *h, int (*cb)(void *ud, struct dio_finding *f), void *ud)
{
	for (size_t i = 0; i < h->n; i++) {
		struct held_one *o = &h->v[i];
		char *msg = NULL;
		int e;

		/* one finding for several results: say so where the evidence is told */
		if (o->merged > 1 && asprintf(&msg, "%s%s(%" PRIu64 " results of this run had this "
					     "fingerprint, the same code, subject and program: they "
					     "are this one finding, their counts added.)",
					     o->f.message ? o->f.message : "",
					     o->f.message && *o->f.message ? "\n" : "",
					     o->merged) > 0) {
			free((char *)o->f.message);
			o->f.message = msg;
		}
		e = cb(ud, &o->f);
		if (e)
			return e;
	}
	return 0;
}
