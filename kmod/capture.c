// SPDX-License-Identifier: GPL-2.0
/*
 * Capture: a netfilter hook at POST_ROUTING (last) steals locally generated
 * packets to configured EQDS destinations and hands them to the destination's
 * sending queue. Nothing else changes for the host: no device, no routes, no
 * application change.
 *
 * Runs in the context of whoever sends (process or softirq), under RCU.
 *
 * What is never captured:
 *  - broadcast and multicast (they have no one peer to tunnel to);
 *  - packets that an xfrm policy transforms (the route is an xfrm bundle):
 *    IPsec applies first, and the ESP/AH packet it makes is an ordinary
 *    packet, captured in its turn when it goes to a destination;
 *  - datagrams to the EQDS port from any socket but eqds's own: a peer takes
 *    what arrives on that port from this host's address for this host's
 *    EQDS, so no local user may send it there, in clear or tunnelled. They
 *    are dropped (drop_local_port); so are forwarded ones that leave with
 *    one of this host's addresses as source (a masqueraded container).
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/dst.h>
#include <net/tcp.h>
#include <net/checksum.h>
#include <net/ndisc.h>
#include <linux/inetdevice.h>
#include <net/route.h>
#include <net/addrconf.h>
#include <net/netfilter/nf_conntrack_core.h>
#include "eqds.h"
#include "netns.h"
#include "tunnel.h"
#include "xmit.h"
#include "capture.h"

static bool is_eqds_sock(struct eqds_net *en, const struct sock *sk)
{
	struct socket *s4 = rcu_dereference(en->sock4);
	struct socket *s6 = rcu_dereference(en->sock6);

	return (s4 && s4->sk == sk) || (s6 && s6->sk == sk);
}

/*
 * The outer headers must fit in the path MTU, and TCP sizes its segments
 * from the route's MTU, which knows nothing of them: lower the MSS of
 * SYNs to EQDS destinations so every segment fits once encapsulated.
 */
static void clamp_mss(struct eqds_net *en, struct sk_buff *skb, unsigned int thoff,
		      u16 family)
{
	unsigned int hdrlen = family == AF_INET ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	/* Over IPv6 the segments may travel in GSO packets, with TCPSEQ. */
	unsigned int budget = eqds_mtu_budget(dst_mtu(skb_dst(skb)), eqds_overhead(family, true));
	unsigned int i, optlen;
	struct tcphdr *th;
	u16 newmss, oldmss;
	u8 *opt;

	if (budget <= hdrlen + sizeof(*th) + EQDS_MTU_MIN_SEG)
		return;
	newmss = budget - hdrlen - sizeof(*th);
	if (skb_ensure_writable(skb, thoff + sizeof(*th)))
		return;
	th = (struct tcphdr *)(skb->data + thoff);
	if (!th->syn || th->doff * 4 < sizeof(*th) ||
	    skb_ensure_writable(skb, thoff + th->doff * 4))
		return;
	th = (struct tcphdr *)(skb->data + thoff);
	opt = (u8 *)th;
	for (i = sizeof(*th); i + TCPOLEN_MSS <= th->doff * 4; i += optlen) {
		if (opt[i] == TCPOPT_EOL)
			return;
		if (opt[i] == TCPOPT_NOP) {
			optlen = 1;
			continue;
		}
		optlen = opt[i + 1];
		if (optlen < 2)
			return;
		if (opt[i] != TCPOPT_MSS || optlen != TCPOLEN_MSS)
			continue;
		oldmss = get_unaligned_be16(opt + i + 2);
		if (oldmss <= newmss)
			return;
		put_unaligned_be16(newmss, opt + i + 2);
		inet_proto_csum_replace2(&th->check, skb, htons(oldmss), htons(newmss),
					 false);
		eqds_count(en, EQDS_STATS_A_MSS_CLAMPED);
		return;
	}
}

