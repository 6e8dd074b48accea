/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer.h - the receiver's pull scheduler: the pacer that turns its link rate
 * into credit, and the active sender list (ASL) that decides which sender
 * gets the next pull. One per receiving host (network namespace).
 *
 * The pacer never trusts the timer to fire on time: each call computes the
 * credit due from the time elapsed since the last one, so a late timer
 * neither lowers the rate nor turns into a burst, as long as it is late by
 * less than max_burst's worth; beyond that, time is lost. Under
 * emulation an hrtimer fires at most ~30k times a second, on real hosts it
 * jitters; the same arithmetic serves both.
 *
 * The ASL is a round robin of senders with demand (deficit round robin over
 * per-sender weights, in quanta). A sender's round is weight * scale quanta:
 * it joins the tail with that deficit, each grant gives the head sender up
 * to one turn (eqds_sched_turn()) of what its deficit and the budget allow,
 * and it stays at the head until its deficit is spent; then it goes to the
 * tail with a fresh deficit (or leaves the list once its demand is met).
 * So over many rounds senders share in proportion to their weights, with
 * at most weight * scale quanta in a row each; equal weights of 1 (and
 * turns unscaled) alternate quantum by quantum. A sender with no queued
 * data is never granted credit.
 *
 * Sharing policy (Documentation/policy.rst) adds two things to the round:
 * - Strict priority: one list per priority level, 0 the highest. A grant
 *   goes to the head of the highest non-empty list; lower levels get only
 *   what higher ones leave (they have no demand, or are held by a cap).
 * - Rate cap: a sender with cap_bps is granted no faster than that. After
 *   each grant it is due again only once the bytes granted have drained at
 *   its cap; until then it waits on the throttled list (sorted by due time,
 *   as sch_fq keeps flows) and its level's other senders go on. A late
 *   grant carries at most one full grant's time (EQDS_SCHED_TURN_QUANTA) of
 *   its delay to the next: the cap saves up no more than that while the
 *   sender waits or is idle.
 */
#ifndef _EQDS_CORE_PACER_H
#define _EQDS_CORE_PACER_H

#include "platform.h"

/*
 * A sender's turn: EQDS_SCHED_TURN_QUANTA quanta per unit of weight, and
 * the most one pull packet carries. With a turn time set
 * (eqds_sched_set_turn()), turns at rates where that takes less are scale
 * times longer, up to EQDS_SCHED_MAX_SCALE and as long as a turn takes no
 * more than the turn time; the pacer then waits for a turn's budget before
 * it runs (eqds_sched_next_ns()). So pulls per byte fall as the rate rises,
 * at the price of bursts of a turn from each sender.
 */
#define EQDS_SCHED_TURN_QUANTA	8
#define EQDS_SCHED_MAX_SCALE	8
#define EQDS_SCHED_PRIOS	4	/* priority levels, 0 the highest */
#define EQDS_SCHED_DEFAULT_PRIO	1

/* Intrusive ASL node, embedded in each receiver tunnel. */
struct eqds_asl_node {
	struct eqds_asl_node	*next;
	struct eqds_asl_node	*prev;
	u32	weight;		/* relative share, >= 1 */
	u32	deficit;	/* quanta left in this round */
	bool	queued;		/* has demand: on its level's list or throttled */
	bool	throttled;	/* on the throttled list, waiting for its cap */
	u8	prio;		/* level, < EQDS_SCHED_PRIOS */
	u32	backlog;	/* quanta this sender still wants pulled */
	u64	cap_bps;	/* most this sender is pulled at; 0: no cap */
	u64	next_ns;	/* capped: not granted again before this */
};

/* Highest pacing rate; faster ones are clamped to it (1.1 Pb/s). */
#define EQDS_SCHED_MAX_RATE	0x4000000000000ull	/* 2^50 */

struct eqds_sched {
	struct eqds_asl_node	head[EQDS_SCHED_PRIOS];	/* list sentinels */
	struct eqds_asl_node	throttled;	/* sentinel; by next_ns */
	u32	active;		/* nodes with demand (queued) */
	u32	ready;		/* of those, on a level's list */
	u64	rate_bps;	/* link rate to pace pulls at, bits/s */
	u64	last_ns;	/* time credit was last accounted up to */
	u64	budget;		/* bytes due and not yet granted, <= max_burst */
	u64	frac;		/* credit below one byte, in 1/8e9 bytes */
	u32	max_burst;	/* bytes: bound on catch-up after a late timer */
	u32	quantum;	/* bytes per pull quantum */
	u32	turn_ns;	/* a turn's most link time; 0: not scaled */
	u32	scale;		/* turns are scale * EQDS_SCHED_TURN_QUANTA quanta */
	bool	idle;		/* nothing was ready since last_ns */
	u64	backlog;	/* sum of the nodes' backlogs, quanta */
	u64	late_bytes;	/* budget over max_burst discarded: see advance */
};

