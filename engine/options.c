// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Defaults, setting an option by the kind its definition names (the rows
 * are in optdefs.c), the lists, and the checks that need every option at
 * once (options_finish). Setters write their message without the
 * "FILE:LINE: " a config file adds, and name the option the way the command
 * line spells it; config.c swaps in its key.
 */
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
	o->zlevel = 1;
	o->wakeup_pct = 25;
	o->tag_entries = 65536;
	o->inflight_entries = 32768;
	o->details = 1;
	o->iouring = 1;
	o->block = 1;
	o->runq = 1;
	o->runq_min_us = 10;
	o->max_findings = 10;
	o->fail_on = -1;
	o->flush_ms = 1000;
	o->attach = ATTACH_AUTO;
}

/*
 * Frees every string the options own and leaves o as options_init() does, so
 * it is safe after a parse that failed half-way and safe to call twice. The
 * counters say what is owned: nothing past them is ever freed.
 */
void options_free_sel(struct plugin_sel *s)
{
	free(s->name);
	for (int i = 0; i < s->nkv; i++) {
		free(s->key[i]);
		free(s->val[i]);
		/* where[] points to "command line" (static) or to origin */
	}
	free(s->origin);
	memset(s, 0, sizeof(*s));
}

void options_free_group(struct plugin_group *g)
{
	free(g->kind);
	free(g->name);
	for (int i = 0; i < g->nkv; i++) {
		free(g->key[i]);
		free(g->val[i]);
		free(g->where[i]);
	}
	memset(g, 0, sizeof(*g));
}

void options_free(struct options *o)
{
	free(o->cgroup);
	free(o->srcroot);
	free(o->fail_on_names);
	free(o->baseline);
	free(o->report);
	free(o->suppress);
	free(o->syscalls);
	free(o->output);
	free(o->config_file);
	for (int i = 0; i < o->nprefix; i++)
		free(o->prefix[i]);
	for (int i = 0; i < o->nexclude; i++)
		free(o->exclude[i]);
	for (int i = 0; i < o->nanalyzers; i++)
		options_free_sel(&o->analyzers[i]);
	for (int i = 0; i < o->nsinks; i++)
		options_free_sel(&o->sinks[i]);
	for (int i = 0; i < o->ngroups; i++)
		options_free_group(&o->groups[i]);
	options_init(o);
}

void options_clear_list(struct options *o, const char *name)
{
	if (!strcmp(name, "path")) {
		for (int i = 0; i < o->nprefix; i++)
			free(o->prefix[i]);
		o->nprefix = 0;
	} else if (!strcmp(name, "exclude-path")) {
		for (int i = 0; i < o->nexclude; i++)
			free(o->exclude[i]);
		o->nexclude = 0;
	} else if (!strcmp(name, "analyzer")) {
		for (int i = 0; i < o->nanalyzers; i++)
			options_free_sel(&o->analyzers[i]);
		o->nanalyzers = 0;
	} else if (!strcmp(name, "sink")) {
		for (int i = 0; i < o->nsinks; i++)
			options_free_sel(&o->sinks[i]);
		o->nsinks = 0;
	}
}

/*
 * The kernel compares prefixes with the paths it builds from dentries, which
 * never hold "//", "." or "..": a prefix spelled that way would silently match
 * nothing, so repeated slashes are folded and dot components refused.
 */
