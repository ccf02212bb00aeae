// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * junit: the session's findings as a JUnit XML report (the Ant layout that
 * Jenkins and GitLab read), written when the session is over. One test suite
 * per analyzer, one test case per kind of finding and subject, named so that
 * the same case has the same name in the next run; a kind that found nothing
 * is a passing case, so a dashboard shows what was checked. A case fails for
 * exactly the findings that make --fail-on fail dio (warning by default):
 * unsuppressed, not in the --baseline log, at or above the level.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dio/sink.h>

#include "sinks/common/report.h"

enum { O_FILE };

static const struct dio_option options[] = {
	[O_FILE] = { "file", DIO_OPT_STRING, NULL, "JUnit XML report to write when the session ends" },
	{ NULL, 0, NULL, NULL },
};

struct junit {
	struct report r;
	uint32_t fail_level;	/* DIO_SEV_* from which a finding fails its case */
};

/* one test case: findings of one code with one name */
struct tcase {
	char *name;
	const struct dio_finding **f;
	size_t n;
	int failed, skipped;
};

static void junit_destroy(void *state)
{
	struct junit *j = state;

	if (!j)
		return;
	report_fini(&j->r);
	free(j);
}

static int junit_init(const struct dio_host *host, struct dio_ctx *ctx,
		      const struct dio_optval *o, void **state)
{
	struct junit *j = calloc(1, sizeof(*j));
	int err;

	if (!j)
		return -ENOMEM;
	err = report_init(&j->r, host, ctx, o[O_FILE].s);
	if (err) {
		junit_destroy(j);
		return err;
	}
	*state = j;
	return 0;
}

static int junit_finding(void *state, const struct dio_finding *f)
{
	return report_keep(&((struct junit *)state)->r, f);
}

/* ---- test cases -------------------------------------------------------------------- */

/*
 * "CODE SUBJECT": the subject is the path with --srcroot and digit runs taken
 * out; a finding about no file is named by its process, digits as N. Never a
 * pid or a time: the name must be the same in the next run.
 */
static char *case_name(const struct dio_finding *f)
{
	const char *code = f->code ? f->code : "?";
	char comm[64];
	size_t n;
	char *name;

	report_normalise(f->comm, comm, sizeof(comm));
	n = strlen(code) + (f->subject ? strlen(f->subject) : 0) + sizeof(comm) + 16;
	name = malloc(n);
	if (!name)
		return NULL;
	if (f->subject && *f->subject)
		snprintf(name, n, "%s %s", code, f->subject);
	else if (comm[0])
		snprintf(name, n, "%s process %s", code, comm);
	else
		snprintf(name, n, "%s", code);
	return name;
}

/* whether f makes dio fail with --fail-on (the host says: warning without it): the case fails */
static int fails(const struct junit *j, const struct dio_finding *f)
{
	(void)j;
	return f->gates && f->baseline != DIO_BASELINE_ABSENT;
}

static int cmp_case(const void *a, const void *b)
{
	return strcmp(((const struct tcase *)a)->name, ((const struct tcase *)b)->name);
}

static void free_cases(struct tcase *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].name);
		free(c[i].f);
	}
	free(c);
}

/* the cases of one rule: its findings grouped by name, sorted; one passing case when none */
static int rule_cases(struct junit *j, const struct rrule *r, struct tcase **out, size_t *nout)
{
	struct tcase *c = NULL;
	size_t n = 0;

	for (size_t i = 0; i < j->r.found.n; i++) {
		const struct dio_finding *f = &j->r.found.v[i].f;
		char *name;
		size_t k;
		void *more;

		if (strcmp(f->code ? f->code : "?", r->code))
			continue;
		name = case_name(f);
		if (!name)
			goto oom;
		for (k = 0; k < n && strcmp(c[k].name, name); k++)
			;
		if (k == n) {
			more = realloc(c, (n + 1) * sizeof(*c));
			if (!more) {
				free(name);
				goto oom;
			}
			c = more;
			memset(&c[n++], 0, sizeof(*c));
			c[k].name = name;
			c[k].skipped = 1;
		} else {
			free(name);
		}
		more = realloc(c[k].f, (c[k].n + 1) * sizeof(*c[k].f));
		if (!more)
			goto oom;
		c[k].f = more;
		c[k].f[c[k].n++] = f;
		c[k].failed |= fails(j, f);
		c[k].skipped &= !!f->suppressed;
	}
	if (!n) {
		c = calloc(1, sizeof(*c));
		if (!c || !(c->name = strdup(r->code)))
			goto oom;
		n = 1;
	}
	qsort(c, n, sizeof(*c), cmp_case);
	*out = c;
	*nout = n;
	return 0;
oom:
	free_cases(c, n);
	return -ENOMEM;
}

