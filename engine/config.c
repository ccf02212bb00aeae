// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The config file (libconfig syntax). Top-level keys are the keys of the
 * option table (optdefs.c: mostly the long options with '_' for '-') and go
 * through the same rows and setters as the command line, so ranges and
 * messages cannot drift apart. The groups `analyzer: { NAME: { ... } }` and
 * `sink: { NAME: { ... } }` hold module options as text with their FILE:LINE;
 * the plugin loader checks them against each module's option table.
 */
#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "optdefs.h"
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

/*
 * A setter names the option as typed on the command line ("--ring-size: ...",
 * "-p: ..."); in a config file the key is what the user wrote, so it takes the
 * option's place. Messages that do not start with an option stay as they are.
 */
static int setter_failed(struct cfg *c, const config_setting_t *s, const char *key, int e,
			 const char *msg)
{
	const char *rest = msg;

	if (e == -ENOMEM) {
		snprintf(c->err, c->errlen, "%s", msg);
		return e;
	}
	if (*rest != '-')
		return fail(c, s, "%s", msg);
	rest += strcspn(rest, ": ");
	if (*rest == ':')
		rest++;
	return fail(c, s, "%s:%s", key, rest);
}

/*
 * A scalar as the text the command line would carry. Floats get the shortest
 * form that reads back the same, so 0.1 stays "0.1" for a module's parser.
 */
/*
 * libconfig keeps an integer without the L suffix in 32 bits and silently
 * cuts a larger one (max_size = 5368709120; is 1 GiB to it). Such literals are
 * refused with where they are, before libconfig reads the file (f is then
 * rewound). Strings and comments are skipped.
 */
static int wide_integers(FILE *f, const char *file, char *err, size_t errlen)
{
	int c, prev = '\n', line = 1;

	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			line++;
		} else if (c == '"') {
			while ((c = getc(f)) != EOF && c != '"' && c != '\n')
				if (c == '\\')
					getc(f);
			if (c == '\n')
				line++;
		} else if (c == '/' && (c = getc(f)) == '*') {
			int star = 0;

			while ((c = getc(f)) != EOF && !(star && c == '/')) {
				star = c == '*';
				line += c == '\n';
			}
		} else if (c == '#' || c == '/') {	/* '#', or the second '/' of "//" */
			while ((c = getc(f)) != EOF && c != '\n')
				;
			line++;
		} else if (c >= '0' && c <= '9' && !isalnum(prev) && prev != '_' && prev != '.') {
			char num[32];
			size_t n = 0;

			num[n++] = (char)c;
			while ((c = getc(f)) != EOF && (isalnum(c) || c == '.') && n < sizeof(num) - 1)
				num[n++] = (char)c;
			num[n] = 0;
			if (c != EOF)
				ungetc(c, f);
			/* decimal digits only (not hex, floats or 64-bit L literals) */
			if (strspn(num, "0123456789") == n && n > 0 &&
			    (n > 10 || strtoull(num, NULL, 10) > 2147483647ULL)) {
				snprintf(err, errlen,
					 "%s:%d: %s does not fit in a plain integer: write %sL, or a size "
					 "as a string (\"5G\")", file, line, num, num);
				return -EINVAL;
			}
			c = num[n - 1];
		}
		prev = c;
	}
	rewind(f);
	return 0;
}

static int scalar_text(const config_setting_t *s, char *buf, size_t len)
{
	double d;

	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
		snprintf(buf, len, "%d", config_setting_get_int(s));
		return 0;
	case CONFIG_TYPE_INT64:
		snprintf(buf, len, "%lld", config_setting_get_int64(s));
		return 0;
	case CONFIG_TYPE_FLOAT:
		d = config_setting_get_float(s);
		snprintf(buf, len, "%.15g", d);
		if (strtod(buf, NULL) != d)
			snprintf(buf, len, "%.17g", d);
		return 0;
	case CONFIG_TYPE_BOOL:
		snprintf(buf, len, "%s", config_setting_get_bool(s) ? "true" : "false");
		return 0;
	case CONFIG_TYPE_STRING:
		if ((size_t)snprintf(buf, len, "%s", config_setting_get_string(s)) >= len)
			return -E2BIG;
		return 0;
	}
	return -EINVAL;
}

static int is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

/*
 * "summary:top=3" in a list: the module and its options came from FILE:LINE,
 * which errors found when the module is loaded name instead of the command line.
 */
static int plugin_where(struct cfg *c, const config_setting_t *el, struct plugin_sel *sel)
{
	if (asprintf(&sel->origin, "%s:%u", c->file, config_setting_source_line(el)) < 0) {
		sel->origin = NULL;
		return fail(c, el, "out of memory");
	}
	for (int k = 0; k < sel->nkv; k++)
		sel->where[k] = sel->origin;
	return 0;
}

