// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Defaults, the setters the command line and the config file share, and the
 * checks that need every option at once (options_finish). Setters write their
 * message without the "FILE:LINE: " a config file adds, and name the option
 * the way the command line spells it; config.c swaps in its key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings.h"
#include "options.h"
#include "syscalls.h"
#include "util.h"

/* PID_MAX_LIMIT on 64-bit kernels: no pid or tid can be larger */
#define PID_LIMIT	(4L * 1024 * 1024)

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

static void free_sel(struct plugin_sel *s)
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

static void free_group(struct plugin_group *g)
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

/*
 * Frees every string the options own and leaves o as options_init() does, so
 * it is safe after a parse that failed half-way and safe to call twice. The
 * counters say what is owned: nothing past them is ever freed.
 */
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
		free_sel(&o->analyzers[i]);
	for (int i = 0; i < o->nsinks; i++)
		free_sel(&o->sinks[i]);
	for (int i = 0; i < o->ngroups; i++)
		free_group(&o->groups[i]);
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
			free_sel(&o->analyzers[i]);
		o->nanalyzers = 0;
	} else if (!strcmp(name, "sink")) {
		for (int i = 0; i < o->nsinks; i++)
			free_sel(&o->sinks[i]);
		o->nsinks = 0;
	}
}

/*
 * "12,34": every entry a positive id. The list replaces the previous one only
 * when all of it is valid, so a bad value leaves o as it was.
 */
static int set_idlist(pid_t *out, int *n, const char *list, const char *opt, const char *what,
		      char *err, size_t errlen)
{
	pid_t ids[OPT_MAX_PIDS];
	const char *p = list;
	int count = 0;

	if (!list || !*list) {
		snprintf(err, errlen, "%s: give a %s id, or several separated by commas", opt,
			 what);
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[32];
		long v;

		if (!len) {
			snprintf(err, errlen,
				 "%s: empty entry in '%s' (separate ids with one comma)",
				 opt, list);
			return -EINVAL;
		}
		snprintf(tok, sizeof(tok), "%.*s", (int)len, p);
		if (len >= sizeof(tok) || parse_long(tok, 1, PID_LIMIT, &v)) {
			snprintf(err, errlen, "%s: '%.*s' is not a %s id", opt, (int)len, p, what);
			return -EINVAL;
		}
		if (count == OPT_MAX_PIDS) {
			snprintf(err, errlen,
				 "%s: at most %d ids; trace fewer, or use -a with --comm", opt,
				 OPT_MAX_PIDS);
			return -EINVAL;
		}
		ids[count++] = v;
		p += len;
		if (!*p)
			break;
		p++;	/* the comma; "1," ends with an empty entry, refused above */
	}
	memcpy(out, ids, count * sizeof(ids[0]));
	*n = count;
	return 0;
}

int options_set_pids(struct options *o, const char *list, char *err, size_t errlen)
{
	return set_idlist(o->pids, &o->npids, list, "-p", "process", err, errlen);
}

int options_set_tids(struct options *o, const char *list, char *err, size_t errlen)
{
	return set_idlist(o->tids, &o->ntids, list, "--tid", "thread", err, errlen);
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

int options_set_mode(struct options *o, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "detailed")) {
		o->mode = MODE_DETAILED;
	} else if (v && !strcmp(v, "raw")) {
		o->mode = MODE_RAW;
	} else {
		snprintf(err, errlen, "--mode: '%s' is not a mode (use detailed or raw)",
			 v ? v : "");
		return -EINVAL;
	}
	return 0;
}

int options_set_hash(struct options *o, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "user")) {
		o->hash = HASH_USER;
	} else if (v && !strcmp(v, "kernel")) {
		o->hash = HASH_KERNEL;
	} else if (v && !strcmp(v, "off")) {
		o->hash = HASH_OFF;	/* so the command line can undo a config's hash */
	} else {
		snprintf(err, errlen, "--hash: '%s' is not a hash mode (use user, kernel or off)",
			 v ? v : "");
		return -EINVAL;
	}
	return 0;
}

