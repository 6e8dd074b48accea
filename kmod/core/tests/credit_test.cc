// SPDX-License-Identifier: GPL-2.0
// Credit accounting (kmod/core/credit.c): pulls lost, reordered, duplicated,
// forged and wrapping; taking credit; pull targets; the receiver's pull
// numbering; and an end-to-end run over a lossy, reordering channel.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "credit.h"

namespace {

constexpr u32 MTU = 1500;
constexpr u32 Q = 4096;			// bytes per pull
constexpr u32 WINDOW = 150 * Q;		// 150 pulls

struct eqds_credit fresh(u32 window = WINDOW, u32 initial = 0)
{
	struct eqds_credit c;

	eqds_credit_init(&c, window, Q, initial);
	return c;
}

} // namespace

TEST(Credit, InitCapsInitialAtWindow)
{
	struct eqds_credit c = fresh(WINDOW, 0);

	EXPECT_EQ(c.credit, 0u);
	EXPECT_EQ(c.pull_hi, 0u);
	EXPECT_EQ(c.window, WINDOW);
	EXPECT_EQ(c.quantum, Q);
	EXPECT_EQ(c.stale_pulls, 0u);
	EXPECT_EQ(c.clamped_pulls, 0u);
	EXPECT_EQ(c.refused_bytes, 0u);

	c = fresh(WINDOW, 1000);
	EXPECT_EQ(c.credit, 1000u);
	c = fresh(WINDOW, 0xffffffffu);	// burst mode asks for a window
	EXPECT_EQ(c.credit, WINDOW);
}

TEST(Credit, InOrderPullsGainOneQuantumEach)
{
	struct eqds_credit c = fresh();

	for (u32 n = 1; n <= 10; n++) {
		EXPECT_EQ(eqds_credit_pull(&c, n, Q), Q);
		EXPECT_EQ(c.credit, n * Q);
		EXPECT_EQ(c.pull_hi, n);
	}
	EXPECT_EQ(c.stale_pulls, 0u);
}

TEST(Credit, LostPullsAreMadeUpByTheNextOne)
{
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_pull(&c, 1, Q), Q);
	// Pulls 2..6 lost.
	EXPECT_EQ(eqds_credit_pull(&c, 7, Q), 6 * Q);
	EXPECT_EQ(c.credit, 7 * Q);
	EXPECT_EQ(c.pull_hi, 7u);
	EXPECT_EQ(c.refused_bytes, 0u);
	EXPECT_EQ(c.clamped_pulls, 0u);
}

TEST(Credit, ReorderedAndDuplicatePullsAreIgnored)
{
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_pull(&c, 3, Q), 3 * Q);
	EXPECT_EQ(eqds_credit_pull(&c, 1, Q), 0u);	// late
	EXPECT_EQ(eqds_credit_pull(&c, 2, Q), 0u);	// late
	EXPECT_EQ(eqds_credit_pull(&c, 3, Q), 0u);	// duplicate
	EXPECT_EQ(eqds_credit_pull(&c, 0, Q), 0u);	// the initial number
	EXPECT_EQ(c.credit, 3 * Q);
	EXPECT_EQ(c.pull_hi, 3u);
	EXPECT_EQ(c.stale_pulls, 4u);
	EXPECT_EQ(eqds_credit_pull(&c, 4, Q), Q);
	EXPECT_EQ(c.credit, 4 * Q);
}

TEST(Credit, EveryPermutationGivesTheSameCredit)
{
	std::vector<u32> order = { 1, 2, 3, 4, 5, 6 };

	do {
		struct eqds_credit c = fresh();
		u32 total = 0;

		for (u32 n : order)
			total += eqds_credit_pull(&c, n, Q);
		ASSERT_EQ(total, 6 * Q);
		ASSERT_EQ(c.credit, 6 * Q);
		ASSERT_EQ(c.pull_hi, 6u);
	} while (std::next_permutation(order.begin(), order.end()));
}

