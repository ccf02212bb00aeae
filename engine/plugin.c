// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "findings.h"
#include "plugin.h"
#include "util.h"

#ifndef PKGLIBDIR
#define PKGLIBDIR "/usr/local/lib/dio"
#endif

static const char *kind_name(int kind)
{
	return kind == PLUGIN_SINK ? "sink" : kind == PLUGIN_SOURCE ? "source" : "analyzer";
}

/* sources live in the sinks' modules: one module writes a store and reads it back */
static const char *kind_env(int kind)
{
	return kind == PLUGIN_ANALYZER ? "DIO_ANALYZER_PATH" : "DIO_SINK_PATH";
}

static const char *kind_dir(int kind)
{
	return kind == PLUGIN_ANALYZER ? PKGLIBDIR "/analyzers" : PKGLIBDIR "/sinks";
}

/*
 * Search path: the build tree when dio runs from one (so ./dio works right
 * after make), the installed directory, then $DIO_*_PATH entries: a module of
 * the user's never takes a built-in's name. The variables are read with
 * secure_getenv: a dio given file capabilities ignores them.
 */
static void search_path(int kind, char *dirs, size_t len, size_t *builtin_len)
{
	const char *env = secure_getenv(kind_env(kind));
	const char *sub = kind == PLUGIN_ANALYZER ? "analyzers" : "sinks";
	char exe[4096], tree[4200] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(tree, sizeof(tree), "%s/%s/summary/.libs", exe, sub);
			if (kind != PLUGIN_ANALYZER)
				snprintf(tree, sizeof(tree), "%s/%s/console/.libs", exe, sub);
			if (!access(tree, F_OK))
				snprintf(tree, sizeof(tree), "%s/%s:", exe, sub);
			else
				tree[0] = 0;
		}
	}
	snprintf(dirs, len, "%s%s", tree, kind_dir(kind));
	*builtin_len = strlen(dirs);
	if (env && *env)
		snprintf(dirs + *builtin_len, len - *builtin_len, ":%s", env);
}

/* 0 (from a built-in directory), 1 (from $DIO_*_PATH), or -ENOENT */
static int find_module(int kind, const char *name, char *out, size_t outlen)
{
	char dirs[8192];
	char *save = NULL, *dir;
	size_t builtin;

	search_path(kind, dirs, sizeof(dirs), &builtin);
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		int from_env = (size_t)(dir - dirs) >= builtin;

		snprintf(out, outlen, "%s/%s.so", dir, name);
		if (!access(out, R_OK))
			return from_env;
		snprintf(out, outlen, "%s/%s/.libs/%s.so", dir, name, name);
		if (!access(out, R_OK))
			return from_env;
	}
	return -ENOENT;
}

static int valid_name(const char *name)
{
	if (!*name)
		return 0;
	for (const char *c = name; *c; c++)
		if (!(*c == '-' || *c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		      (*c >= 'A' && *c <= 'Z')))
			return 0;
	return 1;
}

