// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * console: strace-like lines for every event, and findings as short blocks.
 * Output is buffered and written on the host's drain timer, so the cost per
 * event is one formatting pass and a memcpy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/sink.h>

enum { O_OUTPUT, O_TIME, O_DURATIONS, O_TID, O_DETAILS, O_PATHS, O_PROC, O_EVENTS };

static const struct dio_option options[] = {
	[O_OUTPUT] = { "output", DIO_OPT_STRING, NULL,
		       "file to write to; \"-\" for standard output (default: standard error)" },
	[O_TIME] = { "time", DIO_OPT_STRING, "", "\"\", \"t\", \"tt\" or \"ttt\" as strace -t" },
	[O_DURATIONS] = { "durations", DIO_OPT_BOOL, "false", "time spent in each call (-T)" },
	[O_TID] = { "tid", DIO_OPT_BOOL, "true", "prefix [pid/tid thread-name]" },
	[O_DETAILS] = { "details", DIO_OPT_BOOL, "true", "append {off= type= tag=}" },
	[O_PATHS] = { "paths", DIO_OPT_BOOL, "false", "also print the path records" },
	[O_PROC] = { "proc", DIO_OPT_BOOL, "true", "print fork, exec, exit and rename" },
	[O_EVENTS] = { "events", DIO_OPT_BOOL, "true", "print events (false: findings only)" },
	{ NULL, 0, NULL, NULL },
};

struct console {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;
	int own;		/* out was opened here */
	uint32_t flags;		/* DIO_FMT_* */
	int paths, proc, events;
	char *line;		/* grows to the longest line seen */
	size_t cap;
};

static int console_init(const struct dio_host *host, struct dio_ctx *ctx,
			const struct dio_optval *o, void **state)
{
	struct console *c = calloc(1, sizeof(*c));
	const char *t = o[O_TIME].s ? o[O_TIME].s : "";

	if (!c)
		return -ENOMEM;
	c->host = host;
	c->ctx = ctx;
	if (!strcmp(t, "t"))
		c->flags |= DIO_FMT_TIME_T;
	else if (!strcmp(t, "tt"))
		c->flags |= DIO_FMT_TIME_TT;
	else if (!strcmp(t, "ttt"))
		c->flags |= DIO_FMT_TIME_TTT;
	else if (*t) {
		host->log(ctx, "time: '%s' is not one of \"\", \"t\", \"tt\", \"ttt\"", t);
		free(c);
		return -EINVAL;
	}
	if (o[O_DURATIONS].i)
		c->flags |= DIO_FMT_DURATION;
	if (o[O_TID].i)
		c->flags |= DIO_FMT_TID;
	if (o[O_DETAILS].i)
		c->flags |= DIO_FMT_DETAILS;
	c->paths = o[O_PATHS].i;
	c->proc = o[O_PROC].i;
	c->events = o[O_EVENTS].i;
	if (!o[O_OUTPUT].s) {
		c->out = stderr;
	} else if (!strcmp(o[O_OUTPUT].s, "-")) {
		c->out = stdout;
	} else {
		c->out = fopen(o[O_OUTPUT].s, "we");
		if (!c->out) {
			int e = -errno;

			host->log(ctx, "cannot open output '%s': %s", o[O_OUTPUT].s, strerror(errno));
			free(c);
			return e;
		}
		c->own = 1;
	}
	/* the host flushes on its drain timer: keep lines in a large buffer meanwhile */
	setvbuf(c->out, NULL, _IOFBF, 1 << 20);
	c->cap = 1024;
	c->line = malloc(c->cap);
	if (!c->line) {
		if (c->own)
			fclose(c->out);
		free(c);
		return -ENOMEM;
	}
	*state = c;
	return 0;
}

static int console_event(void *state, const struct dio_ev_hdr *ev)
{
	struct console *c = state;
	int n;

	if (!c->events || (ev->type == DIO_EV_PATH && !c->paths) ||
	    (ev->type == DIO_EV_PROC && !c->proc))
		return 0;
	n = c->host->format_event(c->ctx, ev, c->flags, c->line, c->cap);
	if (n < 0)
		return 0;	/* a malformed record is the host's to count, not a reason to stop */
	if ((size_t)n >= c->cap) {
		size_t cap = (size_t)n + 1;
		char *l = realloc(c->line, cap);

		if (!l)
			return -ENOMEM;
		c->line = l;
		c->cap = cap;
		n = c->host->format_event(c->ctx, ev, c->flags, c->line, c->cap);
		if (n < 0)
			return 0;
	}
	c->line[n] = '\n';
	if (fwrite(c->line, 1, n + 1, c->out) != (size_t)n + 1)
		return -EIO;
	return 0;
}

static const char *sev_name(uint32_t s)
{
	return s == DIO_SEV_ERROR ? "ERROR" : s == DIO_SEV_WARNING ? "WARNING" : "INFO";
}

/* indent every line of text */
static void put_indented(FILE *f, const char *prefix, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(f, "%s%.*s\n", prefix, len, p);
		p = nl ? nl + 1 : NULL;
	}
}

static int console_finding(void *state, const struct dio_finding *f)
{
	struct console *c = state;
	FILE *o = c->out;

	fprintf(o, "dio: [%s] %s: %s\n", sev_name(f->severity), f->code ? f->code : "?",
		f->title ? f->title : "");
	put_indented(o, "    ", f->message);
	if (f->pid)
		fprintf(o, "    process: %u/%u %s\n", f->pid, f->tid, f->comm ? f->comm : "");
	if (f->path || f->has_tag) {
		fprintf(o, "    file: %s", f->path ? f->path : "?");
		if (f->has_tag)
			fprintf(o, " (tag %u:%u|%llu|%u)", f->tag.dev >> 20, f->tag.dev & 0xfffff,
				(unsigned long long)f->tag.ino, f->tag.gen);
		fputc('\n', o);
	}
	if (f->ts_first && f->ts_last >= f->ts_first)
		fprintf(o, "    span: %.6f s\n", (double)(f->ts_last - f->ts_first) / 1e9);
	if (f->count)
		fprintf(o, "    count: %llu\n", (unsigned long long)f->count);
	if (f->excerpt) {
		fprintf(o, "    calls:\n");
		put_indented(o, "      ", f->excerpt);
	}
	fflush(o);
	return 0;
}

static int console_flush(void *state)
{
	struct console *c = state;

	return fflush(c->out) ? -errno : 0;
}

static void console_destroy(void *state)
{
	struct console *c = state;

	if (!c)
		return;
	fflush(c->out);
	if (c->own)
		fclose(c->out);
	free(c->line);
	free(c);
}

const struct dio_sink dio_sink = {
	.abi = DIO_SINK_ABI,
	.size = sizeof(struct dio_sink),
	.name = "console",
	.description = "strace-like lines on the terminal or in a file, and findings",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_PATH) |
		  DIO_EV_MASK(DIO_EV_IOURING) | DIO_EV_MASK(DIO_EV_PROC),
	.findings = 1,
	.options = options,
	.init = console_init,
	.event = console_event,
	.finding = console_finding,
	.flush = console_flush,
	.destroy = console_destroy,
};
