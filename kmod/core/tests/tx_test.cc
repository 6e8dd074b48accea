// SPDX-License-Identifier: GPL-2.0
// The sender's tunnel state (kmod/core/tx.c): numbering, credit gating,
// SYN until confirmed, acks, NACKs, the retransmission timer and its
// backoff, RTS, restart on RST and stale epochs. Control packets are built,
// encoded and decoded as on the wire.
#include <gtest/gtest.h>

#include <vector>

#include "ctrl_pkt.h"
#include "rx.h"
#include "seq.h"
#include "tx.h"
#include "wire.h"

namespace {

constexpr u32 Q = 4096;
constexpr u32 WIN = 32 * Q;
constexpr u32 RTO = 200000;	// ns
constexpr u32 PKT = 1500;
constexpr u32 F = EQDS_FRAME_BYTES;	// framing, charged per segment
constexpr u32 COST = PKT + F;		// credit one PKT-byte packet takes
constexpr u32 EPOCH = 0x5eed;

struct tx_fixture : public ::testing::Test {
	struct eqds_tx tx;
	struct eqds_tx_actions act;
	u32 isn = eqds_isn(EPOCH);

	void SetUp() override
	{
		eqds_tx_init(&tx, EPOCH, WIN, Q, false, RTO, 1000);
	}

	void recv(const struct eqds_pkt &p, u64 now)
	{
		eqds_tx_ctrl(&tx, &p, now, &act);
	}

	// Pull n more quanta (cumulative pull number).
	u32 pull_no = 0;
	void pull(u32 n, u64 now)
	{
		pull_no += n;
		recv(ctrl(tx.epoch, EQDS_F_PULL, 0, pull_no), now);
	}

	// Quanta the pull target asks for beyond the highest pull seen.
	u16 wanted(u64 queued, u64 now)
	{
		return (u16)(eqds_tx_pull_target(&tx, queued, now) -
			     (u16)tx.credit.pull_hi);
	}

	u32 send(u32 nsegs = 1, u64 now = 2000)
	{
		u32 seq = 0xdeadbeef;

		EXPECT_TRUE(eqds_tx_send(&tx, PKT, nsegs, false, now, &seq));
		return seq;
	}

	// Credit at 1500, then every seq in flight at 2000 (GSO packets of 8).
	void fill_window()
	{
		pull(WIN, 1500);
		for (u32 i = 0; i < EQDS_TX_SLOTS / 8; i++)
			send(8, 2000);
	}
};

} // namespace

TEST_F(tx_fixture, InitRtsMode)
{
	EXPECT_EQ(tx.epoch, EPOCH);
	EXPECT_EQ(tx.snd_una, isn);
	EXPECT_EQ(tx.snd_nxt, isn);
	EXPECT_EQ(eqds_tx_inflight(&tx), 0u);
	EXPECT_FALSE(tx.confirmed);
	EXPECT_EQ(tx.credit.credit, 0u);	// RTS: ask first
	EXPECT_EQ(tx.credit.window, WIN);
	EXPECT_EQ(tx.rto_ns, RTO);
	EXPECT_EQ(eqds_tx_data_flags(&tx), EQDS_F_SYN);
	EXPECT_EQ(eqds_tx_deadline(&tx, 0), 0u);	// nothing to wait for
}

TEST_F(tx_fixture, BurstModeStartsWithAWindow)
{
	eqds_tx_init(&tx, EPOCH, WIN, Q, true, RTO, 0);
	EXPECT_EQ(tx.credit.credit, WIN);
	u32 n = 0, seq;

	while (eqds_tx_send(&tx, PKT, 1, false, 0, &seq))
		EXPECT_EQ(seq, isn + n++);
	EXPECT_EQ(n, WIN / COST);
	EXPECT_EQ(tx.credit.credit, WIN % COST);
}

TEST_F(tx_fixture, NumberingAndCreditGating)
{
	u32 seq = 0x1234;

	// No credit: nothing sent, nothing numbered.
	EXPECT_FALSE(eqds_tx_send(&tx, PKT, 1, false, 2000, &seq));
	EXPECT_EQ(seq, 0x1234u);
	EXPECT_EQ(tx.snd_nxt, isn);
	pull(1, 1500);
	EXPECT_EQ(act.credit_gained, Q);
	EXPECT_EQ(tx.credit.credit, Q);
	EXPECT_EQ(send(1), isn);
	EXPECT_EQ(send(3), isn + 1);	// GSO: three seqs, three frames
	EXPECT_EQ(tx.snd_nxt, isn + 4);
	EXPECT_EQ(tx.credit.credit, Q - 2 * PKT - 4 * F);
	// Not enough for a third.
	EXPECT_FALSE(eqds_tx_send(&tx, PKT, 1, false, 2000, &seq));
	EXPECT_EQ(tx.snd_nxt, isn + 4);
	EXPECT_EQ(tx.credit.credit, Q - 2 * PKT - 4 * F);
	// A retransmission spends credit but keeps its number.
	pull(1, 3000);
	seq = 0x1234;
	EXPECT_TRUE(eqds_tx_send(&tx, PKT, 1, true, 3000, &seq));
	EXPECT_EQ(seq, 0x1234u);
	EXPECT_EQ(tx.snd_nxt, isn + 4);
	EXPECT_EQ(tx.credit.credit, 2 * Q - 3 * PKT - 5 * F);
	EXPECT_EQ(eqds_tx_inflight(&tx), 4u);
}