TEST(Credit, PullNumbersWrapAt2To32)
{
	struct eqds_credit c = fresh();

	c.pull_hi = 0xfffffffdu;	// long-lived tunnel
	EXPECT_EQ(eqds_credit_pull(&c, 0xfffffffeu, Q), Q);
	EXPECT_EQ(eqds_credit_pull(&c, 1u, Q), 3 * Q);	// ffffffff, 0 lost
	EXPECT_EQ(c.pull_hi, 1u);
	EXPECT_EQ(eqds_credit_pull(&c, 0xffffffffu, Q), 0u);	// late
	EXPECT_EQ(eqds_credit_pull(&c, 0u, Q), 0u);		// late
	EXPECT_EQ(c.credit, 4 * Q);
	EXPECT_EQ(c.stale_pulls, 2u);
}

TEST(Credit, ForgedHugeJumpIsClampedToTheWindow)
{
	struct eqds_credit c = fresh();
	u32 gain;

	EXPECT_EQ(eqds_credit_pull(&c, 5, Q), 5 * Q);
	gain = eqds_credit_pull(&c, 5 + 1000000000u, Q);
	EXPECT_EQ(c.credit, WINDOW);
	EXPECT_EQ(gain, WINDOW - 5 * Q);
	EXPECT_EQ(c.clamped_pulls, 1u);
	// Every byte of the jump is accounted for, granted or refused.
	EXPECT_EQ((u64)gain + c.refused_bytes, 1000000000ull * Q);
	// The number is accepted, so the sender is in step with it afterwards.
	EXPECT_EQ(c.pull_hi, 5 + 1000000000u);
	// Pulls below it are stale now.
	EXPECT_EQ(eqds_credit_pull(&c, 6, Q), 0u);
	EXPECT_EQ(c.stale_pulls, 1u);
}

TEST(Credit, JumpOfExactlyAWindowIsNotClamped)
{
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_pull(&c, 150, Q), WINDOW);
	EXPECT_EQ(c.clamped_pulls, 0u);
	EXPECT_EQ(c.refused_bytes, 0u);

	c = fresh();
	EXPECT_EQ(eqds_credit_pull(&c, 151, Q), WINDOW);
	EXPECT_EQ(c.clamped_pulls, 1u);
	EXPECT_EQ(c.refused_bytes, (u64)Q);
}

TEST(Credit, HalfSpaceJumpIsStale)
{
	struct eqds_credit c = fresh();

	// 2^31 ahead is indistinguishable from 2^31 behind: ignored.
	EXPECT_EQ(eqds_credit_pull(&c, 0x80000000u, Q), 0u);
	EXPECT_EQ(c.stale_pulls, 1u);
	EXPECT_EQ(c.pull_hi, 0u);
	// 2^31 - 1 ahead is a (clamped) jump.
	EXPECT_EQ(eqds_credit_pull(&c, 0x7fffffffu, Q), WINDOW);
	EXPECT_EQ(c.clamped_pulls, 1u);
}

TEST(Credit, CreditNeverExceedsTheWindow)
{
	struct eqds_credit c = fresh(10 * Q);

	for (u32 n = 1; n <= 10; n++)
		EXPECT_EQ(eqds_credit_pull(&c, n, Q), Q);
	EXPECT_EQ(eqds_credit_pull(&c, 11, Q), 0u);	// full
	EXPECT_EQ(c.credit, 10 * Q);
	EXPECT_EQ(c.refused_bytes, (u64)Q);
	EXPECT_EQ(c.clamped_pulls, 0u);
	EXPECT_EQ(c.pull_hi, 11u);
	ASSERT_TRUE(eqds_credit_take(&c, MTU));
	EXPECT_EQ(eqds_credit_pull(&c, 12, Q), MTU);	// tops up exactly
	EXPECT_EQ(c.credit, 10 * Q);
}

TEST(Credit, ZeroQuantumChangesNothing)
{
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_pull(&c, 9, 0), 0u);
	EXPECT_EQ(c.pull_hi, 0u);
	EXPECT_EQ(c.quantum, Q);
	EXPECT_EQ(c.stale_pulls, 0u);
	EXPECT_EQ(eqds_credit_pull(&c, 9, Q), 9 * Q);
}

TEST(Credit, QuantumFollowsTheLatestPull)
{
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_pull(&c, 2, 1024), 2048u);
	EXPECT_EQ(c.quantum, 1024u);
	// Pulls skipped before this one are paid at its quantum.
	EXPECT_EQ(eqds_credit_pull(&c, 4, 9000), 18000u);
	EXPECT_EQ(c.quantum, 9000u);
	EXPECT_EQ(c.credit, 2048u + 18000u);
}