/* path = "/a"; or path = ["/a", "/b"]; (a list or an array) */
static int set_list(struct cfg *c, const config_setting_t *s, const struct opt_def *d,
		    struct options *o)
{
	int n = config_setting_is_aggregate(s) ? config_setting_length(s) : 1;
	int modules = d->kind == OPT_MODULES;
	char msg[512];
	int e;

	if (config_setting_is_group(s))
		return fail(c, s, "%s: expected a string or a list of strings, e.g. %s = [\"%s\"];",
			    d->key, d->key, modules ? "summary" : "/var/lib/redis");
	for (int i = 0; i < n; i++) {
		const config_setting_t *el = config_setting_is_aggregate(s) ?
					     config_setting_get_elem(s, i) : s;

		if (config_setting_type(el) != CONFIG_TYPE_STRING)
			return fail(c, el, "%s: expected a string or a list of strings", d->key);
		e = opt_set(o, d, config_setting_get_string(el), msg, sizeof(msg));
		if (e)
			return setter_failed(c, el, d->key, e, msg);
		if (modules &&
		    (e = plugin_where(c, el, d->val ? &o->sinks[o->nsinks - 1] :
				      &o->analyzers[o->nanalyzers - 1])))
			return e;
	}
	return 0;
}

/* pid = 1234; pid = "1234,1240"; pid = [1234, 1240]; */
static int set_ids(struct cfg *c, const config_setting_t *s, const struct opt_def *d,
		   struct options *o)
{
	char buf[1024], msg[512];
	size_t off = 0;
	int e;

	if (is_int(s) || config_setting_type(s) == CONFIG_TYPE_STRING) {
		if (scalar_text(s, buf, sizeof(buf)))
			return fail(c, s, "%s: list too long", d->key);
	} else if (config_setting_is_array(s) || config_setting_is_list(s)) {
		buf[0] = 0;
		for (int i = 0; i < config_setting_length(s); i++) {
			const config_setting_t *el = config_setting_get_elem(s, i);

			if (!is_int(el))
				return fail(c, el,
					    "%s: expected a list of numbers, e.g. %s = [1234, 1240];",
					    d->key, d->key);
			off += snprintf(buf + off, off < sizeof(buf) ? sizeof(buf) - off : 0,
					"%s%lld", i ? "," : "", config_setting_get_int64(el));
			if (off >= sizeof(buf))
				return fail(c, el, "%s: list too long", d->key);
		}
	} else {
		return fail(c, s,
			    "%s: expected a number or a list of numbers, e.g. %s = [1234, 1240];",
			    d->key, d->key);
	}
	e = opt_set(o, d, buf, msg, sizeof(msg));
	return e ? setter_failed(c, s, d->key, e, msg) : 0;
}

/* A key of the option table: its kind says what the file may give, so `output = true;` is refused. */
static int set_key(struct cfg *c, const config_setting_t *s, const struct opt_def *d,
		   struct options *o)
{
	int type = config_setting_type(s);
	char v[4096], msg[512];
	int e;

	switch (d->kind) {
	case OPT_PATHS:
	case OPT_MODULES:
		return set_list(c, s, d, o);
	case OPT_IDS:
		return set_ids(c, s, d, o);
	case OPT_FLAG:
		if (type != CONFIG_TYPE_BOOL)
			return fail(c, s, "%s: expected true or false", d->key);
		break;
	case OPT_NUMBER:
	case OPT_SIZE:
		if (!is_int(s) && type != CONFIG_TYPE_STRING)
			return fail(c, s, "%s: expected a whole number or a string like \"64k\"",
				    d->key);
		break;
	case OPT_SECONDS:
		if (!is_int(s) && type != CONFIG_TYPE_FLOAT && type != CONFIG_TYPE_STRING)
			return fail(c, s, "%s: expected a number of seconds", d->key);
		break;
	default:
		if (type != CONFIG_TYPE_STRING)
			return fail(c, s, "%s: expected a string in double quotes", d->key);
		break;
	}
	if (scalar_text(s, v, sizeof(v)))
		return fail(c, s, "%s: value too long", d->key);
	e = opt_set(o, d, v, msg, sizeof(msg));
	return e ? setter_failed(c, s, d->key, e, msg) : 0;
}

static int add_group(struct cfg *c, const config_setting_t *m, const char *kind,
		     struct options *o)
{
	struct plugin_group *g;

