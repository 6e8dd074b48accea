// SPDX-License-Identifier: GPL-2.0
/*
 * pacer.c - the receiver's pull pacer and active sender list.
 *
 * Credit accrues at rate_bps: elapsed_ns * rate_bps / 8e9 bytes. The
 * product is kept exact: what is below one byte is carried in frac (in
 * units of 1/8e9 byte) to the next call, so the rate does not depend on
 * how often the pacer is advanced. Divisions go through platform.h's
 * helpers, which 32-bit kernels need for 64-bit operands.
 */
#include "pacer.h"

#define EQDS_NS_PER_SEC		1000000000u
#define EQDS_NS_PER_MSEC	1000000u
/* Units of frac per byte: 8 bits times 1e9 ns per second. */
#define EQDS_UNITS_PER_BYTE	(8ull * EQDS_NS_PER_SEC)
/* Longest wait next_ns computes with, bytes (keeps units below 2^64). */
#define EQDS_SCHED_MAX_NEED	0x80000000u

static u64 eqds_sched_clamp_rate(u64 rate_bps)
{
	return eqds_min_u64(rate_bps, EQDS_SCHED_MAX_RATE);
}

/* The most the budget may hold now. */
static u64 eqds_sched_cap(const struct eqds_sched *s)
{
	if (s->idle || !s->ready || s->max_burst < s->quantum)
		return s->quantum;
	return s->max_burst;
}

static void eqds_asl_unlink(struct eqds_asl_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = NULL;
	n->prev = NULL;
}

static void eqds_asl_add_before(struct eqds_asl_node *pos, struct eqds_asl_node *n)
{
	n->prev = pos->prev;
	n->next = pos;
	pos->prev->next = n;
	pos->prev = n;
}

static void eqds_asl_add_tail(struct eqds_sched *s, struct eqds_asl_node *n)
{
	eqds_asl_add_before(&s->head[n->prio], n);
}

static bool eqds_asl_empty(const struct eqds_asl_node *head)
{
	return head->next == head;
}

/* A node with demand goes on its level's list, or waits for its cap. */
static void eqds_sched_place(struct eqds_sched *s, struct eqds_asl_node *n)
{
	struct eqds_asl_node *pos = s->throttled.next;

	if (!n->cap_bps || n->next_ns <= s->last_ns) {
		eqds_asl_add_tail(s, n);
		s->ready++;
		return;
	}
	/* Sorted by due time; equal times keep their order. */
	while (pos != &s->throttled && pos->next_ns <= n->next_ns)
		pos = pos->next;
	eqds_asl_add_before(pos, n);
	n->throttled = true;
}

/* The reverse of eqds_sched_place(); n stays queued. */
static void eqds_sched_unplace(struct eqds_sched *s, struct eqds_asl_node *n)
{
	eqds_asl_unlink(n);
	if (n->throttled)
		n->throttled = false;
	else
		s->ready--;
}

/*
 * Place n anew (its level's tail, or the throttled list). Nothing ready
 * any more makes the scheduler idle: what accrues meanwhile is no burst.
 */
static void eqds_sched_requeue(struct eqds_sched *s, struct eqds_asl_node *n)
{
	eqds_sched_unplace(s, n);
	eqds_sched_place(s, n);
	if (!s->ready)
		s->idle = true;
}

/* Base turns in one turn: as many as turn_ns carries at the rate. */
static u32 eqds_sched_scale(const struct eqds_sched *s)
{
	u64 turn = (u64)EQDS_SCHED_TURN_QUANTA * s->quantum, bytes;

	if (!s->turn_ns || !turn)
		return 1;
	/* rate < 2^51 and turn_ns < 2^32: bits per ms first keeps it in 64. */
	bytes = eqds_div_u64(eqds_div_u64(s->rate_bps, 1000000) * s->turn_ns, 8000);
	return (u32)eqds_max_u64(eqds_min_u64(eqds_div64_u64(bytes, turn),
					      EQDS_SCHED_MAX_SCALE), 1);
}

/* A fresh round's deficit. */
static u32 eqds_sched_round(const struct eqds_sched *s, const struct eqds_asl_node *n)
{
	return (u32)eqds_min_u64((u64)n->weight * s->scale, 0xffffffffu);
}

void eqds_sched_init(struct eqds_sched *s, u64 rate_bps, u32 quantum,
		     u32 max_burst, u64 now_ns)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < EQDS_SCHED_PRIOS; i++) {
		s->head[i].next = &s->head[i];
		s->head[i].prev = &s->head[i];
	}
	s->throttled.next = &s->throttled;
	s->throttled.prev = &s->throttled;
	s->rate_bps = eqds_sched_clamp_rate(rate_bps);
	s->quantum = quantum;
	s->scale = 1;
	s->max_burst = max_burst;
	s->last_ns = now_ns;
	s->idle = true;
}

