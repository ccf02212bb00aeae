/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decoding the host offers modules: the functions behind struct
 * dio_host's syscall_info, decode_arg and name_of (dio/plugin.h says what
 * each returns). They read only dio's tables, never the session, so the
 * fake hosts of the unit tests offer the very same functions.
 */
#ifndef DIO_ENGINE_DECODE_H
#define DIO_ENGINE_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <dio/plugin.h>

int decode__syscall_info(struct dio_ctx *ctx, uint32_t nr, struct dio_syscall_info *out,
			size_t size);
int decode__arg(struct dio_ctx *ctx, const struct dio_ev_syscall *ev, unsigned int i, char *buf,
	       size_t len);
const char *decode__name_of(struct dio_ctx *ctx, uint32_t what, uint64_t value);

#endif
