// SPDX-License-Identifier: GPL-2.0
// The receiver's reorder window (kmod/core/rx.c): in-order delivery,
// holding and releasing, duplicates, giving up on holes and late delivery,
// window edges, multi-seq (GSO) packets, the SACK bitmap, and all of it
// across the 2^32 wrap of sequence numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "rx.h"
#include "seq.h"
#include "wire.h"

namespace {

constexpr u64 TMO = 100000;	// reorder timeout, ns

// eqds_isn() multiplies by an odd constant: invert it to find the epoch
// whose first seq is isn.
u32 epoch_for_isn(u32 isn)
{
	u32 a = 2654435761u, inv = a;

	for (int i = 0; i < 5; i++)	// Newton: each step doubles the bits
		inv *= 2 - a * inv;
	return isn * inv;
}

// The SACK-relevant seqs, as the wire helper reads the bitmap.
std::vector<u32> sacked(const struct eqds_rx *rx)
{
	std::vector<u32> v;
	u64 map = eqds_rx_sack(rx);

	for (u32 i = 0; i < 70; i++)
		if (eqds_sack_has(map, rx->rcv_nxt, rx->rcv_nxt + i))
			v.push_back(i);
	return v;
}

// 0..n-1 shuffled so that none arrives more than d places early or late.
std::vector<u32> bounded_shuffle(std::mt19937 &rng, const std::vector<u32> &in,
				 u32 d)
{
	std::vector<std::pair<u64, u32>> keyed;
	std::vector<u32> out;

	for (size_t i = 0; i < in.size(); i++)
		keyed.push_back({ i * 1000 + rng() % (d * 1000), in[i] });
	std::sort(keyed.begin(), keyed.end());
	for (auto &k : keyed)
		out.push_back(k.second);
	return out;
}

std::vector<u32> drain(struct eqds_rx *rx, u64 now)
{
	std::vector<u32> out;
	u32 seq;

	while (eqds_rx_release(rx, now, TMO, &seq))
		out.push_back(seq);
	return out;
}

struct rx_test : public ::testing::TestWithParam<u32> {
	struct eqds_rx rx;
	u32 isn;

	void SetUp() override
	{
		u32 epoch = epoch_for_isn(GetParam());

		eqds_rx_init(&rx, epoch, 150, 3);
		isn = GetParam();
	}

	u32 nheld_slots() const
	{
		u32 n = 0;

		for (u8 v : rx.slot)
			n += v >= 1 && v <= EQDS_MAX_SEGS;
		return n;
	}
};

} // namespace

TEST(RxIsn, EpochForIsnInverts)
{
	for (u32 isn : { 0u, 1u, 0xfffffff0u, 0x80000000u, 0x12345678u })
		EXPECT_EQ(eqds_isn(epoch_for_isn(isn)), isn);
	// Different epochs start far apart.
	EXPECT_NE(eqds_isn(1), eqds_isn(2));
	EXPECT_GT((u32)std::abs(eqds_seq_diff(eqds_isn(1), eqds_isn(2))),
		  1u << 20);
}

TEST_P(rx_test, Init)
{
	EXPECT_EQ(rx.rcv_nxt, isn);
	EXPECT_EQ(eqds_isn(rx.epoch), isn);
	EXPECT_EQ(rx.nheld, 0u);
	EXPECT_EQ(eqds_rx_sack(&rx), 0u);
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 0u);
	EXPECT_EQ(rx.asl.weight, 3u);
	EXPECT_FALSE(rx.asl.queued);
	EXPECT_EQ(rx.pulls.max_ahead, 150u);
	EXPECT_EQ(rx.pulls.pull_no, 0u);
	u32 seq;
	EXPECT_FALSE(eqds_rx_release(&rx, 1ull << 40, TMO, &seq));
}

TEST_P(rx_test, InOrderDelivery)
{
	for (u32 i = 0; i < 3000; i++) {
		ASSERT_EQ(eqds_rx_data(&rx, isn + i, 1, 10 * i), EQDS_RX_DELIVER);
		ASSERT_EQ(rx.rcv_nxt, isn + i + 1);
		u32 seq;
		ASSERT_FALSE(eqds_rx_release(&rx, 10 * i, TMO, &seq));
	}
	EXPECT_EQ(rx.since_ack, 3000u);
	EXPECT_EQ(rx.stats.held + rx.stats.dups + rx.stats.late +
		  rx.stats.too_far + rx.stats.too_old + rx.stats.skipped, 0u);
}

