/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Decoding of flag words and constants into names, strace-style. */
#ifndef DIO_ENGINE_XLAT_H
#define DIO_ENGINE_XLAT_H

#include <stddef.h>
#include <stdint.h>

struct xlat {
	uint64_t val;
	const char *name;
};

/*
 * Write the names of the bits of v found in tab (tab order: multi-bit
 * entries before the single bits they contain), joined by '|', leftover bits
 * as |0x..., "0" when v is 0 and tab has no 0 entry. snprintf semantics:
 * returns the length the full text needs; buf is always NUL-terminated when len > 0.
 */
int xlat_flags(const struct xlat *tab, size_t n, uint64_t v, char *buf, size_t len);
/* The name of the value v, or v in decimal/hex (hex when hex != 0) when unknown. */
int xlat_value(const struct xlat *tab, size_t n, uint64_t v, int hex, char *buf, size_t len);
/* open(2) flags: access mode as a value, then the other bits. */
int xlat_open_flags(uint64_t v, char *buf, size_t len);
/* errno name ("ENOENT"), NULL when unknown. */
const char *xlat_errno(int err);

#endif
