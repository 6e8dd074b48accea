// SPDX-License-Identifier: GPL-2.0
// The receiving tunnel's decisions (kmod/core/rxq.c) driven as the glue
// drives them: epoch admission and challenges, the ACK policy (every N
// packets, after a delay, on a timer, again for a duplicate), NACKs of
// holes and of holes given up on, the NACK burst, the timer, demand, and the
// ring of held packets at eqds_rx_held_slot() across the 2^32 wrap.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "rxq.h"
#include "seq.h"
#include "wire.h"

namespace {

constexpr u64 US = 1000;
constexpr u64 MS = 1000 * US;

u32 epoch_for_isn(u32 isn)
{
	u32 a = 2654435761u, inv = a;

	for (int i = 0; i < 5; i++)	// Newton: each step doubles the bits
		inv *= 2 - a * inv;
	return isn * inv;
}

// One receiving tunnel as the glue keeps it: the core's state, a ring of
// held packets (ids), the next path id and the timer.
struct tunnel {
	struct eqds_rx rx;
	struct eqds_epoch_guard guard;
	struct eqds_sched sched;
	struct eqds_rxq_cfg cfg = eqds_rxq_defaults;
	u32 ring[EQDS_RX_AHEAD] = {};
	std::vector<u32> up;		// ids in the order they went up
	u8 path = 0;
	u64 timer_at = 0;
	u64 now = 1 * MS;

	explicit tunnel(u32 epoch)
	{
		memset(&rx, 0, sizeof(rx));
		eqds_sched_init(&sched, 10000000000ull, 4096, 16 * 4096, 0);
		eqds_rx_init(&rx, 0, 32, 1);
		eqds_epoch_guard_init(&guard);
		struct eqds_rxq_plan p = data(epoch, true, 0, 0);

		EXPECT_TRUE(p.send);
	}

	void release(struct eqds_rxq_plan *p)
	{
		u32 seq;

		while (eqds_rxq_release(&rx, &cfg, now, p, &seq)) {
			u32 &slot = ring[eqds_rx_held_slot(seq)];

			EXPECT_NE(slot, 0u) << seq;
			up.push_back(slot);
			slot = 0;
		}
	}

	void apply(const struct eqds_rxq_plan &p)
	{
		path = p.path;
		if (p.timer_ns && (!timer_at || p.timer_ns < timer_at))
			timer_at = p.timer_ns;
	}

	// A data packet (nsegs 0: an RTS) carrying id; the plan it made.
	struct eqds_rxq_plan data(u32 epoch, bool syn, u32 seq, u32 nsegs,
				  u32 id = 0, bool rtx = false,
				  enum eqds_rx_verdict *verdict = nullptr,
				  enum eqds_rxq_admit *admit = nullptr)
	{
		struct eqds_rxq_plan p;
		enum eqds_rxq_admit a;
		enum eqds_rx_verdict v = EQDS_RX_TOO_FAR;

		eqds_rxq_plan_init(&p, path);
		a = eqds_rxq_admit(&rx, &guard, epoch, syn, now, &p);
		if (admit)
			*admit = a;
		if (a == EQDS_RXQ_BEGIN) {
			eqds_sched_deactivate(&sched, &rx.asl);
			eqds_rx_init(&rx, epoch, 32, 1);
			memset(ring, 0, sizeof(ring));
			eqds_rxq_begin(&rx, &guard, &p);
		} else if (a != EQDS_RXQ_TAKE) {
			apply(p);
			return p;
		}
		eqds_rxq_demand(&sched, &rx, (u16)(rx.pulls.pull_no + 4), !nsegs);
		if (nsegs) {
			bool may_hold = eqds_rxq_may_hold(&rx, seq, nsegs);

			v = eqds_rxq_data(&rx, seq, nsegs, rtx, now, &p);
			EXPECT_EQ(may_hold, v == EQDS_RX_HOLD) << seq << " " << v;
			if (v == EQDS_RX_DELIVER || v == EQDS_RX_LATE)
				up.push_back(id);
			if (v == EQDS_RX_HOLD) {
				EXPECT_EQ(ring[eqds_rx_held_slot(seq)], 0u);
				ring[eqds_rx_held_slot(seq)] = id;
			}
			release(&p);
			eqds_rxq_done(&rx, &cfg, now, false, &p);
		}
		if (verdict)
			*verdict = v;
		apply(p);
		return p;
	}

	struct eqds_rxq_plan data(u32 seq, u32 id, u32 nsegs = 1, bool rtx = false,
				  enum eqds_rx_verdict *verdict = nullptr)
	{
		return data(rx.epoch, false, seq, nsegs, id, rtx, verdict);
	}