TEST_P(rx_test, ReorderIsHeldThenReleasedInOrder)
{
	EXPECT_EQ(eqds_rx_data(&rx, isn + 3, 1, 100), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 1, 200), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2, 1, 300), EQDS_RX_HOLD);
	EXPECT_EQ(rx.nheld, 3u);
	EXPECT_EQ(nheld_slots(), 3u);
	// Nothing goes before the hole is filled (or times out).
	EXPECT_TRUE(drain(&rx, 400).empty());
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 100 + TMO);
	EXPECT_EQ(eqds_rx_data(&rx, isn, 1, 500), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, 500), (std::vector<u32>{ isn + 1, isn + 2, isn + 3 }));
	EXPECT_EQ(rx.rcv_nxt, isn + 4);
	EXPECT_EQ(rx.nheld, 0u);
	EXPECT_EQ(nheld_slots(), 0u);
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 0u);
	EXPECT_EQ(rx.stats.held, 3u);
	EXPECT_EQ(rx.stats.skipped, 0u);
}

TEST_P(rx_test, Duplicates)
{
	EXPECT_EQ(eqds_rx_data(&rx, isn, 1, 0), EQDS_RX_DELIVER);
	EXPECT_EQ(eqds_rx_data(&rx, isn, 1, 0), EQDS_RX_DUP);	// delivered
	EXPECT_EQ(eqds_rx_data(&rx, isn + 5, 1, 0), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 5, 1, 0), EQDS_RX_DUP);	// held
	EXPECT_EQ(eqds_rx_data(&rx, isn + 7, 4, 0), EQDS_RX_HOLD);	// 7..10
	EXPECT_EQ(eqds_rx_data(&rx, isn + 9, 1, 0), EQDS_RX_DUP);	// inside
	EXPECT_EQ(eqds_rx_data(&rx, isn + 6, 2, 0), EQDS_RX_DUP);	// overlaps
	EXPECT_EQ(eqds_rx_data(&rx, isn + 10, 3, 0), EQDS_RX_DUP);	// overlaps
	EXPECT_EQ(rx.stats.dups, 5u);
	EXPECT_EQ(rx.nheld, 2u);
	// Before the first seq of the epoch nothing was sent: not late data.
	EXPECT_EQ(eqds_rx_data(&rx, isn - 1, 1, 0), EQDS_RX_DUP);
	EXPECT_EQ(eqds_rx_data(&rx, isn - 100, 3, 0), EQDS_RX_DUP);
	EXPECT_EQ(rx.stats.late, 0u);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 4, 0), EQDS_RX_DELIVER);	// 1..4
	EXPECT_EQ(drain(&rx, 0), (std::vector<u32>{ isn + 5 }));
	EXPECT_EQ(eqds_rx_data(&rx, isn + 6, 1, 0), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, 0), (std::vector<u32>{ isn + 7 }));
	EXPECT_EQ(rx.rcv_nxt, isn + 11);
	// All of them again: duplicates, each one.
	for (u32 i = 0; i < 11; i++)
		EXPECT_EQ(eqds_rx_data(&rx, isn + i, 1, 0), EQDS_RX_DUP) << i;
	// A retransmission cut differently, straddling rcv_nxt.
	EXPECT_EQ(eqds_rx_data(&rx, isn + 9, 3, 0), EQDS_RX_DUP);
	EXPECT_EQ(rx.rcv_nxt, isn + 11);
}

// A hole is given up on after the timeout; the packet in it is still
// delivered when it comes, once.
TEST_P(rx_test, TimeoutSkipsHoleThenLateDelivery)
{
	u32 seq;

	EXPECT_EQ(eqds_rx_data(&rx, isn, 1, 0), EQDS_RX_DELIVER);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 3, 1, 1000), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 4, 1, 5000), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 1000 + TMO);
	EXPECT_FALSE(eqds_rx_release(&rx, 1000 + TMO - 1, TMO, &seq));
	EXPECT_EQ(rx.rcv_nxt, isn + 1);
	EXPECT_EQ(drain(&rx, 1000 + TMO), (std::vector<u32>{ isn + 3, isn + 4 }));
	EXPECT_EQ(rx.stats.skipped, 2u);
	EXPECT_EQ(rx.rcv_nxt, isn + 5);
	EXPECT_EQ(rx.nheld, 0u);
	EXPECT_EQ(eqds_rx_sack(&rx), 0u);
	// The missing ones arrive late: delivered once each.
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2, 1, 2 * TMO), EQDS_RX_LATE);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2, 1, 2 * TMO), EQDS_RX_DUP);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 1, 2 * TMO), EQDS_RX_LATE);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 2, 2 * TMO), EQDS_RX_DUP);
	EXPECT_EQ(rx.stats.late, 2u);
	EXPECT_EQ(rx.rcv_nxt, isn + 5);
}

