// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Open addressing with linear probing and backward-shift deletion: no
 * tombstones, so a long trace that inserts and deletes forever never
 * degrades the table. Each slot is [u64 stamp][key][value], stamp 0 = free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analyzers/common/table.h"

#define EVICT_SAMPLE	16	/* entries looked at to choose the one to evict */

uint64_t table_hash(const void *key, size_t len)
{
	const uint8_t *p = key;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static uint8_t *slot(const struct table *t, size_t i)
{
	return t->slots + (i & t->mask) * t->slot_size;
}

static uint64_t stamp(const uint8_t *s)
{
	uint64_t v;

	memcpy(&v, s, sizeof(v));
	return v;
}

static void set_stamp(uint8_t *s, uint64_t v)
{
	memcpy(s, &v, sizeof(v));
}

int table_init(struct table *t, size_t key_size, size_t val_size, size_t max)
{
	size_t slots = 2;

	memset(t, 0, sizeof(*t));
	if (!key_size || !max || max > ((size_t)1 << 40))
		return -EINVAL;
	while (slots < 2 * max)
		slots <<= 1;
	t->key_size = key_size;
	t->val_size = val_size;
	/* values start 8-byte aligned */
	t->slot_size = 8 + ((key_size + 7) & ~(size_t)7) + ((val_size + 7) & ~(size_t)7);
	t->mask = slots - 1;
	t->max = max;
	t->slots = calloc(slots, t->slot_size);
	return t->slots ? 0 : -ENOMEM;
}

void table_free(struct table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->n = 0;
}

size_t table_bytes(const struct table *t)
{
	return t->slots ? (t->mask + 1) * t->slot_size : 0;
}

static void *val_of(const struct table *t, uint8_t *s)
{
	return s + 8 + ((t->key_size + 7) & ~(size_t)7);
}

/* index of key's slot, or of the free slot where it would go */
static size_t find(const struct table *t, const void *key, int *found)
{
	size_t i = table_hash(key, t->key_size);

	for (;; i++) {
		uint8_t *s = slot(t, i);

		if (!stamp(s)) {
			*found = 0;
			return i & t->mask;
		}
		if (!memcmp(s + 8, key, t->key_size)) {
			*found = 1;
			return i & t->mask;
		}
	}
}

void *table_get(struct table *t, const void *key)
{
	int found;
	size_t i;

	if (!t->n)
		return NULL;
	i = find(t, key, &found);
	if (!found)
		return NULL;
	set_stamp(slot(t, i), ++t->clock);
	return val_of(t, slot(t, i));
}

/* remove the entry in slot i, shifting the entries after it back */
static void remove_at(struct table *t, size_t i)
{
	size_t j = i;

	for (;;) {
		uint8_t *s;
		size_t home;

		j = (j + 1) & t->mask;
		s = slot(t, j);
		if (!stamp(s))
			break;
		home = table_hash(s + 8, t->key_size) & t->mask;
		/* s may move to i if i lies cyclically in [home, j) */
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			memcpy(slot(t, i), s, t->slot_size);
			i = j;
		}
	}
	memset(slot(t, i), 0, t->slot_size);
	t->n--;
}

static void evict_one(struct table *t)
{
	size_t start = (size_t)(t->clock * 0x9e3779b97f4a7c15ull) & t->mask, best = SIZE_MAX;
	uint64_t oldest = UINT64_MAX;
	int seen = 0;

	for (size_t k = 0; k <= t->mask && seen < EVICT_SAMPLE; k++) {
		size_t i = (start + k) & t->mask;
		uint64_t st = stamp(slot(t, i));

		if (!st)
			continue;
		seen++;
		if (st < oldest) {
			oldest = st;
			best = i;
		}
	}
	if (best == SIZE_MAX)
		return;
	if (t->evict)
		t->evict(slot(t, best) + 8, val_of(t, slot(t, best)), t->ud);
	remove_at(t, best);
	t->evicted++;
}

void *table_put(struct table *t, const void *key, int *created)
{
	int found;
	size_t i = find(t, key, &found);
	uint8_t *s;

	if (!found && t->n >= t->max) {
		evict_one(t);
		i = find(t, key, &found);
	}
	s = slot(t, i);
	if (!found) {
		memset(s, 0, t->slot_size);
		memcpy(s + 8, key, t->key_size);
		t->n++;
	}
	set_stamp(s, ++t->clock);
	if (created)
		*created = !found;
	return val_of(t, s);
}

void table_del(struct table *t, const void *key)
{
	int found;
	size_t i;

	if (!t->n)
		return;
	i = find(t, key, &found);
	if (found)
		remove_at(t, i);
}

void table_each(struct table *t, void (*fn)(void *key, void *val, void *ud), void *ud)
{
	for (size_t i = 0; t->n && i <= t->mask; i++) {
		uint8_t *s = slot(t, i);

		if (stamp(s))
			fn(s + 8, val_of(t, s), ud);
	}
}