void eqds_sched_set_rate(struct eqds_sched *s, u64 rate_bps, u64 now_ns)
{
	eqds_sched_advance(s, now_ns);
	s->rate_bps = eqds_sched_clamp_rate(rate_bps);
	s->scale = eqds_sched_scale(s);
}

void eqds_sched_set_turn(struct eqds_sched *s, u32 turn_ns)
{
	s->turn_ns = turn_ns;
	s->scale = eqds_sched_scale(s);
}

void eqds_asl_node_init(struct eqds_asl_node *n, u32 weight)
{
	n->next = NULL;
	n->prev = NULL;
	n->weight = weight ? weight : 1;
	n->deficit = 0;
	n->queued = false;
	n->throttled = false;
	n->prio = EQDS_SCHED_DEFAULT_PRIO;
	n->backlog = 0;
	n->cap_bps = 0;
	n->next_ns = 0;
}

void eqds_sched_set_share(struct eqds_sched *s, struct eqds_asl_node *n,
			  u32 weight, u8 prio, u64 cap_bps, u64 now_ns)
{
	/* Unchanged level and cap keep the sender's place in the round. */
	bool move;

	prio = prio < EQDS_SCHED_PRIOS ? prio : EQDS_SCHED_PRIOS - 1;
	cap_bps = eqds_sched_clamp_rate(cap_bps);
	move = n->queued && (prio != n->prio || cap_bps != n->cap_bps);
	if (move)
		eqds_sched_unplace(s, n);
	n->weight = weight ? weight : 1;
	n->deficit = eqds_min_u32(n->deficit, eqds_sched_round(s, n));
	if (n->queued && !n->deficit)
		n->deficit = eqds_sched_round(s, n);
	n->prio = prio;
	if (cap_bps != n->cap_bps) {
		n->cap_bps = cap_bps;
		n->next_ns = now_ns;
	}
	if (move) {
		eqds_sched_place(s, n);
		if (!s->ready)
			s->idle = true;
	}
}

void eqds_sched_activate(struct eqds_sched *s, struct eqds_asl_node *n)
{
	if (n->queued)
		return;
	n->deficit = eqds_sched_round(s, n);
	n->queued = true;
	s->active++;
	eqds_sched_place(s, n);
}

void eqds_sched_deactivate(struct eqds_sched *s, struct eqds_asl_node *n)
{
	s->backlog -= n->backlog;
	n->backlog = 0;
	if (!n->queued)
		return;
	eqds_sched_unplace(s, n);
	n->queued = false;
	n->deficit = 0;
	s->active--;
	if (!s->ready)
		s->idle = true;
}

/* Bytes due for elapsed ns at the current rate, carrying the fraction. */
static u64 eqds_sched_due(struct eqds_sched *s, u64 elapsed)
{
	u64 units, bytes;
	u32 rem;

	if (!s->rate_bps)
		return 0;
	/*
	 * rate_bps < 2^bits, so elapsed below 2^(64 - bits) keeps the
	 * product in 64 bits. That cap is worth at least 2^63 units (over a
	 * gigabyte), more than any budget may hold.
	 */
	elapsed = eqds_min_u64(elapsed, ~0ull >> eqds_fls64(s->rate_bps));
	units = elapsed * s->rate_bps;
	/* units / 8e9 as (units / 8) / 1e9: the divisor fits in 32 bits. */
	bytes = eqds_div_u64_rem(units >> 3, EQDS_NS_PER_SEC, &rem);
	s->frac += (u64)rem << 3 | (units & 7);
	if (s->frac >= EQDS_UNITS_PER_BYTE) {
		s->frac -= EQDS_UNITS_PER_BYTE;
		bytes++;
	}
	return bytes;
}

void eqds_sched_advance(struct eqds_sched *s, u64 now_ns)
{
	u64 cap = eqds_sched_cap(s);

	if (now_ns > s->last_ns) {
		s->budget += eqds_sched_due(s, now_ns - s->last_ns);
		s->last_ns = now_ns;
	}
	if (s->budget >= cap) {
		/*
		 * Not owed later: catching up would be a burst at the last
		 * switch, as the shallow-buffer incast shows (emulation.md).
		 * Lost is what the senders wanted beyond the cap, no more.
		 */
		if (!s->idle && s->ready) {
			u64 want = s->backlog * s->quantum;

			if (want > cap)
				s->late_bytes += eqds_min_u64(s->budget - cap, want - cap);
		}
		s->budget = cap;
		s->frac = 0;
	}
	while (!eqds_asl_empty(&s->throttled) && s->throttled.next->next_ns <= s->last_ns) {
		struct eqds_asl_node *n = s->throttled.next;

		eqds_asl_unlink(n);
		n->throttled = false;
		eqds_sched_place(s, n);
	}
	s->idle = !s->ready;
}

struct eqds_asl_node *eqds_sched_peek(struct eqds_sched *s)
{
	u32 i;

