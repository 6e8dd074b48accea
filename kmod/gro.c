// SPDX-License-Identifier: GPL-2.0
/*
 * GRO of EQDS packets at the receiving device, before decapsulation, as
 * FOU and VXLAN do: the pieces of one split GSO packet are merged back and
 * reach the stack as one packet, a sequence range like an unsplit one.
 *
 * Two packets merge only if their EQDS headers are byte for byte the same
 * (the pieces of one encapsulated packet are) and, for an IPv4 outer header,
 * the second's IP ID follows the last piece already merged: then the merged
 * packet covers seqs [seq + k, seq + k + count) and the receive path's
 * numbering (IP ID minus seq) stays exact. Over IPv6 only the pieces of one
 * TCPSEQ packet have the same header, and TCP's GRO below merges them only
 * in sequence: the first piece's TCP seq numbers the run. Anything else is
 * not merged.
 *
 * NAPI context (softirq), under rcu_read_lock().
 */
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/gro.h>
#include <net/protocol.h>
#include "core/wire.h"
#include "gro.h"

/*
 * A data packet that can be merged: established, carrying IP, and not a
 * retransmission. A resent packet's pieces go up one by one: some of them
 * arrived the first time, and a merged run overlapping those would be taken
 * for a duplicate whole, with the missing piece in it (core/rx.c).
 */
static bool mergeable(const u8 *h)
{
	return h[0] == (EQDS_WIRE_VERSION << 4 | EQDS_TYPE_DATA) &&
	       !(h[1] & (EQDS_F_SYN | EQDS_F_RTS | EQDS_F_FIN | EQDS_F_RTX)) &&
	       (h[3] == EQDS_NP_IPV4 || h[3] == EQDS_NP_IPV6);
}

/*
 * The outer IPv4 header's offset from skb->data, for the packet received and
 * the packets held alike (a held packet's headers up to here are linear and
 * at the same offsets): just before the outer UDP header, since IPv4 GRO
 * takes only 20-byte headers. Not skb_network_header(): GRO points it at the
 * innermost IP header it has seen (6.1) or at the first L3 header, which may
 * be a VLAN tag (6.10 on); nor skb_gro_network_header(), which on 6.10 on
 * follows encap_mark, set by UDP tunnel GRO before it calls us.
 */
static unsigned int outer_iph_offset(unsigned int eqds_off)
{
	return eqds_off - sizeof(struct udphdr) - sizeof(struct iphdr);
}

struct sk_buff *eqds_gro_receive(struct sock *sk, struct list_head *head,
				 struct sk_buff *skb)
{
	const struct net_offload __rcu **offloads;
	const struct net_offload *ops;
	unsigned int off = skb_gro_offset(skb);
	struct sk_buff *pp = NULL, *p;
	bool v6 = NAPI_GRO_CB(skb)->is_ipv6;
	unsigned int hlen;
	int flush = 1;
	u16 id = 0;
	u8 *h;

	h = skb_gro_header(skb, off + EQDS_DATA_HLEN, off);
	if (!h || !mergeable(h))
		goto out;
	hlen = eqds_data_hlen(h[1]);
	if (hlen > EQDS_DATA_HLEN) {
		h = skb_gro_header(skb, off + hlen, off);
		if (!h)
			goto out;
	}
	if (!v6) {
		const struct iphdr *iph = skb_gro_header(skb, off, outer_iph_offset(off));

		if (!iph)
			goto out;
		id = ntohs(iph->id);
	}

	list_for_each_entry(p, head, list) {
		const struct iphdr *iph2;
		const u8 *h2;

		if (!NAPI_GRO_CB(p)->same_flow)
			continue;
		h2 = p->data + off;
		if (memcmp(h, h2, hlen)) {
			NAPI_GRO_CB(p)->same_flow = 0;
		} else if (!v6) {
			iph2 = (const struct iphdr *)(p->data + outer_iph_offset(off));
			if ((u16)(ntohs(iph2->id) + NAPI_GRO_CB(p)->count) != id)
				NAPI_GRO_CB(p)->same_flow = 0;
		}
	}

	skb_gro_postpull_rcsum(skb, h, hlen);
	skb_gro_pull(skb, hlen);
	NAPI_GRO_CB(skb)->encap_mark = 0;
	NAPI_GRO_CB(skb)->is_fou = 1;
	offloads = v6 ? inet6_offloads : inet_offloads;
	ops = rcu_dereference(offloads[h[3] == EQDS_NP_IPV4 ? IPPROTO_IPIP : IPPROTO_IPV6]);
	if (!ops || !ops->callbacks.gro_receive)
		goto out;
	pp = call_gro_receive(ops->callbacks.gro_receive, head, skb);
	flush = 0;
out:
	skb_gro_flush_final(skb, pp, flush);
	return pp;
}

int eqds_gro_complete(struct sock *sk, struct sk_buff *skb, int nhoff)
{
	const u8 *h = skb->data + nhoff;
	const struct net_offload __rcu **offloads;
	const struct net_offload *ops;

	offloads = NAPI_GRO_CB(skb)->is_ipv6 ? inet6_offloads : inet_offloads;
	ops = rcu_dereference(offloads[h[3] == EQDS_NP_IPV4 ? IPPROTO_IPIP : IPPROTO_IPV6]);
	if (WARN_ON_ONCE(!ops || !ops->callbacks.gro_complete))
		return -EOPNOTSUPP;
	skb_set_inner_mac_header(skb, nhoff + eqds_data_hlen(h[1]));
	return ops->callbacks.gro_complete(skb, nhoff + eqds_data_hlen(h[1]));
}
