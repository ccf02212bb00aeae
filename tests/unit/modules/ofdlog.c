// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes, to the file named by its "out" option, every syscall record that
 * has a file, prefixed with its open file description, and every
 * description's end: what tests/integration/trace-ofd.sh reads to check how
 * the host follows descriptions. It uses only the public ABI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <dio/analyzer.h>

struct state {
	const struct dio_host *host;
	struct dio_ctx *ctx;
	FILE *out;
};

static const struct dio_option opts[] = {
	{ "out", DIO_OPT_STRING, NULL, "file to write to" },
	{ NULL, 0, NULL, NULL },
};

static int init(const struct dio_host *host, struct dio_ctx *ctx, const struct dio_optval *o,
		void **state)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s)
		return -12;
	s->host = host;
	s->ctx = ctx;
	s->out = fopen(o[0].s ? o[0].s : "/dev/null", "we");
	if (!s->out) {
		free(s);
		return -2;
	}
	*state = s;
	return 0;
}

static int event(void *state, const struct dio_ev_hdr *ev)
{
	struct state *s = state;
	char line[8192];

	if (ev->type == DIO_EV_SYSCALL &&
	    !(((const struct dio_ev_syscall *)ev)->flags & DIO_SF_FILE))
		return 0;
	s->host->format_event(s->ctx, ev, DIO_FMT_TID | DIO_FMT_DETAILS, line, sizeof(line));
	if (ev->type == DIO_EV_SYSCALL)
		fprintf(s->out, "%08x %s\n", ((const struct dio_ev_syscall *)ev)->ofd, line);
	else
		fprintf(s->out, "%s\n", line);
	return 0;
}

static void destroy(void *state)
{
	struct state *s = state;

	if (!s)
		return;
	fclose(s->out);
	free(s);
}

const struct dio_analyzer dio_analyzer = {
	.abi = DIO_ANALYZER_ABI,
	.size = sizeof(struct dio_analyzer),
	.name = "ofdlog",
	.description = "test module: descriptions as the host follows them",
	.events = DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_OFD),
	.options = opts,
	.init = init,
	.event = event,
	.destroy = destroy,
};
