// SPDX-License-Identifier: GPL-2.0
// The sending queue model (kmod/core/txq.c): admission, the pump's order
// (retransmissions, then classes from the highest, then an RTS), skipped
// steps that take nothing, the ring of kept packets and its growth, what an
// ack frees, the retransmit list (NACK holes, dedup by seq) and the requeue
// order on restart. A minimal glue keeps packet ids where the module keeps
// sk_buffs: one FIFO per class and a pointer ring beside the core's.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "ctrl_pkt.h"
#include "rx.h"
#include "seq.h"
#include "txq.h"
#include "wire.h"

namespace {

constexpr u32 Q = 4096;
constexpr u32 WIN = 32 * Q;
constexpr u32 RTO = 200000;	// ns
constexpr u32 PKT = 1500;
constexpr u32 COST = PKT + EQDS_FRAME_BYTES;
constexpr u32 EPOCH = 0x5eed;
constexpr u16 WIRE_Q = Q >> EQDS_QUANTUM_SHIFT;

struct pkt {
	int id;
	u32 wire_bytes;
	u32 nsegs;
};

struct sent {
	int id;
	struct eqds_txq_step st;
};

struct txq_fixture : public ::testing::Test {
	struct eqds_txq q;
	std::deque<pkt> queue[EQDS_TXQ_NCLASSES];
	std::vector<struct eqds_txq_desc> ring;
	std::vector<void *> ptrs;	// ids + 1 as pointers: 0 is empty
	std::vector<sent> out;
	u32 pull_no = 0;
	u64 now = 1000;
	bool fail_alloc = false;	// the glue has no memory for clones or RTSs

	void SetUp() override
	{
		eqds_txq_init(&q, EPOCH, WIN, Q, false, RTO, now, 7);
	}

	void enqueue(int cls, int id, u32 nsegs = 1, u32 bytes = PKT)
	{
		queue[cls].push_back({ id, bytes, nsegs });
		ASSERT_TRUE(eqds_txq_enqueue(&q, (u32)cls, bytes, nsegs));
	}

	// One MTU-sized packet, no namespace or host totals.
	enum eqds_txq_admit admit(u32 cls, const struct eqds_txq_limits *l)
	{
		return eqds_txq_admit(&q, cls, PKT, 1, l, nullptr);
	}

	void grow(u32 size)
	{
		std::vector<struct eqds_txq_desc> r(size);
		std::vector<void *> p(size);

		memset(r.data(), 0, size * sizeof(r[0]));
		eqds_txq_ring_move(&q, r.data(), size, ptrs.data(), p.data());
		ring.swap(r);
		ptrs.swap(p);
	}

	void pump()
	{
		struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES];
		struct eqds_txq_pump p;
		struct eqds_txq_step st;

		eqds_txq_pump_begin(&p, now);
		for (;;) {
			for (int c = 0; c < EQDS_TXQ_NCLASSES; c++) {
				memset(&heads[c], 0, sizeof(heads[c]));
				if (!queue[c].empty()) {
					heads[c].wire_bytes = queue[c].front().wire_bytes;
					heads[c].nsegs = (u8)queue[c].front().nsegs;
				}
			}
			u8 kind = eqds_txq_pump_next(&q, &p, heads, &st);

			if (kind == EQDS_TXQ_END)
				break;
			if (fail_alloc && kind != EQDS_TXQ_NEW) {
				eqds_txq_skip(&q, &p, &st);
				continue;
			}
			if (kind == EQDS_TXQ_RTX) {
				int id = (int)(intptr_t)ptrs[st.slot] - 1;

				ASSERT_GE(id, 0);
				eqds_txq_commit(&q, &p, &st);
				out.push_back({ id, st });
			} else if (kind == EQDS_TXQ_NEW) {
				pkt k = queue[st.cls].front();

				queue[st.cls].pop_front();
				eqds_txq_commit(&q, &p, &st);
				u32 need = eqds_txq_ring_need(&q, &st);

				ASSERT_LE(need, (u32)EQDS_TXQ_RING_MAX);
				if (need)
					grow(need);
				ptrs[eqds_txq_keep(&q, &st)] = (void *)(intptr_t)(k.id + 1);
				out.push_back({ k.id, st });
			} else {
				eqds_txq_commit(&q, &p, &st);
				out.push_back({ -1, st });
			}
		}
		eqds_txq_pump_end(&q, &p);
	}

	void pull(u32 quanta)
	{
		struct eqds_tx_actions act;
		struct eqds_txq_cursor cur;
		struct eqds_pkt fin;

		pull_no += quanta;
		struct eqds_pkt c = ctrl(q.tx.epoch, EQDS_F_PULL, 0, pull_no);

		ASSERT_EQ(eqds_txq_ctrl(&q, &c, now, &act, &cur, &fin), EQDS_CTRL_OK);
	}

