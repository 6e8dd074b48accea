// SPDX-License-Identifier: GPL-2.0
/*
 * Sending EQDS packets: encapsulation of captured inner packets, and control
 * packets. Any context; called without tunnel locks held.
 *
 * The outer UDP source port carries the packet's path id, so routers that
 * hash on L4 spread one tunnel over all their paths (spraying). For an IPv4
 * outer header the IP ID is eqds_outer_id() of the EQDS sequence number:
 * when a GSO packet is split after us (TSO, or software GSO on the way),
 * each piece gets the next ID, and the receiver recovers each piece's own
 * sequence number from it (core/wire.h says how it checks the ID). IPv6 has
 * no ID: a TCP GSO packet's header then says where its TCP sequence numbers
 * start (EQDS_F_TCPSEQ), and each piece is numbered by its own.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/ip6_route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <net/ip_tunnels.h>
#include <net/ip6_tunnel.h>
#include <net/inet_ecn.h>
#include <net/ipv6_stubs.h>
#include "eqds.h"
#include "netns.h"
#include "xmit.h"

/* Spraying: sport = base | path id; ports above 49152 as for VXLAN. */
static __be16 eqds_sport(const struct eqds_pkt *hdr)
{
	return htons(0xc000 | 0x1000 | hdr->path_id);
}

static struct socket *eqds_sock(struct eqds_net *en, u16 family)
{
	return family == AF_INET ? rcu_dereference(en->sock4) : rcu_dereference(en->sock6);
}

static struct rtable *route4(struct eqds_net *en, struct dst_cache *cache,
			     __be32 daddr, __be32 *saddr, __be16 dport)
{
	struct flowi4 fl4 = {};
	struct rtable *rt;

	if (cache) {
		lockdep_assert_in_softirq();	/* the cache is per CPU */
		rt = dst_cache_get_ip4(cache, saddr);
		if (rt)
			return rt;
	}
	fl4.daddr = daddr;
	fl4.saddr = *saddr;
	fl4.flowi4_proto = IPPROTO_UDP;
	fl4.fl4_dport = dport;
	/* With the xfrm lookup, as route6(): IPsec policies apply to EQDS too. */
	rt = ip_route_output_flow(en->net, &fl4, NULL);
	if (IS_ERR(rt))
		return rt;
	*saddr = fl4.saddr;
	if (cache)
		dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);
	return rt;
}

static struct dst_entry *route6(struct eqds_net *en, struct sock *sk,
				struct dst_cache *cache, const struct in6_addr *daddr,
				struct in6_addr *saddr, __be16 dport)
{
	struct dst_entry *dst;
	struct flowi6 fl6 = {};

	if (cache) {
		lockdep_assert_in_softirq();
		dst = dst_cache_get_ip6(cache, saddr);
		if (dst)
			return dst;
	}
	fl6.daddr = *daddr;
	fl6.saddr = *saddr;
	fl6.flowi6_proto = IPPROTO_UDP;
	fl6.fl6_dport = dport;
	dst = ipv6_stub->ipv6_dst_lookup_flow(en->net, sk, &fl6, NULL);
	if (IS_ERR(dst))
		return dst;
	*saddr = fl6.saddr;
	if (cache)
		dst_cache_set_ip6(cache, dst, &fl6.saddr);
	return dst;
}

void eqds_fit_describe(const struct sk_buff *skb, struct eqds_fit_pkt *p)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	bool tcp = si->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6);
	u32 hlen;

	memset(p, 0, sizeof(*p));
	p->len = skb->len;
	/* GSO_BY_FRAGS (SCTP) has no segment size: taken as one packet. */
	if (!skb_is_gso(skb) || si->gso_size == GSO_BY_FRAGS)
		return;
	/*
	 * The headers each segment repeats. After iptunnel_handle_offloads()
	 * (or for an inner tunnel's packet) they end at the inner L4 header.
	 */
	if (skb->encapsulation)
		hlen = skb_inner_transport_header(skb) - skb->data +
		       (tcp ? inner_tcp_hdrlen(skb) : 0);
	else
		hlen = skb_transport_offset(skb) + (tcp ? tcp_hdrlen(skb) : 0);
	if (si->gso_type & SKB_GSO_UDP_L4)
		hlen += sizeof(struct udphdr);
	p->gso_size = si->gso_size;
	p->seg_hlen = hlen;
	p->tcp = tcp && !skb->encapsulation;
}

