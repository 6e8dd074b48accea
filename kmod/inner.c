// SPDX-License-Identifier: GPL-2.0
/*
 * Inner packet checks. A decapsulated packet enters IP input through
 * GRO (deliver.c) as if a neighbour had sent it, so it must not be able to do
 * there what a packet from the wire could not:
 *
 *  - its destination must be the outer destination, which an eqds sender
 *    always makes it (the outer packet goes to the inner destination).
 *    Anything else would make the receiver forward, or deliver to another
 *    local address, a packet that its firewall saw arrive as UDP;
 *  - its source must be the outer source, or another address of a
 *    configured peer (a host with several addresses sends from the one its
 *    route picks). Otherwise a peer, or anyone who can spoof one, could
 *    inject packets with any source address;
 *  - it must not be a UDP datagram to the EQDS port: EQDS packets come from
 *    the peer's own EQDS socket, never through a tunnel. Delivered, one
 *    would reach our EQDS socket as if the peer's EQDS had sent it, and
 *    anyone on the peer who can send a datagram could speak EQDS for it;
 *  - it must be whole and well formed (length fields within the packet, no
 *    fragment, a valid IPv4 header checksum), so that the counters can tell
 *    a broken tunnel from a broken packet; IP input would drop such a
 *    packet too, but silently, after eqds counted it as delivered.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <linux/udp.h>
#include "core/wire.h"
#include "config.h"
#include "inner.h"

/* Is the L4 header at off, of protocol proto, UDP to the EQDS port? */
static bool to_eqds_port(struct sk_buff *skb, unsigned int off, u8 proto,
			 const struct eqds_config *cfg)
{
	__be16 dport;

	return proto == IPPROTO_UDP &&
	       !skb_copy_bits(skb, off + offsetof(struct udphdr, dest), &dport, sizeof(dport)) &&
	       dport == htons(cfg->port);
}

static bool ipv4_ok(struct sk_buff *skb, const struct eqds_config *cfg,
		    const struct eqds_addr *peer, const struct eqds_addr *local)
{
	const struct iphdr *iph;
	u32 hlen;

	if (!pskb_may_pull(skb, sizeof(*iph)))
		return false;
	iph = ip_hdr(skb);
	hlen = iph->ihl * 4;
	if (iph->version != 4 || hlen < sizeof(*iph) || !pskb_may_pull(skb, hlen))
		return false;
	iph = ip_hdr(skb);
	if (ip_fast_csum(iph, iph->ihl) || ntohs(iph->tot_len) < hlen ||
	    ntohs(iph->tot_len) > skb->len || ip_is_fragment(iph))
		return false;
	/* eqds sends an inner packet in an outer one of its own family. */
	if (peer->family != AF_INET || iph->daddr != local->a.v4 ||
	    (iph->saddr != peer->a.v4 && !eqds_config_has_dest(cfg, AF_INET, &iph->saddr)))
		return false;
	return !to_eqds_port(skb, hlen, iph->protocol, cfg);
}

static bool ipv6_ok(struct sk_buff *skb, const struct eqds_config *cfg,
		    const struct eqds_addr *peer, const struct eqds_addr *local)
{
	const struct ipv6hdr *ip6h;
	__be16 frag_off;
	u8 proto;
	int off;
	u32 plen;

	if (!pskb_may_pull(skb, sizeof(*ip6h)))
		return false;
	ip6h = ipv6_hdr(skb);
	plen = ntohs(ip6h->payload_len);
	/* Payload length 0 is a jumbogram: only a GSO packet may be one. */
	if (ip6h->version != 6 || sizeof(*ip6h) + plen > skb->len ||
	    (!plen && !skb_is_gso(skb)))
		return false;
	if (peer->family != AF_INET6 || !ipv6_addr_equal(&ip6h->daddr, &local->a.v6) ||
	    (!ipv6_addr_equal(&ip6h->saddr, &peer->a.v6) &&
	     !eqds_config_has_dest(cfg, AF_INET6, &ip6h->saddr)))
		return false;
	proto = ip6h->nexthdr;
	off = ipv6_skip_exthdr(skb, sizeof(*ip6h), &proto, &frag_off);
	/* A later fragment has no UDP header to look at: not eqds's either. */
	return off >= 0 && !frag_off && !to_eqds_port(skb, off, proto, cfg);
}

bool eqds_inner_ok(struct sk_buff *skb, u8 next_proto, const struct eqds_config *cfg,
		   const struct eqds_addr *peer, const struct eqds_addr *local)
{
	if (next_proto == EQDS_NP_IPV4)
		return ipv4_ok(skb, cfg, peer, local);
	if (next_proto == EQDS_NP_IPV6)
		return ipv6_ok(skb, cfg, peer, local);
	return false;
}
