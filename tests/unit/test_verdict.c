// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's rounds of judgement (--report-every): a finding judged
 * during the run goes to the live sinks at once, later as updates with the
 * same fingerprint and its figures as they stand; the sinks that report at
 * the end, --max-findings and --fail-on see each fingerprint once, with its
 * final figures.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dio/sink.h>
#include "engine/findings.h"
#include "engine/modules.h"
#include "engine/options.h"
#include "engine/verdict.h"

#define GOT_MAX 16

/* what one sink was given */
struct got {
	int n;
	struct {
		char code[64], fp[17];
		uint64_t count;
		uint32_t update;
	} f[GOT_MAX];
};

static int record(void *state, const struct dio_finding *f)
{
	struct got *g = state;

	assert_true(g->n < GOT_MAX);
	snprintf(g->f[g->n].code, sizeof(g->f[g->n].code), "%s", f->code);
	snprintf(g->f[g->n].fp, sizeof(g->f[g->n].fp), "%s", f->fingerprint ? f->fingerprint : "");
	g->f[g->n].count = f->count;
	g->f[g->n].update = f->update;
	g->n++;
	return 0;
}

static const struct dio_sink live_sink = {
	.abi = DIO_SINK_ABI, .size = sizeof(struct dio_sink), .name = "live", .findings = 1,
	.finding = record, .live = 1,
};

/* a sink built before dio_sink.live: each finding once, at the end */
static const struct dio_sink old_sink = {
	.abi = DIO_SINK_ABI, .size = offsetof(struct dio_sink, live), .name = "old", .findings = 1,
	.finding = record, .live = 1,
};

struct fixture {
	struct options o;
	struct modules *m;
	struct verdict *v;
	struct got live, end;
};

static void start(struct fixture *x, uint32_t max_findings)
{
	char err[256];

	memset(x, 0, sizeof(*x));
	options_init(&x->o);
	x->o.max_findings = max_findings;
	x->o.fail_on = DIO_SEV_WARNING;
	x->m = modules__new();
	assert_non_null(x->m);
	x->m->plugins[0] = (struct plugin){ .kind = PLUGIN_SINK, .sk = &live_sink,
					    .name = "live", .state = &x->live, .inited = 1 };
	x->m->plugins[1] = (struct plugin){ .kind = PLUGIN_SINK, .sk = &old_sink,
					    .name = "old", .state = &x->end, .inited = 1 };
	x->m->n = 2;
	x->m->finding_sinks[0] = &x->m->plugins[0];
	x->m->finding_sinks[1] = &x->m->plugins[1];
	x->m->nfinding = 2;
	x->v = verdict__new(&x->o, x->m, err, sizeof(err));
	assert_non_null(x->v);
}

static void stop(struct fixture *x)
{
	verdict__free(x->v);
	free(x->m);	/* its plugins were never loaded */
}

static void emit(struct fixture *x, const char *code, const char *path, uint64_t count)
{
	struct dio_finding f = { .size = sizeof(f), .severity = DIO_SEV_WARNING, .code = code,
				 .title = "t", .message = "m", .comm = "prog", .path = path,
				 .count = count };

	assert_int_equal(verdict__emit(x->v, &f, "an"), 0);
}