/* A UDP datagram to the EQDS port that eqds's own socket did not send? */
static bool to_eqds_port(struct eqds_net *en, const struct eqds_config *cfg,
			 struct sk_buff *skb, const struct nf_hook_state *state,
			 u8 l4proto, unsigned int thoff)
{
	__be16 dport;

	if (l4proto != IPPROTO_UDP ||
	    skb_copy_bits(skb, thoff + offsetof(struct udphdr, dest), &dport, sizeof(dport)) ||
	    dport != htons(cfg->port))
		return false;
	return !state->sk || !is_eqds_sock(en, state->sk);
}

static bool local_source(const struct nf_hook_state *state, struct sk_buff *skb)
{
	if (state->pf == NFPROTO_IPV4)
		return inet_addr_type(state->net, ip_hdr(skb)->saddr) == RTN_LOCAL;
	return ipv6_chk_addr(state->net, &ipv6_hdr(skb)->saddr, NULL, 0);
}

/*
 * Whether to drop a packet that would speak EQDS for this host without
 * being eqds's: from a local socket, or forwarded but with a local source
 * (looked up last: only datagrams to the EQDS port pay for it).
 */
static bool forged_eqds(struct eqds_net *en, struct sk_buff *skb,
			const struct nf_hook_state *state, u8 l4proto,
			unsigned int thoff, bool forwarded)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);

	if (!cfg->ndests)
		return false;
	if (skb_dst(skb) && (skb_dst(skb)->dev->flags & IFF_LOOPBACK))
		return false;	/* to ourselves: not a peer's business */
	if (!to_eqds_port(en, cfg, skb, state, l4proto, thoff))
		return false;
	if (forwarded && !local_source(state, skb))
		return false;
	/* Freed by netfilter, at our NF_DROP (SKB_DROP_REASON_NETFILTER_DROP). */
	eqds_count_drop(en, EQDS_STATS_A_DROP_LOCAL_PORT, NULL, skb);
	eqds_count(en, EQDS_STATS_A_TX_DROPS);
	return true;
}

static unsigned int capture(struct eqds_net *en, struct sk_buff *skb,
			    const struct nf_hook_state *state,
			    const struct eqds_addr *dst, u8 l4proto,
			    unsigned int thoff)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);

	if (!cfg->ndests || !eqds_config_has_dest(cfg, dst->family, &dst->a))
		return NF_ACCEPT;
	/* Our own packets, and traffic to ourselves, stay as they are. */
	if (state->sk && is_eqds_sock(en, state->sk))
		return NF_ACCEPT;
	if (!skb_dst(skb) || (skb_dst(skb)->dev->flags & IFF_LOOPBACK))
		return NF_ACCEPT;
	/*
	 * IPsec transforms it after this hook: the result is captured instead.
	 * A packet with a secpath here is one xfrm has left to a device to
	 * encrypt (ESP offload): encapsulated, it would go out in clear.
	 */
	if (dst_xfrm(skb_dst(skb)) || skb_sec_path(skb))
		return NF_ACCEPT;
	/*
	 * Hooks of equal priority run newest first, so conntrack's confirm
	 * hook (also last) may come after this one: confirm the connection
	 * here, or it is never confirmed and a stateful firewall drops the
	 * replies. (Conntrack helpers do not see these packets.)
	 */
	if (IS_ENABLED(CONFIG_NF_CONNTRACK) && nf_conntrack_confirm(skb) != NF_ACCEPT)
		return NF_DROP;
	if (l4proto == IPPROTO_TCP)
		clamp_mss(en, skb, thoff, dst->family);
	eqds_tx_capture(en, dst, skb);
	return NF_STOLEN;
}

/*
 * Broadcast and multicast have no one peer: the limited broadcast, class D,
 * what the route says is a broadcast (the directed broadcast of a local
 * subnet), and the last address of a destination prefix that has one.
 */
