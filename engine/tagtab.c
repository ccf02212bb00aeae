// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tagtab.h"

/*
 * Open addressing with linear probing, at most max paths. Past that the
 * clock hand goes round the slots and forgets the first path not used since
 * it last passed (a slot's ref is set by every set, touch and lookup):
 * nearly the least recently used, as the kernel's own table of the tags it
 * sent (an LRU hash of --tag-table entries) forgets, so that a tag the
 * kernel would not send again is one the host still knows. A removed slot
 * is filled by shifting the ones after it back, so no lookup needs a
 * tombstone.
 */
struct slot {
	struct dio_file_tag tag;
	char *path;		/* NULL: empty slot */
	uint32_t len;		/* of path, without the NUL the table adds */
	uint8_t ref;		/* used since the hand last passed */
};

struct tagtab {
	struct slot *slots;
	size_t cap;		/* power of two */
	size_t count, max;
	size_t hand;		/* the clock's next slot */
	uint64_t evicted;	/* paths forgotten to stay within max */
	struct dio_file_tag last;	/* the last tag touched: most records repeat it */
};

static uint64_t tag_hash(const struct dio_file_tag *t)
{
	uint64_t h = t->ino * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)t->dev << 32 | t->gen) * 0xc2b2ae3d27d4eb4fULL;
	return h ^ (h >> 29);
}

struct tagtab *tagtab__new(size_t max)
{
	struct tagtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 1024;
	t->max = max ? max : SIZE_MAX / 2;
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
	free(t->slots);
	free(t);
}

static struct slot *find(const struct tagtab *t, const struct dio_file_tag *tag)
{
	size_t i = tag_hash(tag) & (t->cap - 1);

	while (t->slots[i].path && !dio_file_tag_eq(&t->slots[i].tag, tag))
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

/* empty slot i, moving back the slots after it that probing would no longer reach */
static void remove_at(struct tagtab *t, size_t i)
{
	size_t mask = t->cap - 1;

	free(t->slots[i].path);
	t->slots[i].path = NULL;
	t->count--;
	for (size_t j = (i + 1) & mask; t->slots[j].path; j = (j + 1) & mask) {
		size_t home = tag_hash(&t->slots[j].tag) & mask;

		/* j stays where it is when its home lies cyclically in (i, j] */
		if ((j > i && home > i && home <= j) || (j < i && (home > i || home <= j)))
			continue;
		t->slots[i] = t->slots[j];
		t->slots[j].path = NULL;
		i = j;
	}
}

/* forget the first path the hand finds not used since it last passed */
static void evict_one(struct tagtab *t)
{
	for (;;) {
		struct slot *s = &t->slots[t->hand];

		if (s->path && !s->ref) {
			remove_at(t, t->hand);
			t->evicted++;
			/* a slot shifted back into the hand's place is looked at next */
			return;
		}
		s->ref = 0;
		t->hand = (t->hand + 1) & (t->cap - 1);
	}
}

int tagtab__set(struct tagtab *t, const struct dio_file_tag *tag, const char *path, size_t len)
{
	struct slot *s;
	char *copy;

	if ((t->count + 1) * 4 > t->cap * 3 && t->count < t->max && grow(t))
		return -ENOMEM;
	if (len > UINT32_MAX)
		return -EINVAL;
	s = find(t, tag);
	/* sent again after the kernel forgot the tag: the same string stays */
	if (s->path && s->len == len && !memcmp(s->path, path, len)) {
		s->ref = 1;
		return 0;
	}
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, path, len);
	copy[len] = 0;
	if (s->path) {
		/* renamed: the old string goes, as modules were told (dio/plugin.h) */
		free(s->path);
	} else {
		if (t->count >= t->max) {
			evict_one(t);
			s = find(t, tag);
		}
		t->count++;
		s->tag = *tag;
	}
	s->path = copy;
	s->len = (uint32_t)len;
	s->ref = 1;
	return 0;
}

void tagtab__touch(struct tagtab *t, const struct dio_file_tag *tag)
{
	struct slot *s;

	if (dio_file_tag_eq(tag, &t->last))
		return;
	t->last = *tag;
	s = find(t, tag);
	if (s->path)
		s->ref = 1;
}

const char *tagtab__lookup(struct tagtab *t, const struct dio_file_tag *tag)
{
	struct slot *s = find(t, tag);

	if (!s->path)
		return NULL;
	s->ref = 1;
	return s->path;
}

size_t tagtab__count(const struct tagtab *t)
{
	return t->count;
}

uint64_t tagtab__evicted(const struct tagtab *t)
{
	return t->evicted;
}

int tagtab__each(const struct tagtab *t,
		 int (*cb)(void *ud, const struct dio_file_tag *tag, const char *val, size_t len),
		 void *ud)
{
	int e = 0;

	for (size_t i = 0; !e && i < t->cap; i++)
		if (t->slots[i].path)
			e = cb(ud, &t->slots[i].tag, t->slots[i].path, t->slots[i].len);
	return e;
}

int tagtab__set_path(struct tagtab *t, const struct dio_ev_path *p)
{
	const char *path = dio_ev_path_str(p);
	size_t len = strlen(path);
	char name[128];

	if (p->flags & DIO_PF_TRUNC) {
		char *cut = malloc(len + 7);
		int e;

		if (!cut)
			return -ENOMEM;
		int head = !!(p->flags & DIO_PF_TRUNC_HEAD);
		int tail = (p->flags & DIO_PF_TRUNC_TAIL) || !head;

		len = (size_t)sprintf(cut, "%s%.*s%s", head ? "..." : "", (int)len, path,
				      tail ? "..." : "");
		e = tagtab__set(t, &p->tag, cut, len);
		free(cut);
		return e;
	}
	if (p->ftype == DIO_FT_FIFO && !strcmp(path, "/"))
		len = snprintf(name, sizeof(name), "pipe:[%llu]", (unsigned long long)p->tag.ino);
	else if (p->ftype == DIO_FT_SOCK)	/* always on sockfs, named by its type only */
		len = snprintf(name, sizeof(name), "socket:[%llu]", (unsigned long long)p->tag.ino);
	else if (p->ftype == DIO_FT_ANON && path[0] == '/' && !strchr(path + 1, '/'))
		len = snprintf(name, sizeof(name), "anon_inode:%s", path + 1);
	else
		return tagtab__set(t, &p->tag, path, len);
	return tagtab__set(t, &p->tag, name, len);
}