	// An ack (and NACK/SACK) from the receiver; frees what it covers.
	struct eqds_tx_actions ack(u32 to, u8 flags = 0, u64 sack = 0)
	{
		struct eqds_tx_actions act;
		struct eqds_txq_cursor cur;
		struct eqds_pkt fin;
		u32 slot;
		struct eqds_pkt c = ctrl(q.tx.epoch, EQDS_F_ACK | flags, to, 0, WIRE_Q, sack);

		EXPECT_EQ(eqds_txq_ctrl(&q, &c, now, &act, &cur, &fin), EQDS_CTRL_OK);
		while (eqds_txq_acked_next(&q, &cur, &slot)) {
			EXPECT_NE(ptrs[slot], nullptr);
			ptrs[slot] = nullptr;
		}
		return act;
	}

	// Four packets sent; the first and second NACKed (the SACK shows the
	// third received): both wait on the retransmit list. Returns the
	// first's seq.
	u32 four_sent_two_nacked()
	{
		for (int i = 0; i < 4; i++)
			enqueue(0, i);
		pull(2);
		pump();
		EXPECT_EQ(out.size(), 4u);
		u32 s0 = out[0].st.seq;

		ack(s0, EQDS_F_NACK | EQDS_F_SACK, 0x2);
		EXPECT_EQ(q.nrtx, 2);
		return s0;
	}

	std::vector<int> ids() const
	{
		std::vector<int> v;

		for (const sent &s : out)
			v.push_back(s.id);
		return v;
	}

	u32 kept() const
	{
		u32 n = 0;

		for (u32 i = 0; i < q.ring_size; i++)
			n += q.ring[i].nsegs != 0;
		return n;
	}
};

TEST(TxqHelpers, WireBytesAndFirstEpoch)
{
	EXPECT_EQ(eqds_txq_wire_bytes(1400, 0, 1, 60), 1460u);
	// Three segments of a 52-byte-header packet: the header goes thrice.
	EXPECT_EQ(eqds_txq_wire_bytes(52 + 3000, 52, 3, 60), 3000u + 3 * (52 + 60));
	EXPECT_EQ(eqds_txq_first_epoch(0), 1u);
	EXPECT_EQ(eqds_txq_first_epoch(0x80000000u), 0x80000000u);
	EXPECT_EQ(sizeof(struct eqds_txq_desc), 8u);
}

// The module and the simulator start a tunnel with the same parameters.
TEST(TxqHelpers, StartFromWindowInPacketsAndClock)
{
	struct eqds_txq q;

	eqds_txq_start(&q, 150, true, EQDS_TXQ_RTO_MIN_NS, 0, 5, 9);
	EXPECT_EQ(q.tx.epoch, 1u);	// eqds_txq_first_epoch(0)
	EXPECT_EQ(q.tx.credit.window, 150u * EQDS_TXQ_QUANTUM_GUESS);
	EXPECT_EQ(q.tx.credit.credit, q.tx.credit.window);	// burst mode
	EXPECT_EQ(q.tx.credit.quantum, (u32)EQDS_TXQ_QUANTUM_GUESS);
	EXPECT_EQ(q.tx.rto_min_ns, 10000000u);
	EXPECT_EQ(q.paths.next, 9);
	EXPECT_FALSE(q.rts_due);
	eqds_txq_start(&q, 2, false, 1000, 0x1234, 5, 0);
	EXPECT_EQ(q.tx.epoch, 0x1234u);
	EXPECT_EQ(q.tx.credit.credit, 0u);
	EXPECT_TRUE(q.rts_due);
}

TEST_F(txq_fixture, AdmitDropsAtLimitAndMarksByRed)
{
	struct eqds_txq_limits l = { 10, 4, 8 };

	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(admit(0, &l), EQDS_TXQ_QUEUE);
		enqueue(0, i);
	}
	// qlen 4 = ecn_min: mark with probability 1/5, decided by the draw.
	EXPECT_EQ(admit(0, &l), EQDS_TXQ_RED);
	EXPECT_TRUE(eqds_txq_red_mark(&q, 0, &l, 0));
	EXPECT_FALSE(eqds_txq_red_mark(&q, 0, &l, 0xffffffffu));
	for (int i = 4; i < 8; i++)
		enqueue(0, i);
	EXPECT_EQ(admit(0, &l), EQDS_TXQ_MARK);
	enqueue(0, 8);
	enqueue(0, 9);
	EXPECT_EQ(admit(0, &l), EQDS_TXQ_DROP);
	// The other class has its own queue.
	EXPECT_EQ(admit(1, &l), EQDS_TXQ_QUEUE);
	// Defaults: step marking from half the limit.
	struct eqds_txq_limits d = { 20, 0, 0 };

	EXPECT_EQ(admit(0, &d), EQDS_TXQ_MARK);
	EXPECT_EQ(q.queued_bytes, 10ull * PKT);
	EXPECT_EQ(eqds_txq_len(&q), 10u);
}