	if (!config_setting_is_group(m))
		return fail(c, m, "%s.%s: expected a group, e.g. %s: { %s: { key = value; }; };",
			    kind, config_setting_name(m), kind, config_setting_name(m));
	if (o->ngroups == 2 * OPT_MAX_PLUGINS)
		return fail(c, m, "%s.%s: too many module groups (at most %d)", kind,
			    config_setting_name(m), 2 * OPT_MAX_PLUGINS);
	/* counted first so options_free() releases whatever a failure leaves behind */
	g = &o->groups[o->ngroups++];
	memset(g, 0, sizeof(*g));
	g->kind = strdup(kind);
	g->name = strdup(config_setting_name(m));
	if (!g->kind || !g->name)
		goto nomem;
	for (int i = 0; i < config_setting_length(m); i++) {
		const config_setting_t *kv = config_setting_get_elem(m, i);
		char v[4096], where[4200];

		if (g->nkv == OPT_MAX_KV)
			return fail(c, kv, "%s.%s: at most %d keys", kind, g->name, OPT_MAX_KV);
		if (scalar_text(kv, v, sizeof(v)))
			return fail(c, kv, "%s.%s.%s: expected a number, a string or true/false",
				    kind, g->name, config_setting_name(kv));
		snprintf(where, sizeof(where), "%s:%u", c->file, config_setting_source_line(kv));
		g->key[g->nkv] = strdup(config_setting_name(kv));
		g->val[g->nkv] = strdup(v);
		g->where[g->nkv] = strdup(where);
		g->nkv++;
		if (!g->key[g->nkv - 1] || !g->val[g->nkv - 1] || !g->where[g->nkv - 1])
			goto nomem;
	}
	return 0;
nomem:
	snprintf(c->err, c->errlen, "out of memory");
	return -ENOMEM;
}

/* analyzer: { summary: { top = 10; }; }; */
static int set_groups(struct cfg *c, const config_setting_t *s, const char *kind,
		      struct options *o)
{
	int e = 0;

	if (!config_setting_is_group(s))
		return fail(c, s,
			    "%s: expected a group of modules, e.g. %s: { %s: { key = value; }; };",
			    kind, kind, !strcmp(kind, "sink") ? "console" : "summary");
	for (int i = 0; i < config_setting_length(s) && !e; i++)
		e = add_group(c, config_setting_get_elem(s, i), kind, o);
	return e;
}

static int apply(struct cfg *c, const config_setting_t *s, struct options *o)
{
	const char *name = config_setting_name(s);

	const struct opt_def *d;
	char under[64];

	if (!strcmp(name, "analyzer") || !strcmp(name, "sink"))
		return set_groups(c, s, name, o);
	d = optdefs__key(name);
	if (d)
		return set_key(c, s, d, o);
	/* libconfig allows '-' in names, and people copy option names: point them home */
	snprintf(under, sizeof(under), "%s", name);
	for (char *p = under; *p; p++)
		if (*p == '-')
			*p = '_';
	if (strcmp(name, under) && optdefs__key(under))
		return fail(c, s, "unknown key '%s'; did you mean '%s'?", name, under);
	return fail(c, s, "unknown key '%s' (see dio.conf.example or dio(1) for the keys)", name);
}

int config_load(const char *file, struct options *o, char *err, size_t errlen)
{
	struct cfg c = { .file = file, .err = err, .errlen = errlen };
	config_setting_t *root;
	struct stat st;
	config_t cf;
	FILE *f;
	char why[8400];
	int e = 0, fd;

	/*
	 * opened here rather than by config_read_file() to report the real errno;
	 * non-blocking, so that a FIFO is refused below rather than waited on
	 */
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		e = -errno;
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return e;
	}
	config_init(&cf);
	/* a directory opens fine and then reads as an obscure syntax error */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", file, strerror(EISDIR));
		e = -EISDIR;
		goto cleanup;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (give a config file, see dio.conf.example)",
			 file);
		e = -EINVAL;
		goto cleanup;
	}
	/* it names modules and output files: what others can write, dio does not follow */
	if (trusted_file(file, why, sizeof(why)) == -EPERM) {
		snprintf(err, errlen, "refusing config file %s", why);
		e = -EPERM;
		goto cleanup;
	}
	e = wide_integers(f, file, err, errlen);
	if (e)
		goto cleanup;
	if (!config_read(&cf, f)) {
		snprintf(err, errlen, "%s:%d: syntax error: %s", file, config_error_line(&cf),
			 config_error_text(&cf));
		e = -EINVAL;
		goto cleanup;
	}
	root = config_root_setting(&cf);
	for (int i = 0; i < config_setting_length(root) && !e; i++)
		e = apply(&c, config_setting_get_elem(root, i), o);
	if (!e) {
		char *copy = strdup(file);

		if (!copy) {
			snprintf(err, errlen, "out of memory");
			e = -ENOMEM;
			goto cleanup;
		}
		free(o->config_file);
		o->config_file = copy;
	}
cleanup:
	config_destroy(&cf);
	fclose(f);
	return e;
}
