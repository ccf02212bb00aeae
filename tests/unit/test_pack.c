// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The packed encoding of records blocks (engine/pack.c): every record comes
 * back byte for byte, whatever it holds (every type, tails, records the
 * encoding does not know, random words), a realistic stream packs small, and
 * damaged input is refused without reading or writing outside its buffers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dio/event.h>
#include "engine/pack.h"

#define CAP (1u << 20)

static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const uint16_t sizes[] = {
	[DIO_EV_SYSCALL] = sizeof(struct dio_ev_syscall), [DIO_EV_PATH] = sizeof(struct dio_ev_path),
	[DIO_EV_IOURING] = sizeof(struct dio_ev_iouring), [DIO_EV_PROC] = sizeof(struct dio_ev_proc),
	[DIO_EV_BLOCK] = sizeof(struct dio_ev_block), [DIO_EV_RUNQ] = sizeof(struct dio_ev_runq),
	[DIO_EV_OFD] = sizeof(struct dio_ev_ofd),
};

/* a record of any type and size, with random bytes where the fields are */
static size_t random_rec(uint8_t *p)
{
	struct dio_ev_hdr h;
	size_t size;
	uint16_t type = rnd() % 10;

	if (type >= 1 && type <= 7 && rnd() % 4)
		size = sizes[type] + (rnd() % 3 ? 0 : rnd() % 300);
	else
		size = sizeof(h) + rnd() % 200;
	for (size_t i = 0; i < size; i++)
		p[i] = (uint8_t)rnd();
	if (rnd() % 2 && size >= sizeof(struct dio_ev_syscall))
		memset(p + 24, 0, 40);	/* some words equal to the reference's */
	h.type = type == 9 ? (uint16_t)rnd() : type;
	h.size = (uint16_t)size;
	h.cpu = rnd() % 3 ? 1 : (uint32_t)rnd();
	h.ts = rnd() % 2 ? rnd() : 1000000 + rnd() % 1000;
	memcpy(p, &h, sizeof(h));
	return size;
}

/* fio-like: two threads of pread64/pwrite64 at random 4 KiB offsets */
static size_t call_rec(uint8_t *p, uint32_t i)
{
	struct dio_ev_syscall e = { 0 };
	uint64_t off = rnd() % 65536 * 4096;

	e.hdr.type = DIO_EV_SYSCALL;
	e.hdr.size = sizeof(e);
	e.hdr.ts = 1000000000ULL + i * 2500ULL + rnd() % 500;
	e.hdr.cpu = i % 2;
	e.pid = 700;
	e.tid = 700 + i % 2;
	e.duration = 900 + rnd() % 300;
	e.nr = i % 3 ? 17 : 18;
	e.ret = 4096;
	e.args[0] = 5;
	e.args[1] = 0x7f0000001000ULL;
	e.args[2] = 4096;
	e.args[3] = off;
	e.offset = (int64_t)off;
	memcpy(e.comm, "fio", 4);
	e.tag.ino = 12;
	e.tag.dev = 25;
	e.flags = 3;
	e.fd = 5;
	e.ofd = 9;
	memcpy(p, &e, sizeof(e));
	return sizeof(e);
}

static void roundtrip(const uint8_t *in, size_t len, size_t *packed_len)
{
	struct pack_ctx *c = pack_ctx__new();
	uint8_t *packed = malloc(pack_bound(len)), *out = malloc(CAP);
	size_t n, m;

	assert_non_null(c);
	n = pack_records(c, in, len, packed);
	assert_true(n <= pack_bound(len));
	assert_int_equal(unpack_records(c, packed, n, out, CAP, &m), 0);
	assert_int_equal(m, len);
	assert_memory_equal(out, in, len);
	/* no room for the last byte: refused, not overrun */
	if (len)
		assert_int_equal(unpack_records(c, packed, n, out, len - 1, &m), -EBADMSG);
	if (packed_len)
		*packed_len = n;
	free(packed);
	free(out);
	pack_ctx__free(c);
}

static void test_random_records(void **state)
{
	uint8_t *buf = malloc(CAP);

	(void)state;
	for (int round = 0; round < 200; round++) {
		size_t len = 0;
		int n = 1 + (int)(rnd() % 400);

		for (int i = 0; i < n && len < CAP - 70000; i++)
			len += random_rec(buf + len);
		roundtrip(buf, len, NULL);
	}
	free(buf);
}

static void test_calls_pack_small(void **state)
{
	uint8_t *buf = malloc(CAP);
	size_t len = 0, n;
	uint32_t i;

	(void)state;
	for (i = 0; len + sizeof(struct dio_ev_syscall) <= CAP; i++)
		len += call_rec(buf + len, i);
	roundtrip(buf, len, &n);
	/* before any compressor: the offsets (2 bytes of entropy) and times dominate */
	print_message("%u calls: %.1f bytes each packed\n", i, (double)n / i);
	assert_true(n < (size_t)i * 16);
	free(buf);
}

static void test_empty_and_damaged(void **state)
{
	struct pack_ctx *c = pack_ctx__new();
	uint8_t in[4096], packed[2 * sizeof(in) + 16], out[8192];
	size_t len = 0, n, m;

	(void)state;
	assert_int_equal(pack_records(c, in, 0, packed), 0);
	assert_int_equal(unpack_records(c, packed, 0, out, sizeof(out), &m), 0);
	assert_int_equal(m, 0);
	while (len < sizeof(in) - 400)
		len += random_rec(in + len);
	n = pack_records(c, in, len, packed);
	/* every cut is refused or unpacks a prefix; never more than was packed */
	for (size_t cut = 0; cut < n; cut++)
		if (!unpack_records(c, packed, cut, out, sizeof(out), &m))
			assert_true(m < len && !memcmp(out, in, m));
	/* flipped bytes: whatever comes out stays inside the buffers (ASan checks) */
	for (int i = 0; i < 2000; i++) {
		uint8_t bad[sizeof(packed)];

		memcpy(bad, packed, n);
		bad[rnd() % n] ^= (uint8_t)(1 + rnd() % 255);
		bad[rnd() % n] = (uint8_t)rnd();
		(void)unpack_records(c, bad, n, out, sizeof(out), &m);
	}
	/* an unknown opcode */
	packed[0] = 0x7f;
	assert_int_equal(unpack_records(c, packed, n, out, sizeof(out), &m), -EBADMSG);
	pack_ctx__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_records),
		cmocka_unit_test(test_calls_pack_small),
		cmocka_unit_test(test_empty_and_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
