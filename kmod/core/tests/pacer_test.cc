// SPDX-License-Identifier: GPL-2.0
// The receiver's pull scheduler (kmod/core/pacer.c): the pacer's rate over
// simulated time whatever the timer does (late, jittery, stalled), its
// bounded catch-up and idle cap, the exact wait it asks for, and deficit
// round robin over the active sender list; and the pacer around it
// (kmod/core/grant.c): its runs, PULL packets and rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "grant.h"
#include "pacer.h"

namespace {

constexpr u64 NS = 1;
constexpr u64 US = 1000 * NS;
constexpr u64 MS = 1000 * US;
constexpr u64 SEC = 1000 * MS;
constexpr u32 Q = 4096;			// bytes per quantum
constexpr u32 BURST = 16 * Q;		// catch-up bound
constexpr u64 RATE = 9700000000ull;	// 9.7 Gb/s: not a whole bytes/ns

// A sender as the glue sees it: a node plus its outstanding demand.
struct sender {
	struct eqds_asl_node node;
	u64 demand = 0;		// quanta still wanted; ~0: unlimited
	u64 granted = 0;	// quanta received
	u64 grants = 0;		// pulls received
};

sender *owner(struct eqds_asl_node *n)
{
	// node is the first member: the glue would use container_of.
	return reinterpret_cast<sender *>(n);
}

// Everything due at now: advance, then grant while a grant is due, as the
// glue's timer or packet handler does. Returns the bytes granted.
u64 serve(struct eqds_sched *s, u64 now, std::vector<sender *> *order = nullptr)
{
	struct eqds_asl_node *n;
	u64 bytes = 0;

	eqds_sched_advance(s, now);
	while ((n = eqds_sched_peek(s))) {
		sender *snd = owner(n);
		u32 want = (u32)std::min<u64>(snd->demand, 0xffffffffu);
		u32 q = eqds_sched_quanta(s, n, want);

		EXPECT_GE(q, 1u);
		EXPECT_LE(q, eqds_sched_turn(s));
		EXPECT_LE(q, want);
		if (!q)
			break;
		if (snd->demand != ~0ull)
			snd->demand -= q;
		snd->granted += q;
		snd->grants++;
		bytes += (u64)q * s->quantum;
		if (order)
			order->push_back(snd);
		eqds_sched_set_backlog(s, n, (u32)std::min<u64>(snd->demand, 0xffffffffu));
		eqds_sched_granted(s, n, q,
				   (u32)std::min<u64>(snd->demand, 0xffffffffu));
	}
	return bytes;
}

// Bytes due at rate over ns, exactly (128-bit).
u64 due(u64 rate, u64 ns)
{
	return (u64)((unsigned __int128)rate * ns / (8 * SEC));
}

// A copy to try the arithmetic on. Its empty lists' sentinels point at
// themselves (the copy's, not the original's); non-empty lists still share
// their nodes with the original, so only what leaves them alone (advance,
// peek without caps) may be done to it.
struct eqds_sched arith_copy(const struct eqds_sched &o)
{
	struct eqds_sched c = o;

	for (u32 i = 0; i < EQDS_SCHED_PRIOS; i++)
		if (o.head[i].next == &o.head[i])
			c.head[i].next = c.head[i].prev = &c.head[i];
	if (o.throttled.next == &o.throttled)
		c.throttled.next = c.throttled.prev = &c.throttled;
	return c;
}

struct fixture {
	struct eqds_sched s;
	sender a, b, c;

	explicit fixture(u64 rate = RATE, u32 burst = BURST, u64 t0 = 0)
	{
		eqds_sched_init(&s, rate, Q, burst, t0);
		eqds_asl_node_init(&a.node, 1);
		eqds_asl_node_init(&b.node, 1);
		eqds_asl_node_init(&c.node, 1);
	}

	void want(sender *x, u64 quanta)
	{
		x->demand = quanta;
		eqds_sched_set_backlog(&s, &x->node, (u32)std::min<u64>(quanta, 0xffffffffu));
		eqds_sched_activate(&s, &x->node);
	}
};

} // namespace

TEST(Pacer, InitIsEmptyAndIdle)
{
	fixture f;

	EXPECT_EQ(f.s.active, 0u);
	EXPECT_EQ(f.s.budget, 0u);
	EXPECT_EQ(f.s.quantum, Q);
	EXPECT_EQ(f.s.max_burst, BURST);
	EXPECT_EQ(f.s.rate_bps, RATE);
	EXPECT_EQ(eqds_sched_peek(&f.s), nullptr);
	EXPECT_FALSE(f.a.node.queued);
	EXPECT_EQ(f.a.node.weight, 1u);

	struct eqds_asl_node n;
	eqds_asl_node_init(&n, 0);	// weight 0 would never be served
	EXPECT_EQ(n.weight, 1u);
}

// The total granted over simulated time is the rate, however often and
// however late the timer fires, as long as no single gap exceeds the
// catch-up bound.
TEST(Pacer, RateIndependentOfTimerPeriod)
{
	const u64 T = 231 * 433 * US;	// ~100 ms, a multiple of each period
	std::map<u64, u64> total;

	for (u64 period : { 1 * US, 7 * US, 33 * US }) {
		fixture f;

		f.want(&f.a, ~0ull);
		for (u64 t = 0; t <= T; t += period)
			total[period] += serve(&f.s, t);
		// Granted whole quanta only, and never ahead of time.
		EXPECT_LE(total[period], due(RATE, T)) << period;
		EXPECT_GE(total[period], due(RATE, T) - Q) << period;
	}
	// Same totals within 1% (in fact within a quantum).
	EXPECT_NEAR((double)total[1 * US], (double)total[33 * US],
		    0.01 * (double)total[1 * US]);
}

TEST(Pacer, RateWithJitteryTimer)
{
	std::mt19937_64 rng(42);
	const u64 T = 200 * MS;
	fixture f;
	u64 t = 0, total = 0;

	f.want(&f.a, ~0ull);
	while (t < T) {
		// Armed for the next quantum, fires 0..40 us late, hrtimer style.
		u64 wait = eqds_sched_next_ns(&f.s, t);

		t += wait + rng() % (40 * US);
		total += serve(&f.s, t);
	}
	EXPECT_NEAR((double)total, (double)due(RATE, t), 0.01 * due(RATE, t));
	EXPECT_LE(total, due(RATE, t));
}

// Exact at rates that are not a whole number of bytes per timer tick: the
// fraction of a byte is carried, not dropped at each call.
TEST(Pacer, FractionsOfBytesAreCarried)
{
	for (u64 rate : { 1000000ull, 12345678ull, 999999937ull }) {
		fixture f(rate, 0xffffffffu);
		u64 total = 0;

		f.want(&f.a, ~0ull);
		for (u64 t = 0; t <= SEC; t += 1 * US)
			total += serve(&f.s, t);
		total += f.s.budget;	// not yet a whole quantum
		EXPECT_EQ(total, due(rate, SEC)) << rate;
	}
}

// A timer that stalls for 10 ms is worth at most max_burst at once, and
// the rate afterwards is the normal one (no debt carried: catching up
// would be a burst too). What the stall cost is counted in late_bytes, and
// nothing is while the timer is on time.
TEST(Pacer, BoundedCatchUpAfterStall)
{
	fixture f;
	u64 t;

	f.want(&f.a, ~0ull);
	for (t = 0; t <= 1 * MS; t += 10 * US)
		serve(&f.s, t);
	u64 before = f.a.granted, left = f.s.budget;
	EXPECT_EQ(f.s.late_bytes, 0u);

	t += 10 * MS;
	u64 burst = serve(&f.s, t);
	EXPECT_LE(burst, BURST);
	EXPECT_GE(burst, BURST - Q);
	EXPECT_EQ(f.a.granted - before, burst / Q);
	// Exactly what accrued beyond the bound (the fraction of a byte aside).
	u64 accrued = left + due(RATE, 10 * MS + 10 * US);
	EXPECT_NEAR((double)f.s.late_bytes, (double)(accrued - BURST), 1);

	u64 after = 0, t0 = t;

	for (t += 10 * US; t <= t0 + 1 * MS; t += 10 * US)
		after += serve(&f.s, t);
	EXPECT_NEAR((double)after, (double)due(RATE, 1 * MS), Q + 1);
}