int options_add_prefix(struct options *o, const char *p, int exclude, char *err, size_t errlen)
{
	const char *opt = exclude ? "--exclude-path" : "--path";
	int *n = exclude ? &o->nexclude : &o->nprefix;
	char **arr = exclude ? o->exclude : o->prefix;
	char buf[DIO_PREFIX_LEN];
	size_t len = 0;

	if (!p || p[0] != '/') {
		snprintf(err, errlen, "%s: '%s' is not an absolute path (start it with /)", opt,
			 p ? p : "");
		return -EINVAL;
	}
	for (const char *c = p; *c; ) {
		size_t clen;

		while (*c == '/')
			c++;
		clen = strcspn(c, "/");
		if ((clen == 1 && c[0] == '.') || (clen == 2 && c[0] == '.' && c[1] == '.')) {
			snprintf(err, errlen,
				 "%s: '%s' has a '.' or '..' component (give the real path)",
				 opt, p);
			return -EINVAL;
		}
		if (!clen)
			break;	/* trailing slashes */
		if (len + 1 + clen >= sizeof(buf)) {
			snprintf(err, errlen, "%s: '%.40s...' is longer than %d bytes", opt, p,
				 DIO_PREFIX_LEN - 1);
			return -EINVAL;
		}
		buf[len++] = '/';
		memcpy(buf + len, c, clen);
		len += clen;
		c += clen;
	}
	if (!len)
		buf[len++] = '/';	/* "/" itself: everything */
	buf[len] = 0;
	if (*n == DIO_MAX_PREFIX) {
		snprintf(err, errlen, "%s: at most %d prefixes; use a common parent directory", opt,
			 DIO_MAX_PREFIX);
		return -EINVAL;
	}
	arr[*n] = strdup(buf);
	if (!arr[*n]) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}


/*
 * A number in d's range into its 32- or 64-bit field. Sizes accept k/M/G
 * (1024-based), so "64M" and "16k" work for sizes and counts alike.
 */
/* an option as its messages name it: "--NAME", or "-L" for one with a letter only */
static const char *opt_shown(const struct opt_def *d, char *buf, size_t len)
{
	if (d->name)
		snprintf(buf, len, "--%s", d->name);
	else
		snprintf(buf, len, "-%c", d->letter);
	return buf;
}

static int set_number(void *field, const struct opt_def *d, const char *v, char *err,
		      size_t errlen)
{
	int size = d->kind == OPT_SIZE;
	char nm[64];
	uint64_t val;
	long l;
	int e;

	if (size) {
		e = parse_size(v, d->min, d->max, &val);
	} else {
		e = parse_long(v, (long)d->min, (long)d->max, &l);
		val = (uint64_t)l;
	}
	if (e == -ERANGE) {
		snprintf(err, errlen, "%s: '%s' is out of range (use %s)", opt_shown(d, nm, sizeof(nm)), v, d->range);
		return -EINVAL;
	}
	if (e) {
		if (size)
			snprintf(err, errlen,
				 "%s: '%s' is not a size (use a number with an optional k, M or G suffix)",
				 opt_shown(d, nm, sizeof(nm)), v);
		else
			snprintf(err, errlen,
				 "%s: '%s' is not a number (use a whole number from %s)",
				 opt_shown(d, nm, sizeof(nm)), v, d->range);
		return -EINVAL;
	}
	if ((d->flags & OPTF_POW2) && (val & (val - 1))) {
		snprintf(err, errlen, "%s: '%s' is not a power of two (use e.g. 16M or 64M)",
			 opt_shown(d, nm, sizeof(nm)), v);
		return -EINVAL;
	}
	if (d->size == sizeof(uint64_t))
		*(uint64_t *)field = val;
	else
		*(uint32_t *)field = (uint32_t)val;
	return 0;
}

int options_set_string(char **dst, const char *v, char *err, size_t errlen)
{
	char *copy = strdup(v);

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	free(*dst);
	*dst = copy;
	return 0;
}