TEST(Credit, ClampScalesWithTheQuantum)
{
	// A 64-byte quantum in a window of 150 * 4096 allows jumps of 9600.
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_pull(&c, 9600, 64), 9600u * 64);
	EXPECT_EQ(c.clamped_pulls, 0u);
	ASSERT_TRUE(eqds_credit_take(&c, c.credit));
	EXPECT_EQ(eqds_credit_pull(&c, 9600 + 9601, 64), 9600u * 64);
	EXPECT_EQ(c.clamped_pulls, 1u);
	// A quantum bigger than the window still allows one pull.
	c = fresh(1000);
	EXPECT_EQ(eqds_credit_pull(&c, 1, 4096), 1000u);
	EXPECT_EQ(c.clamped_pulls, 0u);
	EXPECT_EQ(c.refused_bytes, 3096u);
}

TEST(Credit, Take)
{
	struct eqds_credit c = fresh();

	EXPECT_FALSE(eqds_credit_take(&c, 1));
	EXPECT_TRUE(eqds_credit_take(&c, 0));
	eqds_credit_pull(&c, 1, Q);
	EXPECT_FALSE(eqds_credit_take(&c, Q + 1));	// all or nothing
	EXPECT_EQ(c.credit, Q);
	EXPECT_TRUE(eqds_credit_take(&c, MTU));
	EXPECT_TRUE(eqds_credit_take(&c, MTU));
	EXPECT_FALSE(eqds_credit_take(&c, MTU));	// 1096 left
	EXPECT_EQ(c.credit, Q - 2 * MTU);
	EXPECT_TRUE(eqds_credit_take(&c, Q - 2 * MTU));
	EXPECT_EQ(c.credit, 0u);
	EXPECT_FALSE(eqds_credit_take(&c, 0xffffffffu));
}

TEST(Credit, PullTarget)
{
	struct eqds_credit c = fresh();

	EXPECT_EQ(eqds_credit_need(&c, 0, 0), 0u);
	EXPECT_EQ(eqds_credit_need(&c, 1, 0), 1u);	// rounds up
	EXPECT_EQ(eqds_credit_need(&c, Q, 0), 1u);
	EXPECT_EQ(eqds_credit_need(&c, Q + 1, 0), 2u);
	EXPECT_EQ(eqds_credit_need(&c, 10 * Q, 0), 10u);
	// Capped at one window.
	EXPECT_EQ(eqds_credit_need(&c, 1000 * Q, 0), 150u);
	EXPECT_EQ(eqds_credit_need(&c, ~0ull, 0), 150u);

	// Credit held covers part of the queue.
	eqds_credit_pull(&c, 3, Q);
	EXPECT_EQ(eqds_credit_need(&c, 3 * Q, 0), 0u);
	EXPECT_EQ(eqds_credit_need(&c, 2 * Q, 0), 0u);
	EXPECT_EQ(eqds_credit_need(&c, 3 * Q + 1, 0), 1u);
	EXPECT_EQ(eqds_credit_need(&c, 13 * Q, 0), 10u);
	// At most what fills the window: more would be refused.
	EXPECT_EQ(eqds_credit_need(&c, 1000 * Q, 0), 147u);
	EXPECT_EQ(eqds_credit_need(&c, 150 * Q, 0), 147u);
	eqds_credit_pull(&c, 150, Q);
	EXPECT_EQ(c.credit, WINDOW);
	EXPECT_EQ(eqds_credit_need(&c, 1000 * Q, 0), 0u);
	eqds_credit_init(&c, WINDOW, Q, 0);
	eqds_credit_pull(&c, 3, Q);
	// On the wire: the pull number wanted, beyond the highest seen.
	EXPECT_EQ(eqds_credit_pull_target(&c, 13 * Q, 0), 13);
	EXPECT_EQ(eqds_credit_pull_target(&c, 2 * Q, 0), 3);
	c.pull_hi = 0xfffffffeu;
	EXPECT_EQ(eqds_credit_pull_target(&c, 13 * Q, 0), 8);
}