// A late timer costs link time only as far as the senders wanted more than
// the bound: a sender that wants a little gets it all, and nothing is lost.
TEST(Pacer, LateTimerWithSmallDemandLosesNothing)
{
	fixture f;

	f.want(&f.a, 3);
	serve(&f.s, 1 * MS);		// one quantum: the idle cap
	EXPECT_EQ(f.a.granted, 1u);
	serve(&f.s, 11 * MS);		// very late, 2 quanta still wanted
	EXPECT_EQ(f.a.granted, 3u);
	EXPECT_EQ(f.s.late_bytes, 0u);

	// Wanting more than the bound: only what it wanted beyond it is lost.
	f.want(&f.b, BURST / Q + 5);
	serve(&f.s, 11 * MS);		// activated now: the idle cap again
	EXPECT_EQ(f.b.granted, 1u);
	serve(&f.s, 21 * MS);
	EXPECT_EQ(f.b.granted, 1u + BURST / Q);
	EXPECT_EQ(f.s.late_bytes, 4u * Q);	// 1 + 20 wanted, 1 + 16 granted
}

// A timer always later than the bound loses what is beyond it, and every
// byte due is either granted, still in the budget or counted as lost.
TEST(Pacer, AlwaysLateTimerLosesTheExcess)
{
	const u64 period = 4 * BURST * 8 * SEC / RATE;	// 4 bursts' time
	fixture f;
	u64 t = 0, total = 0;

	f.want(&f.a, ~0ull);
	total = serve(&f.s, t);		// ends the idle time: accrual starts
	for (int i = 0; i < 1000; i++) {
		t += period;
		u64 got = serve(&f.s, t);

		EXPECT_LE(got, BURST);
		total += got;
	}
	EXPECT_GE(total, 1000ull * (BURST - Q));
	// The fraction of a byte is dropped with the excess: at most 1 per call.
	EXPECT_NEAR((double)(total + f.s.late_bytes + f.s.budget), (double)due(RATE, t), 1000);
}

// A max_burst below one quantum would never let a grant through: it counts
// as one quantum. What a tick brings beyond that is lost, so a max_burst
// this small costs rate: it must exceed a quantum plus a timer period's
// worth of credit (see RateIndependentOfTimerPeriod).
TEST(Pacer, TinyBurstCountsAsOneQuantum)
{
	fixture f(RATE, 100);
	u64 total = 0;

	f.want(&f.a, ~0ull);
	for (u64 t = 0; t <= 1 * MS; t += 1 * US) {
		u64 got = serve(&f.s, t);

		EXPECT_LE(got, Q);
		EXPECT_LE(f.s.budget, Q);
		total += got;
	}
	// 1212.5 bytes/us: a quantum every 4 ticks instead of every 3.4.
	EXPECT_EQ(total, 250u * Q);
}

// Nothing is saved up while no sender has demand: after a long idle time a
// new sender gets one quantum at once, then the paced rate.
TEST(Pacer, NoCreditSavedWhileIdle)
{
	fixture f;

	for (u64 t = 0; t <= 1 * SEC; t += 1 * MS) {
		eqds_sched_advance(&f.s, t);
		EXPECT_LE(f.s.budget, Q);
	}
	f.want(&f.a, ~0ull);
	EXPECT_EQ(serve(&f.s, 1 * SEC), Q);
	EXPECT_EQ(f.a.granted, 1u);
	EXPECT_EQ(eqds_sched_peek(&f.s), nullptr);
	EXPECT_EQ(f.s.late_bytes, 0u);	// idle time is not lost link time
}

// The same when the glue activates first and advances afterwards: the time
// before the activation was idle and still counts as such.
TEST(Pacer, NoCreditSavedWhenActivatedBeforeAdvance)
{
	fixture f;

	eqds_sched_advance(&f.s, 1 * MS);
	f.want(&f.a, ~0ull);
	EXPECT_EQ(serve(&f.s, 1 * SEC), Q);

	// And after a busy period that ended: the list emptied, time passed.
	for (u64 t = 1 * SEC; t < 1 * SEC + 1 * MS; t += 10 * US)
		serve(&f.s, t);
	f.a.demand = 0;
	eqds_sched_deactivate(&f.s, &f.a.node);
	f.want(&f.a, ~0ull);
	EXPECT_EQ(serve(&f.s, 2 * SEC), Q);
}

// The budget goes down to a quantum when the last sender leaves, even if
// it had more (a grant smaller than the budget ended the demand).
TEST(Pacer, IdleCapsLeftoverBudget)
{
	fixture f;

	f.want(&f.a, 2);
	eqds_sched_advance(&f.s, 1 * MS);	// idle until now: one quantum
	EXPECT_EQ(f.s.budget, Q);
	serve(&f.s, 1 * MS + 40 * US);		// budget ~12 quanta, 2 wanted
	EXPECT_EQ(f.a.granted, 2u);
	EXPECT_FALSE(f.a.node.queued);
	eqds_sched_advance(&f.s, 1 * MS + 41 * US);
	EXPECT_LE(f.s.budget, Q);
}

// next_ns is exact: at that time a quantum is due, a nanosecond before it
// is not.
TEST(Pacer, NextNsIsExact)
{
	for (u64 rate : { RATE, 10000000000ull, 100000000000ull, 3000000ull }) {
		fixture f(rate);
		u64 t = 5 * MS;

		f.want(&f.a, ~0ull);
		serve(&f.s, t);
		for (int i = 0; i < 50; i++) {
			u64 wait = eqds_sched_next_ns(&f.s, t);

			ASSERT_GT(wait, 0u);
			ASSERT_LE(wait, (u64)Q * 8 * SEC / rate + 1);
			struct eqds_sched copy = arith_copy(f.s);
			eqds_sched_advance(&copy, t + wait - 1);
			EXPECT_EQ(eqds_sched_peek(&copy), nullptr) << rate;
			// Halfway, the wait left shrinks by the time passed.
			EXPECT_EQ(eqds_sched_next_ns(&f.s, t + wait / 2),
				  wait - wait / 2);
			t += wait;
			EXPECT_EQ(serve(&f.s, t), Q) << rate;
		}
	}
}

TEST(Pacer, NextNsEdgeCases)
{
	fixture f;

	// Due now.
	f.want(&f.a, ~0ull);
	eqds_sched_advance(&f.s, 1 * MS);
	EXPECT_EQ(eqds_sched_next_ns(&f.s, 1 * MS), 0u);
	// Late already.
	serve(&f.s, 1 * MS);
	EXPECT_EQ(eqds_sched_next_ns(&f.s, 2 * MS), 0u);
	// Rate 0: nothing ever due, poll every millisecond.
	fixture z(0);

	z.want(&z.a, ~0ull);
	EXPECT_EQ(serve(&z.s, 1 * SEC), 0u);
	EXPECT_EQ(eqds_sched_next_ns(&z.s, 1 * SEC), 1 * MS);
}

TEST(Pacer, SetRateAccountsOldRateFirst)
{
	fixture f(8 * SEC, 0xffffffffu);	// 1 byte/ns
	u64 total = 0;

	f.want(&f.a, ~0ull);
	EXPECT_EQ(serve(&f.s, 0), 0u);
	eqds_sched_set_rate(&f.s, 16 * SEC, 100 * US);	// 2 bytes/ns
	EXPECT_EQ(f.s.budget, 100000u);
	total += serve(&f.s, 100 * US);
	total += serve(&f.s, 200 * US);
	EXPECT_EQ(total + f.s.budget, 300000u);
	eqds_sched_set_rate(&f.s, ~0ull, 200 * US);
	EXPECT_EQ(f.s.rate_bps, EQDS_SCHED_MAX_RATE);
}