/*
 * Start with an empty list and no budget. A max_burst below one quantum
 * counts as one quantum (the pacer could never grant otherwise). The
 * budget accrues at rate_bps from now_ns on.
 */
void eqds_sched_init(struct eqds_sched *s, u64 rate_bps, u32 quantum,
		     u32 max_burst, u64 now_ns);
/*
 * Account the credit due at the old rate up to now_ns, then pace at the new
 * (whose turns may be longer or shorter: rounds started keep their deficit).
 */
void eqds_sched_set_rate(struct eqds_sched *s, u64 rate_bps, u64 now_ns);
/*
 * Turns scaled to last up to turn_ns at the rate (0, as after init: turns
 * of EQDS_SCHED_TURN_QUANTA quanta). Rounds started keep their deficit.
 */
void eqds_sched_set_turn(struct eqds_sched *s, u32 turn_ns);
/* A node off the list; weight 0 counts as 1; default level, no cap. */
void eqds_asl_node_init(struct eqds_asl_node *n, u32 weight);

/*
 * A sender's share under the sharing policy: weight (0 counts as 1), level
 * (clamped to the lowest) and cap (0: none). Takes effect at once, also for
 * a sender on the list: it moves to its new level's tail, and a new cap
 * counts from now_ns.
 */
void eqds_sched_set_share(struct eqds_sched *s, struct eqds_asl_node *n,
			  u32 weight, u8 prio, u64 cap_bps, u64 now_ns);

/* Put a sender with demand on the list (no-op if it is there already). */
void eqds_sched_activate(struct eqds_sched *s, struct eqds_asl_node *n);
/* Take a sender off the list (no-op if it is not there). */
void eqds_sched_deactivate(struct eqds_sched *s, struct eqds_asl_node *n);

/*
 * Account the credit due at now_ns (a time before the last one accounts
 * nothing), and put throttled senders due by now_ns back on their lists.
 * The budget is capped at max_burst, and at one quantum if no sender was
 * ready at any point since the previous call, so an idle receiver (or one
 * whose senders all wait for their caps) does not save up a burst, whether
 * it is advanced before or after a sender is activated. What max_burst
 * cuts off while senders are ready, as far as their backlogs
 * (eqds_sched_set_backlog()) wanted it, is link time lost to a late call:
 * it is added to late_bytes, which the caller may read and reset.
 */
void eqds_sched_advance(struct eqds_sched *s, u64 now_ns);

/*
 * The next grant: eqds_sched_peek() returns the sender to pull (the head),
 * or NULL when nothing is due (empty list or less than a quantum of
 * budget); eqds_sched_quanta() says how many quanta to give it: at most
 * want (the sender's outstanding demand, eqds_pullgen_outstanding()), the
 * budget, its deficit and one turn (eqds_sched_turn()), and at least 1 when want
 * is nonzero and a grant is due. The caller sends the pull, then calls
 * eqds_sched_granted() with the sender's remaining demand: the budget and
 * deficit are charged, and the sender leaves the list when remaining is 0,
 * goes to the tail when its deficit is spent (or quanta is 0: it passes its
 * turn), else stays at the head.
 */
/* Most quanta one grant (one pull packet) carries at the current rate. */
static inline u32 eqds_sched_turn(const struct eqds_sched *s)
{
	return EQDS_SCHED_TURN_QUANTA * s->scale;
}

struct eqds_asl_node *eqds_sched_peek(struct eqds_sched *s);
u32 eqds_sched_quanta(const struct eqds_sched *s, const struct eqds_asl_node *n,
		      u32 want);
void eqds_sched_granted(struct eqds_sched *s, struct eqds_asl_node *n,
			u32 quanta, u32 remaining);

/*
 * Nanoseconds from now_ns until a grant may be due: one quantum of budget
 * (when turns are scaled, as much as the senders want up to one turn)
 * and, when every sender with demand waits for its cap, the first of them
 * due (0: due now; 1 ms when the rate is 0). The caller arms its timer no
 * earlier than this.
 */
u64 eqds_sched_next_ns(const struct eqds_sched *s, u64 now_ns);

/*
 * Busy time: how long the receiver's link stays saturated by the pulls its
 * senders still want, which it advertises in every control packet so that
 * a sender about to start with a burst can tell it would land on a busy
 * link. The glue reports each sender's outstanding quanta whenever its
 * pull generator changes (demand, grant); deactivation clears it.
 */
void eqds_sched_set_backlog(struct eqds_sched *s, struct eqds_asl_node *n,
			    u32 outstanding);

/* Backlog drain time at the rate, microseconds, capped at the 16-bit field. */
u16 eqds_sched_busy_us(const struct eqds_sched *s);

#endif /* _EQDS_CORE_PACER_H */
