// SPDX-License-Identifier: GPL-2.0
// The receiver's reaction to core congestion (kmod/core/congestion.c):
// alpha follows the marked fraction, marked windows cut the rate by
// alpha/2, unmarked time climbs back additively, bounds hold.
#include <gtest/gtest.h>

#include "congestion.h"

namespace {

constexpr u64 G = 1000000000ull;
constexpr u64 MAX = 10 * G;
constexpr u64 US = 1000;
constexpr u32 PKT = 1500;
constexpr u64 HUGE_RATE = 1ull << 50;	// the pacer's highest rate

struct cc_fixture : public ::testing::Test {
	struct eqds_cc cc;
	struct eqds_cc_params p;
	u64 now = 1000 * US;
	u64 bytes = 0, ce_bytes = 0;	// the glue's running totals

	void SetUp() override
	{
		eqds_cc_default_params(&p);
		eqds_cc_init(&cc, &p, MAX);
		observe(now);
	}

	void arrive(u32 n, bool ce)
	{
		bytes += n;
		if (ce)
			ce_bytes += n;
	}

	bool observe(u64 t)
	{
		return eqds_cc_observe(&cc, bytes, ce_bytes, t);
	}

	// One interval of n packets, the first marked of them marked, observed
	// when the interval is over. Returns the rate after.
	u64 window(u32 n, u32 marked)
	{
		for (u32 i = 0; i < n; i++)
			arrive(PKT, i < marked);
		now += p.interval_ns;
		observe(now);
		return eqds_cc_rate(&cc);
	}
};

TEST_F(cc_fixture, StartsAtTheCeilingAndStaysThereUnmarked)
{
	EXPECT_EQ(eqds_cc_rate(&cc), MAX);
	for (int i = 0; i < 50; i++)
		EXPECT_EQ(window(20, 0), MAX);
	EXPECT_EQ(cc.alpha, 0u);
	EXPECT_EQ(cc.stats.windows, 50u);
	EXPECT_EQ(cc.stats.marked, 0u);
	EXPECT_EQ(cc.stats.bytes, 50u * 20 * PKT);
}

TEST_F(cc_fixture, NoWindowClosesBeforeTheInterval)
{
	for (u32 i = 0; i < 100; i++) {
		arrive(PKT, true);
		EXPECT_FALSE(eqds_cc_due(&cc, now + i * (p.interval_ns / 100)));
		EXPECT_FALSE(observe(now + i * (p.interval_ns / 100)));
	}
	EXPECT_EQ(cc.stats.windows, 0u);
	EXPECT_EQ(eqds_cc_rate(&cc), MAX);
	// The first observation one interval after the window began closes it.
	EXPECT_TRUE(eqds_cc_due(&cc, now + p.interval_ns));
	EXPECT_TRUE(observe(now + p.interval_ns));
	EXPECT_LT(eqds_cc_rate(&cc), MAX);
	EXPECT_EQ(cc.stats.bytes, 100u * PKT);
	EXPECT_EQ(cc.stats.ce_bytes, 100u * PKT);
}

TEST_F(cc_fixture, AWindowWithoutDataStaysOpen)
{
	window(10, 10);
	u64 rate = eqds_cc_rate(&cc);

	// Due many times over with nothing arriving: no window closes.
	for (int k = 1; k <= 100; k++)
		EXPECT_FALSE(observe(now + k * p.interval_ns));
	EXPECT_EQ(cc.stats.windows, 1u);
	EXPECT_EQ(eqds_cc_rate(&cc), rate);
	// The data that comes then closes it, at the next observation.
	now += 100 * p.interval_ns;
	arrive(PKT, true);
	EXPECT_TRUE(observe(now));
	EXPECT_EQ(cc.stats.windows, 2u);
	EXPECT_LT(eqds_cc_rate(&cc), rate);
}

TEST_F(cc_fixture, AlphaIsTheMovingAverageOfTheMarkedFraction)
{
	// Every byte marked: alpha = 1 - (15/16)^k.
	double expect = 0;

	for (int k = 1; k <= 20; k++) {
		window(10, 10);
		expect = expect + (1.0 - expect) / 16;
		EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, expect, 1e-4) << k;
	}
	// Half the bytes marked: alpha moves towards 0.5.
	for (int k = 0; k < 200; k++)
		window(10, 5);
	EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, 0.5, 1e-3);
}

