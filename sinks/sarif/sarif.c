// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sarif: the session's findings as one SARIF 2.1.0 log, written when the
 * session is over: one rule per kind of finding, one result per finding with
 * its stable fingerprint, the file it is about as the location, the process
 * and thread as logical locations, and the evidence in properties. The log
 * is what GitHub code scanning takes, and what --baseline reads back
 * (engine/findings.c). README.md says what each part holds and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/sink.h>

#include "sinks/common/report.h"

#define SCHEMA	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
/* dio has no web page of its own: the man page it installs, as systemd's Documentation= names one */
#define INFO_URI	"man:dio(1)"
#define DESC_MAX	1024	/* characters GitHub shows of a rule's descriptions */
#define CMDLINE_MAX	(64 << 10)

enum { O_FILE, O_ABSENT };

static const struct dio_option options[] = {
	[O_FILE] = { "file", DIO_OPT_STRING, NULL, "SARIF log to write when the session ends" },
	[O_ABSENT] = { "absent", DIO_OPT_BOOL, "true",
		       "also write the --baseline results this run lacks (baselineState absent)" },
	{ NULL, 0, NULL, NULL },
};

struct sarif {
	struct report r;
	int absent;
	char *program;		/* the traced program's URI (NULL: none), found once */
	const char *program_base;
	int program_looked;
};

static void sarif_destroy(void *state)
{
	struct sarif *s = state;

	if (!s)
		return;
	report_fini(&s->r);
	free(s->program);
	free(s);
}

static int sarif_init(const struct dio_host *host, struct dio_ctx *ctx,
		      const struct dio_optval *o, void **state)
{
	struct sarif *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->absent = !!o[O_ABSENT].i;
	err = report_init(&s->r, host, ctx, o[O_FILE].s);
	if (err) {
		sarif_destroy(s);
		return err;
	}
	*state = s;
	return 0;
}

/* ---- URIs ------------------------------------------------------------------------ */

/* the part of the absolute path below root ("/" too), or NULL */
static const char *under(const char *path, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (!root || path[0] != '/')
		return NULL;
	while (n && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

/* path's bytes as a URI path: RFC 3986 unreserved characters and '/' as they are */
static void put_uri_path(struct rbuf *b, const char *path)
{
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    *c == '-' || *c == '.' || *c == '_' || *c == '~' || *c == '/')
			rbuf_mem(b, c, 1);
		else
			rbuf_fmt(b, "%%%02X", *c);
	}
}

/* --srcroot, else the top of the git work tree dio ran in: the repository (NULL: none) */
static const char *srcroot(struct sarif *s)
{
	return report_info(s->r.host, s->r.ctx, "srcroot");
}

/*
 * An absolute path as the location's URI: relative to the source root when
 * below it (*base "SRCROOT"), a file URI when there is no root. malloc'ed;
 * NULL when out of memory or when the path lies outside the root: it is no
 * file of the repository, which a CI tool would look for there in vain.
 */
static char *path_uri(struct sarif *s, const char *path, const char **base)
{
	const char *rel = under(path, srcroot(s));
	struct rbuf b = { 0 };

	*base = rel ? "SRCROOT" : NULL;
	if (!rel && srcroot(s))
		return NULL;
	if (!rel)
		rbuf_str(&b, "file://");
	put_uri_path(&b, rel ? rel : path);
	if (b.oom || !b.p)
		rbuf_free(&b);
	return b.p;
}

