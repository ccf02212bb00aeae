// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The config file (libconfig syntax). Top-level keys are the long options with
 * '_' for '-'; groups `analyzer: { NAME: { ... } }` and `sink: { NAME: { ... } }`
 * hold module options, checked later against each module's option table.
 */
#include <errno.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "util.h"

struct cfg {
	const char *file;
	char *err;
	size_t errlen;
};

static int fail(struct cfg *c, const config_setting_t *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct cfg *c, const config_setting_t *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%u: %s", c->file, config_setting_source_line(s), msg);
	return -EINVAL;
}

/* A scalar as text, the way it would be written on the command line. */
static int scalar_text(const config_setting_t *s, char *buf, size_t len)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
		snprintf(buf, len, "%d", config_setting_get_int(s));
		return 0;
	case CONFIG_TYPE_INT64:
		snprintf(buf, len, "%lld", config_setting_get_int64(s));
		return 0;
	case CONFIG_TYPE_FLOAT:
		snprintf(buf, len, "%.17g", config_setting_get_float(s));
		return 0;
	case CONFIG_TYPE_BOOL:
		snprintf(buf, len, "%s", config_setting_get_bool(s) ? "true" : "false");
		return 0;
	case CONFIG_TYPE_STRING:
		snprintf(buf, len, "%s", config_setting_get_string(s));
		return 0;
	}
	return -EINVAL;
}

static int want_bool(struct cfg *c, const config_setting_t *s, int *out)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return fail(c, s, "%s: expected true or false", config_setting_name(s));
	*out = config_setting_get_bool(s);
	return 0;
}

static int want_text(struct cfg *c, const config_setting_t *s, char *buf, size_t len)
{
	if (scalar_text(s, buf, len))
		return fail(c, s, "%s: expected a single value", config_setting_name(s));
	return 0;
}

/* Apply a command-line setter, prefixing its message with file:line. */
static int setter(struct cfg *c, const config_setting_t *s, int e, const char *msg)
{
	if (e)
		return fail(c, s, "%s", msg);
	return 0;
}

static int add_list(struct cfg *c, const config_setting_t *s, struct options *o, int which)
{
	char v[4096], msg[512];
	int n = config_setting_length(s), e = 0;

	if (config_setting_is_scalar(s)) {
		e = want_text(c, s, v, sizeof(v));
		if (e)
			return e;
		switch (which) {
		case 0: return setter(c, s, options_add_prefix(o, v, 0, msg, sizeof(msg)), msg);
		case 1: return setter(c, s, options_add_prefix(o, v, 1, msg, sizeof(msg)), msg);
		case 2: return setter(c, s, options_add_plugin(o, 0, v, msg, sizeof(msg)), msg);
		case 3: return setter(c, s, options_add_plugin(o, 1, v, msg, sizeof(msg)), msg);
		}
	}
	for (int i = 0; i < n && !e; i++) {
		const config_setting_t *el = config_setting_get_elem(s, i);

		if (config_setting_type(el) != CONFIG_TYPE_STRING)
			return fail(c, el, "%s: expected a list of strings", config_setting_name(s));
		snprintf(v, sizeof(v), "%s", config_setting_get_string(el));
		switch (which) {
		case 0: e = options_add_prefix(o, v, 0, msg, sizeof(msg)); break;
		case 1: e = options_add_prefix(o, v, 1, msg, sizeof(msg)); break;
		case 2: e = options_add_plugin(o, 0, v, msg, sizeof(msg)); break;
		case 3: e = options_add_plugin(o, 1, v, msg, sizeof(msg)); break;
		}
		if (e)
			return fail(c, el, "%s", msg);
	}
	return 0;
}

