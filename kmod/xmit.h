/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _EQDS_XMIT_H
#define _EQDS_XMIT_H

#include <linux/skbuff.h>
#include "core/wire.h"
#include "core/mtu.h"
#include "tunnel.h"

/*
 * Outer headers (IP, UDP, EQDS data header) added to each data packet. Over
 * IPv6 the pieces of a TCP GSO packet carry the TCPSEQ extension.
 */
static inline u32 eqds_overhead(u16 family)
{
	return family == AF_INET ? 20 + 8 + EQDS_DATA_HLEN : 40 + 8 + EQDS_DATA_EXT_HLEN;
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