TEST_F(tx_fixture, InflightIsBoundedByTheRing)
{
	u32 seq;

	eqds_tx_init(&tx, EPOCH, 0xffffffffu, Q, true, RTO, 0);
	for (u32 i = 0; i < EQDS_TX_SLOTS / 4; i++)
		ASSERT_TRUE(eqds_tx_send(&tx, 1, 4, false, 0, &seq));
	EXPECT_EQ(eqds_tx_inflight(&tx), (u32)EQDS_TX_SLOTS);
	EXPECT_FALSE(eqds_tx_send(&tx, 1, 1, false, 0, &seq));
	// Retransmissions are already in the ring.
	EXPECT_TRUE(eqds_tx_send(&tx, 1, 1, true, 0, &seq));
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 2), 0);
	EXPECT_TRUE(eqds_tx_send(&tx, 1, 2, false, 0, &seq));
	EXPECT_EQ(seq, isn + EQDS_TX_SLOTS);
	EXPECT_FALSE(eqds_tx_send(&tx, 1, 1, false, 0, &seq));
}

TEST_F(tx_fixture, SynUntilConfirmedByAnAck)
{
	pull(4, 1000);
	send();
	send();
	EXPECT_EQ(eqds_tx_data_flags(&tx), EQDS_F_SYN);
	// A pull alone does not confirm: the receiver may not ack yet.
	pull(1, 2000);
	EXPECT_FALSE(tx.confirmed);
	// Nor an ack for another epoch.
	recv(ctrl(EPOCH + 1, EQDS_F_SYN | EQDS_F_ACK, isn), 2000);
	EXPECT_FALSE(tx.confirmed);
	EXPECT_EQ(tx.stats.stale_ctrl, 1u);
	// Nor an ack beyond what was sent.
	recv(ctrl(EPOCH, EQDS_F_SYN | EQDS_F_ACK, isn + 3), 2000);
	EXPECT_FALSE(tx.confirmed);
	// An ack that moves nothing still confirms.
	recv(ctrl(EPOCH, EQDS_F_SYN | EQDS_F_ACK, isn), 3000);
	EXPECT_TRUE(tx.confirmed);
	EXPECT_FALSE(act.acked);
	EXPECT_EQ(eqds_tx_data_flags(&tx), 0);
}

TEST_F(tx_fixture, AcksFreeWhatTheyCover)
{
	pull(4, 1000);
	for (int i = 0; i < 5; i++)
		send();
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 2), 5000);
	EXPECT_TRUE(act.acked);
	EXPECT_EQ(act.acked_to, isn + 2);
	EXPECT_EQ(tx.snd_una, isn + 2);
	EXPECT_EQ(tx.progress_ns, 5000u);
	// The same ack again (reordered or duplicated): nothing new.
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 2), 6000);
	EXPECT_FALSE(act.acked);
	EXPECT_EQ(tx.progress_ns, 5000u);
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 5), 7000);
	EXPECT_TRUE(act.acked);
	EXPECT_EQ(act.acked_to, isn + 5);
	EXPECT_EQ(eqds_tx_inflight(&tx), 0u);
}

// A GSO packet is numbered [s, s + n) and split after the sender: an ack
// that stops inside it (a later piece lost) must not free its copy, or the
// NACK and the timeout for that piece find nothing to resend.
TEST_F(tx_fixture, AGsoPacketIsFreedOnlyWhenWhollyAcked)
{
	pull(8, 1000);
	u32 first = send(1), gso = send(10, 2000), last = send(1);

	EXPECT_EQ(gso, first + 1);
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK, gso + 5), 3000);
	EXPECT_TRUE(act.acked);
	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(act.retransmit_seq, gso + 5);
	EXPECT_TRUE(eqds_tx_acked(&tx, first, 1));
	EXPECT_FALSE(eqds_tx_acked(&tx, gso, 10));
	EXPECT_FALSE(eqds_tx_acked(&tx, last, 1));
	// Up to the GSO packet's last piece: still one piece short.
	recv(ctrl(EPOCH, EQDS_F_ACK, gso + 9), 4000);
	EXPECT_FALSE(eqds_tx_acked(&tx, gso, 10));
	recv(ctrl(EPOCH, EQDS_F_ACK, gso + 10), 5000);
	EXPECT_TRUE(eqds_tx_acked(&tx, gso, 10));
	EXPECT_FALSE(eqds_tx_acked(&tx, last, 1));
	recv(ctrl(EPOCH, EQDS_F_ACK, last + 1), 6000);
	EXPECT_TRUE(eqds_tx_acked(&tx, last, 1));
	// Across the wrap of the sequence space.
	eqds_tx_init(&tx, EPOCH, WIN, Q, true, RTO, 0);
	tx.snd_una = 0xfffffffbu;
	tx.snd_nxt = tx.snd_una;
	u32 wrap = send(10, 7000);

	recv(ctrl(EPOCH, EQDS_F_ACK, wrap + 7), 8000);
	EXPECT_FALSE(eqds_tx_acked(&tx, wrap, 10));
	recv(ctrl(EPOCH, EQDS_F_ACK, wrap + 10), 9000);
	EXPECT_TRUE(eqds_tx_acked(&tx, wrap, 10));
}

TEST_F(tx_fixture, AcksOutsideWhatWasSentAreIgnored)
{
	pull(4, 1000);
	for (int i = 0; i < 5; i++)
		send();
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 3), 3000);
	u64 bad = tx.stats.bad_acks;

	for (u32 ack : { isn + 6, isn + 1000, isn + 0x7fffffffu, isn + 2, isn,
			 isn - 1, isn - 0x7fffffffu }) {
		recv(ctrl(EPOCH, EQDS_F_ACK, ack), 4000);
		EXPECT_FALSE(act.acked) << ack - isn;
		EXPECT_EQ(tx.snd_una, isn + 3);
		EXPECT_EQ(tx.snd_nxt, isn + 5);
		EXPECT_EQ(tx.progress_ns, 3000u);
	}
	// Only acks beyond what was sent are bad: older ones are reordered.
	EXPECT_EQ(tx.stats.bad_acks, bad + 4);
	// The pull riding on a bad ack still counts: pulls are cumulative.
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_PULL, isn + 100, ++pull_no), 5000);
	EXPECT_EQ(act.credit_gained, Q);
	EXPECT_EQ(tx.snd_una, isn + 3);
}

