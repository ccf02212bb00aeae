/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one check of a record that comes from outside the host: the ring
 * buffer, a trace file, or a module that asks the host to format one. A
 * record that passes keeps every promise include/dio/event.h makes of the
 * records the host hands to modules; nothing after the check looks at sizes
 * or string ends again.
 */
#ifndef DIO_ENGINE_RECORD_H
#define DIO_ENGINE_RECORD_H

#include <stddef.h>

/* record_check() flags */
#define RECORD_HOST_MADE 0x1	/* also the types only the host makes (DIO_EV_OFD) */

/*
 * Whether the avail bytes at rec hold one whole record as event.h describes
 * it: a known type; a size that covers its header, its type's struct and no
 * more than avail; the strings, path and content a record of that type
 * carries, inside it and NUL-terminated, of at most DIO_PATH_MAX bytes; and
 * the fields that name one of a set (file type, process event, how a
 * description ended) naming one of it. 0, or -EINVAL with *why (when why is
 * not NULL) set to a static text saying what is wrong.
 */
int record_check(const void *rec, size_t avail, unsigned int flags, const char **why);

/*
 * When the kernel made a record (CLOCK_MONOTONIC ns, as the programs read
 * it): a call's or request's end (its start plus its duration), a wait's
 * end, else its time. The order the rings' records are handed on in
 * (engine/ringrd.c); 0 for a record too short to say.
 */
uint64_t record__made_at(const void *rec, size_t size);

#endif
