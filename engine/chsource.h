/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A session the clickhouse sink stored, read back as records in the order dio
 * saw them (dio analyze --from clickhouse:url=URL,session=ID).
 */
#ifndef DIO_CHSOURCE_H
#define DIO_CHSOURCE_H

#include <stddef.h>
#include <stdint.h>

struct chsource;

/* spec: "clickhouse:url=...,session=...[,database=,table_prefix=,user=]"; NULL with err set */
struct chsource *chsource__open(const char *spec, char *err, size_t errlen);
/* 1 and the next record (valid until the next call), 0 at the end, -EINVAL if a row is malformed */
int chsource__next(struct chsource *s, const void **rec, size_t *size);
/* what the session's row says: "hostname", "boot_id", "command", "session_id" */
const char *chsource__info(const struct chsource *s, const char *key);
int64_t chsource__realtime_off(const struct chsource *s);
void chsource__close(struct chsource *s);

#endif /* DIO_CHSOURCE_H */