TEST_F(tx_fixture, NackAsksForARetransmission)
{
	pull(4, 1000);
	for (int i = 0; i < 5; i++)
		send();
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK, isn + 2), 3000);
	EXPECT_TRUE(act.acked);
	EXPECT_EQ(act.acked_to, isn + 2);
	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(act.retransmit_seq, isn + 2);
	EXPECT_EQ(tx.stats.nacks, 1u);
	// With SACK too (the codec needs ACK with both).
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK | EQDS_F_SACK, isn + 2, 0, 0,
		  0x3), 3000);
	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(act.retransmit_seq, isn + 2);
	// A NACK for what is no longer in flight (acked, or never sent).
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK, isn + 5), 4000);
	EXPECT_TRUE(act.acked);
	EXPECT_FALSE(act.retransmit);
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK, isn + 9), 4000);
	EXPECT_FALSE(act.retransmit);
	EXPECT_EQ(tx.stats.nacks, 2u);
}

TEST_F(tx_fixture, NackSackShowsTheOtherHoles)
{
	pull(12, 1000);
	for (int i = 0; i < 10; i++)
		send();
	// Missing: isn+2 (the NACK), isn+4..5 and isn+8; held: 3, 6, 7, 9.
	// Bit i is isn + 3 + i.
	u64 sack = (1ull << 0) | (1ull << 3) | (1ull << 4) | (1ull << 6);
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK | EQDS_F_SACK, isn + 2, 0, 0,
		  sack), 3000);
	ASSERT_TRUE(act.retransmit);
	EXPECT_EQ(act.retransmit_seq, isn + 2);
	std::vector<u32> holes;
	for (u32 s = isn; s != isn + 80; s++)
		if (eqds_tx_nack_hole(&act, s))
			holes.push_back(s - isn);
	// The first (the ack itself) is retransmit_seq, not a further hole;
	// nothing above the highest SACKed seq is a hole yet.
	EXPECT_EQ(holes, (std::vector<u32>{ 4, 5, 8 }));
	// A plain ACK or a NACK without SACK shows no further holes.
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_NACK, isn + 2), 3000);
	for (u32 s = isn; s != isn + 80; s++)
		ASSERT_FALSE(eqds_tx_nack_hole(&act, s));
	recv(ctrl(EPOCH, EQDS_F_ACK | EQDS_F_SACK, isn + 2, 0, 0, sack), 3000);
	for (u32 s = isn; s != isn + 80; s++)
		ASSERT_FALSE(eqds_tx_nack_hole(&act, s));
}

TEST_F(tx_fixture, RetransmissionTimeoutDoublesAndResetsOnProgress)
{
	pull(4, 1000);
	send(1, 2000);
	send(1, 3000);
	EXPECT_EQ(tx.progress_ns, 2000u);	// from the first send
	EXPECT_EQ(eqds_tx_deadline(&tx, 0), 2000u + RTO);
	eqds_tx_timer(&tx, 2000 + RTO - 1, 0, &act);
	EXPECT_FALSE(act.retransmit);
	u64 t = 2000 + RTO;
	u32 rto = RTO;

	for (int i = 0; i < 10; i++) {
		eqds_tx_timer(&tx, t, 0, &act);
		EXPECT_TRUE(act.retransmit) << i;
		EXPECT_EQ(act.retransmit_seq, isn);
		rto = rto < 64 * RTO ? 2 * rto : rto;
		EXPECT_EQ(tx.rto_ns, rto) << i;
		EXPECT_EQ(eqds_tx_deadline(&tx, 0), t + rto);
		eqds_tx_timer(&tx, t + rto - 1, 0, &act);
		EXPECT_FALSE(act.retransmit);
		t += rto;
	}
	EXPECT_EQ(tx.rto_ns, 64 * RTO);
	EXPECT_EQ(tx.stats.timeouts, 10u);
	// Progress: back to rto_min, timed from the ack.
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 1), t);
	EXPECT_EQ(tx.rto_ns, RTO);
	EXPECT_EQ(eqds_tx_deadline(&tx, 0), t + RTO);
	eqds_tx_timer(&tx, t + RTO, 0, &act);
	EXPECT_TRUE(act.retransmit);
	EXPECT_EQ(act.retransmit_seq, isn + 1);
	// All acked: the timer has nothing to do.
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 2), t + RTO);
	EXPECT_EQ(eqds_tx_deadline(&tx, 0), 0u);
	eqds_tx_timer(&tx, t + 100 * RTO, 0, &act);
	EXPECT_FALSE(act.retransmit);
	// The next send after an idle time starts a fresh timeout.
	send(1, t + 200 * RTO);
	EXPECT_EQ(eqds_tx_deadline(&tx, 0), t + 200 * RTO + RTO);
}

