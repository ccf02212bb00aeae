// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The findings of a session on their way to the sinks: the host's fields
 * (subject, fingerprint, URI, rule title), --suppress and --baseline, the
 * findings held to the end so that one fingerprint is one finding,
 * --max-findings per code, and the exit status --fail-on makes of them.
 * With --report-every, the sinks that take findings as they come (live
 * ones) get each held finding when it is judged, and its updates; the
 * others, the counts and the exit status still see it once, at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings.h"
#include "modules.h"
#include "util.h"
#include "verdict.h"

#define HELD_MAX	65536	/* fingerprints of findings held to the end of a session */

struct verdict {
	const struct options *o;
	struct modules *m;	/* the rules they declare, the sinks of findings */
	/* --max-findings: findings reported and left out, per code */
	struct code_count {
		char *code;
		const char *analyzer;
		uint64_t shown, left_out;
		uint32_t left_sev;	/* the highest severity left out */
	} *codes;
	size_t ncodes;
	/* for CI: --suppress, --baseline, --fail-on */
	struct suppressions *supp;
	struct baseline *base;
	struct held *held;	/* findings until the end: one per fingerprint */
	/* what the live sinks were sent of each held finding, by its index */
	struct sent {
		uint8_t sent;		/* went to the live sinks */
		uint8_t changed;	/* emitted again since */
		uint8_t decided;	/* --max-findings has ruled on it */
		uint8_t capped;		/* and left it out */
		uint32_t sev;		/* the figures the live sinks have */
		uint64_t count, cost;
	} *sent;
	size_t nsent;
	uint64_t pass;		/* rounds of judgement so far */
	size_t nend;		/* the held finding verdict__end is at */
	int in_pass;		/* findings now come from one: they state themselves whole */
	uint64_t failing;	/* findings that make --fail-on fail */
	uint64_t n_all, n_new, n_unchanged, n_suppressed, n_absent;	/* absent: not in n_all */
	/* dio diff: every finding also goes here */
	int (*on_finding)(void *ud, const struct dio_finding *f);
	void *on_finding_ud;
};

struct verdict *verdict__new(const struct options *o, struct modules *m, char *err, size_t errlen)
{
	struct verdict *v = calloc(1, sizeof(*v));
	int e = 0;