int plugin__load(struct plugin *p, int kind, const char *name, char *err, size_t errlen)
{
	static const char *const syms[] = {
		[PLUGIN_ANALYZER] = DIO_ANALYZER_SYMBOL, [PLUGIN_SINK] = DIO_SINK_SYMBOL,
		[PLUGIN_SOURCE] = DIO_SOURCE_SYMBOL,
	};
	static const uint32_t needs[] = {
		[PLUGIN_ANALYZER] = DIO_ANALYZER_SIZE_V1, [PLUGIN_SINK] = DIO_SINK_SIZE_V1,
		[PLUGIN_SOURCE] = DIO_SOURCE_SIZE_V1,
	};
	const char *sym = syms[kind];
	uint32_t abi, size, need;
	char file[4096], why[8400];
	const void *desc;
	int e;

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	if (strchr(name, '/')) {
		snprintf(file, sizeof(file), "%s", name);
		if (access(file, R_OK)) {
			e = -errno;
			snprintf(err, errlen, "%s '%s': %s", kind_name(kind), file, strerror(errno));
			return e;
		}
	} else if (!valid_name(name) || (e = find_module(kind, name, file, sizeof(file))) < 0) {
		snprintf(err, errlen, "no %s named '%s'; see 'dio list %ss' (or give a path to a .so)",
			 kind_name(kind), name, kind_name(kind));
		return -ENOENT;
	} else if (e == 1) {
		/* never silent: a module found through the environment says where it came from */
		warn_msg("%s %s: loading %s (found through $%s)", kind_name(kind), name, file,
			 kind_env(kind));
	}
	/* its constructor runs with dio's privileges: it must be as safe as dio itself */
	e = trusted_file(file, why, sizeof(why));
	if (e) {
		if (e == -EPERM)
			snprintf(err, errlen, "refusing %s module %s", kind_name(kind), why);
		else
			snprintf(err, errlen, "%s '%s': %s", kind_name(kind), file, strerror(-e));
		return e;
	}
	p->dl = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl) {
		snprintf(err, errlen, "%s: cannot load: %s", file, dlerror());
		return -ENOEXEC;
	}
	desc = dlsym(p->dl, sym);
	if (!desc) {
		snprintf(err, errlen, "%s: not a dio %s module (no '%s' symbol)", file, kind_name(kind),
			 sym);
		e = -ENOEXEC;
		goto fail;
	}
	/* abi and size lead every descriptor, whatever its version */
	abi = ((const uint32_t *)desc)[0];
	size = ((const uint32_t *)desc)[1];
	need = needs[kind];
	if (abi != DIO_PLUGIN_ABI) {
		snprintf(err, errlen,
			 "%s: %s ABI version %u, but this dio speaks version %u: rebuild the module against this dio's headers",
			 file, kind_name(kind), abi, DIO_PLUGIN_ABI);
		e = -EPROTO;
		goto fail;
	}
	if (size < need) {
		snprintf(err, errlen,
			 "%s: %s descriptor is %u bytes, ABI version %u needs at least %u: rebuild the module against this dio's headers",
			 file, kind_name(kind), size, DIO_PLUGIN_ABI, need);
		e = -EPROTO;
		goto fail;
	}
	if (kind == PLUGIN_SINK) {
		p->sk = desc;
		p->name = p->sk->name;
		p->options = p->sk->options;
	} else if (kind == PLUGIN_SOURCE) {
		/* no options: its spec says all (clickhouse:url=...,session=...) */
		p->so = desc;
		p->name = p->so->name;
	} else {
		p->an = desc;
		p->name = p->an->name;
		p->options = p->an->options;
	}
	if (!p->name || !*p->name) {
		snprintf(err, errlen, "%s: the %s descriptor has no name", file, kind_name(kind));
		e = -EPROTO;
		goto fail;
	}
	if (kind == PLUGIN_SOURCE ? !p->so->scheme || !p->so->open || !p->so->next ||
				    !p->so->close :
	    kind == PLUGIN_SINK ? !p->sk->init : !p->an->init) {
		if (kind == PLUGIN_SOURCE)
			snprintf(err, errlen, "%s: the source descriptor lacks .scheme, .open, "
				 ".next or .close: set them", file);
		else
			snprintf(err, errlen, "%s: the %s descriptor has no init function: set .init",
				 file, kind_name(kind));
		e = -EPROTO;
		goto fail;
	}
	for (p->nopts = 0; p->options && p->options[p->nopts].name; p->nopts++)
		;
	p->file = strdup(file);
	p->opts = calloc(p->nopts + 1, sizeof(*p->opts));
	p->owned = calloc(p->nopts + 1, sizeof(*p->owned));
	if (!p->file || !p->opts || !p->owned) {
		snprintf(err, errlen, "%s: out of memory", file);
		e = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	plugin__unload(p);
	return e;
}