// A hole is given up on once a packet beyond it has been held a timeout;
// holes are waited on in batches: all those before a packet held when the
// wait began go together.
TEST_P(rx_test, HolesAreGivenUpInBatches)
{
	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 1, 0), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 3, 1, 10), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 5, 1, 20), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), TMO);
	// First batch: the hole before isn + 1. Then a new wait begins, for
	// the holes before isn + 3 and isn + 5, held by now.
	EXPECT_EQ(drain(&rx, TMO), (std::vector<u32>{ isn + 1 }));
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 2 * TMO);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 9, 1, TMO + 10), EQDS_RX_HOLD);
	EXPECT_TRUE(drain(&rx, 2 * TMO - 1).empty());
	// One hole of the batch is filled in time; the batch keeps its time.
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2, 1, 2 * TMO - 1), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, 2 * TMO - 1), (std::vector<u32>{ isn + 3 }));
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 2 * TMO);
	// isn + 9 came after the batch began: its hole waits from when the
	// batch is through.
	EXPECT_EQ(drain(&rx, 2 * TMO), (std::vector<u32>{ isn + 5 }));
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 3 * TMO);
	EXPECT_TRUE(drain(&rx, 3 * TMO - 1).empty());
	EXPECT_EQ(drain(&rx, 3 * TMO), (std::vector<u32>{ isn + 9 }));
	EXPECT_EQ(rx.stats.skipped, 5u);	// 0, 4, 6..8
	EXPECT_EQ(rx.rcv_nxt, isn + 10);
	EXPECT_EQ(eqds_rx_deadline(&rx, TMO), 0u);
}

// Loss sustained above one packet per timeout: each hole is still given up
// on within two timeouts, and the window never falls behind.
TEST_P(rx_test, SustainedLossDoesNotFallBehind)
{
	u64 now = 0;
	u32 seq, lost = 0;

	// One packet every 1 us, every 20th lost: five holes per timeout.
	for (u32 i = 0; i < 20000; i++, now += 1000) {
		if (i % 20 == 7) {
			lost++;
			continue;
		}
		enum eqds_rx_verdict v = eqds_rx_data(&rx, isn + i, 1, now);

		ASSERT_TRUE(v == EQDS_RX_DELIVER || v == EQDS_RX_HOLD) << i;
		while (eqds_rx_release(&rx, now, TMO, &seq))
			;
		// Nothing older than two timeouts is still held.
		ASSERT_LE((u32)(isn + i + 1 - rx.rcv_nxt), 2 * TMO / 1000) << i;
	}
	for (int k = 0; k < 3; k++) {
		now += TMO;
		while (eqds_rx_release(&rx, now, TMO, &seq))
			;
	}
	EXPECT_EQ(rx.nheld, 0u);
	EXPECT_EQ(rx.rcv_nxt, isn + 20000);
	EXPECT_EQ(rx.stats.skipped, lost);
	EXPECT_EQ(rx.stats.too_far, 0u);
}

// A time read before the one that started the wait (another CPU's) is no
// reason to give up on a hole.
TEST_P(rx_test, OlderTimeDoesNotTimeOut)
{
	u32 seq;

	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 1, 5000), EQDS_RX_HOLD);
	EXPECT_FALSE(eqds_rx_release(&rx, 4999, TMO, &seq));
	EXPECT_FALSE(eqds_rx_release(&rx, 0, TMO, &seq));
	EXPECT_EQ(rx.rcv_nxt, isn);
	EXPECT_TRUE(eqds_rx_release(&rx, 5000 + TMO, TMO, &seq));
	EXPECT_EQ(seq, isn + 1);
}

TEST_P(rx_test, WindowEdges)
{
	// Ahead: [rcv_nxt, rcv_nxt + 512) for every seq of the packet.
	EXPECT_EQ(eqds_rx_data(&rx, isn + EQDS_RX_AHEAD, 1, 0), EQDS_RX_TOO_FAR);
	EXPECT_EQ(eqds_rx_data(&rx, isn + EQDS_RX_AHEAD - 1, 1, 0), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + EQDS_RX_AHEAD - 3, 4, 0), EQDS_RX_TOO_FAR);
	EXPECT_EQ(eqds_rx_data(&rx, isn + EQDS_RX_AHEAD - 5, 4, 0), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 0x7fffffff, 1, 0), EQDS_RX_TOO_FAR);
	EXPECT_EQ(rx.stats.too_far, 3u);
	// Segment counts outside 1..EQDS_MAX_SEGS.
	EXPECT_EQ(eqds_rx_data(&rx, isn, 0, 0), EQDS_RX_TOO_FAR);
	EXPECT_EQ(eqds_rx_data(&rx, isn, EQDS_MAX_SEGS + 1, 0), EQDS_RX_TOO_FAR);
	EXPECT_EQ(eqds_rx_data(&rx, isn, EQDS_MAX_SEGS, 0), EQDS_RX_DELIVER);
	EXPECT_EQ(rx.rcv_nxt, isn + EQDS_MAX_SEGS);
	// Move far on, then look behind: 512 seqs are remembered.
	for (u32 s = isn + EQDS_MAX_SEGS; s != isn + 2000; s++) {
		enum eqds_rx_verdict v = eqds_rx_data(&rx, s, 1, 0);

		ASSERT_TRUE(v == EQDS_RX_DELIVER || v == EQDS_RX_DUP) << s - isn;
		drain(&rx, 0);
	}
	EXPECT_EQ(rx.rcv_nxt, isn + 2000);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2000 - EQDS_RX_AHEAD, 1, 0), EQDS_RX_DUP);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2000 - EQDS_RX_AHEAD - 1, 1, 0),
		  EQDS_RX_TOO_OLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 2000 - 0x7fffffff, 1, 0),
		  EQDS_RX_TOO_OLD);
	EXPECT_EQ(rx.stats.too_old, 2u);
	EXPECT_EQ(rx.nheld, 0u);
}

