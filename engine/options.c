// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "syscalls.h"
#include "util.h"

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = MODE_DETAILED;
	o->hash = HASH_OFF;
	o->hash_bytes = 4096;
	o->ring_bytes = 64ULL << 20;
	o->drain_ms = 20;
	o->wakeup_pct = 25;
	o->tag_entries = 65536;
	o->details = 1;
	o->iouring = 1;
}

static void free_sel(struct plugin_sel *s)
{
	free(s->name);
	for (int i = 0; i < s->nkv; i++) {
		free(s->key[i]);
		free(s->val[i]);
	}
	memset(s, 0, sizeof(*s));
}

void options_free(struct options *o)
{
	free(o->cgroup);
	free(o->syscalls);
	free(o->output);
	free(o->config_file);
	for (int i = 0; i < o->nprefix; i++)
		free(o->prefix[i]);
	for (int i = 0; i < o->nexclude; i++)
		free(o->exclude[i]);
	for (int i = 0; i < o->nanalyzers; i++)
		free_sel(&o->analyzers[i]);
	for (int i = 0; i < o->nsinks; i++)
		free_sel(&o->sinks[i]);
	for (int g = 0; g < o->ngroups; g++) {
		struct plugin_group *grp = &o->groups[g];

		free(grp->kind);
		free(grp->name);
		for (int i = 0; i < grp->nkv; i++) {
			free(grp->key[i]);
			free(grp->val[i]);
			free(grp->where[i]);
		}
	}
	options_init(o);
}

static int set_idlist(pid_t *out, int *n, const char *list, const char *what, char *err,
		      size_t errlen)
{
	char buf[1024], *save = NULL, *tok;
	int count = 0;

	if (!list || !*list) {
		snprintf(err, errlen, "%s: give a %s id", what, what[1] == 'p' ? "process" : "thread");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v;

		if (parse_long(tok, 1, 0x3fffffff, &v)) {
			snprintf(err, errlen, "%s: '%s' is not a %s id", what, tok,
				 !strcmp(what, "-p") ? "process" : "thread");
			return -EINVAL;
		}
		if (count == OPT_MAX_PIDS) {
			snprintf(err, errlen, "%s: at most %d ids", what, OPT_MAX_PIDS);
			return -EINVAL;
		}
		out[count++] = v;
	}
	*n = count;
	return 0;
}

int options_set_pids(struct options *o, const char *list, char *err, size_t errlen)
{
	return set_idlist(o->pids, &o->npids, list, "-p", err, errlen);
}

int options_set_tids(struct options *o, const char *list, char *err, size_t errlen)
{
	return set_idlist(o->tids, &o->ntids, list, "--tid", err, errlen);
}

int options_add_prefix(struct options *o, const char *p, int exclude, char *err, size_t errlen)
{
	const char *what = exclude ? "--exclude-path" : "--path";
	int *n = exclude ? &o->nexclude : &o->nprefix;
	char **arr = exclude ? o->exclude : o->prefix;
	size_t len;
	char *copy;

	if (!p || p[0] != '/') {
		snprintf(err, errlen, "%s: '%s' is not an absolute path (start it with /)", what,
			 p ? p : "");
		return -EINVAL;
	}
	len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		len--;
	if (len >= DIO_PREFIX_LEN) {
		snprintf(err, errlen, "%s: prefix longer than %d bytes", what, DIO_PREFIX_LEN - 1);
		return -EINVAL;
	}
	if (*n == DIO_MAX_PREFIX) {
		snprintf(err, errlen, "%s: at most %d prefixes", what, DIO_MAX_PREFIX);
		return -EINVAL;
	}
	copy = strndup(p, len);
	if (!copy)
		return -ENOMEM;
	arr[(*n)++] = copy;
	return 0;
}

int options_set_mode(struct options *o, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "detailed"))
		o->mode = MODE_DETAILED;
	else if (v && !strcmp(v, "raw"))
		o->mode = MODE_RAW;
	else {
		snprintf(err, errlen, "--mode: '%s' is not a mode (use detailed or raw)", v ? v : "");
		return -EINVAL;
	}
	return 0;
}

