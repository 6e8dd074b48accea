/* SPDX-License-Identifier: GPL-2.0 */
/*
 * congestion.h - the receiver's reaction to congestion in the core of the
 * network. Pulling at the receiver's link rate keeps the last hop's queue
 * short, but when the fabric before it is the bottleneck (an
 * oversubscribed core), every receiver pulling at its own link rate offers
 * the core more than it carries. Switches mark CE on packets that find a
 * queue above a threshold; the receiver sees the marks on the data it
 * pulled and lowers its pull rate, as DCTCP lowers a window:
 *
 *  - data arriving is observed in windows of at least interval_ns; a
 *    window ends when it is observed after that with data in it (a
 *    receiver with nothing arriving learns nothing, and its rate stays
 *    where it is);
 *  - at the end of a window, alpha, the moving average of the fraction of
 *    bytes marked, is updated with gain 1/2^g_shift;
 *  - a window with a mark cuts the rate by alpha/2 (at most half), never
 *    below max_bps / min_div;
 *  - a window without one adds max_bps / ai_div, however long it lasted
 *    (senders stalled by a loss send nothing: that is no sign of a clear
 *    path), never above max_bps.
 *
 * One state per receiving host: the glue applies eqds_cc_rate() as the
 * pull pacer's rate. The marks say that some path into this receiver is
 * congested, not which one, so every sender is slowed; with spraying, each
 * tunnel's packets cross every core path anyway.
 *
 * The glue counts arriving bytes as running totals, in counters of its
 * own (per-CPU in the module, so the receive path takes no lock), and
 * passes them when a window is due: eqds_cc_observe() finds the window's
 * bytes as the difference from the totals it saw last. Pure arithmetic on
 * the state passed in, like the rest of the core: the glue passes the time
 * and serialises calls.
 */
#ifndef _EQDS_CORE_CONGESTION_H
#define _EQDS_CORE_CONGESTION_H

#include "platform.h"

#define EQDS_CC_ONE_SHIFT	20		/* alpha and fractions: 1.0 = 2^20 */
#define EQDS_CC_ONE		0x100000u	/* 1 << EQDS_CC_ONE_SHIFT */

/* Defaults (DCTCP's gain; the rest chosen in the simulator, simulator.rst). */
#define EQDS_CC_INTERVAL_NS	100000u		/* 100 us: a few fabric RTTs */
#define EQDS_CC_G_SHIFT		4		/* gain 1/16 */
#define EQDS_CC_AI_DIV		64		/* +1/64 of max per interval */
#define EQDS_CC_MIN_DIV		64		/* floor: 1/64 of max */

struct eqds_cc_params {
	u32	interval_ns;	/* shortest observation window */
	u8	g_shift;	/* EWMA gain 1/2^g_shift, 1..16 */
	u32	ai_div;		/* additive increase max/ai_div per interval */
	u32	min_div;	/* lowest rate max/min_div */
};

struct eqds_cc_stats {
	u64	windows;	/* windows closed */
	u64	marked;		/* ... of which with a mark */
	u64	bytes;		/* data bytes observed */
	u64	ce_bytes;	/* ... of which marked CE */
};

struct eqds_cc {
	struct eqds_cc_params	p;
	u64	max_bps;	/* ceiling: the rate without congestion */
	u64	rate_bps;	/* current pull rate */
	u32	alpha;		/* marked fraction's moving average, 2^20 = 1 */
	u64	win_start_ns;	/* the current window began */
	u64	seen_bytes;	/* the glue's byte total when it began */
	u64	seen_ce;	/* ... and its marked byte total */
	bool	started;	/* win_start_ns and the totals are valid */
	struct eqds_cc_stats	stats;
};

/* Fill params with the defaults above. */
void eqds_cc_default_params(struct eqds_cc_params *p);
/*
 * Start at max_bps with alpha 0. Out-of-range params are clamped: interval
 * at least 1 ns, g_shift 1..16, ai_div and min_div at least 1.
 */
void eqds_cc_init(struct eqds_cc *cc, const struct eqds_cc_params *p,
		  u64 max_bps);
/*
 * The ceiling changed (the link rate or the configured pull rate). A rate
 * that was at the old ceiling follows the new one; a lowered rate keeps
 * its fraction of the ceiling.
 */
void eqds_cc_set_max(struct eqds_cc *cc, u64 max_bps);
/* Whether eqds_cc_observe() at now_ns may close a window. */
static inline bool eqds_cc_due(const struct eqds_cc *cc, u64 now_ns)
{
	return !cc->started ||
	       eqds_time_since(now_ns, cc->win_start_ns) >= cc->p.interval_ns;
}

/*
 * The data bytes that have arrived so far, and those of them CE-marked,
 * as running totals (they may wrap) read at now_ns. The first call starts
 * a window; a later one closes it when it is due and data arrived in it.
 * Returns true when the rate changed (the glue then applies
 * eqds_cc_rate()).
 */
bool eqds_cc_observe(struct eqds_cc *cc, u64 bytes, u64 ce_bytes, u64 now_ns);

static inline u64 eqds_cc_rate(const struct eqds_cc *cc)
{
	return cc->rate_bps;
}

/* The lowest rate the reaction goes down to. */
static inline u64 eqds_cc_floor(const struct eqds_cc *cc)
{
	u64 f = eqds_div_u64(cc->max_bps, cc->p.min_div);

	return f ? f : (cc->max_bps ? 1 : 0);
}

#endif /* _EQDS_CORE_CONGESTION_H */
