// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/ringrd.c against real BPF rings (root): small BPF programs, built
 * from instructions here and run by BPF_PROG_TEST_RUN, copy the first SIZE
 * bytes of the test's "packet" into the ring (bpf_ringbuf_output), or
 * reserve a record and discard it. The reader must give back every record
 * once, in order, with its size and bytes, across the ring's end (a one-page
 * ring wraps every few records), skip discarded ones, stop where its
 * callback says (the record it refused is gone, as with libbpf's reader) and
 * go on from there, and give the space back: the programs can fill the ring
 * again and again. With two rings (as with two CPUs) it must hand the records
 * on oldest first across both, the key being each record's first word, and
 * only those up to the bound it is given.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <stdint.h>
#include "engine/ringrd.h"

#define RING	4096	/* the smallest ring: a page */

static int fails;
#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "FAIL: %s:%d: ", __FILE__, __LINE__);         \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
			fails++;                                                      \
		}                                                                     \
	} while (0)

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })

/*
 * a socket filter copying the packet's first size bytes (a multiple of 8, at
 * most 256) into map; it returns what bpf_ringbuf_output did
 */
static int load_output(int map, int size)
{
	struct bpf_insn p[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0),
		/* bpf_skb_load_bytes(skb, 0, fp - size, size) */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_6, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -size),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, size),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_skb_load_bytes),
		/* bpf_ringbuf_output(map, fp - size, size, 0) */
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -size),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, size),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ringbuf_output),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),	/* output's result: -EAGAIN when full */
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "ringrd_out", "GPL", p,
			     sizeof(p) / sizeof(p[0]), NULL);
}

/* a socket filter reserving 16 bytes in map and discarding them */
static int load_discard(int map)
{
	struct bpf_insn p[] = {
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 16),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ringbuf_reserve),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 3, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ringbuf_discard),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "ringrd_discard", "GPL", p,
			     sizeof(p) / sizeof(p[0]), NULL);
}

/*
 * run prog once with a packet of seq's words after an Ethernet header (the
 * program reads from where the kernel's skb starts, past it): 0, or what the
 * program or the run failed with
 */
static int put(int prog, uint64_t seq)
{
	unsigned char pkt[14 + 32 * 8] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = sizeof(pkt));

	for (size_t i = 0; i < 32; i++) {
		uint64_t w = seq * 1000 + i;

		memcpy(pkt + 14 + 8 * i, &w, 8);
	}
	if (bpf_prog_test_run_opts(prog, &t))
		return -errno;
	return (int)t.retval;
}

/* a record's time: its first word, seq * 1000 */
static uint64_t first_word(const void *data, size_t size)
{
	uint64_t v = 0;

	if (size >= 8)
		memcpy(&v, data, 8);
	return v;
}

struct seen {
	uint64_t next;		/* the sequence number the next record must carry */
	size_t n, stop_after;	/* stop_after: return -1 at that many records (0: never) */
	int sizes[1024];	/* the size of each record put, by sequence number */
};

static int got(void *ctx, void *data, size_t size)
{
	struct seen *s = ctx;
	const uint64_t *v = data;
	uint64_t seq = s->next;

	/* the record refused is gone, as with libbpf's ring_buffer__consume */
	if (s->stop_after && s->n == s->stop_after) {
		s->next++;
		return -1;
	}
	CHECK(size == (size_t)s->sizes[seq % 1024], "record %llu: %zu bytes, put %d",
	      (unsigned long long)seq, size, s->sizes[seq % 1024]);
	for (size_t i = 0; i < size / 8; i++)
		if (v[i] != seq * 1000 + i) {
			CHECK(0, "record %llu: word %zu is %llu, put %llu", (unsigned long long)seq,
			      i, (unsigned long long)v[i], (unsigned long long)(seq * 1000 + i));
			break;
		}
	s->next++;
	s->n++;
	return 0;
}