TEST(Credit, PullTargetEdges)
{
	struct eqds_credit c;

	// Small quantum, huge window: capped so that the 16-bit field
	// reaches it.
	eqds_credit_init(&c, 0xffffffffu, 64, 0);
	EXPECT_EQ(eqds_credit_need(&c, ~0ull, 0), 0x3fffu);
	EXPECT_EQ(eqds_credit_need(&c, 64ull * 0x3ffe, 0), 0x3ffeu);
	// Window smaller than a quantum: still ask for one.
	eqds_credit_init(&c, 100, 4096, 0);
	EXPECT_EQ(eqds_credit_need(&c, 1ull << 40, 0), 1u);
	// No quantum known: cannot express a target.
	eqds_credit_init(&c, WINDOW, 0, 0);
	EXPECT_EQ(eqds_credit_need(&c, 1 << 20, 0), 0u);
}

TEST(PullGen, NumbersStartAtOne)
{
	struct eqds_pullgen g;

	eqds_pullgen_init(&g, 150);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	EXPECT_EQ(eqds_pullgen_next(&g), 1u);
	EXPECT_EQ(eqds_pullgen_next(&g), 2u);
	EXPECT_EQ(g.pull_no, 2u);
}

TEST(PullGen, DemandAndOutstanding)
{
	struct eqds_pullgen g;

	eqds_pullgen_init(&g, 150);
	eqds_pullgen_demand(&g, 3, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 3u);
	eqds_pullgen_next(&g);
	eqds_pullgen_next(&g);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 1u);
	eqds_pullgen_next(&g);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	// Pulling past the target (pacer's choice) never goes negative.
	eqds_pullgen_next(&g);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	// A target is the pull number to reach, not a count beyond pull_no.
	eqds_pullgen_demand(&g, 9, false);
	EXPECT_EQ(g.target, 9u);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 5u);
	// The latest demand wins, also when lower.
	eqds_pullgen_demand(&g, 5, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 1u);
	eqds_pullgen_demand(&g, 4, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	// Capped at the window beyond the pulls sent.
	eqds_pullgen_demand(&g, 4 + 0x3000, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 150u);
}

// The sender states (pull_hi + need): pulls it has not seen yet are the
// receiver's to count, and are not sent again for the same bytes.
TEST(PullGen, InFlightPullsNotAskedAgain)
{
	struct eqds_credit c = fresh();
	struct eqds_pullgen g;

	eqds_pullgen_init(&g, 150);
	eqds_pullgen_demand(&g, eqds_credit_pull_target(&c, 10 * Q, 0), false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 10u);
	// Six pulls sent, two seen by the sender, which spends them and
	// still wants the same 8 * Q: four are in flight, so four more.
	for (int i = 0; i < 6; i++)
		eqds_pullgen_next(&g);
	eqds_credit_pull(&c, 2, Q);
	ASSERT_TRUE(eqds_credit_take(&c, 2 * Q));
	eqds_pullgen_demand(&g, eqds_credit_pull_target(&c, 8 * Q, 0), false);
	EXPECT_EQ(g.target, 10u);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 4u);
	// The same statement again, from every further data packet, asks
	// for nothing more.
	for (int i = 0; i < 4; i++)
		eqds_pullgen_next(&g);
	for (int i = 0; i < 3; i++) {
		eqds_pullgen_demand(&g, eqds_credit_pull_target(&c, 8 * Q, 0),
				    false);
		EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	}
}