int options_set_hash(struct options *o, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "user"))
		o->hash = HASH_USER;
	else if (v && !strcmp(v, "kernel"))
		o->hash = HASH_KERNEL;
	else if (v && !strcmp(v, "off"))
		o->hash = HASH_OFF;
	else {
		snprintf(err, errlen, "--hash: '%s' is not a hash mode (use user, kernel or off)",
			 v ? v : "");
		return -EINVAL;
	}
	return 0;
}

int options_set_comm(struct options *o, const char *v, char *err, size_t errlen)
{
	if (!v || !*v || strlen(v) >= sizeof(o->comm)) {
		snprintf(err, errlen, "--comm: '%s' must be 1 to 15 characters (the kernel's task name length)",
			 v ? v : "");
		return -EINVAL;
	}
	snprintf(o->comm, sizeof(o->comm), "%s", v);
	return 0;
}

int options_set_attach(struct options *o, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "auto"))
		o->attach = ATTACH_AUTO;
	else if (v && !strcmp(v, "syscall"))
		o->attach = ATTACH_SYSCALL;
	else if (v && !strcmp(v, "raw"))
		o->attach = ATTACH_RAW;
	else {
		snprintf(err, errlen, "--attach: '%s' is not a method (use auto, syscall or raw)",
			 v ? v : "");
		return -EINVAL;
	}
	return 0;
}

int options_add_plugin(struct options *o, int sink, const char *spec, char *err, size_t errlen)
{
	const char *what = sink ? "--sink" : "--analyzer";
	int *n = sink ? &o->nsinks : &o->nanalyzers;
	struct plugin_sel *s;
	const char *colon;
	char *kvs, *save = NULL, *tok;

	if (!spec || !*spec || *spec == ':') {
		snprintf(err, errlen, "%s: give a module name or a path to a .so", what);
		return -EINVAL;
	}
	if (*n == OPT_MAX_PLUGINS) {
		snprintf(err, errlen, "%s: at most %d modules", what, OPT_MAX_PLUGINS);
		return -EINVAL;
	}
	s = sink ? &o->sinks[*n] : &o->analyzers[*n];
	memset(s, 0, sizeof(*s));
	colon = strchr(spec, ':');
	s->name = colon ? strndup(spec, colon - spec) : strdup(spec);
	if (!s->name)
		return -ENOMEM;
	(*n)++;
	if (!colon)
		return 0;
	kvs = strdup(colon + 1);
	if (!kvs)
		return -ENOMEM;
	for (tok = strtok_r(kvs, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			snprintf(err, errlen, "%s %s: '%s' is not key=value", what, s->name, tok);
			free(kvs);
			return -EINVAL;
		}
		if (s->nkv == OPT_MAX_KV) {
			snprintf(err, errlen, "%s %s: too many options", what, s->name);
			free(kvs);
			return -EINVAL;
		}
		s->key[s->nkv] = strndup(tok, eq - tok);
		s->val[s->nkv] = strdup(eq + 1);
		s->where[s->nkv] = "command line";
		if (!s->key[s->nkv] || !s->val[s->nkv]) {
			free(kvs);
			return -ENOMEM;
		}
		s->nkv++;
	}
	free(kvs);
	return 0;
}

/*
 * Rules for combinations:
 * - exactly one source of processes: a command, -p, or -a (-a with -p or a
 *   command is contradictory);
 * - --capture-data without --hash keeps the bytes and hashes nothing.
 */
int options_finish(struct options *o, char *err, size_t errlen)
{
	int e;

	if (o->trace_all && (o->npids || o->argv)) {
		snprintf(err, errlen, "-a traces every process: drop -p or the command, or drop -a");
		return -EINVAL;
	}
	if (o->npids && o->argv) {
		snprintf(err, errlen, "give either -p PID or a command, not both");
		return -EINVAL;
	}
	if (!o->trace_all && !o->npids && !o->argv) {
		snprintf(err, errlen, "nothing to trace: give a command after --, -p PID or -a");
		return -EINVAL;
	}
	if (o->syscalls) {
		e = syscalls_select(o->syscalls, o->sel, err, errlen);
		if (e)
			return e;
	} else {
		size_t n;
		const struct dio_syscall *t = syscall_table(&n);

		memset(o->sel, 0, sizeof(o->sel));
		for (size_t i = 0; i < n; i++)
			o->sel[t[i].nr] = 1;
	}
	return 0;
}
