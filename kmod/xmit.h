/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_XMIT_H
#define _EQDS_XMIT_H

#include <linux/skbuff.h>
#include "core/wire.h"
#include "core/mtu.h"
#include "tunnel.h"

/*
 * Outer headers (IP, UDP, EQDS data header) added to each data packet. Over
 * IPv6 the pieces of a TCP GSO packet (tcp_gso) carry the TCPSEQ extension.
 */
static inline u32 eqds_overhead(u16 family, bool tcp_gso)
{
	if (family == AF_INET)
		return 20 + 8 + EQDS_DATA_HLEN;
	return 40 + 8 + (tcp_gso ? EQDS_DATA_EXT_HLEN : EQDS_DATA_HLEN);
}

/* May the pieces of skb carry the TCPSEQ extension (over IPv6)? */
static inline bool eqds_tcp_gso(const struct sk_buff *skb)
{
	return skb_is_gso(skb) && (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV6);
}

/*
 * An inner packet (skb->data at its IP header) as core/mtu.h sees it: any
 * context, before or after the tunnel's offloads are set up.
 */
void eqds_fit_describe(const struct sk_buff *skb, struct eqds_fit_pkt *p);
int eqds_xmit_data(struct eqds_net *en, struct eqds_txt *t, struct sk_buff *skb,
		   const struct eqds_pkt *hdr);
int eqds_xmit_ctrl(struct eqds_net *en, struct dst_cache *cache,
		   const struct eqds_addr *local, const struct eqds_addr *peer,
		   const struct eqds_pkt *hdr);

#endif /* _EQDS_XMIT_H */