	if (!s->ready || !s->quantum || s->budget < s->quantum)
		return NULL;
	for (i = 0; i < EQDS_SCHED_PRIOS; i++) {
		struct eqds_asl_node *head = &s->head[i];

		/* A capped sender granted its fill since waits for its cap. */
		while (!eqds_asl_empty(head)) {
			struct eqds_asl_node *n = head->next;

			if (!n->cap_bps || n->next_ns <= s->last_ns)
				return n;
			eqds_sched_requeue(s, n);
		}
	}
	return NULL;
}

u32 eqds_sched_quanta(const struct eqds_sched *s, const struct eqds_asl_node *n,
		      u32 want)
{
	u64 q;

	if (!want || !s->quantum || !n->deficit)
		return 0;
	q = eqds_div_u64(s->budget, s->quantum);
	q = eqds_min_u64(q, eqds_sched_turn(s));
	q = eqds_min_u64(q, want);
	return eqds_min_u32((u32)q, n->deficit);
}

/* Nanoseconds bytes take at n's cap (units < 2^64 below 2^31 bytes). */
static u64 eqds_sched_cap_ns(const struct eqds_asl_node *n, u64 bytes)
{
	return eqds_div64_u64(eqds_min_u64(bytes, EQDS_SCHED_MAX_NEED) * EQDS_UNITS_PER_BYTE,
			      n->cap_bps);
}

void eqds_sched_granted(struct eqds_sched *s, struct eqds_asl_node *n,
			u32 quanta, u32 remaining)
{
	u64 bytes = (u64)quanta * s->quantum;

	s->budget = bytes < s->budget ? s->budget - bytes : 0;
	if (!n->queued)
		return;
	if (n->cap_bps && quanta) {
		u64 wait = eqds_sched_cap_ns(n, bytes);
		u64 slack = eqds_sched_cap_ns(n, (u64)eqds_sched_turn(s) * s->quantum);

		/*
		 * A grant later than due (a late timer, other senders' turns)
		 * keeps up to one full grant's time of the delay, so the cap
		 * is reached, not undershot; what is later than that was idle.
		 */
		n->next_ns = eqds_max_u64(n->next_ns, s->last_ns > slack ? s->last_ns - slack : 0) +
			     wait;
	}
	n->deficit -= eqds_min_u32(quanta, n->deficit);
	if (!remaining) {
		eqds_sched_deactivate(s, n);
		return;
	}
	if (n->deficit && quanta)
		return;		/* more of its round left: stays at the head */
	if (!n->deficit)
		n->deficit = eqds_sched_round(s, n);
	eqds_sched_requeue(s, n);
}

/*
 * What the next run waits for: one quantum or, when turns are scaled, as
 * much as the senders want up to one turn (at most EQDS_SCHED_TURN_NS at
 * the rate), so that pulls carry whole turns.
 */
static u64 eqds_sched_unit(const struct eqds_sched *s)
{
	u64 want;

	if (s->scale <= 1)
		return s->quantum;
	want = eqds_min_u64(s->backlog, eqds_sched_turn(s));
	return eqds_max_u64(want, 1) * s->quantum;
}

/* Nanoseconds from now_ns until eqds_sched_unit() of budget is due. */
static u64 eqds_sched_budget_ns(const struct eqds_sched *s, u64 now_ns)
{
	u64 need, wait, elapsed, unit = eqds_sched_unit(s);

	if (s->budget >= unit)
		return 0;
	if (!s->rate_bps)
		return EQDS_NS_PER_MSEC;
	need = eqds_min_u64(unit - s->budget, EQDS_SCHED_MAX_NEED);
	/* frac < one byte's units <= need's: no underflow. */
	need = need * EQDS_UNITS_PER_BYTE - s->frac;
	wait = eqds_div64_u64(need + s->rate_bps - 1, s->rate_bps);
	elapsed = now_ns > s->last_ns ? now_ns - s->last_ns : 0;
	return wait > elapsed ? wait - elapsed : 0;
}

u64 eqds_sched_next_ns(const struct eqds_sched *s, u64 now_ns)
{
	u64 wait = eqds_sched_budget_ns(s, now_ns), due;

	if (s->ready || eqds_asl_empty(&s->throttled))
		return wait;
	due = s->throttled.next->next_ns;
	return eqds_max_u64(wait, due > now_ns ? due - now_ns : 0);
}

void eqds_sched_set_backlog(struct eqds_sched *s, struct eqds_asl_node *n,
			    u32 outstanding)
{
	s->backlog = s->backlog - n->backlog + outstanding;
	n->backlog = outstanding;
}

u16 eqds_sched_busy_us(const struct eqds_sched *s)
{
	u64 us, mbit = eqds_div_u64(s->rate_bps, 1000000);

	if (!s->backlog || !mbit)
		return 0;
	/*
	 * bits * 1e6 / rate: the backlog is at most 2^16 tunnels of 2^16
	 * quanta, so bits < 2^46; dividing the rate first keeps it in range.
	 */
	us = eqds_div64_u64(s->backlog * s->quantum * 8, mbit);
	return (u16)eqds_min_u64(us, 0xffff);
}
