/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnels: the kernel side of one sending EQIF queue (struct eqds_txt, one
 * per destination address) and of one receiving reorder queue (struct
 * eqds_rxt, one per sending address and our address it sends to). The
 * protocol decisions are the core's (core/tx.h, core/rx.h, core/epoch.h);
 * these hold the packets, the locks, the timers.
 *
 * Lifetime: tunnels live in per-namespace rhashtables and are freed with
 * kfree_rcu() after removal, so a pointer found under rcu_read_lock() stays
 * valid until unlock. Removal sets ->dead under ->lock; every path that
 * takes ->lock checks ->dead first and backs off, so nothing is queued on,
 * or timer armed for, a tunnel on its way out.
 *
 * Each tunnel also has an ID, unique among the live tunnels of its side in
 * the namespace, under which it is entered in an xarray (en->txt_ids,
 * en->rxt_ids) once it has won its creation race, under ->lock and only if
 * not dead yet (->listed), and which removal erases after marking it dead:
 * a tunnel the reaper takes while it is being created is never entered.
 * Netlink dumps walk the xarray in ID order, so a dump can resume after the
 * last ID it sent. Tunnel events are sent for listed tunnels only.
 */
#ifndef _EQDS_TUNNEL_H
#define _EQDS_TUNNEL_H

#include <linux/rhashtable-types.h>
#include <linux/skbuff.h>
#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/in6.h>
#include <net/dst_cache.h>
#include "core/tx.h"
#include "core/txq.h"
#include "core/rx.h"
#include "core/epoch.h"
#include "config.h"

struct eqds_net;

/* A host address, zero-padded so it can be a hash key. */
struct eqds_addr {
	union {
		__be32 v4;
		struct in6_addr v6;
	} a;
	u16 family;
	u16 pad;
};

/*
 * Our bytes of skb->cb. At the sender, while an inner packet waits, is in
 * flight, or is on its way to eqds_xmit_data(): the core's step for it,
 * whose wire_bytes, nsegs and cls are set from capture on and the rest by
 * eqds_txq_commit(); its EQDS header is eqds_txq_step_hdr() of it. At the
 * receiver, while a decapsulated packet is held or waits for delivery: its
 * seq and the device it arrived on.
 */
struct eqds_skb_cb {
	union {
		struct eqds_txq_step tx;
		struct {
			u32 seq;
			int iif;	/* ifindex while parked (deliver.h) */
		};
	};
};

static inline struct eqds_skb_cb *eqds_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct eqds_skb_cb) > sizeof(skb->cb));
	return (struct eqds_skb_cb *)skb->cb;
}

/*
 * Per-tunnel counters (EQDS_TUNNEL_STATS_A_*), plain u64s: they are only
 * written under the tunnel's ->lock, which the packet path holds anyway, so
 * counting costs an add, no atomic and no extra cache line. Netlink reads
 * them under the same lock. The core's own per-tunnel stats (tx.stats,
 * paths.stats and the number of penalised path ids, rx.stats) supply the
 * rest of the per-tunnel counters.
 */
struct eqds_tunnel_counters {
	u64 packets;		/* tx: data packets sent (resends too); rx: delivered */
	u64 bytes;		/* inner bytes of those */
	u64 retransmits;	/* tx */
	u64 nacks;		/* tx: received; rx: sent */
	u64 drops;		/* tx: queue full; rx: dup, window, stale, unknown epoch */
	u64 pulls;		/* tx: pulls received; rx: pull packets sent */
	u64 restarts;		/* rx: epochs after the first (tx: tx.stats.restarts) */
};

/* Count a data packet sent or delivered. Caller holds the tunnel's lock. */
static inline void eqds_tunnel_count_packet(struct eqds_tunnel_counters *c,
					    const struct sk_buff *skb)
{
	c->packets++;
	c->bytes += skb->len;
}

/* Count every packet on a list about to be delivered; under the lock. */
static inline void eqds_tunnel_count_list(struct eqds_tunnel_counters *c,
					  const struct sk_buff_head *list)
{
	const struct sk_buff *skb;

	skb_queue_walk(list, skb)
		eqds_tunnel_count_packet(c, skb);
}

/*
 * Sending side of one destination.
 * Locking: ->lock (BH) protects everything below it; the packet path
 * (any context), control packet receive (softirq) and ->timer (softirq)
 * take it. Packets are sent after it is dropped.
 */
