// SPDX-License-Identifier: GPL-2.0
/*
 * credit.c - sender credit accounting and receiver pull numbering.
 *
 * See credit.h for the model. All arithmetic on pull numbers is serial
 * (seq.h), so the counters may wrap at 2^32. Byte products are computed in
 * 64 bits; divisions stay 32-bit so 32-bit kernels need no div_u64().
 */
#include "credit.h"
#include "seq.h"

/* Pulls that make up one window, at least one. */
static u32 eqds_window_quanta(u32 window, u32 quantum)
{
	u32 n = quantum ? window / quantum : 0;

	return n ? n : 1;
}

void eqds_credit_init(struct eqds_credit *c, u32 window, u32 quantum,
		      u32 initial)
{
	memset(c, 0, sizeof(*c));
	c->window = window;
	c->quantum = quantum;
	c->credit = eqds_min_u32(initial, window);
}

u32 eqds_credit_pull(struct eqds_credit *c, u32 pull_no, u32 quantum)
{
	s32 jump = eqds_seq_diff(pull_no, c->pull_hi);
	u32 n, max_n, room, repay;
	u64 gain;

	if (!quantum)
		return 0;
	if (jump <= 0) {
		c->stale_pulls++;
		return 0;
	}

	n = (u32)jump;
	max_n = eqds_window_quanta(c->window, quantum);
	if (n > max_n) {
		c->clamped_pulls++;
		c->refused_bytes += (u64)(n - max_n) * quantum;
		n = max_n;
	}
	c->pull_hi = pull_no;
	c->quantum = quantum;

	gain = (u64)n * quantum;
	/* Debt first: its bytes were sent, the pull pays for them. */
	repay = (u32)eqds_min_u64(gain, c->debt);
	c->debt -= repay;
	c->repaid_bytes += repay;
	gain -= repay;
	room = c->window - c->credit;
	if (gain > room) {
		c->refused_bytes += gain - room;
		gain = room;
	}
	c->credit += (u32)gain;
	return (u32)gain + repay;
}

bool eqds_credit_take(struct eqds_credit *c, u32 bytes)
{
	if (bytes > c->credit)
		return false;
	c->credit -= bytes;
	return true;
}

bool eqds_credit_may_borrow(const struct eqds_credit *c, u32 bytes)
{
	return bytes > c->credit && c->debt <= c->overdraft &&
	       bytes - c->credit <= c->overdraft - c->debt;
}

bool eqds_credit_borrow(struct eqds_credit *c, u32 bytes)
{
	u32 owed = bytes - c->credit;

	if (!eqds_credit_may_borrow(c, bytes))
		return false;
	c->debt += owed;
	c->borrowed_bytes += owed;
	c->credit = 0;
	return true;
}

/* Bytes from the credit held up to queued, or to the window if less. */
static u32 credit_short(const struct eqds_credit *c, u64 queued)
{
	queued = eqds_min_u64(queued, c->window);
	return queued > c->credit ? (u32)queued - c->credit : 0;
}

u32 eqds_credit_need(const struct eqds_credit *c, u64 queued, u64 guess)
{
	u32 want, quanta;

	if (!c->quantum)
		return 0;
	queued += c->debt;
	/*
	 * Pulls beyond the window's room would be refused: ask at most for
	 * what fills the window (credit never exceeds it).
	 */
	want = credit_short(c, queued);
	quanta = want / c->quantum + (want % c->quantum != 0);
	want = credit_short(c, queued + guess);
	quanta = eqds_max_u32(quanta, want / c->quantum);
	quanta = eqds_min_u32(quanta, eqds_window_quanta(c->window,
							 c->quantum));
	return eqds_min_u32(quanta, EQDS_DEMAND_MAX_QUANTA);
}

u16 eqds_credit_pull_target(const struct eqds_credit *c, u64 queued, u64 guess)
{
	return (u16)(c->pull_hi + eqds_credit_need(c, queued, guess));
}

void eqds_pullgen_init(struct eqds_pullgen *g, u32 max_ahead)
{
	g->pull_no = 0;
	g->target = 0;
	g->max_ahead = eqds_min_u32(max_ahead, EQDS_DEMAND_MAX_QUANTA);
}

void eqds_pullgen_demand(struct eqds_pullgen *g, u16 pull_target, bool probe)
{
	s16 ahead = (s16)(u16)(pull_target - (u16)g->pull_no);
	u32 n = ahead > 0 ? eqds_min_u32((u32)ahead, g->max_ahead) : 0;

	if (probe && !n)
		n = 1;
	g->target = g->pull_no + n;
}

u32 eqds_pullgen_outstanding(const struct eqds_pullgen *g)
{
	s32 d = eqds_seq_diff(g->target, g->pull_no);

	return d > 0 ? (u32)d : 0;
}

u32 eqds_pullgen_next(struct eqds_pullgen *g)
{
	return ++g->pull_no;
}

u32 eqds_pullgen_grant(struct eqds_pullgen *g, u32 quanta)
{
	g->pull_no += quanta;
	return g->pull_no;
}
