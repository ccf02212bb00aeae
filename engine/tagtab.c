// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tagtab.h"

/*
 * Open addressing with linear probing. Paths are never freed before the table:
 * plugins hold the pointers tag_path returned, and a rename must not pull a
 * string out from under them. Old strings are kept on a list.
 */
struct slot {
	struct dio_file_tag tag;
	char *path;		/* NULL: empty slot */
};

struct oldpath {
	struct oldpath *next;
	char *path;
};

struct tagtab {
	struct slot *slots;
	size_t cap;		/* power of two */
	size_t count;
	struct oldpath *old;
};

static uint64_t tag_hash(const struct dio_file_tag *t)
{
	uint64_t h = t->ino * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)t->dev << 32 | t->gen) * 0xc2b2ae3d27d4eb4fULL;
	return h ^ (h >> 29);
}

static int tag_eq(const struct dio_file_tag *a, const struct dio_file_tag *b)
{
	return a->ino == b->ino && a->dev == b->dev && a->gen == b->gen;
}

struct tagtab *tagtab__new(void)
{
	struct tagtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 1024;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void tagtab__free(struct tagtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].path);
	while (t->old) {
		struct oldpath *o = t->old;

		t->old = o->next;
		free(o->path);
		free(o);
	}
	free(t->slots);
	free(t);
}

static struct slot *find(const struct tagtab *t, const struct dio_file_tag *tag)
{
	size_t i = tag_hash(tag) & (t->cap - 1);

	while (t->slots[i].path && !tag_eq(&t->slots[i].tag, tag))
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static int grow(struct tagtab *t)
{
	struct slot *old = t->slots;
	size_t oldcap = t->cap;

	t->slots = calloc(oldcap * 2, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return -ENOMEM;
	}
	t->cap = oldcap * 2;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].path)
			*find(t, &old[i].tag) = old[i];
	free(old);
	return 0;
}

int tagtab__set(struct tagtab *t, const struct dio_file_tag *tag, const char *path, size_t len)
{
	struct slot *s;
	char *copy;

	if ((t->count + 1) * 4 > t->cap * 3 && grow(t))
		return -ENOMEM;
	copy = strndup(path, len);
	if (!copy)
		return -ENOMEM;
	s = find(t, tag);
	if (s->path) {
		struct oldpath *o;

		if (!strcmp(s->path, copy)) {
			free(copy);
			return 0;
		}
		o = malloc(sizeof(*o));
		if (!o) {
			free(copy);
			return -ENOMEM;
		}
		o->path = s->path;
		o->next = t->old;
		t->old = o;
	} else {
		t->count++;
		s->tag = *tag;
	}
	s->path = copy;
	return 0;
}

const char *tagtab__lookup(const struct tagtab *t, const struct dio_file_tag *tag)
{
	return find(t, tag)->path;
}

size_t tagtab__count(const struct tagtab *t)
{
	return t->count;
}
