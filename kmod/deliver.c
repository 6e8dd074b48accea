// SPDX-License-Identifier: GPL-2.0
/*
 * Decapsulated packets go up the stack through GRO, as a tunnel device's
 * would: a split TSO burst arrives as MTU-sized packets, and without GRO
 * the receiver's TCP would take each on its own, at several times the cost
 * per byte of native TCP.
 *
 * Not through per-CPU GRO cells, as vxlan and geneve do: a tunnel's packets
 * leave its reorder queue in order, but sprayed packets arrive on every CPU
 * (RSS spreads the outer source ports), and a release on one CPU would
 * overtake an earlier one still waiting in another CPU's cell; TCP would
 * see the reordering the reorder queue just hid. So delivery goes through
 * lanes, somewhat as wireguard's per-peer NAPI: a lane is a locked FIFO
 * with a NAPI instance of its own, polled on one CPU at a time; an inner
 * flow always uses the same lane (its hash picks it, as RPS picks a CPU),
 * and a tunnel adds to the lanes under its own lock, so each flow's packets
 * reach the stack in the order the tunnel released them. One lane per CPU,
 * so that flows can still be taken up on several CPUs (a lane is polled on
 * the CPU that woke it).
 *
 * eqds has no net_device of its own: the packets keep the device they
 * arrived on (so firewall rules and routing see them as from that device),
 * and the lanes' NAPI instances hang off a dummy device. While eqds holds
 * a packet (reorder queue, lane) that device may go away, so the packet
 * keeps only its ifindex, as IP defragmentation does; and nothing stays in
 * a lane's GRO past the softirq that looked its device up.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include "compat.h"
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "deliver.h"

/* Softirq only: tunnels add under their ->lock, the NAPI poll takes. */
struct eqds_lane {
	spinlock_t lock;		/* protects queue, nothing else */
	struct sk_buff_head queue;
	struct napi_struct napi;
	struct eqds_net *en;
} ____cacheline_aligned_in_smp;

struct eqds_lanes {
	struct rcu_head rcu;
	unsigned int n;
	struct eqds_lane lane[];
};

void eqds_deliver_park(struct sk_buff *skb)
{
	skb_get_hash(skb);	/* the flow dissector wants the device's netns */
	eqds_cb(skb)->iif = skb->dev ? skb->dev->ifindex : 0;
	skb->dev = NULL;
}

/* Back on the device it arrived on; false if that has gone. Under RCU. */
static bool unpark(struct net *net, struct sk_buff *skb)
{
	skb->dev = dev_get_by_index_rcu(net, eqds_cb(skb)->iif);
	return skb->dev && (skb->dev->flags & IFF_UP);
}

/*
 * The link-layer header the stack and its taps read in front of a packet
 * from this device: AF_PACKET (tcpdump, monitoring agents) shows the bytes
 * before the network header as the frame's header, and GRO compares them
 * to tell flows apart. An Ethernet frame keeps the addresses it arrived
 * with (still in the headroom, where the receive path left the mac header)
 * and names the inner protocol: a native packet between the same two hosts
 * looks the same. A device without link-layer headers needs none. Other
 * framings are not rebuilt and get none either (see eqds.rst). The head
 * is private (unclone): a tap's clone of the outer packet is not touched.
 */
static void link_header(struct sk_buff *skb)
{
	const struct net_device *dev = skb->dev;
	const struct ethhdr *outer;
	struct ethhdr *eth;

	/* The outer headers lie between: the two cannot overlap. */
	if (skb->mac_len != ETH_HLEN || !skb_mac_header_was_set(skb) ||
	    (dev->type != ARPHRD_ETHER && dev->type != ARPHRD_LOOPBACK) ||
	    skb_mac_offset(skb) > -2 * ETH_HLEN) {
		skb_reset_mac_header(skb);
		return;
	}
	outer = eth_hdr(skb);
	eth = (struct ethhdr *)(skb->data - ETH_HLEN);
	ether_addr_copy(eth->h_dest, outer->h_dest);
	ether_addr_copy(eth->h_source, outer->h_source);
	eth->h_proto = skb->protocol;
	skb_set_mac_header(skb, -ETH_HLEN);
}