// Packets covering several seqs, held and released as a unit.
TEST_P(rx_test, MultiSeqPackets)
{
	EXPECT_EQ(eqds_rx_data(&rx, isn + 8, 5, 0), EQDS_RX_HOLD);	// 8..12
	EXPECT_EQ(eqds_rx_data(&rx, isn + 3, 5, 0), EQDS_RX_HOLD);	// 3..7
	EXPECT_EQ(rx.slot[eqds_rx_slot(isn + 3)], 5);
	EXPECT_EQ(rx.slot[eqds_rx_slot(isn + 4)], EQDS_RX_S_CONT);
	EXPECT_EQ(rx.nheld, 2u);
	EXPECT_EQ(nheld_slots(), 2u);
	EXPECT_EQ(eqds_rx_data(&rx, isn, 3, 0), EQDS_RX_DELIVER);	// 0..2
	EXPECT_EQ(drain(&rx, 0), (std::vector<u32>{ isn + 3, isn + 8 }));
	EXPECT_EQ(rx.rcv_nxt, isn + 13);
	// Timeout then a late multi-seq packet.
	EXPECT_EQ(eqds_rx_data(&rx, isn + 20, 2, 0), EQDS_RX_HOLD);
	EXPECT_EQ(drain(&rx, TMO), (std::vector<u32>{ isn + 20 }));
	EXPECT_EQ(rx.stats.skipped, 7u);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 13, 7, 0), EQDS_RX_LATE);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 14, 2, 0), EQDS_RX_DUP);
}

TEST_P(rx_test, SackBitmap)
{
	EXPECT_EQ(eqds_rx_data(&rx, isn + 1, 1, 0), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_data(&rx, isn + 3, 2, 0), EQDS_RX_HOLD);	// 3, 4
	EXPECT_EQ(eqds_rx_data(&rx, isn + 64, 1, 0), EQDS_RX_HOLD);	// bit 63
	EXPECT_EQ(eqds_rx_data(&rx, isn + 65, 1, 0), EQDS_RX_HOLD);	// beyond
	EXPECT_EQ(sacked(&rx), (std::vector<u32>{ 1, 3, 4, 64 }));
	EXPECT_EQ(eqds_rx_sack(&rx), 1ull | 1ull << 2 | 1ull << 3 | 1ull << 63);
	// Delivering the head moves the base: bits shift down.
	EXPECT_EQ(eqds_rx_data(&rx, isn, 1, 0), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, 0), (std::vector<u32>{ isn + 1 }));
	EXPECT_EQ(rx.rcv_nxt, isn + 2);
	EXPECT_EQ(sacked(&rx), (std::vector<u32>{ 1, 2, 62, 63 }));
}

// A long run with random reordering inside a bounded window and random
// duplicates: every seq comes up exactly once, in order.
TEST_P(rx_test, RandomReorderDeliversEverythingInOrder)
{
	std::mt19937 rng(GetParam());
	const u32 N = 20000;
	std::vector<u32> arrivals;
	std::vector<u32> up;
	u32 seq;

	for (u32 i = 0; i < N; i++)
		arrivals.push_back(i);
	// Displace each packet by up to 200 places, duplicate 2%.
	arrivals = bounded_shuffle(rng, arrivals, 200);
	for (u32 i = 0; i < N; i += 50)
		arrivals.insert(arrivals.begin() + i, arrivals[i + rng() % 50]);
	for (u32 i : arrivals) {
		switch (eqds_rx_data(&rx, isn + i, 1, 0)) {
		case EQDS_RX_DELIVER:
			up.push_back(i);
			break;
		case EQDS_RX_HOLD:
		case EQDS_RX_DUP:
			break;
		default:
			FAIL() << i;
		}
		while (eqds_rx_release(&rx, 0, TMO, &seq))
			up.push_back(seq - isn);
		ASSERT_EQ(nheld_slots(), rx.nheld);
	}
	ASSERT_EQ(up.size(), N);
	for (u32 i = 0; i < N; i++)
		ASSERT_EQ(up[i], i);
	EXPECT_EQ(rx.stats.skipped, 0u);
	EXPECT_EQ(rx.stats.dups, arrivals.size() - N);
}