	// The timer fires until the hole is given up on, NACKing it again
	// meanwhile (eqds_rx_renack_after()): the plan of the giving up.
	struct eqds_rxq_plan fire_until_given_up()
	{
		u64 skipped = rx.stats.skipped;
		struct eqds_rxq_plan p;

		for (int n = 0; n < 1000; n++) {
			p = fire();
			if (rx.stats.skipped != skipped || !timer_at)
				return p;
		}
		ADD_FAILURE() << "the hole was never given up on";
		return p;
	}

	// The timer fires at its time.
	struct eqds_rxq_plan fire()
	{
		struct eqds_rxq_plan p;

		EXPECT_NE(timer_at, 0u);
		if (timer_at > now)
			now = timer_at;
		timer_at = 0;
		eqds_rxq_plan_init(&p, path);
		release(&p);
		eqds_rxq_done(&rx, &cfg, now, true, &p);
		apply(p);
		return p;
	}

	u32 isn() const { return eqds_isn(rx.epoch); }
};

TEST(Rxq, SynBeginsAnEpochAndIsAcknowledged)
{
	tunnel t(5);
	enum eqds_rxq_admit a;
	struct eqds_rxq_plan p;

	EXPECT_EQ(t.rx.epoch, 5u);
	EXPECT_EQ(t.path, 1u);
	EXPECT_TRUE(t.rx.asl.queued);		// demand from the SYN's RTS
	EXPECT_EQ(t.sched.backlog, t.rx.asl.backlog);

	// Not a SYN, another epoch: unknown, RST.
	p = t.data(6, false, 0, 1, 0, false, nullptr, &a);
	EXPECT_EQ(a, EQDS_RXQ_RST);
	EXPECT_FALSE(p.send);
	// A SYN for another epoch is challenged once, with our epoch's ack.
	p = t.data(6, true, eqds_isn(6), 1, 0, false, nullptr, &a);
	EXPECT_EQ(a, EQDS_RXQ_REFUSED);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.epoch, 5u);
	EXPECT_EQ(p.ack.ack, t.isn());
	EXPECT_EQ(p.ack.flags, EQDS_F_SYN | EQDS_F_ACK);
	EXPECT_EQ(p.ack.path, 1u);
	EXPECT_EQ(t.path, 2u);
	p = t.data(6, true, eqds_isn(6), 1, 0, false, nullptr, &a);
	EXPECT_EQ(a, EQDS_RXQ_REFUSED);
	EXPECT_FALSE(p.send);
	EXPECT_EQ(t.rx.epoch, 5u);
	// Once the sender disowns epoch 5, its SYN begins epoch 6.
	ASSERT_TRUE(eqds_epoch_fin(&t.guard, t.rx.epoch, 5));
	p = t.data(6, true, eqds_isn(6), 1, 1, false, nullptr, &a);
	EXPECT_EQ(a, EQDS_RXQ_BEGIN);
	EXPECT_EQ(t.rx.epoch, 6u);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.ack, eqds_isn(6));	// the ack planned before the data
	EXPECT_EQ(t.up, std::vector<u32>{ 1 });
}

TEST(Rxq, AcksEveryNPacketsOrAfterTheDelay)
{
	tunnel t(9);
	struct eqds_rxq_plan p;
	u32 s = t.isn();

	for (u32 i = 0; i < EQDS_RXQ_ACK_EVERY - 1; i++) {
		p = t.data(s + i, i + 1);
		EXPECT_FALSE(p.send) << i;
		EXPECT_EQ(p.timer_ns, t.now + EQDS_RXQ_ACK_DELAY_NS);
	}
	p = t.data(s + EQDS_RXQ_ACK_EVERY - 1, EQDS_RXQ_ACK_EVERY);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.ack, s + EQDS_RXQ_ACK_EVERY);
	EXPECT_EQ(p.ack.flags, EQDS_F_SYN | EQDS_F_ACK);
	EXPECT_EQ(t.rx.since_ack, 0u);
	// One more, then the delay passes: the timer acknowledges it.
	t.timer_at = 0;
	p = t.data(s + EQDS_RXQ_ACK_EVERY, 99);
	EXPECT_FALSE(p.send);
	t.now += US;
	p = t.fire();
	EXPECT_EQ(t.now, 1 * MS + EQDS_RXQ_ACK_DELAY_NS);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.ack, s + EQDS_RXQ_ACK_EVERY + 1);
	EXPECT_EQ(p.timer_ns, 0u);
	EXPECT_EQ(eqds_rxq_plan_nacks(&p), 0u);
}