// Huge rates and gaps: no overflow into a small budget.
TEST(Pacer, NoOverflowOnHugeGaps)
{
	for (u64 rate : { 1ull, 400000000000ull, EQDS_SCHED_MAX_RATE }) {
		fixture f(rate, BURST, 0);

		f.want(&f.a, ~0ull);
		eqds_sched_advance(&f.s, 1);	// idle cap applies to [0, 1)
		for (u64 gap : { 1ull << 40, 1ull << 62, ~0ull - 2 }) {
			struct eqds_sched s = arith_copy(f.s);

			eqds_sched_advance(&s, gap);
			if (rate > 1)
				EXPECT_EQ(s.budget, BURST) << rate << " " << gap;
			else
				EXPECT_EQ(s.budget, due(rate, gap - 1) < BURST ?
					  due(rate, gap - 1) : BURST);
		}
	}
}

// Time read on another CPU may be older: it accounts nothing and does not
// move last_ns back.
TEST(Pacer, TimeGoingBackwardsIsHarmless)
{
	fixture f;

	f.want(&f.a, ~0ull);
	serve(&f.s, 1 * MS);
	serve(&f.s, 1 * MS + 20 * US);
	u64 budget = f.s.budget;

	eqds_sched_advance(&f.s, 1 * MS);
	EXPECT_EQ(f.s.budget, budget);
	EXPECT_EQ(f.s.last_ns, 1 * MS + 20 * US);
}

TEST(Pacer, QuantaIsTheMinimumOfEverything)
{
	fixture f(RATE, 64 * Q);
	struct eqds_asl_node *n;

	eqds_asl_node_init(&f.a.node, 100);
	f.want(&f.a, ~0ull);
	eqds_sched_advance(&f.s, 1 * MS);
	EXPECT_EQ(f.s.budget, Q);	// idle before: one quantum
	eqds_sched_advance(&f.s, 2 * MS);
	EXPECT_EQ(f.s.budget, 64u * Q);
	n = eqds_sched_peek(&f.s);
	ASSERT_EQ(n, &f.a.node);
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 0), 0u);	// no demand, no grant
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 1), 1u);
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 5), 5u);
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 1000), (u32)EQDS_SCHED_TURN_QUANTA);
	f.s.budget = 3 * Q + Q - 1;
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 1000), 3u);
	f.a.node.deficit = 2;
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 1000), 2u);
	f.s.budget = Q - 1;
	EXPECT_EQ(eqds_sched_peek(&f.s), nullptr);
	EXPECT_EQ(eqds_sched_quanta(&f.s, n, 1000), 0u);
}

TEST(Pacer, GrantedChargesBudgetAndDeficit)
{
	fixture f(RATE, 64 * Q);

	eqds_asl_node_init(&f.a.node, 5);
	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	EXPECT_EQ(f.a.node.deficit, 5u);	// activated with a round
	f.s.budget = 10 * Q;
	eqds_sched_granted(&f.s, &f.a.node, 3, 10);
	EXPECT_EQ(f.s.budget, 7u * Q);
	EXPECT_EQ(f.a.node.deficit, 2u);
	EXPECT_EQ(eqds_sched_peek(&f.s), &f.a.node);	// round not spent
	eqds_sched_granted(&f.s, &f.a.node, 2, 10);
	EXPECT_EQ(f.a.node.deficit, 5u);		// refilled
	EXPECT_EQ(eqds_sched_peek(&f.s), &f.b.node);	// and at the tail
	// Granting more than the budget empties it, no wrap.
	eqds_sched_granted(&f.s, &f.b.node, 8, 10);
	EXPECT_EQ(f.s.budget, 0u);
	// Demand met: off the list.
	eqds_sched_granted(&f.s, &f.a.node, 1, 0);
	EXPECT_FALSE(f.a.node.queued);
	EXPECT_EQ(f.s.active, 1u);
}

// Weights 1:1 alternate grant by grant; over many grants the shares match.
TEST(Pacer, FairShareEqualWeights)
{
	fixture f;
	std::vector<sender *> order;

	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	for (u64 t = 0; t <= 50 * MS; t += 20 * US)
		serve(&f.s, t, &order);
	ASSERT_GT(order.size(), 10000u);
	for (size_t i = 1; i < order.size(); i++)
		ASSERT_NE(order[i], order[i - 1]) << i;
	EXPECT_LE(std::max(f.a.granted, f.b.granted) -
		  std::min(f.a.granted, f.b.granted), 1u);
}

TEST(Pacer, FairShareThreeToOne)
{
	for (u64 period : { 1 * US, 50 * US }) {
		fixture f;

		eqds_asl_node_init(&f.a.node, 3);
		f.want(&f.a, ~0ull);
		f.want(&f.b, ~0ull);
		for (u64 t = 0; t <= 100 * MS; t += period)
			serve(&f.s, t);
		ASSERT_GT(f.b.granted, 1000u);
		// Within one round of the exact 3:1 split.
		EXPECT_LE(f.a.granted, 3 * f.b.granted + 3) << period;
		EXPECT_GE(f.a.granted + 3, 3 * f.b.granted) << period;
	}
}

// Three senders of weights 1, 2, 4 and a latecomer: shares follow weights,
// the latecomer gets its share from when it joined.
TEST(Pacer, WeightedShareWithLatecomer)
{
	fixture f;

	eqds_asl_node_init(&f.b.node, 2);
	eqds_asl_node_init(&f.c.node, 4);
	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	for (u64 t = 0; t < 50 * MS; t += 10 * US)
		serve(&f.s, t);
	EXPECT_NEAR((double)f.b.granted / f.a.granted, 2.0, 0.01);
	u64 a0 = f.a.granted, b0 = f.b.granted;

	f.want(&f.c, ~0ull);
	for (u64 t = 50 * MS; t < 150 * MS; t += 10 * US)
		serve(&f.s, t);
	u64 a = f.a.granted - a0, b = f.b.granted - b0, c = f.c.granted;

	EXPECT_NEAR((double)b / a, 2.0, 0.01);
	EXPECT_NEAR((double)c / a, 4.0, 0.01);
	u64 total = a + b + c;
	EXPECT_NEAR((double)total * Q, (double)due(RATE, 100 * MS), 5.0 * Q);
}

// A round bigger than one pull: 8 + 8 + 4 for weight 20, then the other.
TEST(Pacer, BigRoundsAreSplitIntoMaxQuantaGrants)
{
	fixture f(RATE, 0xffffffffu);
	std::vector<sender *> order;

	eqds_asl_node_init(&f.a.node, 20);
	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	f.s.budget = 100 * Q;
	u64 prev = 0;
	std::vector<u64> sizes;

	for (int i = 0; i < 4; i++) {
		struct eqds_asl_node *n = eqds_sched_peek(&f.s);
		u32 q = eqds_sched_quanta(&f.s, n, 1000);

		sizes.push_back(q);
		order.push_back(owner(n));
		eqds_sched_granted(&f.s, n, q, 1000);
		prev += q;
	}
	EXPECT_EQ(sizes, (std::vector<u64>{ 8, 8, 4, 1 }));
	EXPECT_EQ(order, (std::vector<sender *>{ &f.a, &f.a, &f.a, &f.b }));
	EXPECT_EQ(f.s.budget, (100 - prev) * Q);
}