TEST_F(cc_fixture, AMarkedWindowCutsByHalfAlpha)
{
	// First marked window, all marked: alpha = 1/16, cut by 1/32.
	u64 r = window(10, 10);

	EXPECT_NEAR((double)r, MAX * (1 - 1.0 / 32), MAX * 1e-3);
	// Many fully marked windows: alpha -> 1, each cuts by half, down to
	// the floor and no further.
	for (int i = 0; i < 200; i++)
		r = window(10, 10);
	EXPECT_EQ(r, MAX / EQDS_CC_MIN_DIV);
	EXPECT_EQ(r, eqds_cc_floor(&cc));
	EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, 1.0, 1e-3);
	u64 before = r;

	EXPECT_EQ(window(10, 10), before);
}

TEST_F(cc_fixture, ACutNeverExceedsHalf)
{
	for (int i = 0; i < 100; i++)
		window(10, 10);
	eqds_cc_init(&cc, &p, MAX);
	observe(now);
	cc.alpha = EQDS_CC_ONE;
	// alpha at 1 stays 1 with every byte marked: exactly half.
	EXPECT_EQ(window(10, 10), MAX - MAX / 2);
}

TEST_F(cc_fixture, UnmarkedWindowsClimbBackAdditively)
{
	for (int i = 0; i < 40; i++)
		window(10, 10);
	u64 low = eqds_cc_rate(&cc);
	u64 step = MAX / EQDS_CC_AI_DIV;

	ASSERT_LT(low, MAX / 2);
	EXPECT_EQ(window(10, 0), low + step);
	EXPECT_EQ(window(10, 0), low + 2 * step);
	// ... and no further than the ceiling.
	for (int i = 0; i < 2 * EQDS_CC_AI_DIV; i++)
		window(10, 0);
	EXPECT_EQ(eqds_cc_rate(&cc), MAX);
	// Alpha decays meanwhile.
	EXPECT_LT(cc.alpha, EQDS_CC_ONE / 1000);
}

TEST_F(cc_fixture, TimeWithoutDataEarnsNothing)
{
	for (int i = 0; i < 40; i++)
		window(10, 10);
	u64 low = eqds_cc_rate(&cc);
	u64 step = MAX / EQDS_CC_AI_DIV;

	// Unmarked data, then a silence of 50 intervals: one window, one step.
	arrive(PKT, false);
	now += 50 * p.interval_ns;
	EXPECT_TRUE(observe(now));
	EXPECT_EQ(eqds_cc_rate(&cc), low + step);
	// Silence, observed: no climb.
	for (int k = 1; k <= 1000; k++)
		observe(now + k * p.interval_ns);
	EXPECT_EQ(eqds_cc_rate(&cc), low + step);
	// A marked packet after it: one cut.
	now += 1000 * p.interval_ns;
	arrive(PKT, true);
	u64 before = eqds_cc_rate(&cc);

	EXPECT_TRUE(observe(now));
	u64 a10 = cc.alpha >> (EQDS_CC_ONE_SHIFT - 10);

	EXPECT_EQ(eqds_cc_rate(&cc), before - (((before >> 10) * a10) >> 1));
	EXPECT_EQ(cc.stats.marked, 41u);
}