// Only 16 bits travel: the receiver extends them against its pull number,
// across the 16-bit and the 32-bit wrap, and a number at or behind what it
// pulled (a stale statement: an older packet, or the sender not yet
// knowing of pulls in flight) asks for nothing.
TEST(PullGen, SixteenBitStatementExtended)
{
	struct eqds_credit c = fresh();
	struct eqds_pullgen g;

	eqds_pullgen_init(&g, 150);
	g.pull_no = g.target = 0x1fffeu;
	c.pull_hi = 0x1fffcu;
	EXPECT_EQ(eqds_credit_pull_target(&c, 7 * Q, 0), 0x0003);
	eqds_pullgen_demand(&g, eqds_credit_pull_target(&c, 7 * Q, 0), false);
	EXPECT_EQ(g.target, 0x20003u);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 5u);
	// Behind and at pull_no: nothing more.
	eqds_pullgen_demand(&g, 0xfff0, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	eqds_pullgen_demand(&g, 0xfffe, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	// As far behind as the field allows is still behind, not 2^16 ahead.
	eqds_pullgen_demand(&g, (u16)(0xfffe - 0x8000), false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	// Across the 32-bit wrap.
	g.pull_no = g.target = 0xfffffffdu;
	eqds_pullgen_demand(&g, 0x0002, false);
	EXPECT_EQ(g.target, 2u);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 5u);
	// The sender's cap keeps it within the field's reach.
	c.pull_hi = 0xfff0u;
	eqds_credit_init(&c, 0xffffffffu, 64, 0);
	EXPECT_EQ(eqds_credit_need(&c, ~0ull, 0), (u32)EQDS_DEMAND_MAX_QUANTA);
	eqds_pullgen_init(&g, 1u << 20);
	EXPECT_EQ(g.max_ahead, (u32)EQDS_DEMAND_MAX_QUANTA);
}

// An RTS probe comes after a timeout with no pull: what the receiver
// counts as sent was lost, so it pulls once more whatever the probe says.
TEST(PullGen, ProbeAlwaysGetsAPull)
{
	struct eqds_pullgen g;

	eqds_pullgen_init(&g, 150);
	for (int i = 0; i < 5; i++)
		eqds_pullgen_next(&g);
	eqds_pullgen_demand(&g, 5, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
	eqds_pullgen_demand(&g, 3, true);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 1u);
	eqds_pullgen_demand(&g, 5, true);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 1u);
	// A probe that asks for more gets what it asks for.
	eqds_pullgen_demand(&g, 8, true);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 3u);
}

TEST(PullGen, WrapsAt2To32)
{
	struct eqds_pullgen g;

	eqds_pullgen_init(&g, 150);
	g.pull_no = 0xfffffffeu;
	eqds_pullgen_demand(&g, 2, false);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 4u);
	EXPECT_EQ(eqds_pullgen_next(&g), 0xffffffffu);
	EXPECT_EQ(eqds_pullgen_next(&g), 0u);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 2u);
	EXPECT_EQ(eqds_pullgen_next(&g), 1u);
	EXPECT_EQ(eqds_pullgen_next(&g), 2u);
	EXPECT_EQ(eqds_pullgen_outstanding(&g), 0u);
}

// Receiver pulls into a channel that loses a third of the pulls and
// delivers the rest in random order; the sender spends credit on a queue.
// Whatever is lost or late, once the last pull arrives the sender has been
// credited for every pull the receiver sent, across a pull-number wrap.
TEST(CreditEndToEnd, NoCreditLostOverLossyReorderingChannel)
{
	std::mt19937 rng(7);

	for (int run = 0; run < 50; run++) {
		struct eqds_credit c;
		struct eqds_pullgen g;
		std::vector<u32> channel;
		u64 gained = 0, sent = 0, queued = 1000ull * MTU;
		const u32 start = 0xffffff00u + (u32)run;

		eqds_credit_init(&c, WINDOW, Q, 0);
		eqds_pullgen_init(&g, WINDOW / Q);
		c.pull_hi = g.pull_no = g.target = start;

		for (int step = 0; step < 2000; step++) {
			switch (rng() % 4) {
			case 0:
			case 1:
				// The sender spends what it holds on its queue;
				// its data (or the first RTS) tells the receiver
				// what it still wants.
				do {
					bool any = !sent;

					while (queued &&
					       eqds_credit_take(&c, MTU)) {
						queued -= MTU;
						sent += MTU;
						any = true;
					}
					// Stuck with no credit: an RTS.
					if (any || (queued && !(rng() % 8)))
						eqds_pullgen_demand(&g,
							eqds_credit_pull_target(
								&c, queued, 0),
							!any);
				} while (0);
				break;
			case 2:
				if (eqds_pullgen_outstanding(&g)) {
					u32 no = eqds_pullgen_next(&g);

					if (rng() % 3)
						channel.push_back(no);
				}
				break;
			case 3:
				if (!channel.empty()) {
					size_t i = rng() % channel.size();

					gained += eqds_credit_pull(&c,
								   channel[i], Q);
					channel.erase(channel.begin() + (long)i);
				}
				break;
			}
			ASSERT_LE(c.credit, c.window);
		}
		// Flush: the pulls still in flight, then one more that surely
		// arrives. Everything the receiver granted has been credited
		// or refused because the window was full.
		for (u32 no : channel)
			gained += eqds_credit_pull(&c, no, Q);
		gained += eqds_credit_pull(&c, eqds_pullgen_next(&g), Q);
		EXPECT_EQ(c.pull_hi, g.pull_no);
		EXPECT_EQ(gained + c.refused_bytes,
			  (u64)(u32)(g.pull_no - start) * Q);
		EXPECT_EQ(c.clamped_pulls, 0u);
		EXPECT_EQ(c.credit, gained - sent);
		EXPECT_GT(sent, 0u);
	}
}