// Only senders with demand are ever granted: one that was never activated,
// one whose demand ran out, and one deactivated by the glue.
TEST(Pacer, NoDemandNoCredit)
{
	fixture f;

	f.want(&f.a, ~0ull);
	f.want(&f.b, 10);
	for (u64 t = 0; t <= 10 * MS; t += 10 * US)
		serve(&f.s, t);
	EXPECT_EQ(f.b.granted, 10u);
	EXPECT_FALSE(f.b.node.queued);
	EXPECT_EQ(f.c.granted, 0u);
	EXPECT_FALSE(f.c.node.queued);
	f.want(&f.c, ~0ull);
	serve(&f.s, 10 * MS + 100 * US);
	EXPECT_GT(f.c.granted, 0u);
	u64 c = f.c.granted;

	eqds_sched_deactivate(&f.s, &f.c.node);
	for (u64 t = 11 * MS; t <= 20 * MS; t += 10 * US)
		serve(&f.s, t);
	EXPECT_EQ(f.c.granted, c);
	EXPECT_EQ(f.b.granted, 10u);
	EXPECT_GT(f.a.granted, 1000u);
	// The last one leaving stops all grants.
	eqds_sched_deactivate(&f.s, &f.a.node);
	u64 a = f.a.granted;

	EXPECT_EQ(serve(&f.s, 30 * MS), 0u);
	EXPECT_EQ(f.a.granted, a);
	EXPECT_EQ(f.s.active, 0u);
}

// Activate and deactivate are idempotent and keep the list consistent:
// random operations against a deque model.
TEST(Pacer, ListOperationsMatchModel)
{
	std::mt19937 rng(7);
	struct eqds_sched s;
	std::vector<sender> nodes(16);
	std::deque<struct eqds_asl_node *> model;

	eqds_sched_init(&s, RATE, Q, BURST, 0);
	for (auto &n : nodes)
		eqds_asl_node_init(&n.node, 1 + rng() % 3);
	s.budget = Q;
	for (int i = 0; i < 20000; i++) {
		struct eqds_asl_node *n = &nodes[rng() % nodes.size()].node;
		auto it = std::find(model.begin(), model.end(), n);

		switch (rng() % 3) {
		case 0:
			eqds_sched_activate(&s, n);
			if (it == model.end())
				model.push_back(n);
			break;
		case 1:
			eqds_sched_deactivate(&s, n);
			if (it != model.end())
				model.erase(it);
			break;
		case 2: {	// a one-quantum grant to the head
			if (model.empty())
				break;
			n = model.front();
			ASSERT_EQ(eqds_sched_peek(&s), n);
			u32 deficit = n->deficit;
			u32 rem = rng() % 3;

			eqds_sched_granted(&s, n, 1, rem);
			s.budget = Q;
			model.pop_front();
			if (rem && deficit > 1)
				model.push_front(n);
			else if (rem)
				model.push_back(n);
			break;
		}
		}
		ASSERT_EQ(s.active, model.size());
		// Walk both ways.
		struct eqds_asl_node *p = s.head[EQDS_SCHED_DEFAULT_PRIO].next;
		for (auto *m : model) {
			ASSERT_EQ(p, m);
			ASSERT_TRUE(p->queued);
			ASSERT_GE(p->deficit, 1u);
			ASSERT_LE(p->deficit, p->weight);
			ASSERT_EQ(p->next->prev, p);
			p = p->next;
		}
		ASSERT_EQ(p, &s.head[EQDS_SCHED_DEFAULT_PRIO]);
		ASSERT_EQ(s.head[EQDS_SCHED_DEFAULT_PRIO].prev,
			  model.empty() ? &s.head[EQDS_SCHED_DEFAULT_PRIO] : model.back());
		for (auto &x : nodes)
			ASSERT_EQ(x.node.queued,
				  std::find(model.begin(), model.end(), &x.node) !=
				  model.end());
		if (model.empty()) {
			ASSERT_EQ(eqds_sched_peek(&s), nullptr);
		}
	}
}

namespace {

// Busy time: the total backlog the senders report, drained at the rate.
TEST(PacerBusy, BacklogDrainTimeAtTheRate)
{
	struct eqds_sched s;
	struct eqds_asl_node a, b;

	eqds_sched_init(&s, 1000000000ull, 1000, 8000, 0);	// 1 Gb/s, 1000 B
	eqds_asl_node_init(&a, 1);
	eqds_asl_node_init(&b, 1);
	EXPECT_EQ(eqds_sched_busy_us(&s), 0);
	eqds_sched_activate(&s, &a);
	eqds_sched_set_backlog(&s, &a, 100);	// 100 quanta = 800 us
	EXPECT_EQ(eqds_sched_busy_us(&s), 800);
	eqds_sched_activate(&s, &b);
	eqds_sched_set_backlog(&s, &b, 50);
	EXPECT_EQ(eqds_sched_busy_us(&s), 1200);
	eqds_sched_set_backlog(&s, &a, 10);	// a's demand shrank
	EXPECT_EQ(eqds_sched_busy_us(&s), 480);
	// Leaving the list takes a sender's backlog with it, queued or not.
	eqds_sched_deactivate(&s, &b);
	EXPECT_EQ(eqds_sched_busy_us(&s), 80);
	EXPECT_EQ(s.backlog, 10u);
	eqds_sched_deactivate(&s, &a);
	EXPECT_EQ(s.backlog, 0u);
	EXPECT_EQ(eqds_sched_busy_us(&s), 0);
	// Capped at the 16-bit wire field.
	eqds_sched_set_backlog(&s, &a, 0xffffffffu);
	EXPECT_EQ(eqds_sched_busy_us(&s), 0xffff);
	eqds_sched_set_backlog(&s, &a, 0);
	// No rate (below 1 Mbit/s): nothing to say.
	eqds_sched_set_rate(&s, 999999, 0);
	eqds_sched_set_backlog(&s, &a, 5);
	EXPECT_EQ(eqds_sched_busy_us(&s), 0);
}

} // namespace

// ---- sharing policy: levels, caps, weights (Documentation/policy.rst) ----

namespace {

// serve() every period from t0 to t1; returns the time reached.
u64 run(fixture *f, u64 t0, u64 t1, u64 period = 10 * US)
{
	u64 t;

	for (t = t0; t <= t1; t += period)
		serve(&f->s, t);
	return t;
}

// The scheduler's own bookkeeping, walked: counts, levels, sorted waits.
void expect_consistent(const struct eqds_sched *s)
{
	u32 ready = 0, throttled = 0;

	for (u32 i = 0; i < EQDS_SCHED_PRIOS; i++)
		for (auto *p = s->head[i].next; p != &s->head[i]; p = p->next) {
			ASSERT_EQ(p->next->prev, p);
			ASSERT_TRUE(p->queued);
			ASSERT_FALSE(p->throttled);
			ASSERT_EQ(p->prio, i);
			ready++;
		}
	for (auto *p = s->throttled.next; p != &s->throttled; p = p->next) {
		ASSERT_EQ(p->next->prev, p);
		ASSERT_TRUE(p->queued);
		ASSERT_TRUE(p->throttled);
		ASSERT_NE(p->cap_bps, 0u);
		if (p->next != &s->throttled) {
			ASSERT_LE(p->next_ns, p->next->next_ns);
		}
		throttled++;
	}
	ASSERT_EQ(s->ready, ready);
	ASSERT_EQ(s->active, ready + throttled);
}

} // namespace

