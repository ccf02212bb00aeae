// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session spec: which analyzers and sinks, with which options. The
 * command line's NAME:key=value text is parsed here once; commands and the
 * shortcut options (--report, --format json, dio report, dio push) add
 * modules and keys by value, so no value ever goes through text again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "spec.h"
#include "syscalls.h"

static const char *option_name(int sink)
{
	return sink ? "--sink" : "--analyzer";
}

/* key=value, the lengths given, appended to s; opt names the option in messages */
static int add_kv(struct plugin_sel *s, const char *opt, const char *key, size_t klen,
		  const char *val, size_t vlen, char *err, size_t errlen)
{
	if (s->nkv == OPT_MAX_KV) {
		snprintf(err, errlen, "%s %s: at most %d options", opt, s->name, OPT_MAX_KV);
		return -EINVAL;
	}
	s->key[s->nkv] = strndup(key, klen);
	s->val[s->nkv] = strndup(val, vlen);
	s->where[s->nkv] = "command line";
	s->nkv++;
	if (!s->key[s->nkv - 1] || !s->val[s->nkv - 1]) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int spec__set(struct plugin_sel *s, const char *key, const char *val, char *err, size_t errlen)
{
	return add_kv(s, "module", key, strlen(key), val, strlen(val), err, errlen);
}

/* "key=value[,key=value...]" into s; an empty list adds nothing */
static int add_list(struct plugin_sel *s, const char *opt, const char *list, char *err,
		    size_t errlen)
{
	for (const char *kv = list; kv; ) {
		size_t len = strcspn(kv, ",");
		const char *eq = memchr(kv, '=', len);
		int e;

		if (!eq || eq == kv) {
			snprintf(err, errlen, "%s %s: '%.*s' is not key=value", opt, s->name,
				 (int)len, kv);
			return -EINVAL;
		}
		e = add_kv(s, opt, kv, eq - kv, eq + 1, len - (eq + 1 - kv), err, errlen);
		if (e)
			return e;
		kv = kv[len] ? kv + len + 1 : NULL;
	}
	return 0;
}

/* Module names are file names looked up on the search path: no '/', nothing odd. */
static int plugin_name_ok(const char *name, size_t len)
{
	if (!len)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!(c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

static int plugin_path_ok(const char *name, size_t len)
{
	return len > 3 && !memcmp(name + len - 3, ".so", 3);
}

/*
 * The ':' that starts the options, or NULL. A path may hold ':' itself (a
 * build directory named "a:b"): when the text up to the first ".so" that ends
 * the name has a '/' and no '=', that is the path and the options follow it.
 */
static const char *plugin_name_end(const char *spec)
{
	for (const char *so = strstr(spec, ".so"); so; so = strstr(so + 1, ".so")) {
		if (so[3] != ':' && so[3])
			continue;
		if (memchr(spec, '/', so - spec) && !memchr(spec, '=', so - spec))
			return so[3] ? so + 3 : NULL;
		break;
	}
	return strchr(spec, ':');
}

static int full(struct options *o, int sink, char *err, size_t errlen)
{
	if ((sink ? o->nsinks : o->nanalyzers) < OPT_MAX_PLUGINS)
		return 0;
	snprintf(err, errlen, "%s: at most %d modules", option_name(sink), OPT_MAX_PLUGINS);
	return -EINVAL;
}

/*
 * NAME[:key=value[,key=value...]]. The entry is built aside and appended only
 * when all of it is valid, so a failed call leaves nothing half-made in o.
 * Keys and values are copied; where[] is the static "command line", which the
 * config file replaces with its own static string.
 */
int options_add_plugin(struct options *o, int sink, const char *text, char *err, size_t errlen)
{
	const char *opt = option_name(sink);
	struct plugin_sel s = { 0 };
	const char *colon;
	size_t nlen;
	int e;

	if (!text || !*text || *text == ':') {
		snprintf(err, errlen, "%s: give a module name or a path to a .so, e.g. %s", opt,
			 sink ? "--sink console" : "--analyzer summary");
		return -EINVAL;
	}
	colon = plugin_name_end(text);
	nlen = colon ? (size_t)(colon - text) : strlen(text);
	if (memchr(text, '/', nlen) ? !plugin_path_ok(text, nlen) : !plugin_name_ok(text, nlen)) {
		snprintf(err, errlen,
			 "%s: '%.*s' is neither a module name nor a path to a .so; see 'dio list %ss'",
			 opt, (int)nlen, text, sink ? "sink" : "analyzer");
		return -EINVAL;
	}
	/* "all" loads every analyzer; their options go by name, not to the lot */
	if (nlen == 3 && !memcmp(text, "all", 3)) {
		if (sink) {
			snprintf(err, errlen,
				 "--sink: 'all' is only for --analyzer; name each sink");
			return -EINVAL;
		}
		if (colon) {
			snprintf(err, errlen,
				 "--analyzer all: takes no options; give them per analyzer, e.g. --analyzer summary:top=10");
			return -EINVAL;
		}
	}
	e = full(o, sink, err, errlen);
	if (e)
		return e;
	s.name = strndup(text, nlen);
	if (!s.name) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	e = colon ? add_list(&s, opt, colon + 1, err, errlen) : 0;
	if (e) {
		options_free_sel(&s);
		return e;
	}
	if (sink)
		o->sinks[o->nsinks++] = s;
	else
		o->analyzers[o->nanalyzers++] = s;
	return 0;
}

struct plugin_sel *spec__add(struct options *o, int sink, const char *name, char *err,
			     size_t errlen)
{
	struct plugin_sel *s;

	if (full(o, sink, err, errlen))
		return NULL;
	s = sink ? &o->sinks[o->nsinks] : &o->analyzers[o->nanalyzers];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sink)
		o->nsinks++;
	else
		o->nanalyzers++;
	return s;
}

struct plugin_sel *spec__own_sink(struct options *o, const char *name, int given, char *err,
				  size_t errlen)
{
	/* a list on the command line replaces the config file's: so does the command's sink */
	if (!given)
		options_clear_list(o, "sink");
	o->console_taken = 1;
	return spec__add(o, SPEC_SINK, name, err, errlen);
}

int spec__all_analyzers(struct options *o, int given, char *err, size_t errlen)
{
	if (given)
		return 0;
	options_clear_list(o, "analyzer");
	return spec__add(o, SPEC_ANALYZER, "all", err, errlen) ? 0 : -EINVAL;
}

int spec__report(struct options *o, const char *page, char *err, size_t errlen)
{
	struct plugin_sel *s;

	if (!o->nsinks && !o->findings_only && !spec__add(o, SPEC_SINK, "console", err, errlen))
		return -EINVAL;
	s = spec__add(o, SPEC_SINK, "html", err, errlen);
	return s ? spec__set(s, "file", page, err, errlen) : -EINVAL;
}

int spec__json(struct options *o, char *err, size_t errlen)
{
	struct plugin_sel *s = spec__add(o, SPEC_SINK, "json", err, errlen);

	o->console_taken = 1;
	return s ? spec__set(s, "file", o->output ? o->output : "-", err, errlen) : -EINVAL;
}

int spec__push_to(struct options *o, const char *to, int given, char *err, size_t errlen)
{
	struct plugin_sel *s = spec__own_sink(o, "clickhouse", given, err, errlen);
	size_t len = strcspn(to, ",");
	int e;

	if (!s)
		return -EINVAL;
	/* URL[,key=value...]: the first item is the url, with or without its key */
	if (!strncmp(to, "url=", 4))
		e = add_kv(s, "--sink", "url", 3, to + 4, len - 4, err, errlen);
	else
		e = add_kv(s, "--sink", "url", 3, to, len, err, errlen);
	if (!e && to[len])
		e = add_list(s, "--sink", to + len + 1, err, errlen);
	return e ? e : spec__set(s, "origin", "push", err, errlen);
}

static const char *time_name(enum time_style t)
{
	switch (t) {
	case TIME_T: return "t";
	case TIME_TT: return "tt";
	case TIME_TTT: return "ttt";
	default: return "";
	}
}

/* -e trace=SPEC left out some call: the console prints the selected calls alone */
static int calls_only(const struct options *o)
{
	const struct dio_syscall *t;
	size_t n;

	if (!o->syscalls)
		return 0;
	t = syscall_table(&n);
	for (size_t i = 0; i < n; i++)
		if (t[i].nr < DIO_NR_MAX && !o->sel[t[i].nr])
			return 1;
	return 0;
}

int spec__shortcuts(const struct options *o, int sink, const char *name, struct spec_kv *kv,
		    int max)
{
	/* -s N as text: the same for every call of a process, whose options are one */
	static char strsize[16];
	struct spec_kv all[SPEC_SHORTCUTS_MAX];
	const struct dio_syscall *u;
	int n = 0;

	if (sink && !strcmp(name, "console")) {
		if (o->output)
			all[n++] = (struct spec_kv){ "output", o->output, o->output_implied };
		if (o->time != TIME_NONE)
			all[n++] = (struct spec_kv){ "time", time_name(o->time), 0 };
		if (o->durations)
			all[n++] = (struct spec_kv){ "durations", "true", 0 };
		if (o->strsize) {
			snprintf(strsize, sizeof(strsize), "%u", o->strsize);
			all[n++] = (struct spec_kv){ "strsize", strsize, 0 };
		}
		/* -q against the console's events=; dio analyze's own quiet gives way */
		if (o->quiet)
			all[n++] = (struct spec_kv){ "events", "false", !o->quiet_given };
		if (!o->details)
			all[n++] = (struct spec_kv){ "details", "false", 0 };
		if (o->hints)
			all[n++] = (struct spec_kv){ "hints", "true", 0 };
		/* as strace -e trace=: other lines only when the sink's options ask */
		if (calls_only(o)) {
			all[n++] = (struct spec_kv){ "proc", "false", 1 };
			all[n++] = (struct spec_kv){ "block", "false", 1 };
			all[n++] = (struct spec_kv){ "runq", "false", 1 };
			/* io_uring requests are io_uring_enter's work: shown with it */
			if (!(u = syscall_by_name("io_uring_enter")) || u->nr >= DIO_NR_MAX ||
			    !o->sel[u->nr])
				all[n++] = (struct spec_kv){ "uring", "false", 1 };
		}
	}
	/* -o FILE: the summary's tables follow the events into FILE */
	if (!sink && !strcmp(name, "summary") && o->output)
		all[n++] = (struct spec_kv){ "output", o->output, 1 };
	/* findings alone: tables an analyzer prints at the end are not wanted */
	if (!sink && o->findings_only)
		all[n++] = (struct spec_kv){ "output", "/dev/null", 1 };
	if (n > max)
		n = max;
	memcpy(kv, all, n * sizeof(*kv));
	return n;
}