static void judged_during_the_run_goes_to_live_sinks_at_once_then_as_updates(void **unused)
{
	struct fixture x;

	(void)unused;
	start(&x, 10);
	/* a tick judges 5, the next 8 of the same: the second states it whole */
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 5);
	assert_int_equal(verdict__send(x.v), 0);
	assert_int_equal(x.live.n, 1);
	assert_int_equal(x.live.f[0].count, 5);
	assert_int_equal(x.live.f[0].update, 0);
	assert_int_equal(x.end.n, 0);
	/* a round in which it was not emitted again, or judged the same, sends nothing */
	verdict__begin(x.v);
	assert_int_equal(verdict__send(x.v), 0);
	assert_int_equal(x.live.n, 1);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 5);
	assert_int_equal(verdict__send(x.v), 0);
	assert_int_equal(x.live.n, 1);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 8);
	assert_int_equal(verdict__send(x.v), 0);
	assert_int_equal(x.live.n, 2);
	assert_int_equal(x.live.f[1].count, 8);
	assert_int_equal(x.live.f[1].update, 1);
	assert_string_equal(x.live.f[1].fp, x.live.f[0].fp);
	/* finish says 9: the last update, and the one finding the end's sinks see */
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 9);
	verdict__end(x.v);
	assert_int_equal(x.live.n, 3);
	assert_int_equal(x.live.f[2].count, 9);
	assert_int_equal(x.live.f[2].update, 1);
	assert_int_equal(x.end.n, 1);
	assert_int_equal(x.end.f[0].count, 9);
	assert_int_equal(x.end.f[0].update, 0);
	assert_string_equal(x.end.f[0].fp, x.live.f[0].fp);
	/* --fail-on counted one finding, not three */
	assert_int_equal(verdict__status(x.v, 0), DIO_EXIT_FINDINGS);
	stop(&x);
}

static void results_of_one_round_add_up(void **unused)
{
	struct fixture x;

	(void)unused;
	start(&x, 10);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 3);
	emit(&x, "an.burst", "/a", 4);
	assert_int_equal(verdict__send(x.v), 0);
	assert_int_equal(x.live.n, 1);
	assert_int_equal(x.live.f[0].count, 7);
	stop(&x);
}

static void unchanged_since_sent_is_not_sent_again_at_the_end(void **unused)
{
	struct fixture x;

	(void)unused;
	start(&x, 10);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 5);
	verdict__send(x.v);
	verdict__end(x.v);
	assert_int_equal(x.live.n, 1);
	assert_int_equal(x.end.n, 1);
	assert_int_equal(x.end.f[0].count, 5);
	stop(&x);
}

static void without_rounds_every_sink_gets_each_fingerprint_once_at_the_end(void **unused)
{
	struct fixture x;

	(void)unused;
	start(&x, 10);
	/* records' findings add up, as before --report-every */
	emit(&x, "an.burst", "/a", 2);
	emit(&x, "an.burst", "/a", 3);
	assert_int_equal(x.live.n, 0);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 4);
	verdict__end(x.v);
	assert_int_equal(x.live.n, 1);
	assert_int_equal(x.live.f[0].count, 9);
	assert_int_equal(x.live.f[0].update, 0);
	assert_int_equal(x.end.n, 1);
	assert_int_equal(x.end.f[0].count, 9);
	stop(&x);
}

static void max_findings_keeps_the_same_fingerprints_live_and_at_the_end(void **unused)
{
	struct fixture x;

	(void)unused;
	start(&x, 1);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 5);
	emit(&x, "an.burst", "/b", 6);
	verdict__send(x.v);
	assert_int_equal(x.live.n, 1);
	assert_int_equal(x.live.f[0].count, 5);
	verdict__begin(x.v);
	emit(&x, "an.burst", "/a", 7);
	emit(&x, "an.burst", "/b", 8);
	verdict__end(x.v);
	/* the first: its update; the other left out, counted once */
	assert_int_equal(x.live.n, 3);
	assert_int_equal(x.live.f[1].count, 7);
	assert_int_equal(x.live.f[1].update, 1);
	assert_string_equal(x.live.f[2].code, "dio.findings-left-out");
	assert_int_equal(x.live.f[2].count, 1);
	assert_int_equal(x.end.n, 2);
	assert_int_equal(x.end.f[0].count, 7);
	assert_string_equal(x.end.f[1].code, "dio.findings-left-out");
	assert_int_equal(x.end.f[1].count, 1);
	stop(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(judged_during_the_run_goes_to_live_sinks_at_once_then_as_updates),
		cmocka_unit_test(results_of_one_round_add_up),
		cmocka_unit_test(unchanged_since_sent_is_not_sent_again_at_the_end),
		cmocka_unit_test(without_rounds_every_sink_gets_each_fingerprint_once_at_the_end),
		cmocka_unit_test(max_findings_keeps_the_same_fingerprints_live_and_at_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