// A higher level takes everything while it wants credit; the lower level
// gets the whole rate back once it is done, and nothing was lost meanwhile.
TEST(PacerPolicy, StrictPriorityTakesTheLinkThenYields)
{
	fixture f(1000000000ull);	// 1 Gb/s
	const u64 quanta_10ms = due(1000000000ull, 10 * MS) / Q;

	eqds_sched_set_share(&f.s, &f.a.node, 1, 0, 0, 0);
	eqds_sched_set_share(&f.s, &f.b.node, 1, 2, 0, 0);
	f.want(&f.b, ~0ull);
	f.want(&f.a, quanta_10ms);
	u64 t = run(&f, 0, 5 * MS);
	EXPECT_EQ(f.b.granted, 0u) << "the low level got credit while the high one wanted it";
	EXPECT_GT(f.a.granted, quanta_10ms / 3);
	t = run(&f, t, 20 * MS);
	EXPECT_EQ(f.a.granted, quanta_10ms);
	EXPECT_FALSE(f.a.node.queued);
	// b has had the rate since a finished, about 10 ms of it.
	EXPECT_NEAR((double)f.b.granted, (double)(due(1000000000ull, 20 * MS) / Q - quanta_10ms),
		    4.0 + BURST / Q);
	expect_consistent(&f.s);
}

// Weights are shares: 3:1 over many rounds, within one round's worth.
TEST(PacerPolicy, WeightedSharesThreeToOne)
{
	fixture f(1000000000ull);

	eqds_sched_set_share(&f.s, &f.a.node, 3 * EQDS_SCHED_TURN_QUANTA, 1, 0, 0);
	eqds_sched_set_share(&f.s, &f.b.node, EQDS_SCHED_TURN_QUANTA, 1, 0, 0);
	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	run(&f, 0, 100 * MS);
	EXPECT_NEAR((double)f.a.granted / (double)f.b.granted, 3.0, 0.05);
}

// A capped sender is pulled at its cap, alone or beside others; the rest of
// the rate goes to the others; the timer is asked to wait, not to spin.
TEST(PacerPolicy, RateCapHoldsASenderToItsCap)
{
	const u64 rate = 1000000000ull, cap = 200000000ull;	// 1 Gb/s, 200 Mb/s
	fixture f(rate);

	eqds_sched_set_share(&f.s, &f.a.node, 1, 1, cap, 0);
	f.want(&f.a, ~0ull);
	u64 t = run(&f, 0, 100 * MS);
	EXPECT_NEAR((double)f.a.granted * Q, (double)due(cap, 100 * MS), 2.0 * Q);
	// Alone and waiting for its cap: the next event is when it is due.
	expect_consistent(&f.s);
	ASSERT_TRUE(f.a.node.throttled);
	u64 next = eqds_sched_next_ns(&f.s, f.s.last_ns);
	EXPECT_EQ(next, f.a.node.next_ns - f.s.last_ns);
	EXPECT_GT(next, 0u);

	f.want(&f.b, ~0ull);
	u64 a0 = f.a.granted, t0 = t;
	t = run(&f, t, t + 100 * MS);
	EXPECT_NEAR((double)(f.a.granted - a0) * Q, (double)due(cap, t - t0), 2.0 * Q);
	EXPECT_NEAR((double)(f.a.granted - a0 + f.b.granted) * Q, (double)due(rate, t - t0),
		    4.0 * Q + BURST);
	expect_consistent(&f.s);
}

// Waiting for a cap saves up at most one full grant: a capped sender idle
// for a while gets no more of a burst when it comes back.
TEST(PacerPolicy, CapSavesNothingUp)
{
	fixture f(1000000000ull);

	eqds_sched_set_share(&f.s, &f.a.node, 1, 1, 100000000ull, 0);
	f.want(&f.a, 4);
	u64 t = run(&f, 0, 2 * MS);
	EXPECT_EQ(f.a.granted, 4u);
	EXPECT_FALSE(f.a.node.queued);
	t = run(&f, t, 50 * MS);
	f.want(&f.a, ~0ull);
	f.a.grants = 0;
	u64 a0 = f.a.granted;
	run(&f, t, t + 1 * MS);
	// 1 ms at 100 Mb/s is 12500 bytes: 3 quanta of 4096, a 4th begun, and
	// at most one full grant saved up.
	EXPECT_LE(f.a.granted - a0, 4u + EQDS_SCHED_TURN_QUANTA);
}

// Changing the share of a sender on the list moves it at once.
TEST(PacerPolicy, SetShareMovesAQueuedSender)
{
	fixture f(1000000000ull);

	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	f.s.budget = Q;
	EXPECT_EQ(eqds_sched_peek(&f.s), &f.a.node);
	eqds_sched_set_share(&f.s, &f.b.node, 1, 0, 0, 0);
	EXPECT_EQ(eqds_sched_peek(&f.s), &f.b.node);
	expect_consistent(&f.s);
	// A cap on the head: it waits (granted its fill), a goes on.
	eqds_sched_set_share(&f.s, &f.b.node, 1, 0, 1000000ull, 0);
	eqds_sched_granted(&f.s, &f.b.node, 1, ~0u);
	f.s.budget = Q;
	EXPECT_EQ(eqds_sched_peek(&f.s), &f.a.node);
	EXPECT_TRUE(f.b.node.throttled);
	expect_consistent(&f.s);
	// Lifting the cap puts it straight back, ahead of the lower level.
	eqds_sched_set_share(&f.s, &f.b.node, 1, 0, 0, f.s.last_ns);
	EXPECT_FALSE(f.b.node.throttled);
	EXPECT_EQ(eqds_sched_peek(&f.s), &f.b.node);
	// Out-of-range level: the lowest.
	eqds_sched_set_share(&f.s, &f.c.node, 0, 200, 0, 0);
	EXPECT_EQ(f.c.node.prio, EQDS_SCHED_PRIOS - 1);
	EXPECT_EQ(f.c.node.weight, 1u);
	eqds_sched_deactivate(&f.s, &f.b.node);
	expect_consistent(&f.s);
}

// Random operations, shares included, over time: the bookkeeping holds and
// every sender with demand keeps being served.
TEST(PacerPolicy, RandomSharesKeepTheListsConsistent)
{
	std::mt19937 rng(11);
	fixture f(1000000000ull);
	sender *x[3] = { &f.a, &f.b, &f.c };
	u64 t = 0;

	for (int i = 0; i < 20000; i++) {
		sender *n = x[rng() % 3];

		switch (rng() % 4) {
		case 0:
			f.want(n, 1 + rng() % 50);
			break;
		case 1:
			eqds_sched_deactivate(&f.s, &n->node);
			n->demand = 0;
			break;
		case 2:
			eqds_sched_set_share(&f.s, &n->node, 1 + rng() % 16, rng() % 5,
					     rng() % 2 ? 0 : 10000000ull * (1 + rng() % 50), t);
			break;
		case 3:
			t += rng() % (200 * US);
			serve(&f.s, t);
			break;
		}
		expect_consistent(&f.s);
		if (HasFatalFailure())
			return;
	}
	// No demand is stranded: run long enough to serve it all.
	for (auto *n : x)
		if (n->node.queued && n->demand == ~0ull)
			eqds_sched_deactivate(&f.s, &n->node);
	run(&f, t, t + 2 * SEC, 100 * US);
	for (auto *n : x) {
		EXPECT_FALSE(n->node.queued);
		EXPECT_EQ(n->demand, 0u);
	}
}

// ---- the pacer's runs (grant.h), as the module's timer runs them ----

namespace {

// Receive states with demand, as the glue's demand() leaves them.
struct puller {
	struct eqds_sched s;
	std::vector<struct eqds_rx> rx;

	puller(u32 n, u64 rate, u32 burst, u32 window = 64) : rx(n)
	{
		eqds_sched_init(&s, rate, Q, burst, 0);
		for (u32 i = 0; i < n; i++)
			eqds_rx_init(&rx[i], 100 + i, window, EQDS_SCHED_TURN_QUANTA);
	}

	// Want n pulls more than sent (the absolute statement for it).
	void demand(u32 i, u32 n)
	{
		struct eqds_pullgen *g = &rx[i].pulls;
		u32 want;

		n = std::min<u32>(n, EQDS_DEMAND_MAX_QUANTA);
		eqds_pullgen_demand(g, (u16)(g->pull_no + n), false);
		want = eqds_pullgen_outstanding(&rx[i].pulls);
		eqds_sched_set_backlog(&s, &rx[i].asl, want);
		if (want)
			eqds_sched_activate(&s, &rx[i].asl);
	}

