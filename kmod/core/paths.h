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
 * Spraying walks the ids in turn, skipping those penalised. A penalty lasts
 * hold_ns; an id penalised again within twice its last penalty's length
 * after that ended gets twice as long, up to 2^(EQDS_PATHS_MAX_STRIKES -
 * 1) holds (3.3 s at the default hold); later, a single hold again. An id
 * is tried again once its penalty is over. A failed link thus costs one
 * packet per id leading to it, then one per id every longer while; so does
 * a link slower than its share, whose ids keep coming back marked; a
 * queue that was only busy for a while comes back after one hold.
 *
 * The hold (module parameter path_hold_us) should be a few unloaded round
 * trips of the fabric, the time a marked queue takes to drain: long
 * enough that a bad id does not come back at once, short enough that the
 * ids a busy link held off do not all pile onto the rest. In the
 * simulator's 10 Gbit/s FatTree (round trip about 45 us) 100-200 us do
 * best; 30 us or 400 us and more do worse (simulation.rst). A path that
 * only loses packets backs off to seconds, whatever the hold.
 *
 * Marks or losses at the receiver's own link, or everywhere, say nothing
 * about paths: at most EQDS_PATHS_MAX_BAD ids are penalised at once, and
 * penalties beyond that are ignored (counted), so a tunnel always sprays
 * over at least a quarter of the ids.
 *
 * State of one sending tunnel; the glue serialises calls (the tunnel's
 * lock in the module) and passes the time.
 */
#ifndef _EQDS_CORE_PATHS_H
#define _EQDS_CORE_PATHS_H

#include "platform.h"

#define EQDS_PATHS		256	/* path ids: one byte */
#define EQDS_PATHS_MAX_BAD	(EQDS_PATHS * 3 / 4)
#define EQDS_PATHS_HOLD_US	100		/* default first penalty */
#define EQDS_PATHS_HOLD_MAX_US	10000		/* longest first penalty: 10 ms */
#define EQDS_PATHS_HOLD_NS	(EQDS_PATHS_HOLD_US * 1000u)
#define EQDS_PATHS_HOLD_MAX_NS	(EQDS_PATHS_HOLD_MAX_US * 1000u)
#define EQDS_PATHS_MAX_STRIKES	16		/* longest penalty: 2^15 holds */

struct eqds_paths_stats {
	u64	penalties;	/* ids penalised */
	u64	repaths;	/* packets sent on another id than their turn's */
	u64	ignored;	/* penalties refused: EQDS_PATHS_MAX_BAD reached */
};

struct eqds_paths {
	u32	bad[EQDS_PATHS / 32];	/* penalised ids */
	u32	release[EQDS_PATHS];	/* penalty over, in 1024 ns units (wraps) */
	u8	strikes[EQDS_PATHS];	/* penalties in a row */
	u32	hold_ns;		/* first penalty's length */
	u16	nbad;
	u8	next;			/* the next id's turn */
	struct eqds_paths_stats	stats;
};

/* Start with every id good, first at first; the hold as eqds_paths_set_hold(). */
void eqds_paths_init(struct eqds_paths *p, u8 first, u32 hold_ns);

/*
 * The first penalty's length: hold_ns, at most EQDS_PATHS_HOLD_MAX_NS; 0:
 * no penalties from now on (spraying walks every id in turn). Penalties
 * under way keep theirs.
 */
void eqds_paths_set_hold(struct eqds_paths *p, u32 hold_ns);

/*
 * The path id for the next packet sent at now_ns: the next in turn that is
 * not penalised (an id whose penalty is over is good again).
 */
u8 eqds_paths_next(struct eqds_paths *p, u64 now_ns);

/* A packet sent on path was lost or marked (see above). */
void eqds_paths_penalise(struct eqds_paths *p, u8 path, u64 now_ns);



/* Is path penalised now (its penalty not yet over)? */
bool eqds_paths_is_bad(const struct eqds_paths *p, u8 path, u64 now_ns);

/* Ids penalised, some of which may be over and not yet seen to be. */
static inline u32 eqds_paths_nbad(const struct eqds_paths *p)
{
	return p->nbad;
}

#endif /* _EQDS_CORE_PATHS_H */