/* Does every piece of a data packet fit mtu once encapsulated? */
static bool eqds_fits(struct eqds_net *en, const struct sk_buff *skb, u32 mtu, u16 family,
		      const struct eqds_pkt *hdr)
{
	struct eqds_fit_pkt p;
	u32 unused;

	eqds_fit_describe(skb, &p);
	if (eqds_fit(&p, mtu, eqds_overhead(family, hdr->flags & EQDS_F_TCPSEQ),
		     &unused) == EQDS_FIT_WHOLE)
		return true;
	eqds_count(en, EQDS_STATS_A_MTU_FRAGMENTED);
	return false;
}

static void push_eqds_header(struct sk_buff *skb, const struct eqds_pkt *hdr)
{
	void *p = __skb_push(skb, hdr->hlen);

	/* Callers build valid headers: a failure here is a bug. */
	WARN_ON_ONCE(eqds_encode(p, hdr->hlen, hdr) < 0);
}

static int xmit4(struct eqds_net *en, struct sock *sk, struct sk_buff *skb,
		 struct rtable *rt, __be32 saddr, __be32 daddr,
		 const struct eqds_pkt *hdr, __be16 dport, u8 tos, bool data)
{
	__be16 df = htons(IP_DF);
	const void *skbaddr;
	struct udphdr *uh;
	struct iphdr *iph;
	int err;

	/*
	 * What does not fit the path MTU now (it shrank after capture, or
	 * one datagram is too large) is fragmented outside (core/mtu.h).
	 */
	if (data && !eqds_fits(en, skb, dst_mtu(&rt->dst), AF_INET, hdr))
		df = 0;

	skb_scrub_packet(skb, false);
	/* The inner flow's L4 hash would pin every path id to one ECMP path. */
	skb_clear_hash(skb);
	skb_dst_set(skb, &rt->dst);

	push_eqds_header(skb, hdr);
	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = eqds_sport(hdr);
	uh->dest = dport;
	uh->len = htons(skb->len);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
	udp_set_csum(false, skb, saddr, daddr, skb->len);

	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->frag_off = ip_mtu_locked(&rt->dst) ? 0 : df;
	iph->protocol = IPPROTO_UDP;
	iph->tos = tos;
	iph->daddr = daddr;
	iph->saddr = saddr;
	iph->ttl = ip4_dst_hoplimit(&rt->dst);
	if (data)
		iph->id = htons(eqds_outer_id(hdr->data.seq));
	else
		__ip_select_ident(en->net, iph, 1);
	skb->protocol = htons(ETH_P_IP);
	skbaddr = skb;	/* for the trace: the IP layer frees what it refuses */
	err = ip_local_out(en->net, sk, skb);
	if (unlikely(net_xmit_eval(err)))
		eqds_count_drop(en, EQDS_STATS_A_DROP_XMIT, NULL, skbaddr);
	return err;
}

static int xmit6(struct eqds_net *en, struct sock *sk, struct sk_buff *skb,
		 struct dst_entry *dst, struct in6_addr *saddr,
		 struct in6_addr *daddr, const struct eqds_pkt *hdr,
		 __be16 dport, u8 tclass)
{
	bool big = hdr->type == EQDS_TYPE_DATA &&
		   !eqds_fits(en, skb, dst_mtu(dst), AF_INET6, hdr);

	skb_scrub_packet(skb, false);
	skb_clear_hash(skb);
	/* An inner packet that cannot fit whole is fragmented outside. */
	skb->ignore_df = big;
	push_eqds_header(skb, hdr);
	skb->protocol = htons(ETH_P_IPV6);
	udp_tunnel6_xmit_skb(dst, sk, skb, NULL, saddr, daddr, tclass,
			     ip6_dst_hoplimit(dst), 0, eqds_sport(hdr), dport, false);
	return 0;
}