	// The glue's kick: the clock starts when the first sender joins.
	void kick(u64 now)
	{
		eqds_sched_advance(&s, now);
	}

	u32 index(const struct eqds_rx *r) const
	{
		return (u32)(r - rx.data());
	}
};

} // namespace

TEST(PacerRun, GrantsNumberPullsAndKeepTheBacklog)
{
	puller p(2, RATE, BURST);
	struct eqds_pacer_plan plan;
	u32 last[2] = { 0, 0 }, got[2] = { 0, 0 };

	p.demand(0, 20);
	p.demand(1, 5);
	p.kick(0);
	EXPECT_EQ(p.s.backlog, 25u);
	// A whole burst due: 16 quanta, in turns of at most 8.
	eqds_pacer_run(&p.s, 1 * SEC, 10 * US, &plan);
	ASSERT_EQ(plan.ngrants, 3u);
	u32 total = 0;

	for (u32 i = 0; i < plan.ngrants; i++) {
		const struct eqds_grant &g = plan.grant[i];
		u32 k = p.index(g.rx);

		ASSERT_LT(k, 2u);
		EXPECT_EQ(g.epoch, 100 + k);
		EXPECT_GE(g.quanta, 1u);
		EXPECT_LE(g.quanta, (u32)EQDS_SCHED_TURN_QUANTA);
		// Numbered in order, each grant up to its last pull.
		EXPECT_EQ(g.pull_no, last[k] + g.quanta);
		last[k] = g.pull_no;
		got[k] += g.quanta;
		total += g.quanta;
	}
	EXPECT_EQ(total, BURST / Q);
	EXPECT_EQ(got[1], 5u);		// its demand met: off the list
	EXPECT_EQ(got[0], 11u);
	EXPECT_EQ(p.rx[0].pulls.pull_no, last[0]);
	EXPECT_EQ(p.rx[1].pulls.pull_no, last[1]);
	EXPECT_FALSE(p.rx[1].asl.queued);
	EXPECT_EQ(p.s.backlog, 9u);
	EXPECT_EQ(plan.busy_us, eqds_sched_busy_us(&p.s));
	EXPECT_NE(plan.busy_us, 0);
	EXPECT_TRUE(plan.rearm);
	// The budget is spent: the next quantum's time, or the floor.
	EXPECT_GT(eqds_sched_next_ns(&p.s, 1 * SEC), 0u);
	EXPECT_EQ(plan.next_ns,
		  1 * SEC + std::max<u64>(eqds_sched_next_ns(&p.s, 1 * SEC), 10 * US));
	eqds_pacer_run(&p.s, 1 * SEC, 0, &plan);
	EXPECT_EQ(plan.ngrants, 0u);
	EXPECT_EQ(plan.next_ns, 1 * SEC + eqds_sched_next_ns(&p.s, 1 * SEC));
}

TEST(PacerRun, AtMostSixteenPullsARunTheRestAtOnce)
{
	puller p(40, RATE, 64 * Q);
	struct eqds_pacer_plan plan;

	for (u32 i = 0; i < 40; i++)
		p.demand(i, 1);
	p.kick(0);
	eqds_pacer_run(&p.s, 1 * SEC, 10 * US, &plan);
	EXPECT_EQ(plan.ngrants, (u32)EQDS_PACER_GRANTS);
	// Round robin: each sender once, in the order they joined.
	for (u32 i = 0; i < plan.ngrants; i++) {
		EXPECT_EQ(p.index(plan.grant[i].rx), i);
		EXPECT_EQ(plan.grant[i].quanta, 1u);
	}
	// The budget left is due at once: after the floor.
	EXPECT_GE(p.s.budget, (u64)Q);
	EXPECT_TRUE(plan.rearm);
	EXPECT_EQ(plan.next_ns, 1 * SEC + 10 * US);
	eqds_pacer_run(&p.s, 1 * SEC + 10 * US, 10 * US, &plan);
	EXPECT_EQ(plan.ngrants, (u32)EQDS_PACER_GRANTS);
	EXPECT_EQ(p.index(plan.grant[0].rx), 16u);
}

TEST(PacerRun, StopsWhenEveryDemandIsMet)
{
	puller p(1, RATE, BURST);
	struct eqds_pacer_plan plan;

	p.demand(0, 3);
	p.kick(0);
	eqds_pacer_run(&p.s, 1 * SEC, 10 * US, &plan);
	ASSERT_EQ(plan.ngrants, 1u);
	EXPECT_EQ(plan.grant[0].quanta, 3u);
	EXPECT_EQ(plan.grant[0].pull_no, 3u);
	EXPECT_FALSE(plan.rearm);
	EXPECT_EQ(plan.busy_us, 0);
	EXPECT_EQ(p.s.active, 0u);
	// Nothing on the list: a run grants nothing and stops again.
	eqds_pacer_run(&p.s, 2 * SEC, 10 * US, &plan);
	EXPECT_EQ(plan.ngrants, 0u);
	EXPECT_FALSE(plan.rearm);
}

// The run hands the late bytes over once; the scheduler starts again at 0.
TEST(PacerRun, TakesTheLateBytes)
{
	puller p(1, RATE, BURST, 1000);
	struct eqds_pacer_plan plan;

	p.demand(0, 1000);
	p.kick(0);
	eqds_pacer_run(&p.s, 10 * MS, 10 * US, &plan);
	EXPECT_GT(plan.late_bytes, 0u);
	EXPECT_LE(plan.late_bytes, due(RATE, 10 * MS));
	EXPECT_EQ(p.s.late_bytes, 0u);
	eqds_pacer_run(&p.s, 10 * MS + 10 * US, 10 * US, &plan);
	EXPECT_EQ(plan.late_bytes, 0u);
}

// Run at the times the plan asks: pulls at the rate, one sender or many.
TEST(PacerRun, RunsWhenAskedPullAtTheRate)
{
	for (u32 n : { 1u, 3u, 40u }) {
		puller p(n, RATE, BURST, 0xffff);
		struct eqds_pacer_plan plan;
		u64 now = 0, bytes = 0, runs = 0;

		for (u32 i = 0; i < n; i++)
			p.demand(i, 0xffff);
		eqds_pacer_run(&p.s, now, 10 * US, &plan);
		while (now < 20 * MS) {
			ASSERT_TRUE(plan.rearm);
			ASSERT_GE(plan.next_ns, now + 10 * US);
			now = plan.next_ns;
			eqds_pacer_run(&p.s, now, 10 * US, &plan);
			for (u32 i = 0; i < plan.ngrants; i++)
				bytes += (u64)plan.grant[i].quanta * Q;
			runs++;
			for (u32 i = 0; i < n; i++)
				p.demand(i, 0xffff);
		}
		EXPECT_NEAR((double)bytes, (double)due(RATE, now), BURST) << n;
		EXPECT_EQ(plan.late_bytes, 0u);
		// Runs never closer than the floor: at most 100 a millisecond.
		EXPECT_LE(runs, now / (10 * US) + 1);
	}
}