struct eqds_txt {
	struct rhash_head node;
	struct eqds_addr peer;		/* hash key: the destination host */
	u32 id;				/* in en->txt_ids: netlink dumps, events */
	struct eqds_net *en;
	struct rcu_head rcu;
	unsigned long last_used;	/* jiffies, for idle teardown */
	unsigned long last_heard;	/* jiffies of the last control packet */
	/*
	 * The receiver sees our outer IPv4 IDs rewritten: GSO packets are
	 * segmented here, each segment numbered in its own header. Set once
	 * under ->lock, read without it (READ_ONCE) at capture.
	 */
	bool seg_numbers;

	spinlock_t lock;		/* protects the fields below */
	bool dead;
	bool listed;			/* in en->txt_ids, announced */
	/* The queue's model: what waits, what is kept, what goes next. */
	struct eqds_txq q;
	/* New packets waiting for credit, one queue per EQIF class (q.qlen). */
	struct sk_buff_head queue[EQDS_NCLASSES];
	struct hrtimer timer;		/* retransmission and RTS timeout */
	struct dst_cache dst_cache;
	struct eqds_tunnel_counters counters;
	/*
	 * Sent packets kept for retransmission: inflight[i] goes with
	 * q.ring[i], q.ring_size of each. Allocated at the first send and
	 * grown to what is in flight (tx_tunnel.c), so an idle tunnel or one
	 * that never sent holds none.
	 */
	struct sk_buff **inflight;
};

/*
 * Receiving side of one sender.
 * Locking: ->lock (BH) protects the reorder state (rx except pulls and asl),
 * ->held, ->path and ->avoid_at. rx.pulls and rx.asl belong to the namespace's pull scheduler
 * and are protected by eqds_net->sched_lock. Lock order: ->lock, then
 * sched_lock.
 */
struct eqds_rxt {
	struct rhash_head node;
	struct eqds_addr peer;		/* hash key, with local: the sending host */
	struct eqds_addr local;		/* our address the sender sends to */
	u32 id;				/* in en->rxt_ids: netlink dumps, events */
	struct eqds_net *en;
	struct rcu_head rcu;
	unsigned long last_used;
	/*
	 * This sender's outer IPv4 IDs arrive rewritten: no piece is numbered
	 * by its ID, and every control packet asks for EQDS_CO_SEG_NUMBERS.
	 * Set once, read and written without ->lock (READ_ONCE/WRITE_ONCE).
	 */
	bool ids_rewritten;

	spinlock_t lock;		/* see above */
	bool dead;
	bool listed;			/* in en->rxt_ids, announced */
	u8 path;
	unsigned long avoid_at;		/* jiffies rx.avoid was last copied */
	u16 quantum;			/* wire quantum we pull with */
	struct eqds_rx rx;
	struct eqds_epoch_guard guard;	/* who may replace rx.epoch */
	/*
	 * Packets ahead of a hole, each at eqds_rx_held_slot() of its first
	 * seq (core/rxq.h): EQDS_RX_AHEAD entries, allocated by the first
	 * packet that may be held (rx_tunnel.c), freed with the tunnel.
	 */
	struct sk_buff **held;
	struct hrtimer timer;		/* reorder release timeout */
	struct eqds_tunnel_counters counters;
	/* Routes of pulls and acks to peer from local: per CPU, BH disabled. */
	struct dst_cache dst_cache;
};

/* Packets waiting for credit, all classes. Caller holds t->lock. */
static inline u32 eqds_txt_queue_len(const struct eqds_txt *t)
{
	lockdep_assert_held(&t->lock);
	return eqds_txq_len(&t->q);
}

int eqds_tunnels_init(struct eqds_net *en);
void eqds_tunnels_destroy(struct eqds_net *en);
void eqds_tunnels_timeout_changed(struct eqds_net *en);
void eqds_tunnels_reap(struct eqds_net *en, bool all);

/* Sending side (tx_tunnel.c). */
void eqds_tx_capture(struct eqds_net *en, const struct eqds_addr *peer,
		     struct sk_buff *skb);
enum eqds_stats_attr eqds_tx_ctrl_rcv(struct eqds_net *en, const struct eqds_addr *peer,
				      const struct eqds_pkt *pkt);

/* Receiving side (rx_tunnel.c). */
void eqds_rx_data_rcv(struct eqds_net *en, struct sk_buff *skb,
		      const struct eqds_pkt *pkt, const struct eqds_addr *peer,
		      const struct eqds_addr *local, u32 ip_id, bool ce);

#endif /* _EQDS_TUNNEL_H */