// The namespace's and the host's queued bytes, each against its own limit,
// before the class queue's: a packet that would take a total past its limit
// is dropped for that reason, one that reaches it exactly is not.
TEST_F(txq_fixture, AdmitChecksTheTotalsFirst)
{
	struct eqds_txq_limits l = { 1, 0, 0 };
	struct eqds_txq_totals t = { 1000, 1000 + PKT, 0, 0 };

	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_QUEUE);
	t.ns_bytes++;
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_DROP_TOTAL);
	t.ns_limit = 0;		// none
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_QUEUE);
	t.host_bytes = 5000;
	t.host_limit = 5000 + PKT;
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_QUEUE);
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT + 1, 1, &l, &t), EQDS_TXQ_DROP_TOTAL);
	// Near 2^64: no wrap lets a packet through.
	t.host_bytes = ~0ull - 10;
	t.host_limit = ~0ull;
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_DROP_TOTAL);
	t.host_limit = 0;
	enqueue(0, 1);
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_DROP);
	t.ns_limit = 1;
	EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, 1, &l, &t), EQDS_TXQ_DROP_TOTAL);
	EXPECT_FALSE(eqds_txq_admitted(EQDS_TXQ_DROP_TOTAL));
	EXPECT_TRUE(eqds_txq_admitted(EQDS_TXQ_RED));
}

// A class that does not exist, or a packet of no seqs or of more than one
// packet may consume, is refused before anything is counted, so the u8 of
// struct eqds_txq_desc always holds the head's nsegs.
TEST_F(txq_fixture, AdmitAndEnqueueRefuseBadClassAndSegs)
{
	struct eqds_txq_limits l = { 100, 0, 0 };

	EXPECT_EQ(eqds_txq_admit(&q, EQDS_TXQ_NCLASSES, PKT, 1, &l, nullptr),
		  EQDS_TXQ_DROP_INVALID);
	EXPECT_EQ(eqds_txq_admit(&q, ~0u, PKT, 1, &l, nullptr), EQDS_TXQ_DROP_INVALID);
	EXPECT_FALSE(eqds_txq_red_mark(&q, EQDS_TXQ_NCLASSES, &l, 0));
	EXPECT_EQ(eqds_txq_admit(&q, 1, PKT, EQDS_MAX_SEGS, &l, nullptr), EQDS_TXQ_QUEUE);
	for (u32 n : { 0u, EQDS_MAX_SEGS + 1u, 255u, 256u, 65535u, 65536u }) {
		EXPECT_EQ(eqds_txq_admit(&q, 0, PKT, n, &l, nullptr), EQDS_TXQ_DROP_INVALID)
			<< n;
		EXPECT_FALSE(eqds_txq_enqueue(&q, 0, PKT, n)) << n;
	}
	EXPECT_FALSE(eqds_txq_enqueue(&q, EQDS_TXQ_NCLASSES, PKT, 1));
	EXPECT_EQ(eqds_txq_len(&q), 0u);
	EXPECT_EQ(q.queued_bytes, 0u);
	EXPECT_TRUE(eqds_txq_enqueue(&q, 1, PKT, EQDS_MAX_SEGS));
	EXPECT_EQ(q.qlen[1], 1u);
	eqds_txq_unqueue(&q, EQDS_TXQ_NCLASSES, PKT);	// ignored
	EXPECT_EQ(eqds_txq_len(&q), 1u);
}

// A GSO packet is split when it has more segments than seqs a packet may
// take, or when its bytes with the outer headers of EQDS_MAX_SEGS segments
// pass the window.
TEST_F(txq_fixture, MustSplitAtTheBoundaries)
{
	const u32 oh = 50, fit = WIN - EQDS_MAX_SEGS * oh;

	EXPECT_FALSE(eqds_txq_must_split(&q, 1000, EQDS_MAX_SEGS, oh));
	for (u32 n : { EQDS_MAX_SEGS + 1u, 255u, 256u, 65535u })
		EXPECT_TRUE(eqds_txq_must_split(&q, 1000, n, oh)) << n;
	EXPECT_FALSE(eqds_txq_must_split(&q, fit, 2, oh));
	EXPECT_TRUE(eqds_txq_must_split(&q, fit + 1, 2, oh));
	// No overflow at the top of u32.
	EXPECT_TRUE(eqds_txq_must_split(&q, ~0u, 2, oh));
	EXPECT_TRUE(eqds_txq_must_split(&q, 1000, 2, ~0u));
}

TEST_F(txq_fixture, RtsOnlyWhenDueQueuedAndNothingSent)
{
	pump();
	EXPECT_TRUE(out.empty());	// due, but nothing queued
	EXPECT_FALSE(q.rts_due);
	q.rts_due = true;
	enqueue(0, 1);
	pump();
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTS);
	EXPECT_EQ(out[0].st.flags, EQDS_F_RTS | EQDS_F_SYN);
	EXPECT_EQ(out[0].st.seq, q.tx.snd_nxt);
	EXPECT_EQ(out[0].st.path, 7);
	EXPECT_NE(out[0].st.pull_target, 0);
	out.clear();
	pump();
	EXPECT_TRUE(out.empty());	// asked once
	pull(1);
	q.rts_due = true;
	pump();
	ASSERT_EQ(out.size(), 1u);	// data went: no RTS with it
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_NEW);
}