TEST(GrantPull, ThePullPacket)
{
	puller p(1, RATE, BURST);
	struct eqds_pacer_plan plan;
	struct eqds_pkt pkt, back;
	u8 path = 0xff, buf[EQDS_MAX_HLEN];
	u32 isn = eqds_isn(100);

	p.demand(0, 5);
	p.kick(0);
	// Data arrived with a hole: the PULL carries the ack and its SACK.
	EXPECT_EQ(eqds_rx_data(&p.rx[0], isn, 1, 0), EQDS_RX_DELIVER);
	EXPECT_EQ(eqds_rx_data(&p.rx[0], isn + 2, 1, 0), EQDS_RX_HOLD);
	p.rx[0].since_ack = 2;
	eqds_pacer_run(&p.s, 1 * SEC, 10 * US, &plan);
	ASSERT_EQ(plan.ngrants, 1u);
	ASSERT_TRUE(eqds_grant_pull(&p.rx[0], &plan.grant[0], Q, 1234, &path, &pkt));
	EXPECT_EQ(pkt.type, EQDS_TYPE_CTRL);
	EXPECT_EQ(pkt.flags, EQDS_F_SYN | EQDS_F_ACK | EQDS_F_PULL | EQDS_F_SACK);
	EXPECT_EQ(pkt.epoch, 100u);
	EXPECT_EQ(pkt.path_id, 0xff);
	EXPECT_EQ(path, 0);		// the next PULL takes the next path
	EXPECT_EQ(pkt.ctrl.ack, isn + 1);
	EXPECT_EQ(pkt.ctrl.sack, eqds_rx_sack(&p.rx[0]));
	EXPECT_NE(pkt.ctrl.sack, 0u);
	EXPECT_EQ(pkt.ctrl.pull_no, 5u);
	EXPECT_EQ(eqds_quantum_bytes(pkt.ctrl.quantum), Q);
	EXPECT_EQ(pkt.ctrl.busy_us, 1234);
	EXPECT_EQ(p.rx[0].since_ack, 0u);	// it acknowledged
	// What goes on the wire is valid and reads back the same.
	int n = eqds_encode(buf, sizeof(buf), &pkt);

	ASSERT_GT(n, 0) << eqds_decode_err_name(n);
	ASSERT_EQ(eqds_decode(buf, (u32)n, &back), n);
	EXPECT_EQ(back.flags, pkt.flags);
	EXPECT_EQ(back.ctrl.pull_no, pkt.ctrl.pull_no);
	EXPECT_EQ(back.ctrl.ack, pkt.ctrl.ack);
	EXPECT_EQ(back.ctrl.sack, pkt.ctrl.sack);

	// Nothing held: no SACK.
	eqds_rx_init(&p.rx[0], 100, 64, EQDS_SCHED_TURN_QUANTA);
	ASSERT_TRUE(eqds_grant_pull(&p.rx[0], &plan.grant[0], Q, 0, &path, &pkt));
	EXPECT_EQ(pkt.flags, EQDS_F_SYN | EQDS_F_ACK | EQDS_F_PULL);
	EXPECT_EQ(pkt.ctrl.sack, 0u);
	EXPECT_EQ(pkt.path_id, 0);
	EXPECT_EQ(pkt.next_proto, 0);

	// A CE-marked arrival: the next PULL echoes its path id, once.
	eqds_rx_ce(&p.rx[0], 77);
	ASSERT_TRUE(eqds_grant_pull(&p.rx[0], &plan.grant[0], Q, 0, &path, &pkt));
	EXPECT_EQ(pkt.next_proto, EQDS_CO_CE);
	EXPECT_EQ(pkt.path_id, 77);
	EXPECT_EQ(path, 2);
	n = eqds_encode(buf, sizeof(buf), &pkt);
	ASSERT_GT(n, 0) << eqds_decode_err_name(n);
	ASSERT_EQ(eqds_decode(buf, (u32)n, &back), n);
	EXPECT_EQ(back.next_proto, EQDS_CO_CE);
	EXPECT_EQ(back.path_id, 77);
	ASSERT_TRUE(eqds_grant_pull(&p.rx[0], &plan.grant[0], Q, 0, &path, &pkt));
	EXPECT_EQ(pkt.next_proto, 0);
	EXPECT_EQ(pkt.path_id, 2);

	// Ids that our data to the sender avoids: the PULL skips them too.
	u32 bad[EQDS_PATHS / 32] = { 0x38 };	// ids 3, 4, 5

	eqds_rx_avoid(&p.rx[0], bad);
	ASSERT_TRUE(eqds_grant_pull(&p.rx[0], &plan.grant[0], Q, 0, &path, &pkt));
	EXPECT_EQ(pkt.path_id, 6);
	EXPECT_EQ(path, 7);
}

// A grant for an epoch the tunnel has left sends nothing and takes no path.
TEST(GrantPull, StaleEpochSendsNothing)
{
	puller p(1, RATE, BURST);
	struct eqds_pacer_plan plan;
	struct eqds_pkt pkt;
	u8 path = 7;

	p.demand(0, 5);
	p.kick(0);
	eqds_pacer_run(&p.s, 1 * SEC, 10 * US, &plan);
	ASSERT_EQ(plan.ngrants, 1u);
	eqds_sched_deactivate(&p.s, &p.rx[0].asl);
	eqds_rx_init(&p.rx[0], 101, 64, EQDS_SCHED_TURN_QUANTA);
	p.rx[0].since_ack = 3;
	EXPECT_FALSE(eqds_grant_pull(&p.rx[0], &plan.grant[0], Q, 0, &path, &pkt));
	EXPECT_EQ(path, 7);
	EXPECT_EQ(p.rx[0].since_ack, 3u);
}

TEST(PacerRate, ConfiguredAutoAndBound)
{
	const u64 G = 1000000000ull;

	EXPECT_EQ(eqds_pacer_rate(3 * G, 10 * G, 5, 0), 3 * G);	// as set
	EXPECT_EQ(eqds_pacer_rate(0, 10 * G, 5, 0), 9500000000ull);	// auto
	EXPECT_EQ(eqds_pacer_rate(0, 10 * G, 0, 0), 10 * G);
	EXPECT_EQ(eqds_pacer_rate(0, 10 * G, 100, 0), 0u);
	EXPECT_EQ(eqds_pacer_rate(0, 10 * G, 250, 0), 0u);	// at most all of it
	EXPECT_EQ(eqds_pacer_rate(0, 10 * G, 5, 2 * G), 2 * G);	// the bound
	EXPECT_EQ(eqds_pacer_rate(3 * G, 10 * G, 5, 2 * G), 2 * G);
	EXPECT_EQ(eqds_pacer_rate(3 * G, 10 * G, 5, 4 * G), 3 * G);
	// The largest configurable rate (u32 Mbit/s) does not overflow.
	EXPECT_EQ(eqds_pacer_rate(0, 0xffffffffull * 1000000, 5, 0),
		  0xffffffffull * 1000000 / 100 * 95);
}

TEST(PacerRate, MaxBurstIsOneLateMillisecondAtLeastOneTurn)
{
	EXPECT_EQ(eqds_pacer_max_burst(10000000000ull, 1536), 1250000u);
	EXPECT_EQ(eqds_pacer_max_burst(100000000ull, 1536), 12500u);
	EXPECT_EQ(eqds_pacer_max_burst(10000000ull, 1536), 8u * 1536);	// 1250 B
	EXPECT_EQ(eqds_pacer_max_burst(0, 1536), 8u * 1536);
	// What the rate earns over EQDS_PACER_LATE_NS, rounded down, for any rate.
	std::mt19937_64 rng(5);

	for (int i = 0; i < 10000; i++) {
		u64 bps = rng() >> (rng() % 40 + 14);
		u64 late = (u64)((unsigned __int128)(bps / 8) * EQDS_PACER_LATE_NS / SEC);

		EXPECT_EQ(eqds_pacer_max_burst(bps, Q),
			  (u32)std::min<u64>(std::max<u64>(late, 8 * Q), 0xffffffffu)) << bps;
	}
}