int opt_set(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	void *field = (char *)base + d->off;
	char nm[64];
	int e;

	if (!v)
		v = "";
	switch (d->kind) {
	case OPT_FLAG:
		/* the command line gives no value; the config file true or false */
		*(int *)field = *v ? !strcmp(v, "true") : d->val;
		return 0;
	case OPT_NUMBER:
	case OPT_SIZE:
		return set_number(field, d, v, err, errlen);
	case OPT_SECONDS:
		e = parse_seconds(v, field);
		if (e == -ERANGE)
			snprintf(err, errlen,
				 "%s: '%s' is out of range (use more than 0 and at most 1e9 seconds)",
				 opt_shown(d, nm, sizeof(nm)), v);
		else if (e)
			snprintf(err, errlen, "%s: '%s' is not a number of seconds greater than 0",
				 opt_shown(d, nm, sizeof(nm)), v);
		return e ? -EINVAL : 0;
	case OPT_STRING:
		if (!*v) {
			snprintf(err, errlen, "%s: %s", opt_shown(d, nm, sizeof(nm)), d->hint);
			return -EINVAL;
		}
		return options_set_string(field, v, err, errlen);
	case OPT_PATHS:
		return options_add_prefix(base, v, d->val, err, errlen);
	case OPT_CONFIG:
	case OPT_HELP:
		return 0;	/* the command line's driver reads them first */
	case OPT_IDS:
	case OPT_COUNT:
	case OPT_CUSTOM:
	case OPT_MODULES:	/* the spec's (optdefs.c): options come before it */
		break;
	}
	return d->set(base, d, v, err, errlen);
}

/*
 * Checks that need all the options, run once both sources are read:
 * - What to trace comes from exactly one source: a command, -p, or -a. -a with
 *   -p or a command contradicts itself; -p with a command would leave dio's
 *   exit status and stop condition ambiguous.
 * - --tid alone implies -a: a thread id names its threads as exactly as -p
 *   names processes, and the kernel-side tid filter does the narrowing. With
 *   -p or a command it narrows those.
 * - --comm and --cgroup are filters only: on their own they are an error, as
 *   with nothing at all, so a typo never turns into a system-wide trace.
 * - --capture-data needs --hash: the captured bytes travel in the same record
 *   as the buffer hash. Implying a hash would either ship --hash-bytes (4096)
 *   bytes per call to user space or hash them in the kernel, a cost the user
 *   did not ask for; the message says which option to add.
 * - --mode raw resolves no files, so --path, --exclude-path and --only-files
 *   could never match what they mean; refused rather than silently wrong.
 * - Then the --syscalls selection (NULL: every call in the table) goes to o->sel.
 */
int options_finish(struct options *o, char *err, size_t errlen)
{
	if (o->trace_all && (o->npids || o->argv)) {
		snprintf(err, errlen,
			 "-a traces every process: drop -p or the command, or drop -a");
		return -EINVAL;
	}
	if (o->npids && o->argv) {
		snprintf(err, errlen, "give either -p PID or a command, not both");
		return -EINVAL;
	}
	if (!o->trace_all && !o->npids && !o->argv && o->ntids)
		o->trace_all = 1;
	if (!o->trace_all && !o->npids && !o->argv) {
		snprintf(err, errlen, "nothing to trace: give a command after --, -p PID or -a");
		return -EINVAL;
	}
	if (o->capture_bytes && o->hash == HASH_OFF) {
		snprintf(err, errlen,
			 "--capture-data needs --hash user or --hash kernel (the bytes travel with the buffer hash)");
		return -EINVAL;
	}
	if (o->mode == MODE_RAW && (o->nprefix || o->nexclude || o->only_files)) {
		snprintf(err, errlen, "%s needs --mode detailed (raw mode does not look up files)",
			 o->nprefix ? "--path" : o->nexclude ? "--exclude-path" : "--only-files");
		return -EINVAL;
	}
	if (o->syscalls)
		return syscalls_select(o->syscalls, o->sel, err, errlen);
	{
		const struct dio_syscall *t;
		size_t n;

		t = syscall_table(&n);
		memset(o->sel, 0, sizeof(o->sel));
		for (size_t i = 0; i < n; i++)
			if (t[i].nr < DIO_NR_MAX)
				o->sel[t[i].nr] = 1;
	}
	return 0;
}
