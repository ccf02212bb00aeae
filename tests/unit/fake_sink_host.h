/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the unit tests of sink modules share: a fake host that records what the
 * sink logs, refuses findings from a sink, hands init the options the
 * engine's own parser set (fakehost.c), lists the rules and facts of the run that a test sets
 * (fake_rules, fake_infos), and decodes as the real host does, with the
 * engine's own functions (engine/decode.c). The test defines
 * fake_syscall_name, fake_tag_path and fake_format, and links the sink, whose
 * descriptor is dio_sink, and the engine (the sink itself must not compile
 * engine files). Include it after <cmocka.h>.
 */
#ifndef DIO_TEST_FAKE_SINK_HOST_H
#define DIO_TEST_FAKE_SINK_HOST_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fake_create_output.h"
#include <dio/sink.h>
#include "engine/decode.h"
#include "fakehost.h"

extern const struct dio_sink dio_sink;

struct dio_ctx {
	int unused;
};

static struct dio_ctx fake_ctx;

/* 2024-01-02 03:04:05 UTC is monotonic second 1 */
#define REALTIME_OFF	(1704164644ULL * 1000000000ULL)

static char logged[1024];	/* the last message */
static int nlogged;

static const char *fake_syscall_name(uint32_t nr);
static const char *fake_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag);
static int fake_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
		       char *buf, size_t len);

static uint64_t fake_realtime_ns(struct dio_ctx *ctx, uint64_t mono_ns)
{
	return mono_ns + REALTIME_OFF;
}

static int fake_emit_finding(struct dio_ctx *ctx, const struct dio_finding *f)
{
	fail_msg("a sink must not emit findings");
	return -EINVAL;
}

static void fake_stats(struct dio_ctx *ctx, struct dio_stats *out)
{
	memset(out, 0, sizeof(*out));
}

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fake_log(struct dio_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(logged, sizeof(logged), fmt, ap);
	va_end(ap);
	nlogged++;
}

/*
 * What host->rule and host->info give: a test sets these tables (rules end
 * with a NULL code; infos are key, value pairs ending with a NULL key).
 */
struct fake_rule {
	struct dio_rule rule;
	const char *analyzer;
};
static const struct fake_rule *fake_rules;
static const char *const *fake_infos;

static const struct dio_rule *fake_rule(struct dio_ctx *ctx, unsigned int i, const char **analyzer)
{
	for (unsigned int k = 0; fake_rules && fake_rules[k].rule.code; k++)
		if (k == i) {
			if (analyzer)
				*analyzer = fake_rules[k].analyzer;
			return &fake_rules[k].rule;
		}
	return NULL;
}

static const char *fake_info(struct dio_ctx *ctx, const char *key)
{
	for (int k = 0; fake_infos && fake_infos[k]; k += 2)
		if (!strcmp(fake_infos[k], key))
			return fake_infos[k + 1];
	return NULL;
}

static const struct dio_host host = {
	.abi = DIO_PLUGIN_ABI,
	.size = sizeof(struct dio_host),
	.syscall_name = fake_syscall_name,
	.tag_path = fake_tag_path,
	.format_event = fake_format,
	.realtime_ns = fake_realtime_ns,
	.emit_finding = fake_emit_finding,
	.stats = fake_stats,
	.log = fake_log,
	.create_output = fake_create_output,
	.rule = fake_rule,
	.info = fake_info,
	.syscall_info = decode__syscall_info,
	.decode_arg = decode__arg,
	.name_of = decode__name_of,
};

/* ---- options, parsed by the engine (fakehost.c) ----------------------------- */

#define MAX_OPTS 16
static struct dio_optval opts[MAX_OPTS];

/* val NULL: unset, as a string option nobody gave */
__attribute__((unused)) static void opt_set(const char *name, const char *val)
{
	fakehost_set(name, val, opts, MAX_OPTS);
}

/* the declared defaults, then overrides as "key", "value" pairs ending with NULL */
__attribute__((unused)) static void opts_reset(const char *key, ...)
{
	va_list ap;

	fakehost_options(dio_sink.options, dio_sink.name, 1, opts, MAX_OPTS);
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *)) {
		const char *v = va_arg(ap, const char *);

		opt_set(key, v);
	}
	va_end(ap);
}

/* ---- fixture: a temporary output file and the sink's state ------------------ */

struct fixture {
	char path[64];
	void *state;
};

static int sink_setup(void **st)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	int fd;

	assert_non_null(fx);
	snprintf(fx->path, sizeof(fx->path), "/tmp/dio-test-%s-XXXXXX", dio_sink.name);
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	close(fd);
	logged[0] = '\0';
	nlogged = 0;
	*st = fx;
	return 0;
}

/* destroys the sink if the test left it running */
static int sink_teardown(void **st)
{
	struct fixture *fx = *st;

	if (fx->state)
		dio_sink.destroy(fx->state);
	unlink(fx->path);
	free(fx);
	return 0;
}

#endif