// A large rto_min: 64 * rto_min does not fit 32 bits, the backoff must
// saturate rather than wrap to a short timeout.
TEST_F(tx_fixture, BackoffSaturatesWithoutOverflow)
{
	for (u32 rto_min : { 100000000u, 1000000000u, 3000000000u }) {
		u32 seq, prev = rto_min;
		u64 t = 0;

		eqds_tx_init(&tx, EPOCH, WIN, Q, true, rto_min, 0);
		ASSERT_TRUE(eqds_tx_send(&tx, PKT, 1, false, 0, &seq));
		for (int i = 0; i < 10; i++) {
			t += tx.rto_ns;
			eqds_tx_timer(&tx, t, 0, &act);
			ASSERT_TRUE(act.retransmit);
			EXPECT_GE(tx.rto_ns, prev) << rto_min << " " << i;
			prev = tx.rto_ns;
		}
		EXPECT_EQ(tx.rto_ns, 0xffffffffu) << rto_min;
	}
}

// Time read on another CPU may be older than the last progress: that is no
// timeout.
TEST_F(tx_fixture, OlderTimeIsNoTimeout)
{
	pull(4, 5000000);
	send(1, 5000000);
	eqds_tx_timer(&tx, 4999999, 1 << 20, &act);
	EXPECT_FALSE(act.retransmit);
	EXPECT_FALSE(act.send_rts);
	EXPECT_EQ(tx.rto_ns, RTO);
}

TEST_F(tx_fixture, RtsWhenQueuedDataWaitsForCredit)
{
	// rts_ns starts at init (1000): queued data with no credit asks again
	// an rto later, then two rtos after that while nothing comes.
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 1000u + RTO);
	eqds_tx_timer(&tx, 1000 + RTO - 1, PKT, &act);
	EXPECT_FALSE(act.send_rts);
	eqds_tx_timer(&tx, 1000 + RTO, PKT, &act);
	EXPECT_TRUE(act.send_rts);
	EXPECT_FALSE(act.retransmit);
	EXPECT_EQ(tx.stats.rts_sent, 1u);
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 1000u + 3 * RTO);
	eqds_tx_timer(&tx, 1000 + 2 * RTO - 1, PKT, &act);
	EXPECT_FALSE(act.send_rts);
	// A pull resets the clock and the backoff; covered data needs no RTS.
	pull(1, 1000 + 2 * RTO - 1);
	eqds_tx_timer(&tx, 1000 + 2 * RTO, PKT, &act);
	EXPECT_FALSE(act.send_rts);
	// (Q - 2F bytes with their framing, counted as 2 frames, fit in Q.)
	EXPECT_EQ(eqds_tx_deadline(&tx, Q - 2 * F), 0u);
	eqds_tx_timer(&tx, 1000 + 10 * RTO, Q - 2 * F, &act);
	EXPECT_FALSE(act.send_rts);
	// Nothing queued: no RTS.
	eqds_tx_timer(&tx, 1000 + 10 * RTO, 0, &act);
	EXPECT_FALSE(act.send_rts);
	// More queued than held: RTS an rto after the last pull.
	eqds_tx_timer(&tx, 1000 + 3 * RTO - 1, Q + 1, &act);
	EXPECT_TRUE(act.send_rts);
	EXPECT_EQ(tx.stats.rts_sent, 2u);
	// The earlier of the two timers is the deadline: the retransmission
	// timeout now, the next RTS having backed off to two rtos.
	send(1, 1000 + 3 * RTO);
	EXPECT_EQ(eqds_tx_deadline(&tx, 1 << 20), 1000u + 4 * RTO);
}

// Every seq in flight, credit in hand, nothing acknowledged: the acks may
// have been lost (a failed link takes them too), and with the window full
// nothing the sender sends would make the receiver ack again before the
// retransmission timeout. An eighth of the rto after the last progress
// it sends an RTS, which the receiver answers with a pull that
// carries its ack; then again each eighth while nothing comes.
TEST_F(tx_fixture, FullWindowWithNoAckSendsAnRts)
{
	const u64 wait = RTO / 8;

	fill_window();
	ASSERT_EQ(eqds_tx_inflight(&tx), (u32)EQDS_TX_SLOTS);
	EXPECT_FALSE(eqds_tx_may_send(&tx, PKT, 1, false, 2000));
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 2000u + wait);
	eqds_tx_timer(&tx, 2000 + wait - 1, PKT, &act);
	EXPECT_FALSE(act.send_rts);
	eqds_tx_timer(&tx, 2000 + wait, PKT, &act);
	EXPECT_TRUE(act.send_rts);
	EXPECT_FALSE(act.retransmit);
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 2000u + 2 * wait);
	eqds_tx_timer(&tx, 2000 + 2 * wait, PKT, &act);
	EXPECT_TRUE(act.send_rts);
	// Nothing queued: nothing waits for the window, no probe.
	eqds_tx_timer(&tx, 2000 + 4 * wait, 0, &act);
	EXPECT_FALSE(act.send_rts);
	// An ack, but not room for a largest packet: the probe waits again.
	recv(ctrl(tx.epoch, EQDS_F_ACK, isn + 8, 0), 2000 + 4 * wait);
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 2000u + 5 * wait);
	// Room: only the retransmission timeout is left.
	recv(ctrl(tx.epoch, EQDS_F_ACK, isn + 8 + EQDS_MAX_SEGS, 0), 2000 + 4 * wait);
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 2000u + 4 * wait + RTO);
}

// The probe waits an eighth of the rto, which backs off with each timeout:
// a peer that stopped answering is probed ever more slowly.
TEST_F(tx_fixture, WindowProbeSlowsWithTheRtoBackoff)
{
	fill_window();
	eqds_tx_timer(&tx, 2000 + RTO, PKT, &act);
	ASSERT_TRUE(act.retransmit);
	EXPECT_FALSE(act.send_rts);
	EXPECT_EQ(tx.rto_ns, 2 * RTO);
	EXPECT_EQ(eqds_tx_deadline(&tx, PKT), 2000u + RTO + 2 * RTO / 8);
}

