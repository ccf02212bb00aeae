/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bounded hash table for analyzer state: fixed-size keys and values in one
 * allocation made at init, so an analyzer's memory is known before the first
 * event whatever the trace holds. When it is full, putting a new key evicts
 * the least recently used of a few entries looked at (approximate LRU, as
 * Redis does it) and counts the eviction; the analyzer may look at what goes
 * through a callback. Linked into each analyzer module (not part of the ABI).
 */
#ifndef DIO_ANALYZER_TABLE_H
#define DIO_ANALYZER_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct table {
	size_t key_size, val_size, slot_size;
	size_t mask;		/* slots - 1; slots is a power of two, at least 2 * max */
	size_t max, n;
	uint64_t clock;		/* ticks on every get and put: recency */
	uint64_t evicted;	/* entries pushed out to make room */
	uint8_t *slots;
	/* called with an entry about to be evicted (not on del or free) */
	void (*evict)(void *key, void *val, void *ud);
	void *ud;
};

/* The hash the table uses (FNV-1a 64, folded), for keys made of longer data. */
uint64_t table_hash(const void *key, size_t len);
/* Room for max entries; key and value sizes in bytes. 0 or -ENOMEM/-EINVAL. */
int table_init(struct table *t, size_t key_size, size_t val_size, size_t max);
void table_free(struct table *t);
/* Bytes the table holds (all of it allocated by table_init). */
size_t table_bytes(const struct table *t);
/* The value of key, or NULL. Marks the entry as recently used. */
void *table_get(struct table *t, const void *key);
/*
 * The value of key, inserted zeroed if absent (*created = 1), evicting an old
 * entry when the table is full. Never NULL once initialised. A pointer from
 * get or put is valid until the next put or del.
 */
void *table_put(struct table *t, const void *key, int *created);
/* Remove key if present. */
void table_del(struct table *t, const void *key);
/* Call fn on every entry, in no particular order; fn must not put or del. */
void table_each(struct table *t, void (*fn)(void *key, void *val, void *ud), void *ud);

#endif
