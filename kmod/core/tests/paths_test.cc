// SPDX-License-Identifier: GPL-2.0
// Path choice (kmod/core/paths.c): the walk over path ids, penalties
// counted in laps of the walk and their release, the backoff for ids
// penalised again, the cap on how many ids may be penalised at once, and
// path choice turned off.
#include <gtest/gtest.h>

#include <deque>
#include <set>
#include <vector>

#include "paths.h"

namespace {

// Walk n turns; the ids they took.
std::vector<u8> walk(struct eqds_paths *p, u32 n)
{
	std::vector<u8> ids;

	for (u32 i = 0; i < n; i++)
		ids.push_back(eqds_paths_next(p));
	return ids;
}

// How many of the next laps' turns took id.
u32 turns_of(struct eqds_paths *p, u8 id, u32 laps)
{
	u32 n = 0;

	for (u8 x : walk(p, laps * EQDS_PATHS))
		n += x == id;
	return n;
}

TEST(Paths, WalksEveryIdInTurn)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 250, true);
	for (u32 i = 0; i < 2 * EQDS_PATHS; i++)
		EXPECT_EQ(eqds_paths_next(&p), (u8)(250 + i));
	EXPECT_EQ(p.stats.repaths, 0u);
	EXPECT_EQ(p.lap, 2u);
}

TEST(Paths, PenalisedIdMissesItsNextTurn)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 0, true);
	eqds_paths_penalise(&p, 1, false);
	eqds_paths_penalise(&p, 2, false);
	EXPECT_EQ(eqds_paths_nbad(&p), 2u);
	EXPECT_TRUE(eqds_paths_is_bad(&p, 1));
	EXPECT_EQ(eqds_paths_next(&p), 0);
	EXPECT_EQ(eqds_paths_next(&p), 3);	// 1 and 2 skipped
	EXPECT_EQ(p.stats.repaths, 1u);		// one packet, two ids stepped over
	EXPECT_EQ(p.stats.penalties, 2u);
	// Later news of the same id adds nothing while it is penalised.
	eqds_paths_penalise(&p, 1, false);
	EXPECT_EQ(p.stats.penalties, 2u);
	walk(&p, EQDS_PATHS - 4);		// to the end of the lap
	EXPECT_FALSE(eqds_paths_is_bad(&p, 1));
	EXPECT_EQ(walk(&p, 3), (std::vector<u8>{ 0, 1, 2 }));	// tried again
	EXPECT_EQ(eqds_paths_nbad(&p), 0u);
	// An id already passed in this lap misses its turn in the next.
	eqds_paths_penalise(&p, 0, false);
	EXPECT_EQ(turns_of(&p, 0, 1), 0u);
	EXPECT_EQ(turns_of(&p, 0, 1), 1u);
}

// Turns id misses before it is sent on again: the walk steps over it.
u32 missed(struct eqds_paths *p, u8 id)
{
	u32 n = 0;
	u8 prev = (u8)(p->next - 1);

	for (;;) {
		u8 x = eqds_paths_next(p);

		if (x == id)
			return n;
		n += (u8)(id - prev - 1) < (u8)(x - prev - 1);
		prev = x;
	}
}

// Penalised again within twice its last penalty after it ended: twice as
// many turns missed, up to 2^(MAX_STRIKES - 1). Good for longer: one turn
// again.
TEST(Paths, RepeatOffenderBacksOffAndIsForgiven)
{
	struct eqds_paths p;
	u32 turns = 1;

	eqds_paths_init(&p, 0, true);
	walk(&p, 10);
	for (u32 i = 0; i < EQDS_PATHS_MAX_STRIKES + 2; i++) {
		// Sent on just now (or passed, the first time): penalised again.
		eqds_paths_penalise(&p, 5, false);
		EXPECT_EQ(missed(&p, 5), turns) << i;
		turns = eqds_min_u32(2 * turns, 1u << (EQDS_PATHS_MAX_STRIKES - 1));
	}
	// Good for twice its last penalty: a first penalty again.
	walk(&p, 2 * turns * EQDS_PATHS);
	eqds_paths_penalise(&p, 5, false);
	EXPECT_EQ(missed(&p, 5), 1u);
}