// The header of each kind of step: what the module, the simulator and the
// loop test put on the wire, and it passes the codec's rules.
TEST_F(txq_fixture, StepHeaderIsTheCommittedStep)
{
	struct eqds_pkt h, back;
	u8 buf[EQDS_MAX_HLEN];

	enqueue(0, 1, 3, 3 * PKT);
	pump();		// an RTS
	pull(2);
	pump();		// the packet
	ASSERT_EQ(out.size(), 2u);
	for (const sent &s : out) {
		const struct eqds_txq_step &st = s.st;
		bool rts = st.kind == EQDS_TXQ_RTS;

		eqds_txq_step_hdr(&st, EQDS_NP_IPV6, 4000, &h);
		EXPECT_EQ(h.type, EQDS_TYPE_DATA);
		EXPECT_EQ(h.flags, st.flags);
		EXPECT_EQ(h.path_id, st.path);
		EXPECT_EQ(h.epoch, EPOCH);
		EXPECT_EQ(h.hlen, EQDS_DATA_HLEN);
		EXPECT_EQ(h.data.seq, st.seq);
		EXPECT_EQ(h.data.pull_target, st.pull_target);
		EXPECT_EQ(h.data.seg_count, rts ? 0 : 3);
		EXPECT_EQ(h.next_proto, rts ? EQDS_NP_NONE : EQDS_NP_IPV6);
		EXPECT_EQ(h.payload_len, rts ? 0u : 4000u);
		EXPECT_EQ(eqds_pkt_check(&h), 0);
		ASSERT_EQ(eqds_encode(buf, sizeof(buf), &h), EQDS_DATA_HLEN);
		ASSERT_EQ(eqds_decode(buf, EQDS_DATA_HLEN + h.payload_len, &back),
			  EQDS_DATA_HLEN);
		EXPECT_EQ(back.data.seq, st.seq);
		EXPECT_EQ(back.flags, st.flags);
	}
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTS);
	EXPECT_TRUE(out[0].st.flags & EQDS_F_RTS);
	EXPECT_EQ(out[1].st.kind, EQDS_TXQ_NEW);
}

TEST_F(txq_fixture, HigherClassFirstAndItsHeadBlocksLowerOnes)
{
	enqueue(0, 10);
	enqueue(0, 11);
	enqueue(1, 20);
	enqueue(1, 21, 2, 2 * PKT);
	pull(1);	// one quantum: 20, then 21 does not fit
	pump();
	EXPECT_EQ(ids(), std::vector<int>({ 20 }));
	// The ll head needs 2 * COST: the tcp class must not take the credit.
	EXPECT_LT(q.tx.credit.credit, 2 * PKT + 2 * EQDS_FRAME_BYTES);
	EXPECT_GE(q.tx.credit.credit, COST);
	pump();
	EXPECT_EQ(out.size(), 1u);
	pull(1);
	pump();
	EXPECT_EQ(ids(), std::vector<int>({ 20, 21, 10, 11 }));
	EXPECT_EQ(out[1].st.nsegs, 2);
	EXPECT_EQ(out[2].st.seq, out[1].st.seq + 2);
	EXPECT_EQ(out[1].st.path, out[0].st.path + 1);
	EXPECT_EQ(q.qlen[0], 0u);
	EXPECT_EQ(q.qlen[1], 0u);
	EXPECT_EQ(q.queued_bytes, 0u);
}

TEST_F(txq_fixture, RetransmissionsGoFirstAndListDedupsBySeq)
{
	for (int i = 0; i < 4; i++)
		enqueue(0, i);
	pull(2);
	pump();
	ASSERT_EQ(ids(), std::vector<int>({ 0, 1, 2, 3 }));
	u32 s0 = out[0].st.seq;

	out.clear();
	// NACK of s0 with a SACK showing s0 + 2 received: s0 + 1 is a hole.
	struct eqds_tx_actions act = ack(s0, EQDS_F_NACK | EQDS_F_SACK, 0x2);

	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(q.nrtx, 2);
	EXPECT_EQ(q.rtx[0], s0);
	EXPECT_EQ(q.rtx[1], s0 + 1);
	// The same NACK again, and a timeout for the same seq: no duplicates.
	ack(s0, EQDS_F_NACK | EQDS_F_SACK, 0x2);
	now += 100 * (u64)RTO;
	eqds_txq_timer(&q, now, &act);
	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(q.nrtx, 2);
	enqueue(0, 4);
	pull(1);
	pump();
	ASSERT_GE(out.size(), 2u);
	EXPECT_EQ(out[0].id, 0);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTX);
	EXPECT_TRUE(out[0].st.flags & EQDS_F_RTX);
	EXPECT_EQ(out[0].st.seq, s0);
	EXPECT_EQ(out[1].id, 1);
	EXPECT_EQ(q.nrtx, 0);
}