/*
 * The outer DS field: the inner one's DSCP, and ECN-capable whatever the
 * inner packet is, so switches mark instead of dropping and the receiver
 * echoes the marked path (core/paths.h). An inner ECT codepoint goes out
 * as it is; Not-ECT and CE go out ECT(0): a mark made before the tunnel
 * stays in the inner header and says nothing of the path. An RTS probe
 * has no inner header (its buffer holds nothing readable) and no data to
 * mark: DS field 0.
 */
static u8 outer_tos(struct sk_buff *skb, const struct eqds_pkt *hdr)
{
	u8 tos;

	switch (hdr->next_proto) {
	case EQDS_NP_IPV4:
		tos = ip_hdr(skb)->tos;
		break;
	case EQDS_NP_IPV6:
		tos = ipv6_get_dsfield(ipv6_hdr(skb));
		break;
	default:
		return 0;
	}
	if (INET_ECN_is_not_ect(tos) || INET_ECN_is_ce(tos))
		tos = (tos & ~INET_ECN_MASK) | INET_ECN_ECT_0;
	return tos;
}

/*
 * A packet of another tunnel (VXLAN, Geneve, GRE...) carries that tunnel's
 * offload state: its inner headers, and a checksum left to the device at
 * its innermost header. Offloads do not nest: a device would take those
 * inner headers for ours. So it goes as a plain datagram, its checksum
 * resolved here (GSO packets of a tunnel are segmented before they are
 * queued, eqds_tx_capture()).
 */
static int eqds_xmit_unnest(struct sk_buff *skb)
{
	int err;

	if (likely(!skb->encapsulation))
		return 0;
	if (skb_is_gso(skb))
		return -EINVAL;
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		err = skb_checksum_help(skb);
		if (err)
			return err;
	}
	skb->encapsulation = 0;
	return 0;
}

/*
 * Encapsulate and send one inner packet (consumed). Its headroom is made
 * private here, so a clone kept for retransmission is not disturbed.
 * BH disabled: the tunnel's dst_cache is per CPU.
 */
static int xmit_data(struct eqds_net *en, struct eqds_txt *t, struct sk_buff *skb,
		     const struct eqds_pkt *hdr)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);
	__be16 dport = htons(cfg->port);
	struct socket *sock = eqds_sock(en, t->peer.family);
	u8 tos = outer_tos(skb, hdr);
	enum eqds_stats_attr why;
	int gso_type, err;

	why = EQDS_STATS_A_DROP_NO_SOCKET;
	if (!sock)
		goto drop;
	why = EQDS_STATS_A_DROP_NOMEM;
	if (eqds_xmit_unnest(skb))
		goto drop;
	/*
	 * GSO of the tunnel (software or NIC) finds the inner packet through
	 * the inner mac header: there is no inner link header, so it is the
	 * inner network header, as for a packet from a tunnel device.
	 */
	skb_reset_mac_header(skb);
	skb_set_inner_ipproto(skb, skb->protocol == htons(ETH_P_IP) ?
			      IPPROTO_IPIP : IPPROTO_IPV6);
	/* IP in UDP, as FOU: the inner IP layer's segmentation checks for it. */
	gso_type = SKB_GSO_UDP_TUNNEL_CSUM |
		   (skb->protocol == htons(ETH_P_IP) ? SKB_GSO_IPXIP4 : SKB_GSO_IPXIP6);
	if (t->peer.family == AF_INET) {
		__be32 saddr = 0;
		struct rtable *rt = route4(en, &t->dst_cache, t->peer.a.v4, &saddr, dport);

		if (IS_ERR(rt)) {
			why = EQDS_STATS_A_DROP_NOROUTE;
			goto drop;
		}
		err = skb_cow_head(skb, LL_RESERVED_SPACE(rt->dst.dev) +
				   sizeof(struct iphdr) + sizeof(struct udphdr) +
				   hdr->hlen);
		if (!err)
			err = iptunnel_handle_offloads(skb, gso_type);
		if (err) {
			ip_rt_put(rt);
			why = EQDS_STATS_A_DROP_NOMEM;
			goto drop;
		}
		return xmit4(en, sock->sk, skb, rt, saddr, t->peer.a.v4, hdr,
			     dport, tos, true);
	} else {
		struct in6_addr saddr = {};
		struct dst_entry *dst = route6(en, sock->sk, &t->dst_cache,
					       &t->peer.a.v6, &saddr, dport);

		if (IS_ERR(dst)) {
			why = EQDS_STATS_A_DROP_NOROUTE;
			goto drop;
		}
		err = skb_cow_head(skb, LL_RESERVED_SPACE(dst->dev) +
				   sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
				   hdr->hlen);
		if (!err)
			err = iptunnel_handle_offloads(skb, gso_type);
		if (err) {
			dst_release(dst);
			why = EQDS_STATS_A_DROP_NOMEM;
			goto drop;
		}
		return xmit6(en, sock->sk, skb, dst, &saddr, &t->peer.a.v6, hdr,
			     dport, tos);
	}