// A full window short of credit is the credit RTS's case, with its backoff:
// no probe every eighth of an rto.
TEST_F(tx_fixture, FullWindowShortOfCreditWaitsForTheCreditRts)
{
	fill_window();
	ASSERT_EQ(eqds_tx_inflight(&tx), (u32)EQDS_TX_SLOTS);
	EXPECT_EQ(eqds_tx_deadline(&tx, WIN), 1500u + RTO);
	eqds_tx_timer(&tx, 2000 + RTO / 8, WIN, &act);
	EXPECT_FALSE(act.send_rts);
}

// The RTS wait counts minimum rtos, not the retransmission timeout, which
// backs off on its own: a sender whose data timed out a few times and whose
// credit falls a little short of its next packet (the pull target that would
// have asked for it was lost with a data packet) cannot retransmit without
// credit, and must not wait 2 * 160 ms to ask for it (the simulator's 4:1
// core left flows stuck for more than 400 ms).
TEST_F(tx_fixture, RtsWaitIgnoresTheRetransmissionBackoff)
{
	u64 t = 1000;
	u32 seq;

	pull(1, t);
	ASSERT_TRUE(eqds_tx_send(&tx, PKT, 1, false, t, &seq));
	for (int i = 0; i < 4; i++) {
		t += tx.rto_ns;
		eqds_tx_timer(&tx, t, 0, &act);
		ASSERT_TRUE(act.retransmit);
	}
	ASSERT_EQ(tx.rto_ns, 16 * RTO);
	// Data queued, not enough credit: the first RTS one minimum rto after
	// the last pull (long past), the next 2 after that, while the
	// retransmission timer waits 16.
	ASSERT_LT(tx.credit.credit, 2 * Q);
	eqds_tx_timer(&tx, t, 2 * Q, &act);
	EXPECT_TRUE(act.send_rts);
	EXPECT_EQ(eqds_tx_deadline(&tx, 2 * Q), t + 2 * RTO);
	eqds_tx_timer(&tx, t + 2 * RTO, 2 * Q, &act);
	EXPECT_TRUE(act.send_rts);
	EXPECT_FALSE(act.retransmit);
}

// With no credit coming, RTSs back off (1, 2, 4, 8, 16, 16 rtos apart), and
// never come while the receiver says its link is busy.
TEST_F(tx_fixture, RtsBacksOffAndWaitsOutTheBusyTime)
{
	u64 t = 1000, expect[] = { 1, 2, 4, 8, 16, 16 };

	for (u64 k : expect) {
		u64 due = t + k * RTO;

		ASSERT_EQ(eqds_tx_deadline(&tx, PKT), due);
		eqds_tx_timer(&tx, due - 1, PKT, &act);
		ASSERT_FALSE(act.send_rts);
		eqds_tx_timer(&tx, due, PKT, &act);
		ASSERT_TRUE(act.send_rts);
		t = due;
	}
	// A busy receiver (an ack saying 50 ms) pushes the next one out.
	struct eqds_pkt p = ctrl(EPOCH, EQDS_F_ACK, isn);

	p.ctrl.busy_us = 50000;
	pull(1, t);			// credit: backoff and clock reset
	recv(p, t);
	EXPECT_EQ(eqds_tx_deadline(&tx, 1 << 20), t + 50000000);
	eqds_tx_timer(&tx, t + RTO, 1 << 20, &act);
	EXPECT_FALSE(act.send_rts);
	eqds_tx_timer(&tx, t + 50000000, 1 << 20, &act);
	EXPECT_TRUE(act.send_rts);
}

TEST_F(tx_fixture, PullTargetCoversTheQueue)
{
	EXPECT_EQ(wanted(0, 2000), 0);
	EXPECT_EQ(wanted(1, 2000), 1);
	EXPECT_EQ(wanted(10 * Q + 1, 2000), 11);
	EXPECT_EQ(wanted(1ull << 40, 2000), WIN / Q);
	pull(2, 2000);
	// The queue's framing: a frame per quantum less a frame of bytes, and
	// one more.
	EXPECT_EQ(wanted(2 * Q - 2 * F - 1, 2000), 0);
	EXPECT_EQ(wanted(2 * Q - 2 * F, 2000), 1);
	EXPECT_EQ(wanted(3 * Q - 4 * F, 2000), 1);
	EXPECT_EQ(wanted(3 * Q, 2000), 2);
	// On the wire, the pull number wanted.
	EXPECT_EQ(eqds_tx_pull_target(&tx, 3 * Q, 2000), 4);
}

// A GSO packet of 45 MTU-sized segments with the real 1536-byte quantum:
// counting a frame per quantum asked for one frame less than it costs, so
// with absolute demand the sender held all it had asked for, could not
// send, and its timer saw no reason to ask again.
TEST_F(tx_fixture, DemandCoversTheFramingOfALongGsoPacket)
{
	const u32 QR = 1536, N = 45, BYTES = N * PKT;
	u32 cost = N * PKT + N * F;
	struct eqds_pkt p = ctrl(EPOCH, EQDS_F_PULL, 0, 0);
	u32 seq;

	eqds_tx_init(&tx, EPOCH, 150 * QR, QR, false, RTO, 1000);
	// Pulled what the queue asks for.
	u16 no = eqds_tx_pull_target(&tx, BYTES, 1000);

	p.ctrl.pull_no = no;
	p.ctrl.quantum = QR / 64;
	recv(p, 1000);
	EXPECT_GE(tx.credit.credit, cost);
	EXPECT_TRUE(eqds_tx_send(&tx, BYTES, N, false, 1000, &seq));
	// Credit one frame short of it: still wanted, and the timer asks.
	eqds_tx_init(&tx, EPOCH, 150 * QR, QR, false, RTO, 1000);
	p.ctrl.pull_no = 1;
	recv(p, 1000);
	tx.credit.credit = cost - F;
	EXPECT_FALSE(eqds_tx_may_send(&tx, BYTES, N, false, 0));
	EXPECT_NE(eqds_tx_pull_target(&tx, BYTES, 1000), (u16)tx.credit.pull_hi);
	EXPECT_NE(eqds_tx_deadline(&tx, BYTES), 0u);
	eqds_tx_timer(&tx, 1000 + 100 * RTO, BYTES, &act);
	EXPECT_TRUE(act.send_rts);
}

