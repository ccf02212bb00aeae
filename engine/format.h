/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strace-like text for records: used by the console sink through dio_host.format_event. */
#ifndef DIO_ENGINE_FORMAT_H
#define DIO_ENGINE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <dio/event.h>

struct fmt_ctx {
	uint32_t flags;		/* DIO_FMT_* from dio/plugin.h */
	int64_t realtime_off;	/* add to an event's monotonic ns to get ns since the epoch */
	/* path of a file tag, NULL when unknown */
	const char *(*path_of)(void *ud, const struct dio_file_tag *tag);
	void *ud;
};

/*
 * Render one record (any DIO_EV_* type) as one line without a newline.
 * snprintf semantics: returns the length the full line needs (the text is cut
 * to fit len, NUL-terminated). The record must have passed record_check()
 * (engine/record.h): nothing here checks sizes or string ends.
 */
int format__event(const struct fmt_ctx *fc, const struct dio_ev_hdr *ev, char *buf, size_t len);

/* "reg", "dir", "sock", "fifo", "chr", "blk", "lnk", "anon"; NULL for DIO_FT_NONE and others */
const char *format_ftype_name(unsigned int ftype);
/* The same with "-" for DIO_FT_NONE and others. Static strings. */
const char *format_ftype(unsigned int ftype);

/*
 * The xlat_* function that names a flag word or mode argument of kind (enum
 * sc_arg), NULL for kinds printed as numbers, fds or strings.
 */
int (*format_arg_xlat(unsigned int kind))(uint64_t, char *, size_t);

#endif