// A CE-marked arrival's path id goes back in the next acknowledgment
// (EQDS_CO_CE), once; the ack's own path id is taken all the same.
TEST(Rxq, AckEchoesTheLastMarkedPath)
{
	tunnel t(9);
	struct eqds_rxq_plan p;
	struct eqds_pkt pkt;
	u32 s = t.isn();
	u8 first = t.path;

	eqds_rx_ce(&t.rx, 40);
	eqds_rx_ce(&t.rx, 41);	// the last mark before the ack is echoed
	for (u32 i = 0; i < EQDS_RXQ_ACK_EVERY; i++)
		p = t.data(s + i, i + 1);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.opts, EQDS_CO_CE);
	EXPECT_EQ(p.ack.path, 41);
	EXPECT_EQ(t.path, (u8)(first + 1));
	eqds_rxq_ctrl_pkt(&p.ack, t.rx.epoch, &pkt);
	EXPECT_EQ(pkt.next_proto, EQDS_CO_CE);
	EXPECT_EQ(pkt.path_id, 41);
	for (u32 i = 0; i < EQDS_RXQ_ACK_EVERY; i++)
		p = t.data(s + EQDS_RXQ_ACK_EVERY + i, 100 + i);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.opts, 0);
	EXPECT_EQ(p.ack.path, (u8)(first + 1));
}

TEST(Rxq, DuplicateIsAcknowledgedAgain)
{
	tunnel t(11);
	enum eqds_rx_verdict v;
	struct eqds_rxq_plan p;

	t.data(t.isn(), 1);
	p = t.data(t.isn(), 1, 1, false, &v);
	EXPECT_EQ(v, EQDS_RX_DUP);
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.ack, t.isn() + 1);
	EXPECT_EQ(t.up, std::vector<u32>{ 1 });
}

// A hole waits for the paths' skew, then is NACKed in the ack (it is at
// rcv_nxt) with the SACK of what is held; the retransmission fills it.
TEST(Rxq, HoleIsNackedBeforeItIsGivenUpOn)
{
	tunnel t(13);
	struct eqds_rxq_plan p;
	u32 s = t.isn();
	u64 t0 = t.now;

	p = t.data(s + 1, 2);
	EXPECT_FALSE(p.send);
	EXPECT_EQ(p.timer_ns, t0 + eqds_rx_nack_after(&t.rx, EQDS_RXQ_REORDER_TIMEOUT_NS));
	p = t.fire();
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.flags, EQDS_F_SYN | EQDS_F_ACK | EQDS_F_NACK | EQDS_F_SACK);
	EXPECT_EQ(p.ack.ack, s);
	EXPECT_EQ(p.ack.sack, 1u);
	EXPECT_EQ(eqds_rxq_plan_nacks(&p), 1u);
	EXPECT_EQ(p.nnacks, 0u);
	// Then the hole's second NACK, should this one or its answer be lost.
	EXPECT_EQ(p.timer_ns, t.now + eqds_rx_renack_after(&t.rx, EQDS_RXQ_REORDER_TIMEOUT_NS));
	EXPECT_LT(p.timer_ns, t0 + EQDS_RXQ_REORDER_TIMEOUT_NS);
	t.now += 100 * US;
	p = t.data(s, 1, 1, true);
	EXPECT_EQ(t.up, (std::vector<u32>{ 1, 2 }));
	EXPECT_EQ(p.skipped, 0u);
	EXPECT_EQ(t.rx.nheld, 0u);
}

// Given up on at the reorder timeout: the packet after the hole goes up,
// and the hole is NACKed (no SACK) so the sender resends it, delivered late.
TEST(Rxq, HoleGivenUpOnIsNackedAndDeliveredLate)
{
	tunnel t(17);
	struct eqds_rxq_plan p;
	enum eqds_rx_verdict v;
	u32 s = t.isn();

	t.cfg.nack_burst = 1;
	t.data(s + 2, 3);
	p = t.fire_until_given_up();		// NACKs, then the release deadline
	EXPECT_EQ(t.rx.stats.nacks, 1 + EQDS_RXQ_REORDER_TIMEOUT_NS /
					eqds_rx_renack_after(&t.rx, EQDS_RXQ_REORDER_TIMEOUT_NS) - 1);
	EXPECT_EQ(p.skipped, 2u);
	EXPECT_EQ(t.up, std::vector<u32>{ 3 });
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.flags, EQDS_F_SYN | EQDS_F_ACK | EQDS_F_NACK);
	EXPECT_EQ(p.ack.ack, s);
	EXPECT_EQ(p.ack.sack, 0u);
	EXPECT_EQ(p.timer_ns, 0u);
	t.data(s + 1, 2, 1, true, &v);
	EXPECT_EQ(v, EQDS_RX_LATE);
	EXPECT_EQ(t.up, (std::vector<u32>{ 3, 2 }));
}