/* path made absolute, symbolic links resolved where it exists; malloc'ed */
static char *absolute(const char *path)
{
	char *real = realpath(path, NULL), cwd[PATH_MAX];
	size_t n;

	if (real || path[0] == '/')
		return real ? real : strdup(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return strdup(path);
	n = strlen(cwd) + strlen(path) + 2;
	real = malloc(n);
	if (real)
		snprintf(real, n, "%s/%s", cwd, path);
	return real;
}

/*
 * The program dio started (the first word of host->info "command", found in
 * $PATH as execvp finds it), as a URI; NULL when dio traced -p or -a.
 */
static const char *program(struct sarif *s)
{
	const char *cmd = report_info(s->r.host, s->r.ctx, "command"), *dirs = getenv("PATH");
	char word[PATH_MAX], *abs = NULL;
	size_t n;

	if (s->program_looked)
		return s->program;
	s->program_looked = 1;
	if (!cmd || *cmd == '-' || (n = strcspn(cmd, " ")) == 0 || n >= sizeof(word))
		return NULL;
	memcpy(word, cmd, n);
	word[n] = 0;
	if (strchr(word, '/')) {
		abs = absolute(word);
	} else {
		for (const char *d = dirs ? dirs : "/usr/bin:/bin"; *d && !abs; ) {
			size_t len = strcspn(d, ":");
			char cand[PATH_MAX * 2];

			snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, len ? d : ".", word);
			if (!access(cand, X_OK))
				abs = absolute(cand);
			d += len + !!d[len];
		}
	}
	if (abs)
		s->program = path_uri(s, abs, &s->program_base);
	free(abs);
	return s->program;
}

/*
 * Where a finding about no file is put. GitHub code scanning shows no result
 * without a physical location, so it gets the artifact the finding comes
 * from, and the location's message says so: the trace file being analyzed,
 * else the program dio started, else the executable of the finding's
 * process while that still runs, each only when it lies in the repository.
 * A finding none of these fit keeps only its logical locations.
 */
static void place(struct sarif *s, struct rfinding *e)
{
	const char *trace = report_info(s->r.host, s->r.ctx, "trace");
	char *abs = NULL;

	if (trace && (abs = absolute(trace)) && (e->where = path_uri(s, abs, &e->where_base))) {
		e->where_what = "No file: the trace file that holds the calls.";
	} else if (program(s)) {
		e->where = strdup(s->program);
		e->where_base = s->program_base;
		e->where_what = "No file: the program dio traced.";
	} else if (e->f.pid) {
		char link[64], exe[PATH_MAX];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/%u/exe", e->f.pid);
		n = readlink(link, exe, sizeof(exe) - 1);
		if (n > 0 && exe[0] == '/') {
			exe[n] = 0;
			e->where = path_uri(s, exe, &e->where_base);
			e->where_what = e->where ? "No file: the executable of the process." : NULL;
		}
	}
	free(abs);
}

static int sarif_finding(void *state, const struct dio_finding *f)
{
	struct sarif *s = state;
	struct rfinding *e;
	int err;

	/* a producer's finding without the field is not absent: the host makes those */
	if (f->size >= offsetof(struct dio_finding, baseline) + sizeof(f->baseline) &&
	    f->baseline == DIO_BASELINE_ABSENT && !s->absent)
		return 0;
	err = report_keep(&s->r, f);
	if (err)
		return err;
	e = &s->r.found.v[s->r.found.n - 1];
	if (!e->f.uri && e->f.path && e->f.path[0] == '/')
		e->where = path_uri(s, e->f.path, &e->where_base);	/* a host that gave no URI */
	else if (!e->f.uri)
		place(s, e);
	return 0;
}

/* ---- the log ------------------------------------------------------------------------ */

static const char *level(uint32_t sev)
{
	return sev >= DIO_SEV_ERROR ? "error" : sev == DIO_SEV_WARNING ? "warning" : "note";
}

/* ,"key":"value" */
static void put_kstr(struct rbuf *b, const char *key, const char *v)
{
	rbuf_fmt(b, ",\"%s\":", key);
	rbuf_json(b, v);
}

/* {"text":"..."} of at most DESC_MAX characters (cut ones end in "...") */
static void put_text(struct rbuf *b, const char *text)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t chars = 0, i;

	for (i = 0; t[i]; i++)
		if ((t[i] & 0xc0) != 0x80 && ++chars > DESC_MAX - 3)
			break;
	rbuf_str(b, "{\"text\":");
	if (!t[i] || strlen(text + i) <= 3) {	/* it fits: the last three characters fit too */
		rbuf_json(b, text);
	} else {
		char *cut = strndup(text, i);
		size_t n = cut ? strlen(cut) : 0;
		char *more = cut ? realloc(cut, n + 4) : NULL;

		if (!more) {
			free(cut);
			b->oom = 1;
			return;
		}
		memcpy(more + n, "...", 4);
		rbuf_json(b, more);
		free(more);
	}
	rbuf_str(b, "}");
}