// A loss: the id misses 2^(LOSS_STRIKES - 1) turns at once, then doubles.
TEST(Paths, LossHoldsOffLongerThanAMark)
{
	struct eqds_paths p;
	const u32 first = 1u << (EQDS_PATHS_LOSS_STRIKES - 1);

	eqds_paths_init(&p, 0, true);
	walk(&p, 10);
	eqds_paths_penalise(&p, 7, true);
	EXPECT_EQ(missed(&p, 7), first);
	eqds_paths_penalise(&p, 7, true);
	EXPECT_EQ(missed(&p, 7), 2 * first);
	eqds_paths_penalise(&p, 7, false);	// a mark right after: still doubling
	EXPECT_EQ(missed(&p, 7), 4 * first);
}

// A mark for a packet sent before the penalty began can come back after it
// ended: until the walk has sent on the id again, it is old news.
TEST(Paths, NewsOfPacketsSentBeforeThePenaltyIsIgnored)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 0, true);
	walk(&p, 10);
	eqds_paths_penalise(&p, 5, false);	// misses its turn in the next lap
	walk(&p, EQDS_PATHS - 10 + 3);		// next lap: before 5's turn
	walk(&p, EQDS_PATHS - 1);		// the lap after, just before 5
	EXPECT_EQ(p.next, 3);
	EXPECT_FALSE(eqds_paths_is_bad(&p, 5));	// over, not yet sent on
	eqds_paths_penalise(&p, 5, false);
	EXPECT_EQ(p.stats.penalties, 1u);
	EXPECT_EQ(missed(&p, 5), 0u);
	eqds_paths_penalise(&p, 5, false);	// sent on now: news again
	EXPECT_EQ(p.stats.penalties, 2u);
}

// At the cap, ids whose penalty is over make room before a penalty is
// refused; with half the ids penalised, marks no longer double their
// penalties, nor losses with half penalised for losses.
TEST(Paths, CapReleasesWhatIsOverAndHalfStopsDoubling)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 0, true);
	walk(&p, 200);
	for (u32 i = 0; i < EQDS_PATHS_MAX_BAD; i++)
		eqds_paths_penalise(&p, (u8)i, false);	// all behind the walk
	EXPECT_EQ(eqds_paths_nbad(&p), (u32)EQDS_PATHS_MAX_BAD);
	walk(&p, 2 * EQDS_PATHS);	// their turns pass; some not yet released
	eqds_paths_penalise(&p, 250, false);
	EXPECT_EQ(p.stats.ignored, 0u);
	EXPECT_TRUE(eqds_paths_is_bad(&p, 250));
	// 130 ids penalised, one of them again right after its release: one lap.
	eqds_paths_init(&p, 0, true);
	walk(&p, 200);
	for (u32 i = 0; i < 130; i++)
		eqds_paths_penalise(&p, (u8)i, false);
	EXPECT_EQ(missed(&p, 0), 1u);
	for (u32 i = 1; i < 130; i++)
		eqds_paths_penalise(&p, (u8)i, false);	// still penalised: no news
	eqds_paths_penalise(&p, 0, false);
	EXPECT_GE(eqds_paths_nbad(&p), (u32)EQDS_PATHS / 2);
	EXPECT_EQ(missed(&p, 0), 1u);
	// The same with losses: a first loss's penalty again, not twice it.
	const u32 first = 1u << (EQDS_PATHS_LOSS_STRIKES - 1);

	eqds_paths_init(&p, 0, true);
	walk(&p, 200);
	for (u32 i = 0; i < 130; i++)
		eqds_paths_penalise(&p, (u8)i, true);
	EXPECT_EQ(missed(&p, 0), first);
	eqds_paths_penalise(&p, 0, true);
	EXPECT_EQ(missed(&p, 0), first);
	// Half penalised for marks: a loss still doubles.
	eqds_paths_init(&p, 0, true);
	walk(&p, 200);
	eqds_paths_penalise(&p, 0, true);
	for (u32 i = 1; i < 130; i++)
		eqds_paths_penalise(&p, (u8)i, false);
	EXPECT_EQ(missed(&p, 0), first);
	for (u32 i = 1; i < 130; i++)
		eqds_paths_penalise(&p, (u8)i, false);
	EXPECT_GE(eqds_paths_nbad(&p), (u32)EQDS_PATHS / 2);
	eqds_paths_penalise(&p, 0, true);
	EXPECT_EQ(missed(&p, 0), 2 * first);
}

