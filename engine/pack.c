// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packed records blocks (docs/trace-format.md, "Packed records").
 *
 * A record of a known type is its header fields and its struct's 8-byte
 * words, each given as the difference from the same word of a reference
 * record: the last record of the same type, and for a system call the last
 * call of the same thread with the same number (found in a small table by a
 * hash of the two, so a collision costs bytes, never correctness). A bit mask
 * says which words changed; a changed word is the zigzag varint of its
 * difference. The file offset of a call is instead predicted from the call
 * itself (pread's offset argument, lseek's result) or from the reference
 * (where the last call ended). Encoder and decoder keep the same state, reset
 * at each block.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dio/event.h>
#include "engine/pack.h"

#define OP_LITERAL	0x00	/* varint size, the record's bytes */
#define OP_PACKED	0x80	/* bits 4-6: type; the fields below */
#define OP_CPU		0x01	/* hdr.cpu differs from the last record's: varint follows */
#define OP_OFF_SHIFT	1	/* bits 1-2: how a call's offset is found (OFF_*) */
#define OP_TAIL		0x08	/* bytes after the struct: varint length and the bytes follow */

#define OFF_DELTA	0	/* in the mask, from where the reference call ended */
#define OFF_ARG3	1	/* args[3] (pread64, pwrite64, ...) */
#define OFF_RET		2	/* the return value (lseek) */

#define NWORDS		16	/* body words a reference keeps: the largest struct's */
#define HDR_WORDS	2
#define CALL_SLOTS	1024

/* word indices of struct dio_ev_syscall */
#define W_PIDTID	2
#define W_RET		4
#define W_ARG3		8
#define W_OFF		15
#define W_NR		16

struct ref {
	uint64_t w[NWORDS];
};

struct pack_ctx {
	struct ref calls[CALL_SLOTS];	/* system calls by thread and number */
	struct ref other[8];		/* other records by type */
	uint64_t ts;
	uint32_t cpu, tid;
};

/* the struct a packed record of each type carries; 0: always literal */
static const uint16_t struct_size[8] = {
	[DIO_EV_SYSCALL] = sizeof(struct dio_ev_syscall),
	[DIO_EV_PATH] = sizeof(struct dio_ev_path),
	[DIO_EV_IOURING] = sizeof(struct dio_ev_iouring),
	[DIO_EV_PROC] = sizeof(struct dio_ev_proc),
	[DIO_EV_BLOCK] = sizeof(struct dio_ev_block),
	[DIO_EV_RUNQ] = sizeof(struct dio_ev_runq),
	[DIO_EV_OFD] = sizeof(struct dio_ev_ofd),
};
_Static_assert(sizeof(struct dio_ev_syscall) == (HDR_WORDS + NWORDS) * 8, "largest struct");

struct pack_ctx *pack_ctx__new(void)
{
	return calloc(1, sizeof(struct pack_ctx));
}

void pack_ctx__free(struct pack_ctx *c)
{
	free(c);
}

static void reset(struct pack_ctx *c)
{
	memset(c, 0, sizeof(*c));
}

size_t pack_bound(size_t len)
{
	/*
	 * A packed record costs at most 29 bytes of fields and 10 per 8-byte
	 * word it does not repeat, a literal 4 bytes over the record, and a
	 * record has 16 bytes at least: well under twice the input.
	 */
	return 2 * len + 16;
}

static struct ref *ref_of(struct pack_ctx *c, uint16_t type, uint32_t tid, uint32_t nr)
{
	if (type != DIO_EV_SYSCALL)
		return &c->other[type];
	return &c->calls[((tid * 2654435761u) ^ (nr * 40503u)) >> 7 & (CALL_SLOTS - 1)];
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)v | 0x80;
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static uint64_t zigzag(uint64_t v)
{
	return (v << 1) ^ (uint64_t)((int64_t)v >> 63);
}