static int parse_value(struct plugin *p, int i, const char *val, char *msg, size_t msglen)
{
	const struct dio_option *opt = &p->options[i];
	struct dio_optval *v = &p->opts[i];
	long l;
	int b;
	char *end;

	switch (opt->type) {
	case DIO_OPT_BOOL:
		if (parse_bool(val, &b)) {
			snprintf(msg, msglen, "%s: '%s' is not a boolean (use true or false)", opt->name,
				 val);
			return -EINVAL;
		}
		v->i = b;
		return 0;
	case DIO_OPT_INT: {
		uint64_t sz;

		if (val[0] == '-') {
			if (parse_long(val, -(1L << 62), 0, &l)) {
				snprintf(msg, msglen, "%s: '%s' is not an integer", opt->name, val);
				return -EINVAL;
			}
			v->i = l;
			return 0;
		}
		if (parse_size(val, 0, INT64_MAX, &sz)) {
			snprintf(msg, msglen, "%s: '%s' is not an integer", opt->name, val);
			return -EINVAL;
		}
		v->i = (int64_t)sz;
		return 0;
	}
	case DIO_OPT_DOUBLE:
		errno = 0;
		v->d = strtod(val, &end);
		if (errno || end == val || *end) {
			snprintf(msg, msglen, "%s: '%s' is not a number", opt->name, val);
			return -EINVAL;
		}
		return 0;
	case DIO_OPT_STRING:
		free(p->owned[i]);
		p->owned[i] = strdup(val);
		if (!p->owned[i])
			return -ENOMEM;
		v->s = p->owned[i];
		return 0;
	}
	snprintf(msg, msglen, "%s: the module declares an unknown option type %u", opt->name,
		 opt->type);
	return -EINVAL;
}

static int find_opt(const struct plugin *p, const char *key)
{
	for (int i = 0; i < p->nopts; i++)
		if (!strcmp(p->options[i].name, key))
			return i;
	return -1;
}

int plugin__set(struct plugin *p, const char *key, const char *val, const char *where,
		char *err, size_t errlen)
{
	char msg[512];
	int i = find_opt(p, key), e;

	if (i < 0) {
		snprintf(err, errlen, "%s: unknown key '%s' for %s '%s'; see 'dio list %ss'", where,
			 key, kind_name(p->kind), p->name, kind_name(p->kind));
		return -EINVAL;
	}
	e = parse_value(p, i, val, msg, sizeof(msg));
	if (e) {
		snprintf(err, errlen, "%s: %s %s: %s", where, kind_name(p->kind), p->name, msg);
		return e;
	}
	p->opts[i].set = 1;
	return 0;
}

int plugin__configure(struct plugin *p, const struct options *o, const struct plugin_sel *sel,
		      char *err, size_t errlen)
{
	char msg[512];
	int e;

	for (int i = 0; i < p->nopts; i++) {
		if (!p->options[i].def)
			continue;
		e = parse_value(p, i, p->options[i].def, msg, sizeof(msg));
		if (e) {
			snprintf(err, errlen, "%s: bad default: %s", p->file, msg);
			return e;
		}
	}
	for (int g = 0; o && g < o->ngroups; g++) {
		const struct plugin_group *grp = &o->groups[g];

		if (strcmp(grp->kind, kind_name(p->kind)) || strcmp(grp->name, p->name))
			continue;
		for (int k = 0; k < grp->nkv; k++) {
			e = plugin__set(p, grp->key[k], grp->val[k], grp->where[k], err, errlen);
			if (e)
				return e;
		}
	}
	for (int k = 0; sel && k < sel->nkv; k++) {
		char where[300];

		if (sel->origin)
			snprintf(where, sizeof(where), "%s: %ss: %s", sel->origin,
				 kind_name(p->kind), sel->name);
		else
			snprintf(where, sizeof(where), "--%s %s", kind_name(p->kind), sel->name);
		e = plugin__set(p, sel->key[k], sel->val[k], where, err, errlen);
		if (e)
			return e;
	}
	return 0;
}

void plugin__unload(struct plugin *p)
{
	if (!p)
		return;
	if (p->inited) {
		if (p->an && p->an->destroy)
			p->an->destroy(p->state);
		else if (p->sk && p->sk->destroy)
			p->sk->destroy(p->state);
	}
	for (int i = 0; p->owned && i < p->nopts; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->opts);
	free(p->file);
	if (p->dl)
		dlclose(p->dl);
	memset(p, 0, sizeof(*p));
}

/* names already listed: the same module can sit in the build tree and the install dir */
struct seen {
	char name[64][64];
	int n;
};

static int seen_before(struct seen *sn, const char *name)
{
	for (int i = 0; i < sn->n; i++)
		if (!strcmp(sn->name[i], name))
			return 1;
	if (sn->n < 64)
		snprintf(sn->name[sn->n++], sizeof(sn->name[0]), "%s", name);
	return 0;
}