// A retransmission waiting for credit is demand as much as a queued packet:
// with nothing new queued, the timer still asks for its credit (an RTS once
// due) and the RTS's pull target covers it. Before, only the class queues
// counted: the tunnel asked for nothing and its RTO fired again and again.
TEST_F(txq_fixture, RetransmissionWaitingForCreditAsksForIt)
{
	struct eqds_tx_actions act;

	enqueue(0, 0);
	enqueue(0, 1);
	pull(1);
	pump();
	ASSERT_EQ(ids(), std::vector<int>({ 0, 1 }));
	ASSERT_LT(q.tx.credit.credit, COST);	// 4096 - 2 * 1538 left
	out.clear();
	// Past the recent-sending term (2 to 4 ms): only what waits counts.
	now += 5000000;
	eqds_txq_timer(&q, now, &act);
	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(q.nrtx, 1);
	EXPECT_EQ(q.queued_bytes, 0u);
	EXPECT_TRUE(act.send_rts);
	EXPECT_TRUE(q.rts_due);
	pump();
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTS);
	// One quantum covers the 1538 bytes the retransmission costs.
	EXPECT_EQ(out[0].st.pull_target, (u16)(pull_no + 1));
	out.clear();
	pull(1);
	pump();
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTX);
	EXPECT_EQ(out[0].id, 0);
	EXPECT_EQ(q.nrtx, 0);
}

TEST_F(txq_fixture, SkippedStepsTakeNoCreditSeqOrPath)
{
	enqueue(0, 0);
	enqueue(0, 1);
	pull(1);
	pump();
	ASSERT_EQ(out.size(), 2u);
	struct eqds_tx_actions act = ack(out[0].st.seq, EQDS_F_NACK);

	ASSERT_TRUE(act.retransmit);
	u32 credit, nxt = q.tx.snd_nxt;
	u8 path = q.paths.next;

	pull(1);
	credit = q.tx.credit.credit;
	fail_alloc = true;	// the clone fails
	out.clear();
	pump();
	EXPECT_TRUE(out.empty());
	EXPECT_EQ(q.tx.credit.credit, credit);
	EXPECT_EQ(q.tx.snd_nxt, nxt);
	EXPECT_EQ(q.paths.next, path);
	EXPECT_EQ(q.nrtx, 0);	// dropped: TCP recovers it
	// No memory for an RTS either: nothing taken.
	enqueue(0, 2);
	q.tx.credit.credit = 0;
	q.rts_due = true;
	pump();
	EXPECT_TRUE(out.empty());
	EXPECT_EQ(q.paths.next, path);
}

TEST_F(txq_fixture, NewPacketMissingFromGlueEndsPump)
{
	struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES] = {};
	struct eqds_txq_pump p;
	struct eqds_txq_step st;

	enqueue(0, 0);
	pull(1);
	heads[0].wire_bytes = PKT;
	heads[0].nsegs = 1;
	eqds_txq_pump_begin(&p, now);
	ASSERT_EQ(eqds_txq_pump_next(&q, &p, heads, &st), EQDS_TXQ_NEW);
	eqds_txq_skip(&q, &p, &st);
	EXPECT_EQ(eqds_txq_pump_next(&q, &p, heads, &st), EQDS_TXQ_END);
	EXPECT_EQ(q.tx.snd_nxt, eqds_isn(EPOCH));
}

// A retransmission step finished twice by the glue (or once after the
// list emptied) takes nothing more off the list, and never underflows it.
TEST_F(txq_fixture, RetransmitStepFinishedTwiceTakesOneEntry)
{
	struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES] = {};
	struct eqds_txq_pump p;
	struct eqds_txq_step st;
	u32 s0 = four_sent_two_nacked();

	pull(2);
	eqds_txq_pump_begin(&p, now);
	ASSERT_EQ(eqds_txq_pump_next(&q, &p, heads, &st), EQDS_TXQ_RTX);
	eqds_txq_skip(&q, &p, &st);
	eqds_txq_skip(&q, &p, &st);
	EXPECT_EQ(q.nrtx, 1);
	EXPECT_EQ(q.rtx[0], s0 + 1);
	ASSERT_EQ(eqds_txq_pump_next(&q, &p, heads, &st), EQDS_TXQ_RTX);
	eqds_txq_commit(&q, &p, &st);
	EXPECT_EQ(q.nrtx, 0);
	eqds_txq_skip(&q, &p, &st);
	eqds_txq_commit(&q, &p, &st);
	EXPECT_EQ(q.nrtx, 0);
	eqds_txq_pump_end(&q, &p);
}