drop:
	eqds_drop_skb(en, skb, why, NULL);
	return -ENETUNREACH;
}

/* Any context: capture sends from the sending socket's process too. */
int eqds_xmit_data(struct eqds_net *en, struct eqds_txt *t, struct sk_buff *skb,
		   const struct eqds_pkt *hdr)
{
	int err;

	local_bh_disable();
	err = xmit_data(en, t, skb, hdr);
	local_bh_enable();
	return err;
}

/*
 * A control packet from local (our address the peer uses) to peer, routed
 * through cache when the caller has one for that pair (a receiving tunnel).
 */
static int xmit_ctrl(struct eqds_net *en, struct dst_cache *cache,
		     const struct eqds_addr *local, const struct eqds_addr *peer,
		     const struct eqds_pkt *hdr)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);
	__be16 dport = htons(cfg->port);
	struct socket *sock = eqds_sock(en, peer->family);
	struct sk_buff *skb;

	if (!sock)
		return -ENOTCONN;
	skb = alloc_skb(LL_MAX_HEADER + sizeof(struct ipv6hdr) +
			sizeof(struct udphdr) + EQDS_CTRL_HLEN, GFP_ATOMIC);
	if (!skb) {
		eqds_count(en, EQDS_STATS_A_DROP_NOMEM);
		return -ENOMEM;
	}
	skb_reserve(skb, LL_MAX_HEADER + sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
		    EQDS_CTRL_HLEN);
	skb->ip_summed = CHECKSUM_NONE;
	/* Pulls and acks go first at the uplink: they pace everything else. */
	skb->priority = TC_PRIO_CONTROL;
	eqds_count(en, EQDS_STATS_A_TX_CTRL);

	if (peer->family == AF_INET) {
		__be32 saddr = local->a.v4;
		struct rtable *rt = route4(en, cache, peer->a.v4, &saddr, dport);

		if (IS_ERR(rt))
			goto noroute;
		return xmit4(en, sock->sk, skb, rt, saddr, peer->a.v4, hdr, dport, 0,
			     false);
	} else {
		struct in6_addr saddr = local->a.v6;
		struct dst_entry *dst = route6(en, sock->sk, cache, &peer->a.v6,
					       &saddr, dport);

		if (IS_ERR(dst))
			goto noroute;
		return xmit6(en, sock->sk, skb, dst, &saddr,
			     (struct in6_addr *)&peer->a.v6, hdr, dport, 0);
	}
noroute:
	eqds_drop_skb(en, skb, EQDS_STATS_A_DROP_NOROUTE, NULL);
	return -ENETUNREACH;
}

/* Any context. cache: routes of this local/peer pair, or NULL. */
int eqds_xmit_ctrl(struct eqds_net *en, struct dst_cache *cache,
		   const struct eqds_addr *local, const struct eqds_addr *peer,
		   const struct eqds_pkt *hdr)
{
	int err;

	local_bh_disable();
	err = xmit_ctrl(en, cache, local, peer, hdr);
	local_bh_enable();
	return err;
}
