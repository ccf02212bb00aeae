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
	uint64_t returned;	/* keys put anew after they had been evicted: what an entry
				 * had seen was lost, and a pattern across its visits may
				 * be missed (a few may be counted that never left, about
				 * 2 in 100 of the fresh keys at most) */
	uint64_t fresh;		/* keys put anew once the table had evicted */
	uint64_t *gone[2];	/* Bloom filters of the evicted keys (two bits a key): the
				 * newer takes them until full, then the older is cleared
				 * and the two change places */
	size_t gone_bits, gone_n;	/* the size of each, a power of two; keys in the newer */
	uint8_t *slots;
	/* called with an entry about to be evicted (not on del or free) */
	void (*evict)(void *key, void *val, void *ud);
	void *ud;
};

/*
 * A table whose keys came back after eviction reports it: an analyzer names
 * the table's option, as NAME.table-full, once this many came back and they
 * are at least 1/TABLE_RETURNED_SHARE of the keys put anew since evictions
 * began (so that the filter's false returns, under 2 in 100, never pass).
 */
#define TABLE_RETURNED_MIN	64
#define TABLE_RETURNED_SHARE	10

/* What a table lost for tables_report (calls.h): its returned keys, if they count. */
#define TABLE_LOST(t) \
	((t)->returned >= TABLE_RETURNED_MIN && \
	 (t)->returned * TABLE_RETURNED_SHARE >= (t)->fresh ? (t)->returned : 0)

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
