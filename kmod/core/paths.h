/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paths.h - which path a sending tunnel's next packet takes.
 *
 * A packet's path id is its outer UDP source port's low byte
 * (wire-format.rst), and switches hash it with the addresses to pick among
 * equal-cost links. The sender cannot see which links an id leads to, but
 * it learns which ids fare badly:
 *
 *  - a packet the receiver NACKs or the retransmission timer gives up on
 *    was lost on its id's path (a failed or overflowing link);
 *  - the receiver echoes the id of a data packet that arrived CE-marked
 *    (EQDS_CO_CE): its path crosses a queue above the switch's threshold.
 *
 * Spraying walks the ids in turn, skipping those penalised. Penalties are
 * counted in laps of the walk (one lap: every id had its turn), not in
 * time, so they scale with the tunnel's packet rate: a marked id misses
 * its next turn, a lossy one its next 2^(EQDS_PATHS_LOSS_STRIKES - 1)
 * (a loss costs a retransmission, a mark nothing). An id penalised again
 * within twice its last penalty after that ended misses twice as many, up
 * to 2^(EQDS_PATHS_MAX_STRIKES - 1); later, as for a first penalty. A
 * failed link thus costs the packets sent on each id leading to it until
 * the first loss comes back (a NACK, a reorder wait later), then one per
 * id every longer while; so does a link slower than its share, whose ids
 * keep coming back marked; a queue that was busy only for a while gets
 * its ids back after a lap.
 *
 * News of a packet sent on an id before its penalty began (it was in
 * flight) is ignored while the penalty lasts, and after it until the walk
 * sends on the id again.
 *
 * Marks or losses at the receiver's own link, or everywhere, say nothing
 * about paths: with half the ids penalised, marks no longer double their
 * penalties, nor do losses with half the ids penalised for losses (marks
 * all over a busy fabric do not excuse a failed link); at most
 * EQDS_PATHS_MAX_BAD ids are penalised at once, and penalties beyond that
 * are ignored (counted), so a tunnel always sprays over at least a quarter
 * of the ids.
 *
 * State of one sending tunnel; the glue serialises calls (the tunnel's
 * lock in the module).
 */
#ifndef _EQDS_CORE_PATHS_H
#define _EQDS_CORE_PATHS_H

#include "platform.h"

#define EQDS_PATHS		256	/* path ids: one byte */
#define EQDS_PATHS_MAX_BAD	(EQDS_PATHS * 3 / 4)
#define EQDS_PATHS_MAX_STRIKES	11	/* longest penalty: 1024 laps */
#define EQDS_PATHS_LOSS_STRIKES	4	/* a first loss: 8 laps */
/*
 * In strikes[]: the penalty under way is for a loss (nlost counts them). A
 * flag rather than a second bitmap keeps a sending tunnel within 2 KB.
 */
#define EQDS_PATHS_LOST		0x80

struct eqds_paths_stats {
	u64	penalties;	/* ids penalised */
	u64	repaths;	/* packets sent on another id than their turn's */
	u64	ignored;	/* penalties refused: EQDS_PATHS_MAX_BAD reached */
};

struct eqds_paths {
	u32	bad[EQDS_PATHS / 32];	/* penalised ids */
	u32	release[EQDS_PATHS];	/* the lap its penalty ends (wraps) */
	u8	strikes[EQDS_PATHS];	/* penalties in a row, | EQDS_PATHS_LOST */
	u32	lap;			/* laps of the walk so far (wraps) */
	u16	nbad;
	u16	nlost;
	u8	next;			/* the next id's turn */
	bool	on;			/* penalties taken (path choice) */
	struct eqds_paths_stats	stats;
};

/* Start with every id good, first at first; on: take penalties. */
void eqds_paths_init(struct eqds_paths *p, u8 first, bool on);

/* Path choice on or off from now on (penalties under way stay). */
static inline void eqds_paths_set_on(struct eqds_paths *p, bool on)
{
	p->on = on;
}

/*
 * The path id for the next packet: the next in turn that is not penalised
 * (an id whose penalty is over is good again).
 */
u8 eqds_paths_next(struct eqds_paths *p);

/* A packet sent on path was lost (lost) or marked (see above). */
void eqds_paths_penalise(struct eqds_paths *p, u8 path, bool lost);

/* Is path penalised (its penalty not yet over)? */
bool eqds_paths_is_bad(const struct eqds_paths *p, u8 path);

/*
 * The next id from *next on that is not set in avoid (EQDS_PATHS bits: a
 * copy of a sending tunnel's bad[]), or *next itself if every id is;
 * *next moves past it. The receiving tunnel's control packets take their
 * ids so, avoiding what the data to the same host avoids: the same ids
 * hash onto the same links (with one address per host).
 */
u8 eqds_paths_next_clear(const u32 *avoid, u8 *next);

/* Ids penalised, some of which may be over and not yet seen to be. */
static inline u32 eqds_paths_nbad(const struct eqds_paths *p)
{
	return p->nbad;
}

#endif /* _EQDS_CORE_PATHS_H */
