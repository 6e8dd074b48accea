// SPDX-License-Identifier: GPL-2.0
// Who may replace a receiving tunnel's epoch (kmod/core/epoch.c): a SYN for
// another epoch is challenged, never taken at once; only the real sender,
// once it has moved to a new epoch, disowns the old one with a FIN, and
// after that a new epoch begins. The sender's side is driven through
// eqds_tx and the codec, as the module does.
#include <gtest/gtest.h>

#include "epoch.h"
#include "rx.h"
#include "tx.h"
#include "wire.h"

namespace {

constexpr u32 Q = 1536;
constexpr u32 WIN = 150 * Q;
constexpr u64 MS = 1000000;
constexpr u32 E = 0x80000010u;		// the epoch the receiver follows

// The challenge: an ordinary ack for epoch, as the receiver sends them.
struct eqds_pkt challenge(u32 epoch, u32 ack)
{
	struct eqds_pkt p;

	memset(&p, 0, sizeof(p));
	p.type = EQDS_TYPE_CTRL;
	p.flags = EQDS_F_SYN | EQDS_F_ACK;
	p.epoch = epoch;
	p.ctrl.ack = ack;
	return p;
}

struct Guard : ::testing::Test {
	struct eqds_epoch_guard g;

	void SetUp() override { eqds_epoch_guard_init(&g); }
};

TEST_F(Guard, NewTunnelBeginsWithAnySyn)
{
	EXPECT_EQ(eqds_epoch_data(&g, 0, 12345, true, 0), EQDS_EPOCH_BEGIN);
	EXPECT_EQ(eqds_epoch_data(&g, 0, 12345, false, 0), EQDS_EPOCH_UNKNOWN);
}

TEST_F(Guard, CurrentEpochGoesOn)
{
	EXPECT_EQ(eqds_epoch_data(&g, E, E, true, 0), EQDS_EPOCH_CURRENT);
	EXPECT_EQ(eqds_epoch_data(&g, E, E, false, 0), EQDS_EPOCH_CURRENT);
}

TEST_F(Guard, OtherEpochWithoutSynIsUnknown)
{
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 1, false, 0), EQDS_EPOCH_UNKNOWN);
	EXPECT_EQ(eqds_epoch_data(&g, E, E - 1, false, 0), EQDS_EPOCH_UNKNOWN);
}

// The attack the guard exists for: newer epochs (what once replaced the
// tunnel's) and older ones are challenged, and the tunnel keeps its epoch.
TEST_F(Guard, SynForAnotherEpochIsChallengedNotTaken)
{
	const u32 forged[] = {E + 1, E + 0x7fffffffu, E - 1, E ^ 0x5a5a5a5au, 1};
	u64 now = 10 * MS;

	for (u32 x : forged) {
		EXPECT_EQ(eqds_epoch_data(&g, E, x, true, now), EQDS_EPOCH_CHALLENGE) << x;
		EXPECT_EQ(eqds_epoch_data(&g, E, E, false, now), EQDS_EPOCH_CURRENT);
		now += EQDS_EPOCH_CHALLENGE_NS;
	}
}

TEST_F(Guard, ChallengesAreRateLimitedPerTunnel)
{
	u64 t0 = 5 * MS;
	int challenges = 0, refused = 0;

	// 1000 forged SYNs over 10 ms: one challenge per ms, the rest refused.
	for (int i = 0; i < 1000; i++) {
		switch (eqds_epoch_data(&g, E, E + 1 + i, true, t0 + i * 10000)) {
		case EQDS_EPOCH_CHALLENGE:
			challenges++;
			break;
		case EQDS_EPOCH_REFUSED:
			refused++;
			break;
		default:
			ADD_FAILURE() << "forged SYN " << i << " not dropped";
		}
	}
	EXPECT_EQ(challenges, 10);
	EXPECT_EQ(refused, 990);
	// A clock read on another CPU may be a little older: no challenge.
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 1, true, t0), EQDS_EPOCH_REFUSED);
}

TEST_F(Guard, FinForTheFollowedEpochDisownsIt)
{
	EXPECT_FALSE(eqds_epoch_fin(&g, 0, 0));
	EXPECT_FALSE(eqds_epoch_fin(&g, E, E + 1));
	EXPECT_FALSE(eqds_epoch_fin(&g, E, E - 1));
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 7, true, 0), EQDS_EPOCH_CHALLENGE);

	EXPECT_TRUE(eqds_epoch_fin(&g, E, E));
	EXPECT_FALSE(eqds_epoch_fin(&g, E, E));	// once
	// Stragglers of the disowned epoch are stale, SYN or not.
	EXPECT_EQ(eqds_epoch_data(&g, E, E, false, 0), EQDS_EPOCH_DISOWNED);
	EXPECT_EQ(eqds_epoch_data(&g, E, E, true, 0), EQDS_EPOCH_DISOWNED);
	// Any other epoch with SYN begins, older ones too.
	EXPECT_EQ(eqds_epoch_data(&g, E, E - 100, true, 0), EQDS_EPOCH_BEGIN);
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 100, true, 0), EQDS_EPOCH_BEGIN);
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 100, false, 0), EQDS_EPOCH_UNKNOWN);
}

