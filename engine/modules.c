// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading, configuring and starting the modules of a session spec (spec.c),
 * with the settings the spec's shortcuts give them (-o, -t, -T, -q for the
 * console, -o for the summary's tables).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "modules.h"
#include "spec.h"
#include "util.h"

struct modules *modules__new(void)
{
	return calloc(1, sizeof(struct modules));
}

/* A module's option key, unless the config or the module's selection set it; 0 when it has none. */
static int set_default(struct plugin *p, const char *key, const char *val, char *err,
		       size_t errlen)
{
	for (int i = 0; i < p->nopts; i++)
		if (!strcmp(p->options[i].name, key) && !p->opts[i].set)
			return plugin__set(p, key, val, "command line", err, errlen);
	return 0;
}

/* What the options say to this module beside its own key=value (spec.c) */
static int shortcuts(struct plugin *p, const struct options *o, char *err, size_t errlen)
{
	struct spec_kv kv[SPEC_SHORTCUTS_MAX];
	int n = spec__shortcuts(o, p->kind == PLUGIN_SINK, p->name, kv, SPEC_SHORTCUTS_MAX), e = 0;

	for (int i = 0; !e && i < n; i++)
		e = kv[i].unset_only ? set_default(p, kv[i].key, kv[i].val, err, errlen) :
		    plugin__set(p, kv[i].key, kv[i].val, "command line", err, errlen);
	return e;
}

static int add_plugin(struct modules *m, const struct options *o, int kind, const char *name,
		      const struct plugin_sel *sel, char *err, size_t errlen)
{
	struct plugin *p;
	int e;

	/* "all" plus a name: an analyzer is loaded once; each --sink is a sink of its own */
	for (int i = 0; (kind == PLUGIN_ANALYZER || !sel) && i < m->n; i++)
		if (m->plugins[i].kind == kind && !strcmp(m->plugins[i].name, name))
			return 0;
	if (m->n == MAX_PLUGINS) {
		snprintf(err, errlen, "too many modules (at most %d)", MAX_PLUGINS);
		return -E2BIG;
	}
	p = &m->plugins[m->n];
	e = plugin__load(p, kind, name, err, errlen);
	if (e && sel && sel->origin) {
		/* a config file's entry: its file and line first */
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s: %s", sel->origin, msg);
	}
	if (e)
		return e;
	m->ctx[m->n].host = m->host_ud;
	m->ctx[m->n].p = p;
	p->ctx = &m->ctx[m->n];
	m->n++;
	e = plugin__configure(p, o, sel, err, errlen);
	if (!e)
		e = shortcuts(p, o, err, errlen);
	return e;
}

/* every analyzer on the search path, for --analyzer all */
static int add_all_analyzers(struct modules *m, const struct options *o, char *err, size_t errlen)
{
	char **names;
	int n = plugin__names(PLUGIN_ANALYZER, &names), e = 0;

	if (n < 0) {
		snprintf(err, errlen, "out of memory");
		return n;
	}
	for (int i = 0; i < n && !e; i++) {
		/* --no-summary holds for "all" too */
		if (o->no_summary && !strcmp(names[i], "summary"))
			continue;
		e = add_plugin(m, o, PLUGIN_ANALYZER, names[i], NULL, err, errlen);
	}
	plugin__free_names(names, n);
	return e;
}

/*
 * A config group (analyzer: { NAME: {...}; }) for a module that does not
 * exist is a typo that would silently lose its settings; one for a module
 * that exists but is not loaded this time is kept for when it is.
 */
static int check_groups(struct modules *m, const struct options *o, char *err, size_t errlen)
{
	for (int g = 0; g < o->ngroups; g++) {
		const struct plugin_group *grp = &o->groups[g];
		int kind = strcmp(grp->kind, "sink") ? PLUGIN_ANALYZER : PLUGIN_SINK;
		struct plugin tmp;
		char e2[512];
		int loaded = 0;

		for (int i = 0; i < m->n && !loaded; i++)
			loaded = m->plugins[i].kind == kind && !strcmp(m->plugins[i].name, grp->name);
		if (loaded)
			continue;
		if (!plugin__load(&tmp, kind, grp->name, e2, sizeof(e2))) {
			plugin__unload(&tmp);
			continue;
		}
		snprintf(err, errlen, "%s: %s: { %s: ... }: no %s named '%s' (see 'dio list %ss')",
			 grp->nkv ? grp->where[0] : o->config_file ? o->config_file : "config",
			 grp->kind, grp->name, grp->kind, grp->name, grp->kind);
		return -EINVAL;
	}
	return 0;
}