int options_set_comm(struct options *o, const char *v, char *err, size_t errlen)
{
	/* the kernel keeps 15 characters of a task name: a longer one never matches */
	if (!v || !*v || strlen(v) >= sizeof(o->comm)) {
		snprintf(err, errlen,
			 "--comm: '%s' must be 1 to 15 characters (the kernel's task name length)",
			 v ? v : "");
		return -EINVAL;
	}
	snprintf(o->comm, sizeof(o->comm), "%s", v);
	return 0;
}

int options_set_attach(struct options *o, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "auto")) {
		o->attach = ATTACH_AUTO;
	} else if (v && !strcmp(v, "syscall")) {
		o->attach = ATTACH_SYSCALL;
	} else if (v && !strcmp(v, "raw")) {
		o->attach = ATTACH_RAW;
	} else {
		snprintf(err, errlen, "--attach: '%s' is not a method (use auto, syscall or raw)",
			 v ? v : "");
		return -EINVAL;
	}
	return 0;
}

/*
 * Numbers, with the ranges the kernel side can take. "size" ones accept k/M/G
 * (1024-based), so "64M" and "16k" work for sizes and counts alike.
 */
static const struct num_opt {
	const char *name;
	int size;
	uint64_t min, max;
	const char *range;
} num_opts[] = {
	{ "hash-bytes", 1, 1, DIO_PATH_MAX_BYTES, "1 to 4096" },
	{ "capture-data", 1, 0, DIO_PATH_MAX_BYTES, "0 to 4096" },
	/*
	 * A BPF ring is a power of two of pages sized by a u32, so 2G is the
	 * top; below 64k one call with two paths and captured data barely fits.
	 */
	{ "ring-size", 1, 64 << 10, 1ULL << 31, "64k to 2G" },
	{ "drain-ms", 0, 1, 1000, "1 to 1000" },
	{ "wakeup-at", 0, 1, 100, "1 to 100" },
	{ "tag-table", 1, 1024, 16 << 20, "1k to 16M" },
	/* as small as 1: a test fills the tables on purpose */
	{ "inflight-table", 1, 1, 16 << 20, "1 to 16M" },
	{ "level", 0, 0, 9, "0 to 9" },
	{ "max-size", 1, 64 << 10, 1ULL << 50, "64k or more" },
	{ "rotate", 0, 1, 1000000, "1 to 1000000" },
	{ "runq-min", 0, 0, 10000000, "0 to 10000000 microseconds" },
	{ "max-findings", 0, 0, 1000000, "0 (no limit) to 1000000" },
	{ "flush-ms", 0, 10, 3600000, "10 to 3600000 milliseconds" },
};

static int set_number(struct options *o, const struct num_opt *n, const char *v, char *err,
		      size_t errlen)
{
	uint64_t val;
	long l;
	int e;

	if (n->size) {
		e = parse_size(v, n->min, n->max, &val);
	} else {
		e = parse_long(v, n->min, n->max, &l);
		val = l;
	}
	if (e == -ERANGE) {
		snprintf(err, errlen, "--%s: '%s' is out of range (use %s)", n->name, v, n->range);
		return -EINVAL;
	}
	if (e) {
		if (n->size)
			snprintf(err, errlen,
				 "--%s: '%s' is not a size (use a number with an optional k, M or G suffix)",
				 n->name, v ? v : "");
		else
			snprintf(err, errlen,
				 "--%s: '%s' is not a number (use a whole number from %s)",
				 n->name, v ? v : "", n->range);
		return -EINVAL;
	}
	if (!strcmp(n->name, "hash-bytes")) {
		o->hash_bytes = val;
	} else if (!strcmp(n->name, "capture-data")) {
		o->capture_bytes = val;
	} else if (!strcmp(n->name, "ring-size")) {
		if (val & (val - 1)) {
			snprintf(err, errlen,
				 "--ring-size: '%s' is not a power of two (use e.g. 16M or 64M)",
				 v);
			return -EINVAL;
		}
		o->ring_bytes = val;
	} else if (!strcmp(n->name, "drain-ms")) {
		o->drain_ms = val;
	} else if (!strcmp(n->name, "wakeup-at")) {
		o->wakeup_pct = val;
	} else if (!strcmp(n->name, "level")) {
		o->zlevel = val;
	} else if (!strcmp(n->name, "max-size")) {
		o->max_size = val;
	} else if (!strcmp(n->name, "rotate")) {
		o->rotate = val;
	} else if (!strcmp(n->name, "runq-min")) {
		o->runq_min_us = val;
	} else if (!strcmp(n->name, "max-findings")) {
		o->max_findings = val;
	} else if (!strcmp(n->name, "flush-ms")) {
		o->flush_ms = val;
	} else if (!strcmp(n->name, "inflight-table")) {
		o->inflight_entries = val;
	} else {
		o->tag_entries = val;
	}
	return 0;
}