// With some packets lost for good, a timer releasing on timeout still
// delivers every other one exactly once, in order but for late arrivals.
TEST_P(rx_test, RandomLossWithTimeouts)
{
	std::mt19937 rng(GetParam() ^ 1);
	const u32 N = 20000;
	std::vector<int> count(N);
	std::set<u32> lost;
	u64 now = 0;
	u32 seq, last = 0;
	bool any = false;

	for (u32 i = 0; i < N; i++)
		if (rng() % 50 == 0)
			lost.insert(i);
	std::vector<u32> arrivals;
	for (u32 i = 0; i < N; i++)
		if (!lost.count(i))
			arrivals.push_back(i);
	arrivals = bounded_shuffle(rng, arrivals, 20);
	for (u32 i : arrivals) {
		now += 1000 + rng() % 2000;
		enum eqds_rx_verdict v = eqds_rx_data(&rx, isn + i, 1, now);

		if (v == EQDS_RX_DELIVER || v == EQDS_RX_LATE)
			count[i]++;
		if (v == EQDS_RX_DELIVER) {
			ASSERT_TRUE(!any || i > last);
			last = i;
			any = true;
		}
		while (eqds_rx_release(&rx, now, TMO, &seq)) {
			ASSERT_TRUE(!any || seq - isn > last);
			last = seq - isn;
			any = true;
			count[last]++;
		}
	}
	for (int k = 0; k < 100 && rx.nheld; k++) {
		now += TMO;
		while (eqds_rx_release(&rx, now, TMO, &seq))
			count[seq - isn]++;
	}
	for (u32 i = 0; i < N; i++)
		ASSERT_EQ(count[i], lost.count(i) ? 0 : 1) << i;
	// Up to the last packet that came; every lost one before it skipped.
	u32 end = N;

	while (lost.count(end - 1))
		end--;
	EXPECT_EQ(rx.rcv_nxt, isn + end);
	EXPECT_EQ(rx.stats.skipped,
		  (u64)std::distance(lost.begin(), lost.lower_bound(end)));
	EXPECT_GT(rx.stats.skipped, 300u);
}

// A hole is NACKed, with the SACK bitmap, after the learnt skew (or the
// minimum); the retransmission then fills it before the timeout.
TEST_P(rx_test, LossIsNackedBeforeTheHoleIsGivenUp)
{
	constexpr u64 T = 8000000;	// release timeout, ns
	u32 seq;
	u64 sack;

	EXPECT_EQ(eqds_rx_nack_after(&rx, T), (u64)EQDS_RX_NACK_SLACK_NS);
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), 0u);
	// isn + 0 lost; 1, 2 and 4 arrive at t = 1000.
	for (u32 i : { 1u, 2u, 4u })
		ASSERT_EQ(eqds_rx_data(&rx, isn + i, 1, 1000), EQDS_RX_HOLD);
	u64 due = 1000 + eqds_rx_nack_after(&rx, T);
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), due);
	EXPECT_FALSE(eqds_rx_nack(&rx, due - 1, T, &seq, &sack));
	ASSERT_TRUE(eqds_rx_nack(&rx, due, T, &seq, &sack));
	EXPECT_EQ(seq, isn);
	EXPECT_EQ(sack, 0xbu);	// isn + 1, 2, 4: bits 0, 1, 3
	EXPECT_EQ(rx.stats.nacks, 1u);
	// Not again before eqds_rx_renack_after() (HoleThatStaysIsNackedAgain).
	EXPECT_FALSE(eqds_rx_nack(&rx, due + eqds_rx_renack_after(&rx, T) - 1, T, &seq, &sack));
	// The retransmissions fill both holes; nothing is skipped.
	EXPECT_EQ(eqds_rx_packet(&rx, isn, 1, true, due + 100), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, due + 100), (std::vector<u32>{ isn + 1, isn + 2 }));
	// isn + 3 was below the SACKed isn + 4: NACKed already.
	EXPECT_FALSE(eqds_rx_nack(&rx, due + 100 + eqds_rx_renack_after(&rx, T) - 1, T,
				  &seq, &sack));
	// A retransmission's wait says nothing about the paths' skew.
	EXPECT_EQ(rx.skew_ns, 0u);
	// The original of isn + 3 comes after all: the NACK was early, and the
	// skew learnt from it delays the next ones.
	EXPECT_EQ(eqds_rx_data(&rx, isn + 3, 1, due + 200), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, due + 200), (std::vector<u32>{ isn + 4 }));
	EXPECT_EQ(rx.stats.skipped, 0u);
	EXPECT_GT(rx.skew_ns, 0u);
	EXPECT_GT(eqds_rx_nack_after(&rx, T), due - 1000);
}

