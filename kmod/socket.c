// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: one kernel UDP tunnel socket per family and namespace, bound to
 * the configured port. Its encap_rcv hook runs in softirq for every EQDS
 * packet: the header is decoded and validated by the core, then control
 * packets go to the sending side and data packets, stripped of the outer
 * headers, to the receiving side.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <net/ip_tunnels.h>
#include <net/inet_ecn.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "socket.h"
#include "gro.h"
#include "admit.h"

static void outer_addrs(struct sk_buff *skb, struct eqds_addr *peer,
			struct eqds_addr *local, u32 *ip_id, u8 *tos)
{
	memset(peer, 0, sizeof(*peer));
	memset(local, 0, sizeof(*local));
	if (ip_hdr(skb)->version == 4) {
		const struct iphdr *iph = ip_hdr(skb);

		peer->family = AF_INET;
		local->family = AF_INET;
		peer->a.v4 = iph->saddr;
		local->a.v4 = iph->daddr;
		*ip_id = ntohs(iph->id);
		*tos = iph->tos;
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		peer->family = AF_INET6;
		local->family = AF_INET6;
		peer->a.v6 = ip6h->saddr;
		local->a.v6 = ip6h->daddr;
		*ip_id = 0;
		*tos = ipv6_get_dsfield(ip6h);
	}
}

/*
 * Congestion marked on the outer header is the inner packet's too when it
 * is ECN-capable (RFC 6040). A Not-ECT inner packet goes up as it is: the
 * outer header was ECN-capable for EQDS's sake (xmit.c, outer_tos()), and
 * the mark reaches its sender as a path to avoid (EQDS_CO_CE).
 */
static void ecn_decap(struct sk_buff *skb, u8 outer_tos)
{
	if (!INET_ECN_is_ce(outer_tos))
		return;
	if (skb->protocol == htons(ETH_P_IP))
		IP_ECN_set_ce(ip_hdr(skb));
	else
		IP6_ECN_set_ce(skb, ipv6_hdr(skb));
}

static int eqds_udp_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct eqds_net *en = rcu_dereference_sk_user_data(sk);
	enum eqds_stats_attr why;
	struct eqds_addr peer, local;
	u32 len, ip_id;
	struct eqds_pkt pkt;
	__be16 proto;
	bool ce;
	int err;
	u8 tos;

	/* The socket is being released: no instance to count it in. */
	if (!en) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
		return 0;
	}
	outer_addrs(skb, &peer, &local, &ip_id, &tos);
	len = skb->len - sizeof(struct udphdr);
	why = EQDS_STATS_A_DROP_DECODE;
	if (skb->len < sizeof(struct udphdr) ||
	    !pskb_may_pull(skb, sizeof(struct udphdr) + min_t(u32, len, EQDS_CTRL_HLEN)))
		goto drop;
	/* The decoder reads the header only: at most EQDS_CTRL_HLEN bytes. */
	err = eqds_decode(skb->data + sizeof(struct udphdr), len, &pkt);
	if (err < 0)
		goto drop;
	why = EQDS_STATS_A_DROP_PEER;
	if (!eqds_peer_ok(rcu_dereference(en->config), &peer))
		goto drop;

	if (pkt.type == EQDS_TYPE_CTRL) {
		eqds_count(en, EQDS_STATS_A_RX_CTRL);
		why = eqds_tx_ctrl_rcv(en, &peer, &pkt);
		/* A control packet refused by its tunnel is not in rx_drops. */
		if (why)
			eqds_drop_skb(en, skb, why, &peer);
		else
			consume_skb(skb);
		return 0;
	}

	proto = pkt.next_proto == EQDS_NP_IPV6 ? htons(ETH_P_IPV6) : htons(ETH_P_IP);
	why = EQDS_STATS_A_DROP_NOMEM;
	if (__iptunnel_pull_header(skb, sizeof(struct udphdr) + pkt.hlen, proto,
				   false, false))
		goto drop;
	skb_reset_network_header(skb);
	/* The outer link header stays: delivery rebuilds one from it. */
	skb->pkt_type = PACKET_HOST;
	/* The outer flow's hash, which spraying varies per packet. */
	skb_clear_hash(skb);
	why = eqds_admit_data(en, skb, &pkt, &peer, &local);
	if (why)
		goto drop;
	/*
	 * The device whose speed sets the pull rate: only an admitted packet
	 * may name it, or anyone could pick the rate with one spoofed packet
	 * on a slow interface.
	 */
	WRITE_ONCE(en->rx_ifindex, skb->dev ? skb->dev->ifindex : 0);
	ce = INET_ECN_is_ce(tos);
	if (pkt.next_proto != EQDS_NP_NONE) {
		ecn_decap(skb, tos);	/* its IP header is pulled and sane */
		/* The core congestion reaction's input (pull.c). */
		eqds_stats_add(en->stats, EQDS_STATS_A_RX_ARRIVED_BYTES, skb->len);
		if (ce)
			eqds_stats_add(en->stats, EQDS_STATS_A_RX_CE_BYTES, skb->len);
	}
	eqds_rx_data_rcv(en, skb, &pkt, &peer, &local, ip_id, ce);
	return 0;

