// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record sources by scheme: a trace file is built in, "SCHEME:..." is read
 * by the module of that name (dio/source.h), found and version-checked as
 * sinks are (plugin.c), so that dio itself reads no database and links no
 * client library of one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/source.h>
#include "plugin.h"
#include "sources.h"
#include "tracefile.h"
#include "util.h"

struct source {
	struct plugin p;
	void *state;
	char shown[512];	/* the spec without a password, for reports and messages */
};

/* the length of spec's scheme ("clickhouse" of "clickhouse:url=..."), 0 if none */
static size_t scheme_len(const char *spec)
{
	size_t n = strspn(spec, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	return n && n < 64 && spec[n] == ':' ? n : 0;
}

int sources__is_scheme(const char *spec)
{
	/* a file of that name is read as the user named it */
	return scheme_len(spec) && access(spec, F_OK);
}

struct tf_reader *sources__open_trace(const char *path)
{
	char err[512];
	struct tf_reader *r = tf_reader__open(path, err, sizeof(err));

	if (!r)
		die_msg("%s", err);
	return r;
}

int sources__damage(const char *path, const struct tf_reader *r)
{
	struct tf_stats st;

	tf_reader__stats(r, &st);
	if (!st.truncated && !st.bad_blocks && !st.bad_records && !st.skipped_bytes)
		return 0;
	warn_msg("%s: %s: recovered %llu records in %llu blocks; skipped %llu damaged blocks, %llu bad records, %llu bytes",
		 path, st.read_errno ? strerror(st.read_errno) :
		 st.shrunk ? "cut short while dio read it" :
		 st.truncated ? "cut short" : "damaged", (unsigned long long)st.records,
		 (unsigned long long)st.blocks, (unsigned long long)st.bad_blocks,
		 (unsigned long long)st.bad_records, (unsigned long long)st.skipped_bytes);
	return 1;
}

void source__close(struct source *s)
{
	if (!s)
		return;
	if (s->state)
		s->p.so->close(s->state);
	plugin__unload(&s->p);
	free(s);
}

struct source *source__open(const char *spec, char *err, size_t errlen)
{
	size_t n = scheme_len(spec);
	struct source *s = calloc(1, sizeof(*s));
	char scheme[64], why[1024];
	int e;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	dio_redact_password(spec, s->shown, sizeof(s->shown));
	if (!n) {
		snprintf(err, errlen, "%s: not a source (SCHEME:...) nor a trace file", s->shown);
		goto fail;
	}
	snprintf(scheme, sizeof(scheme), "%.*s", (int)n, spec);
	e = plugin__load(&s->p, PLUGIN_SOURCE, scheme, why, sizeof(why));
	if (e == -ENOENT) {
		snprintf(err, errlen, "%s: no such trace file, and this dio has no module '%s' to read "
			 "%s: sources (dio list sinks shows the modules it has)", s->shown, scheme,
			 scheme);
		goto fail;
	}
	if (e) {
		snprintf(err, errlen, "%s", why);
		goto fail;
	}
	if (strcmp(s->p.so->scheme, scheme)) {
		snprintf(err, errlen, "%s: its source reads %.64s:, not %s:", s->p.file,
			 s->p.so->scheme, scheme);
		goto fail;
	}
	s->state = s->p.so->open(spec, err, errlen);
	if (!s->state)
		goto fail;
	return s;
fail:
	source__close(s);
	return NULL;
}

int source__next(struct source *s, const void **rec, size_t *size)
{
	return s->p.so->next(s->state, rec, size);
}

const char *source__error(const struct source *s)
{
	const char *e = s->p.so->error ? s->p.so->error(s->state) : NULL;

	return e && *e ? e : "the source failed and did not say why";
}

const char *source__info(const struct source *s, const char *key)
{
	const char *v = s->p.so->info ? s->p.so->info(s->state, key) : NULL;

	if (!v && !strcmp(key, "trace"))
		return s->shown;
	return v;
}

int source__meta(const struct source *s, const char *key, char *buf, size_t len)
{
	if (s->p.so->meta)
		return s->p.so->meta(s->state, key, buf, len);
	if (len)
		buf[0] = 0;
	return -ENOENT;
}
