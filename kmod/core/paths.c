// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - penalised path ids and the spraying walk around them (paths.h).
 */
#include "paths.h"

static bool bad_bit(const struct eqds_paths *p, u8 path)
{
	return p->bad[path / 32] & (1u << (path % 32));
}

/* Is path's penalty over? Release laps are never more than 2^MAX_STRIKES ahead. */
static bool over(const struct eqds_paths *p, u8 path)
{
	return (s32)(p->lap - p->release[path]) >= 0;
}

static void release(struct eqds_paths *p, u8 path)
{
	p->bad[path / 32] &= ~(1u << (path % 32));
	p->nbad--;
	if (p->strikes[path] & EQDS_PATHS_LOST) {
		p->strikes[path] &= ~EQDS_PATHS_LOST;
		p->nlost--;
	}
}

void eqds_paths_init(struct eqds_paths *p, u8 first, bool on)
{
	memset(p, 0, sizeof(*p));
	p->next = first;
	p->on = on;
}

bool eqds_paths_is_bad(const struct eqds_paths *p, u8 path)
{
	return bad_bit(p, path) && !over(p, path);
}

u8 eqds_paths_next_clear(const u32 *avoid, u8 *next)
{
	u8 id = *next;
	u32 i;

	for (i = 0; i < EQDS_PATHS; i++, id++)
		if (!(avoid[id / 32] & (1u << (id % 32))))
			break;
	if (i == EQDS_PATHS)
		id = *next;
	*next = (u8)(id + 1);
	return id;
}

/* The walk moves on from path: a lap ends each time it passes 255. */
static u8 step(struct eqds_paths *p, u8 path)
{
	if (++path == 0)
		p->lap++;
	return path;
}

u8 eqds_paths_next(struct eqds_paths *p)
{
	u8 path = p->next;

	/* At most EQDS_PATHS_MAX_BAD ids are bad: the walk ends within a lap. */
	while (p->nbad && bad_bit(p, path)) {
		if (over(p, path)) {
			release(p, path);
			break;
		}
		path = step(p, path);
	}
	if (path != p->next)
		p->stats.repaths++;
	p->next = step(p, path);
	return path;
}

/* Release every id whose penalty is over: the walk has not reached them yet. */
static void release_over(struct eqds_paths *p)
{
	u32 i;

	for (i = 0; i < EQDS_PATHS; i++)
		if (bad_bit(p, (u8)i) && over(p, (u8)i))
			release(p, (u8)i);
}

void eqds_paths_penalise(struct eqds_paths *p, u8 path, bool lost)
{
	u8 strikes = p->strikes[path];	/* not bad: no EQDS_PATHS_LOST */
	u32 since;

	/*
	 * Penalised still, or over without the walk having sent on it since:
	 * this is news of a packet sent before the penalty began.
	 */
	if (!p->on || bad_bit(p, path))
		return;
	if (p->nbad >= EQDS_PATHS_MAX_BAD) {
		release_over(p);
		if (p->nbad >= EQDS_PATHS_MAX_BAD) {
			p->stats.ignored++;
			return;
		}
	}
	/*
	 * Penalised again within twice its last penalty after it ended: the
	 * path is still bad (a failed link, a link slower than its share):
	 * twice as long. Later, or with half the ids penalised (marks or
	 * losses then fall everywhere, the receiver's own link or the whole
	 * fabric, and doubling would only keep the tunnel on fewer ids for
	 * longer): a first penalty again. For a loss, only ids penalised for
	 * losses count: marks all over a busy fabric say nothing of a failed
	 * link.
	 */
	since = p->lap - p->release[path];
	if (since >= (1u << strikes) ||
	    (lost ? p->nlost : p->nbad) >= EQDS_PATHS / 2)
		strikes = 0;
	if (strikes < EQDS_PATHS_MAX_STRIKES)
		strikes++;
	if (lost && strikes < EQDS_PATHS_LOSS_STRIKES)
		strikes = EQDS_PATHS_LOSS_STRIKES;
	/* Its next turn is in this lap or the next: it misses 2^(strikes-1). */
	p->release[path] = p->lap + (1u << (strikes - 1)) + (path < p->next ? 1 : 0);
	p->bad[path / 32] |= 1u << (path % 32);
	p->nbad++;
	if (lost) {
		strikes |= EQDS_PATHS_LOST;
		p->nlost++;
	}
	p->strikes[path] = strikes;
	p->stats.penalties++;
}
