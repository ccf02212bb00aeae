/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File tag -> path table, filled from DIO_EV_PATH records. The kernel sends a
 * path once per tag (again after a rename), so the host must keep every path
 * it was sent for the whole session.
 */
#ifndef DIO_ENGINE_TAGTAB_H
#define DIO_ENGINE_TAGTAB_H

#include <stddef.h>
#include <dio/event.h>

struct tagtab;

/* NULL and errno set on failure. */
struct tagtab *tagtab__new(void);
void tagtab__free(struct tagtab *t);
/* Set the path of a tag; the string (len bytes, need not be NUL-terminated) is copied. 0 or -ENOMEM. */
int tagtab__set(struct tagtab *t, const struct dio_file_tag *tag, const char *path, size_t len);
/* The path, or NULL. The pointer stays valid until the table is freed, even after a later set. */
const char *tagtab__lookup(const struct tagtab *t, const struct dio_file_tag *tag);
size_t tagtab__count(const struct tagtab *t);

#endif
