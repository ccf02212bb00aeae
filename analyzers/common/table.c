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
	/*
	 * 32 bits a slot each: a filter takes 1/20 of its bits in keys, 3.2 times
	 * max, so that a round-robin over 3 to 6 times the table's size is seen.
	 */
	t->gone_bits = slots * 32;
	t->slots = calloc(slots, t->slot_size);
	t->gone[0] = calloc(t->gone_bits / 64, sizeof(uint64_t));
	t->gone[1] = calloc(t->gone_bits / 64, sizeof(uint64_t));
	if (!t->slots || !t->gone[0] || !t->gone[1]) {
		table_free(t);
		return -ENOMEM;
	}
	return 0;
}

void table_free(struct table *t)
{
	free(t->slots);
	free(t->gone[0]);
	free(t->gone[1]);
	t->slots = NULL;
	t->gone[0] = t->gone[1] = NULL;
	t->n = 0;
}

size_t table_bytes(const struct table *t)
{
	return t->slots ? (t->mask + 1) * t->slot_size + 2 * (t->gone_bits / 8) : 0;
}

/* the two bits of a filter that stand for a key of hash h */
static void gone_bits(const struct table *t, uint64_t h, size_t *a, size_t *b)
{
	*a = h & (t->gone_bits - 1);
	*b = (h >> 32 ^ h * 0x9e3779b97f4a7c15ull) & (t->gone_bits - 1);
}

static int in_filter(const uint64_t *f, size_t a, size_t b)
{
	return (f[a / 64] >> (a % 64) & 1) && (f[b / 64] >> (b % 64) & 1);
}

static int gone_has(const struct table *t, uint64_t h)
{
	size_t a, b;

	gone_bits(t, h, &a, &b);
	return in_filter(t->gone[0], a, b) || in_filter(t->gone[1], a, b);
}

static void gone_add(struct table *t, uint64_t h)
{
	size_t a, b;

	/* a tenth of the bits set (two a key) gives 1 % false returns a filter */
	if (t->gone_n >= t->gone_bits / 20) {
		uint64_t *older = t->gone[1];

		memset(older, 0, t->gone_bits / 8);
		t->gone[1] = t->gone[0];
		t->gone[0] = older;
		t->gone_n = 0;
	}
	gone_bits(t, h, &a, &b);
	t->gone[0][a / 64] |= 1ull << (a % 64);
	t->gone[0][b / 64] |= 1ull << (b % 64);
	t->gone_n++;
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
	gone_add(t, table_hash(slot(t, best) + 8, t->key_size));
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
		if (t->evicted) {
			t->fresh++;
			t->returned += gone_has(t, table_hash(key, t->key_size));
		}
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
