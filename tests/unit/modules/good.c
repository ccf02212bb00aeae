// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A well-formed analyzer for the loader and dispatch tests: counts the records
 * it is given by type and writes the counts to the file named by its "name"
 * option when destroyed, with what the host's format_event said of a record
 * whose string runs past its end (a module's own record is checked too). It
 * declares two rules, and reports neither.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/analyzer.h>

struct state {
	long n[DIO_EV_MAX];
	char *out;
	long limit;
	int badfmt;
};

static const struct dio_option opts[] = {
	{ "limit", DIO_OPT_INT, "10", "an integer" },
	{ "name", DIO_OPT_STRING, NULL, "a string" },
	{ "on", DIO_OPT_BOOL, "false", "a boolean" },
	{ "ratio", DIO_OPT_DOUBLE, "0.5", "a number" },
	{ NULL, 0, NULL, NULL },
};

/* what `dio list rules` shows of it */
static const struct dio_rule rules[] = {
	{ "good.first", DIO_SEV_ERROR, 0, "The first rule", "What it detects.", "How to fix it." },
	{ "good.second", DIO_SEV_INFO, 0, "The second rule", "What it detects.", "How to fix it." },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static int init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		void **state)
{
	struct state *s = calloc(1, sizeof(*s));
	struct dio_ev_syscall bad = { .hdr = { .type = DIO_EV_SYSCALL, .size = sizeof(bad) },
				      .str_len = { 4, 0 } };
	char line[64];

	if (!s)
		return -12;
	s->badfmt = host->format_event(ctx, &bad.hdr, 0, line, sizeof(line));
	s->limit = o[0].i;
	if (o[1].s) {
		s->out = strdup(o[1].s);	/* the option's string is the host's */
		if (!s->out) {
			free(s);
			return -12;
		}
	}
	*state = s;
	return 0;
}

static int event(void *state, const struct dio_ev_hdr *ev)
{
	struct state *s = state;

	if (ev->type < DIO_EV_MAX)
		s->n[ev->type]++;
	return 0;
}

static void destroy(void *state)
{
	struct state *s = state;
	FILE *f;

	if (!s)
		return;
	if (s->out && (f = fopen(s->out, "w"))) {
		fprintf(f, "limit=%ld syscall=%ld path=%ld iouring=%ld proc=%ld badfmt=%d\n",
			s->limit, s->n[DIO_EV_SYSCALL], s->n[DIO_EV_PATH], s->n[DIO_EV_IOURING],
			s->n[DIO_EV_PROC], s->badfmt);
		fclose(f);
	}
	free(s->out);
	free(s);
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "good",
	.description = "loader test module",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL),
	.options = opts,
	.init = init,
	.event = event,
	.destroy = destroy,
	.rules = rules,
};