// The glue lost a packet the core counts (a bug it warns of): once it
// hands the core its own counts, the tunnel sends what it has again.
TEST_F(txq_fixture, ResyncAfterMissingPacketLetsTheTunnelGoOn)
{
	struct eqds_txq_desc heads[EQDS_TXQ_NCLASSES] = {};
	struct eqds_txq_pump p;
	struct eqds_txq_step st;
	u32 qlen[EQDS_TXQ_NCLASSES] = {};

	eqds_txq_enqueue(&q, 0, PKT, 1);	// counted, but never in the glue's queue
	pull(2);
	eqds_txq_pump_begin(&p, now);
	ASSERT_EQ(eqds_txq_pump_next(&q, &p, heads, &st), EQDS_TXQ_NEW);
	eqds_txq_skip(&q, &p, &st);
	eqds_txq_pump_end(&q, &p);
	eqds_txq_resync(&q, qlen, 0);
	EXPECT_EQ(q.queued_bytes, 0u);
	enqueue(0, 7);
	pump();
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].id, 7);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_NEW);
}

TEST_F(txq_fixture, AckFreesWholePacketsOnlyAndRingGrows)
{
	for (int i = 0; i < 40; i++)
		enqueue(0, i, 3, 3 * PKT);
	pull(32);
	pump();
	u32 n = (u32)out.size();

	ASSERT_GT(n, 8u);	// beyond the first ring
	EXPECT_GE(q.ring_size, 3 * n);
	EXPECT_EQ(q.ring_size & (q.ring_size - 1), 0u);
	EXPECT_EQ(kept(), n);
	// Every kept packet found from any of its seqs, its id moved along.
	for (u32 i = 0; i < n; i++) {
		u32 first = 0, slot = eqds_txq_find(&q, out[i].st.seq + 2, &first);

		ASSERT_NE(slot, EQDS_TXQ_NONE);
		EXPECT_EQ(first, out[i].st.seq);
		EXPECT_EQ((int)(intptr_t)ptrs[slot] - 1, out[i].id);
	}
	// An ack inside the second packet frees the first only.
	ack(out[1].st.seq + 1);
	EXPECT_EQ(kept(), n - 1);
	u32 first = 0;

	EXPECT_NE(eqds_txq_find(&q, q.tx.snd_una, &first), EQDS_TXQ_NONE);
	EXPECT_EQ(first, out[1].st.seq);
	// The rest of it and the next: both freed.
	ack(out[3].st.seq);
	EXPECT_EQ(kept(), n - 3);
	ack(q.tx.snd_nxt);
	EXPECT_EQ(kept(), 0u);
	for (void *ptr : ptrs)
		EXPECT_EQ(ptr, nullptr);
}

TEST_F(txq_fixture, RestartRequeuesNewestFirstIntoTheirClasses)
{
	enqueue(1, 100);
	for (int i = 0; i < 4; i++)
		enqueue(0, i);
	enqueue(0, 4, 2, 2 * PKT);
	enqueue(0, 5);
	pull(3);
	pump();
	ASSERT_EQ(ids(), std::vector<int>({ 100, 0, 1, 2, 3, 4 }));
	u32 e0 = q.tx.epoch;

	// 100 and 0 acknowledged, 1 NACKed.
	struct eqds_tx_actions act = ack(out[2].st.seq, EQDS_F_NACK);

	EXPECT_EQ(q.nrtx, 1);
	struct eqds_txq_cursor cur;
	struct eqds_pkt fin;
	struct eqds_txq_desc d;
	u32 slot;

	struct eqds_pkt rst = ctrl(e0, EQDS_F_RST);

	ASSERT_EQ(eqds_txq_ctrl(&q, &rst, now, &act, &cur, &fin), EQDS_CTRL_OK);
	EXPECT_TRUE(act.restart);
	EXPECT_TRUE(act.pump_now);
	// The core asks for the clock instead of having it read for every
	// control packet: nothing has changed yet.
	EXPECT_EQ(q.tx.epoch, e0);
	EXPECT_EQ(q.nrtx, 1);
	EXPECT_FALSE(eqds_txq_requeue_next(&q, &cur, &slot, &d));
	eqds_txq_restart(&q, now, e0 + 50, &cur);
	EXPECT_EQ(q.tx.epoch, e0 + 50);
	EXPECT_EQ(q.nrtx, 0);
	EXPECT_TRUE(q.rts_due);
	std::vector<int> back;

	while (eqds_txq_requeue_next(&q, &cur, &slot, &d)) {
		int id = (int)(intptr_t)ptrs[slot] - 1;

		ptrs[slot] = nullptr;
		back.push_back(id);
		queue[d.cls].push_front({ id, d.wire_bytes, d.nsegs });
	}
	EXPECT_EQ(back, std::vector<int>({ 4, 3, 2, 1 }));
	EXPECT_EQ(kept(), 0u);
	EXPECT_EQ(queue[0].front().id, 1);
	EXPECT_EQ(queue[0].size(), 5u);
	EXPECT_EQ(q.qlen[0], 5u);
	EXPECT_EQ(q.queued_bytes, 6ull * PKT);
	// The new epoch numbers them again from its isn, in the old order.
	out.clear();
	pull(3);
	pump();
	EXPECT_EQ(ids(), std::vector<int>({ 1, 2, 3, 4, 5 }));
	EXPECT_EQ(out[0].st.seq, eqds_isn(e0 + 50));
}