drop:
	eqds_rx_drop(en, skb, why, &peer);
	return 0;
}

/*
 * An ICMP error quoting a packet we sent (fragmentation needed, packet too
 * big, unreachable...): claiming it lets the UDP layer update the path MTU
 * of the route to the peer, a route exception that expires (and so comes
 * back up) as the kernel's do for any socket. Each outer packet is sized by
 * that MTU (core/mtu.h), through the tunnel's route cache, which the
 * exception invalidates. Claimed (0) only if the quoted packet went to a
 * configured destination and, where quoted, carries an EQDS header. Softirq
 * under RCU; the network header is the quoted IP header, the transport
 * header the quoted UDP header (whose port is ours: the lookup found us).
 */
static int eqds_udp_err_lookup(struct sock *sk, struct sk_buff *skb)
{
	struct eqds_net *en = rcu_dereference_sk_user_data(sk);
	struct eqds_addr peer = {};
	u8 ver_type, *p;

	if (!en)
		return -ENOENT;
	if (ip_hdr(skb)->version == 4) {
		peer.family = AF_INET;
		peer.a.v4 = ip_hdr(skb)->daddr;
	} else {
		peer.family = AF_INET6;
		peer.a.v6 = ipv6_hdr(skb)->daddr;
	}
	if (!eqds_peer_ok(rcu_dereference(en->config), &peer))
		return -ENOENT;
	/* Routers need quote only 8 bytes after the IP header (RFC 792). */
	p = skb_header_pointer(skb, skb_transport_offset(skb) + sizeof(struct udphdr),
			       sizeof(ver_type), &ver_type);
	if (p && (*p >> 4 != EQDS_WIRE_VERSION ||
		  ((*p & 0x0f) != EQDS_TYPE_DATA && (*p & 0x0f) != EQDS_TYPE_CTRL)))
		return -ENOENT;
	eqds_count(en, EQDS_STATS_A_ICMP_RCVD);
	return 0;
}

static struct socket *open_one(struct eqds_net *en, u16 family, u16 port)
{
	struct udp_tunnel_sock_cfg tcfg = {};
	struct udp_port_cfg conf = {};
	struct socket *sock;
	int err;

	conf.family = family;
	conf.local_udp_port = htons(port);
	if (family == AF_INET6) {
		conf.ipv6_v6only = 1;
		conf.use_udp6_rx_checksums = 1;
		conf.use_udp6_tx_checksums = 1;
	}
	err = udp_sock_create(en->net, &conf, &sock);
	if (err)
		return ERR_PTR(err);
	tcfg.sk_user_data = en;
	tcfg.encap_type = 1;
	tcfg.encap_rcv = eqds_udp_rcv;
	tcfg.encap_err_lookup = eqds_udp_err_lookup;
	tcfg.gro_receive = eqds_gro_receive;
	tcfg.gro_complete = eqds_gro_complete;
	setup_udp_tunnel_sock(en->net, sock, &tcfg);
	return sock;
}

static void close_one(struct socket __rcu **slot, struct eqds_net *en)
{
	struct socket *sock = rcu_replace_pointer(*slot, NULL, lockdep_is_held(&en->lock));

	if (sock)
		udp_tunnel_sock_release(sock);	/* waits for readers */
}

/*
 * Open the sockets on port, then retire any old ones, so a port that cannot
 * be bound leaves the instance as it was. IPv4 must open; IPv6 is optional
 * (the namespace may have it disabled). Caller holds en->lock.
 */
int eqds_sockets_open(struct eqds_net *en, u16 port, struct netlink_ext_ack *extack)
{
	struct socket *s4, *s6;

	lockdep_assert_held(&en->lock);
	s4 = open_one(en, AF_INET, port);
	if (IS_ERR(s4)) {
		NL_SET_ERR_MSG(extack, "cannot bind the EQDS UDP port (in use?)");
		return PTR_ERR(s4);
	}
	s6 = IS_ENABLED(CONFIG_IPV6) ? open_one(en, AF_INET6, port) : NULL;
	close_one(&en->sock4, en);
	close_one(&en->sock6, en);
	rcu_assign_pointer(en->sock4, s4);
	if (!IS_ERR_OR_NULL(s6))
		rcu_assign_pointer(en->sock6, s6);
	return 0;
}

void eqds_sockets_close(struct eqds_net *en)
{
	mutex_lock(&en->lock);
	close_one(&en->sock4, en);
	close_one(&en->sock6, en);
	mutex_unlock(&en->lock);
}
