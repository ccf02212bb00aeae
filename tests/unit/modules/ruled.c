// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An analyzer with declared rules and findings whose every field is known,
 * for the tests of the report sinks (tests/integration/ci-reports.sh). It
 * uses only the public ABI.
 *
 * - ruled.touch (warning): one finding per file whose path contains the
 *   "match" option, with the number of calls on it, by the first thread seen
 *   using it;
 * - ruled.thread (info): one finding about no file, for the first process seen;
 * - ruled.quiet (error): never reported, so that a report shows it passed;
 * - ruled.odd, declared by no rule, when "odd" is set: text with markup,
 *   control characters and a byte that is not UTF-8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>

#define MAX_FILES	16

struct file {
	char *path;
	uint32_t pid, tid;
	char comm[DIO_COMM_LEN + 1];
	uint64_t count, first, last;
};

struct state {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	char *match;
	int odd;
	struct file f[MAX_FILES];
	int n;
	uint32_t pid, tid;	/* the first process seen */
	char comm[DIO_COMM_LEN + 1];
	uint64_t calls;
};

static const struct dio_option opts[] = {
	{ "match", DIO_OPT_STRING, NULL, "report files whose path contains this" },
	{ "odd", DIO_OPT_BOOL, "false", "also report ruled.odd" },
	{ NULL, 0, NULL, NULL },
};

static const struct dio_rule rules[] = {
	{ "ruled.touch", DIO_SEV_WARNING, 0, "A file the test names was used",
	  "Reports each file whose path contains the match option.",
	  "Nothing to fix: the test module reports what it was told to." },
	{ "ruled.thread", DIO_SEV_INFO, 0, "The first process made calls",
	  "Reports the number of calls of the first process seen.", "Nothing to fix." },
	{ "ruled.quiet", DIO_SEV_ERROR, 0, "Never reported",
	  "Reports nothing, so that a report shows a rule that passed.", "Nothing to fix." },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static int init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		void **state)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s)
		return -12;
	s->host = host;
	s->ctx = ctx;
	s->match = o[0].s ? strdup(o[0].s) : NULL;
	s->odd = (int)o[1].i;
	*state = s;
	return 0;
}

static int event(void *state, const struct dio_ev_hdr *ev)
{
	struct state *s = state;
	const struct dio_ev_syscall *sc = (const void *)ev;
	const char *path;
	int i;

	if (ev->type != DIO_EV_SYSCALL || ev->size < sizeof(*sc))
		return 0;
	if (!s->calls++) {
		s->pid = sc->pid;
		s->tid = sc->tid;
		memcpy(s->comm, sc->comm, DIO_COMM_LEN);
	}
	if (!(sc->flags & DIO_SF_FILE) || !s->match)
		return 0;
	path = s->host->tag_path(s->ctx, &sc->tag);
	if (!path || !strstr(path, s->match))
		return 0;
	for (i = 0; i < s->n && strcmp(s->f[i].path, path); i++)
		;
	if (i == s->n) {
		if (s->n == MAX_FILES || !(s->f[i].path = strdup(path)))
			return 0;
		s->n++;
		s->f[i].pid = sc->pid;
		s->f[i].tid = sc->tid;
		memcpy(s->f[i].comm, sc->comm, DIO_COMM_LEN);
		s->f[i].first = ev->ts;
	}
	s->f[i].count++;
	s->f[i].last = ev->ts;
	return 0;
}

static int finish(void *state)
{
	struct state *s = state;
	char title[512];
	int e;

	for (int i = 0; i < s->n; i++) {
		struct dio_finding f = {
			.size = sizeof(f), .severity = DIO_SEV_WARNING, .code = "ruled.touch",
			.title = title, .message = "The test asked for it.",
			.pid = s->f[i].pid, .tid = s->f[i].tid, .comm = s->f[i].comm,
			.path = s->f[i].path, .ts_first = s->f[i].first, .ts_last = s->f[i].last,
			.count = s->f[i].count, .excerpt = "one\ntwo",
		};

		snprintf(title, sizeof(title), "%s used in %llu calls", s->f[i].path,
			 (unsigned long long)s->f[i].count);
		if ((e = s->host->emit_finding(s->ctx, &f)))
			return e;
	}
	if (s->calls) {
		struct dio_finding f = {
			.size = sizeof(f), .severity = DIO_SEV_INFO, .code = "ruled.thread",
			.title = "The first process made calls", .message = "Counted.",
			.pid = s->pid, .tid = s->tid, .comm = s->comm, .count = s->calls,
		};

		if ((e = s->host->emit_finding(s->ctx, &f)))
			return e;
	}
	if (s->odd) {
		struct dio_finding f = {
			.size = sizeof(f), .severity = DIO_SEV_ERROR, .code = "ruled.odd",
			.title = "odd <b>&amp;\" \x01\x1b[31m\xff caf\xc3\xa9 \xef\xbf\xbe",
			.message = "tab\there\r\nline two ]]>", .comm = "odd\x7f",
			.excerpt = "a < b & c > d",
		};

		if ((e = s->host->emit_finding(s->ctx, &f)))
			return e;
	}
	return 0;
}

static void destroy(void *state)
{
	struct state *s = state;

	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		free(s->f[i].path);
	free(s->match);
	free(s);
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "ruled",
	.description = "report sink test module: findings with declared rules",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = opts,
	.init = init,
	.event = event,
	.finish = finish,
	.destroy = destroy,
	.rules = rules,
};