static uint64_t unzigzag(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

/* where the reference call ended: its offset plus what it moved */
static uint64_t seq_offset(const struct ref *r)
{
	int64_t ret = (int64_t)r->w[W_RET - HDR_WORDS];

	return r->w[W_OFF - HDR_WORDS] + (ret > 0 ? (uint64_t)ret : 0);
}

/*
 * The changed words of w against ref, n of them: the mask, then each changed
 * word's zigzag varint difference. The mask is made without a branch a word
 * and the changed words are visited by their bits: most of a call's words
 * repeat, and which ones change is hard to predict.
 */
static uint8_t *put_words(uint8_t *p, const uint64_t *w, const uint64_t *ref, uint32_t n)
{
	unsigned int mask = 0;

	for (uint32_t i = 0; i < n; i++)
		mask |= (unsigned int)(w[i] != ref[i]) << i;
	*p++ = (uint8_t)mask;
	*p++ = (uint8_t)(mask >> 8);
	for (; mask; mask &= mask - 1) {
		unsigned int i = (unsigned int)__builtin_ctz(mask);

		p = put_varint(p, zigzag(w[i] - ref[i]));
	}
	return p;
}

static uint8_t *pack_one(struct pack_ctx *c, const uint8_t *rec, uint8_t *p)
{
	struct dio_ev_hdr h;
	uint64_t w[HDR_WORDS + NWORDS], ref[NWORDS];
	uint32_t n, tail;
	uint8_t *op = p++;
	struct ref *r;

	memcpy(&h, rec, sizeof(h));
	n = h.type < 8 ? struct_size[h.type] : 0;
	if (!n || h.size < n) {
		*op = OP_LITERAL;
		p = put_varint(p, h.size);
		memcpy(p, rec, h.size);
		c->ts = h.ts;
		return p + h.size;
	}
	tail = h.size - n;
	*op = OP_PACKED | h.type << 4 | (tail ? OP_TAIL : 0);
	if (h.cpu != c->cpu) {
		*op |= OP_CPU;
		p = put_varint(p, h.cpu);
		c->cpu = h.cpu;
	}
	p = put_varint(p, zigzag(h.ts - c->ts));
	c->ts = h.ts;
	if (h.type == DIO_EV_SYSCALL) {
		/* the common record: its size known here, so the copies are inline */
		uint32_t tid, nr;
		unsigned int off = OFF_DELTA;

		memcpy(w, rec, sizeof(w));
		tid = (uint32_t)(w[W_PIDTID] >> 32);
		nr = (uint16_t)w[W_NR];
		p = put_varint(p, zigzag((uint64_t)(int64_t)(int32_t)(tid - c->tid)));
		p = put_varint(p, nr);
		c->tid = tid;
		r = ref_of(c, h.type, tid, nr);
		memcpy(ref, r->w, sizeof(ref));
		if (w[W_OFF] == w[W_ARG3])
			off = OFF_ARG3;
		else if (w[W_OFF] == w[W_RET])
			off = OFF_RET;
		*op |= off << OP_OFF_SHIFT;
		/* the offset word: from where the reference ended, or not sent (equal) */
		ref[W_OFF - HDR_WORDS] = off == OFF_DELTA ? seq_offset(r) : w[W_OFF];
		if (tail)
			p = put_varint(p, tail);
		p = put_words(p, w + HDR_WORDS, ref, NWORDS);
		memcpy(r->w, w + HDR_WORDS, sizeof(r->w));
	} else {
		n = n / 8 - HDR_WORDS;
		memcpy(w, rec, (HDR_WORDS + n) * 8);
		r = ref_of(c, h.type, 0, 0);
		if (tail)
			p = put_varint(p, tail);
		p = put_words(p, w + HDR_WORDS, r->w, n);
		memcpy(r->w, w + HDR_WORDS, n * 8);
	}
	memcpy(p, rec + h.size - tail, tail);
	return p + tail;
}

size_t pack_records(struct pack_ctx *c, const uint8_t *in, size_t len, uint8_t *out)
{
	uint8_t *p = out;

	reset(c);
	for (size_t pos = 0; pos + sizeof(struct dio_ev_hdr) <= len; ) {
		uint16_t size;

		memcpy(&size, in + pos + offsetof(struct dio_ev_hdr, size), sizeof(size));
		if (size < sizeof(struct dio_ev_hdr) || size > len - pos)
			break;	/* the caller's promise broken: keep what is whole */
		p = pack_one(c, in + pos, p);
		pos += size;
	}
	return (size_t)(p - out);
}

/* ---- unpacking: every byte read is checked against the end ------------- */

struct in {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get_varint(struct in *in)
{
	uint64_t v = 0;

	for (unsigned int shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (in->p >= in->end)
			break;
		b = *in->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	in->bad = 1;
	return 0;
}

static int unpack_one(struct pack_ctx *c, struct in *in, uint8_t *out, size_t room, size_t *used)
{
	struct dio_ev_hdr h = { 0 };
	uint64_t w[HDR_WORDS + NWORDS] = { 0 };
	uint32_t n, tail = 0, tid = 0, nr = 0;
	unsigned int mask, off;
	uint8_t op = *in->p++;
	struct ref *r;

	if (op == OP_LITERAL) {
		uint64_t size = get_varint(in);

		if (in->bad || size < sizeof(h) || size > 65535 || size > room ||
		    size > (size_t)(in->end - in->p))
			return -EBADMSG;
		memcpy(out, in->p, size);
		memcpy(&h, out, sizeof(h));
		c->ts = h.ts;
		in->p += size;
		*used = size;
		return 0;
	}
	h.type = op >> 4 & 7;
	n = struct_size[h.type];
	if (!(op & OP_PACKED) || !n)
		return -EBADMSG;
	if (op & OP_CPU)
		c->cpu = (uint32_t)get_varint(in);
	h.cpu = c->cpu;
	h.ts = c->ts += unzigzag(get_varint(in));
	if (h.type == DIO_EV_SYSCALL) {
		tid = c->tid += (uint32_t)unzigzag(get_varint(in));
		nr = (uint32_t)get_varint(in);
	}
	off = op >> OP_OFF_SHIFT & 3;
	if (op & OP_TAIL)
		tail = (uint32_t)get_varint(in);
	if (in->bad || tail > 65535 - n || n + tail > room || off > OFF_RET ||
	    (off != OFF_DELTA && h.type != DIO_EV_SYSCALL) || in->end - in->p < 2)
		return -EBADMSG;
	h.size = (uint16_t)(n + tail);
	n = n / 8 - HDR_WORDS;
	mask = in->p[0] | in->p[1] << 8;
	in->p += 2;
	if (mask >> n)
		return -EBADMSG;
	r = ref_of(c, h.type, tid, nr);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t ref = r->w[i];

		if (h.type == DIO_EV_SYSCALL && i == W_OFF - HDR_WORDS) {
			if (off != OFF_DELTA)
				continue;	/* from the other words, below */
			ref = seq_offset(r);
		}
		w[HDR_WORDS + i] = mask & 1u << i ? ref + unzigzag(get_varint(in)) : ref;
	}
	if (off == OFF_ARG3)
		w[W_OFF] = w[W_ARG3];
	else if (off == OFF_RET)
		w[W_OFF] = w[W_RET];
	if (in->bad || tail > (size_t)(in->end - in->p))
		return -EBADMSG;
	memcpy(r->w, w + HDR_WORDS, n * 8);
	memcpy(w, &h, sizeof(h));
	memcpy(out, w, (HDR_WORDS + n) * 8);
	memcpy(out + (HDR_WORDS + n) * 8, in->p, tail);
	in->p += tail;
	*used = h.size;
	return 0;
}

int unpack_records(struct pack_ctx *c, const uint8_t *in, size_t len, uint8_t *out, size_t cap,
		   size_t *out_len)
{
	struct in s = { .p = in, .end = in + len };
	size_t pos = 0, used;

	reset(c);
	while (s.p < s.end) {
		if (unpack_one(c, &s, out + pos, cap - pos, &used))
			return -EBADMSG;
		pos += used;
	}
	*out_len = pos;
	return 0;
}