static const char *nonempty(const char *s, const char *other)
{
	return s && *s ? s : other;
}

/*
 * One reportingDescriptor. GitHub wants shortDescription, fullDescription and
 * help as non-empty text, and rules that change only with the tool: a code no
 * analyzer declares gets text that says so, never a finding's (which names
 * pids and paths of one run).
 */
static void put_rule(struct rbuf *b, const struct rrule *r)
{
	const struct dio_rule *d = r->r;
	char what[256], help[512];

	snprintf(what, sizeof(what), "%s findings of the %s analyzer", r->code, r->analyzer);
	snprintf(help, sizeof(help),
		 "The %s analyzer reports %s but does not describe it to dio; its README "
		 "(analyzers/%s/README.md in dio's source) does.", r->analyzer, r->code, r->analyzer);
	rbuf_str(b, "{\"id\":");
	rbuf_json(b, r->code);
	put_kstr(b, "name", r->code);
	rbuf_str(b, ",\"shortDescription\":");
	put_text(b, nonempty(d ? d->title : NULL, what));
	rbuf_str(b, ",\"fullDescription\":");
	put_text(b, nonempty(d ? d->description : NULL, nonempty(d ? d->title : NULL, help)));
	rbuf_str(b, ",\"help\":");
	put_text(b, nonempty(d ? d->help : NULL, help));
	rbuf_fmt(b, ",\"defaultConfiguration\":{\"level\":\"%s\"}", level(r->severity));
	rbuf_str(b, ",\"properties\":{\"analyzer\":");
	rbuf_json(b, r->analyzer);
	rbuf_str(b, ",\"tags\":[");
	rbuf_json(b, r->analyzer);
	rbuf_str(b, "]}}");
}