/* id lists: [1234, 1240] or "1234,1240" */
static int id_list(struct cfg *c, const config_setting_t *s, char *buf, size_t len)
{
	size_t off = 0;

	if (config_setting_is_scalar(s))
		return want_text(c, s, buf, len);
	buf[0] = 0;
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *el = config_setting_get_elem(s, i);

		if (config_setting_type(el) != CONFIG_TYPE_INT)
			return fail(c, el, "%s: expected a list of ids", config_setting_name(s));
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%d", i ? "," : "",
				config_setting_get_int(el));
	}
	return 0;
}

static int module_groups(struct cfg *c, const config_setting_t *s, struct options *o,
			 const char *kind)
{
	if (!config_setting_is_group(s))
		return fail(c, s, "%s: expected a group of modules: %s: { NAME: { key = value; }; };",
			    config_setting_name(s), config_setting_name(s));
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *m = config_setting_get_elem(s, i);
		struct plugin_group *g;

		if (!config_setting_is_group(m))
			return fail(c, m, "%s.%s: expected a group { key = value; }",
				    config_setting_name(s), config_setting_name(m));
		if (o->ngroups == 2 * OPT_MAX_PLUGINS)
			return fail(c, m, "too many module groups");
		g = &o->groups[o->ngroups++];
		memset(g, 0, sizeof(*g));
		g->kind = strdup(kind);
		g->name = strdup(config_setting_name(m));
		for (int k = 0; k < config_setting_length(m); k++) {
			const config_setting_t *kv = config_setting_get_elem(m, k);
			char v[4096], where[4200];

			if (g->nkv == OPT_MAX_KV)
				return fail(c, kv, "too many keys for %s %s", kind, g->name);
			if (scalar_text(kv, v, sizeof(v)))
				return fail(c, kv, "%s: expected a single value", config_setting_name(kv));
			snprintf(where, sizeof(where), "%s:%u", c->file, config_setting_source_line(kv));
			g->key[g->nkv] = strdup(config_setting_name(kv));
			g->val[g->nkv] = strdup(v);
			g->where[g->nkv] = strdup(where);
			g->nkv++;
		}
	}
	return 0;
}

