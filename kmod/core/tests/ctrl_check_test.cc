// SPDX-License-Identifier: GPL-2.0
// Plausibility of control packets at the sender (kmod/core/ctrl_check.c):
// another epoch is stale; for the current one, an ack beyond snd_nxt or a
// pull more than EQDS_PULL_JUMP_WINDOWS windows ahead is impossible, and
// anything an honest receiver sends (late acks, reordered pulls, pulls a
// window or two ahead, across the 2^32 wrap) is not.
#include <gtest/gtest.h>

#include "ctrl_check.h"
#include "tx.h"

namespace {

constexpr u32 Q = 1536;
constexpr u32 WIN = 150 * Q;
constexpr u32 EPOCH = 0xfffffff0u;	// seqs and pulls near the wrap

struct eqds_pkt ctrl(u32 epoch, u8 flags, u32 ack, u32 pull_no)
{
	struct eqds_pkt p;

	memset(&p, 0, sizeof(p));
	p.type = EQDS_TYPE_CTRL;
	p.flags = flags;
	p.epoch = epoch;
	p.ctrl.ack = ack;
	p.ctrl.pull_no = pull_no;
	p.ctrl.quantum = Q >> EQDS_QUANTUM_SHIFT;
	return p;
}

// The verdict on a packet passed by value, for short assertions.
enum eqds_ctrl_verdict verdict(const struct eqds_tx *tx, struct eqds_pkt p)
{
	return eqds_tx_ctrl_verdict(tx, &p);
}

struct CtrlCheck : ::testing::Test {
	struct eqds_tx tx;

	void SetUp() override
	{
		u32 seq;

		eqds_tx_init(&tx, EPOCH, WIN, Q, true, 1000000, 0);
		for (int i = 0; i < 10; i++)
			ASSERT_TRUE(eqds_tx_send(&tx, Q, 1, false, 0, &seq));
		tx.credit.pull_hi = 0xfffffff0u;	// the next pulls wrap
	}
};

TEST_F(CtrlCheck, OtherEpochIsStale)
{
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH + 1, EQDS_F_ACK, tx.snd_una, 0)),
		  EQDS_CTRL_STALE);
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH - 1, EQDS_F_RST, 0, 0)),
		  EQDS_CTRL_STALE);
}

TEST_F(CtrlCheck, AcksUpToSndNxtAreBelievable)
{
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_ACK, tx.snd_nxt, 0)),
		  EQDS_CTRL_OK);
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_ACK, tx.snd_una - 5, 0)),
		  EQDS_CTRL_OK);	// an old ack, overtaken
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_ACK, tx.snd_nxt + 1, 0)),
		  EQDS_CTRL_BAD_ACK);
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_ACK | EQDS_F_PULL,
						 tx.snd_nxt + 100000, 0xfffffff1u)),
		  EQDS_CTRL_BAD_ACK);
}

TEST_F(CtrlCheck, PullsUpToFourWindowsAheadAreBelievable)
{
	u32 max = EQDS_PULL_JUMP_WINDOWS * (WIN / Q);
	u32 hi = tx.credit.pull_hi;

	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_PULL, 0, hi + 1)), EQDS_CTRL_OK);
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_PULL, 0, hi + max)),
		  EQDS_CTRL_OK);
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_PULL, 0, hi - 3)),
		  EQDS_CTRL_OK);	// reordered: grants nothing, harmless
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_PULL, 0, hi + max + 1)),
		  EQDS_CTRL_BAD_PULL);
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_PULL, 0, hi + 0x7fffffffu)),
		  EQDS_CTRL_BAD_PULL);
	// Without PULL the number is not looked at (the decoder makes it 0).
	EXPECT_EQ(verdict(&tx, ctrl(EPOCH, EQDS_F_ACK, tx.snd_una, hi + 0x1000000)),
		  EQDS_CTRL_OK);
}

// A forged pull far ahead, taken, would have made every honest pull after
// it stale: the check is what keeps the sender fed.
TEST_F(CtrlCheck, HonestPullsStillCountAfterAForgedOneIsRefused)
{
	u32 hi = tx.credit.pull_hi;
	struct eqds_pkt forged = ctrl(EPOCH, EQDS_F_PULL, 0, hi + 1000000);
	struct eqds_pkt honest = ctrl(EPOCH, EQDS_F_PULL, 0, hi + 8);
	struct eqds_tx_actions act;

	tx.credit.credit = 0;
	ASSERT_EQ(verdict(&tx, forged), EQDS_CTRL_BAD_PULL);
	ASSERT_EQ(verdict(&tx, honest), EQDS_CTRL_OK);
	eqds_tx_ctrl(&tx, &honest, 0, &act);
	EXPECT_EQ(act.credit_gained, 8 * Q);
}

}  // namespace
