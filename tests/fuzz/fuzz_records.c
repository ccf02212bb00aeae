// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target for what comes after the trace file reader: the input is
 * records back to back, as the ring buffer and a trace file's blocks hold
 * them, without the file's framing, so that no CRC stops a mutation. Each
 * input goes through a session of its own: the checks at the host's
 * boundary, dispatch, the console and json sinks and every built-in
 * analyzer, loaded from DIO_ANALYZER_PATH and DIO_SINK_PATH as dio loads
 * them, then the end of the trace (findings, summary). Each record is copied
 * into a buffer of its own size, so that a sanitizer sees any read past it.
 * The session's settings (time style, -T, --no-details, --hash user) follow
 * from the input's length: an input always runs the same way.
 *
 * LLVMFuzzerTestOneInput is the target, under libFuzzer's name and
 * signature. main() below (left out when DIO_LIBFUZZER is defined) is the
 * deterministic driver that make check runs (tests/fuzz/fuzz-records.sh):
 *
 *	fuzz_records [-runs=N] [-seed=S] [-artifact_prefix=P] FILE...
 *
 * runs each FILE, then N inputs made from them by random changes that know
 * the record layout (sizes, string lengths, types, fields set to edge
 * values, records dropped, repeated or cut). An input that stops the program
 * (a sanitizer's report) is left in P"crash-records-RUN" (or -seed-N).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dio/event.h>
#include "engine/options.h"
#include "engine/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void add(struct options *o, int sink, const char *spec)
{
	char err[512];

	if (options_add_plugin(o, sink, spec, err, sizeof(err))) {
		fprintf(stderr, "fuzz_records: %s: %s\n", spec, err);
		abort();
	}
}

/* a session with every module, set up as the input's length says */
static struct session *start(struct options *o, size_t size)
{
	static const enum time_style times[] = { TIME_NONE, TIME_T, TIME_TT, TIME_TTT };
	struct session *s;
	char err[1024];

	options_init(o);
	o->time = times[size % 4];
	o->durations = size / 4 % 2;
	o->details = size / 8 % 2;
	if (size / 16 % 2) {
		o->hash = HASH_USER;
		o->capture_bytes = size / 32 % 3 * 32;
	}
	add(o, 1, "console:output=/dev/null");
	add(o, 1, "json:file=/dev/null");
	add(o, 0, "all");
	s = session__new(o, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "fuzz_records: cannot start a session: %s\n", err);
		abort();
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options o;
	struct session *s = start(&o, size);
	size_t off = 0;

	while (size - off >= sizeof(struct dio_ev_hdr)) {
		struct dio_ev_hdr h;
		size_t n;
		void *rec;

		memcpy(&h, data + off, sizeof(h));
		/* a size that cannot be right: the rest, for the host to refuse */
		n = h.size < sizeof(h) || h.size > size - off ? size - off : h.size;
		rec = malloc(n);
		if (!rec)
			abort();
		memcpy(rec, data + off, n);
		if (session__dispatch(s, rec, n) < 0) {
			free(rec);
			break;	/* a module stopped the session, as a trace would stop */
		}
		free(rec);
		off += n;
	}
	session__finish(s);
	session__free(s);
	options_free(&o);
	return 0;
}

#ifndef DIO_LIBFUZZER

#define INPUT_MAX	(1u << 20)
#define SEEDS_MAX	64

struct buf {
	uint8_t *p;
	size_t len;
};

static uint64_t rng;

static uint64_t rnd(void)
{
	/* xorshift64*: the same inputs from the same seed, everywhere */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

/* where the records of b start, as far as their sizes hold together */
static size_t records(const struct buf *b, size_t *at, size_t max)
{
	size_t n = 0, off = 0;

	while (n < max && b->len - off >= sizeof(struct dio_ev_hdr)) {
		uint16_t size;

		memcpy(&size, b->p + off + 2, sizeof(size));
		if (size < sizeof(struct dio_ev_hdr) || size > b->len - off)
			break;
		at[n++] = off;
		off += size;
	}
	return n;
}

static void put16(uint8_t *p, uint64_t v)
{
	uint16_t x = (uint16_t)v;

	memcpy(p, &x, sizeof(x));
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

/* a value at the edge of something: a size, a string's end, a sign, a limit */
static uint64_t edge(uint64_t cur)
{
	static const uint64_t v[] = {
		0, 1, 2, 7, 8, 15, 16, 17, 40, 56, 64, 144, 160, 255, 256, 4095, 4096, 4097,
		8192, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
		(uint64_t)-4095, (uint64_t)-4096, (uint64_t)INT64_MIN, (uint64_t)INT64_MAX,
		UINT64_MAX,
	};
	size_t n = sizeof(v) / sizeof(v[0]), i = below(n + 3);

	if (i < n)
		return v[i];
	if (i == n)
		return cur + 1;
	if (i == n + 1)
		return cur - 1;
	return rnd();
}

struct field {
	size_t off, width;
};

/* a field that says how long something is, or what is there, by record type */
static struct field length_field(const uint8_t *rec, size_t size)
{
	const size_t s0 = offsetof(struct dio_ev_syscall, str_len);
	struct field f = { 2, 2 };	/* hdr.size */
	uint16_t type = get16(rec);

	if (type == DIO_EV_SYSCALL && size >= sizeof(struct dio_ev_syscall)) {
		size_t tail = sizeof(struct dio_ev_syscall) + get16(rec + s0) + get16(rec + s0 + 2);

		switch (below(4)) {
		case 0: f.off = s0; break;
		case 1: f.off = s0 + 2; break;
		case 2:
			/* the content tail's hashed_len or data_len */
			if (tail + sizeof(struct dio_ev_content) <= size) {
				f.off = tail + 8 + 4 * below(2);
				f.width = 4;
			}
			break;
		default:
			f.off = offsetof(struct dio_ev_syscall, flags);
			f.width = 1;
			break;
		}
	} else if (type == DIO_EV_PATH && size >= sizeof(struct dio_ev_path)) {
		if (below(2)) {
			f.off = offsetof(struct dio_ev_path, len);
		} else {
			f.off = offsetof(struct dio_ev_path, ftype);
			f.width = 1;
		}
	}
	return f;
}

static void mutate(struct buf *b, const struct buf *seeds, size_t nseeds)
{
	size_t at[4096], n = records(b, at, sizeof(at) / sizeof(at[0]));
	size_t r = n ? below(n) : 0, off = n ? at[r] : 0;
	size_t size = n ? get16(b->p + off + 2) : 0;
	uint8_t *rec = b->p + off;

	switch (below(n ? 11 : 3)) {
	case 0:		/* one bit anywhere */
		if (b->len)
			b->p[below(b->len)] ^= (uint8_t)(1u << below(8));
		break;
	case 1:		/* one byte anywhere */
		if (b->len)
			b->p[below(b->len)] = (uint8_t)edge(0);
		break;
	case 2:		/* cut short */
		b->len = below(b->len + 1);
		break;
	case 3: {	/* a length field of a record */
		struct field f = length_field(rec, size);
		uint64_t v = 0;

		memcpy(&v, rec + f.off, f.width);
		v = edge(v);
		memcpy(rec + f.off, &v, f.width);	/* little-endian: the low bytes */
		break;
	}
	case 4: {	/* an aligned 2, 4 or 8-byte field of a record */
		size_t w = (size_t)1 << (1 + below(3));
		size_t f = below(size / w) * w;
		uint64_t v = edge(0);

		if (f + w <= size)
			memcpy(rec + f, &v, w);	/* little-endian: the low bytes */
		break;
	}
	case 5:		/* the type */
		put16(rec, below(DIO_EV_MAX + 2));
		break;
	case 6:		/* the last byte of the record, where a string's NUL is */
		rec[size - 1] = (uint8_t)(below(2) ? 'A' : '/');
		break;
	case 7:		/* drop the record */
		memmove(rec, rec + size, b->len - off - size);
		b->len -= size;
		break;
	case 8:		/* repeat it */
		if (b->len + size <= INPUT_MAX) {
			memmove(rec + size, rec, b->len - off);
			b->len += size;
		}
		break;
	case 9: {	/* one record of another seed, inserted here */
		const struct buf *o = &seeds[below(nseeds)];
		size_t oat[4096], on = records(o, oat, sizeof(oat) / sizeof(oat[0]));
		size_t osize;

		if (!on)
			break;
		r = below(on);
		osize = get16(o->p + oat[r] + 2);
		if (b->len + osize <= INPUT_MAX) {
			memmove(rec + osize, rec, b->len - off);
			memcpy(rec, o->p + oat[r], osize);
			b->len += osize;
		}
		break;
	}
	default:	/* a field of the header: cpu, ts */
		put16(rec + 4 + 2 * below(6), edge(0));
		break;
	}
}

static int load(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "rb");

	b->p = malloc(INPUT_MAX);
	if (!f || !b->p) {
		if (f)
			fclose(f);
		return -errno;
	}
	b->len = fread(b->p, 1, INPUT_MAX, f);
	fclose(f);
	return 0;
}

/*
 * Run one input. With a prefix, the input is in PREFIX"crash-records-NAME"
 * while it runs and removed after: what stops the program, a sanitizer
 * report or anything else, leaves its input behind.
 */
static void run(const struct buf *b, const char *prefix, const char *name)
{
	char path[4096];
	FILE *f = NULL;

	if (prefix) {
		snprintf(path, sizeof(path), "%scrash-records-%s", prefix, name);
		f = fopen(path, "wb");
		if (!f || fwrite(b->p, 1, b->len, f) != b->len || fclose(f)) {
			fprintf(stderr, "fuzz_records: cannot write %s\n", path);
			exit(2);
		}
	}
	LLVMFuzzerTestOneInput(b->p, b->len);
	if (prefix)
		unlink(path);
}

int main(int argc, char **argv)
{
	struct buf seeds[SEEDS_MAX], in;
	struct options idle_o;
	struct session *idle;
	const char *prefix = NULL;
	unsigned long runs = 1000;
	size_t nseeds = 0;
	char name[32];

	rng = 1;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "-runs=", 6)) {
			runs = strtoul(argv[i] + 6, NULL, 10);
		} else if (!strncmp(argv[i], "-seed=", 6)) {
			rng = strtoull(argv[i] + 6, NULL, 10) | 1;
		} else if (!strncmp(argv[i], "-artifact_prefix=", 17)) {
			prefix = argv[i] + 17;
		} else if (nseeds == SEEDS_MAX) {
			fprintf(stderr, "fuzz_records: at most %d seed files\n", SEEDS_MAX);
			return 2;
		} else if (load(argv[i], &seeds[nseeds])) {
			fprintf(stderr, "fuzz_records: cannot read %s: %s\n", argv[i], strerror(errno));
			return 2;
		} else {
			nseeds++;
		}
	}
	if (!nseeds) {
		fprintf(stderr, "usage: fuzz_records [-runs=N] [-seed=S] [-artifact_prefix=P] FILE...\n");
		return 2;
	}
	/* it keeps the modules loaded: the inputs' sessions then only count references */
	idle = start(&idle_o, 0);
	for (size_t i = 0; i < nseeds; i++) {
		snprintf(name, sizeof(name), "seed-%zu", i);
		run(&seeds[i], prefix, name);
	}
	in.p = malloc(INPUT_MAX);
	if (!in.p)
		return 1;
	for (unsigned long i = 0; i < runs; i++) {
		const struct buf *s = &seeds[below(nseeds)];
		size_t k = 1 + below(4);

		memcpy(in.p, s->p, s->len);
		in.len = s->len;
		while (k--)
			mutate(&in, seeds, nseeds);
		snprintf(name, sizeof(name), "%lu", i);
		run(&in, prefix, name);
	}
	printf("fuzz_records: %zu seeds and %lu inputs made from them ran clean\n", nseeds, runs);
	free(in.p);
	session__free(idle);
	options_free(&idle_o);
	for (size_t i = 0; i < nseeds; i++)
		free(seeds[i].p);
	return 0;
}

#endif /* DIO_LIBFUZZER */