TEST_F(cc_fixture, ASmallMarkedFractionCutsLittle)
{
	// 1 packet in 100 marked, steadily: alpha ~ 0.01, cuts of ~0.5%,
	// each undone by the next unmarked window's step (1/64).
	for (int i = 0; i < 300; i++) {
		window(100, 1);
		window(100, 0);
	}
	EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, 0.005, 0.002);
	EXPECT_GT(eqds_cc_rate(&cc), MAX * 99 / 100);
}

TEST_F(cc_fixture, TheCeilingFollowsTheLink)
{
	// At the ceiling: follows it both ways.
	eqds_cc_set_max(&cc, 25 * G);
	EXPECT_EQ(eqds_cc_rate(&cc), 25 * G);
	eqds_cc_set_max(&cc, MAX);
	EXPECT_EQ(eqds_cc_rate(&cc), MAX);
	// Cut to a fraction: keeps the fraction.
	for (int i = 0; i < 10; i++)
		window(10, 10);
	double f = (double)eqds_cc_rate(&cc) / MAX;

	ASSERT_LT(f, 0.9);
	eqds_cc_set_max(&cc, 40 * G);
	EXPECT_NEAR((double)eqds_cc_rate(&cc) / (40 * G), f, 1e-4);
	EXPECT_EQ(cc.max_bps, 40 * G);
	// The floor follows as well.
	eqds_cc_set_max(&cc, 64);
	EXPECT_GE(eqds_cc_rate(&cc), eqds_cc_floor(&cc));
	EXPECT_LE(eqds_cc_rate(&cc), 64u);
}

TEST_F(cc_fixture, ExtremesStayInRange)
{
	struct eqds_cc_params bad = { 0, 0, 0, 0 };

	eqds_cc_init(&cc, &bad, HUGE_RATE);
	EXPECT_EQ(cc.p.interval_ns, 1u);
	EXPECT_EQ(cc.p.g_shift, 1);
	for (u64 t = 0; t < 100; t++) {
		arrive(0xffffffffu, t & 1);
		observe(now + t * 7);
	}
	EXPECT_LE(eqds_cc_rate(&cc), HUGE_RATE);
	EXPECT_GE(eqds_cc_rate(&cc), eqds_cc_floor(&cc));
	EXPECT_LE(cc.alpha, EQDS_CC_ONE);
	// A clock that steps back closes nothing and cuts nothing.
	eqds_cc_init(&cc, &p, MAX);
	observe(now);
	arrive(PKT, true);
	EXPECT_FALSE(observe(now - 5 * p.interval_ns));
	EXPECT_EQ(eqds_cc_rate(&cc), MAX);
	// Totals that wrap count what arrived since the last observation.
	eqds_cc_init(&cc, &p, MAX);
	bytes = ~0ull - 4 * PKT;
	ce_bytes = ~0ull - 2 * PKT;
	observe(now);
	window(10, 10);
	EXPECT_EQ(cc.stats.bytes, 10u * PKT);
	EXPECT_EQ(cc.stats.ce_bytes, 10u * PKT);
	EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, 1.0 / 16, 1e-4);
	// A mark counted before its bytes (per-CPU totals read one after the
	// other): the window is taken as all marked, never more.
	eqds_cc_init(&cc, &p, MAX);
	observe(now);
	arrive(PKT, true);
	ce_bytes += PKT;
	now += p.interval_ns;
	observe(now);
	EXPECT_EQ(cc.stats.ce_bytes, cc.stats.bytes);
	EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, 1.0 / 16, 1e-4);
	// More bytes than fit the fraction's arithmetic: still a fraction.
	eqds_cc_init(&cc, &p, MAX);
	observe(now);
	bytes += 1ull << 62;
	ce_bytes += 1ull << 61;
	now += p.interval_ns;
	observe(now);
	EXPECT_NEAR((double)cc.alpha / EQDS_CC_ONE, 0.5 / 16, 1e-4);
	// A zero ceiling stays zero.
	eqds_cc_init(&cc, &p, 0);
	window(10, 10);
	EXPECT_EQ(eqds_cc_rate(&cc), 0u);
}

}  // namespace