// Small packets may borrow up to the overdraft, all or nothing; the credit
// held goes first, and the law credit + spent == initial + gained + debt
// holds throughout.
TEST(Credit, BorrowIsBoundedAndAllOrNothing)
{
	struct eqds_credit c = fresh();
	u64 spent = 0;

	c.overdraft = 1536;
	for (int i = 0; i < 11; i++) {
		ASSERT_TRUE(eqds_credit_borrow(&c, 134)) << i;
		spent += 134;
	}
	EXPECT_EQ(c.debt, 1474u);
	EXPECT_EQ(c.credit, 0u);
	EXPECT_FALSE(eqds_credit_may_borrow(&c, 134));
	EXPECT_FALSE(eqds_credit_borrow(&c, 134));
	EXPECT_EQ(c.debt, 1474u);
	EXPECT_EQ(c.borrowed_bytes, 1474u);
	EXPECT_EQ(c.credit + spent, 0 + 0 + (u64)c.debt);

	// With some credit, only the shortfall is owed.
	c = fresh();
	c.overdraft = 1536;
	ASSERT_EQ(eqds_credit_pull(&c, 1, Q), Q);
	ASSERT_TRUE(eqds_credit_take(&c, Q - 100));
	EXPECT_FALSE(eqds_credit_may_borrow(&c, 100));	// covered: take it
	EXPECT_TRUE(eqds_credit_borrow(&c, 134));
	EXPECT_EQ(c.credit, 0u);
	EXPECT_EQ(c.debt, 34u);

	// Off by default.
	c = fresh();
	EXPECT_FALSE(eqds_credit_borrow(&c, 1));
}

TEST(Credit, PullRepaysDebtFirst)
{
	struct eqds_credit c = fresh();

	c.overdraft = 1536;
	for (int i = 0; i < 11; i++)
		ASSERT_TRUE(eqds_credit_borrow(&c, 134));
	// The pull's whole quantum counts as gained: 1474 of it repays.
	EXPECT_EQ(eqds_credit_pull(&c, 1, Q), Q);
	EXPECT_EQ(c.debt, 0u);
	EXPECT_EQ(c.credit, Q - 1474);
	EXPECT_EQ(c.repaid_bytes, 1474u);
	EXPECT_EQ(c.refused_bytes, 0u);
	// credit + spent == initial + gained + debt
	EXPECT_EQ((u64)c.credit + 11 * 134, (u64)Q + c.debt);

	// A pull smaller than the debt repays part of it and adds nothing.
	c = fresh(WINDOW);
	c.overdraft = 2 * Q;
	ASSERT_TRUE(eqds_credit_borrow(&c, 200));
	c.debt = Q + 200;	// as if more had been borrowed
	EXPECT_EQ(eqds_credit_pull(&c, 1, Q), Q);
	EXPECT_EQ(c.debt, 200u);
	EXPECT_EQ(c.credit, 0u);
	// Repayment is never refused, even into a window with no room.
	c = fresh(Q, 0);
	c.overdraft = Q;
	ASSERT_TRUE(eqds_credit_borrow(&c, 200));
	EXPECT_EQ(eqds_credit_pull(&c, 1, Q), Q);
	EXPECT_EQ(c.debt, 0u);
	EXPECT_EQ(c.credit, Q - 200);
	EXPECT_EQ(c.refused_bytes, 0u);
}

TEST(Credit, DebtIsDemand)
{
	struct eqds_credit c = fresh();

	c.overdraft = 1536;
	EXPECT_EQ(eqds_credit_need(&c, 0, 0), 0u);
	ASSERT_TRUE(eqds_credit_borrow(&c, 300));
	EXPECT_EQ(eqds_credit_need(&c, 0, 0), 1u);
	EXPECT_EQ(eqds_credit_pull_target(&c, 0, 0), (u16)(c.pull_hi + 1));
	EXPECT_EQ(eqds_credit_need(&c, 2 * Q, 0), 3u);
}
