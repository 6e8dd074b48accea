// SPDX-License-Identifier: GPL-2.0
// Path choice (kmod/core/paths.c): the walk over path ids, penalties and
// their release, the backoff for ids penalised again, the cap on how many
// ids may be penalised at once, and the clock's wrap.
#include <gtest/gtest.h>

#include <set>

#include "paths.h"

namespace {

constexpr u32 HOLD = 100000;	// ns

TEST(Paths, WalksEveryIdInTurn)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 250, HOLD);
	for (u32 i = 0; i < 2 * EQDS_PATHS; i++)
		EXPECT_EQ(eqds_paths_next(&p, 1000), (u8)(250 + i));
	EXPECT_EQ(p.stats.repaths, 0u);
	eqds_paths_set_hold(&p, ~0u);
	EXPECT_EQ(p.hold_ns, EQDS_PATHS_HOLD_MAX_NS);
}

// Hold 0: path avoidance off, every id in turn whatever is lost or marked.
TEST(Paths, HoldZeroTurnsPenaltiesOff)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 0, 0);
	eqds_paths_penalise(&p, 1, 1000);
	EXPECT_EQ(eqds_paths_nbad(&p), 0u);
	EXPECT_EQ(p.stats.penalties, 0u);
	EXPECT_EQ(eqds_paths_next(&p, 1000), 0);
	EXPECT_EQ(eqds_paths_next(&p, 1000), 1);
}

TEST(Paths, PenalisedIdIsSkippedUntilItsHoldIsOver)
{
	struct eqds_paths p;
	u64 now = 5000000;

	eqds_paths_init(&p, 0, HOLD);
	eqds_paths_penalise(&p, 1, now);
	eqds_paths_penalise(&p, 2, now);
	EXPECT_EQ(eqds_paths_nbad(&p), 2u);
	EXPECT_TRUE(eqds_paths_is_bad(&p, 1, now));
	EXPECT_EQ(eqds_paths_next(&p, now), 0);
	EXPECT_EQ(eqds_paths_next(&p, now), 3);	// 1 and 2 skipped
	EXPECT_EQ(p.stats.repaths, 2u);
	EXPECT_EQ(p.stats.penalties, 2u);
	// Later news of the same id adds nothing while it is penalised.
	eqds_paths_penalise(&p, 1, now + HOLD / 2);
	EXPECT_EQ(p.stats.penalties, 2u);
	// Over after a hold (1024 ns units, rounded up: allow two).
	now += HOLD + 2048;
	EXPECT_FALSE(eqds_paths_is_bad(&p, 1, now));
	for (u32 i = 4; i < EQDS_PATHS; i++)
		eqds_paths_next(&p, now);
	EXPECT_EQ(eqds_paths_next(&p, now), 0);
	EXPECT_EQ(eqds_paths_next(&p, now), 1);	// tried again
	EXPECT_EQ(eqds_paths_next(&p, now), 2);
	EXPECT_EQ(eqds_paths_nbad(&p), 0u);
}

// Penalised again within twice its last penalty after one ends: twice as
// long, up to 2^(MAX_STRIKES - 1) holds. Good for longer: a single hold.
// (Times in 1024 ns units, hold rounded up: H below.)
TEST(Paths, RepeatOffenderBacksOffAndIsForgiven)
{
	constexpr u64 H = ((HOLD + 1023) / 1024) * 1024;
	struct eqds_paths p;
	u64 t = 1ull << 30;	// a multiple of 1024

	eqds_paths_init(&p, 0, HOLD);
	eqds_paths_penalise(&p, 9, t);			// strike 1: H
	EXPECT_TRUE(eqds_paths_is_bad(&p, 9, t + H - 1024));
	EXPECT_FALSE(eqds_paths_is_bad(&p, 9, t + H));
	t += H + 1024;
	eqds_paths_penalise(&p, 9, t);			// soon after: 2H
	EXPECT_TRUE(eqds_paths_is_bad(&p, 9, t + 2 * H - 1024));
	EXPECT_FALSE(eqds_paths_is_bad(&p, 9, t + 2 * H));
	t += 2 * H + 3 * H;				// 3H < 2 x 2H after it ended
	eqds_paths_penalise(&p, 9, t);			// 4H
	EXPECT_TRUE(eqds_paths_is_bad(&p, 9, t + 4 * H - 1024));
	EXPECT_FALSE(eqds_paths_is_bad(&p, 9, t + 4 * H));
	t += 4 * H + 8 * H;				// 8H = 2 x 4H: forgiven
	eqds_paths_penalise(&p, 9, t);			// H again
	EXPECT_TRUE(eqds_paths_is_bad(&p, 9, t + H - 1024));
	EXPECT_FALSE(eqds_paths_is_bad(&p, 9, t + H));
	// Penalised right after every release: the longest penalty, no longer.
	u64 len = H;

	for (u32 i = 0; i < EQDS_PATHS_MAX_STRIKES + 3; i++) {
		t += len;
		eqds_paths_penalise(&p, 9, t);
		len = eqds_min_u64(2 * len, H << (EQDS_PATHS_MAX_STRIKES - 1));
		EXPECT_TRUE(eqds_paths_is_bad(&p, 9, t + len - 1024)) << i;
		EXPECT_FALSE(eqds_paths_is_bad(&p, 9, t + len)) << i;
	}
}

// Marks at the receiver's own link fall on every id: at most
// EQDS_PATHS_MAX_BAD are penalised, the rest still carry the traffic.
TEST(Paths, AtMostThreeQuartersPenalised)
{
	struct eqds_paths p;
	std::set<u8> used;

	eqds_paths_init(&p, 0, HOLD);
	for (u32 i = 0; i < EQDS_PATHS; i++)
		eqds_paths_penalise(&p, (u8)i, 1000);
	EXPECT_EQ(eqds_paths_nbad(&p), (u32)EQDS_PATHS_MAX_BAD);
	EXPECT_EQ(p.stats.ignored, (u64)(EQDS_PATHS - EQDS_PATHS_MAX_BAD));
	for (u32 i = 0; i < 3 * EQDS_PATHS; i++) {
		u8 id = eqds_paths_next(&p, 2000);

		EXPECT_FALSE(eqds_paths_is_bad(&p, id, 2000));
		used.insert(id);
	}
	EXPECT_EQ(used.size(), (size_t)(EQDS_PATHS - EQDS_PATHS_MAX_BAD));
}

// The 1024 ns clock wraps every 73 minutes: a penalty from before a wrap
// (its release time seemingly far ahead) is over, not stuck for half a wrap.
TEST(Paths, PenaltyFromBeforeTheClockWrappedIsOver)
{
	struct eqds_paths p;
	u64 now = 3ull << 40;
	u64 wrap = 1ull << 42;	// 2^32 units of 1024 ns

	eqds_paths_init(&p, 0, HOLD);
	eqds_paths_penalise(&p, 0, now);
	EXPECT_TRUE(eqds_paths_is_bad(&p, 0, now + wrap));
	EXPECT_FALSE(eqds_paths_is_bad(&p, 0, now + wrap + wrap / 4));
	EXPECT_FALSE(eqds_paths_is_bad(&p, 0, now + wrap + 3 * wrap / 4));
	EXPECT_EQ(eqds_paths_next(&p, now + wrap + wrap / 4), 0);
	EXPECT_EQ(eqds_paths_nbad(&p), 0u);
}

}  // namespace