// More holes than one burst: the rest wait for the timer, due at once.
// (A hole with nothing held within 64 seqs after it is NACKed seq by seq.)
TEST(Rxq, NackBurstIsCappedAndTheRestFollow)
{
	tunnel t(19);
	struct eqds_rxq_plan p;
	u32 s = t.isn();

	t.cfg.nack_burst = 2;
	t.data(s + 70, 1);
	t.data(s + 140, 2);
	p = t.fire();
	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.flags, EQDS_F_SYN | EQDS_F_ACK | EQDS_F_NACK);
	EXPECT_EQ(p.ack.ack, s);
	ASSERT_EQ(p.nnacks, 2u);
	EXPECT_EQ(p.nack[0].ack, s + 1);
	EXPECT_EQ(p.nack[1].ack, s + 2);
	EXPECT_EQ(p.nack[0].flags, EQDS_F_NACK);
	EXPECT_EQ(eqds_rxq_plan_nacks(&p), 3u);
	EXPECT_EQ((u8)(p.ack.path + 1), p.nack[0].path);
	EXPECT_EQ((u8)(p.nack[0].path + 1), p.nack[1].path);
	EXPECT_EQ(t.path, (u8)(p.nack[1].path + 1));
	EXPECT_LE(p.timer_ns, t.now);		// more are due
	p = t.fire();
	EXPECT_FALSE(p.send);
	ASSERT_EQ(p.nnacks, 2u);
	EXPECT_EQ(p.nack[0].ack, s + 3);
	EXPECT_EQ(p.nack[1].ack, s + 4);
}

// Control packets skip the ids that the data to the same host avoids
// (eqds_rx_avoid()): a failed link loses acks and NACKs as it loses data.
TEST(Rxq, AcksAndNacksSkipTheIdsOurDataAvoids)
{
	tunnel t(23);
	struct eqds_rxq_plan p;
	u32 bad[EQDS_PATHS / 32] = {};
	u32 s = t.isn();

	// Every id that is 1 mod 4 (one spine of four), and 4 to 9.
	for (u32 id = 1; id < EQDS_PATHS; id += 4)
		bad[id / 32] |= 1u << (id % 32);
	for (u32 id = 4; id <= 9; id++)
		bad[id / 32] |= 1u << (id % 32);
	t.path = 1;
	eqds_rx_avoid(&t.rx, bad);
	t.cfg.nack_burst = 2;
	t.data(s + 70, 1);
	t.data(s + 140, 2);
	p = t.fire();
	ASSERT_TRUE(p.send);
	ASSERT_EQ(p.nnacks, 2u);
	EXPECT_EQ(p.ack.path, 2u);
	EXPECT_EQ(p.nack[0].path, 3u);
	EXPECT_EQ(p.nack[1].path, 10u);
	EXPECT_EQ(t.path, 11u);
	// Many more: none on an avoided id.
	for (int i = 0; i < 300; i++) {
		p = t.data(s + 200 + i, 3 + i);
		for (u32 k = 0; k < p.nnacks; k++)
			EXPECT_FALSE(bad[p.nack[k].path / 32] & (1u << (p.nack[k].path % 32)));
		if (p.send) {
			EXPECT_FALSE(bad[p.ack.path / 32] & (1u << (p.ack.path % 32)))
				<< (int)p.ack.path;
		}
	}
	// Nothing avoided: ids in turn again (a duplicate is acknowledged).
	eqds_rx_avoid(&t.rx, nullptr);
	t.path = 5;
	p = t.data(s + 200, 3);
	u8 next = 5;

	ASSERT_TRUE(p.send);
	EXPECT_EQ(p.ack.path, next);
}