static int init_plugin(struct modules *m, struct plugin *p, char *err, size_t errlen)
{
	int e, logged = p->logged;

	if (p->an)
		e = p->an->init(m->host, p->ctx, p->opts, &p->state);
	else
		e = p->sk->init(m->host, p->ctx, p->opts, &p->state);
	if (e) {
		/* a module that said why already: one line is enough (err stays empty) */
		if (p->logged > logged)
			err[0] = 0;
		else
			snprintf(err, errlen, "%s %s: cannot start: %s", p->an ? "analyzer" : "sink",
				 p->name, strerror(e < 0 ? -e : e));
		return e < 0 ? e : -EINVAL;
	}
	p->inited = 1;
	for (int t = 1; t < DIO_EV_MAX; t++) {
		uint64_t want = p->an ? p->an->events : p->sk->events;
		int has_cb = p->an ? p->an->event != NULL : p->sk->event != NULL;

		if (has_cb && (want & DIO_EV_MASK(t)))
			m->by_type[t][m->nby[t]++] = p;
	}
	if (p->sk && p->sk->findings && p->sk->finding)
		m->finding_sinks[m->nfinding++] = p;
	return 0;
}

int modules__start(struct modules *m, const struct options *o, const struct dio_host *host,
		   void *host_ud, char *err, size_t errlen)
{
	int e = 0, console = 0;

	m->host = host;
	m->host_ud = host_ud;
	for (int i = 0; i < o->nsinks; i++)
		console |= !strcmp(o->sinks[i].name, "console");
	/*
	 * sinks first: findings of analyzers need somewhere to go. --sink adds to
	 * the console, so the terminal still shows what it showed without it;
	 * -q with --sink asks for the named sinks alone, and a command's own
	 * output (a page, a server, --format json) takes the console's place.
	 */
	if (!console && !o->findings_only && !o->console_taken && !(o->nsinks && o->quiet_given))
		e = add_plugin(m, o, PLUGIN_SINK, "console", NULL, err, errlen);
	for (int i = 0; !e && i < o->nsinks; i++)
		e = add_plugin(m, o, PLUGIN_SINK, o->sinks[i].name, &o->sinks[i], err, errlen);
	/* the user's selections first, so that summary:key=value is not lost to the default */
	for (int i = 0; !e && i < o->nanalyzers; i++) {
		if (!strcmp(o->analyzers[i].name, "all"))
			e = add_all_analyzers(m, o, err, errlen);
		else
			e = add_plugin(m, o, PLUGIN_ANALYZER, o->analyzers[i].name,
				       &o->analyzers[i], err, errlen);
	}
	if (!e && !o->no_summary)
		e = add_plugin(m, o, PLUGIN_ANALYZER, "summary", NULL, err, errlen);
	if (!e)
		e = check_groups(m, o, err, errlen);
	for (int i = 0; !e && i < m->n; i++)
		if (m->plugins[i].sk)
			e = init_plugin(m, &m->plugins[i], err, errlen);
	for (int i = 0; !e && i < m->n; i++)
		if (m->plugins[i].an)
			e = init_plugin(m, &m->plugins[i], err, errlen);
	return e;
}

/* a sink that cannot write out (disk full) has said why; dio must not then exit 0 */
int modules__flush(struct modules *m)
{
	int e = 0;

	for (int i = 0; i < m->n; i++) {
		struct plugin *p = &m->plugins[i];

		if (p->sk && p->inited && p->sk->flush && p->sk->flush(p->state) < 0)
			e = -EIO;
	}
	return e;
}

int modules__finish_analyzers(struct modules *m)
{
	int ret = 0;

	for (int i = 0; i < m->n; i++) {
		struct plugin *p = &m->plugins[i];
		int e;

		if (!p->an || !p->inited || !p->an->finish)
			continue;
		e = p->an->finish(p->state);
		if (e < 0) {
			warn_msg("analyzer %s failed to finish: %s", p->name, strerror(-e));
			ret = e;
		}
	}
	return ret;
}

int modules__tick_analyzers(struct modules *m, uint64_t now_ns)
{
	int ret = 0;

	for (int i = 0; i < m->n; i++) {
		struct plugin *p = &m->plugins[i];
		int e;

		if (!p->an || !p->inited || !PLUGIN_HAS(p->an, tick) || !p->an->tick)
			continue;
		e = p->an->tick(p->state, now_ns);
		if (e < 0) {
			warn_msg("analyzer %s failed to judge: %s", p->name, strerror(-e));
			ret = e;
		}
	}
	return ret;
}

int modules__finish_sinks(struct modules *m)
{
	int ret = 0;

	for (int i = 0; i < m->n; i++) {
		struct plugin *p = &m->plugins[i];
		int e;

		if (!p->sk || !p->inited || !PLUGIN_HAS(p->sk, finish) || !p->sk->finish)
			continue;
		e = p->sk->finish(p->state);
		if (e < 0) {
			warn_msg("sink %s failed to finish: %s", p->name, strerror(-e));
			ret = e;
		}
	}
	return ret;
}

void modules__free(struct modules *m)
{
	if (!m)
		return;
	for (int i = m->n - 1; i >= 0; i--)
		if (m->plugins[i].an)
			plugin__unload(&m->plugins[i]);
	for (int i = m->n - 1; i >= 0; i--)
		plugin__unload(&m->plugins[i]);
	free(m);
}