// A NACK or its retransmission can be lost too (a failed link takes both):
// while the hole at rcv_nxt, which holds everything back, stays, the holes
// are NACKed again each eqds_rx_renack_after(), the head first with the
// bitmap after it; a head hole never NACKed is left to the first batch.
TEST_P(rx_test, HoleThatStaysIsNackedAgain)
{
	constexpr u64 T = 16000000;
	u32 seq;
	u64 sack;

	for (u32 i : { 1u, 3u })
		ASSERT_EQ(eqds_rx_data(&rx, isn + i, 1, 1000), EQDS_RX_HOLD);
	u64 due = 1000 + eqds_rx_nack_after(&rx, T), again = eqds_rx_renack_after(&rx, T);
	EXPECT_EQ(again, 2 * eqds_rx_nack_after(&rx, T));
	EXPECT_LE(again, T / 4);
	ASSERT_TRUE(eqds_rx_nack(&rx, due, T, &seq, &sack));
	EXPECT_EQ(seq, isn);
	EXPECT_FALSE(eqds_rx_nack(&rx, due, T, &seq, &sack));
	// Lost: nothing came. The timer is asked for the second NACK.
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), due + again);
	EXPECT_FALSE(eqds_rx_nack(&rx, due + again - 1, T, &seq, &sack));
	ASSERT_TRUE(eqds_rx_nack(&rx, due + again, T, &seq, &sack));
	EXPECT_EQ(seq, isn);
	EXPECT_EQ(sack, 0x5u);	// isn + 1 and isn + 3 held: isn + 2 shown missing
	EXPECT_FALSE(eqds_rx_nack(&rx, due + again, T, &seq, &sack));
	EXPECT_EQ(rx.stats.nacks, 2u);
	// The head fills; isn + 2 is the head now, NACKed with the bitmap: it
	// is waited on again from now, not from its first NACK.
	u64 t = due + again + 100;
	EXPECT_EQ(eqds_rx_packet(&rx, isn, 1, true, t), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, t), (std::vector<u32>{ isn + 1 }));
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), t + again);
	EXPECT_FALSE(eqds_rx_nack(&rx, t + again - 1, T, &seq, &sack));
	ASSERT_TRUE(eqds_rx_nack(&rx, t + again, T, &seq, &sack));
	EXPECT_EQ(seq, isn + 2);
	EXPECT_EQ(sack, 0x1u);
	// Filled: nothing is waited on, nothing NACKed again.
	EXPECT_EQ(eqds_rx_packet(&rx, isn + 2, 1, true, t + again + 1), EQDS_RX_DELIVER);
	EXPECT_EQ(drain(&rx, t + again + 1), (std::vector<u32>{ isn + 3 }));
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), 0u);
	EXPECT_FALSE(eqds_rx_nack(&rx, t + T, T, &seq, &sack));
	EXPECT_EQ(rx.stats.skipped, 0u);
}

// A long run of missing seqs with nothing held within a bitmap after it
// takes a NACK per seq. The first report sends them all; a second report
// at most EQDS_RX_RENACKS, and the next one waits its turn.
TEST_P(rx_test, SecondReportIsBounded)
{
	constexpr u64 T = 16000000;
	u32 seq, first = 0, second = 0;
	u64 sack;

	for (u32 k = 0; k < 4; k++)
		ASSERT_EQ(eqds_rx_data(&rx, isn + 100 * k + 1, 1, 1000), EQDS_RX_HOLD);
	// The first batch is the hole before the first held packet, the next
	// the rest, one NACK delay later.
	u64 t = 1000 + eqds_rx_nack_after(&rx, T);
	while (eqds_rx_nack(&rx, t, T, &seq, &sack))
		first++;
	EXPECT_EQ(first, 1u);
	t += eqds_rx_nack_after(&rx, T);
	while (eqds_rx_nack(&rx, t, T, &seq, &sack))
		first++;
	// A NACK per seq until a held packet is within the bitmap: 36 a run.
	EXPECT_EQ(first, 1 + 3 * 36u);
	u64 again = eqds_rx_nack_deadline(&rx, T);
	EXPECT_EQ(again, 1000 + eqds_rx_nack_after(&rx, T) + eqds_rx_renack_after(&rx, T));
	ASSERT_TRUE(eqds_rx_nack(&rx, again, T, &seq, &sack));
	EXPECT_EQ(seq, isn);
	second = 1;
	while (eqds_rx_nack(&rx, again, T, &seq, &sack))
		second++;
	EXPECT_EQ(second, (u32)EQDS_RX_RENACKS);
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), again + eqds_rx_renack_after(&rx, T));
	EXPECT_FALSE(eqds_rx_nack(&rx, again + 1, T, &seq, &sack));
}