/* dio's own command line, quoted as a shell would need it, from /proc/self/cmdline */
static void put_command_line(struct rbuf *b)
{
	char *buf = malloc(CMDLINE_MAX);
	struct rbuf cmd = { 0 };
	ssize_t n = 0, r;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	while (buf && fd >= 0 && n < CMDLINE_MAX - 1 &&
	       (r = read(fd, buf + n, (size_t)(CMDLINE_MAX - 1 - n))) > 0)
		n += r;
	if (fd >= 0)
		close(fd);
	if (buf)
		buf[n] = 0;	/* the last argument's NUL, were it cut */
	for (ssize_t i = 0; buf && i < n; i += (ssize_t)strlen(buf + i) + 1) {
		char clean[CMDLINE_MAX];
		const char *a = clean;

		/* a sink URL's password goes into no report */
		dio_redact_password(buf + i, clean, sizeof(clean));
		if (i)
			rbuf_str(&cmd, " ");
		if (*a && !a[strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789_./:=,@%+-")]) {
			rbuf_str(&cmd, a);
			continue;
		}
		rbuf_str(&cmd, "'");
		for (; *a; a++)
			rbuf_str(&cmd, *a == '\'' ? "'\\''" : (char[]){ *a, 0 });
		rbuf_str(&cmd, "'");
	}
	if (cmd.p && !cmd.oom)
		put_kstr(b, "commandLine", cmd.p);
	rbuf_free(&cmd);
	free(buf);
}

static void put_invocation(struct sarif *s, struct rbuf *b)
{
	static const char *const keys[][2] = {
		{ "startTimeUtc", "start" }, { "endTimeUtc", "end" }, { "machine", "hostname" },
	};
	struct dio_stats st;
	char cwd[PATH_MAX];
	const char *v;

	/* the log is written only by a session that reached its end */
	rbuf_str(b, "\"invocations\":[{\"executionSuccessful\":true");
	put_command_line(b);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((v = report_info(s->r.host, s->r.ctx, keys[i][1])))
			put_kstr(b, keys[i][0], v);
	if (getcwd(cwd, sizeof(cwd)) && cwd[0] == '/') {
		rbuf_str(b, ",\"workingDirectory\":{\"uri\":\"file://");
		put_uri_path(b, cwd);
		rbuf_str(b, strcmp(cwd, "/") ? "/\"}" : "\"}");
	}
	s->r.host->stats(s->r.ctx, &st);
	rbuf_fmt(b, ",\"properties\":{\"events\":%" PRIu64 ",\"lostEvents\":%" PRIu64, st.events,
		 st.lost_ringbuf + st.lost_inflight + st.lost_iouring + st.lost_other);
	if ((v = report_info(s->r.host, s->r.ctx, "command")))
		put_kstr(b, "tracedCommand", v);
	if ((v = report_info(s->r.host, s->r.ctx, "trace")))
		put_kstr(b, "trace", v);
	if ((v = report_info(s->r.host, s->r.ctx, "fail_on")))
		put_kstr(b, "failOn", v);
	rbuf_str(b, "}}]");
}

/* run.originalUriBaseIds: where SRCROOT is, when a result is relative to it */
static void put_base_ids(struct sarif *s, struct rbuf *b)
{
	const char *root = report_info(s->r.host, s->r.ctx, "srcroot");
	int used = 0;

	for (size_t i = 0; i < s->r.found.n && !used; i++)
		used = (s->r.found.v[i].f.uri_base && !strcmp(s->r.found.v[i].f.uri_base, "SRCROOT")) ||
		       (s->r.found.v[i].where_base && !strcmp(s->r.found.v[i].where_base, "SRCROOT"));
	if (!root && !used)
		return;
	rbuf_str(b, ",\"originalUriBaseIds\":{\"SRCROOT\":{");
	if (root && root[0] == '/') {
		size_t n = strlen(root);

		rbuf_str(b, "\"uri\":\"file://");
		put_uri_path(b, root);
		rbuf_str(b, n && root[n - 1] == '/' ? "\"," : "/\",");
	}
	/* without --srcroot this run, the baseline's relative results have no known root */
	rbuf_str(b, "\"description\":{\"text\":\"The directory given with --srcroot: "
		 "paths below it are relative to it, so that they are the same in every run.\"}}}");
}

/*
 * The file outside the repository (file: its path, or NULL), the process and
 * the thread, after what the location object already holds (sep: "," or "")
 */
static void put_logical(struct rbuf *b, const struct dio_finding *f, const char *file,
			const char *sep)
{
	char fq[128];

	if (!f->pid && !f->comm && !file)
		return;
	rbuf_fmt(b, "%s\"logicalLocations\":[", sep);
	if (file) {
		/* SARIF's kinds have no file; "resource" is the nearest it lists */
		rbuf_str(b, "{\"name\":");
		rbuf_json(b, file);
		rbuf_str(b, ",\"fullyQualifiedName\":");
		rbuf_json(b, file);
		rbuf_str(b, ",\"kind\":\"resource\"}");
		if (!f->pid && !f->comm) {
			rbuf_str(b, "]");
			return;
		}
		rbuf_str(b, ",");
	}
	if (!f->pid) {
		rbuf_str(b, "{\"name\":");
		rbuf_json(b, f->comm);
		rbuf_str(b, ",\"kind\":\"process\"}]");
		return;
	}
	/* the comm is the thread's: the process is named by it only when they are one */
	snprintf(fq, sizeof(fq), "pid %u", f->pid);
	rbuf_str(b, "{\"name\":");
	rbuf_json(b, f->tid == f->pid && f->comm ? f->comm : fq);
	rbuf_str(b, ",\"fullyQualifiedName\":");
	rbuf_json(b, fq);
	rbuf_str(b, ",\"kind\":\"process\"}");
	if (f->tid) {
		snprintf(fq, sizeof(fq), "pid %u/tid %u %s", f->pid, f->tid, f->comm ? f->comm : "?");
		rbuf_str(b, ",{\"name\":");
		rbuf_json(b, f->comm ? f->comm : "?");
		rbuf_str(b, ",\"fullyQualifiedName\":");
		rbuf_json(b, fq);
		rbuf_str(b, ",\"kind\":\"thread\"}");
	}
	rbuf_str(b, "]");
}

/*
 * A file of the repository is a physical location; one outside it (the
 * host's absolute URI while a root is known) a logical one. The region is
 * the file's first line: a finding is about a whole file, and GitHub shows
 * no result whose region has no startLine.
 */
static void put_location(struct sarif *s, struct rbuf *b, const struct rfinding *e)
{
	const char *uri = e->f.uri ? e->f.uri : e->where;
	const char *base = e->f.uri ? e->f.uri_base : e->where_base;
	const char *outside = NULL;

	if (uri && !base && srcroot(s)) {
		outside = e->f.path ? e->f.path : uri;
		uri = NULL;
	}
	rbuf_str(b, ",\"locations\":[{");
	if (uri) {
		rbuf_str(b, "\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
		rbuf_json(b, uri);
		if (base)
			put_kstr(b, "uriBaseId", base);
		rbuf_str(b, "},\"region\":{\"startLine\":1}}");
		if (!e->f.uri && e->where_what) {
			rbuf_str(b, ",\"message\":");
			put_text(b, e->where_what);
		}
	}
	put_logical(b, &e->f, outside, uri ? "," : "");
	rbuf_str(b, "}]");
}

static void put_time(struct sarif *s, struct rbuf *b, const char *key, uint64_t mono)
{
	char t[64];

	if (!mono)
		return;
	report_time(s->r.host->realtime_ns(s->r.ctx, mono), t, sizeof(t));
	put_kstr(b, key, t);
}

static void put_properties(struct sarif *s, struct rbuf *b, const struct dio_finding *f)
{
	char tag[DIO_FILE_TAG_LEN];

	rbuf_str(b, ",\"properties\":{\"analyzer\":");
	rbuf_json(b, f->analyzer ? f->analyzer : "?");
	if (f->subject)
		put_kstr(b, "subject", f->subject);
	if (f->comm)
		put_kstr(b, "process", f->comm);
	if (f->pid)
		rbuf_fmt(b, ",\"pid\":%u", f->pid);
	if (f->tid)
		rbuf_fmt(b, ",\"tid\":%u", f->tid);
	if (f->path)
		put_kstr(b, "path", f->path);
	if (f->has_tag) {
		dio_file_tag_format(&f->tag, tag, sizeof(tag));
		rbuf_fmt(b, ",\"fileTag\":\"%s\"", tag);
	}
	if (f->count)
		rbuf_fmt(b, ",\"count\":%" PRIu64, f->count);
	if (f->cost_ns)
		rbuf_fmt(b, ",\"costNs\":%" PRIu64, f->cost_ns);
	if (f->processes)
		rbuf_fmt(b, ",\"processes\":%u", f->processes);
	put_time(s, b, "firstTimeUtc", f->ts_first ? f->ts_first : f->ts_last);
	if (f->ts_last > f->ts_first && f->ts_first)
		put_time(s, b, "lastTimeUtc", f->ts_last);
	if (f->message && *f->message)
		put_kstr(b, "message", f->message);
	if (f->excerpt && *f->excerpt)
		put_kstr(b, "excerpt", f->excerpt);
	rbuf_str(b, "}");
}

static const char *state_name(uint32_t baseline)
{
	switch (baseline) {
	case DIO_BASELINE_NEW: return "new";
	case DIO_BASELINE_UNCHANGED: return "unchanged";
	case DIO_BASELINE_ABSENT: return "absent";
	default: return NULL;
	}
}

static void put_result(struct sarif *s, struct rbuf *b, const struct rfinding *e, size_t rule,
		       unsigned int nth)
{
	const struct dio_finding *f = &e->f;

	rbuf_str(b, "{\"ruleId\":");
	rbuf_json(b, f->code ? f->code : "?");
	rbuf_fmt(b, ",\"ruleIndex\":%zu,\"level\":\"%s\",\"message\":", rule, level(f->severity));
	/* the title: a message's text and markdown say one thing, the explanation is in properties */
	put_text(b, nonempty(f->title, nonempty(f->rule_title, f->code ? f->code : "?")));
	put_location(s, b, e);
	if (f->fingerprint) {
		/*
		 * GitHub matches alerts across runs by primaryLocationLineHash and
		 * computes one only from a line of a source file: ours, numbered
		 * as GitHub numbers repeats of one hash.
		 */
		char line_hash[64];

		snprintf(line_hash, sizeof(line_hash), "%.40s:%u", f->fingerprint, nth);
		rbuf_str(b, ",\"partialFingerprints\":{\"dio/v1\":");
		rbuf_json(b, f->fingerprint);
		rbuf_str(b, ",\"primaryLocationLineHash\":");
		rbuf_json(b, line_hash);
		rbuf_str(b, "}");
	}
	if (state_name(f->baseline))
		rbuf_fmt(b, ",\"baselineState\":\"%s\"", state_name(f->baseline));
	/* every result was matched against the --suppress entries (none: not suppressed) */
	rbuf_str(b, ",\"suppressions\":[");
	if (f->suppressed) {
		rbuf_str(b, "{\"kind\":\"external\",\"status\":\"accepted\",\"justification\":");
		rbuf_json(b, f->suppress_reason ? f->suppress_reason : "");
		rbuf_str(b, "}");
	}
	rbuf_str(b, "]");
	put_properties(s, b, f);
	rbuf_str(b, "}");
}

static void put_log(struct sarif *s, struct rbuf *b, const struct rrule *rules, size_t nrules)
{
	const char *version = report_info(s->r.host, s->r.ctx, "version");

	rbuf_str(b, "{\"$schema\":\"" SCHEMA "\",\"version\":\"2.1.0\",\"runs\":[{\n");
	rbuf_str(b, "\"tool\":{\"driver\":{\"name\":\"dio\"");
	if (version)
		put_kstr(b, "version", version);
	rbuf_str(b, ",\"informationUri\":\"" INFO_URI "\",\"rules\":[");
	for (size_t i = 0; i < nrules; i++) {
		rbuf_str(b, i ? ",\n" : "\n");
		put_rule(b, &rules[i]);
	}
	rbuf_str(b, "]}},\n");
	put_invocation(s, b);
	put_base_ids(s, b);
	rbuf_str(b, ",\n\"results\":[");
	for (size_t i = 0; i < s->r.found.n; i++) {
		const struct dio_finding *f = &s->r.found.v[i].f;
		unsigned int nth = 1;
		size_t r = 0;

		while (r < nrules && strcmp(rules[r].code, f->code ? f->code : "?"))
			r++;
		for (size_t k = 0; k < i; k++)
			nth += f->fingerprint && s->r.found.v[k].f.fingerprint &&
			       !strcmp(s->r.found.v[k].f.fingerprint, f->fingerprint);
		rbuf_str(b, i ? ",\n" : "\n");
		put_result(s, b, &s->r.found.v[i], r, nth);
	}
	rbuf_str(b, "]}]}\n");
}

static int sarif_finish(void *state)
{
	struct sarif *s = state;
	struct rrule *rules = NULL;
	struct rbuf b = { 0 };
	size_t nrules = 0;
	int err;

	err = report_rules(s->r.host, s->r.ctx, &s->r.found, &rules, &nrules);
	if (!err)
		put_log(s, &b, rules, nrules);
	else
		b.oom = 1;
	err = report_write(&s->r, &b);
	free(rules);
	rbuf_free(&b);
	return err;
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "sarif",
	.description = "findings as a SARIF 2.1.0 log (GitHub code scanning), written at the end",
	.findings = 1,
	.options = options,
	.init = sarif_init,
	.finding = sarif_finding,
	.finish = sarif_finish,
	.destroy = sarif_destroy,
};
