/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The packed encoding of a records block (docs/trace-format.md, version 2):
 * each record as the differences from the last record of its kind (a system
 * call from the last call of its thread with the same number), in varints, so
 * that the compressor sees a few bytes per call instead of 144. Lossless for
 * any bytes: a record the encoding does not know goes through literally.
 */
#ifndef DIO_PACK_H
#define DIO_PACK_H

#include <stddef.h>
#include <stdint.h>

struct pack_ctx;

struct pack_ctx *pack_ctx__new(void);
void pack_ctx__free(struct pack_ctx *c);

/* The most bytes pack_records may write for len bytes of records. */
size_t pack_bound(size_t len);

/*
 * Pack the records in in[0, len) (back to back, each hdr.size bytes, a size
 * that covers at least the header and ends inside len) into out, which holds
 * pack_bound(len) bytes. Returns the packed length. Each call starts afresh:
 * a block unpacks without the blocks before it.
 */
size_t pack_records(struct pack_ctx *c, const uint8_t *in, size_t len, uint8_t *out);

/*
 * Unpack in[0, len) into at most cap bytes of records at out. 0 and the
 * length in *out_len, or -EBADMSG when the input is not a packed block this
 * code wrote (it never reads or writes outside the given buffers).
 */
int unpack_records(struct pack_ctx *c, const uint8_t *in, size_t len, uint8_t *out, size_t cap,
		   size_t *out_len);

#endif