	if (!v) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	v->o = o;
	v->m = m;
	if (o->suppress && !(v->supp = suppressions__load(o->suppress, err, errlen))) {
		e = errno;
		goto fail;
	}
	if (o->baseline && !(v->base = baseline__load(o->baseline, err, errlen))) {
		e = errno;
		goto fail;
	}
	/* past this many fingerprints, findings go out as they come, unmerged */
	v->held = held__new(HELD_MAX);
	if (!v->held) {
		e = ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return v;
fail:
	verdict__free(v);
	errno = e;
	return NULL;
}

void verdict__free(struct verdict *v)
{
	if (!v)
		return;
	suppressions__free(v->supp);
	baseline__free(v->base);
	held__free(v->held);
	free(v->sent);
	for (size_t i = 0; i < v->ncodes; i++)
		free(v->codes[i].code);
	free(v->codes);
	free(v);
}

/*
 * --max-findings: whether another finding of f's code may be reported. The
 * ones left out are counted, and said at the end (left_out_findings).
 */
static int within_cap(struct verdict *v, const struct dio_finding *f, const char *analyzer)
{
	struct code_count *c = NULL;
	const char *code = f->code ? f->code : "";

	if (!v->o->max_findings)
		return 1;
	for (size_t i = 0; i < v->ncodes; i++)
		if (!strcmp(v->codes[i].code, code))
			c = &v->codes[i];
	if (!c) {
		struct code_count *n = realloc(v->codes, (v->ncodes + 1) * sizeof(*n));

		if (!n)
			return 1;	/* no room to count: report it */
		v->codes = n;
		c = &n[v->ncodes];
		memset(c, 0, sizeof(*c));
		c->code = strdup(code);
		if (!c->code)
			return 1;
		c->analyzer = analyzer;
		v->ncodes++;
	}
	if (c->shown < v->o->max_findings) {
		c->shown++;
		return 1;
	}
	c->left_out++;
	if (f->severity > c->left_sev)
		c->left_sev = f->severity;
	return 0;
}

/* which sinks a finding goes to */
#define TO_ALL		0
#define TO_LIVE		1	/* those that take findings as they come (dio_sink.live) */
#define TO_END		2	/* the others, and dio diff's callback */

static int is_live(const struct plugin *p)
{
	return PLUGIN_HAS(p->sk, live) && p->sk->live;
}

static int to_finding_sinks(struct verdict *v, const struct dio_finding *f, int to)
{
	int e, ret = 0;

	for (int i = 0; i < v->m->nfinding; i++) {
		struct plugin *p = v->m->finding_sinks[i];

		if ((to == TO_LIVE && !is_live(p)) || (to == TO_END && is_live(p)))
			continue;
		e = p->sk->finding(p->state, f);
		if (e < 0) {
			warn_msg("sink %s failed on a finding: %s", p->name, strerror(-e));
			ret = e;
		}
	}
	if (to != TO_LIVE && v->on_finding && (e = v->on_finding(v->on_finding_ud, f)) < 0)
		ret = e;
	return ret;
}

void verdict__on_finding(struct verdict *v, int (*cb)(void *ud, const struct dio_finding *f),
			 void *ud)
{
	v->on_finding = cb;
	v->on_finding_ud = ud;
}

const struct dio_rule *verdict__rule(struct verdict *v, unsigned int i, const char **analyzer)
{
	for (int k = 0; k < v->m->n; k++) {
		const struct plugin *p = &v->m->plugins[k];
		const struct dio_rule *r = p->an && PLUGIN_HAS(p->an, rules) ? p->an->rules : NULL;

		for (; r && r->code; r++)
			if (!i--) {
				if (analyzer)
					*analyzer = p->name;
				return r;
			}
	}
	for (const struct dio_rule *r = findings_host_rules; r->code; r++)
		if (!i--) {
			if (analyzer)
				*analyzer = "dio";
			return r;
		}
	return NULL;
}

/* the rule of code among the analyzers' and the host's, or NULL */
static const struct dio_rule *find_rule(struct verdict *v, const char *code, const char **analyzer)
{
	const struct dio_rule *r;

	for (unsigned int i = 0; code && (r = verdict__rule(v, i, analyzer)); i++)
		if (!strcmp(r->code, code))
			return r;
	return NULL;
}

/*
 * What CI needs on top of the analyzer's finding: the subject and
 * fingerprint that match it across runs, its URI, the rule's title, and
 * whether a --suppress entry or the --baseline log knew it. --fail-on counts
 * it here, before --max-findings may leave it out.
 */
/* whether a name of --fail-on LEVEL,NAME,... is the analyzer or the code of f */
static int fail_on_names(const struct verdict *v, const struct dio_finding *f)
{
	const char *n = v->o->fail_on_names;
	size_t alen = f->analyzer ? strlen(f->analyzer) : 0;

	while (n && *n) {
		size_t len = strcspn(n, ",");

		if ((len == alen && !strncmp(n, f->analyzer, len)) ||
		    (f->code && strlen(f->code) == len && !strncmp(n, f->code, len)))
			return 1;
		n += len + !!n[len];
	}
	return 0;
}

/*
 * Whether f counts against --fail-on (at warning when none was given, as
 * JUnit cases fail): what the machine did counts only when named.
 */
static int gates(const struct verdict *v, const struct dio_finding *f, const struct dio_rule *r)
{
	uint32_t level = v->o->fail_on >= 0 ? (uint32_t)v->o->fail_on : DIO_SEV_WARNING;

	if (f->suppressed || f->baseline == DIO_BASELINE_UNCHANGED || f->severity < level)
		return 0;
	return !(r && (r->flags & DIO_RULE_MACHINE)) || fail_on_names(v, f);
}

int verdict__machine(struct verdict *v, const struct dio_finding *f)
{
	const struct dio_rule *r = find_rule(v, f->code, NULL);

	return r && (r->flags & DIO_RULE_MACHINE) && !fail_on_names(v, f);
}

/* what makes f the same finding in another run: its subject and fingerprint */
static void identify(struct verdict *v, struct dio_finding *f, char *subject, size_t slen,
		     char *fp)
{
	findings_subject(f->path, v->o->srcroot, subject, slen);
	f->subject = subject;
	findings_fingerprint(f->code, subject, f->comm, fp);
	f->fingerprint = fp;
}

/*
 * ... and, when it is delivered, all else: f's subject and fingerprint are
 * set. Counted (for the closing line and --fail-on) when count is set: once
 * a finding, at the end, with its final figures.
 */
static void classify(struct verdict *v, struct dio_finding *f, char *uri, size_t ulen, int count)
{
	const struct dio_rule *r = find_rule(v, f->code, NULL);
	int rel;

	if (f->path) {
		rel = findings_uri(f->path, v->o->srcroot, uri, ulen);
		f->uri = uri;
		f->uri_base = rel ? "SRCROOT" : NULL;
	}
	f->rule_title = r ? r->title : NULL;
	f->suppress_reason = suppressions__match(v->supp, f);
	f->suppressed = f->suppress_reason != NULL;
	f->baseline = v->base ? baseline__classify(v->base, f->fingerprint) : DIO_BASELINE_NONE;
	f->gates = gates(v, f, r);
	if (!count)
		return;
	v->n_all++;
	if (f->suppressed)
		v->n_suppressed++;
	else if (f->baseline == DIO_BASELINE_NEW)
		v->n_new++;
	else if (f->baseline == DIO_BASELINE_UNCHANGED)
		v->n_unchanged++;
	if (f->gates && v->o->fail_on >= 0)
		v->failing++;
}

static int deliver(struct verdict *v, struct dio_finding *f);

/* held finding i was emitted: new, or changed since the live sinks had it */
static int mark_changed(struct verdict *v, size_t i)
{
	if (i >= v->nsent) {
		size_t n = v->nsent ? 2 * v->nsent : 16;
		struct sent *s;

		while (n <= i)
			n *= 2;
		s = realloc(v->sent, n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		memset(s + v->nsent, 0, (n - v->nsent) * sizeof(*s));
		v->sent = s;
		v->nsent = n;
	}
	v->sent[i].changed = 1;
	return 0;
}

void verdict__begin(struct verdict *v)
{
	v->pass++;
	v->in_pass = 1;
}

int verdict__emit(struct verdict *v, const struct dio_finding *f, const char *analyzer)
{
	struct dio_finding copy;
	char subject[DIO_PATH_MAX + 8], fp[17];

	if (!f || f->size < offsetof(struct dio_finding, excerpt) + sizeof(f->excerpt))
		return -EINVAL;
	memset(&copy, 0, sizeof(copy));
	memcpy(&copy, f, offsetof(struct dio_finding, excerpt) + sizeof(f->excerpt));
	/* what the analyzer states beyond the host's own fields, when it knows them */
	if (f->size >= offsetof(struct dio_finding, processes) + sizeof(f->processes)) {
		copy.cost_ns = f->cost_ns;
		copy.processes = f->processes;
	}
	if (f->size >= offsetof(struct dio_finding, below) + sizeof(f->below))
		copy.below = f->below;
	copy.size = sizeof(copy);
	copy.analyzer = analyzer;
	identify(v, &copy, subject, sizeof(subject), fp);
	/* under its analyzer's floors: only to tell the baseline it persists */
	if (copy.below && (!v->base || baseline__persists(v->base, fp, copy.count) ==
				       DIO_BASELINE_NONE))
		return 0;
	/* held to the end, so that the results of one fingerprint are one finding */
	if (v->held) {
		int i = held__add(v->held, &copy, v->in_pass ? v->pass : 0);

		if (i >= 0)
			return mark_changed(v, (size_t)i);
		if (i != -ENOSPC)
			return i;
	}
	return deliver(v, &copy);
}

/* a finding into the verdict: classified, capped, to the sinks */
static int deliver(struct verdict *v, struct dio_finding *f)
{
	char uri[3 * DIO_PATH_MAX + 16];

	classify(v, f, uri, sizeof(uri), 1);
	if (!within_cap(v, f, f->analyzer))
		return 0;
	return to_finding_sinks(v, f, TO_ALL);
}

/*
 * --max-findings rules once on a fingerprint, the first time it is sent:
 * fingerprints come to it in the order they were first held, live or at
 * the end, so it keeps the same ones either way.
 */
static int capped(struct verdict *v, struct sent *st, const struct dio_finding *f)
{
	if (!st->decided) {
		st->capped = !within_cap(v, f, f->analyzer);
		st->decided = 1;
	}
	return st->capped;
}

/*
 * Whether the live sinks lack f as it stands (a tick that judges the same
 * again is no news), and from now on they have it.
 */
static int news(struct sent *st, const struct dio_finding *f)
{
	if (st->sent && st->count == f->count && st->cost == f->cost_ns && st->sev == f->severity)
		return 0;
	st->count = f->count;
	st->cost = f->cost_ns;
	st->sev = f->severity;
	return 1;
}

/* the held findings judged since the last round to the live sinks: new ones, or updates */
int verdict__send(struct verdict *v)
{
	int ret = 0, e;

	v->in_pass = 0;
	for (size_t i = 0; i < v->nsent; i++) {
		struct sent *st = &v->sent[i];
		struct dio_finding f;
		char uri[3 * DIO_PATH_MAX + 16];

		if (!st->changed)
			continue;
		st->changed = 0;
		f = *held__get(v->held, i);
		classify(v, &f, uri, sizeof(uri), 0);
		if (capped(v, st, &f) || !news(st, &f))
			continue;
		f.update = st->sent;
		st->sent = 1;
		e = to_finding_sinks(v, &f, TO_LIVE);
		if (e)
			ret = e;
	}
	return ret;
}

/* the end of a held finding: counted, and to each sink that does not have it as it stands */
static int deliver_held(void *ud, struct dio_finding *f)
{
	struct verdict *v = ud;
	struct sent none = { 0 }, *st = v->nend < v->nsent ? &v->sent[v->nend] : &none;
	char uri[3 * DIO_PATH_MAX + 16];

	v->nend++;
	classify(v, f, uri, sizeof(uri), 1);
	if (capped(v, st, f))
		return 0;
	if (!st->sent) {
		to_finding_sinks(v, f, TO_ALL);
		return 0;
	}
	to_finding_sinks(v, f, TO_END);
	/* the live sinks have it as it stands: nothing new to say */
	if (!st->changed || !news(st, f))
		return 0;
	f->update = 1;
	to_finding_sinks(v, f, TO_LIVE);
	return 0;
}

/* the baseline's findings this run did not have: fixed since, or not run into */
static void absent_findings(struct verdict *v)
{
	struct dio_finding f;
	size_t i = 0;

	while (v->base && baseline__next_absent(v->base, &i, &f)) {
		const struct dio_rule *r = find_rule(v, f.code, &f.analyzer);

		f.rule_title = r ? r->title : NULL;
		if (!f.analyzer)
			f.analyzer = "dio";
		v->n_absent++;
		to_finding_sinks(v, &f, TO_ALL);
	}
}

/*
 * One finding per code that --max-findings cut, with the highest severity it
 * left out, so that nothing serious goes unsaid.
 */
static void left_out_findings(struct verdict *v)
{
	for (size_t i = 0; i < v->ncodes; i++) {
		const struct code_count *c = &v->codes[i];
		char title[512], msg[512], fp[17];
		struct dio_finding f = { .size = sizeof(f), .code = "dio.findings-left-out",
					 .title = title, .message = msg, .analyzer = c->analyzer,
					 .subject = c->code, .fingerprint = fp,
					 .rule_title = findings_host_rules[0].title };

		if (!c->left_out)
			continue;
		/* one per code left out; what it stands for was counted for --fail-on already */
		findings_fingerprint(f.code, c->code, NULL, fp);
		f.severity = c->left_sev;
		f.count = c->left_out;
		snprintf(title, sizeof(title), "%llu more %s findings were not shown (--max-findings %u)",
			 (unsigned long long)c->left_out, c->code, v->o->max_findings);
		snprintf(msg, sizeof(msg),
			 "The first %llu %s findings are above; %llu more came after them. "
			 "Give --max-findings 0 to see them all, or narrow the trace (-p, --comm, --path).",
			 (unsigned long long)c->shown, c->code, (unsigned long long)c->left_out);
		to_finding_sinks(v, &f, TO_ALL);
	}
}

/*
 * The exit status once the findings are in. dio's own failure and the traced
 * command's status come first (a failing test must not read as a finding);
 * then DIO_EXIT_FINDINGS when --fail-on counted a finding. With a baseline or
 * suppressions, one line says how the findings compare.
 */
int verdict__status(struct verdict *v, int code)
{
	const char *level = findings_severity((uint32_t)v->o->fail_on);

	if (v->base || v->supp) {
		char line[512];
		uint64_t cut = 0;
		int n = snprintf(line, sizeof(line), "%llu finding%s", (unsigned long long)v->n_all,
				 v->n_all == 1 ? "" : "s");

		/* the count states what was printed: those --max-findings cut are in it */
		for (size_t i = 0; i < v->ncodes; i++)
			cut += v->codes[i].left_out;
		if (cut)
			n += snprintf(line + n, sizeof(line) - n, " (%llu not shown: --max-findings %u)",
				      (unsigned long long)cut, v->o->max_findings);

		if (v->base)
			n += snprintf(line + n, sizeof(line) - n,
				      ": %llu new, %llu unchanged; %llu in the baseline only (fixed)",
				      (unsigned long long)v->n_new, (unsigned long long)v->n_unchanged,
				      (unsigned long long)v->n_absent);
		if (v->supp && n < (int)sizeof(line))
			snprintf(line + n, sizeof(line) - n, "%s%llu suppressed", v->base ? "; " : ": ",
				 (unsigned long long)v->n_suppressed);
		fprintf(stderr, "dio: %s\n", line);
	}
	if (!v->failing)
		return code;
	fprintf(stderr, "dio: %llu %sfinding%s at %s or above (--fail-on %s)%s\n",
		(unsigned long long)v->failing, v->base ? "new " : "", v->failing > 1 ? "s" : "",
		level, level,
		code ? "" : ": exit status 3");
	return code ? code : DIO_EXIT_FINDINGS;
}

void verdict__end(struct verdict *v)
{
	v->in_pass = 0;
	v->nend = 0;
	if (v->held)
		held__each(v->held, deliver_held, v);
	left_out_findings(v);
	absent_findings(v);
}