// Many holes, far more than one SACK bitmap spans: each is NACKed once in
// the batches, the first after one NACK delay, the rest after a second;
// then again while they stay, the head first.
TEST_P(rx_test, EveryHoleIsNackedInBatches)
{
	constexpr u64 T = 8000000;
	std::set<u32> holes, nacked;
	u32 seq;
	u64 sack;

	// 8-seq packets over 400 seqs; every fifth packet lost (not the first
	// would-be-held one, so the first batch is just the hole at rcv_nxt).
	for (u32 p = 0; p < 50; p++) {
		if (p % 5 == 0) {
			holes.insert(isn + 8 * p);
			continue;
		}
		ASSERT_EQ(eqds_rx_data(&rx, isn + 8 * p, 8, 1000), EQDS_RX_HOLD);
	}
	u64 after = eqds_rx_nack_after(&rx, T);
	EXPECT_FALSE(eqds_rx_nack(&rx, 1000 + after - 1, T, &seq, &sack));
	while (eqds_rx_nack(&rx, 1000 + after, T, &seq, &sack))
		ASSERT_TRUE(nacked.insert(seq).second);
	EXPECT_EQ(nacked, (std::set<u32>{ isn }));
	// The next batch began then: its deadline is one delay later.
	u64 t2 = 1000 + 2 * after;
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), t2);
	while (eqds_rx_nack(&rx, t2, T, &seq, &sack)) {
		ASSERT_TRUE(nacked.insert(seq).second) << seq - isn;
		// Each NACK's bitmap: the rest of its 8-seq hole, then the
		// packets held after it.
		EXPECT_EQ(sack & 0xffff, 0xff80u) << seq - isn;
	}
	// A NACK covers the holes below its bitmap's top: the others were
	// reported by earlier NACKs' bitmaps, not again.
	for (u32 h : nacked)
		EXPECT_TRUE(holes.count(h));
	EXPECT_GE(nacked.size(), holes.size() / 2);
	EXPECT_EQ(rx.stats.nacks, nacked.size());
	// Once the head's NACK is eqds_rx_renack_after() old, the holes still
	// there are reported again, the head first, as many NACKs as the
	// batches took (no more than EQDS_RX_RENACKS), with the same bitmaps
	// (HoleThatStaysIsNackedAgain).
	u64 again = 1000 + after + eqds_rx_renack_after(&rx, T);
	std::set<u32> renacked;
	EXPECT_EQ(eqds_rx_nack_deadline(&rx, T), again);
	EXPECT_FALSE(eqds_rx_nack(&rx, again - 1, T, &seq, &sack));
	ASSERT_TRUE(eqds_rx_nack(&rx, again, T, &seq, &sack));
	EXPECT_EQ(seq, isn);
	renacked.insert(seq);
	while (eqds_rx_nack(&rx, again, T, &seq, &sack))
		ASSERT_TRUE(renacked.insert(seq).second) << seq - isn;
	ASSERT_LE(nacked.size(), (size_t)EQDS_RX_RENACKS);
	EXPECT_EQ(renacked, nacked);
}

// Holes that fill by themselves raise the NACK delay to 1.5 skews plus the
// slack, at most half the timeout; it relaxes slowly.
TEST_P(rx_test, NackDelayFollowsTheObservedSkew)
{
	constexpr u64 T = 8000000;
	u64 now = 0;
	u32 next = 0;

	// Every other packet arrives 1 ms late: each hole fills in 1 ms.
	for (int k = 0; k < 10; k++, next += 2, now += 2000000) {
		ASSERT_EQ(eqds_rx_data(&rx, isn + next + 1, 1, now), EQDS_RX_HOLD);
		ASSERT_EQ(eqds_rx_data(&rx, isn + next, 1, now + 1000000),
			  EQDS_RX_DELIVER);
		ASSERT_EQ(drain(&rx, now + 1000000).size(), 1u);
	}
	EXPECT_EQ(rx.skew_ns, 1000000u);
	EXPECT_EQ(eqds_rx_nack_after(&rx, T), 1500000u + EQDS_RX_NACK_SLACK_NS);
	// A 1 ms hole is therefore not NACKed.
	u32 seq;
	u64 sack;
	ASSERT_EQ(eqds_rx_data(&rx, isn + next + 1, 1, now), EQDS_RX_HOLD);
	EXPECT_FALSE(eqds_rx_nack(&rx, now + 1000000, T, &seq, &sack));
	// Quick holes lower the estimate slowly, not at once.
	ASSERT_EQ(eqds_rx_data(&rx, isn + next, 1, now + 1000), EQDS_RX_DELIVER);
	ASSERT_EQ(drain(&rx, now + 1000).size(), 1u);
	EXPECT_GT(rx.skew_ns, 900000u);
	EXPECT_LT(rx.skew_ns, 1000000u);
	// One very slow path: capped at half the timeout.
	rx.skew_ns = 10000000;
	EXPECT_EQ(eqds_rx_nack_after(&rx, T), T / 2);
}

