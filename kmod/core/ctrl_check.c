// SPDX-License-Identifier: GPL-2.0
/*
 * ctrl_check.c - plausibility of control packets at the sender (see
 * ctrl_check.h).
 */
#include "ctrl_check.h"
#include "seq.h"

/* Most a pull may move the highest pull number, in the sender's quanta. */
static u32 eqds_pull_jump_max(const struct eqds_credit *c)
{
	u32 quanta = c->quantum ? c->window / c->quantum : 0;

	return EQDS_PULL_JUMP_WINDOWS * (quanta ? quanta : 1);
}

enum eqds_ctrl_verdict eqds_tx_ctrl_verdict(const struct eqds_tx *tx,
					    const struct eqds_pkt *pkt)
{
	const struct eqds_pkt_ctrl *c = &pkt->ctrl;

	if (pkt->epoch != tx->epoch)
		return EQDS_CTRL_STALE;
	if ((pkt->flags & EQDS_F_ACK) && eqds_seq_after(c->ack, tx->snd_nxt))
		return EQDS_CTRL_BAD_ACK;
	if ((pkt->flags & EQDS_F_PULL) &&
	    eqds_seq_diff(c->pull_no, tx->credit.pull_hi) > (s32)eqds_pull_jump_max(&tx->credit))
		return EQDS_CTRL_BAD_PULL;
	return EQDS_CTRL_OK;
}