static void go_up(struct eqds_lane *lane, struct sk_buff *skb)
{
	struct eqds_net *en = lane->en;

	if (!unpark(en->net, skb)) {
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_DELIVER, NULL);
		return;
	}
	/*
	 * GRO and link_header() write into the head: a clone (a tap such as
	 * tcpdump shares it) gets one of its own, not another path that would
	 * overtake GRO's.
	 * A device with GRO off is honoured inside GRO, in order.
	 */
	if (skb_unclone(skb, GFP_ATOMIC)) {
		eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_NOMEM, NULL);
		return;
	}
	link_header(skb);
	eqds_stats_add(en->stats, EQDS_STATS_A_RX_PACKETS, 1);
	eqds_stats_add(en->stats, EQDS_STATS_A_RX_BYTES, skb->len);
	napi_gro_receive(&lane->napi, skb);
}

static int lane_poll(struct napi_struct *napi, int budget)
{
	struct eqds_lane *lane = container_of(napi, struct eqds_lane, napi);
	struct sk_buff_head batch;
	struct sk_buff *skb;
	int done = 0;

	__skb_queue_head_init(&batch);
	rcu_read_lock();
	while (done < budget) {
		spin_lock(&lane->lock);
		while (done + skb_queue_len(&batch) < budget &&
		       (skb = __skb_dequeue(&lane->queue)))
			__skb_queue_tail(&batch, skb);
		spin_unlock(&lane->lock);
		if (skb_queue_empty(&batch))
			break;
		while ((skb = __skb_dequeue(&batch))) {
			go_up(lane, skb);
			done++;
		}
	}
	/* A tunnel that adds meanwhile finds us scheduled: NAPI polls again. */
	if (done < budget)
		napi_complete_done(napi, done);
	else
		napi_gro_flush(napi, false);	/* see the top: devices may go */
	rcu_read_unlock();
	return done;
}

void eqds_deliver_list(struct eqds_net *en, struct sk_buff_head *list)
{
	u32 limit = eqds_max_backlog();
	struct eqds_lane *lane;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list))) {
		lane = &en->lanes->lane[reciprocal_scale(skb_get_hash_raw(skb),
							 en->lanes->n)];
		spin_lock(&lane->lock);
		if (skb_queue_len(&lane->queue) >= limit) {
			spin_unlock(&lane->lock);
			eqds_rx_drop(en, skb, EQDS_STATS_A_DROP_DELIVER, NULL);
			continue;
		}
		__skb_queue_tail(&lane->queue, skb);
		if (skb_queue_len(&lane->queue) == 1)
			napi_schedule(&lane->napi);
		spin_unlock(&lane->lock);
	}
}

int eqds_deliver_init(struct eqds_net *en)
{
	unsigned int i, n = num_possible_cpus();
	struct eqds_lanes *lanes;

	en->napi_dev = kzalloc(sizeof(*en->napi_dev), GFP_KERNEL);
	/* A NAPI instance per possible CPU: large on big machines. */
	lanes = kvzalloc(struct_size(lanes, lane, n), GFP_KERNEL);
	if (!en->napi_dev || !lanes) {
		kfree(en->napi_dev);
		en->napi_dev = NULL;
		kvfree(lanes);
		return -ENOMEM;
	}
	init_dummy_netdev(en->napi_dev);
	lanes->n = n;
	for (i = 0; i < n; i++) {
		struct eqds_lane *lane = &lanes->lane[i];

		spin_lock_init(&lane->lock);
		__skb_queue_head_init(&lane->queue);
		lane->en = en;
		set_bit(NAPI_STATE_NO_BUSY_POLL, &lane->napi.state);
		netif_napi_add(en->napi_dev, &lane->napi, lane_poll);
		napi_enable(&lane->napi);
	}
	en->lanes = lanes;
	return 0;
}

void eqds_deliver_destroy(struct eqds_net *en)
{
	struct eqds_lanes *lanes = en->lanes;
	unsigned int i;

	if (!lanes)
		return;
	for (i = 0; i < lanes->n; i++) {
		/* Waits for a running poll; nothing adds any more. */
		napi_disable(&lanes->lane[i].napi);
		__netif_napi_del(&lanes->lane[i].napi);
		__skb_queue_purge(&lanes->lane[i].queue);
	}
	/* The dummy device is on no list: only the lanes need a grace period. */
	kvfree_rcu(lanes, rcu);
	en->lanes = NULL;
	kfree(en->napi_dev);
	en->napi_dev = NULL;
}