// Credit is link time: a packet costs its bytes and a frame per segment,
// and never more than the window, or a one-packet window could not send
// an MTU-sized packet.
TEST_F(tx_fixture, CostCountsFramingPerSegment)
{
	u32 seq;

	EXPECT_EQ(eqds_tx_cost(&tx, PKT, 1), PKT + F);
	EXPECT_EQ(eqds_tx_cost(&tx, 3 * PKT, 3), 3 * (PKT + F));
	EXPECT_EQ(eqds_tx_cost(&tx, 2 * WIN, 1), WIN);
	// Enough for the bytes is not enough.
	pull(1, 2000);
	ASSERT_TRUE(eqds_tx_send(&tx, Q - F, 1, false, 2000, &seq));
	EXPECT_EQ(tx.credit.credit, 0u);
	pull(1, 2000);
	EXPECT_FALSE(eqds_tx_send(&tx, Q - F + 1, 1, false, 2000, &seq));
	EXPECT_FALSE(eqds_tx_send(&tx, Q - 2 * F + 1, 2, false, 2000, &seq));
	EXPECT_EQ(tx.credit.credit, Q);
	// A one-quantum window: an MTU-sized packet costs the whole window.
	eqds_tx_init(&tx, EPOCH, Q, Q, true, RTO, 0);
	EXPECT_EQ(eqds_tx_cost(&tx, Q, 1), Q);
	EXPECT_TRUE(eqds_tx_send(&tx, Q, 1, false, 0, &seq));
	EXPECT_EQ(tx.credit.credit, 0u);
}

// The target also asks for what was sent in the last one or two
// intervals, so a flow fed a little at a time keeps credit coming. That is
// a guess, counted in whole quanta it covers; the queue is rounded up.
TEST_F(tx_fixture, PullTargetCountsRecentSending)
{
	const u64 R = EQDS_TX_RECENT_NS;
	u64 t = 10 * R;
	u32 seq;

	pull(8, t);
	for (int i = 0; i < 20; i++)
		ASSERT_TRUE(eqds_tx_send(&tx, PKT, 1, false, t, &seq));
	EXPECT_EQ(tx.credit.credit, 8 * Q - 20 * COST);
	// Nothing queued, 30760 bytes of credit spent just now: 28752 more
	// wanted (the recent sending is counted as charged, framing and all),
	// 7 whole quanta.
	EXPECT_EQ(wanted(0, t + 1), 7);
	// A quantum queued: 4172 bytes charged, 2164 more than the credit
	// held, so at least one quantum; with the guess 32924 bytes, 8 whole.
	EXPECT_EQ(wanted(Q, t + 1), 8);
	EXPECT_EQ(wanted(Q - F, t + 1 + 2 * R), 1);
	// The interval after still counts it, the one after that not.
	EXPECT_EQ(wanted(0, t + R), 7);
	EXPECT_EQ(wanted(0, t + 2 * R - 1), 7);
	EXPECT_EQ(wanted(0, t + 2 * R), 0);
	// Sending in the next interval: both intervals count.
	pull(8, t + R);
	ASSERT_TRUE(eqds_tx_send(&tx, PKT, 1, false, t + R, &seq));
	EXPECT_EQ(tx.recent_prev, 20 * COST);
	EXPECT_EQ(tx.recent_cur, COST);
	EXPECT_EQ(wanted(3 * Q, t + R + 1), (21 * COST + 3 * Q + 4 * F - tx.credit.credit) / Q);
	// A gap of two intervals forgets the older one.
	ASSERT_TRUE(eqds_tx_send(&tx, PKT, 1, false, t + 4 * R, &seq));
	EXPECT_EQ(tx.recent_prev, 0u);
	EXPECT_EQ(tx.recent_cur, COST);
	// A time read before the interval began (another CPU's) is no reason
	// to forget it.
	u64 q = tx.credit.credit + 2 * Q - 100;

	EXPECT_EQ(wanted(q, t + 4 * R), 3);
	EXPECT_EQ(wanted(q, t + 4 * R - 1), 3);
}

