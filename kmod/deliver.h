/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Handing decapsulated packets to the stack through GRO, each flow's in
 * the order its tunnel released them.
 */
#ifndef _EQDS_DELIVER_H
#define _EQDS_DELIVER_H

#include <linux/types.h>

struct eqds_net;
struct sk_buff;
struct sk_buff_head;

int eqds_deliver_init(struct eqds_net *en);
/* Only once nothing can deliver any more (sockets closed, tunnels gone). */
void eqds_deliver_destroy(struct eqds_net *en);
/*
 * A received packet eqds keeps for a while: its inner flow is hashed (the
 * hash picks its lane), and it forgets its device (which may go away
 * meanwhile) but remembers the ifindex. Every packet handed to
 * eqds_deliver_list() must have been parked.
 */
void eqds_deliver_park(struct sk_buff *skb);
/*
 * Softirq. Hands list's packets to the stack: the packets of one flow in
 * the order they were handed in, provided the callers handing a flow's
 * packets serialise (the tunnel's ->lock). Empties list.
 */
void eqds_deliver_list(struct eqds_net *en, struct sk_buff_head *list);

#endif /* _EQDS_DELIVER_H */