TEST(PacerRate, SetRateMovesTheCeilingAndTheBound)
{
	struct eqds_sched s;
	struct eqds_cc cc;
	struct eqds_cc_params ccp;

	eqds_cc_default_params(&ccp);
	eqds_cc_init(&cc, &ccp, 10000000000ull);
	eqds_sched_init(&s, 10000000000ull, Q, eqds_pacer_max_burst(10000000000ull, Q), 0);
	eqds_pacer_set_rate(&s, &cc, 1000000000ull, false, 1 * MS);
	EXPECT_EQ(s.rate_bps, 1000000000ull);
	EXPECT_EQ(cc.max_bps, 1000000000ull);
	EXPECT_EQ(s.max_burst, 125000u);
	EXPECT_EQ(s.last_ns, 1 * MS);		// accounted at the old rate first
	// Reacting: the reaction's rate, which is at its ceiling here.
	eqds_pacer_set_rate(&s, &cc, 2000000000ull, true, 2 * MS);
	EXPECT_EQ(s.rate_bps, eqds_cc_rate(&cc));
	EXPECT_EQ(s.rate_bps, 2000000000ull);
}

// Marked data lowers the pacer's rate; unmarked data raises it back.
TEST(PacerRate, DataMarksMoveTheRate)
{
	struct eqds_sched s;
	struct eqds_cc cc;
	struct eqds_cc_params ccp;
	u64 t = 0, bytes = 0, ce_bytes = 0;

	eqds_cc_default_params(&ccp);
	eqds_cc_init(&cc, &ccp, 10000000000ull);
	eqds_sched_init(&s, 10000000000ull, Q, BURST, 0);
	for (int i = 0; i < 100; i++, t += 20 * US) {
		bytes += 1500;
		ce_bytes += 1500;
		eqds_pacer_observe(&s, &cc, bytes, ce_bytes, t);
	}
	EXPECT_LT(s.rate_bps, 10000000000ull);
	EXPECT_EQ(s.rate_bps, eqds_cc_rate(&cc));
	u64 low = s.rate_bps;

	for (int i = 0; i < 100; i++, t += 20 * US) {
		bytes += 1500;
		eqds_pacer_observe(&s, &cc, bytes, ce_bytes, t);
	}
	EXPECT_GT(s.rate_bps, low);
	EXPECT_EQ(s.rate_bps, eqds_cc_rate(&cc));
}

TEST(PullGen, GrantNumbersSeveralAtOnce)
{
	struct eqds_pullgen g, h;

	eqds_pullgen_init(&g, 64);
	eqds_pullgen_init(&h, 64);
	eqds_pullgen_demand(&g, 20, false);
	eqds_pullgen_demand(&h, 20, false);
	EXPECT_EQ(eqds_pullgen_grant(&g, 0), 0u);
	EXPECT_EQ(eqds_pullgen_grant(&g, 8), 8u);
	for (int i = 0; i < 8; i++)
		eqds_pullgen_next(&h);
	EXPECT_EQ(g.pull_no, h.pull_no);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 12u);
	g.pull_no = 0xfffffffe;		// numbers wrap
	EXPECT_EQ(eqds_pullgen_grant(&g, 3), 1u);
}

// Scaled turns (eqds_sched_set_turn()): as many base turns as the turn
// time carries at the rate, up to EQDS_SCHED_MAX_SCALE; none without one.
TEST(PacerTurns, TurnsGrowWithTheRateUpToTheTurnTime)
{
	fixture f(RATE);

	EXPECT_EQ(eqds_sched_turn(&f.s), (u32)EQDS_SCHED_TURN_QUANTA);
	eqds_sched_set_turn(&f.s, 50 * US);
	// 9.7 Gb/s carries 60,625 bytes in 50 us: one base turn of 8 x 4096.
	EXPECT_EQ(eqds_sched_turn(&f.s), (u32)EQDS_SCHED_TURN_QUANTA);
	eqds_sched_set_rate(&f.s, 20000000000ull, 0);	// 125,000 bytes: 3 turns
	EXPECT_EQ(eqds_sched_turn(&f.s), 3u * EQDS_SCHED_TURN_QUANTA);
	eqds_sched_set_rate(&f.s, 40000000000ull, 0);	// 250,000 bytes: 7 turns
	EXPECT_EQ(eqds_sched_turn(&f.s), 7u * EQDS_SCHED_TURN_QUANTA);
	eqds_sched_set_rate(&f.s, 400000000000ull, 0);
	EXPECT_EQ(eqds_sched_turn(&f.s), (u32)(EQDS_SCHED_MAX_SCALE * EQDS_SCHED_TURN_QUANTA));
	eqds_sched_set_rate(&f.s, 0, 0);
	EXPECT_EQ(eqds_sched_turn(&f.s), (u32)EQDS_SCHED_TURN_QUANTA);
	eqds_sched_set_rate(&f.s, 40000000000ull, 0);
	eqds_sched_set_turn(&f.s, 0);
	EXPECT_EQ(eqds_sched_turn(&f.s), (u32)EQDS_SCHED_TURN_QUANTA);
}

// The pacer's timer asks for a whole turn: a greedy sender at 40 Gb/s gets
// pulls of 7 base turns each, a little over one per turn time, and the rate
// is kept exactly (as many pulls as without scaled turns would be 7 times
// more).
TEST(PacerTurns, AGreedySenderIsPulledAWholeTurnAtATime)
{
	const u64 rate = 40000000000ull;
	fixture f(rate, eqds_pacer_max_burst(rate, Q));
	u64 t = 0, bytes = 0, waits = 0;

	eqds_sched_set_turn(&f.s, 50 * US);
	eqds_sched_set_share(&f.s, &f.a.node, EQDS_SCHED_TURN_QUANTA, 1, 0, 0);
	f.want(&f.a, ~0ull);
	eqds_sched_advance(&f.s, t);	/* as eqds_pacer_wake() does */
	while (t < 20 * MS) {
		u64 wait = std::max<u64>(eqds_sched_next_ns(&f.s, t), 10 * US);

		EXPECT_LE(wait, 50 * US);
		t += wait;
		waits++;
		bytes += serve(&f.s, t);
	}
	EXPECT_NEAR((double)bytes, (double)due(rate, t), 56.0 * Q);
	// Every pull carries a whole turn, and the timer runs once per pull.
	EXPECT_EQ(f.a.granted, 56 * f.a.grants);
	EXPECT_EQ(waits, f.a.grants);
}

// Weights stay shares when turns are scaled: 3:1.
TEST(PacerTurns, WeightsKeepTheirShares)
{
	fixture f(40000000000ull, eqds_pacer_max_burst(40000000000ull, Q));

	eqds_sched_set_turn(&f.s, 50 * US);
	eqds_sched_set_share(&f.s, &f.a.node, 3 * EQDS_SCHED_TURN_QUANTA, 1, 0, 0);
	eqds_sched_set_share(&f.s, &f.b.node, EQDS_SCHED_TURN_QUANTA, 1, 0, 0);
	f.want(&f.a, ~0ull);
	f.want(&f.b, ~0ull);
	run(&f, 0, 100 * MS);
	EXPECT_NEAR((double)f.a.granted / (double)f.b.granted, 3.0, 0.05);
	expect_consistent(&f.s);
}

// A sender that wants less than a turn is not kept waiting for a turn's
// budget: the wait is for what it wants.
TEST(PacerTurns, SmallDemandWaitsOnlyForItself)
{
	const u64 rate = 40000000000ull;
	fixture f(rate, eqds_pacer_max_burst(rate, Q));

	eqds_sched_set_turn(&f.s, 50 * US);
	serve(&f.s, 1 * MS);
	f.want(&f.a, 3);
	eqds_sched_advance(&f.s, 1 * MS);
	u64 wait = eqds_sched_next_ns(&f.s, 1 * MS);
	EXPECT_LE(wait, (u64)3 * Q * 8 * SEC / rate + 1);
	EXPECT_EQ(serve(&f.s, 1 * MS + wait), 3ull * Q);
	EXPECT_FALSE(f.a.node.queued);
}