static bool not_unicast4(struct eqds_net *en, struct sk_buff *skb, __be32 daddr)
{
	const struct eqds_config *cfg = rcu_dereference(en->config);
	const struct rtable *rt = skb_rtable(skb);
	u32 i;

	if (ipv4_is_multicast(daddr) || ipv4_is_lbcast(daddr) || ipv4_is_zeronet(daddr))
		return true;
	if (rt && (rt->rt_type == RTN_BROADCAST || rt->rt_type == RTN_MULTICAST ||
		   (rt->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST))))
		return true;
	for (i = 0; i < cfg->ndests; i++) {
		const struct eqds_prefix *p = &cfg->dests[i];

		if (p->family == AF_INET && p->len <= 30 &&
		    (daddr | inet_make_mask(p->len)) == htonl(0xffffffff) &&
		    eqds_prefix_match(p, AF_INET, &daddr))
			return true;
	}
	return false;
}

static unsigned int eqds_nf_out4(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct eqds_net *en = priv;
	struct eqds_addr dst = { .family = AF_INET };
	const struct iphdr *iph = ip_hdr(skb);
	bool forwarded = IPCB(skb)->flags & IPSKB_FORWARDED;

	if (!ip_is_fragment(iph) &&
	    forged_eqds(en, skb, state, iph->protocol, ip_hdrlen(skb), forwarded))
		return NF_DROP;
	/* Forwarded traffic is the business of the hosts that send it. */
	if (forwarded)
		return NF_ACCEPT;
	if (ip_is_fragment(iph) || not_unicast4(en, skb, iph->daddr))
		return NF_ACCEPT;
	dst.a.v4 = iph->daddr;
	return capture(en, skb, state, &dst, iph->protocol, ip_hdrlen(skb));
}

static bool is_ndisc(struct sk_buff *skb, unsigned int thoff)
{
	u8 type;

	if (skb_copy_bits(skb, thoff, &type, 1))
		return false;
	return type >= NDISC_ROUTER_SOLICITATION && type <= NDISC_REDIRECT;
}

static unsigned int eqds_nf_out6(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct eqds_net *en = priv;
	struct eqds_addr dst = { .family = AF_INET6 };
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	unsigned int thoff = sizeof(*ip6h);
	bool forwarded = IP6CB(skb)->flags & IP6SKB_FORWARDED;
	u8 l4proto = ip6h->nexthdr;
	__be16 frag_off;
	int l4off;

	l4off = ipv6_skip_exthdr(skb, thoff, &l4proto, &frag_off);
	if (l4off >= 0 && !frag_off &&
	    forged_eqds(en, skb, state, l4proto, l4off, forwarded))
		return NF_DROP;
	if (forwarded)
		return NF_ACCEPT;
	if (ipv6_addr_is_multicast(&ip6h->daddr) ||
	    ipv6_addr_type(&ip6h->daddr) & IPV6_ADDR_LINKLOCAL)
		return NF_ACCEPT;
	/* Neighbour discovery must reach the link itself, or nothing does. */
	if (ip6h->nexthdr == IPPROTO_ICMPV6 && is_ndisc(skb, thoff))
		return NF_ACCEPT;
	dst.a.v6 = ip6h->daddr;
	return capture(en, skb, state, &dst, ip6h->nexthdr, thoff);
}

static const struct nf_hook_ops eqds_nf_ops[] = {
	{
		.hook = eqds_nf_out4,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP_PRI_LAST,
	},
	{
		.hook = eqds_nf_out6,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP6_PRI_LAST,
	},
};

/* Netfilter keeps pointers to the ops: they live in the namespace's instance. */
int eqds_capture_register(struct eqds_net *en)
{
	int i, err;

	BUILD_BUG_ON(ARRAY_SIZE(eqds_nf_ops) != ARRAY_SIZE(en->nf_ops));
	memcpy(en->nf_ops, eqds_nf_ops, sizeof(en->nf_ops));
	for (i = 0; i < ARRAY_SIZE(en->nf_ops); i++)
		en->nf_ops[i].priv = en;
	err = nf_register_net_hooks(en->net, en->nf_ops, ARRAY_SIZE(en->nf_ops));
	en->hooks_registered = !err;
	return err;
}

void eqds_capture_unregister(struct eqds_net *en)
{
	if (!en->hooks_registered)
		return;
	nf_unregister_net_hooks(en->net, en->nf_ops, ARRAY_SIZE(en->nf_ops));
	en->hooks_registered = false;
}