// A bulk flow below TCP Small Queues: one GSO packet waits at a time and
// the target asks for a window of credit for what was recently sent. The
// receiver pulls what is asked (its pulls land a packet later, with an
// ack for everything sent before). Credit
// asked for the recent sending is a guess and is rounded down: rounded up,
// every refill overran the window by a fraction of a quantum, and a third
// of the module's pulls were counted as refused (make bench, 2026-12-03).
TEST_F(tx_fixture, SteadyBulkFlowAsksForNoCreditBeyondTheWindow)
{
	const u32 QR = 1536, N = 44, BYTES = N * PKT;
	struct eqds_pkt p = ctrl(EPOCH, EQDS_F_ACK | EQDS_F_PULL, 0, 0);
	u32 rx_pull = 0, landing = 0, seq, sent = 0;
	u64 now = 1000;

	eqds_tx_init(&tx, EPOCH, 150 * QR, QR, false, RTO, now);
	p.ctrl.quantum = QR / 64;
	for (int i = 0; i < 400; i++, now += 60000) {
		if (landing) {
			p.ctrl.ack = tx.snd_nxt;	/* all received */
			p.ctrl.pull_no = landing;
			recv(p, now);
			landing = 0;
		}
		if (eqds_tx_send(&tx, BYTES, N, false, now, &seq))
			sent++;
		s16 ahead = (s16)(u16)(eqds_tx_pull_target(&tx, BYTES, now) - (u16)rx_pull);

		if (ahead > 0) {
			rx_pull += (u32)ahead;
			landing = rx_pull;
		}
	}
	EXPECT_GT(sent, 300u);
	EXPECT_EQ(tx.credit.refused_bytes, 0u);
}

// In burst mode a restart bursts again, unless the receiver's busy time
// (carried by every control packet) says its link is still saturated.
TEST_F(tx_fixture, BurstRestartHonoursTheReceiversBusyTime)
{
	eqds_tx_init(&tx, EPOCH, WIN, Q, true, RTO, 1000);
	EXPECT_EQ(tx.credit.credit, WIN);
	struct eqds_pkt p = ctrl(EPOCH, EQDS_F_ACK, isn);

	p.ctrl.busy_us = 500;		// busy until 2000 + 500 us
	recv(p, 2000);
	EXPECT_EQ(tx.busy_until_ns, 2000u + 500000u);
	eqds_tx_restart(&tx, 2000 + 499999, EPOCH + 1);
	EXPECT_EQ(tx.credit.credit, 0u);	// busy: ask first
	EXPECT_TRUE(tx.burst_mode);		// still a burst-mode tunnel
	eqds_tx_restart(&tx, 2000 + 500000, EPOCH + 2);
	EXPECT_EQ(tx.credit.credit, WIN);	// idle again: burst
	// A busy time of 0 clears it at once.
	p = ctrl(tx.epoch, EQDS_F_ACK, eqds_isn(tx.epoch));
	recv(p, 900000);
	EXPECT_EQ(tx.busy_until_ns, 900000u);
	eqds_tx_restart(&tx, 900000, EPOCH + 3);
	EXPECT_EQ(tx.credit.credit, WIN);
}

TEST_F(tx_fixture, RstRestartsWithANewerEpoch)
{
	pull(8, 1000);
	for (int i = 0; i < 5; i++)
		send();
	recv(ctrl(EPOCH, EQDS_F_ACK, isn + 2), 3000);
	recv(ctrl(EPOCH, EQDS_F_RST), 4000);
	EXPECT_TRUE(act.restart);
	EXPECT_FALSE(act.acked);
	EXPECT_FALSE(act.retransmit);
	EXPECT_EQ(tx.stats.rsts, 1u);
	// Nothing changes until the glue restarts.
	EXPECT_EQ(tx.epoch, EPOCH);
	EXPECT_TRUE(tx.confirmed);
	u64 acks = tx.stats.bad_acks;

	eqds_tx_restart(&tx, 5000, EPOCH + 77);
	EXPECT_TRUE(eqds_seq_after(tx.epoch, EPOCH));
	EXPECT_NE(tx.epoch, 0u);
	EXPECT_EQ(tx.snd_una, eqds_isn(tx.epoch));
	EXPECT_EQ(tx.snd_nxt, tx.snd_una);
	EXPECT_FALSE(tx.confirmed);
	EXPECT_EQ(eqds_tx_data_flags(&tx), EQDS_F_SYN);
	EXPECT_EQ(tx.credit.credit, 0u);	// RTS mode: not in burst mode
	EXPECT_EQ(tx.credit.pull_hi, 0u);	// new epoch, new pull numbers
	EXPECT_EQ(tx.credit.window, WIN);
	EXPECT_EQ(tx.rto_min_ns, RTO);
	EXPECT_EQ(tx.progress_ns, 5000u);
	EXPECT_EQ(tx.stats.restarts, 1u);
	EXPECT_EQ(tx.stats.rsts, 1u);		// kept across the restart
	EXPECT_EQ(tx.stats.bad_acks, acks);
	// The old epoch's control packets are stale now, RST included.
	u32 e = tx.epoch;

	recv(ctrl(EPOCH, EQDS_F_RST), 6000);
	EXPECT_FALSE(act.restart);
	recv(ctrl(EPOCH, EQDS_F_PULL, 0, 100), 6000);
	EXPECT_EQ(act.credit_gained, 0u);
	EXPECT_EQ(tx.credit.credit, 0u);
	EXPECT_EQ(tx.stats.stale_ctrl, 2u);
	EXPECT_EQ(tx.epoch, e);
	// The new epoch's pulls count from 1.
	recv(ctrl(e, EQDS_F_PULL, 0, 1), 7000);
	EXPECT_EQ(act.credit_gained, Q);
}

TEST_F(tx_fixture, StaleEpochControlIsIgnored)
{
	pull(2, 1000);
	send();
	struct eqds_tx before;

	memcpy(&before, &tx, sizeof(tx));

	for (u32 e : { EPOCH - 1, EPOCH + 1, 0u, ~EPOCH }) {
		for (u8 f : { (u8)EQDS_F_RST, (u8)(EQDS_F_ACK | EQDS_F_PULL),
			      (u8)(EQDS_F_ACK | EQDS_F_NACK) }) {
			recv(ctrl(e, f, isn + 1, 50), 2000);
			EXPECT_FALSE(act.restart || act.acked || act.retransmit ||
				     act.send_rts || act.credit_gained);
		}
	}
	EXPECT_EQ(tx.stats.stale_ctrl, 12u);
	tx.stats.stale_ctrl = 0;
	EXPECT_EQ(memcmp(&tx, &before, sizeof(tx)), 0);
}

