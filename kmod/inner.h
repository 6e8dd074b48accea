/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inner packet of an EQDS data packet, checked before it is handed to
 * the stack as if it had arrived on the device.
 */
#ifndef _EQDS_INNER_H
#define _EQDS_INNER_H

#include <linux/skbuff.h>
#include "tunnel.h"

struct eqds_config;

/*
 * Is the inner packet at skb->data a whole, well-formed IP packet of the
 * family next_proto names, from the outer sender (or another configured
 * peer address) to the outer destination? Pulls its IP header into the
 * linear area.
 */
bool eqds_inner_ok(struct sk_buff *skb, u8 next_proto, const struct eqds_config *cfg,
		   const struct eqds_addr *peer, const struct eqds_addr *local);

#endif /* _EQDS_INNER_H */