/* what a listing prints of each module */
typedef void (*show_fn)(const struct plugin *p, FILE *out, void *arg);

/* the modules of a directory, by name so that a listing is the same everywhere */
static void list_dir(int kind, const char *dir, FILE *out, int *n, struct seen *sn, show_fn show,
		     void *arg)
{
	struct dirent **names = NULL;
	int count = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < count; i++) {
		const char *d_name = names[i]->d_name;
		char err[512], name[256];
		struct plugin p;
		size_t l = strlen(d_name);

		if (d_name[0] == '.')
			continue;
		if (l > 3 && !strcmp(d_name + l - 3, ".so"))
			snprintf(name, sizeof(name), "%.*s", (int)(l - 3), d_name);
		else
			snprintf(name, sizeof(name), "%s", d_name);	/* build tree: NAME/.libs */
		if (!valid_name(name) || plugin__load(&p, kind, name, err, sizeof(err)))
			continue;
		if (seen_before(sn, p.name)) {
			plugin__unload(&p);
			continue;
		}
		show(&p, out, arg);
		(*n)++;
		plugin__unload(&p);
	}
	for (int i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

static int list_modules(int kind, FILE *out, show_fn show, void *arg)
{
	char dirs[8192];
	char *save = NULL, *dir;
	struct seen sn = { .n = 0 };
	size_t builtin;
	int n = 0;

	search_path(kind, dirs, sizeof(dirs), &builtin);
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
		list_dir(kind, dir, out, &n, &sn, show, arg);
	return n;
}

static void show_module(const struct plugin *p, FILE *out, void *arg)
{
	const char *desc = p->kind == PLUGIN_SINK ? p->sk->description :
			   p->kind == PLUGIN_SOURCE ? p->so->description : p->an->description;

	(void)arg;
	fprintf(out, "%-16s %s\n", p->name, desc ? desc : "");
	for (int i = 0; i < p->nopts; i++)
		fprintf(out, "  %s:%s=%s  %s\n", p->name, p->options[i].name,
			p->options[i].def ? p->options[i].def : "",
			p->options[i].help ? p->options[i].help : "");
}

int plugin__list(int kind, FILE *out)
{
	return list_modules(kind, out, show_module, NULL);
}

struct names {
	char **v;
	int n, cap, failed;
};

static void add_name(const struct plugin *p, FILE *out, void *arg)
{
	struct names *nm = arg;

	(void)out;
	if (nm->failed)
		return;
	if (nm->n == nm->cap) {
		int cap = nm->cap ? 2 * nm->cap : 16;
		char **v = realloc(nm->v, cap * sizeof(*v));

		if (!v) {
			nm->failed = 1;
			return;
		}
		nm->v = v;
		nm->cap = cap;
	}
	nm->v[nm->n] = strdup(p->name);
	if (!nm->v[nm->n])
		nm->failed = 1;
	else
		nm->n++;
}

int plugin__names(int kind, char ***names)
{
	struct names nm = { 0 };

	list_modules(kind, NULL, add_name, &nm);
	if (nm.failed) {
		plugin__free_names(nm.v, nm.n);
		*names = NULL;
		return -ENOMEM;
	}
	*names = nm.v;
	return nm.n;
}

void plugin__free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void show_rule(const struct dio_rule *r, FILE *out)
{
	fprintf(out, "%-32s %-7s  %s\n", r->code, findings_severity(r->severity),
		r->title ? r->title : "");
}

static void show_rules(const struct plugin *p, FILE *out, void *arg)
{
	const struct dio_rule *r = PLUGIN_HAS(p->an, rules) ? p->an->rules : NULL;

	(void)arg;
	if (!r || !r->code)
		/* stderr: what stdout lists stays one rule a line */
		warn_msg("analyzer %s (%s) declares no rules: the codes of its findings are "
			 "not listed", p->name, p->file);
	for (; r && r->code; r++)
		show_rule(r, out);
}

int plugin__list_rules(FILE *out, const struct dio_rule *own)
{
	int n = list_modules(PLUGIN_ANALYZER, out, show_rules, NULL);

	for (; own && own->code; own++)
		show_rule(own, out);
	return n;
}