TEST_F(txq_fixture, StaleAckIsDisownedAndAsksAgain)
{
	struct eqds_tx_actions act;
	struct eqds_txq_cursor cur;
	struct eqds_pkt fin;

	memset(&fin, 0, sizeof(fin));
	q.rts_due = false;
	struct eqds_pkt old = ctrl(EPOCH - 5, EQDS_F_ACK | EQDS_F_PULL, 0, 1);

	EXPECT_EQ(eqds_txq_ctrl(&q, &old, now, &act, &cur, &fin), EQDS_CTRL_STALE);
	EXPECT_EQ(fin.type, EQDS_TYPE_DATA);
	EXPECT_EQ(fin.flags, EQDS_F_FIN);
	EXPECT_EQ(fin.epoch, EPOCH - 5);
	EXPECT_TRUE(q.rts_due);
	EXPECT_TRUE(act.pump_now);	// the RTS goes now, with the FIN
	EXPECT_EQ(q.tx.credit.credit, 0u);
	// Again at once: rate limited, no FIN, nothing to pump for.
	memset(&fin, 0, sizeof(fin));
	EXPECT_EQ(eqds_txq_ctrl(&q, &old, now, &act, &cur, &fin), EQDS_CTRL_STALE);
	EXPECT_EQ(fin.type, 0);
	EXPECT_FALSE(act.pump_now);
	// An ack beyond what was sent: refused whole.
	struct eqds_pkt bad = ctrl(EPOCH, EQDS_F_ACK, q.tx.snd_nxt + 5);

	EXPECT_EQ(eqds_txq_ctrl(&q, &bad, now, &act, &cur, &fin), EQDS_CTRL_BAD_ACK);
	EXPECT_EQ(fin.type, 0);
	EXPECT_FALSE(act.pump_now);
	// An accepted one always pumps.
	EXPECT_TRUE(ack(q.tx.snd_una).pump_now);
}

TEST_F(txq_fixture, RingNeedRefusesWhatCannotBeKept)
{
	struct eqds_txq_step st;

	memset(&st, 0, sizeof(st));
	st.seq = q.tx.snd_una;
	st.nsegs = 1;
	EXPECT_EQ(eqds_txq_ring_need(&q, &st), (u32)EQDS_TXQ_RING_MIN);
	st.nsegs = 9;
	EXPECT_EQ(eqds_txq_ring_need(&q, &st), 16u);
	st.nsegs = EQDS_MAX_SEGS + 1;
	EXPECT_GT(eqds_txq_ring_need(&q, &st), (u32)EQDS_TXQ_RING_MAX);
	st.nsegs = 1;
	st.seq = q.tx.snd_una + EQDS_TXQ_RING_MAX;
	EXPECT_GT(eqds_txq_ring_need(&q, &st), (u32)EQDS_TXQ_RING_MAX);
}


// With an overdraft, a small packet at the head of ll goes at once on
// borrowed credit and states the debt as demand; the MTU-sized head of tcp,
// and anything behind it, waits for pulls.
TEST_F(txq_fixture, SmallHeadBorrowsBigHeadWaits)
{
	const u32 ACK = 96;

	eqds_tx_set_overdraft(&q.tx, 1536);
	enqueue(0, 0);
	enqueue(1, 1, 1, ACK);
	enqueue(0, 2, 1, ACK);
	pump();
	ASSERT_EQ(ids(), std::vector<int>({ 1 }));
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_NEW);
	EXPECT_EQ(out[0].st.cls, 1);
	EXPECT_TRUE(out[0].st.flags & EQDS_F_SYN);
	EXPECT_EQ(q.tx.credit.debt, ACK + EQDS_FRAME_BYTES);
	EXPECT_EQ(q.tx.stats.borrowed, 1u);
	// Its demand covers the debt and the waiting tcp packets.
	EXPECT_EQ(out[0].st.pull_target, (u16)(pull_no + 1));
	out.clear();
	pull(1);
	pump();
	EXPECT_EQ(ids(), std::vector<int>({ 0, 2 }));
	EXPECT_EQ(q.tx.credit.debt, 0u);
}

// Debt alone, nothing queued, still asks for credit once the RTS wait is
// over, so the next small packet finds its overdraft again.
TEST_F(txq_fixture, DebtAloneSendsAnRts)
{
	struct eqds_tx_actions act;
	const u32 ACK = 96;

	eqds_tx_set_overdraft(&q.tx, 1536);
	enqueue(1, 0, 1, ACK);
	pump();
	ASSERT_EQ(ids(), std::vector<int>({ 0 }));
	ASSERT_GT(q.tx.credit.debt, 0u);
	out.clear();
	// Acked: nothing in flight, nothing queued, only the debt.
	ack(q.tx.snd_nxt);
	now += 5000000;
	eqds_txq_timer(&q, now, &act);
	EXPECT_TRUE(act.send_rts);
	pump();
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTS);
}