/* ---- the report --------------------------------------------------------------------- */

static const char *sev_name(uint32_t s)
{
	return s >= DIO_SEV_ERROR ? "error" : s == DIO_SEV_WARNING ? "warning" : "info";
}

/* a line that says whether the finding fails its case, and why not */
static void put_state(const struct junit *j, struct rbuf *b, const struct dio_finding *f)
{
	if (f->suppressed)
		rbuf_fmt(b, "state: suppressed: %s\n", f->suppress_reason ? f->suppress_reason : "");
	else if (f->baseline == DIO_BASELINE_ABSENT)
		rbuf_str(b, "state: fixed: in the baseline only, not in this run\n");
	else if (f->baseline == DIO_BASELINE_UNCHANGED)
		rbuf_str(b, "state: unchanged: in the baseline too, so --fail-on does not count it\n");
	else if (f->severity < j->fail_level)
		rbuf_fmt(b, "state: %s, below the %s level that fails\n", sev_name(f->severity),
			 sev_name(j->fail_level));
	else if (!f->gates)
		rbuf_fmt(b, "state: %s, about the machine: --fail-on counts it only when it names "
			 "%s\n", sev_name(f->severity), f->analyzer ? f->analyzer : "it");
	else
		rbuf_fmt(b, "state: %s%s\n", sev_name(f->severity),
			 f->baseline == DIO_BASELINE_NEW ? ", new: not in the baseline" : "");
}

static void put_clock(const struct junit *j, struct rbuf *b, uint64_t mono)
{
	char t[64];

	report_time(j->r.host->realtime_ns(j->r.ctx, mono), t, sizeof(t));
	rbuf_str(b, t);
}

/* the evidence of one finding, as plain text lines */
static void put_evidence(const struct junit *j, struct rbuf *b, const struct dio_finding *f)
{
	uint64_t first = f->ts_first ? f->ts_first : f->ts_last;

	rbuf_fmt(b, "%s\n", f->title && *f->title ? f->title : f->rule_title ? f->rule_title : "");
	put_state(j, b, f);
	if (f->message && *f->message)
		rbuf_fmt(b, "%s%s", f->message, f->message[strlen(f->message) - 1] == '\n' ? "" : "\n");
	if (f->pid)
		rbuf_fmt(b, "process: %s (pid %u, tid %u)\n", f->comm ? f->comm : "?", f->pid, f->tid);
	else if (f->comm)
		rbuf_fmt(b, "process: %s\n", f->comm);
	if (f->path)
		rbuf_fmt(b, "file: %s\n", f->path);
	else if (f->subject && *f->subject)
		rbuf_fmt(b, "subject: %s\n", f->subject);
	if (f->count)
		rbuf_fmt(b, "count: %" PRIu64 "\n", f->count);
	if (f->cost_ns)
		rbuf_fmt(b, "cost_ns: %" PRIu64 "\n", f->cost_ns);
	if (f->processes > 1)
		rbuf_fmt(b, "processes: %u\n", f->processes);
	if (first) {
		rbuf_str(b, "time: ");
		put_clock(j, b, first);
		if (f->ts_last > first) {
			rbuf_str(b, " - ");
			put_clock(j, b, f->ts_last);
		}
		rbuf_str(b, "\n");
	}
	if (f->fingerprint)
		rbuf_fmt(b, "fingerprint: %s\n", f->fingerprint);
	if (f->excerpt && *f->excerpt) {
		rbuf_str(b, "calls:\n");
		for (const char *l = f->excerpt; *l; ) {
			size_t n = strcspn(l, "\n");

			rbuf_fmt(b, "  %.*s\n", (int)n, l);
			l += n + !!l[n];
		}
	}
}

