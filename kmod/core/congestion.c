// SPDX-License-Identifier: GPL-2.0
/*
 * congestion.c - the receiver's DCTCP-like reaction to CE marks on the data
 * it pulled: see congestion.h.
 */
#include "congestion.h"

void eqds_cc_default_params(struct eqds_cc_params *p)
{
	p->interval_ns = EQDS_CC_INTERVAL_NS;
	p->g_shift = EQDS_CC_G_SHIFT;
	p->ai_div = EQDS_CC_AI_DIV;
	p->min_div = EQDS_CC_MIN_DIV;
}

void eqds_cc_init(struct eqds_cc *cc, const struct eqds_cc_params *p,
		  u64 max_bps)
{
	cc->p = *p;
	if (!cc->p.interval_ns)
		cc->p.interval_ns = 1;
	if (cc->p.g_shift < 1)
		cc->p.g_shift = 1;
	if (cc->p.g_shift > 16)
		cc->p.g_shift = 16;
	if (!cc->p.ai_div)
		cc->p.ai_div = 1;
	if (!cc->p.min_div)
		cc->p.min_div = 1;
	cc->max_bps = max_bps;
	cc->rate_bps = max_bps;
	cc->alpha = 0;
	cc->win_start_ns = 0;
	cc->seen_bytes = 0;
	cc->seen_ce = 0;
	cc->started = false;
	cc->stats.windows = 0;
	cc->stats.marked = 0;
	cc->stats.bytes = 0;
	cc->stats.ce_bytes = 0;
}

void eqds_cc_set_max(struct eqds_cc *cc, u64 max_bps)
{
	u64 old = cc->max_bps;

	if (max_bps == old)
		return;
	if (cc->rate_bps >= old || !old) {
		cc->rate_bps = max_bps;
	} else {
		/* Keep the fraction: rate * new / old, in 2^20ths of old. */
		u64 frac = eqds_div64_u64(cc->rate_bps << 10, old >> 10 ? old >> 10 : 1);

		if (frac > EQDS_CC_ONE)
			frac = EQDS_CC_ONE;
		cc->rate_bps = (max_bps >> EQDS_CC_ONE_SHIFT) * frac +
			       (((max_bps & (EQDS_CC_ONE - 1)) * frac) >> EQDS_CC_ONE_SHIFT);
	}
	cc->max_bps = max_bps;
	if (cc->rate_bps < eqds_cc_floor(cc))
		cc->rate_bps = eqds_cc_floor(cc);
	if (cc->rate_bps > max_bps)
		cc->rate_bps = max_bps;
}

/*
 * The window [win_start_ns, now_ns), in which bytes arrived, ce of them
 * marked, ends: update alpha, then the rate.
 * However long it lasted, it is one window: time without data earns no
 * increase, since a receiver whose senders stall after losses sees no data
 * either, and climbing back during the stall would overflow the core again
 * as soon as they resume (in the simulator's greedy 4:1 permutation,
 * counting idle intervals as unmarked cost 15% of the throughput).
 */
static void close_window(struct eqds_cc *cc, u64 bytes, u64 ce, u64 now_ns)
{
	u64 step = eqds_div_u64(cc->max_bps, cc->p.ai_div);
	u64 frac, floor = eqds_cc_floor(cc);
	u32 g = cc->p.g_shift;
	bool marked;

	/* Totals read from per-CPU counters may show a mark before its bytes. */
	if (ce > bytes)
		ce = bytes;
	cc->stats.bytes += bytes;
	cc->stats.ce_bytes += ce;
	marked = ce != 0;
	/* Keep ce << EQDS_CC_ONE_SHIFT in range however much arrived. */
	while (bytes >> 40) {
		bytes >>= 1;
		ce >>= 1;
	}
	frac = eqds_div64_u64(ce << EQDS_CC_ONE_SHIFT, bytes);
	/* alpha += (frac - alpha) / 2^g, without going negative. */
	cc->alpha = (u32)((((u64)cc->alpha << g) - cc->alpha + frac) >> g);
	cc->stats.windows++;
	if (marked) {
		/* rate *= 1 - alpha/2, in 2^10ths of alpha. */
		u64 a10 = cc->alpha >> (EQDS_CC_ONE_SHIFT - 10);

		cc->stats.marked++;
		cc->rate_bps -= ((cc->rate_bps >> 10) * a10) >> 1;
		if (cc->rate_bps < floor)
			cc->rate_bps = floor;
	} else if (cc->rate_bps < cc->max_bps) {
		u64 room = cc->max_bps - cc->rate_bps;

		cc->rate_bps += step < room ? step : room;
	}
	cc->win_start_ns = now_ns;
}

bool eqds_cc_observe(struct eqds_cc *cc, u64 bytes, u64 ce_bytes, u64 now_ns)
{
	u64 before = cc->rate_bps;

	if (cc->started) {
		if (!eqds_cc_due(cc, now_ns) || bytes == cc->seen_bytes)
			return false;
		close_window(cc, bytes - cc->seen_bytes, ce_bytes - cc->seen_ce, now_ns);
	} else {
		cc->started = true;
		cc->win_start_ns = now_ns;
	}
	cc->seen_bytes = bytes;
	cc->seen_ce = ce_bytes;
	return cc->rate_bps != before;
}