/* records spread over two rings come back oldest first, up to the bound */
static void two_rings(int a)
{
	int b = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ringrd_test2", 0, 0, RING, NULL);
	int fds[2] = { a, b }, out[2][2];
	struct seen s = { 0 };
	struct ringrd *r;
	uint64_t seq = 5000;	/* past what the first ring saw */

	CHECK(b >= 0, "cannot make a second BPF ring: %s", strerror(errno));
	if (b < 0)
		return;
	for (int k = 0; k < 2; k++) {
		out[k][0] = load_output(fds[k], 8);
		out[k][1] = load_output(fds[k], 56);
		CHECK(out[k][0] >= 0 && out[k][1] >= 0, "the kernel refused a program: %s",
		      strerror(errno));
	}
	r = ringrd__new(fds, 2, got, first_word, &s);
	CHECK(r != NULL, "ringrd__new of two rings: %s", strerror(errno));
	if (!r || fails)
		goto out;
	s.next = seq;
	for (int round = 0; round < 50; round++) {
		uint64_t first = seq;

		/* runs of 1 to 4 records on one ring, then the other */
		for (int i = 0; i < 20; i++, seq++) {
			int k = (int)((seq / (1 + seq % 4)) % 2);

			s.sizes[seq % 1024] = (seq & 1) ? 56 : 8;
			CHECK(!put(out[k][seq & 1], seq), "round %d: the ring took no record", round);
		}
		/* up to the bound: the first 11 only (keys are seq * 1000) */
		CHECK(ringrd__consume(r, (first + 10) * 1000) == 11,
		      "round %d: the records up to the bound were not 11", round);
		CHECK(s.next == first + 11, "round %d: read up to %llu, wanted %llu", round,
		      (unsigned long long)s.next, (unsigned long long)(first + 11));
		CHECK(ringrd__consume(r, UINT64_MAX) == 9, "round %d: the other 9 did not come",
		      round);
		CHECK(s.next == seq, "round %d: read up to %llu of %llu", round,
		      (unsigned long long)s.next, (unsigned long long)seq);
		if (fails)
			break;
	}
	printf("%zu records through two rings, oldest first\n", s.n);
out:
	ringrd__free(r);
	close(b);
}

#define MANY	24	/* rings, as on a machine of as many CPUs */

/*
 * Records spread over many rings, a few of them with records at a time (a
 * different few each round), come back oldest first, up to the bound.
 */
static void many_rings(void)
{
	int fds[MANY], out[MANY];
	struct seen s = { 0 };
	struct ringrd *r = NULL;
	uint64_t seq = 100000, x = 88172645463325252ULL;
	int k;

	for (k = 0; k < MANY; k++)
		fds[k] = out[k] = -1;
	for (k = 0; k < MANY && !fails; k++) {
		fds[k] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ringrd_many", 0, 0, RING, NULL);
		out[k] = fds[k] >= 0 ? load_output(fds[k], 24) : -1;
		CHECK(fds[k] >= 0 && out[k] >= 0, "ring %d: %s", k, strerror(errno));
	}
	if (!fails) {
		r = ringrd__new(fds, MANY, got, first_word, &s);
		CHECK(r != NULL, "ringrd__new of %d rings: %s", MANY, strerror(errno));
	}
	if (!r || fails)
		goto out;
	s.next = seq;
	for (int round = 0; round < 200; round++) {
		uint64_t first = seq;

		for (int i = 0; i < 30; i++, seq++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			k = (int)((x % 5 + (uint64_t)round * 7) % MANY);
			s.sizes[seq % 1024] = 24;
			CHECK(!put(out[k], seq), "round %d: ring %d took no record", round, k);
		}
		CHECK(ringrd__consume(r, (first + 14) * 1000) == 15,
		      "round %d: the records up to the bound were not 15", round);
		CHECK(s.next == first + 15, "round %d: read up to %llu, wanted %llu", round,
		      (unsigned long long)s.next, (unsigned long long)(first + 15));
		CHECK(ringrd__consume(r, UINT64_MAX) == 15, "round %d: the other 15 did not come",
		      round);
		CHECK(s.next == seq, "round %d: read up to %llu of %llu", round,
		      (unsigned long long)s.next, (unsigned long long)seq);
		if (fails)
			break;
	}
	printf("%zu records through %d rings, oldest first\n", s.n, MANY);
out:
	ringrd__free(r);
	for (k = 0; k < MANY; k++) {
		if (out[k] >= 0)
			close(out[k]);
		if (fds[k] >= 0)
			close(fds[k]);
	}
}