// Path choice (paths.h) from what the sender learns: a NACKed packet's path,
// the further holes of its SACK bitmap, a timed-out packet's path and the
// path id a control packet echoes with EQDS_CO_CE are penalised, and the
// next packets go around them.
TEST_F(txq_fixture, LossesAndMarksPenaliseTheirPaths)
{
	for (int i = 0; i < 6; i++)
		enqueue(0, i);
	pull(3);
	pump();
	ASSERT_EQ(out.size(), 6u);
	for (u32 i = 0; i < 6; i++)
		EXPECT_EQ(out[i].st.path, (u8)(7 + i));	// in turn from the first
	u32 s0 = out[0].st.seq;

	// NACK of s0; its SACK shows s0 + 2 received, so s0 + 1 is lost too.
	ack(s0, EQDS_F_NACK | EQDS_F_SACK, 0x2);
	EXPECT_TRUE(eqds_paths_is_bad(&q.paths, 7));
	EXPECT_TRUE(eqds_paths_is_bad(&q.paths, 8));
	EXPECT_FALSE(eqds_paths_is_bad(&q.paths, 9));
	// A mark echoed for path 14.
	struct eqds_tx_actions act;
	struct eqds_txq_cursor cur;
	struct eqds_pkt fin, c = ctrl(q.tx.epoch, EQDS_F_ACK, s0, 0, WIRE_Q);

	c.next_proto = EQDS_CO_CE;
	c.path_id = 14;
	ASSERT_EQ(eqds_txq_ctrl(&q, &c, now, &act, &cur, &fin), EQDS_CTRL_OK);
	EXPECT_TRUE(eqds_paths_is_bad(&q.paths, 14));
	EXPECT_EQ(q.paths.stats.penalties, 3u);
	// The retransmissions and the new packets skip the bad paths; a
	// retransmission's new path is kept with it.
	out.clear();
	for (int i = 6; i < 12; i++)
		enqueue(0, i);
	pull(3);
	pump();
	ASSERT_GE(out.size(), 4u);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTX);
	EXPECT_EQ(out[0].st.path, 13);
	EXPECT_EQ(out[1].st.kind, EQDS_TXQ_RTX);
	EXPECT_EQ(out[1].st.path, 15);	// 14 skipped
	EXPECT_EQ(out[2].st.path, 16);
	EXPECT_EQ(q.paths.stats.repaths, 1u);
	u32 first;
	u32 slot = eqds_txq_find(&q, s0, &first);

	ASSERT_NE(slot, (u32)EQDS_TXQ_NONE);
	EXPECT_EQ(q.ring[slot].path, 13u);
	// Nothing acknowledged for an rto: the oldest packet's path (now 13)
	// is penalised too.
	now += 2 * (u64)RTO;
	eqds_txq_timer(&q, now, &act);
	ASSERT_TRUE(act.retransmit);
	EXPECT_EQ(act.retransmit_seq, s0);
	EXPECT_TRUE(eqds_paths_is_bad(&q.paths, 13));
}

// The receiver NACKs a hole again while it stays (rx.h,
// eqds_rx_renack_after()). A NACK of packets whose retransmission has not
// left yet is old news: their ids stay penalised until the walk sends again,
// and the retransmissions go first. Nothing is listed twice.
TEST_F(txq_fixture, RepeatedNackBeforeTheRetransmissionIsOldNews)
{
	u32 s0 = four_sent_two_nacked();

	EXPECT_EQ(q.paths.stats.penalties, 2u);
	// No credit since: both still wait. The same NACK again.
	ack(s0, EQDS_F_NACK | EQDS_F_SACK, 0x2);
	EXPECT_EQ(q.paths.stats.penalties, 2u);
	EXPECT_EQ(q.nrtx, 2u);
	// Sent, then NACKed again: lost again, on their new paths.
	out.clear();
	pull(2);
	pump();
	ASSERT_EQ(out.size(), 2u);
	EXPECT_EQ(out[0].st.kind, EQDS_TXQ_RTX);
	ack(s0, EQDS_F_NACK | EQDS_F_SACK, 0x2);
	EXPECT_EQ(q.paths.stats.penalties, 4u);
}

// A control packet refused (another epoch) teaches nothing about paths.
TEST_F(txq_fixture, RefusedControlPacketPenalisesNothing)
{
	struct eqds_tx_actions act;
	struct eqds_txq_cursor cur;
	struct eqds_pkt fin, c = ctrl(q.tx.epoch + 1, EQDS_F_ACK, 0, 0, WIRE_Q);

	c.next_proto = EQDS_CO_CE;
	c.path_id = 3;
	EXPECT_NE(eqds_txq_ctrl(&q, &c, now, &act, &cur, &fin), EQDS_CTRL_OK);
	EXPECT_EQ(q.paths.stats.penalties, 0u);
}

} // namespace
