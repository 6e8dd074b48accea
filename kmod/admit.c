// SPDX-License-Identifier: GPL-2.0
/*
 * Admission of received packets: who may talk EQDS to this host, and what
 * a packet must be before it may create state or claim credit.
 *
 *  - Peers. The configured destination prefixes (dests) are also the hosts
 *    accepted as senders. A packet from any other source is dropped before
 *    any lookup: it creates no tunnel, gets no answer (no RST, no ack), and
 *    claims no credit. One list keeps the configuration of a pair of hosts
 *    symmetric, which EQDS needs anyway (each direction is a tunnel, and
 *    TCP's acks go back over EQDS).
 *  - Inner packets are checked (inner.c).
 *  - New receiving tunnels are bounded in number (max_rx_tunnels) and in
 *    rate (tunnel_rate per second): a flood of SYNs from spoofed peer
 *    addresses costs at most that much state and setup work.
 *  - The packet that creates a receiving tunnel asks for at most two
 *    quanta of credit, enough for one full-size packet: it comes before
 *    the sender has heard from us, so anyone can send one from a spoofed
 *    address, and the pulls it earns go to that address. With the creation
 *    rate limit, a flood of such packets can take at most 2 * tunnel_rate
 *    quanta a second of the link's pulls from the real senders. An honest
 *    sender is confirmed by our first pull and asks for the rest with its
 *    next packet, or with an RTS after a retransmission timeout if the first
 *    packet it has queued is larger; later SYN packets of the tunnel (a
 *    restart, or a burst sent before the confirmation) are not limited.
 */
#include <linux/jiffies.h>
#include "eqds.h"
#include "netns.h"
#include "config.h"
#include "tunnels.h"
#include "inner.h"
#include "admit.h"

/* Most quanta the packet that creates a tunnel may ask for (see above). */
#define EQDS_NEW_PULL_TARGET	2

bool eqds_peer_ok(const struct eqds_config *cfg, const struct eqds_addr *peer)
{
	return eqds_config_has_dest(cfg, peer->family, &peer->a);
}

/* One more new tunnel in this tenth of a second? */
static bool tunnel_rate_ok(struct eqds_tunnel_rate *r)
{
	unsigned long now = jiffies;
	unsigned int per_slot = max(READ_ONCE(eqds_tunnel_rate) / 10, 1U);

	if (time_after_eq(now, READ_ONCE(r->slot) + HZ / 10) ||
	    time_before(now, READ_ONCE(r->slot))) {
		WRITE_ONCE(r->slot, now);
		atomic_set(&r->used, 0);
	}
	return atomic_inc_return(&r->used) <= per_slot;
}

/* May one more receiving tunnel be created? */
static enum eqds_stats_attr new_tunnel_ok(struct eqds_net *en)
{
	if (atomic_read(&en->rxts.nelems) >= READ_ONCE(eqds_max_rx_tunnels))
		return EQDS_STATS_A_DROP_TUNNEL_LIMIT;
	if (!tunnel_rate_ok(&en->tunnel_rate))
		return EQDS_STATS_A_DROP_TUNNEL_RATE;
	return 0;
}

enum eqds_stats_attr eqds_admit_data(struct eqds_net *en, struct sk_buff *skb,
				     struct eqds_pkt *pkt,
				     const struct eqds_addr *peer,
				     const struct eqds_addr *local)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);

	if (pkt->next_proto != EQDS_NP_NONE &&
	    !eqds_inner_ok(skb, pkt->next_proto, cfg, peer, local))
		return EQDS_STATS_A_DROP_INNER;
	if (!(pkt->flags & EQDS_F_SYN) || eqds_rxt_lookup(en, peer, local))
		return 0;
	/*
	 * This packet creates the tunnel (unless another CPU is at it too).
	 * A new tunnel has pulled nothing, so its absolute pull target
	 * (core/credit.h) is the number of pulls it asks for; a number behind
	 * 0 asks for none.
	 */
	pkt->data.pull_target = clamp_t(s16, (s16)pkt->data.pull_target, 0,
					EQDS_NEW_PULL_TARGET);
	return new_tunnel_ok(en);
}
