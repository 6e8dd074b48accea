/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A snapshot of one tunnel's state and counters, for netlink: taken under
 * the tunnel's lock (and, for the receiving side's pull state, the
 * scheduler's), then written out with no lock held.
 */
#ifndef _EQDS_TUNNEL_INFO_H
#define _EQDS_TUNNEL_INFO_H

#include <linux/eqds.h>
#include "tunnel.h"

struct eqds_tunnel_info {
	struct eqds_addr peer;
	struct eqds_addr local;		/* rx only */
	u32 id;
	u8 dir;				/* enum eqds_tunnel_dir */
	u8 state;			/* enum eqds_tunnel_state */
	bool active;			/* rx: on the active sender list */
	u32 epoch;
	u32 idle_ms;
	u32 heard_ms;			/* tx */
	u32 window;			/* bytes */
	u32 quantum;			/* bytes */
	/* tx */
	u32 credit;
	u32 queue_len;
	u64 queue_bytes;
	u32 inflight;
	u32 snd_una;
	u32 snd_nxt;
	u32 rtx_queued;
	u32 rto_us;
	u32 pull_hi;
	/* rx */
	u32 rcv_nxt;
	u32 reorder_held;
	u32 skew_ns;
	u32 pulls_granted;
	u32 pulls_wanted;
	u64 stats[__EQDS_TUNNEL_STATS_A_MAX];	/* by EQDS_TUNNEL_STATS_A_* */
};

/*
 * Fill info from t. Returns false if t is being removed (nothing filled).
 * Caller holds rcu_read_lock(); takes t->lock with BHs off.
 */
bool eqds_txt_info(struct eqds_txt *t, struct eqds_tunnel_info *info);
bool eqds_rxt_info(struct eqds_rxt *t, struct eqds_tunnel_info *info);

#endif /* _EQDS_TUNNEL_INFO_H */