// The ring of held packets across the 2^32 wrap: each packet is found at
// its first seq's slot, a duplicate (whole or overlapping, GSO) leaves the
// held one in place, and the packets go up in seq order across the wrap.
// (The sorted list the glue kept before needed the same serial order from
// its insertion; the ring needs none.)
TEST(Rxq, RingAcrossTheWrapKeepsHeldPacketsAndDropsDuplicates)
{
	tunnel t(epoch_for_isn(0xfffffffcu));
	enum eqds_rx_verdict v;
	u32 s = t.isn();

	ASSERT_EQ(s, 0xfffffffcu);
	t.data(s + 6, 7, 2, false, &v);		// 0x2..0x3
	EXPECT_EQ(v, EQDS_RX_HOLD);
	t.data(s + 2, 3, 1, false, &v);		// 0xfffffffe
	EXPECT_EQ(v, EQDS_RX_HOLD);
	t.data(s + 4, 5, 1, false, &v);		// 0x0
	EXPECT_EQ(v, EQDS_RX_HOLD);
	t.data(s + 4, 55, 1, false, &v);	// the same again
	EXPECT_EQ(v, EQDS_RX_DUP);
	t.data(s + 7, 77, 1, false, &v);	// inside the GSO packet
	EXPECT_EQ(v, EQDS_RX_DUP);
	t.data(s + 5, 66, 2, false, &v);	// overlapping it
	EXPECT_EQ(v, EQDS_RX_DUP);
	t.data(s + 2 + EQDS_RX_AHEAD, 88, 1, false, &v);	// a ring away
	EXPECT_EQ(v, EQDS_RX_TOO_FAR);
	EXPECT_EQ(t.ring[eqds_rx_held_slot(s + 2)], 3u);
	EXPECT_EQ(t.ring[eqds_rx_held_slot(s + 4)], 5u);
	EXPECT_EQ(t.ring[eqds_rx_held_slot(s + 6)], 7u);
	EXPECT_EQ(t.rx.nheld, 3u);
	t.data(s + 1, 2);			// still a hole at s
	t.data(s + 3, 4);
	EXPECT_TRUE(t.up.empty());
	t.data(s, 1);
	EXPECT_EQ(t.up, (std::vector<u32>{ 1, 2, 3, 4, 5 }));
	t.data(s + 5, 6);
	EXPECT_EQ(t.up, (std::vector<u32>{ 1, 2, 3, 4, 5, 6, 7 }));
	EXPECT_EQ(t.rx.rcv_nxt, 0x4u);
	EXPECT_EQ(t.rx.nheld, 0u);
	for (u32 i = 0; i < EQDS_RX_AHEAD; i++)
		EXPECT_EQ(t.ring[i], 0u) << i;
}

// The glue allocates its ring only for a packet that may be held: not for
// one in order, a duplicate (behind or ahead), a late one, one too old or
// beyond the window, or one of no or too many seqs; across the 2^32 wrap.
TEST(Rxq, MayHoldOnlyAheadOfAHoleWithinTheWindow)
{
	tunnel t(epoch_for_isn(0xfffffffeu));
	enum eqds_rx_verdict v;
	u32 s = t.isn();

	ASSERT_EQ(s, 0xfffffffeu);
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s, 1));		// in order
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s - 1, 1));	// before the ISN: dup
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s - EQDS_RX_AHEAD - 1, 1));	// too old
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + 1, 1));
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + 2, 1));	// 0x0
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + 1, EQDS_MAX_SEGS));
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 1, 0));
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 1, EQDS_MAX_SEGS + 1));
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + EQDS_RX_AHEAD - 1, 1));
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + EQDS_RX_AHEAD - 2, 2));
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + EQDS_RX_AHEAD - 1, 2));	// too far
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + EQDS_RX_AHEAD, 1));
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 0x80000000u, 1));

	t.data(s + 3, 4, 2, false, &v);				// 0x1..0x2
	EXPECT_EQ(v, EQDS_RX_HOLD);
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 3, 2));	// held: dup
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 4, 1));	// inside it
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 2, 2));	// overlapping it
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + 2, 1));
	t.data(s, 1);
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s, 1));		// delivered: dup
	t.fire_until_given_up();				// on s + 1, s + 2
	EXPECT_EQ(t.up, (std::vector<u32>{ 1, 4 }));
	EXPECT_EQ(t.rx.rcv_nxt, s + 5);
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 1, 1));	// late
	t.data(s + 1, 2, 1, true, &v);
	EXPECT_EQ(v, EQDS_RX_LATE);
	EXPECT_FALSE(eqds_rxq_may_hold(&t.rx, s + 1, 1));	// now a dup
	EXPECT_TRUE(eqds_rxq_may_hold(&t.rx, s + 6, 1));
}

TEST(Rxq, DemandIsTheSchedulersBacklog)
{
	tunnel t(23);
	u32 want;

	eqds_sched_deactivate(&t.sched, &t.rx.asl);
	want = eqds_rxq_demand(&t.sched, &t.rx, 0, false);
	EXPECT_EQ(want, 0u);
	EXPECT_FALSE(t.rx.asl.queued);
	want = eqds_rxq_demand(&t.sched, &t.rx, 6, false);
	EXPECT_GT(want, 0u);
	EXPECT_TRUE(t.rx.asl.queued);
	EXPECT_EQ(t.sched.backlog, want);
}

} // namespace