int main(void)
{
	static const int size[] = { 8, 24, 256, 136, 56 };
	int map, out[5], discard, n;
	struct seen s = { 0 };
	struct ringrd *r;
	uint64_t seq = 0;

	map = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ringrd_test", 0, 0, RING, NULL);
	if (map < 0) {
		printf("FAIL: cannot make a BPF ring: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 5; i++) {
		out[i] = load_output(map, size[i]);
		CHECK(out[i] >= 0, "the kernel refused the program of %d bytes: %s", size[i],
		      strerror(errno));
	}
	discard = load_discard(map);
	CHECK(discard >= 0, "the kernel refused the discarding program: %s", strerror(errno));
	if (fails)
		return 1;
	r = ringrd__new(&map, 1, got, first_word, &s);
	CHECK(r != NULL, "ringrd__new: %s", strerror(errno));
	if (!r)
		return 1;
	CHECK(ringrd__consume(r, UINT64_MAX) == 0, "an empty ring gave records");

	/* 200 rounds: fill the ring with records of every size (it wraps), read them all */
	for (int round = 0; round < 200; round++) {
		size_t before = s.n;
		int e;

		for (int k = 0;; k++) {
			int idx = (int)((seq + (uint64_t)round) % 5);

			if (k % 7 == 3)
				put(discard, 0);	/* takes room, or finds none: never read */
			s.sizes[seq % 1024] = size[idx];
			e = put(out[idx], seq);
			if (e)
				break;
			seq++;
		}
		CHECK(e == -EAGAIN || e == -ENOSPC || (e > 0 && (unsigned)e == (unsigned)-EAGAIN),
		      "round %d: the ring refused a record with %d, not as full", round, e);
		CHECK(seq - s.next >= 12, "round %d: the ring took only %llu records", round,
		      (unsigned long long)(seq - s.next));
		n = ringrd__consume(r, UINT64_MAX);
		CHECK(n >= 0 && (size_t)n == s.n - before, "round %d: consume said %d, gave %zu",
		      round, n, s.n - before);
		CHECK(s.next == seq, "round %d: read up to %llu, put up to %llu", round,
		      (unsigned long long)s.next, (unsigned long long)seq);
		if (fails)
			break;
	}
	CHECK(s.n >= 2000, "only %zu records went round", s.n);

	/* the callback stops the reading after 3 records: the rest comes next time */
	for (int i = 0; i < 8; i++) {
		s.sizes[seq % 1024] = size[i % 5];
		CHECK(!put(out[i % 5], seq), "the program did not run");
		seq++;
	}
	s.stop_after = s.n + 3;
	n = ringrd__consume(r, UINT64_MAX);
	CHECK(n == -1, "the callback's -1 gave %d", n);
	CHECK(s.next == seq - 4, "after a stop at the 4th of 8, read up to %llu of %llu",
	      (unsigned long long)s.next, (unsigned long long)seq);
	s.stop_after = 0;
	CHECK(ringrd__wait(r, 0) == 0, "a wait of 0 ms failed");
	CHECK(ringrd__consume(r, UINT64_MAX) == 4, "the 4 records after the stop did not come");
	CHECK(s.next == seq, "read up to %llu of %llu", (unsigned long long)s.next,
	      (unsigned long long)seq);
	ringrd__free(r);
	printf("%zu records through a %d-byte ring\n", s.n, RING);
	if (!fails)
		two_rings(map);
	if (!fails)
		many_rings();
	return fails ? 1 : 0;
}