TEST(TxEpoch, NextEpochIsNewerAndNonzero)
{
	for (u32 prev : { 0u, 1u, 0x7fffffffu, 0xfffffff0u, 0xffffffffu,
			  0xfffeffffu }) {
		for (u32 clock : { 0u, 1u, 0xffffu, 0x12345678u, 0xffffffffu }) {
			u32 e = eqds_tx_next_epoch(prev, clock);

			EXPECT_NE(e, 0u) << prev << " " << clock;
			EXPECT_TRUE(eqds_seq_after(e, prev)) << prev << " " << clock;
			// The clock is used when it is newer; else the next number.
			if (eqds_seq_after(clock, prev))
				EXPECT_EQ(e, clock ? clock : 1u);
			else
				EXPECT_LE(e - prev, 2u);
		}
	}
	// A clock behind prev (or equal) still moves forward by one.
	EXPECT_EQ(eqds_tx_next_epoch(1000, 999), 1001u);
	EXPECT_EQ(eqds_tx_next_epoch(1000, 5000), 5000u);
}

// A pure ack's worth (96 wire bytes, one segment) costs 134 of credit.
constexpr u32 ACK = 96;
constexpr u32 ACK_COST = ACK + F;

TEST_F(tx_fixture, SmallPacketBorrowsWhenCreditIsShort)
{
	u32 seq = 0;

	eqds_tx_set_overdraft(&tx, 1536);
	ASSERT_TRUE(eqds_tx_send(&tx, ACK, 1, false, 2000, &seq));
	EXPECT_EQ(seq, isn);
	EXPECT_EQ(tx.credit.debt, ACK_COST);
	EXPECT_EQ(tx.stats.borrowed, 1u);
	EXPECT_EQ(eqds_tx_data_flags(&tx), EQDS_F_SYN);
	// A full-sized packet still waits for credit; so does a small GSO one.
	EXPECT_FALSE(eqds_tx_send(&tx, PKT, 1, false, 2000, &seq));
	EXPECT_FALSE(eqds_tx_send(&tx, ACK, 2, false, 2000, &seq));
	// Off: the small packet waits too.
	eqds_tx_set_overdraft(&tx, 0);
	EXPECT_FALSE(eqds_tx_send(&tx, ACK, 1, false, 2000, &seq));
}

TEST_F(tx_fixture, OverdraftRefillsOnlyFromPulls)
{
	u32 seq, n = 0;

	eqds_tx_set_overdraft(&tx, 1536);
	while (eqds_tx_send(&tx, ACK, 1, false, 2000, &seq))
		n++;
	EXPECT_EQ(n, 1536 / ACK_COST);
	// Time does not refill it.
	EXPECT_FALSE(eqds_tx_send(&tx, ACK, 1, false, 2000 + 1000000000ull, &seq));
	pull(1, 3000);
	EXPECT_EQ(tx.credit.debt, 0u);
	EXPECT_EQ(tx.credit.credit, Q - n * ACK_COST);
	ASSERT_TRUE(eqds_tx_send(&tx, ACK, 1, false, 3000, &seq));
	EXPECT_EQ(tx.credit.debt, 0u);
	EXPECT_EQ(tx.stats.borrowed, n);
}

TEST_F(tx_fixture, NoBorrowingWhileTheReceiverIsBusy)
{
	struct eqds_pkt p = ctrl(EPOCH, EQDS_F_ACK, isn);
	u64 t = 5000;
	u32 seq;

	eqds_tx_set_overdraft(&tx, 1536);
	p.ctrl.busy_us = 1000;
	recv(p, t);
	EXPECT_FALSE(eqds_tx_send(&tx, ACK, 1, false, t + 999999, &seq));
	EXPECT_EQ(tx.credit.debt, 0u);
	EXPECT_EQ(tx.credit.credit, 0u);
	EXPECT_TRUE(eqds_tx_send(&tx, ACK, 1, false, t + 1000000, &seq));
}

TEST_F(tx_fixture, UnpaidDebtAsksForCredit)
{
	u32 seq;

	eqds_tx_set_overdraft(&tx, 1536);
	ASSERT_TRUE(eqds_tx_send(&tx, ACK, 1, false, 2000, &seq));
	// In flight (its retransmission timer) and owed (an RTS after rto).
	EXPECT_EQ(eqds_tx_deadline(&tx, 0), 1000 + RTO);
	EXPECT_NE((u16)(eqds_tx_pull_target(&tx, 0, 2000) - (u16)tx.credit.pull_hi), 0);
	eqds_tx_timer(&tx, 1000 + RTO, 0, &act);
	EXPECT_TRUE(act.send_rts);
}

TEST_F(tx_fixture, RestartForgivesDebtKeepsOverdraft)
{
	u32 seq;

	eqds_tx_set_overdraft(&tx, 1536);
	ASSERT_TRUE(eqds_tx_send(&tx, ACK, 1, false, 2000, &seq));
	eqds_tx_restart(&tx, 3000, EPOCH + 100);
	EXPECT_EQ(tx.credit.debt, 0u);
	EXPECT_EQ(tx.credit.overdraft, 1536u);
	ASSERT_TRUE(eqds_tx_send(&tx, ACK, 1, false, 3000, &seq));
	EXPECT_EQ(seq, eqds_isn(tx.epoch));
	EXPECT_EQ(eqds_tx_data_flags(&tx), EQDS_F_SYN);
}
