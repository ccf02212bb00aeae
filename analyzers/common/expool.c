// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>
#include "analyzers/common/expool.h"

int expool_init(struct expool *p, uint32_t n, size_t owner_size)
{
	memset(p, 0, sizeof(*p));
	if (owner_size > EXPOOL_OWNER_MAX || !owner_size)
		return -EINVAL;
	p->owner_size = owner_size;
	return n ? pool_init(&p->blocks, sizeof(struct expool_slot), n) : 0;
}

void expool_free(struct expool *p)
{
	pool_free(&p->blocks);
}

size_t expool_bytes(const struct expool *p)
{
	return pool_bytes(&p->blocks);
}

/* the slot of id, NULL when id is not lent */
static struct expool_slot *slot_of(const struct expool *p, uint32_t id)
{
	struct expool_slot *s;

	if (!id || id > p->blocks.n || !p->blocks.blocks)
		return NULL;
	s = pool_at(&p->blocks, (int32_t)(id - 1));
	return s->used ? s : NULL;
}

static uint32_t lend(struct expool *p, int32_t i, const void *owner, uint64_t score)
{
	struct expool_slot *s = pool_at(&p->blocks, i);

	s->used = 1;
	s->score = score;
	memset(s->owner, 0, sizeof(s->owner));
	memcpy(s->owner, owner, p->owner_size);
	excerpt_reset(&s->x);
	return (uint32_t)i + 1;
}

uint32_t expool_take(struct expool *p, const void *owner, uint64_t score)
{
	struct expool_slot *low = NULL;
	int32_t i, at = POOL_NONE;

	if (!p->blocks.blocks)
		return 0;
	i = pool_get(&p->blocks);
	if (i != POOL_NONE)
		return lend(p, i, owner, score);
	/* all lent: the lowest score, the first of equals, so the same stream picks the same */
	for (i = 0; i < (int32_t)p->blocks.n; i++) {
		struct expool_slot *s = pool_at(&p->blocks, i);

		if (!low || s->score < low->score) {
			low = s;
			at = i;
		}
	}
	if (!low || low->score >= score)
		return 0;
	if (p->release)
		p->release(low->owner, p->ud);
	return lend(p, at, owner, score);
}

void expool_score(struct expool *p, uint32_t id, uint64_t score)
{
	struct expool_slot *s = slot_of(p, id);

	if (s)
		s->score = score;
}

struct excerpt *expool_excerpt(struct expool *p, uint32_t id)
{
	struct expool_slot *s = slot_of(p, id);

	return s ? &s->x : NULL;
}

void expool_reown(struct expool *p, uint32_t id, const void *owner, uint64_t score)
{
	struct expool_slot *s = slot_of(p, id);

	if (!s)
		return;
	memset(s->owner, 0, sizeof(s->owner));
	memcpy(s->owner, owner, p->owner_size);
	s->score = score;
}

void expool_put(struct expool *p, uint32_t id)
{
	struct expool_slot *s = slot_of(p, id);

	if (!s)
		return;
	s->used = 0;
	pool_put(&p->blocks, (int32_t)(id - 1));
}
