/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One eqds instance per network namespace: one namespace is one host.
 */
#ifndef _EQDS_NETNS_H
#define _EQDS_NETNS_H

#include <linux/mutex.h>
#include <linux/rhashtable-types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/hrtimer.h>
#include <linux/netfilter.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "config.h"
#include "stats.h"
#include "core/pacer.h"
#include "core/congestion.h"
#include "admit.h"
#include "trace.h"

/*
 * Locking:
 *  @lock (mutex, process context) serialises configuration writers and
 *  socket replacement.
 *  @config and @sock4/@sock6 are RCU-protected; readers in any context
 *  need only rcu_read_lock().
 *  @sched_lock (BH spinlock) protects @sched, @pacer_armed, writes of
 *  @busy_us (control packets read it without the lock) and, in every
 *  receiving tunnel, rx.pulls and rx.asl. The pacer timer and the receive
 *  path take it.
 *  The tunnel tables are rhashtables (RCU lookups; insert/remove are
 *  internally locked). @txt_ids and @rxt_ids index the same tunnels by ID
 *  (xarrays with their own BH-safe lock, RCU lookups); @txt_next and
 *  @rxt_next are the cyclic allocators' cursors, under those locks.
 *  @stats are per-CPU and updated without locks.
 */
struct eqds_net {
	struct net *net;
	struct mutex lock;	/* serialises configuration writers */
	struct eqds_config __rcu *config;
	struct eqds_pcpu_stats __percpu *stats;
	struct socket __rcu *sock4;
	struct socket __rcu *sock6;
	struct nf_hook_ops nf_ops[2];	/* capture, IPv4 and IPv6 */
	bool hooks_registered;

	struct rhashtable txts;	/* struct eqds_txt by destination */
	struct rhashtable rxts;	/* struct eqds_rxt by sender */
	atomic_t ntunnels;
	atomic64_t queued_bytes;	/* wire bytes in all txts' queues: see tx_tunnel.c */
	struct xarray txt_ids;	/* struct eqds_txt by ID */
	struct xarray rxt_ids;	/* struct eqds_rxt by ID */
	u32 txt_next;
	u32 rxt_next;
	struct eqds_tunnel_rate tunnel_rate;	/* new receiving tunnels */
	struct delayed_work reaper;
	bool exiting;

	spinlock_t sched_lock;	/* see above */
	struct eqds_sched sched;
	struct eqds_cc cc;	/* core_cc: CE marks lower the rate; under sched_lock */
	struct hrtimer pacer;
	bool pacer_armed;
	u16 busy_us;		/* eqds_sched_busy_us(), advertised; read racily */
	int rx_ifindex;		/* device data last arrived on: its speed sets the rate */
	u64 link_rate_bps;	/* pull rate in use */
	struct delayed_work rate_work;

	struct net_device *napi_dev;	/* holds the delivery lanes' NAPI */
	struct eqds_lanes *lanes;	/* delivery of decapsulated packets */
};

extern unsigned int eqds_net_id;

static inline struct eqds_net *eqds_net(const struct net *net)
{
	return net_generic(net, eqds_net_id);
}

/*
 * The counters of a drop's reason (drop_*), each also a tracepoint. A new
 * drop_* counter belongs here, in trace.h's eqds_drop names and in the
 * generic reasons of netns.c. Callers pass constants, so the test folds
 * away.
 */
static inline bool eqds_stat_is_drop(enum eqds_stats_attr idx)
{
	switch (idx) {
	case EQDS_STATS_A_DROP_QUEUE_FULL ... EQDS_STATS_A_DROP_XMIT:
	case EQDS_STATS_A_DROP_PEER ... EQDS_STATS_A_DROP_EPOCH:
	case EQDS_STATS_A_DROP_QUEUED_LIMIT:
	case EQDS_STATS_A_DROP_DELIVER:
	case EQDS_STATS_A_DROP_LOCAL_PORT:
		return true;
	default:
		return false;
	}
}

enum skb_drop_reason eqds_skb_drop_reason(enum eqds_stats_attr why);

/*
 * A drop by reason why (a drop_* counter): counted, and traced with the
 * packet's address (which is only recorded, never read: the packet may be
 * freed already) and the peer it came from, if any.
 */
static inline void eqds_count_drop(struct eqds_net *en, enum eqds_stats_attr why,
				   const struct eqds_addr *peer, const void *skbaddr)
{
	eqds_stats_add(en->stats, why, 1);
	trace_eqds_drop(en->net->ns.inum, why, peer, skbaddr);
}

/* Counts an event; a drop with no packet in hand is traced too. */
static inline void eqds_count(struct eqds_net *en, enum eqds_stats_attr idx)
{
	if (eqds_stat_is_drop(idx))
		eqds_count_drop(en, idx, NULL, NULL);
	else
		eqds_stats_add(en->stats, idx, 1);
}

/*
 * A packet dropped by eqds: counted and traced by reason, then freed with
 * the reason's generic one (netns.c), which skb:kfree_skb reports.
 */
static inline void eqds_drop_skb(struct eqds_net *en, struct sk_buff *skb,
				 enum eqds_stats_attr why, const struct eqds_addr *peer)
{
	eqds_count_drop(en, why, peer, skb);
	kfree_skb_reason(skb, eqds_skb_drop_reason(why));
}

/* A received packet dropped: counted by reason and in rx_drops. */
static inline void eqds_rx_drop(struct eqds_net *en, struct sk_buff *skb,
				enum eqds_stats_attr why,
				const struct eqds_addr *peer)
{
	eqds_count(en, EQDS_STATS_A_RX_DROPS);
	eqds_drop_skb(en, skb, why, peer);
}

/* A captured packet dropped: counted by reason and in tx_drops. */
static inline void eqds_tx_drop(struct eqds_net *en, struct sk_buff *skb,
				enum eqds_stats_attr why)
{
	eqds_count(en, EQDS_STATS_A_TX_DROPS);
	eqds_drop_skb(en, skb, why, NULL);
}

int eqds_netns_register(void);
void eqds_netns_unregister(void);
int eqds_net_set_config(struct eqds_net *en, struct eqds_config *cfg,
			struct netlink_ext_ack *extack);

#endif /* _EQDS_NETNS_H */