// Retransmissions that take longer than the half of the timeout the NACK
// delay leaves them (a slow path's queue): holes are waited on for the
// NACK delay and two repairs as long as those seen, so the next slow
// retransmission fills its hole instead of finding it given up on.
TEST_P(rx_test, HolesWaitForSlowRetransmissions)
{
	constexpr u64 T = 8000000;
	constexpr u64 REPAIR = 6000000;	// NACK to retransmission, ns
	u32 seq, out;
	u64 sack, now = 0;

	// isn lost, isn + 1 held; the NACK goes out, the retransmission comes
	// REPAIR later, inside the timeout.
	ASSERT_EQ(eqds_rx_data(&rx, isn + 1, 1, now), EQDS_RX_HOLD);
	now += eqds_rx_nack_after(&rx, T);
	ASSERT_TRUE(eqds_rx_nack(&rx, now, T, &seq, &sack));
	ASSERT_EQ(seq, isn);
	now += REPAIR;
	ASSERT_LT(now, T);
	ASSERT_EQ(eqds_rx_packet(&rx, isn, 1, true, now), EQDS_RX_DELIVER);
	ASSERT_TRUE(eqds_rx_release(&rx, now, T, &out));
	EXPECT_EQ(out, isn + 1);
	EXPECT_EQ(rx.repair_ns, REPAIR);
	EXPECT_EQ(rx.skew_ns, 0u);
	EXPECT_EQ(eqds_rx_hold_after(&rx, T), eqds_rx_nack_after(&rx, T) + 2 * REPAIR);

	// Later isn + 2 is lost and its retransmission takes 1.5 repairs:
	// past the timeout, inside the hold.
	u64 t0 = now = 100000000;
	ASSERT_EQ(eqds_rx_data(&rx, isn + 3, 1, now), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_deadline(&rx, T), t0 + eqds_rx_hold_after(&rx, T));
	now += eqds_rx_nack_after(&rx, T);
	ASSERT_TRUE(eqds_rx_nack(&rx, now, T, &seq, &sack));
	ASSERT_EQ(seq, isn + 2);
	now += REPAIR * 3 / 2;
	ASSERT_GT(now, t0 + T);
	EXPECT_FALSE(eqds_rx_release(&rx, now, T, &out));
	ASSERT_EQ(eqds_rx_packet(&rx, isn + 2, 1, true, now), EQDS_RX_DELIVER);
	ASSERT_TRUE(eqds_rx_release(&rx, now, T, &out));
	EXPECT_EQ(out, isn + 3);
	EXPECT_EQ(rx.stats.skipped, 0u);
	EXPECT_EQ(rx.stats.late, 0u);
	// The larger repair is learnt at once.
	EXPECT_EQ(rx.repair_ns, REPAIR * 3 / 2);
}

// However slow retransmissions were, a hole is given up on after
// EQDS_RX_HOLD_MAX timeouts; with none seen, after the timeout.
TEST_P(rx_test, HoldIsBounded)
{
	constexpr u64 T = 8000000;

	EXPECT_EQ(eqds_rx_hold_after(&rx, T), T);
	rx.repair_ns = 1000000;
	EXPECT_EQ(eqds_rx_hold_after(&rx, T), T);
	rx.repair_ns = 0xffffffffu;
	EXPECT_EQ(eqds_rx_hold_after(&rx, T), EQDS_RX_HOLD_MAX * T);
	u32 seq;

	ASSERT_EQ(eqds_rx_data(&rx, isn + 1, 1, 0), EQDS_RX_HOLD);
	EXPECT_EQ(eqds_rx_deadline(&rx, T), EQDS_RX_HOLD_MAX * T);
	EXPECT_FALSE(eqds_rx_release(&rx, EQDS_RX_HOLD_MAX * T - 1, T, &seq));
	ASSERT_TRUE(eqds_rx_release(&rx, EQDS_RX_HOLD_MAX * T, T, &seq));
	EXPECT_EQ(seq, isn + 1);
	EXPECT_EQ(rx.stats.skipped, 1u);
}

// The first seq just before 2^32 (and a few other places): everything above
// runs across the wrap.
INSTANTIATE_TEST_SUITE_P(Isn, rx_test,
			 ::testing::Values(0x1000u, 0xfffffff0u, 0xffffff00u,
					   0x7ffffff8u, 0u));
