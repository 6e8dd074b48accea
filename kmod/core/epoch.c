// SPDX-License-Identifier: GPL-2.0
/*
 * epoch.c - who may replace the epoch a receiving tunnel follows (see
 * epoch.h).
 */
#include "epoch.h"
#include "rx.h"

bool eqds_ratelimit_ok(struct eqds_ratelimit *rl, u64 now_ns, u64 interval_ns)
{
	if (rl->used && eqds_time_since(now_ns, rl->last_ns) < interval_ns)
		return false;
	rl->used = true;
	rl->last_ns = now_ns;
	return true;
}

void eqds_epoch_guard_init(struct eqds_epoch_guard *g)
{
	memset(g, 0, sizeof(*g));
}

enum eqds_epoch_verdict eqds_epoch_data(struct eqds_epoch_guard *g,
					u32 followed, u32 epoch, bool syn,
					u64 now_ns)
{
	if (followed && epoch == followed) {
		if (g->disowned)
			return EQDS_EPOCH_DISOWNED;
		if (!syn)
			g->answered = true;
		return EQDS_EPOCH_CURRENT;
	}
	if (!syn)
		return EQDS_EPOCH_UNKNOWN;
	/* A new tunnel, or its sender said the epoch is over: anyone may begin. */
	if (!followed || g->disowned)
		return EQDS_EPOCH_BEGIN;
	/*
	 * Newer or older alike: a restarted sender's epoch may compare older
	 * than one an attacker made the tunnel follow while it was disowned.
	 */
	if (eqds_ratelimit_ok(&g->challenge, now_ns, EQDS_EPOCH_CHALLENGE_NS))
		return EQDS_EPOCH_CHALLENGE;
	return EQDS_EPOCH_REFUSED;
}

bool eqds_epoch_half_open(bool answered, u32 followed, u32 rcv_nxt)
{
	if (!followed)
		return true;
	return !answered && rcv_nxt - eqds_isn(followed) <= EQDS_MAX_SEGS;
}

bool eqds_epoch_fin(struct eqds_epoch_guard *g, u32 followed, u32 epoch)
{
	if (!followed || epoch != followed || g->disowned)
		return false;
	/* Nothing follows until the next SYN begins an epoch. */
	g->disowned = true;
	g->answered = false;
	return true;
}

bool eqds_epoch_answer(struct eqds_ratelimit *rl, const struct eqds_tx *tx,
		       const struct eqds_pkt *ctrl, u64 now_ns,
		       struct eqds_pkt *fin)
{
	if (ctrl->type != EQDS_TYPE_CTRL || !(ctrl->flags & EQDS_F_ACK) ||
	    ctrl->epoch == tx->epoch || tx->confirmed)
		return false;
	if (!eqds_ratelimit_ok(rl, now_ns, EQDS_EPOCH_CHALLENGE_NS))
		return false;
	memset(fin, 0, sizeof(*fin));
	fin->type = EQDS_TYPE_DATA;
	fin->flags = EQDS_F_FIN;
	fin->next_proto = EQDS_NP_NONE;
	fin->epoch = ctrl->epoch;
	fin->hlen = EQDS_DATA_HLEN;
	fin->data.seq = ctrl->ctrl.ack;
	return true;
}