static void put_case(const struct junit *j, struct rbuf *b, const char *analyzer,
		     const struct tcase *c)
{
	const struct dio_finding *lead = NULL;
	struct rbuf text = { 0 };

	for (size_t i = 0; i < c->n; i++) {
		if (!lead && (!c->failed || fails(j, c->f[i])))
			lead = c->f[i];
		if (i)
			rbuf_str(&text, "\n");
		put_evidence(j, &text, c->f[i]);
	}
	rbuf_str(b, "    <testcase classname=\"");
	rbuf_xml(b, analyzer, 1);
	rbuf_str(b, "\" name=\"");
	rbuf_xml(b, c->name, 1);
	rbuf_str(b, "\" time=\"0\"");
	if (!c->n) {
		rbuf_str(b, "/>\n");
		return;
	}
	rbuf_str(b, ">\n");
	if (c->failed) {
		rbuf_str(b, "      <failure message=\"");
		rbuf_xml(b, lead->title ? lead->title : "", 1);
		rbuf_str(b, "\" type=\"");
		rbuf_xml(b, lead->code, 1);
		rbuf_str(b, "\">");
		rbuf_xml(b, text.p, 0);
		rbuf_str(b, "</failure>\n");
	} else {
		if (c->skipped) {
			rbuf_str(b, "      <skipped message=\"suppressed: ");
			rbuf_xml(b, lead->suppress_reason, 1);
			rbuf_str(b, "\"/>\n");
		}
		rbuf_str(b, "      <system-out>");
		rbuf_xml(b, text.p, 0);
		rbuf_str(b, "</system-out>\n");
	}
	rbuf_str(b, "    </testcase>\n");
	if (text.oom)
		b->oom = 1;
	rbuf_free(&text);
}

struct suite {
	const char *name;
	struct tcase *c;
	size_t n;
	unsigned int failures, skipped;
};

/* the suites, one per analyzer in the order of the rules, each with its cases */
static int make_suites(struct junit *j, const struct rrule *r, size_t nr, struct suite **out,
		       size_t *nout)
{
	struct suite *s = NULL;
	size_t n = 0;
	int err = 0;

	for (size_t i = 0; i < nr && !err; i++) {
		struct tcase *c;
		size_t k, nc;
		void *more;

		for (k = 0; k < n && strcmp(s[k].name, r[i].analyzer); k++)
			;
		if (k == n) {
			more = realloc(s, (n + 1) * sizeof(*s));
			if (!more) {
				err = -ENOMEM;
				break;
			}
			s = more;
			memset(&s[n++], 0, sizeof(*s));
			s[k].name = r[i].analyzer;
		}
		err = rule_cases(j, &r[i], &c, &nc);
		if (err)
			break;
		more = realloc(s[k].c, (s[k].n + nc) * sizeof(*c));
		if (!more) {
			free_cases(c, nc);
			err = -ENOMEM;
			break;
		}
		s[k].c = more;
		memcpy(s[k].c + s[k].n, c, nc * sizeof(*c));
		s[k].n += nc;
		free(c);
		for (size_t m = 0; m < nc; m++) {
			s[k].failures += !!s[k].c[s[k].n - nc + m].failed;
			s[k].skipped += s[k].c[s[k].n - nc + m].n && !s[k].c[s[k].n - nc + m].failed &&
					s[k].c[s[k].n - nc + m].skipped;
		}
	}
	*out = s;
	*nout = n;
	return err;
}