/* Replaces *dst with a copy of v; the old string is freed only on success. */
static int set_string(char **dst, const char *v, char *err, size_t errlen)
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

int options_set(struct options *o, const char *name, const char *v, char *err, size_t errlen)
{
	if (!v)
		v = "";
	for (size_t i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++)
		if (!strcmp(name, num_opts[i].name))
			return set_number(o, &num_opts[i], v, err, errlen);
	if (!strcmp(name, "pid"))
		return options_set_pids(o, v, err, errlen);
	if (!strcmp(name, "tid"))
		return options_set_tids(o, v, err, errlen);
	if (!strcmp(name, "comm"))
		return options_set_comm(o, v, err, errlen);
	if (!strcmp(name, "mode"))
		return options_set_mode(o, v, err, errlen);
	if (!strcmp(name, "hash"))
		return options_set_hash(o, v, err, errlen);
	if (!strcmp(name, "attach"))
		return options_set_attach(o, v, err, errlen);
	if (!strcmp(name, "duration")) {
		int e = parse_seconds(v, &o->duration);

		if (e == -ERANGE)
			snprintf(err, errlen,
				 "--duration: '%s' is out of range (use more than 0 and at most 1e9 seconds)",
				 v ? v : "");
		else if (e)
			snprintf(err, errlen,
				 "--duration: '%s' is not a number of seconds greater than 0",
				 v ? v : "");
		return e ? -EINVAL : 0;
	}
	if (!strcmp(name, "output")) {
		if (!v || !*v) {
			snprintf(err, errlen, "--output: give a file name");
			return -EINVAL;
		}
		return set_string(&o->output, v, err, errlen);
	}
	if (!strcmp(name, "cgroup")) {
		if (!v || !*v) {
			snprintf(err, errlen,
				 "--cgroup: give a cgroup v2 directory, e.g. /sys/fs/cgroup/system.slice/redis.service");
			return -EINVAL;
		}
		return set_string(&o->cgroup, v, err, errlen);
	}
	if (!strcmp(name, "fail-on")) {
		/* LEVEL, then the analyzers or codes about the machine it counts too */
		size_t n = strcspn(v, ",");

		for (int i = DIO_SEV_INFO; i <= DIO_SEV_ERROR; i++)
			if (strlen(findings_severity((uint32_t)i)) == n &&
			    !strncmp(v, findings_severity((uint32_t)i), n)) {
				o->fail_on = i;
				free(o->fail_on_names);
				o->fail_on_names = NULL;
				if (!v[n])
					return 0;
				if (!v[n + 1] || strstr(v + n, ",,") || v[strlen(v) - 1] == ',') {
					snprintf(err, errlen, "--fail-on: '%s': name an analyzer or a code "
						 "after each comma (e.g. warning,latency)", v);
					return -EINVAL;
				}
				return set_string(&o->fail_on_names, v + n + 1, err, errlen);
			}
		snprintf(err, errlen, "--fail-on: '%.*s' is not a severity (use info, warning or error)",
			 (int)n, v);
		return -EINVAL;
	}
	if (!strcmp(name, "srcroot")) {
		/*
		 * Resolved like the kernel's paths when it exists here; a recording
		 * analyzed on another machine may name a directory only it had
		 */
		char *abs = *v ? realpath(v, NULL) : NULL;
		size_t n;

		if (!abs && v[0] == '/' && (abs = strdup(v)))
			for (n = strlen(abs); n > 1 && abs[n - 1] == '/'; n--)
				abs[n - 1] = 0;
		if (!abs) {
			snprintf(err, errlen, "--srcroot: '%s': %s (give an absolute path or an existing directory)",
				 v, *v ? strerror(errno) : "empty");
			return -EINVAL;
		}
		free(o->srcroot);
		/* "/" as a root: every path is under it, relative without its '/' */
		if (!strcmp(abs, "/"))
			abs[0] = 0;
		o->srcroot = abs;
		return 0;
	}
	if (!strcmp(name, "baseline") || !strcmp(name, "suppress")) {
		if (!*v) {
			snprintf(err, errlen, "--%s: give a file name", name);
			return -EINVAL;
		}
		return set_string(name[0] == 'b' ? &o->baseline : &o->suppress, v, err, errlen);
	}
	if (!strcmp(name, "syscalls")) {
		uint8_t sel[DIO_NR_MAX];
		int e;

		/* checked now so the message can point at the config line; applied in finish */
		e = syscalls_select(v, sel, err, errlen);
		return e ? e : set_string(&o->syscalls, v, err, errlen);
	}
	return -ENOENT;
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

/*
 * NAME[:key=value[,key=value...]]. The entry is built aside and appended only
 * when all of it is valid, so a failed call leaves nothing half-made in o.
 * Keys and values are copied; where[] is the static "command line", which the
 * config file replaces with its own static string.
 */
int options_add_plugin(struct options *o, int sink, const char *spec, char *err, size_t errlen)
{
	const char *opt = sink ? "--sink" : "--analyzer";
	int *n = sink ? &o->nsinks : &o->nanalyzers;
	struct plugin_sel s = { 0 };
	const char *colon, *p;
	size_t nlen;

	if (!spec || !*spec || *spec == ':') {
		snprintf(err, errlen, "%s: give a module name or a path to a .so, e.g. %s", opt,
			 sink ? "--sink console" : "--analyzer summary");
		return -EINVAL;
	}
	colon = plugin_name_end(spec);
	nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	if (memchr(spec, '/', nlen) ? !plugin_path_ok(spec, nlen) : !plugin_name_ok(spec, nlen)) {
		snprintf(err, errlen,
			 "%s: '%.*s' is neither a module name nor a path to a .so; see 'dio list %ss'",
			 opt, (int)nlen, spec, sink ? "sink" : "analyzer");
		return -EINVAL;
	}
	/* "all" loads every analyzer; their options go by name, not to the lot */
	if (nlen == 3 && !memcmp(spec, "all", 3)) {
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
	if (*n == OPT_MAX_PLUGINS) {
		snprintf(err, errlen, "%s: at most %d modules", opt, OPT_MAX_PLUGINS);
		return -EINVAL;
	}
	s.name = strndup(spec, nlen);
	if (!s.name)
		goto nomem;
	for (p = colon; p; ) {
		const char *kv = p + 1, *eq;
		size_t len = strcspn(kv, ",");

		p = kv[len] ? kv + len : NULL;
		eq = memchr(kv, '=', len);
		if (!eq || eq == kv) {
			snprintf(err, errlen, "%s %s: '%.*s' is not key=value", opt, s.name,
				 (int)len, kv);
			free_sel(&s);
			return -EINVAL;
		}
		if (s.nkv == OPT_MAX_KV) {
			snprintf(err, errlen, "%s %s: at most %d options", opt, s.name, OPT_MAX_KV);
			free_sel(&s);
			return -EINVAL;
		}
		s.key[s.nkv] = strndup(kv, eq - kv);
		s.val[s.nkv] = strndup(eq + 1, len - (eq + 1 - kv));
		s.where[s.nkv] = "command line";
		s.nkv++;
		if (!s.key[s.nkv - 1] || !s.val[s.nkv - 1])
			goto nomem;
	}
	if (sink)
		o->sinks[(*n)++] = s;
	else
		o->analyzers[(*n)++] = s;
	return 0;
nomem:
	free_sel(&s);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
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
