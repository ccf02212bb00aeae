/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fixed number of evidence excerpts lent to the candidates of an analyzer
 * that look most like findings. A candidate (a file, a process, a group of
 * failing calls) asks for one with a score (how many instances of its pattern
 * it has seen); when all are lent, the one with the lowest score changes hands
 * if the asker scores higher, and its old owner is told through release().
 * So an analyzer can keep evidence for thousands of candidates with the
 * memory of a few hundred excerpts, and the ones that become findings keep
 * theirs. The excerpts are blocks of a struct pool. Ids are 1..n; 0 means "none".
 */
#ifndef DIO_ANALYZER_EXPOOL_H
#define DIO_ANALYZER_EXPOOL_H

#include <stddef.h>
#include <stdint.h>
#include "analyzers/common/calls.h"
#include "analyzers/common/pool.h"

#define EXPOOL_OWNER_MAX 32	/* bytes of an owner's key */

struct expool_slot {
	struct excerpt x;
	uint64_t score;
	uint32_t used;
	uint32_t pad;
	uint8_t owner[EXPOOL_OWNER_MAX];
};

struct expool {
	struct pool blocks;	/* of struct expool_slot; none when n is 0 */
	size_t owner_size;
	/* the slot of owner was given to another; owner must forget its id */
	void (*release)(const void *owner, void *ud);
	void *ud;
};

/* n excerpts (0 is allowed: every take fails), owners of owner_size bytes. 0 or -errno. */
int expool_init(struct expool *p, uint32_t n, size_t owner_size);
void expool_free(struct expool *p);
/* Bytes held (all allocated by expool_init). */
size_t expool_bytes(const struct expool *p);
/*
 * An id for owner (its key is copied), with an empty excerpt; 0 when every
 * slot is lent to an owner scoring as high or higher. Does not call release
 * for owner itself: an owner that asks holds no id.
 */
uint32_t expool_take(struct expool *p, const void *owner, uint64_t score);
/* Raise or lower the score of the id's owner. */
void expool_score(struct expool *p, uint32_t id, uint64_t score);
/* The excerpt of a lent id, NULL for 0 or an id not lent. */
struct excerpt *expool_excerpt(struct expool *p, uint32_t id);
/*
 * Hand a lent id, excerpt and all, to another owner with its own score: the
 * old owner forgets the id (release is not called), the new one is released
 * if the slot changes hands later. id 0 is ignored.
 */
void expool_reown(struct expool *p, uint32_t id, const void *owner, uint64_t score);
/* Give the id back (release is not called). id 0 is ignored. */
void expool_put(struct expool *p, uint32_t id);

/* Ask for a slot only when score is a power of two: O(log n) scans of the pool per owner. */
static inline int expool_worth_asking(uint64_t score)
{
	return score && !(score & (score - 1));
}

#endif