// Half open: what a spoofed SYN leaves, or a sender that went away before it
// heard us. A short flow whose sender heard us (its packets stop carrying
// SYN once our ack confirms its epoch) is not, however few packets it sent.
struct HalfOpen : Guard {
	u32 first = eqds_isn(E);

	bool half_open(u32 delivered)
	{
		return eqds_epoch_half_open(g.answered, E, first + delivered);
	}
};

TEST_F(HalfOpen, NoEpochYet)
{
	EXPECT_TRUE(eqds_epoch_half_open(false, 0, 0));
	EXPECT_TRUE(eqds_epoch_half_open(true, 0, 12345));
}

TEST_F(HalfOpen, OnlySynsAndTheFirstPacketDelivered)
{
	ASSERT_EQ(eqds_epoch_data(&g, 0, E, true, 0), EQDS_EPOCH_BEGIN);
	eqds_epoch_guard_init(&g);
	EXPECT_TRUE(half_open(0));
	EXPECT_TRUE(half_open(1));
	EXPECT_TRUE(half_open(EQDS_MAX_SEGS));	// a GSO first packet
	// More SYNs of the epoch: the sender has not heard us yet.
	EXPECT_EQ(eqds_epoch_data(&g, E, E, true, 0), EQDS_EPOCH_CURRENT);
	EXPECT_TRUE(half_open(6));
	// Beyond the first packet, even without an answer: a live sender.
	EXPECT_FALSE(half_open(EQDS_MAX_SEGS + 1));
}

TEST_F(HalfOpen, ShortFlowWhoseSenderHeardUs)
{
	ASSERT_EQ(eqds_epoch_data(&g, 0, E, true, 0), EQDS_EPOCH_BEGIN);
	eqds_epoch_guard_init(&g);
	EXPECT_TRUE(half_open(1));
	// TCP's SYN went with EQDS SYN; its ACK, after our ack came back, without.
	EXPECT_EQ(eqds_epoch_data(&g, E, E, false, 0), EQDS_EPOCH_CURRENT);
	EXPECT_FALSE(half_open(2));
	EXPECT_FALSE(half_open(6));
}

TEST_F(HalfOpen, OtherEpochsAnswerNothing)
{
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 1, false, 0), EQDS_EPOCH_UNKNOWN);
	EXPECT_EQ(eqds_epoch_data(&g, E, E + 2, true, 0), EQDS_EPOCH_CHALLENGE);
	EXPECT_TRUE(half_open(1));
}

TEST_F(HalfOpen, DisownedEpochIsHalfOpenAgain)
{
	EXPECT_EQ(eqds_epoch_data(&g, E, E, false, 0), EQDS_EPOCH_CURRENT);
	EXPECT_FALSE(half_open(3));
	ASSERT_TRUE(eqds_epoch_fin(&g, E, E));
	// The receiver restarts its state at the epoch's first seq.
	EXPECT_TRUE(half_open(0));
	EXPECT_EQ(eqds_epoch_data(&g, E, E, false, 0), EQDS_EPOCH_DISOWNED);
	EXPECT_TRUE(half_open(0));
}

TEST(Ratelimit, OncePerInterval)
{
	struct eqds_ratelimit rl = {};

	EXPECT_TRUE(eqds_ratelimit_ok(&rl, 0, MS));	// time 0 is a time
	EXPECT_FALSE(eqds_ratelimit_ok(&rl, MS - 1, MS));
	EXPECT_TRUE(eqds_ratelimit_ok(&rl, MS, MS));
	EXPECT_FALSE(eqds_ratelimit_ok(&rl, MS, MS));
	EXPECT_TRUE(eqds_ratelimit_ok(&rl, 100 * MS, MS));
}

// The sender's side: which challenges it answers, and with what.
struct Answer : ::testing::Test {
	struct eqds_tx tx;
	struct eqds_ratelimit rl;
	struct eqds_pkt fin;

	void SetUp() override
	{
		memset(&rl, 0, sizeof(rl));
		memset(&fin, 0xa5, sizeof(fin));
		// Restarted: a new epoch, nothing confirmed yet.
		eqds_tx_init(&tx, E + 1000, WIN, Q, false, MS, 0);
	}

	bool answer(struct eqds_pkt c, u64 now)
	{
		return eqds_epoch_answer(&rl, &tx, &c, now, &fin);
	}
};

TEST_F(Answer, RestartedSenderDisownsTheChallengedEpoch)
{
	u8 buf[EQDS_MAX_HLEN];
	struct eqds_pkt back;

	ASSERT_TRUE(answer(challenge(E, 0xabcd), 0));
	EXPECT_EQ(fin.type, EQDS_TYPE_DATA);
	EXPECT_EQ(fin.flags, EQDS_F_FIN);
	EXPECT_EQ(fin.epoch, E);
	EXPECT_EQ(fin.data.seq, 0xabcdu);
	EXPECT_EQ(fin.data.seg_count, 0);
	EXPECT_EQ(fin.data.pull_target, 0);
	// A packet the wire accepts, and the receiver decodes as sent.
	ASSERT_EQ(eqds_encode(buf, sizeof(buf), &fin), EQDS_DATA_HLEN);
	ASSERT_EQ(eqds_decode(buf, EQDS_DATA_HLEN, &back), EQDS_DATA_HLEN);
	EXPECT_EQ(back.flags, EQDS_F_FIN);
	EXPECT_EQ(back.epoch, E);
}