// Marks at the receiver's own link fall on every id: at most
// EQDS_PATHS_MAX_BAD are penalised, the rest still carry the traffic.
TEST(Paths, AtMostThreeQuartersPenalised)
{
	struct eqds_paths p;
	std::set<u8> used;

	eqds_paths_init(&p, 0, true);
	for (u32 i = 0; i < EQDS_PATHS; i++)
		eqds_paths_penalise(&p, (u8)i, false);
	EXPECT_EQ(eqds_paths_nbad(&p), (u32)EQDS_PATHS_MAX_BAD);
	EXPECT_EQ(p.stats.ignored, (u64)(EQDS_PATHS - EQDS_PATHS_MAX_BAD));
	for (u8 id : walk(&p, EQDS_PATHS - EQDS_PATHS_MAX_BAD)) {
		EXPECT_FALSE(eqds_paths_is_bad(&p, id));
		used.insert(id);
	}
	EXPECT_EQ(used.size(), (size_t)(EQDS_PATHS - EQDS_PATHS_MAX_BAD));
}

// Off: every id in turn whatever is lost or marked.
TEST(Paths, OffTakesNoPenalty)
{
	struct eqds_paths p;

	eqds_paths_init(&p, 0, false);
	eqds_paths_penalise(&p, 1, false);
	EXPECT_EQ(eqds_paths_nbad(&p), 0u);
	EXPECT_EQ(p.stats.penalties, 0u);
	EXPECT_EQ(walk(&p, 2), (std::vector<u8>{ 0, 1 }));
	eqds_paths_set_on(&p, true);
	eqds_paths_penalise(&p, 2, false);
	EXPECT_EQ(eqds_paths_next(&p), 3);
}


// A failed link amid congestion elsewhere: a quarter of the ids (those
// leading to the failed link) lose every packet, and the other links are
// so busy that most packets on them come back marked, as when a tunnel
// pulled at its receiver's rate crosses a fabric that lost a quarter of
// its capacity. News comes back a third of a lap after the send. The
// failed ids' penalties must still double: each costs a loss every 8, 16,
// 32... laps, a handful over 100 laps, not one every 9 laps.
u64 losses_to_failed_link(u32 mark_every)
{
	struct news {
		u64	sent;
		u8	id;
		bool	lost;	/* else marked */
	};
	struct eqds_paths p;
	std::deque<news> flight;
	const u64 delay = EQDS_PATHS / 3;
	u64 lost = 0, sent = 0;

	eqds_paths_init(&p, 0, true);
	while (p.lap < 100) {
		u8 id = eqds_paths_next(&p);

		if (id % 4 == 1) {
			lost++;
			flight.push_back({ sent, id, true });
		} else if (mark_every && sent % mark_every) {
			flight.push_back({ sent, id, false });
		}
		sent++;
		while (!flight.empty() && flight.front().sent + delay <= sent) {
			eqds_paths_penalise(&p, flight.front().id, flight.front().lost);
			flight.pop_front();
		}
	}
	return lost;
}

// The next id clear of a copy of bad[]: in turn, skipping set ids,
// across the wrap; with every id set, the next one all the same.
TEST(Paths, NextClearSkipsAvoidedIds)
{
	u32 avoid[EQDS_PATHS / 32] = {};
	u8 next = 254;

	avoid[254 / 32] |= 1u << (254 % 32);
	avoid[255 / 32] |= 1u << (255 % 32);
	avoid[0] |= 1u;
	EXPECT_EQ(eqds_paths_next_clear(avoid, &next), 1u);
	EXPECT_EQ(next, 2u);
	EXPECT_EQ(eqds_paths_next_clear(avoid, &next), 2u);
	EXPECT_EQ(next, 3u);
	for (u32 i = 0; i < EQDS_PATHS / 32; i++)
		avoid[i] = ~0u;
	EXPECT_EQ(eqds_paths_next_clear(avoid, &next), 3u);
	EXPECT_EQ(next, 4u);
	// A sending tunnel's own bad[] is what the glue copies.
	struct eqds_paths p;

	eqds_paths_init(&p, 0, true);
	eqds_paths_penalise(&p, 5, true);
	next = 5;
	EXPECT_EQ(eqds_paths_next_clear(p.bad, &next), 6u);
}

TEST(Paths, FailedLinkBacksOffAmidMarksElsewhere)
{
	const u64 doubling = 64 * 6;	// laps 0, ~9, ~26, ~59, + news in flight

	EXPECT_LE(losses_to_failed_link(0), doubling);
	EXPECT_LE(losses_to_failed_link(3), doubling);	// 2 in 3 marked
	EXPECT_LE(losses_to_failed_link(2), doubling);	// 1 in 2
}

}  // namespace
