/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File tag -> path table, filled from DIO_EV_PATH records. The kernel sends a
 * path once per tag (again after a rename, and again once its own table of
 * the tags it sent, --tag-table entries, forgot the tag), so the host keeps
 * the paths of at least as many tags; past its bound it forgets the path
 * used least recently, and counts it.
 */
#ifndef DIO_ENGINE_TAGTAB_H
#define DIO_ENGINE_TAGTAB_H

#include <stddef.h>
#include <stdint.h>
#include <dio/event.h>

struct tagtab;

/* At most max paths (0: no bound). NULL and errno set on failure. */
struct tagtab *tagtab__new(size_t max);
void tagtab__free(struct tagtab *t);
/*
 * Set the path of a tag: len bytes are copied and a NUL added (a string
 * that need not end within len, or any bytes: dio record keeps whole path
 * records). A full table forgets a path first. 0, -ENOMEM or -EINVAL (len
 * past 4 GiB).
 */
int tagtab__set(struct tagtab *t, const struct dio_file_tag *tag, const char *path, size_t len);
/*
 * Set a tag's path from its path record, named as dio shows it: pipes,
 * sockets and anon inodes live on internal mounts whose dentry walk ends at
 * "/", so they are named the way /proc/PID/fd does; a path that was cut is
 * kept with "..." where its missing part was ("/a/b..." too long, ".../y/z"
 * too deep), so that no one takes it for the whole path. 0 or -ENOMEM.
 */
int tagtab__set_path(struct tagtab *t, const struct dio_ev_path *p);
/* The tag's file was used: its path is among the last forgotten. */
void tagtab__touch(struct tagtab *t, const struct dio_file_tag *tag);
/*
 * The path, or NULL. The pointer stays valid until the next tagtab__set
 * (which may forget it, or replace it when the file was renamed) or free.
 */
const char *tagtab__lookup(struct tagtab *t, const struct dio_file_tag *tag);
size_t tagtab__count(const struct tagtab *t);
/* Paths forgotten to stay within max. */
uint64_t tagtab__evicted(const struct tagtab *t);
/*
 * cb for each tag and its bytes (len of them, and a NUL), in no order, until
 * it returns non-zero: that value, else 0. cb must not change the table.
 */
int tagtab__each(const struct tagtab *t,
		 int (*cb)(void *ud, const struct dio_file_tag *tag, const char *val, size_t len),
		 void *ud);

#endif