TEST_F(Answer, OncePerInterval)
{
	EXPECT_TRUE(answer(challenge(E, 1), 0));
	EXPECT_FALSE(answer(challenge(E, 1), MS / 2));
	EXPECT_TRUE(answer(challenge(E, 1), MS));
}

TEST_F(Answer, OwnEpochIsNotAChallenge)
{
	EXPECT_FALSE(answer(challenge(tx.epoch, tx.snd_una), 0));
}

TEST_F(Answer, ConfirmedSenderAnswersNothing)
{
	struct eqds_tx_actions act;
	struct eqds_pkt ack = challenge(tx.epoch, tx.snd_una);

	eqds_tx_ctrl(&tx, &ack, 0, &act);
	ASSERT_TRUE(tx.confirmed);
	EXPECT_FALSE(answer(challenge(E, 1), 0));
}

TEST_F(Answer, OnlyAcknowledgmentsAreChallenges)
{
	struct eqds_pkt p = challenge(E, 0);

	p.flags = EQDS_F_RST;
	EXPECT_FALSE(answer(p, 0));
	p.flags = EQDS_F_NACK;
	EXPECT_FALSE(answer(p, 0));
	p.flags = EQDS_F_ACK | EQDS_F_PULL;
	EXPECT_TRUE(answer(p, 0));
	p = challenge(E, 0);
	p.type = EQDS_TYPE_DATA;
	EXPECT_FALSE(answer(p, MS));
}

// The whole exchange, receiver and sender, over the codec.
struct Exchange : ::testing::Test {
	struct eqds_epoch_guard g;
	struct eqds_rx rx;

	void SetUp() override
	{
		eqds_epoch_guard_init(&g);
		eqds_rx_init(&rx, E, 150, 1);
	}

	// The receiver gets a data packet: what it does, as the glue would.
	enum eqds_epoch_verdict receive(u32 epoch, bool syn, u64 now)
	{
		enum eqds_epoch_verdict v = eqds_epoch_data(&g, rx.epoch, epoch, syn, now);

		if (v == EQDS_EPOCH_BEGIN) {
			eqds_rx_init(&rx, epoch, 150, 1);
			eqds_epoch_guard_init(&g);
		}
		return v;
	}
};

// An off-path forger's SYNs, far newer: the real sender, still in E, takes
// the challenge as an ack, and the tunnel never leaves E.
TEST_F(Exchange, ForgedNewerSynLeavesTheTunnelAlone)
{
	struct eqds_tx sender;
	struct eqds_tx_actions act;
	struct eqds_ratelimit rl = {};
	struct eqds_pkt fin;

	eqds_tx_init(&sender, E, WIN, Q, false, MS, 0);
	for (u64 t = 0; t < 20 * MS; t += MS / 4) {
		if (receive(E + 0x40000000u, true, t) != EQDS_EPOCH_CHALLENGE)
			continue;
		struct eqds_pkt c = challenge(rx.epoch, rx.rcv_nxt);

		EXPECT_FALSE(eqds_epoch_answer(&rl, &sender, &c, t, &fin));
		eqds_tx_ctrl(&sender, &c, t, &act);
		EXPECT_FALSE(act.restart);
	}
	EXPECT_EQ(rx.epoch, E);
	EXPECT_EQ(receive(E, false, 20 * MS), EQDS_EPOCH_CURRENT);
}

// A sender that restarted with an epoch older than the one the tunnel
// follows (an attacker's, taken while nothing guarded it): its SYNs are
// challenged, it disowns the followed epoch, and its next SYN begins.
TEST_F(Exchange, RestartedSenderResynchronises)
{
	struct eqds_ratelimit rl = {};
	struct eqds_tx sender;
	struct eqds_pkt fin;
	const u32 mine = E - 5000;

	eqds_tx_init(&sender, mine, WIN, Q, false, MS, 0);
	ASSERT_EQ(receive(mine, true, 0), EQDS_EPOCH_CHALLENGE);
	struct eqds_pkt c = challenge(rx.epoch, rx.rcv_nxt);

	ASSERT_TRUE(eqds_epoch_answer(&rl, &sender, &c, 0, &fin));
	ASSERT_TRUE(eqds_epoch_fin(&g, rx.epoch, fin.epoch));
	EXPECT_EQ(receive(mine, true, 0), EQDS_EPOCH_BEGIN);
	EXPECT_EQ(rx.epoch, mine);
	EXPECT_EQ(rx.rcv_nxt, eqds_isn(mine));
	// The new epoch is guarded in turn.
	EXPECT_EQ(receive(E, true, 0), EQDS_EPOCH_CHALLENGE);
	EXPECT_EQ(rx.epoch, mine);
}

}  // namespace
