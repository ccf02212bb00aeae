// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A source module for the tests of sources.c (test_sources.c) and of a
 * replay from a module (tests/integration/source-module.sh):
 * "fakesrc:n=N[,fail=1]" gives N process records (exec of pids 100, 101,
 * ...), then the end, or with fail=1 an error. It names its host and session
 * but not itself ("trace"), and keeps a clock offset and a loss.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/source.h>

struct state {
	unsigned int n, i, fail;
	struct dio_ev_proc rec;
	char err[64];
};

static void *fake_open(const char *spec, char *err, size_t errlen)
{
	struct state *s;
	unsigned int n, fail = 0;
	int used = 0;

	if (sscanf(spec, "fakesrc:n=%u%n", &n, &used) != 1 ||
	    (spec[used] && strcmp(spec + used, ",fail=1"))) {
		snprintf(err, errlen, "--from fakesrc: give n=COUNT[,fail=1]");
		return NULL;
	}
	fail = spec[used] != 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->n = n;
	s->fail = fail;
	return s;
}

static int fake_next(void *state, const void **rec, size_t *size)
{
	struct state *s = state;

	if (s->i == s->n) {
		if (!s->fail)
			return 0;
		snprintf(s->err, sizeof(s->err), "fakesrc: the store went away after %u records",
			 s->n);
		return -EIO;
	}
	memset(&s->rec, 0, sizeof(s->rec));
	s->rec.hdr.type = DIO_EV_PROC;
	s->rec.hdr.size = sizeof(s->rec);
	s->rec.hdr.ts = 1000000000ull * (s->i + 1);
	s->rec.kind = DIO_PROC_EXEC;
	s->rec.pid = s->rec.tid = 100 + s->i;
	snprintf(s->rec.comm, sizeof(s->rec.comm), "fake%u", s->i);
	s->i++;
	*rec = &s->rec;
	*size = sizeof(s->rec);
	return 1;
}

static const char *fake_error(void *state)
{
	return ((struct state *)state)->err;
}

static const char *fake_info(void *state, const char *key)
{
	if (!strcmp(key, "hostname"))
		return "fakehost";
	if (!strcmp(key, "session_id"))
		return "0123456789abcdef0123456789abcdef";
	return NULL;
}

static int fake_meta(void *state, const char *key, char *buf, size_t len)
{
	const char *v = !strcmp(key, "realtime_offset_ns") ? "1700000000000000000" :
			!strcmp(key, "lost_ringbuf") ? "7" : NULL;

	snprintf(buf, len, "%s", v ? v : "");
	return v ? 0 : -ENOENT;
}

static void fake_close(void *state)
{
	free(state);
}

const struct dio_source dio_source = {
	.abi = DIO_SOURCE_ABI,
	.size = sizeof(struct dio_source),
	.name = "fakesrc",
	.description = "process records for the tests",
	.scheme = "fakesrc",
	.open = fake_open,
	.next = fake_next,
	.error = fake_error,
	.info = fake_info,
	.meta = fake_meta,
	.close = fake_close,
};