/* seconds from "start" to "end" (RFC 3339 UTC, as host->info gives them), 0 if unknown */
static double duration(const char *start, const char *end)
{
	struct tm a = { 0 }, b = { 0 };
	double fa = 0, fb = 0;

	if (!start || !end ||
	    sscanf(start, "%d-%d-%dT%d:%d:%d%lf", &a.tm_year, &a.tm_mon, &a.tm_mday, &a.tm_hour,
		   &a.tm_min, &a.tm_sec, &fa) < 6 ||
	    sscanf(end, "%d-%d-%dT%d:%d:%d%lf", &b.tm_year, &b.tm_mon, &b.tm_mday, &b.tm_hour,
		   &b.tm_min, &b.tm_sec, &fb) < 6)
		return 0;
	a.tm_year -= 1900;
	b.tm_year -= 1900;
	a.tm_mon--;
	b.tm_mon--;
	return difftime(timegm(&b), timegm(&a)) + fb - fa;
}

static void put_report(struct junit *j, struct rbuf *b, const struct suite *s, size_t ns)
{
	const char *start = report_info(j->r.host, j->r.ctx, "start");
	const char *host = report_info(j->r.host, j->r.ctx, "hostname");
	double secs = duration(start, report_info(j->r.host, j->r.ctx, "end"));
	unsigned int tests = 0, failures = 0;
	char stamp[20];

	/* Ant's timestamp has no zone: the UTC time of the start, to the second */
	snprintf(stamp, sizeof(stamp), "%s", start && strlen(start) >= 19 ? start :
		 "1970-01-01T00:00:00");
	for (size_t i = 0; i < ns; i++) {
		tests += (unsigned int)s[i].n;
		failures += s[i].failures;
	}
	rbuf_str(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	/* junit-10.xsd (Jenkins' xUnit) has no skipped on <testsuites>: the suites say it */
	rbuf_fmt(b, "<testsuites name=\"dio\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
		 "time=\"%.3f\">\n", tests, failures, secs < 0 ? 0 : secs);
	for (size_t i = 0; i < ns; i++) {
		rbuf_str(b, "  <testsuite name=\"");
		rbuf_xml(b, s[i].name, 1);
		rbuf_fmt(b, "\" tests=\"%zu\" failures=\"%u\" errors=\"0\" skipped=\"%u\" "
			 "time=\"%.3f\" timestamp=\"%s\" hostname=\"", s[i].n, s[i].failures,
			 s[i].skipped, secs < 0 ? 0 : secs, stamp);
		rbuf_xml(b, host ? host : "localhost", 1);
		rbuf_str(b, "\">\n");
		for (size_t k = 0; k < s[i].n; k++)
			put_case(j, b, s[i].name, &s[i].c[k]);
		rbuf_str(b, "  </testsuite>\n");
	}
	rbuf_str(b, "</testsuites>\n");
}

static int junit_finish(void *state)
{
	struct junit *j = state;
	const char *fail_on = report_info(j->r.host, j->r.ctx, "fail_on");
	struct rrule *rules = NULL;
	struct suite *s = NULL;
	struct rbuf b = { 0 };
	size_t nrules = 0, ns = 0;
	int err;

	/* without --fail-on, what dio calls a problem: warnings and errors */
	j->fail_level = !fail_on ? DIO_SEV_WARNING : !strncmp(fail_on, "info", 4) ? DIO_SEV_INFO :
			!strncmp(fail_on, "error", 5) ? DIO_SEV_ERROR : DIO_SEV_WARNING;
	err = report_rules(j->r.host, j->r.ctx, &j->r.found, &rules, &nrules);
	if (!err)
		err = make_suites(j, rules, nrules, &s, &ns);
	if (!err)
		put_report(j, &b, s, ns);
	else
		b.oom = 1;	/* nothing half made is written: the write fails */
	err = report_write(&j->r, &b);
	for (size_t i = 0; i < ns; i++)
		free_cases(s[i].c, s[i].n);
	free(s);
	free(rules);
	rbuf_free(&b);
	return err;
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "junit",
	.description = "findings as a JUnit XML report (GitLab, Jenkins), written at the end",
	.findings = 1,
	.options = options,
	.init = junit_init,
	.finding = junit_finding,
	.finish = junit_finish,
	.destroy = junit_destroy,
};
