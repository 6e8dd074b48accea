// SPDX-License-Identifier: GPL-2.0
/*
 * Per-tunnel state for netlink (tunnel_info.h). Each snapshot is consistent
 * within one tunnel: everything is read under its lock, as the datapath
 * writes it. Copying is all that happens under the lock, so a dump of many
 * tunnels delays each tunnel's packets by a few hundred nanoseconds at most.
 */
#include <linux/jiffies.h>
#include <linux/string.h>
#include "eqds.h"
#include "netns.h"
#include "tunnels.h"
#include "pull.h"
#include "tunnel_info.h"

/* Milliseconds since a jiffies stamp, saturating far in the past. */
static u32 ms_since(unsigned long stamp)
{
	unsigned long now = jiffies;

	if (time_before(now, stamp))
		return 0;
	return jiffies_to_msecs(min(now - stamp, (unsigned long)MAX_JIFFY_OFFSET));
}

bool eqds_txt_info(struct eqds_txt *t, struct eqds_tunnel_info *info)
{
	const struct eqds_tunnel_counters *c = &t->counters;
	u64 *s = info->stats;

	memset(info, 0, sizeof(*info));
	info->peer = t->peer;
	info->id = t->id;
	info->dir = EQDS_TUNNEL_DIR_TX;

	spin_lock_bh(&t->lock);
	if (t->dead) {
		spin_unlock_bh(&t->lock);
		return false;
	}
	info->epoch = t->q.tx.epoch;
	info->state = t->q.tx.confirmed ? EQDS_TUNNEL_STATE_CONFIRMED : EQDS_TUNNEL_STATE_SYN;
	info->idle_ms = ms_since(t->last_used);
	info->heard_ms = ms_since(t->last_heard);
	info->credit = t->q.tx.credit.credit;
	info->window = t->q.tx.credit.window;
	info->quantum = t->q.tx.credit.quantum;
	info->pull_hi = t->q.tx.credit.pull_hi;
	info->queue_len = eqds_txt_queue_len(t);
	info->queue_bytes = t->q.queued_bytes;
	info->inflight = eqds_tx_inflight(&t->q.tx);
	info->snd_una = t->q.tx.snd_una;
	info->snd_nxt = t->q.tx.snd_nxt;
	info->rtx_queued = t->q.nrtx;
	info->rto_us = t->q.tx.rto_ns / NSEC_PER_USEC;
	s[EQDS_TUNNEL_STATS_A_PACKETS] = c->packets;
	s[EQDS_TUNNEL_STATS_A_BYTES] = c->bytes;
	s[EQDS_TUNNEL_STATS_A_RETRANSMITS] = c->retransmits;
	s[EQDS_TUNNEL_STATS_A_NACKS] = c->nacks;
	s[EQDS_TUNNEL_STATS_A_DROPS] = c->drops;
	s[EQDS_TUNNEL_STATS_A_PULLS] = c->pulls;
	s[EQDS_TUNNEL_STATS_A_RESTARTS] = t->q.tx.stats.restarts;
	s[EQDS_TUNNEL_STATS_A_TIMEOUTS] = t->q.tx.stats.timeouts;
	s[EQDS_TUNNEL_STATS_A_RTS] = t->q.tx.stats.rts_sent;
	s[EQDS_TUNNEL_STATS_A_PATHS_PENALISED] = eqds_paths_nbad(&t->q.paths);
	s[EQDS_TUNNEL_STATS_A_PATH_PENALTIES] = t->q.paths.stats.penalties;
	s[EQDS_TUNNEL_STATS_A_REPATHS] = t->q.paths.stats.repaths;
	s[EQDS_TUNNEL_STATS_A_PATH_PENALTIES_IGNORED] = t->q.paths.stats.ignored;
	spin_unlock_bh(&t->lock);
	return true;
}

static u8 rx_state(const struct eqds_rxt *t)
{
	if (!t->rx.epoch)
		return EQDS_TUNNEL_STATE_NEW;
	return eqds_rxt_half_open(t) ? EQDS_TUNNEL_STATE_HALF_OPEN : EQDS_TUNNEL_STATE_OPEN;
}

bool eqds_rxt_info(struct eqds_rxt *t, struct eqds_tunnel_info *info)
{
	const struct eqds_tunnel_counters *c = &t->counters;
	struct eqds_net *en = t->en;
	u64 *s = info->stats;

	memset(info, 0, sizeof(*info));
	info->peer = t->peer;
	info->id = t->id;
	info->dir = EQDS_TUNNEL_DIR_RX;

	spin_lock_bh(&t->lock);
	if (t->dead) {
		spin_unlock_bh(&t->lock);
		return false;
	}
	info->local = t->local;
	info->epoch = t->rx.epoch;
	info->state = rx_state(t);
	info->idle_ms = ms_since(t->last_used);
	info->quantum = EQDS_QUANTUM;
	info->rcv_nxt = t->rx.rcv_nxt;
	info->reorder_held = t->rx.nheld;
	info->skew_ns = t->rx.skew_ns;
	s[EQDS_TUNNEL_STATS_A_PACKETS] = c->packets;
	s[EQDS_TUNNEL_STATS_A_BYTES] = c->bytes;
	s[EQDS_TUNNEL_STATS_A_NACKS] = c->nacks;
	s[EQDS_TUNNEL_STATS_A_DROPS] = c->drops;
	s[EQDS_TUNNEL_STATS_A_PULLS] = c->pulls;
	s[EQDS_TUNNEL_STATS_A_RESTARTS] = c->restarts;
	s[EQDS_TUNNEL_STATS_A_REORDER_HELD] = t->rx.stats.held;
	s[EQDS_TUNNEL_STATS_A_REORDER_SKIPPED] = t->rx.stats.skipped;
	s[EQDS_TUNNEL_STATS_A_REORDER_LATE] = t->rx.stats.late;

	/* The pull state is the scheduler's (lock order: t->lock first). */
	spin_lock(&en->sched_lock);
	info->window = t->rx.pulls.max_ahead * EQDS_QUANTUM;
	info->pulls_granted = t->rx.pulls.pull_no;
	info->pulls_wanted = eqds_pullgen_outstanding(&t->rx.pulls);
	info->active = t->rx.asl.queued;
	spin_unlock(&en->sched_lock);
	spin_unlock_bh(&t->lock);
	return true;
}
