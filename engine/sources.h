/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a replay's records come from: a trace file (built in), or a
 * "SCHEME:..." source a module offers (dio/source.h), such as
 * clickhouse:url=...,session=... .
 */
#ifndef DIO_ENGINE_SOURCES_H
#define DIO_ENGINE_SOURCES_H

#include <stddef.h>

struct source;
struct tf_reader;

/*
 * 1 when spec names a module's source: it begins with a scheme (letters,
 * digits, '_', '-') and ':', and no file has that name; else 0, a trace file.
 */
int sources__is_scheme(const char *spec);

/* Open a trace file for reading; NULL after printing the one-line reason. */
struct tf_reader *sources__open_trace(const char *path);
/* The reader's damage report, as a warning; returns 1 when anything was skipped. */
int sources__damage(const char *path, const struct tf_reader *r);

/*
 * The source spec names, through the module that offers its scheme (loaded
 * as every module is: plugin.c). NULL with a one-line reason in err: no
 * such module (naming it), a module that offers no source or another
 * scheme, or what the module found wrong with the spec.
 */
struct source *source__open(const char *spec, char *err, size_t errlen);
/* As dio_source.next: 1 and a record valid until the next call, 0 at the end, -errno. */
int source__next(struct source *s, const void **rec, size_t *size);
/* Why source__next failed, one line. */
const char *source__error(const struct source *s);
/*
 * What the session says of its run (dio_source.info's keys), NULL when it
 * does not say; "trace" is never NULL (the spec, without a password, when
 * the module names none). Valid until source__close.
 */
const char *source__info(const struct source *s, const char *key);
/* A key of the recording's metadata into buf; 0, or -ENOENT with buf empty. */
int source__meta(const struct source *s, const char *key, char *buf, size_t len);
/* Close the source and unload its module. NULL-safe. */
void source__close(struct source *s);

#endif