static int apply(struct cfg *c, const config_setting_t *s, struct options *o)
{
	const char *k = config_setting_name(s);
	char v[4096], msg[512];
	uint64_t sz;
	long l;
	int b = 0, e;

	if (!strcmp(k, "analyzer"))
		return module_groups(c, s, o, "analyzer");
	if (!strcmp(k, "sink"))
		return module_groups(c, s, o, "sink");
	if (!strcmp(k, "path"))
		return add_list(c, s, o, 0);
	if (!strcmp(k, "exclude_path"))
		return add_list(c, s, o, 1);
	if (!strcmp(k, "analyzers"))
		return add_list(c, s, o, 2);
	if (!strcmp(k, "sinks"))
		return add_list(c, s, o, 3);
	if (!strcmp(k, "pid") || !strcmp(k, "tid")) {
		e = id_list(c, s, v, sizeof(v));
		if (e)
			return e;
		return setter(c, s, k[0] == 'p' ? options_set_pids(o, v, msg, sizeof(msg))
						: options_set_tids(o, v, msg, sizeof(msg)), msg);
	}
	/* booleans */
	{
		static const struct { const char *key; size_t off; } bools[] = {
			{ "all", offsetof(struct options, trace_all) },
			{ "only_files", offsetof(struct options, only_files) },
			{ "iouring", offsetof(struct options, iouring) },
			{ "durations", offsetof(struct options, durations) },
			{ "quiet", offsetof(struct options, quiet) },
			{ "details", offsetof(struct options, details) },
			{ "no_summary", offsetof(struct options, no_summary) },
		};

		for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
			if (strcmp(k, bools[i].key))
				continue;
			e = want_bool(c, s, &b);
			if (!e)
				*(int *)((char *)o + bools[i].off) = b;
			return e;
		}
	}
	e = want_text(c, s, v, sizeof(v));
	if (e)
		return e;
	if (!strcmp(k, "comm"))
		return setter(c, s, options_set_comm(o, v, msg, sizeof(msg)), msg);
	if (!strcmp(k, "mode"))
		return setter(c, s, options_set_mode(o, v, msg, sizeof(msg)), msg);
	if (!strcmp(k, "hash"))
		return setter(c, s, options_set_hash(o, v, msg, sizeof(msg)), msg);
	if (!strcmp(k, "attach"))
		return setter(c, s, options_set_attach(o, v, msg, sizeof(msg)), msg);
	if (!strcmp(k, "cgroup") || !strcmp(k, "output") || !strcmp(k, "syscalls")) {
		char **dst = k[0] == 'c' ? &o->cgroup : k[0] == 'o' ? &o->output : &o->syscalls;

		free(*dst);
		*dst = strdup(v);
		return *dst ? 0 : -ENOMEM;
	}
	if (!strcmp(k, "time")) {
		if (!strcmp(v, ""))
			o->time = TIME_NONE;
		else if (!strcmp(v, "t"))
			o->time = TIME_T;
		else if (!strcmp(v, "tt"))
			o->time = TIME_TT;
		else if (!strcmp(v, "ttt"))
			o->time = TIME_TTT;
		else
			return fail(c, s, "time: '%s' is not one of \"\", \"t\", \"tt\", \"ttt\"", v);
		return 0;
	}
	if (!strcmp(k, "duration")) {
		if (parse_seconds(v, &o->duration))
			return fail(c, s, "duration: '%s' is not a number of seconds greater than 0", v);
		return 0;
	}
	if (!strcmp(k, "ring_size")) {
		if (parse_size(v, 4096, 1ULL << 32, &sz) || (sz & (sz - 1)))
			return fail(c, s, "ring_size: '%s' is not a power-of-two size like \"64M\"", v);
		o->ring_bytes = sz;
		return 0;
	}
	if (!strcmp(k, "hash_bytes") || !strcmp(k, "capture_data")) {
		if (parse_size(v, k[0] == 'h', DIO_PATH_MAX_BYTES, &sz))
			return fail(c, s, "%s: '%s' is not a size up to 4096", k, v);
		if (k[0] == 'h')
			o->hash_bytes = sz;
		else
			o->capture_bytes = sz;
		return 0;
	}
	if (!strcmp(k, "tag_table")) {
		if (parse_size(v, 1024, 1 << 24, &sz))
			return fail(c, s, "tag_table: '%s' is not a number from 1024 to 16M", v);
		o->tag_entries = sz;
		return 0;
	}
	if (!strcmp(k, "drain_ms") || !strcmp(k, "wakeup_at")) {
		int drain = k[0] == 'd';

		if (parse_long(v, 1, drain ? 1000 : 100, &l))
			return fail(c, s, "%s: '%s' is not a number from 1 to %d", k, v,
				    drain ? 1000 : 100);
		if (drain)
			o->drain_ms = l;
		else
			o->wakeup_pct = l;
		return 0;
	}
	return fail(c, s, "unknown key '%s' (the keys are the long options of 'dio trace --help', with _ for -)",
		    k);
}

int config_load(const char *file, struct options *o, char *err, size_t errlen)
{
	struct cfg c = { .file = file, .err = err, .errlen = errlen };
	config_setting_t *root;
	config_t cf;
	FILE *f;
	int e = 0;

	f = fopen(file, "r");
	if (!f) {
		e = -errno;
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return e;
	}
	config_init(&cf);
	if (!config_read(&cf, f)) {
		snprintf(err, errlen, "%s:%d: syntax error: %s", file, config_error_line(&cf),
			 config_error_text(&cf));
		e = -EINVAL;
		goto out;
	}
	root = config_root_setting(&cf);
	for (int i = 0; i < config_setting_length(root) && !e; i++)
		e = apply(&c, config_setting_get_elem(root, i), o);
	if (!e) {
		free(o->config_file);
		o->config_file = strdup(file);
	}
out:
	config_destroy(&cf);
	fclose(f);
	return e;
}
